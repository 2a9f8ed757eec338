"""Communicators and their members: which process holds which rank of each group, and which
ranks of a group left no logs at all."""

from __future__ import annotations

from itertools import islice

import msgspec

from ..engine.process import ProcessKey
from .identity import Identities

# Ranks without logs listed over all communicators together: past this they are counted, not listed
# (a few KB of comm-init lines can claim millions of ranks that left no logs, or a corrupt size).
MAX_MISSING_LISTED = 1 << 14


class Member(msgspec.Struct, frozen=True):
    rank: int
    process: ProcessKey
    device: int | None


class Communicator(msgspec.Struct, frozen=True):
    name: str
    size: int | None
    members: tuple[Member, ...]      # by rank; a rank two processes claim appears twice
    missing: tuple[int, ...] = ()    # ranks of the group that no log in the input speaks for, as listed
    missing_unlisted: int = 0        # ... and how many more there are (MAX_MISSING_LISTED)


def _missing(size: int | None, members: list[Member], most: int) -> tuple[tuple[int, ...], int]:
    """The first ``most`` ranks of a group of ``size`` that no member holds, and how many more: the
    ranks looked at are at most ``most`` and the members, whatever size the logs claim."""
    if size is None:
        return (), 0
    present = {member.rank for member in members if 0 <= member.rank < size}
    listed = tuple(islice((rank for rank in range(size) if rank not in present), most))
    return listed, size - len(present) - len(listed)


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
    found = []
    left = MAX_MISSING_LISTED
    for name in order:
        missing, unlisted = _missing(sizes.get(name), members[name], left)
        left -= len(missing)
        by_rank = tuple(sorted(members[name], key=lambda m: (m.rank, m.process)))
        found.append(Communicator(name, sizes.get(name), by_rank, missing, unlisted))
    return tuple(found)
