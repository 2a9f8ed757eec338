"""Communicators and their members: which process holds which rank of each group, and which
ranks of a group left no logs at all."""

from __future__ import annotations

from dataclasses import dataclass

from .identity import Identities, ProcessKey

# Groups larger than this are not expanded into their missing ranks (a corrupt size, not a job).
_MAX_LISTED_SIZE = 1 << 17


@dataclass(frozen=True)
class Member:
    rank: int
    process: ProcessKey
    device: int | None


@dataclass(frozen=True)
class Communicator:
    name: str
    size: int | None
    members: tuple[Member, ...]      # by rank; a rank two processes claim appears twice

    @property
    def missing(self) -> tuple[int, ...]:
        """Ranks of the group that no log in the input speaks for."""
        if self.size is None or self.size > _MAX_LISTED_SIZE:
            return ()
        present = {member.rank for member in self.members}
        return tuple(rank for rank in range(self.size) if rank not in present)


def communicators(identities: Identities) -> tuple[Communicator, ...]:
    """Every communicator the processes joined, the largest (the world) first, then by name."""
    members: dict[str, list[Member]] = {}
    sizes: dict[str, int | None] = {}
    for key, info in identities.ranks.items():
        for membership in info.memberships:
            members.setdefault(membership.group, []).append(Member(membership.rank, key, membership.device))
            if membership.size is not None:
                sizes[membership.group] = max(sizes.get(membership.group) or 0, membership.size)
    order = sorted(members, key=lambda name: (name != identities.world, name))
    return tuple(Communicator(name, sizes.get(name), tuple(sorted(members[name], key=lambda m: (m.rank, m.process))))
                 for name in order)
