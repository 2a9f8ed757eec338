"""Facts that need several log records at once: the cross-rank reasoning of the HCCL article.

Each aggregation is a derivation rule. It reads the facts of task-exception records, Entry- lines,
heartbeat events and symptom matches, groups them by communicator and rank, and derives what
the article compares by hand: ops that differ in a group, the spread of first-error times, streams
of one communicator, the rank the heartbeat evidence blames, and an earlier non-timeout error.
The groupings are public so that the cluster view (faultbot/cluster) tabulates the very records
these rules reason over.

A task exception is three lines of one process (base, groupRank, opData). Log rotation or a paste
cut between them puts the later lines in another file; those join the process's task exception
whose base line is the latest before them, within ``SPLIT_JOIN_WINDOW`` (see ``task_exceptions``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime, timedelta

import msgspec

from ..ingest.records import LogRecord
from .facts import Fact, Provenance, ProvenanceSource, WorkingMemory
from .process import ProcessKey, process_of
from .rules import Context


def _record_of(fact: Fact) -> LogRecord | None:
    provenance = fact.provenance
    if provenance.record is not None:
        return provenance.record
    return next((r for s in provenance.supports if (r := _record_of(s)) is not None), None)


RecordFacts = tuple[LogRecord, dict[str, Fact]]


def facts_by_record(memory: WorkingMemory) -> Iterator[RecordFacts]:
    """Each log record that produced facts, with its facts by name (first value per name)."""
    grouped: dict[int, tuple[LogRecord, dict[str, Fact]]] = {}
    for fact in memory:
        if fact.provenance.source is not ProvenanceSource.LOG or fact.provenance.record is None:
            continue
        record = fact.provenance.record
        grouped.setdefault(id(record), (record, {}))[1].setdefault(fact.name, fact)
    yield from grouped.values()


class TaskExceptionReport(msgspec.Struct):
    """One rank's task-exception report: the base, groupRank and opData lines together."""

    record: LogRecord
    facts: dict[str, Fact] = msgspec.field(default_factory=dict)

    def value(self, name: str) -> object:
        fact = self.facts.get(name)
        return fact.value if fact else None

    @property
    def group(self) -> object:
        return self.value("task_group")

    @property
    def rank(self) -> object:
        rank_id = self.value("rank_id")
        if rank_id is not None:
            return rank_id
        origin = self.record.origin
        return origin.rank if origin.rank is not None else process_of(self.record)

    @property
    def time(self) -> datetime | None:
        return self.record.timestamp


# Facts only a continuation line (groupRank, opData) of a task exception gives.
CONTINUATION_FACTS = frozenset({"rank_size", "op_count"})
# HCCL prints a task exception's three lines within microseconds; a continuation in another file
# joins a base line at most this much earlier, so a later exception of the process never takes it.
SPLIT_JOIN_WINDOW = timedelta(seconds=2)


def task_exceptions(records: Iterable[RecordFacts]) -> list[TaskExceptionReport]:
    """Task exceptions in input order (``records`` as ``facts_by_record`` gives them); a
    base-information line starts one, and its groupRank and opData lines complete it.

    A continuation line joins the task exception open in its own file for its pid, as the lines
    follow each other there. One with none open (its file was rotated, or the paste cut, after the
    base line) joins the task exception of the same process (``process_of``: node and pid) whose
    base line is the latest at or before its time, from any file, when that is at most
    ``SPLIT_JOIN_WINDOW`` earlier, names the same communicator, and lacks what the line gives.
    Without a time or a pid it joins nothing: what it would give stays unknown."""
    events: list[TaskExceptionReport] = []
    open_in_file: dict[tuple[str, int | None], TaskExceptionReport] = {}
    strays: list[RecordFacts] = []
    for record, facts in records:
        # One process is one rank; a rank label ("rank0: ") often prefixes only the first line.
        key = (record.origin.source, record.pid)
        if "task_tag" in facts:
            event = TaskExceptionReport(record, dict(facts))
            events.append(event)
            open_in_file[key] = event
        elif CONTINUATION_FACTS & facts.keys():
            if key in open_in_file:
                _complete(open_in_file[key], facts)
            else:
                strays.append((record, facts))
    if strays:
        _join_across_files(events, strays)
    return events


def _complete(event: TaskExceptionReport, facts: dict[str, Fact]) -> None:
    for name, fact in facts.items():
        event.facts.setdefault(name, fact)


def _join_across_files(events: list[TaskExceptionReport], strays: list[RecordFacts]) -> None:
    # The files of one node come in any order: each process's timed base lines, sorted by time.
    bases: dict[ProcessKey, list[tuple[datetime, TaskExceptionReport]]] = {}
    for event in events:
        if event.time is not None and event.record.pid is not None:
            bases.setdefault(process_of(event.record), []).append((event.time, event))
    for timed in bases.values():
        timed.sort(key=lambda pair: pair[0])
    times = {key: [when for when, _ in timed] for key, timed in bases.items()}
    for record, facts in strays:
        if record.timestamp is None or record.pid is None:
            continue
        key = process_of(record)
        latest = bisect_right(times.get(key, []), record.timestamp) - 1
        if latest < 0:
            continue
        when, event = bases[key][latest]
        if record.timestamp - when <= SPLIT_JOIN_WINDOW and _fits(event, facts):
            _complete(event, facts)


