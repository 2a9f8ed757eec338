"""Matching log records against the KB's symptom signatures: anchors first, then fuzzy or exact.

A symptom can only match a record that contains one of its literal anchors; the prefilter finds
those anchors for all symptoms in one pass, and matching without it gives the same result (tests
check that). Fuzzy work compares short masked messages only, cut to a window around the anchor,
so its cost stays bounded on very long lines, and a score is remembered by the masked message and
symptom (``Remembered``): lines that differ only in what masking hides are scored once. A symptom
whose regex ran past the time budget (faultbot/match/regex_budget.py) is left out from then on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import cache, cached_property, partial
from types import ModuleType
from typing import NamedTuple

import msgspec

from ..fullwidth import as_ascii_punctuation
from ..ingest.number_shapes import Kinds, reads_numbers_blindly
from ..ingest.records import LogRecord
from ..kb.loader import KnowledgeBase
from ..kb.model import Entry, Symptom
from .anchors import AnchorIndex, Unsure
from .masking import Masker
from .recent import Recent, Remembered
from .regex_budget import OverBudget

_ANCHOR_MAX = 32
TRUNCATED_SHARE = 0.6


class SymptomMatch(msgspec.Struct, frozen=True):
    """A record that matched a symptom of an entry, and how well."""

    entry_id: str
    symptom: Symptom
    record: LogRecord
    score: float           # 0..1: fuzzy similarity, or 1 for a regex match


class CompiledSymptom(NamedTuple):
    """A symptom as records are matched against it. A row of plain values: a KB holds thousands,
    and the cached matcher loads them all at every start."""

    entry_id: str
    position: int                     # the symptom's place in its entry's symptoms
    anchors: tuple[str, ...]
    masked: str                       # masked signature ("" for regex symptoms)
    regex: str                        # "" for signature symptoms
    modules: tuple[str, ...]
    min_score: float


def _derived_anchor(masked_signature: str, masker: Masker) -> str:
    """A literal prefix of the signature's longest literal run, cut at a word boundary."""
    runs = masker.literal_runs(masked_signature)
    if not runs:
        return ""
    run = runs[0]
    if len(run) <= _ANCHOR_MAX:
        return run
    cut = run.rfind(" ", 8, _ANCHOR_MAX)
    return run[: cut if cut > 0 else _ANCHOR_MAX]


def compile_symptom(entry: Entry, position: int, masker: Masker) -> CompiledSymptom:
    """The entry's symptom at ``position`` as records are matched against it: its signature and
    anchors read as log lines are (full-width punctuation as ASCII), the signature masked."""
    symptom = entry.symptoms[position]
    anchors = tuple(map(as_ascii_punctuation, symptom.anchors))
    masked = masker.mask(as_ascii_punctuation(symptom.signature)) if symptom.signature else ""
    if masked:
        anchors = anchors or tuple(a for a in (_derived_anchor(masked, masker),) if a)
    return CompiledSymptom(entry.id, position, anchors, masked, symptom.regex, symptom.modules, symptom.min_score)


@cache
def _fuzz() -> ModuleType:
    """rapidfuzz's ``fuzz``, imported by the first fuzzy comparison: many snippets match by regex alone."""
    from rapidfuzz import fuzz

    return fuzz


@cache
def _common_length() -> Callable[[str, str], int]:
    """The length of the longest common subsequence of two texts (rapidfuzz's, imported as ``_fuzz``)."""
    from rapidfuzz.distance import LCSseq

    return LCSseq.similarity


def _partial_reach(shorter: str, longer: str) -> float:
    """At most ``partial_ratio(shorter, longer)``: that is ``ratio`` of ``shorter`` and a piece w of
    ``longer`` no longer than it, 200 * lcs(shorter, w) / (len(shorter) + len(w)), and lcs(shorter, w)
    is at most lcs(shorter, longer) and len(w); a small part of the cost of the score."""
    common = _common_length()(shorter, longer)
    return 200 * common / (len(shorter) + common) if common else 0.0


# A score under the symptom's minimum is never used: rapidfuzz stops early and gives 0 below the cut.
# The slack keeps a score that rounds to the minimum once divided by 100 and multiplied back.
_CUT_SLACK = 1e-6


def _out_of_reach(message_length: int, compiled: CompiledSymptom) -> bool:
    """Whether a masked message of this length scores 0 against the fuzzy symptom whatever it says
    (``_fuzzy_score``): one shorter than ``TRUNCATED_SHARE`` of the signature is compared whole, and
    two texts are at most 2 * shorter / (shorter + longer) alike, which may be under the minimum."""
    length = len(compiled.masked)
    return (message_length < TRUNCATED_SHARE * length
            and 200 * message_length / (message_length + length) + _CUT_SLACK < compiled.min_score - _CUT_SLACK)


def _fuzzy_score(masked_message: str, compiled: CompiledSymptom) -> float:
    """How well ``masked_message`` matches the symptom's signature (0..1), or 0 where it is below
    the symptom's minimum score."""
    fuzz = _fuzz()
    cut = max(compiled.min_score - _CUT_SLACK, 0)
    length = len(compiled.masked)
    if len(masked_message) > 2 * length:
        # Window the message around the first anchor so partial_ratio stays O(len(signature)^2).
        at = max((masked_message.find(a) for a in compiled.anchors), default=0)
        start = max(0, at - length)
        masked_message = masked_message[start:start + 3 * length]
    if len(masked_message) <= length:
        # A record cut short (a ticket's truncation) still matches the part it kept, but a
        # fragment much shorter than the signature proves nothing.
        if len(masked_message) < TRUNCATED_SHARE * length:
            return float(fuzz.ratio(compiled.masked, masked_message, score_cutoff=cut)) / 100
        shorter, longer = masked_message, compiled.masked
    else:
        shorter, longer = compiled.masked, masked_message
    if _partial_reach(shorter, longer) + _CUT_SLACK < cut:
        return 0.0
    return float(fuzz.partial_ratio(shorter, longer, score_cutoff=cut)) / 100


