"""Counts over the knowledge base for ``faultbot kb stats``: coverage, citations, tests."""

from __future__ import annotations

from collections import Counter, defaultdict

from .loader import KnowledgeBase


def kb_stats(kb: KnowledgeBase) -> dict[str, object]:
    by_component: dict[str, Counter[str]] = defaultdict(Counter)
    cited: dict[str, set[str]] = defaultdict(set)
    for entry in kb.entries:
        by_component[entry.component][entry.status.value] += 1
        for citation in entry.citations:
            cited[citation.article].add(citation.section)
    for decoder in kb.decoders:
        for ref in {decoder.citation, *(case.citation for case in decoder.cases)} - {""}:
            article, _, section = ref.partition("#")
            cited[article].add(section)

    return {
        "entries": len(kb.entries),
        "tests": sum(len(e.tests) for e in kb.entries),
        "by_component": {c: dict(sorted(s.items())) for c, s in sorted(by_component.items())},
        "error_codes": sorted({code for e in kb.entries for code in e.error_codes}),
        "decoders": {d.id: {"field": d.fact, "cases": len(d.cases)} for d in kb.decoders},
        "articles": {a: sorted(s) for a, s in sorted(cited.items())},
        "tests_per_entry": {e.id: len(e.tests) for e in kb.entries},
        "without_negative_test": [e.id for e in kb.entries if not any(t.is_negative_for(e.id) for t in e.tests)],
    }
