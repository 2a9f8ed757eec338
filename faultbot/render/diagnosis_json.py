"""A diagnosis as versioned JSON (``"schema": 1``), the contract scripts and other tools read.

Documented in README.md#json-output. Within schema 1 fields are only ever added; ``cluster`` is
present when the input holds several ranks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from msgspec.structs import asdict

from ..engine.candidates import Candidate, described_only
from ..engine.diagnosis import Diagnosis
from ..engine.explain import how, why
from ..engine.facts import Fact, ProvenanceSource, WorkingMemory
from ..engine.fill import fill
from ..ingest.stats import InputStats
from ..kb.loader import KnowledgeBase
from .entry_json import citation_dict
from .json_values import json_value
from .more_like import more_like
from .safe_text import json_safe

if TYPE_CHECKING:
    from ..cluster.view import ClusterView

SCHEMA_VERSION = 1
PROVENANCE_PER_VALUE = 3


def _provenance(fact: Fact) -> dict[str, object]:
    provenance = fact.provenance
    out: dict[str, object] = {"value": json_value(fact.value), "source": provenance.source.value}
    if provenance.source is ProvenanceSource.LOG and provenance.record is not None:
        origin = provenance.record.origin
        out.update(file=origin.source, line=origin.line, rank=origin.rank, node=origin.node)
    if provenance.rule:
        out["rule"] = provenance.rule
    if provenance.note:
        out["note"] = provenance.note
    return out


def facts_dict(memory: WorkingMemory) -> dict[str, object]:
    """Every fact: its value(s) and where each value was read, the first PROVENANCE_PER_VALUE
    places of each value (a value a thousand ranks print is not listed a thousand times) and a
    count of the rest."""
    out = {}
    for name in memory.names():
        values = [json_value(v) for v in memory.values(name)]
        listed: dict[str, int] = {}
        provenance, omitted = [], 0
        for fact in memory.facts(name):
            seen = listed[repr(fact.value)] = listed.get(repr(fact.value), 0) + 1
            if seen <= PROVENANCE_PER_VALUE:
                provenance.append(_provenance(fact))
            else:
                omitted += 1
        out[name] = {"value": values[0] if len(values) == 1 else values, "provenance": provenance,
                     **({"provenance_omitted": omitted} if omitted else {})}
    return out


def _steps(entry_steps, memory: WorkingMemory) -> list[dict[str, object]]:
    return [{"text": fill(s.text, memory), "commands": [fill(c, memory) for c in s.commands],
             "citation": s.citation or None} for s in entry_steps]


def conclusion_dict(candidate: Candidate, diagnosis: Diagnosis, kb: KnowledgeBase, explain: bool) -> dict[str, object]:
    entry, memory = candidate.entry, diagnosis.memory
    root = diagnosis.echo_root
    out: dict[str, object] = {
        "id": entry.id, "title": entry.title, "status": candidate.status.value,
        "confidence": candidate.confidence, "basis": "description" if described_only(candidate.evidence) else "log",
        "error_codes": list(entry.error_codes),
        "cause": entry.cause, "summary": entry.summary,
        "fixes": {"workaround": _steps(entry.fixes.workaround, memory),
                  "permanent": _steps(entry.fixes.permanent, memory),
                  "next_checks": _steps(entry.fixes.next_checks, memory)},
        "evidence": [{"file": m.record.origin.source, "line": m.record.origin.line, "rank": m.record.origin.rank,
                      "node": m.record.origin.node, "symptom": m.symptom.id, "score": round(m.score, 3),
                      "text": m.record.raw.strip(), "more": asdict(more_like(m, diagnosis.matches))}
                     for m in candidate.evidence],
        "conditions": [{"test": f"{leaf.test.fact} {leaf.test.op.value}", "verdict": leaf.verdict.value}
                       for leaf in candidate.leaves],
        "echo_of": root.id if candidate.echo and root is not None else None,
        "consequence_of": dict(diagnosis.consequences).get(candidate.id),
        "citations": [citation_dict(c, kb.articles) for c in entry.citations],
    }
    if explain:
        out["how"] = [asdict(step) for step in how(candidate, memory)]
    return out


def input_dict(stats: InputStats | None) -> dict[str, object]:
    stats = stats or InputStats()
    return {"records": stats.records, "files": stats.files, "bytes": stats.bytes_read,
            "undecodable_bytes": stats.replaced_bytes, "cut_lines": stats.cut_lines,
            "skipped_files": [{"name": s.name, "reason": s.reason} for s in stats.skipped],
            "skipped_count": len(stats.skipped)}


def diagnosis_dict(diagnosis: Diagnosis, kb: KnowledgeBase, stats: InputStats | None, explain: bool,
                   cluster: ClusterView | None = None) -> dict[str, object]:
    """The whole JSON document; its strings safe to print (file names from the logs may hold anything)."""
    if cluster is not None:
        from .cluster_json import cluster_dict  # the cluster modules: only with several ranks
    return json_safe({  # type: ignore[return-value]
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
        "return_codes": [{"code": r.code, "class": r.code_class, "meaning": r.meaning, "entries": list(r.entries),
                          **({"name": r.named.name, "says": r.named.says} if r.named else {}),
                          "citations": [citation_dict(ref, kb.articles) for ref in r.citations]}
                         for r in diagnosis.return_codes],
        "decoded": [{"decoder": d.decoder, "field": d.fact.name, "label": d.label, "value": json_value(d.fact.value),
                     "meaning": d.meaning, "known": d.known, "citation": citation_dict(d.citation, kb.articles),
                     "source": _provenance(d.fact)} for d in diagnosis.decoded],
        "facts": facts_dict(diagnosis.memory),
        "input": input_dict(stats),
        **({"cluster": cluster_dict(cluster)} if cluster is not None else {}),
    })
