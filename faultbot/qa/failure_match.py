"""A failure told in words ("HcclAllreduce hangs after I set HCCL_OP_EXPANSION_MODE=AIV", "多卡训练时报
sdma 错误") matched to the KB's faults, with the question that tells the candidates apart."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

import msgspec

from ..engine.conditions import leaves_of
from ..engine.lineage import Lineage
from ..engine.questions import Question, askable_for, question_about
from ..engine.wording import describe_test
from ..kb.loader import KnowledgeBase
from ..kb.model import Entry, FactTest
from .bm25 import Bm25, build
from .rewording import Rewording
from .tokens import query_terms, tokenize

MAX_CANDIDATES = 4
CLOSE_RATIO = 0.5          # candidates score at least this share of the best
MIN_COVERAGE = 0.2         # the best must hold this share of the words' weight
_ERROR_CODE = re.compile(r"\b(?:E[A-Z]\d{4}|\d{6})\b", re.ASCII)


class FaultHit(msgspec.Struct, frozen=True):
    entry: Entry
    score: float


class WordsMatch(msgspec.Struct, frozen=True):
    candidates: tuple[FaultHit, ...]             # best first; empty when nothing fits
    question: Question | None                    # the askable fact that tells them apart
    telltales: tuple[tuple[str, str], ...]       # (entry id, a literal its log lines hold)


def _document(entry: Entry, kb: KnowledgeBase) -> str:
    """What a fault looks like in words: title, summary, cause, log signatures, error codes, tags,
    and the Chinese key terms of the sections it cites (so a Chinese description finds it)."""
    key_terms = []
    for citation in entry.citations:
        article = kb.articles.get(citation.article)
        section = article.section(citation.section) if article else None
        key_terms += section.key_terms if section else ()
    symptoms = [" ".join((s.signature, *s.anchors)) for s in entry.symptoms]
    return " ".join((entry.title, entry.title, entry.summary, entry.cause, *symptoms, *entry.error_codes,
                     *entry.tags, *key_terms))


class FaultWords:
    """The KB's faults, searchable by the words an engineer describes a failure with; ``feeds``
    are the engine's (``Engine.feeds``), so a question is askable here exactly when ``diagnose``
    could ask it."""

    def __init__(self, kb: KnowledgeBase, feeds: Mapping[str, set[str]]):
        self.kb = kb
        self.feeds = feeds
        self.lineage = Lineage(kb)
        self.entries = kb.entries
        self.bm25: Bm25 = build(tokenize(_document(e, kb)) for e in kb.entries)
        self.codes = {code for entry in kb.entries for code in entry.error_codes}
        self.rewording = Rewording.of(kb.vocabulary, (_document(e, kb) for e in kb.entries))

    def candidates(self, text: str, known_words_coverage: float | None = None) -> list[FaultHit]:
        """The faults ``text`` describes, best first; an error code in it keeps only the faults
        (and their refinements) that report the code. The best must hold MIN_COVERAGE of the
        words' weight, or, with ``known_words_coverage``, that share of the words the KB uses at
        all (a long ticket is mostly words no fault description holds)."""
        query = query_terms(self.rewording.reword(text))
        codes = {c for c in _ERROR_CODE.findall(text.upper()) if c in self.codes}
        ranked = [(i, s) for i, s in self.bm25.ranked(query)
                  if not codes or codes & set(self._codes_of(self.entries[i]))]
        if not ranked:
            return []
        covered = self.bm25.coverage(query, ranked[0][0]) >= MIN_COVERAGE
        if not covered and known_words_coverage is not None:
            known = {term: boost for term, boost in query.items() if self.bm25.knows(term)}
            covered = self.bm25.coverage(known, ranked[0][0]) >= known_words_coverage
        if not covered:
            return []
        top = ranked[0][1]
        return [FaultHit(self.entries[i], s) for i, s in ranked[:MAX_CANDIDATES] if s >= CLOSE_RATIO * top]

    def _codes_of(self, entry: Entry) -> tuple[str, ...]:
        return tuple(code for member in (*self.lineage.ancestors(entry), entry) for code in member.error_codes)

    def separating_question(self, hits: list[FaultHit], known: Iterable[str]) -> Question | None:
        """The askable fact, not yet ``known``, that the candidates' conditions test most; a fact
        every candidate tests the same way tells nothing apart and counts half."""
        known = set(known)
        top = hits[0].score if hits else 1.0
        uses: dict[str, list[tuple[FaultHit, FactTest]]] = {}
        for hit in hits:
            for test in leaves_of(self.lineage.condition(hit.entry)):
                for fact in askable_for(test.fact, self.kb.facts, self.feeds) - known:
                    uses.setdefault(fact, []).append((hit, test))
        if not uses:
            return None

        def score(fact: str) -> float:
            users = {id(h): h for h, _ in uses[fact]}
            same_everywhere = len(users) == len(hits) > 1 and len({describe_test(t) for _, t in uses[fact]}) == 1
            return sum(h.score / top for h in users.values()) * (0.5 if same_everywhere else 1.0)

        fact = max(sorted(uses), key=score)
        needed_by = tuple(dict.fromkeys((h.entry.id, describe_test(t)) for h, t in uses[fact]))
        return question_about(fact, self.kb.facts[fact], needed_by, score(fact), lead="It tells apart")

    def match(self, text: str, known: Iterable[str] = ()) -> WordsMatch:
        hits = self.candidates(text)
        strongest = [(h.entry.id, max(h.entry.symptoms, key=lambda s: s.weight)) for h in hits if h.entry.symptoms]
        telltales = tuple((entry, symptom.anchors[0]) for entry, symptom in strongest if symptom.anchors)
        return WordsMatch(tuple(hits), self.separating_question(hits, known) if hits else None, telltales)
