"""Root-rank localisation as the HCCL article reasons: one finding per verdict, each with its reason.

The verdicts follow the engine's derivations over the same records: the crimer of the heartbeat
evidence, other_rank_error_first, comm_destroyed_before_sync, ops_differ_in_group, the spread of
first errors against the effective HCCL_EXEC_TIMEOUT, multi_stream_in_group. They name the ranks
behind those facts, so the suspects and the engine's conclusion agree. Ranks silent while the others
timed out have no engine fact; that finding only adds ranks and reasons.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from datetime import datetime
from enum import Enum

import msgspec

from ..engine.aggregates import (
    HeartbeatEvidence,
    TaskExceptionReport,
    error_window,
    first_timeout,
    op_shape,
    shape_text,
)
from ..engine.facts import WorkingMemory
from ..engine.process import ProcessKey
from .identity import Identities
from .rank_evidence import RankEvidence, RankFailure
from .table import RankRow, RowStatus


class FindingKind(str, Enum):
    """In the order suspects are listed: the article's order of evidence."""

    HEARTBEAT = "heartbeat"              # the crimer of the heartbeat evidence
    LINK = "link"                        # both ends of one link report each other
    EARLIEST_ERROR = "earliest-error"    # the earliest error that is not a timeout
    DESTROYED_EARLY = "destroyed-early"  # a communicator destroyed before its last op completed
    OP_MISMATCH = "op-mismatch"          # failed in another op than the rest of its communicator
    LATE_RANK = "late-rank"              # the last to report, later than HCCL_EXEC_TIMEOUT
    MULTI_STREAM = "multi-stream"        # ops of one communicator on two streams
    SILENT = "silent"                    # no error while the others timed out
    INCONSISTENT = "inconsistent"        # every rank timed out in time: no single rank to blame


class Finding(msgspec.Struct, frozen=True):
    kind: FindingKind
    ranks: tuple[ProcessKey, ...]        # the ranks it points at (none for INCONSISTENT)
    group: str | None
    reason: str


class Suspect(msgspec.Struct, frozen=True):
    process: ProcessKey
    findings: tuple[Finding, ...]        # why, in the order of FindingKind


