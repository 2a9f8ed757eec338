"""The searchable knowledge: every passage of the KB and articles in one BM25 index, with each
passage's sentences and their words, built once per KB content (then loaded from the cache)."""

from __future__ import annotations

import msgspec

from .. import cache
from ..kb.loader import KnowledgeBase
from ..kb.model import CodeBook, Intent
from .bm25 import Bm25, build
from .field_values import FieldQuestions
from .linking import Linker
from .log_examples import LogExamples
from .passages import ENTITY, Passage, kb_passages
from .rewording import Rewording
from .sentences import Sentence, sentences
from .things import Catalogue, build_catalogue, name_key
from .tokens import NAME_BOOST, PART_OF_NAME, is_cjk, query_terms, tokenize

SPECIFIC_SHARE = 0.15
ASKED_PHRASE_SHARE = 0.2   # a way of asking holds a question fully only when the question holds this share of its words


def _words_in(phrase: frozenset[str]) -> float:
    """How many words ``phrase``'s tokens make: Chinese is searched in overlapping two-character
    pieces, more pieces than words (心跳机制: 心跳, 跳机, 机制), so each counts half."""
    return sum(0.5 if is_cjk(token) else 1.0 for token in phrase)


# What an entry's field answers; an article section answers what its title's words ask for.
FIELD_ANSWERS = {
    "cause": frozenset({Intent.CAUSE}),
    "workaround": frozenset({Intent.WORKAROUND}),
    "permanent": frozenset({Intent.PERMANENT_FIX, Intent.FIXED_VERSION}),
    "next_checks": frozenset({Intent.CHECK, Intent.COLLECT}),
}


def passage_answers(passage: Passage, rewording: Rewording) -> frozenset[Intent]:
    if passage.field:
        return FIELD_ANSWERS.get(passage.field, frozenset())
    return rewording.intents(rewording.reword(passage.title))


def _mentions(passages: tuple[Passage, ...]) -> dict[str, tuple[int, ...]]:
    """Where each thing the knowledge base is about is written: a name some passage is titled by
    (HCCL_BUFFSIZE, EI0012, AIV), not one it only mentions in passing (INFO, PyTorch). A name most
    passages write (HCCL) says nothing specific: only names in at most SPECIFIC_SHARE of them count."""
    titled = {n.casefold() for p in passages for n in ENTITY.findall(f"{p.title} {p.terms}")}
    found: dict[str, list[int]] = {}
    for i, passage in enumerate(passages):
        for name in {n.casefold() for n in ENTITY.findall(" ".join((passage.title, passage.text, passage.terms)))}:
            if name in titled:
                found.setdefault(name, []).append(i)
    most = max(1, int(SPECIFIC_SHARE * len(passages)))
    return {name: tuple(places) for name, places in found.items() if len(places) <= most}


class Hit(msgspec.Struct, frozen=True):
    passage: Passage
    sentences: tuple[Sentence, ...]
    words: tuple[frozenset[str], ...]     # the words of each sentence (its commands included)
    title_words: frozenset[str]           # the words of the passage's title and key terms
    score: float          # BM25, times the passage's prior
    coverage: float       # share of the question's weight the passage holds, 0..1
    answers: frozenset[Intent] = frozenset()   # what the passage answers (see passage_answers)
    heading_words: frozenset[str] = frozenset()    # the words of its title alone
    asked: tuple[frozenset[str], ...] = ()         # the words of each way engineers ask for it
    asked_share: float = 0.0   # share of the question's weight its title and the best of those hold


