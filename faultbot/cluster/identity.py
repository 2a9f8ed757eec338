"""Who wrote each record: the rank's process (node and pid), and the rank it holds in each communicator.

The process key and which process wrote a record are the engine's (faultbot/engine/process.py), so
the cluster view groups records as the engine's cross-rank rules do; this module adds the ranks.
Ranks come from the Entry-HcclCommInitRootInfoInner lines a process printed, from its task
exceptions' groupRank information, and from the path (``rank-N.txt``, ``[rankN]:`` prefixes).
Heartbeat and RoCE records name ranks as ``IP/ID`` or by device IP; those resolve to processes
through what each process printed about itself.
"""

from __future__ import annotations

import msgspec

from ..engine.aggregates import RecordFacts, TaskExceptionReport
from ..engine.process import ProcessKey, process_of
from ..ingest.records import LogRecord


class Membership(msgspec.Struct, frozen=True):
    """A process's rank in one communicator, as its comm-init or groupRank line says."""

    group: str
    rank: int
    size: int | None
    device: int | None       # deviceLogicId: the NPU (hccn_tool -i <device>)


class RankInfo(msgspec.Struct, frozen=True):
    """What a process's own records say about the ranks it holds."""

    key: ProcessKey
    memberships: tuple[Membership, ...]    # one per communicator, first seen first
    world_rank: int | None                 # rank in the largest communicator, else the path's rank
    heartbeat_id: str | None               # "IP/ID" as its own heartbeat lines print it
    device_ip: str | None                  # as its own RoCE records print it

    @property
    def node(self) -> str:
        return self.key.node

    @property
    def pid(self) -> int | None:
        return self.key.pid if self.key.pid >= 0 else None

    @property
    def label(self) -> str:
        if self.world_rank is not None:
            return f"rank {self.world_rank} ({self.node})" if self.node else f"rank {self.world_rank}"
        return str(self.key)


class _Seen(msgspec.Struct):
    """What the records of one process said so far, while they are read."""

    memberships: dict[str, Membership] = msgspec.field(default_factory=dict)
    path_rank: int | None = None
    heartbeat_id: str | None = None
    device_ip: str | None = None


class Identities(msgspec.Struct, frozen=True):
    """Every process that holds a rank, the largest communicator, and lookups by the labels records
    name ranks with."""

    ranks: dict[ProcessKey, RankInfo]
    world: str | None                        # the largest communicator
    aliases: dict[ProcessKey, ProcessKey]    # screen output keyed by path rank -> its process
    _by_label: dict[str, ProcessKey] = msgspec.field(default_factory=dict)        # heartbeat id, device IP
    _by_world_rank: dict[int, list[ProcessKey]] = msgspec.field(default_factory=dict)
    _node_ip: dict[str, str] = msgspec.field(default_factory=dict)

    @classmethod
    def indexed(cls, ranks: dict[ProcessKey, RankInfo], world: str | None,
                aliases: dict[ProcessKey, ProcessKey]) -> Identities:
        by_label: dict[str, ProcessKey] = {}
        by_world_rank: dict[int, list[ProcessKey]] = {}
        node_ip: dict[str, str] = {}
        for key, info in ranks.items():
            for label in (info.heartbeat_id, info.device_ip):
                if label:
                    by_label.setdefault(label, key)
            if info.world_rank is not None:
                by_world_rank.setdefault(info.world_rank, []).append(key)
            if info.heartbeat_id:
                node_ip.setdefault(info.node, info.heartbeat_id.rpartition("/")[0])
        return cls(ranks, world, aliases, by_label, by_world_rank, node_ip)

    def of(self, record: LogRecord) -> ProcessKey:
        key = process_of(record)
        return self.aliases.get(key, key)

    def info(self, key: ProcessKey) -> RankInfo | None:
        return self.ranks.get(key)

    def resolve(self, label: object) -> ProcessKey | None:
        """The process a heartbeat or RoCE record names: ``IP/ID`` or a device IP."""
        text = str(label).strip()
        if text in self._by_label:
            return self._by_label[text]
        ip, _, rank_id = text.rpartition("/")
        if not rank_id.isdigit():
            return None
        keys = self._by_world_rank.get(int(rank_id), [])
        # The same rank id on several nodes (the logs of several jobs): the IP says which node.
        on_node = [key for key in keys if self._node_ip.get(key.node) == ip]
        return (on_node or keys or [None])[0]


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def identify(records: list[RecordFacts], events: list[TaskExceptionReport]) -> Identities:
    """Every process the records show (``facts_by_record``, ``task_exceptions``), with what each
    says about its ranks."""
    seen: dict[ProcessKey, _Seen] = {}
    for record, facts in records:
        key = process_of(record)
        state = seen.setdefault(key, _Seen())
        if record.origin.rank is not None and state.path_rank is None:
            state.path_rank = record.origin.rank
        values = {name: fact.value for name, fact in facts.items()}
        if "comm_identifier" in values and _int(values.get("comm_rank")) is not None:
            group = str(values["comm_identifier"])
            state.memberships.setdefault(group, Membership(group, values["comm_rank"], _int(values.get("comm_ranks")),
                                                           _int(values.get("device_logic_id"))))
        state.heartbeat_id = state.heartbeat_id or _text(values.get("heartbeat_local_rank"))
        state.device_ip = state.device_ip or _text(values.get("roce_local_device_ip"))
    for event in events:
        rank_id, group = _int(event.value("rank_id")), event.group
        if rank_id is not None and group is not None:
            state = seen.setdefault(process_of(event.record), _Seen())
            state.memberships.setdefault(str(group), Membership(str(group), rank_id, _int(event.value("rank_size")),
                                                                _int(event.value("device_id"))))
    world = _largest(seen)
    ranks = {key: _info(key, state, world) for key, state in seen.items()
             if state.memberships or state.path_rank is not None}
    aliases = _aliases(ranks)
    for alias in aliases:
        del ranks[alias]
    return Identities.indexed(ranks, world, aliases)


def _text(value: object) -> str | None:
    return str(value) if value is not None else None


def _largest(seen: dict[ProcessKey, _Seen]) -> str | None:
    sizes: dict[str, tuple[int, int]] = {}
    for state in seen.values():
        for membership in state.memberships.values():
            size, members = sizes.get(membership.group, (0, 0))
            sizes[membership.group] = (max(size, membership.size or 0), members + 1)
    return max(sizes, key=lambda group: sizes[group]) if sizes else None


def _info(key: ProcessKey, state: _Seen, world: str | None) -> RankInfo:
    in_world = state.memberships.get(world) if world else None
    world_rank = in_world.rank if in_world else state.path_rank
    return RankInfo(key, tuple(state.memberships.values()), world_rank, state.heartbeat_id, state.device_ip)


def _aliases(ranks: dict[ProcessKey, RankInfo]) -> dict[ProcessKey, ProcessKey]:
    """Output known only by its path's rank, joined to the process of that rank on the same node."""
    by_rank = {(info.node, info.world_rank): key for key, info in ranks.items() if key.pid >= 0}
    return {key: by_rank[(key.node, key.path_rank)] for key in ranks
            if key.pid < 0 and (key.node, key.path_rank) in by_rank}
