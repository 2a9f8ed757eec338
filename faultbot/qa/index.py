"""The searchable knowledge: every passage of the KB and articles in one BM25 index, with each
passage's sentences and their words, built once per KB content (then loaded from the cache)."""

from __future__ import annotations

from dataclasses import dataclass

from .. import cache
from ..kb.loader import KnowledgeBase
from .bm25 import Bm25, build
from .field_values import FieldQuestions
from .glossary import expand
from .passages import Passage, kb_passages
from .sentences import Sentence, sentences
from .tokens import query_terms, tokenize


@dataclass(frozen=True)
class Hit:
    passage: Passage
    sentences: tuple[Sentence, ...]
    words: tuple[frozenset[str], ...]     # the words of each sentence (its commands included)
    title_words: frozenset[str]           # the words of the passage's title and key terms
    score: float          # BM25, times the passage's prior
    coverage: float       # share of the question's weight the passage holds, 0..1


@dataclass(frozen=True)
class KnowledgeIndex:
    passages: tuple[Passage, ...]
    sentences: tuple[tuple[Sentence, ...], ...]      # of each passage, cut once
    words: tuple[tuple[frozenset[str], ...], ...]    # of each sentence of each passage
    title_words: tuple[frozenset[str], ...]          # of each passage's title and key terms
    bm25: Bm25
    error_codes: tuple[str, ...]      # every code the KB knows, for suggestions
    fields: FieldQuestions | None = None   # questions about one field value, answered by the decoders

    @classmethod
    def from_kb(cls, kb: KnowledgeBase) -> "KnowledgeIndex":
        passages = tuple(kb_passages(kb))
        cut = tuple(tuple(sentences(p.text)) for p in passages)
        words = tuple(tuple(frozenset(tokenize(" ".join((s.text, *s.commands)))) for s in found) for found in cut)
        title_words = tuple(frozenset(tokenize(" ".join((p.title, p.terms)))) for p in passages)
        codes = tuple(sorted({code for codes in kb.index.error_codes.values() for code in codes}))
        return cls(passages, cut, words, title_words, build(p.tokens() for p in passages), codes, FieldQuestions(kb))

    @classmethod
    def of(cls, kb: KnowledgeBase) -> "KnowledgeIndex":
        """The index of ``kb``: built once per KB content, from the cache afterwards."""
        return cache.load_or_build("qa-index", (kb.digest.content,), lambda: cls.from_kb(kb))

    def search(self, text: str, limit: int | None = 5) -> list[Hit]:
        """The passages for ``text`` (glossary applied), best first; all of them when ``limit`` is None."""
        query = query_terms(expand(text))
        ranked = sorted(((i, score * self.passages[i].prior) for i, score in self.bm25.ranked(query)),
                        key=lambda pair: (-pair[1], pair[0]))
        return [Hit(self.passages[i], self.sentences[i], self.words[i], self.title_words[i], score,
                    self.bm25.coverage(query, i)) for i, score in ranked[:limit]]
