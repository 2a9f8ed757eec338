"""Okapi BM25 over token lists, behind /search, `faultbot ask` and word matching; ``held`` and
``coverage`` weigh how much of a query a document holds, for thresholds independent of its length."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence

import msgspec

from .tokens import is_cjk

# Passages run from a table row to a page: a long section that states a fact among others is
# normalised for its length less than the textbook 0.75 (chosen on the question set's tuning part).
K1 = 1.6
B = 0.6
# A query word no document holds means the question is partly about something the index does not
# cover, and weighs like the rarest word; a Chinese bigram across a word boundary (么开, 启确) is
# no word at all, and a count no document writes is the asker's own (64 ranks, 300 s, 32-node): both
# weigh little.
UNKNOWN_WEIGHT = 0.25
# 64, 300s, 0.25mb, 32-node, 0x05000001, 10.0.0.5: the asker's value
_COUNT = re.compile(r"^(?:\d+(?:\.\d+)?(?:[.\-]?[a-z]+)?|0x[0-9a-f]+|\d{1,3}(?:\.\d{1,3}){3})$")


class Bm25(msgspec.Struct, frozen=True):
    counts: tuple[Mapping[str, int], ...]    # term frequencies per document
    lengths: tuple[int, ...]
    average_length: float
    document_frequency: Mapping[str, int]
    idfs: Mapping[str, float]                # of every term some document holds, worked out once

    @property
    def size(self) -> int:
        return len(self.counts)

    def idf(self, term: str) -> float:
        """Inverse document frequency; a term no document holds gets the highest value there is."""
        found = self.idfs.get(term)
        return found if found is not None else _idf(self.size, 0)

    def knows(self, term: str) -> bool:
        return term in self.document_frequency

    def weight(self, term: str) -> float:
        """How much ``term`` counts in a query: its idf, little for an unknown Chinese bigram or number."""
        # a lone Chinese character (不, 办) is what is left of a word around a stop word, rarely a word itself
        unknown = (not self.knows(term) and (is_cjk(term) or _COUNT.match(term))) or (len(term) == 1 and is_cjk(term))
        return self.idf(term) * (UNKNOWN_WEIGHT if unknown else 1.0)

    def held(self, query: Mapping[str, float], words: Collection[str]) -> float:
        """The weight of the ``query`` terms among ``words``."""
        return sum(boost * self.weight(t) for t, boost in query.items() if t in words)

    def total(self, query: Mapping[str, float]) -> float:
        return sum(boost * self.weight(t) for t, boost in query.items())

    def coverage(self, query: Mapping[str, float], index: int) -> float:
        """The share of the query's weight document ``index`` holds, 0..1."""
        total = self.total(query)
        return self.held(query, self.counts[index].keys()) / total if total else 0.0

    def score(self, index: int, query: Mapping[str, float]) -> float:
        """BM25 of one document for ``query``: terms and how much each counts."""
        counts, length = self.counts[index], self.lengths[index]
        total = 0.0
        for term, boost in query.items():
            tf = counts.get(term, 0)
            if tf:
                total += boost * self.idf(term) * tf * (K1 + 1) / (tf + K1 * (1 - B + B * length / self.average_length))
        return total

    def ranked(self, query: Mapping[str, float]) -> list[tuple[int, float]]:
        """(document index, score) for every document holding a query term, best first."""
        scored = [(i, self.score(i, query)) for i in range(self.size)]
        return sorted(((i, s) for i, s in scored if s > 0), key=lambda pair: (-pair[1], pair[0]))


def _idf(size: int, df: int) -> float:
    return math.log(1 + (size - df + 0.5) / (df + 0.5))


def build(documents: Iterable[Sequence[str]]) -> Bm25:
    counts = tuple(Counter(tokens) for tokens in documents)
    frequency: Counter[str] = Counter()
    for document in counts:
        frequency.update(document.keys())
    lengths = tuple(sum(c.values()) for c in counts)
    return Bm25(counts, lengths, (sum(lengths) / len(lengths) if lengths else 0.0) or 1.0, dict(frequency),
                {term: _idf(len(counts), df) for term, df in frequency.items()})
