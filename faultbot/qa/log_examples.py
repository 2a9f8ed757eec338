"""The log lines the articles show, by the runs of words they hold: a question that quotes one (a
line pasted from the asker's log, "hccl fftsplus task timeout occurred during task execution,
stream_id:7 ...") is about the section that shows and explains that line, and the sentence that
introduces the line says what it is. A line is shown in a log example after a sentence, or quoted
in the sentence itself as inline code (`RuntimeError: NPU out of memory. Tried to allocate ...`)."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence

import msgspec

from .passages import Passage
from .sentences import INLINE_CODE, Sentence

RUN = 5                 # words in a row: a phrase this long is a quoted line, not words two texts share
MIN_RUNS = 2            # a quote holds this many runs (six words in a row) of one section's lines
MAX_SECTIONS = 3        # a run more sections show (a plog header's words) quotes none of them
_WORD = re.compile(r"[A-Za-z][A-Za-z_]*")     # numbers, addresses and ids differ from log to log

Run = tuple[str, ...]


def runs(text: str) -> set[Run]:
    """The runs of RUN words of ``text``, lower case, its numbers left out."""
    words = [word.lower() for word in _WORD.findall(text)]
    return {tuple(words[i:i + RUN]) for i in range(len(words) - RUN + 1)}


def shown(sentence: Sentence) -> str:
    """The log text ``sentence`` shows: the example after it and what it quotes as inline code."""
    return " ".join((*sentence.shows, *INLINE_CODE.findall(sentence.text)))


class Quote(msgspec.Struct, frozen=True):
    sections: frozenset[str] = frozenset()    # the sections showing the line quoted (most of its runs)
    runs: frozenset[Run] = frozenset()        # the runs of the question those sections' lines hold

    def introduced_by(self, found: Sequence[Sentence]) -> int | None:
        """Which of ``found`` introduces the log example that holds most of the quoted line, if any."""
        held = [len(self.runs & runs(shown(sentence))) for sentence in found]
        most = max(held, default=0)
        return held.index(most) if most >= MIN_RUNS else None


class LogExamples(msgspec.Struct, frozen=True):
    by_run: dict[Run, tuple[str, ...]]    # a run of words -> the sections whose log examples hold it

    @classmethod
    def of(cls, passages: Sequence[Passage], cut: Iterable[Sequence[Sentence]]) -> LogExamples:
        """From ``passages`` and their sentences (``cut``), an article section's own text only."""
        found: dict[Run, set[str]] = {}
        for passage, found_sentences in zip(passages, cut):
            if passage.ref != passage.citation or passage.field:
                continue
            for sentence in found_sentences:
                for run in runs(shown(sentence)):
                    found.setdefault(run, set()).add(passage.citation)
        return cls({run: tuple(sorted(cited)) for run, cited in found.items() if len(cited) <= MAX_SECTIONS})

    def quote(self, text: str) -> Quote:
        """The sections whose log examples ``text`` quotes most, when it quotes any (MIN_RUNS runs)."""
        held = {run: self.by_run[run] for run in runs(text) if run in self.by_run}
        counts = Counter(cited for sections in held.values() for cited in sections)
        most = max(counts.values(), default=0)
        if most < MIN_RUNS:
            return Quote()
        sections = frozenset(cited for cited, count in counts.items() if count == most)
        return Quote(sections, frozenset(run for run, cited in held.items() if sections & set(cited)))