def _seconds(memory: WorkingMemory, *names: str) -> float | None:
    """The first numeric value of the first of ``names`` the engine derived."""
    for name in names:
        found = [v for v in memory.values(name) if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if found:
            return found[0]
    return None


class EngineFacts(msgspec.Struct, frozen=True):
    """The engine's derived facts that the verdicts follow. The effective HCCL_EXEC_TIMEOUT is a
    range while the product or expansion mode is unknown: a spread above its top is a late rank
    on any product, one below its bottom is not."""

    other_rank_error_first: bool
    ops_differ: bool
    multi_stream: bool
    destroyed_early: bool
    late_after_s: float | None           # exec_timeout_max_s (or the one effective value)
    in_time_within_s: float | None       # exec_timeout_min_s (or the one effective value)

    @classmethod
    def of(cls, memory: WorkingMemory) -> EngineFacts:
        def holds(name: str) -> bool:
            return True in memory.values(name)
        return cls(holds("other_rank_error_first"), holds("ops_differ_in_group"), holds("multi_stream_in_group"),
                   holds("comm_destroyed_before_sync"),
                   _seconds(memory, "exec_timeout_max_s", "effective_exec_timeout_s"),
                   _seconds(memory, "exec_timeout_min_s", "effective_exec_timeout_s"))


class Inputs(msgspec.Struct, frozen=True):
    """What the view assembled from one diagnosis."""

    identities: Identities
    evidence: Mapping[ProcessKey, RankEvidence]
    rows: tuple[RankRow, ...]
    first_errors: dict[str, dict[object, TaskExceptionReport]]    # per communicator, per rank (aggregates)
    timeouts: list[TaskExceptionReport]
    crimer: HeartbeatEvidence | None
    engine: EngineFacts
    heartbeat_priority: tuple[str, ...]     # the KB's order of heartbeat statuses, highest first

    def label(self, key: ProcessKey) -> str:
        info = self.identities.info(key)
        return info.label if info else str(key)


def clock(moment: datetime | None) -> str:
    return moment.strftime("%H:%M:%S.%f")[:-3] if moment else "(no time)"


def _what(error: RankFailure) -> str:
    return f"{error.code} ({error.entry})" if error.code else error.entry


def _heartbeat(inputs: Inputs) -> list[Finding]:
    best = inputs.crimer
    if best is None:
        return []
    printed, status = str(best.rank.value), str(best.status.value)
    target = inputs.identities.resolve(printed)
    if target is None:
        return [Finding(FindingKind.HEARTBEAT, (), None, f"the cluster heartbeat blames `{printed}` ({status}), which is "
                        "not among the ranks in these logs: find its node by that IP and its rank by the ID")]
    reporters = {key for key, found in inputs.evidence.items() for seen in found.heartbeats
                 if seen.status == status and inputs.identities.resolve(seen.names) == target}
    findings = [Finding(FindingKind.HEARTBEAT, (target,), None,
                        f"the cluster heartbeat blames it: {status} (`{printed}`) in the logs of {len(reporters)} "
                        f"rank(s), the first at {clock(best.record.timestamp)}; by priority "
                        f"{' > '.join(inputs.heartbeat_priority)}, this is the heartbeat's root rank")]
    return findings + _links(inputs, target)


def _links(inputs: Inputs, target: ProcessKey) -> list[Finding]:
    """Ranks that report the target and that the target reports back: one link seen from both ends."""
    edges: dict[tuple[ProcessKey, ProcessKey], set[str]] = {}
    for key, found in inputs.evidence.items():
        for seen in found.heartbeats:
            named = inputs.identities.resolve(seen.names)
            reporter = key if seen.detected else inputs.identities.resolve(seen.informer) if seen.informer else None
            if named is not None and reporter is not None and named != reporter:
                edges.setdefault((reporter, named), set()).add(seen.status)
    ends = sorted({a for (a, b) in edges if b == target and (target, a) in edges})
    return [Finding(FindingKind.LINK, (target, end), None,
                    f"{inputs.label(target)} and {inputs.label(end)} report each other "
                    f"({', '.join(sorted(edges[(end, target)] | edges[(target, end)]))}): one link seen from both "
                    "ends points at the network between them rather than at either process; check "
                    "`hccn_tool -i <device> -link_stat -g` on both nodes") for end in ends]


def _earliest_error(inputs: Inputs) -> list[Finding]:
    if not inputs.engine.other_rank_error_first:
        return []
    first = first_timeout(inputs.timeouts)
    found = [(error, key) for key, evidence in inputs.evidence.items() for error in evidence.errors
             if not error.echo and (first is None or error.time is None or error.time <= first)]
    if not found:
        return []
    error, key = min(found, key=lambda pair: (pair[0].time is None, pair[0].time or datetime.min))
    before = ""
    if first is not None and error.time is not None:
        before = f", {(first - error.time).total_seconds():.3f} s before the first timeout"
    return [Finding(FindingKind.EARLIEST_ERROR, (key,), error.group,
                    f"its {_what(error)} at {clock(error.time)} is the earliest error that is not a timeout"
                    f"{before}: the timeouts of the others are its echo")]


def _destroyed_early(inputs: Inputs) -> list[Finding]:
    if not inputs.engine.destroyed_early:
        return []
    findings = []
    for key, evidence in inputs.evidence.items():
        destroyed, error = evidence.destroyed, evidence.first_error()
        if destroyed is None or destroyed.timestamp is None or error is None or error.time is None:
            continue
        if destroyed.timestamp > error.time:
            continue
        ops = [op for op in evidence.ops if op.record.timestamp and op.record.timestamp <= destroyed.timestamp]
        last = ops[-1] if ops else None
        dispatched = (f", {(destroyed.timestamp - last.record.timestamp).total_seconds() * 1000:.0f} ms after "
                      f"dispatching {last.tag} on stream {last.stream}" if last and last.record.timestamp else
                      " (no Entry- op lines: HCCL_ENTRY_LOG_ENABLE was off)")
        findings.append(Finding(FindingKind.DESTROYED_EARLY, (key,), last.group if last else None,
                                f"it began destroying a communicator (Entry-HcclCommDestroy) at "
                                f"{clock(destroyed.timestamp)}{dispatched}, and its first error ({_what(error)}) "
                                f"followed at {clock(error.time)}: the communicator was destroyed before its last "
                                "op completed, freeing the buffers that op still used"))
    return findings


def _op_mismatch(inputs: Inputs) -> list[Finding]:
    if not inputs.engine.ops_differ:
        return []
    findings = []
    for group, by_rank in inputs.first_errors.items():
        # a rank whose lines lack a field (split across files) is not compared: missing is not different
        shapes = Counter(shape for event in by_rank.values() if None not in (shape := op_shape(event)))
        if len(shapes) < 2:
            continue
        (majority, size), (_, runner_up) = shapes.most_common(2)
        odd = [shape for shape in shapes if shape != majority] if size > runner_up else list(shapes)
        for shape in odd:
            keys = tuple(inputs.identities.of(e.record) for e in by_rank.values() if op_shape(e) == shape)
            others = (f"{len(by_rank) - len(keys)} other rank(s) of {group} failed in {shape_text(majority)}"
                      if size > runner_up else
                      f"the ranks of {group} failed in {', '.join(map(shape_text, shapes))}")
            findings.append(Finding(FindingKind.OP_MISMATCH, keys, group,
                                    f"it failed in {shape_text(shape)} while {others}: ranks of one "
                                    "communicator dispatched different collectives"))
    return findings


def _late_rank(inputs: Inputs) -> list[Finding]:
    timeout = inputs.engine.late_after_s
    findings = []
    for group, by_rank in inputs.first_errors.items():
        events = list(by_rank.values())
        window = error_window(events)
        if window is None or timeout is None or window[2] <= timeout:
            continue
        first, last, spread = window
        earliest = next(e for e in events if e.time == first)
        keys = tuple(inputs.identities.of(e.record) for e in events if e.time == last)
        findings.append(Finding(FindingKind.LATE_RANK, keys, group,
                                f"the last of the {len(events)} ranks of {group} to report: its first error at "
                                f"{clock(last)} is {spread:.0f} s after the earliest "
                                f"({inputs.label(inputs.identities.of(earliest.record))} at {clock(first)}), more than "
                                f"HCCL_EXEC_TIMEOUT ({timeout:.0f} s): it reached the collective so late that the "
                                "others had given up waiting"))
    return findings


def _multi_stream(inputs: Inputs) -> list[Finding]:
    if not inputs.engine.multi_stream:
        return []
    findings = []
    for key, evidence in inputs.evidence.items():
        streams: dict[str, set[str]] = {}
        for op in evidence.ops:
            streams.setdefault(op.group, set()).add(str(op.stream))
        findings += [Finding(FindingKind.MULTI_STREAM, (key,), group,
                             f"it dispatched ops of {group} on streams {', '.join(sorted(found))}: two ops of one "
                             "communicator on different streams run concurrently unless the streams are synchronised")
                     for group, found in streams.items() if len(found) > 1]
    return findings


def _by_group(rows: Sequence[RankRow]) -> dict[str, list[RankRow]]:
    grouped: dict[str, list[RankRow]] = {}
    for row in rows:
        grouped.setdefault(row.group, []).append(row)
    return grouped


def _silent(inputs: Inputs) -> list[Finding]:
    findings = []
    for group, rows in _by_group(inputs.rows).items():
        silent = tuple(row.process for row in rows if row.status is RowStatus.SILENT and row.process is not None)
        waited = sum(row.status is RowStatus.TIMEOUT for row in rows)
        # Most of a communicator silent means the few timeouts are the odd ones, not the silence.
        if silent and len(silent) < waited:
            findings.append(Finding(FindingKind.SILENT, silent, group,
                                    f"no error in its logs while {waited} rank(s) of {group} timed out waiting: it "
                                    "hung or exited without reporting, or its logs are missing"))
    return findings


def _inconsistent(inputs: Inputs, named: set[str | None]) -> list[Finding]:
    engine = inputs.engine
    if inputs.crimer is not None or engine.other_rank_error_first or engine.ops_differ:
        return []
    findings = []
    for group, by_rank in inputs.first_errors.items():
        window = error_window(list(by_rank.values()))
        within = engine.in_time_within_s
        if group in named or window is None or (within is not None and window[2] > within):
            continue
        limit = f" (HCCL_EXEC_TIMEOUT {within:.0f} s)" if within is not None else ""
        findings.append(Finding(FindingKind.INCONSISTENT, (), group,
                                f"all {len(by_rank)} ranks of {group} that reported timed out within "
                                f"{window[2]:.0f} s of each other{limit}, and no heartbeat event or earlier error "
                                "names a rank: the ranks behaved inconsistently (scripts, software versions or data "
                                "sets); set HCCL_ENTRY_LOG_ENABLE=1, reproduce, and compare the ops each rank "
                                "dispatched"))
    return findings


def localise(inputs: Inputs) -> tuple[tuple[Finding, ...], tuple[Suspect, ...]]:
    """Every finding, and the ranks they point at with their reasons, strongest first."""
    findings = [*_heartbeat(inputs), *_earliest_error(inputs), *_destroyed_early(inputs), *_op_mismatch(inputs),
                *_late_rank(inputs), *_multi_stream(inputs), *_silent(inputs)]
    findings += _inconsistent(inputs, {f.group for f in findings if f.ranks})
    order = list(FindingKind)
    findings.sort(key=lambda f: order.index(f.kind))
    reasons: dict[ProcessKey, list[Finding]] = {}
    for finding in findings:
        for key in finding.ranks:
            reasons.setdefault(key, []).append(finding)
    return tuple(findings), tuple(Suspect(key, tuple(found)) for key, found in reasons.items())
