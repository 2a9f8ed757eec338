"""The cluster view as JSON: the ``cluster`` object of ``diagnose --format json`` (schema 1), present
when the input holds several ranks."""

from __future__ import annotations

from ..cluster.identity import ProcessKey
from ..cluster.localise import Finding
from ..cluster.rank_evidence import HeartbeatSeen, OpEntry, RankFailure
from ..cluster.table import RankRow
from ..cluster.view import ClusterView
from ..ingest.records import LogRecord
from .json_values import json_value


def _at(record: LogRecord | None) -> dict[str, object] | None:
    if record is None:
        return None
    return {"time": json_value(record.timestamp), "file": record.origin.source, "line": record.origin.line}


def _error(error: RankFailure | None) -> dict[str, object] | None:
    if error is None:
        return None
    return {**(_at(error.record) or {}), "code": error.code, "entry": error.entry, "timeout": error.echo,
            "group": error.group, "op": error.op, "tag": error.tag, "stream": json_value(error.stream),
            "text": error.record.raw.strip()}


def _op(op: OpEntry | None) -> dict[str, object] | None:
    return None if op is None else {**(_at(op.record) or {}), "tag": op.tag, "stream": json_value(op.stream)}


def _heartbeat(seen: HeartbeatSeen) -> dict[str, object]:
    return {"time": json_value(seen.record.timestamp), "status": seen.status, "blames": seen.names,
            "informer": seen.informer, "detected_here": seen.detected}


def _rank_ref(view: ClusterView, key: ProcessKey) -> dict[str, object]:
    info = view.identities.info(key)
    return {"rank": info.world_rank if info else None, "node": key.node or None,
            "pid": key.pid if key.pid >= 0 else None}


def _row(view: ClusterView, row: RankRow, suspects: set[ProcessKey]) -> dict[str, object]:
    where = _rank_ref(view, row.process) if row.process is not None else {"node": None, "pid": None}
    return {"rank": row.rank, "node": where["node"], "pid": where["pid"], "device": row.device,
            "world_rank": where.get("rank"), "status": row.status.value, "suspect": row.process in suspects,
            "first_error": _error(row.first_error), "last_op": _op(row.last_op),
            "heartbeat_events": [_heartbeat(seen) for seen in row.heartbeats],
            "destroyed_at": json_value(row.destroyed.timestamp) if row.destroyed else None}


def _finding(view: ClusterView, finding: Finding) -> dict[str, object]:
    return {"kind": finding.kind.value, "group": finding.group, "reason": finding.reason,
            "ranks": [_rank_ref(view, key) for key in finding.ranks]}


def cluster_dict(view: ClusterView) -> dict[str, object]:
    suspects = {s.process for s in view.suspects}
    rows: dict[str, list[dict[str, object]]] = {}
    for row in view.rows:
        rows.setdefault(row.group, []).append(_row(view, row, suspects))
    return {
        "ranks": len(view.identities.ranks), "nodes": list(view.nodes), "world": view.identities.world,
        "communicators": [{"name": c.name, "size": c.size, "ranks_with_logs": len(c.members),
                           "missing_ranks": list(c.missing), "missing_unlisted": c.missing_unlisted,
                           "ranks": rows.get(c.name, [])}
                          for c in view.communicators],
        "timeline": [{**_rank_ref(view, e.process), "offset_s": e.offset_s, "first_error": _error(e.error)}
                     for e in view.timeline],
        "suspects": [{**_rank_ref(view, s.process),
                      "communicators": {m.group: m.rank for m in (view.identities.info(s.process).memberships
                                                                  if view.identities.info(s.process) else ())},
                      "reasons": [{"kind": f.kind.value, "group": f.group, "text": f.reason} for f in s.findings],
                      "first_error": _error(view.evidence[s.process].first_error())} for s in view.suspects],
        "findings": [_finding(view, f) for f in view.findings],
    }
