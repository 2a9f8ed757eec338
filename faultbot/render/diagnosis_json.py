"""A diagnosis as versioned JSON (``"schema": 1``), the contract scripts and other tools read.

Documented in README.md#json-output. Within schema 1 fields are only ever added; ``cluster`` is
present when the input holds several ranks.
"""

from __future__ import annotations

from dataclasses import asdict
from datetime import datetime

from ..cluster.identity import ProcessKey
from ..cluster.localise import Finding
from ..cluster.rank_evidence import HeartbeatSeen, OpEntry, RankError
from ..cluster.table import RankRow
from ..cluster.view import ClusterView
from ..engine.candidates import Candidate
from ..engine.diagnosis import Diagnosis
from ..engine.explain import how, why
from ..engine.facts import Fact, Source, WorkingMemory
from ..engine.fill import fill
from ..ingest.records import LogRecord
from ..ingest.stats import InputStats
from ..kb.loader import KnowledgeBase
from .entry_json import citation_dict

SCHEMA_VERSION = 1


def json_value(value: object) -> object:
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


def _provenance(fact: Fact) -> dict[str, object]:
    provenance = fact.provenance
    out: dict[str, object] = {"value": json_value(fact.value), "source": provenance.source.value}
    if provenance.source is Source.LOG and provenance.record is not None:
        origin = provenance.record.origin
        out.update(file=origin.source, line=origin.line, rank=origin.rank, node=origin.node)
    if provenance.rule:
        out["rule"] = provenance.rule
    if provenance.note:
        out["note"] = provenance.note
    return out


def facts_dict(memory: WorkingMemory) -> dict[str, object]:
    out = {}
    for name in memory.names():
        values = [json_value(v) for v in memory.values(name)]
        out[name] = {"value": values[0] if len(values) == 1 else values,
                     "provenance": [_provenance(f) for f in memory.facts(name)]}
    return out


def _steps(entry_steps, memory: WorkingMemory) -> list[dict[str, object]]:
    return [{"text": fill(s.text, memory), "commands": [fill(c, memory) for c in s.commands],
             "citation": s.citation or None} for s in entry_steps]


def conclusion_dict(candidate: Candidate, diagnosis: Diagnosis, kb: KnowledgeBase, explain: bool) -> dict[str, object]:
    entry, memory = candidate.entry, diagnosis.memory
    root = diagnosis.echo_root
    out: dict[str, object] = {
        "id": entry.id, "title": entry.title, "status": candidate.status.value,
        "confidence": candidate.confidence, "error_codes": list(entry.error_codes),
        "cause": entry.cause, "summary": entry.summary,
        "fixes": {"workaround": _steps(entry.fixes.workaround, memory),
                  "permanent": _steps(entry.fixes.permanent, memory),
                  "next_checks": _steps(entry.fixes.next_checks, memory)},
        "evidence": [{"file": m.record.origin.source, "line": m.record.origin.line, "rank": m.record.origin.rank,
                      "node": m.record.origin.node, "symptom": m.symptom.id, "score": round(m.score, 3),
                      "text": m.record.raw.strip()} for m in candidate.evidence],
        "conditions": [{"test": f"{leaf.test.fact} {leaf.test.op.value}", "verdict": leaf.verdict.value}
                       for leaf in candidate.leaves],
        "echo_of": root.id if candidate.echo and root is not None else None,
        "citations": [citation_dict(c, kb.articles) for c in entry.citations],
    }
    if explain:
        out["how"] = [asdict(step) for step in how(candidate, memory)]
    return out


def input_dict(stats: InputStats | None) -> dict[str, object]:
    stats = stats or InputStats()
    return {"records": stats.records, "files": stats.files, "bytes": stats.bytes_read,
            "undecodable_bytes": stats.replaced_bytes, "cut_lines": stats.cut_lines,
            "skipped_files": [{"name": s.name, "reason": s.reason} for s in stats.skipped]}


def _at(record: LogRecord | None) -> dict[str, object] | None:
    if record is None:
        return None
    return {"time": json_value(record.timestamp), "file": record.origin.source, "line": record.origin.line}


def _error(error: RankError | None) -> dict[str, object] | None:
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
                           "missing_ranks": list(c.missing), "ranks": rows.get(c.name, [])}
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


def diagnosis_dict(diagnosis: Diagnosis, kb: KnowledgeBase, stats: InputStats | None, explain: bool,
                   cluster: ClusterView | None = None) -> dict[str, object]:
    return {
        "schema": SCHEMA_VERSION,
        "conclusions": [conclusion_dict(c, diagnosis, kb, explain) for c in diagnosis.conclusions],
        "questions": [{"fact": q.fact, "text": q.text, "why": q.why, "how_to_find": list(q.how_to_find),
                       "choices": list(q.choices), "example": q.example,
                       **({"needed_by": why(q)} if explain else {})} for q in diagnosis.questions],
        "excluded": [{"id": c.id, "ruled_out_by": [f"{leaf.test.fact} {leaf.test.op.value}" for leaf in c.leaves
                                                   if leaf.verdict.value == "false"]} for c in diagnosis.excluded],
        "codes": [{"code": c.code, "level": c.level, "module": c.module, "class": c.code_class,
                   "meaning": c.meaning, "entries": list(c.entries),
                   "citations": [citation_dict(ref, kb.articles) for ref in c.citations]} for c in diagnosis.codes],
        "decoded": [{"decoder": d.decoder, "field": d.fact.name, "label": d.label, "value": json_value(d.fact.value),
                     "meaning": d.meaning, "known": d.known, "citation": citation_dict(d.citation, kb.articles),
                     "source": _provenance(d.fact)} for d in diagnosis.decoded],
        "facts": facts_dict(diagnosis.memory),
        "input": input_dict(stats),
        **({"cluster": cluster_dict(cluster)} if cluster is not None else {}),
    }