class SymptomMatcher:
    """All symptoms of a knowledge base, ready to match records. Regexes are compiled when first
    used, and a match reads its symptom from the KB's entries (``attach``): a matcher loaded from
    the cache holds only plain rows."""

    def __init__(self, kb: KnowledgeBase, use_prefilter: bool = True, engine: str | None = None):
        self.masker = Masker(kb.masks)
        self.symptoms = tuple(compile_symptom(entry, n, self.masker) for entry in kb.entries
                              for n in range(len(entry.symptoms)))
        self.use_prefilter = use_prefilter
        self._index = AnchorIndex([(compiled, compiled.anchors, "") for compiled in self.symptoms], engine)
        self.anchors = self._index.anchors
        self._entries: Mapping[str, Entry] = kb.entry_table
        self._regexes: dict[str, re.Pattern[str]] = {}
        self._left_out: set[tuple[str, int]] = set()    # (entry id, position) of symptoms past the time budget

    def __getstate__(self) -> dict[str, object]:
        state = {**self.__dict__, "_entries": {}, "_regexes": {}, "_left_out": set()}
        state.pop("_recent", None)
        state.pop("_scores", None)
        return state

    def attach(self, entries: Mapping[str, Entry]) -> None:
        """Report the symptoms of ``entries``: the KB this matcher was loaded beside."""
        self._entries = entries

    def _candidates(self, message: str) -> Sequence[CompiledSymptom]:
        if not self.use_prefilter:
            return [s for s in self.symptoms if any(a in message for a in s.anchors)]
        return self._index.candidates(message)

    def _regex(self, pattern: str) -> re.Pattern[str]:
        compiled = self._regexes.get(pattern)
        if compiled is None:
            compiled = self._regexes[pattern] = re.compile(pattern)
        return compiled

    def _match(self, compiled: CompiledSymptom, record: LogRecord, score: float) -> SymptomMatch:
        return SymptomMatch(compiled.entry_id, self._entries[compiled.entry_id].symptoms[compiled.position], record, score)

    def _applying(self, message: str, module: str | None) -> Iterator[CompiledSymptom]:
        """The symptoms a record of this message and module is matched against."""
        left_out = self._left_out
        for compiled in self._candidates(message):
            if not ((compiled.modules and module and module not in compiled.modules) or (
                    left_out and (compiled.entry_id, compiled.position) in left_out)):
                yield compiled

    def _matching(self, message: str, module: str | None) -> tuple[tuple[CompiledSymptom, float], ...]:
        """The symptoms a record of this message and module matches, with the score of each."""
        matching: list[tuple[CompiledSymptom, float]] = []
        masked_message = ""
        for compiled in self._applying(message, module):
            try:
                if compiled.regex:
                    if self._regex(compiled.regex).search(message):
                        matching.append((compiled, 1.0))
                    continue
                masked_message = masked_message or self.masker.mask(message)
                if _out_of_reach(len(masked_message), compiled):
                    continue
                score = self._scores(masked_message, compiled)
            except OverBudget:
                symptom = self._entries[compiled.entry_id].symptoms[compiled.position]
                raise OverBudget(f"symptom {symptom.id} of {compiled.entry_id}",
                                 partial(self._left_out.add, (compiled.entry_id, compiled.position))) from None
            if score * 100 >= compiled.min_score:
                matching.append((compiled, score))
        return tuple(matching)

    @cached_property
    def _scores(self) -> Remembered[float]:
        return Remembered(_fuzzy_score)

    @cached_property
    def _recent(self) -> Recent[tuple[tuple[CompiledSymptom, float], ...]]:
        return Recent(self._matching)

    def match(self, record: LogRecord) -> list[SymptomMatch]:
        return [self._match(compiled, record, score)
                for compiled, score in self._recent(record.match_text, record.module)]

    def matched(self, message: str, module: str | None) -> frozenset[tuple[str, int]]:
        """Which symptoms (entry id, position) ``match`` would find in a record of this message and module."""
        return frozenset([(compiled.entry_id, compiled.position) for compiled, _ in self._recent(message, module)])

    def matched_alike(self, message: str, module: str | None, kinds: Kinds, wildcards: str
                      ) -> tuple[frozenset[tuple[str, int]], Unsure] | None:
        """``matched``, and the patterns (``AnchorIndex.unsure``) in whose absence every message of
        this one's shape (faultbot/ingest/number_shapes.py: numbers of ``kinds``, ``wildcards``)
        matches the same symptoms: they are matched against the same ones, all regexes reading the
        digits of numbers blindly (a fuzzy score could differ). None when not so."""
        unsure = self._index.unsure(wildcards, kinds)
        if unsure is None or not all(compiled.regex and reads_numbers_blindly(compiled.regex, 0, kinds)
                                     for compiled in self._applying(message, module)):
            return None
        return self.matched(message, module), unsure