def _fits(event: TaskExceptionReport, facts: dict[str, Fact]) -> bool:
    """Whether a continuation line can be ``event``'s: the event still lacks what the line gives, and
    the communicator the line names (groupRank does) is the event's."""
    if CONTINUATION_FACTS & facts.keys() & event.facts.keys():
        return False
    group = facts.get("task_group")
    return group is None or event.group is None or group.value == event.group


def first_per_rank(events: list[TaskExceptionReport]) -> dict[str, dict[object, TaskExceptionReport]]:
    """Each communicator's first task exception per rank, communicators and ranks in input order."""
    groups: dict[str, dict[object, TaskExceptionReport]] = {}
    for event in events:
        if event.group is not None:
            groups.setdefault(str(event.group), {}).setdefault(event.rank, event)
    return groups


def op_shape(event: TaskExceptionReport) -> tuple[object, object, object]:
    """What ranks of one communicator must agree on: the collective, its count and data type."""
    return event.value("task_op"), event.value("op_count"), event.value("data_type")


def shape_text(shape: tuple[object, object, object]) -> str:
    """``AllReduce (count 256, float32)``, with only the fields that are known."""
    op, count, data_type = shape
    known = [text for value, text in ((count, f"count {count}"), (data_type, str(data_type))) if value is not None]
    return f"{op} ({', '.join(known)})" if known else str(op)


def shapes_differ(events: list[TaskExceptionReport]) -> bool | None:
    """Whether ranks failed in different collectives: True when some field (op, count, data type)
    has two values among the ranks that print it; None (unknown) when they agree so far but a rank
    lacks a field (its lines were split across files or pastes); a missing value is never different."""
    shapes = [op_shape(e) for e in events]
    for field_values in zip(*shapes):
        if len({v for v in field_values if v is not None}) > 1:
            return True
    return None if any(None in shape for shape in shapes) else False


def error_window(events: list[TaskExceptionReport]) -> tuple[datetime, datetime, float] | None:
    """The earliest and the latest time of ``events`` and the seconds between them (the spread);
    None with fewer than two times."""
    times = [e.time for e in events if e.time is not None]
    if len(times) < 2:
        return None
    return min(times), max(times), round((max(times) - min(times)).total_seconds(), 3)


def first_timeout(events: list[TaskExceptionReport]) -> datetime | None:
    return min((e.time for e in events if e.time is not None), default=None)


def op_entries(records: Iterable[RecordFacts]) -> Iterator[RecordFacts]:
    """Entry-Hccl* op lines (HCCL_ENTRY_LOG_ENABLE) that name their communicator and stream."""
    for record, facts in records:
        if "entry_group" in facts and "entry_stream_id" in facts:
            yield record, facts


class HeartbeatEvidence(msgspec.Struct, frozen=True):
    """A heartbeat status (an event, a Cluster Exception, an ERROR CQE) and the rank it names."""

    status: Fact
    rank: Fact
    record: LogRecord

    def priority(self, order: Sequence[str]) -> tuple[int, float]:
        """Higher first: the earlier its status in ``order`` (the KB's heartbeat_priority, ERROR CQE >
        STUCK > LOST), then the earlier in time; a status ``order`` does not name comes last."""
        when = self.record.timestamp.timestamp() if self.record.timestamp else 0.0
        status = str(self.status.value)
        return (len(order) - order.index(status) if status in order else 0), -when


HEARTBEAT_RANK_FACTS = ("heartbeat_crimer_rank", "cluster_exception_location", "roce_remote_device_ip")


def heartbeat_evidence(memory: WorkingMemory, records: Iterable[RecordFacts]) -> list[HeartbeatEvidence]:
    """Every heartbeat status in ``memory`` (read from a log or derived from one) that names a rank,
    in the order the statuses were asserted; ``records`` as ``facts_by_record`` gives them."""
    record_facts = {id(record): facts for record, facts in records}
    found = []
    for status in memory.facts("heartbeat_status"):
        record = _record_of(status)
        if record is None:
            continue
        facts = record_facts.get(id(record), {})
        rank = next((facts[n] for n in HEARTBEAT_RANK_FACTS if n in facts), None)
        if rank is not None:
            found.append(HeartbeatEvidence(status, rank, record))
    return found


def crimer(evidence: list[HeartbeatEvidence], order: Sequence[str]) -> HeartbeatEvidence | None:
    """The highest-priority evidence by the statuses' ``order`` (highest first); the first asserted
    among equals."""
    best: HeartbeatEvidence | None = None
    for item in evidence:
        if best is None or item.priority(order) > best.priority(order):
            best = item
    return best


