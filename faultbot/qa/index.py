"""The searchable knowledge: every passage of the KB and articles in one BM25 index."""

from __future__ import annotations

from dataclasses import dataclass

from ..kb.loader import KnowledgeBase
from .bm25 import Bm25, build
from .field_values import FieldQuestions
from .glossary import expand
from .passages import Passage, kb_passages
from .sentences import Sentence, sentences
from .tokens import query_terms


@dataclass(frozen=True)
class Hit:
    passage: Passage
    sentences: tuple[Sentence, ...]
    score: float          # BM25, times the passage's prior
    coverage: float       # share of the question's weight the passage holds, 0..1


@dataclass(frozen=True)
class KnowledgeIndex:
    passages: tuple[Passage, ...]
    sentences: tuple[tuple[Sentence, ...], ...]      # of each passage, cut once
    bm25: Bm25
    error_codes: tuple[str, ...]      # every code the KB knows, for suggestions
    fields: FieldQuestions | None = None   # questions about one field value, answered by the decoders

    @classmethod
    def from_kb(cls, kb: KnowledgeBase) -> "KnowledgeIndex":
        passages = tuple(kb_passages(kb))
        codes = tuple(sorted({code for entry in kb.entries for code in entry.error_codes}))
        return cls(passages, tuple(tuple(sentences(p.text)) for p in passages), build(p.tokens() for p in passages), codes,
                   FieldQuestions(kb))

    def search(self, text: str, limit: int | None = 5) -> list[Hit]:
        """The passages for ``text`` (glossary applied), best first; all of them when ``limit`` is None."""
        query = query_terms(expand(text))
        ranked = sorted(((i, score * self.passages[i].prior) for i, score in self.bm25.ranked(query)),
                        key=lambda pair: (-pair[1], pair[0]))
        return [Hit(self.passages[i], self.sentences[i], score, self.bm25.coverage(query, i))
                for i, score in ranked[:limit]]
