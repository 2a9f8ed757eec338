"""Matching log records against the KB's symptom signatures: anchors first, then fuzzy or exact.

A symptom can only match a record that contains one of its literal anchors; the prefilter finds
those anchors for all symptoms in one pass, and matching without it gives the same result (tests
check that). Fuzzy work compares short masked messages only, cut to a window around the anchor,
so its cost stays bounded on very long lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from rapidfuzz import fuzz

from ..fullwidth import as_ascii_punctuation
from ..ingest.records import LogRecord
from ..kb.loader import KnowledgeBase
from ..kb.model import Entry, Symptom
from .anchors import AnchorIndex
from .lazy_regex import LazyRegex
from .masking import literal_runs, mask

_ANCHOR_MAX = 32
TRUNCATED_SHARE = 0.6


@dataclass(frozen=True)
class SymptomMatch:
    entry_id: str
    symptom: Symptom
    record: LogRecord
    score: float           # 0..1: fuzzy similarity, or 1 for a regex match


@dataclass(frozen=True)
class CompiledSymptom:
    entry_id: str
    symptom: Symptom
    anchors: tuple[str, ...]
    masked: str                       # masked signature ("" for regex symptoms)
    regex: LazyRegex | None


def _derived_anchor(masked_signature: str) -> str:
    """A literal prefix of the signature's longest literal run, cut at a word boundary."""
    runs = literal_runs(masked_signature)
    if not runs:
        return ""
    run = runs[0]
    if len(run) <= _ANCHOR_MAX:
        return run
    cut = run.rfind(" ", 8, _ANCHOR_MAX)
    return run[: cut if cut > 0 else _ANCHOR_MAX]


def compile_symptom(entry: Entry, symptom: Symptom) -> CompiledSymptom:
    """The symptom as records are matched against it: its signature and anchors read as log lines
    are (full-width punctuation as ASCII), the signature masked."""
    anchors = tuple(map(as_ascii_punctuation, symptom.anchors))
    if symptom.regex:
        return CompiledSymptom(entry.id, symptom, anchors, "", LazyRegex(symptom.regex))
    masked = mask(as_ascii_punctuation(symptom.signature))
    anchors = anchors or tuple(a for a in (_derived_anchor(masked),) if a)
    return CompiledSymptom(entry.id, symptom, anchors, masked, None)


def _fuzzy_score(compiled: CompiledSymptom, masked_message: str) -> float:
    length = len(compiled.masked)
    if len(masked_message) > 2 * length:
        # Window the message around the first anchor so partial_ratio stays O(len(signature)^2).
        at = max((masked_message.find(a) for a in compiled.anchors), default=0)
        start = max(0, at - length)
        masked_message = masked_message[start:start + 3 * length]
    if len(masked_message) <= length:
        # A record cut short (a ticket's truncation) still matches the part it kept, but a
        # fragment much shorter than the signature proves nothing.
        if len(masked_message) >= TRUNCATED_SHARE * length:
            return fuzz.partial_ratio(masked_message, compiled.masked) / 100
        return fuzz.ratio(compiled.masked, masked_message) / 100
    return fuzz.partial_ratio(compiled.masked, masked_message) / 100


class SymptomMatcher:
    """All symptoms of a knowledge base, ready to match records."""

    def __init__(self, kb: KnowledgeBase, use_prefilter: bool = True, engine: str | None = None):
        self.symptoms = tuple(compile_symptom(entry, symptom) for entry in kb.entries for symptom in entry.symptoms)
        self.use_prefilter = use_prefilter
        self._index = AnchorIndex([(compiled, compiled.anchors, "") for compiled in self.symptoms], engine)
        self.anchors = self._index.anchors

    def _candidates(self, message: str) -> list[CompiledSymptom]:
        if not self.use_prefilter:
            return [s for s in self.symptoms if any(a in message for a in s.anchors)]
        return self._index.candidates(message)

    def match(self, record: LogRecord) -> list[SymptomMatch]:
        message = record.match_text
        matches = []
        masked_message = ""
        for compiled in self._candidates(message):
            symptom = compiled.symptom
            if symptom.modules and record.module and record.module not in symptom.modules:
                continue
            if compiled.regex is not None:
                if compiled.regex.search(message):
                    matches.append(SymptomMatch(compiled.entry_id, symptom, record, 1.0))
                continue
            masked_message = masked_message or mask(message)
            score = _fuzzy_score(compiled, masked_message)
            if score * 100 >= symptom.min_score:
                matches.append(SymptomMatch(compiled.entry_id, symptom, record, score))
        return matches