class KnowledgeIndex(msgspec.Struct, frozen=True):
    passages: tuple[Passage, ...]
    sentences: tuple[tuple[Sentence, ...], ...]      # of each passage, cut once
    words: tuple[tuple[frozenset[str], ...], ...]    # of each sentence of each passage
    title_words: tuple[frozenset[str], ...]          # of each passage's title and key terms
    heading_words: tuple[frozenset[str], ...]        # of each passage's title alone
    bm25: Bm25
    error_codes: tuple[str, ...]      # every code the KB knows, for suggestions
    rewording: Rewording                # a question in the articles' words
    answers: tuple[frozenset[Intent], ...]           # of each passage: what it answers (its field, its title's words)
    mentions: dict[str, tuple[int, ...]]             # a specific name, case-folded -> the passages that write it
    fields: FieldQuestions | None = None   # questions about one field value, answered by the decoders
    catalogue: Catalogue = Catalogue((), {})   # the things the KB knows by name and what it states about each
    linker: Linker | None = None              # which of them a question names
    position: dict[str, int] = msgspec.field(default_factory=dict)    # a passage's ref -> its index
    codebook: CodeBook | None = None          # how error codes are built (kb/codes.yaml)
    log_examples: LogExamples = LogExamples({})   # the log lines the sections show, for a question quoting one
    asked: tuple[tuple[frozenset[str], ...], ...] = ()   # of each passage: the words of each way it is asked for
    article_titles: dict[str, str] = msgspec.field(default_factory=dict)   # an article's id -> its title

    @classmethod
    def from_kb(cls, kb: KnowledgeBase) -> KnowledgeIndex:
        passages = tuple(kb_passages(kb))
        cut = tuple(tuple(sentences(p.text)) for p in passages)
        rewording = Rewording.of(kb.vocabulary, (f"{p.title} {p.text}" for p in passages))
        said = rewording.said_canonically
        words = tuple(tuple(frozenset(tokenize(said(" ".join((s.text, *s.commands))))) for s in found) for found in cut)
        title_words = tuple(frozenset(tokenize(said(" ".join((p.title, p.terms))))) for p in passages)
        asked = tuple(tuple(frozenset(tokenize(said(rewording.without_context(phrase)))) for phrase in p.asked)
                      for p in passages)
        heading_words = tuple(frozenset(tokenize(said(p.title))) for p in passages)
        codes = tuple(sorted({code for codes in kb.index.error_codes.values() for code in codes}))
        answers = tuple(passage_answers(p, rewording) for p in passages)
        bm25 = build(tokenize(said(p.searched())) for p in passages)
        catalogue = build_catalogue(kb, passages, rewording, kb.settings)
        linker = Linker.of(catalogue, lambda name: name_key(name, rewording), bm25.document_frequency, len(passages))
        return cls(passages, cut, words, title_words, heading_words, bm25, codes, rewording, answers,
                   _mentions(passages), FieldQuestions(kb), catalogue, linker,
                   {p.ref: i for i, p in enumerate(passages)}, kb.codebook, LogExamples.of(passages, cut), asked,
                   {article.id: article.title for article in kb.articles.values()})

    @classmethod
    def of(cls, kb: KnowledgeBase) -> KnowledgeIndex:
        """The index of ``kb``: built once per KB content, from the cache afterwards."""
        return cache.load_or_build("qa-index", (kb.digest.content,), lambda: cls.from_kb(kb))

    def hit(self, i: int, query: dict[str, float], score: float = 0.0,
            weighed: dict[str, float] | None = None) -> Hit:
        """Passage ``i`` as found for ``query`` (``weighed``: its terms' weights, when known)."""
        asked = self.asked_coverage(query, i, weighed)
        return Hit(self.passages[i], self.sentences[i], self.words[i], self.title_words[i], score,
                   max(self.bm25.coverage(query, i), asked), self.answers[i], self.heading_words[i], self.asked[i], asked)

    def weighed(self, query: dict[str, float]) -> dict[str, float]:
        """Each term of ``query`` with how much it counts: its boost times its BM25 weight."""
        return {term: boost * self.bm25.weight(term) for term, boost in query.items()}

    def asked_coverage(self, query: dict[str, float], i: int, weighed: dict[str, float] | None = None) -> float:
        """The share of ``query``'s weight that passage ``i``'s title and one way it is asked for
        hold together, the best of them: a question asked as the section says engineers ask it
        is one it answers, in whatever words its text says it. A way of asking holds it fully only
        when the question holds ASKED_PHRASE_SHARE of its words: a long ticket-style way of asking
        that shares two words with a short question is not that question."""
        if not self.asked[i]:
            return 0.0
        weighed = self.weighed(query) if weighed is None else weighed
        if not (total := sum(weighed.values())):
            return 0.0
        terms = weighed.keys()
        in_title = self.title_words[i] & terms
        by_title = sum(weighed[t] for t in in_title)
        # a question that says more than names is asked that way only when the phrase holds some of
        # its words: "fp16 to bf16 ... how do I tune accuracy" is not the EI0005 ticket naming both
        said = {t for t, boost in query.items() if boost not in (NAME_BOOST, PART_OF_NAME)}
        best = 0.0
        for phrase in self.asked[i]:
            if not phrase:
                best = max(best, by_title)
            elif (shared := phrase & terms) and (not said or not shared.isdisjoint(said)):
                held = by_title + sum(weighed[t] for t in shared - in_title)
                best = max(best, held * min(1.0, len(shared) / _words_in(phrase) / ASKED_PHRASE_SHARE))
        return best / total

    def search(self, text: str, limit: int | None = 5) -> list[Hit]:
        """The passages for ``text`` (in the articles' words), best first; all of them when ``limit`` is None."""
        return self.found(query_terms(self.rewording.reword(text)), limit)

    def found(self, query: dict[str, float], limit: int | None = 5) -> list[Hit]:
        """The passages for the terms of ``query`` (a question's, as ``Question`` weighs them), best first."""
        scored = dict(self.bm25.ranked(query))
        # a passage whose text shares no word with the question may still be asked for in its words
        scored.update((i, 0.0) for i in self._asked_with(query) if i not in scored)
        ranked = sorted(((i, score * self.passages[i].prior) for i, score in scored.items()),
                        key=lambda pair: (-pair[1], pair[0]))
        weighed = self.weighed(query)
        return [self.hit(i, query, score, weighed) for i, score in ranked[:limit]]

    def _asked_with(self, query: dict[str, float]) -> list[int]:
        """The passages one of whose ways of being asked for holds a word of ``query``."""
        terms = set(query)
        return [i for i, phrases in enumerate(self.asked) if any(not phrase.isdisjoint(terms) for phrase in phrases)]
