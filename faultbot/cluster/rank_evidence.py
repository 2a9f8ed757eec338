"""What each rank's own records say: its errors (earliest first), the ops it dispatched, the heartbeat
events it received, and when it began destroying a communicator."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import msgspec

from ..engine.aggregates import HeartbeatEvidence, RecordFacts, op_entries
from ..engine.facts import Fact
from ..engine.process import ProcessKey
from ..ingest.records import LogRecord
from ..match.symptoms import SymptomMatch
from .identity import Identities

# Matched records at these levels are context (Entry- lines, heartbeat events), not the rank's errors.
_CONTEXT_LEVELS = frozenset({"INFO", "DEBUG", "TRACE", "EVENT"})
# Facts of records that only relay another rank's failure (a heartbeat event, a Cluster Exception).
_RELAYED = ("heartbeat_crimer_rank", "cluster_exception_location")


class RankFailure(msgspec.Struct, frozen=True):
    """A failure record a rank printed itself (a record, not an exception), as the cluster view shows it."""

    record: LogRecord
    entry: str               # the KB entry the record matched (a non-echo one when there is one)
    echo: bool               # a timeout: usually the echo of another rank's failure
    code: str | None
    group: str | None        # the communicator the record names; None when it names none
    op: str | None           # the failed collective (AllReduce, ...) and its tag, for task exceptions
    tag: str | None
    stream: object

    @property
    def time(self) -> datetime | None:
        return self.record.timestamp


class OpEntry(msgspec.Struct, frozen=True):
    """An Entry-Hccl* line: a collective the rank dispatched (with HCCL_ENTRY_LOG_ENABLE)."""

    record: LogRecord
    group: str
    tag: str
    stream: object


class HeartbeatSeen(msgspec.Struct, frozen=True):
    """A heartbeat status in a rank's log: an event relayed to it, or an ERROR CQE it detected."""

    status: str
    names: str               # the rank blamed, as printed (IP/ID or device IP)
    informer: str | None     # the rank that reported it, as printed, when the record says
    detected: bool           # this rank saw it itself (its own ERROR CQE toward ``names``)
    record: LogRecord


class RankEvidence(msgspec.Struct, frozen=True):
    errors: tuple[RankFailure, ...] = ()           # earliest first; records without a time last
    ops: tuple[OpEntry, ...] = ()                # in input order
    heartbeats: tuple[HeartbeatSeen, ...] = ()
    destroyed: LogRecord | None = None           # the first Entry-HcclCommDestroy

    def first_error(self, group: str | None = None) -> RankFailure | None:
        """The first error; with ``group``, the first that names it, or that names no communicator
        when the rank's errors name no other one (a screen EI0002 of a rank whose task exceptions
        are in the world communicator is not an error of its tensor-parallel communicator)."""
        if group is None:
            return self.errors[0] if self.errors else None
        unnamed_here = all(e.group in (None, group) for e in self.errors)
        return next((e for e in self.errors if e.group == group or (e.group is None and unnamed_here)), None)

    def last_op(self, group: str | None = None) -> OpEntry | None:
        return next((op for op in reversed(self.ops) if group is None or op.group == group), None)


def _value(facts: Mapping[str, Fact], name: str) -> object:
    fact = facts.get(name)
    return fact.value if fact else None


def _error(record: LogRecord, matches: list[SymptomMatch], facts: Mapping[str, Fact],
           echo_entries: frozenset[str], codes: Mapping[str, tuple[str, ...]]) -> RankFailure:
    root = next((m for m in matches if m.entry_id not in echo_entries), None)
    entry = (root or matches[0]).entry_id
    code = record.error_code or _value(facts, "error_code") or next(iter(codes.get(entry, ())), None)
    group, op, tag = (_value(facts, name) for name in ("task_group", "task_op", "task_tag"))
    return RankFailure(record, entry, root is None, str(code) if code else None, _text(group), _text(op), _text(tag),
                     _value(facts, "task_stream_id"))


def _text(value: object) -> str | None:
    return str(value) if value is not None else None


def _time_order(record: LogRecord) -> tuple[bool, datetime]:
    return record.timestamp is None, record.timestamp or datetime.min


def _errors(facts_of: Mapping[int, Mapping[str, Fact]], matches: Sequence[SymptomMatch], identities: Identities,
            echo_entries: frozenset[str], codes: Mapping[str, tuple[str, ...]]) -> dict[ProcessKey, list[RankFailure]]:
    matched: dict[int, tuple[LogRecord, list[SymptomMatch]]] = {}
    for match in matches:
        matched.setdefault(id(match.record), (match.record, []))[1].append(match)
    errors: dict[ProcessKey, list[RankFailure]] = {}
    for record, found in matched.values():
        facts = facts_of.get(id(record), {})
        if record.level in _CONTEXT_LEVELS or any(name in facts for name in _RELAYED):
            continue
        errors.setdefault(identities.of(record), []).append(_error(record, found, facts, echo_entries, codes))
    return errors


def _ops(records: list[RecordFacts], identities: Identities) -> dict[ProcessKey, list[OpEntry]]:
    ops: dict[ProcessKey, list[OpEntry]] = {}
    for record, facts in op_entries(records):
        ops.setdefault(identities.of(record), []).append(
            OpEntry(record, str(_value(facts, "entry_group")), str(_value(facts, "entry_tag")),
                    _value(facts, "entry_stream_id")))
    return ops


def _heartbeats(facts_of: Mapping[int, Mapping[str, Fact]], evidence: list[HeartbeatEvidence],
                identities: Identities) -> dict[ProcessKey, list[HeartbeatSeen]]:
    heartbeats: dict[ProcessKey, list[HeartbeatSeen]] = {}
    for item in evidence:
        facts = facts_of.get(id(item.record), {})
        informer = _value(facts, "heartbeat_informer_rank") or _value(facts, "cluster_exception_discoverer")
        heartbeats.setdefault(identities.of(item.record), []).append(
            HeartbeatSeen(str(item.status.value), str(item.rank.value), _text(informer),
                          item.rank.name == "roce_remote_device_ip", item.record))
    return heartbeats


def _destroyed(records: list[RecordFacts], identities: Identities) -> dict[ProcessKey, LogRecord]:
    destroyed: dict[ProcessKey, LogRecord] = {}
    for record, facts in records:
        key = identities.of(record)
        if "comm_destroyed" in facts and (key not in destroyed or _time_order(record) < _time_order(destroyed[key])):
            destroyed[key] = record
    return destroyed


def rank_evidence(records: list[RecordFacts], heartbeat: list[HeartbeatEvidence], matches: Sequence[SymptomMatch],
                  identities: Identities, echo_entries: frozenset[str],
                  codes: Mapping[str, tuple[str, ...]]) -> dict[ProcessKey, RankEvidence]:
    """The evidence of every process that holds a rank, from the facts (``facts_by_record``),
    heartbeat evidence and symptom matches of a diagnosis."""
    facts_of = {id(record): facts for record, facts in records}
    errors = _errors(facts_of, matches, identities, echo_entries, codes)
    ops = _ops(records, identities)
    heartbeats = _heartbeats(facts_of, heartbeat, identities)
    destroyed = _destroyed(records, identities)
    return {key: RankEvidence(tuple(sorted(errors.get(key, ()), key=lambda e: _time_order(e.record))),
                              tuple(ops.get(key, ())), tuple(heartbeats.get(key, ())), destroyed.get(key))
            for key in identities.ranks}