def _derived(name: str, value: object, rule: str, supports: list[Fact], note: str = "") -> Fact:
    return Fact(name, value, Provenance(ProvenanceSource.DERIVED, rule=rule, supports=tuple(supports), note=note))


def _supports(events: list[TaskExceptionReport], *names: str) -> list[Fact]:
    return [e.facts[n] for e in events for n in names if n in e.facts]


class GroupComparison:
    """ops_differ_in_group, error_time_spread_s and ranks_in_evidence, per communicator."""

    id = "compare-ranks-of-group"
    from_other_ranks = ("ops_differ_in_group", "error_time_spread_s")
    priority = 0
    specificity = 1

    def fire(self, memory: WorkingMemory, context: Context) -> list[Fact]:
        derived = []
        for group, by_rank in first_per_rank(task_exceptions(facts_by_record(memory))).items():
            events = list(by_rank.values())
            derived.append(_derived("ranks_in_evidence", len(events), self.id, _supports(events, "task_group"),
                                    f"communicator {group}"))
            if len(events) < 2:
                continue
            differ = shapes_differ(events)
            ops = ", ".join(f"rank {e.rank}: {shape_text(op_shape(e))}" for e in events)
            if differ is not None:
                derived.append(_derived("ops_differ_in_group", differ, self.id,
                                        _supports(events, "task_op", "op_count", "data_type"),
                                        f"communicator {group}: {ops}"))
            window = error_window(events)
            if window is not None:
                first, last, spread = window
                derived.append(_derived("error_time_spread_s", spread, self.id, _supports(events, "task_tag"),
                                        f"communicator {group}: first errors {first} .. {last}"))
        return derived


class StreamsOfGroup:
    """multi_stream_in_group: Entry-Hccl* lines of one communicator in one process (one rank) on
    more than one stream; stream ids are per device, so ranks are never compared with each other."""

    id = "streams-of-group"
    priority = 0
    specificity = 1

    def fire(self, memory: WorkingMemory, context: Context) -> list[Fact]:
        streams: dict[tuple[str, str, int | None], dict[object, Fact]] = {}
        for record, facts in op_entries(facts_by_record(memory)):
            stream = facts["entry_stream_id"]
            key = (str(facts["entry_group"].value), record.origin.source, record.pid)
            streams.setdefault(key, {}).setdefault(stream.value, stream)
        return [_derived("multi_stream_in_group", len(by_stream) > 1, self.id, list(by_stream.values()),
                         f"communicator {group}, process {pid}: streams {', '.join(map(str, by_stream))}")
                for (group, _, pid), by_stream in streams.items()]


class HeartbeatCrimer:
    """crimer_rank: the rank named by the highest-priority heartbeat evidence, by the KB's
    heartbeat_priority (kb/aggregations.yaml: ERROR CQE > STUCK > LOST)."""

    id = "heartbeat-crimer"
    priority = 0
    specificity = 1

    def __init__(self, order: Sequence[str]):
        self.order = tuple(order)

    def fire(self, memory: WorkingMemory, context: Context) -> list[Fact]:
        best = crimer(heartbeat_evidence(memory, facts_by_record(memory)), self.order)
        if best is None:
            return []
        return [_derived("crimer_rank", best.rank.value, self.id, [best.status, best.rank],
                         f"status {best.status.value}")]


class EarlierRootFault:
    """other_rank_error_first: a fault that is not an echo (not a timeout) was seen no later than
    the first task exception, so the timeouts are its echo; false when no such fault is seen and
    every rank of the communicator is in the input (nothing is left to ask)."""

    id = "earlier-root-error"
    from_other_ranks = ("other_rank_error_first",)
    priority = 0
    specificity = 1

    def fire(self, memory: WorkingMemory, context: Context) -> list[Fact]:
        timeouts = task_exceptions(facts_by_record(memory))
        if not timeouts:
            return []
        first = first_timeout(timeouts)
        for match in context.matches:
            if match.entry_id in context.echo_entries:
                continue
            when = match.record.timestamp
            if first is None or when is None or when <= first:
                origin = match.record.origin
                note = f"{match.entry_id} at {origin.source}:{origin.line}"
                return [_derived("other_rank_error_first", True, self.id,
                                 _supports(timeouts[:1], "task_tag"), note)]
        for group, by_rank in first_per_rank(timeouts).items():
            sizes = {e.value("rank_size") for e in by_rank.values()} - {None}
            if len(sizes) == 1 and len(by_rank) >= int(str(next(iter(sizes)))):
                events = list(by_rank.values())
                return [_derived("other_rank_error_first", False, self.id, _supports(events, "task_group"),
                                 f"communicator {group}: all {len(events)} ranks in the input, none failed first")]
        return []


AGGREGATIONS = (GroupComparison(), StreamsOfGroup(), EarlierRootFault())     # and HeartbeatCrimer, with the KB's order
# Facts these derive by comparing ranks: one paste of the other ranks' logs settles them all.
FROM_OTHER_RANKS = frozenset(fact for rule in AGGREGATIONS for fact in getattr(rule, "from_other_ranks", ()))
