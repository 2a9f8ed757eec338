"""The repeat gate's key of a log line (faultbot/ingest/repeats.py), learned once for every shape of
line. Lines that differ only in the digits of their numbers (a time, a pid, a count, an address:
faultbot/ingest/number_shapes.py) are read alike by every regex that reads those digits blindly:
plain or not, with the same extractors reading values at the same places and the same symptoms
matched. Where that holds, a line of a shape seen before costs a table look-up and the values read
from inside numbers; elsewhere (a fuzzy symptom, a regex that reads a digit as itself) it is read
afresh, as the first of its shape is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from functools import lru_cache

import msgspec

from ..ingest.fields import level_name
from ..ingest.number_shapes import NumberShape, coarse_shape
from ..ingest.plog import SHAPE_MAX_CHARS, PlainLines, PlainPlog, plain_layout, read_alike, timeless
from ..ingest.repeats import NO_EVIDENCE
from ..literal_trie import any_of
from ..match.regex_budget import WATCH, OverBudget
from ..match.symptoms import SymptomMatcher
from .facts import FactExtractor

SHAPES_REMEMBERED = 4096     # coarse shapes met
SHAPES_LEARNED = 4096        # shapes learned (each a few hundred bytes): then all are forgotten
LINES_REMEMBERED = 4096      # lines of a file remembered by their text but for the time (each up to SHAPE_MAX_CHARS)
MASKS_PER_COARSE = 4
_READ_AFRESH = object()
_UNSEEN = object()


class _Alike(msgspec.Struct, frozen=True):
    """Lines of one shape with one key (None: not plain; NO_EVIDENCE), or read afresh."""

    shape: NumberShape
    value: Hashable | None

    def key(self, text: str) -> Hashable | None:
        return self.value


class _Learned(msgspec.Struct, frozen=True):
    """Plain lines of one shape: their key is the first line's, but for the pid and the values read
    from inside numbers; a line whose message holds an anchor or prefilter match whose presence
    numbers may change (``AnchorIndex.unsure``) is read afresh."""

    shape: NumberShape
    pid: tuple[int, int]
    level: str | None
    module: str
    # as the first line gave them: (facts, symptoms), or NO_EVIDENCE
    evidence: tuple[tuple[tuple[str, str], ...], frozenset[tuple[str, int]]] | tuple[()]
    # (index in facts, start, end, spaced) of values read inside numbers; spaced: with whitespace to
    # fold (the values of other lines of the shape have theirs where this one's has)
    varying: tuple[tuple[int, int, int, bool], ...]
    message: tuple[int, int]
    unsure_anchors: re.Pattern[str] | None      # found alike in the message or the line cut to it
    unsure_regexes: re.Pattern[str] | None
    # where an unsure anchor can be: within its length of a number of the message (the rest of the
    # message is the first line's, which holds none)
    anchors_span: tuple[int, int]

    def key(self, text: str) -> Hashable | None:
        if self.unsure_anchors is not None:
            start, end = self.anchors_span
            if self.unsure_anchors.search(text, start, end):
                return _READ_AFRESH
        if self.unsure_regexes is not None:
            start, end = self.message
            if self.unsure_regexes.search(text[start:end]):
                return _READ_AFRESH
        evidence = self.evidence
        if not evidence:
            return NO_EVIDENCE
        if self.varying:
            values = list(evidence[0])
            for index, value_start, value_end, spaced in self.varying:
                value = text[value_start:value_end]
                values[index] = (values[index][0], " ".join(value.split()) if spaced else value)
            evidence = (tuple(values), evidence[1])
        pid_start, pid_end = self.pid
        return (int(text[pid_start:pid_end]), self.level, self.module, evidence)


class RepeatKeys:
    """``key_of`` (a plain line's key) for any line, None for a line that is not plain, remembered by
    the line's text but for its time (an op's Entry- line at every step, ``timeless``), and else by
    shape. A coarse shape is learned when met a second time: in a flood of lines all different, most
    are met once. Its shapes are found by the line's bytes as one integer, masked
    (``NumberShape.mask``): most coarse shapes have their numbers in one place, in all their shapes."""

    def __init__(self, key_of: Callable[[PlainPlog], Hashable], extractor: FactExtractor, matcher: SymptomMatcher,
                 per_occurrence: frozenset[str]):
        self._key_of = key_of
        self._extractor = extractor
        self._matcher = matcher
        self._per_occurrence = per_occurrence
        self._plain = PlainLines()
        # coarse shape -> [(mask, {masked line: what the shape gives})]
        self._shapes: dict[bytes, list[tuple[int, dict[int, _Alike | _Learned]]]] = {}
        self._learned = 0
        self._seen: dict[str | tuple[str, str], Hashable | None] = {}

    def __call__(self, text: str) -> Hashable | None:
        if len(text) > SHAPE_MAX_CHARS:
            return self._read(text)
        seen = timeless(text)
        key = self._seen.get(seen, _UNSEEN)
        if key is _UNSEEN:
            key = self._shaped(text)
            # a key of its own (a regex ran over its budget, faultbot/evidence.py) stays the line's own
            if type(key) is not object:
                if len(self._seen) >= LINES_REMEMBERED:
                    self._seen.clear()
                self._seen[seen] = key
        return key

    def _shaped(self, text: str) -> Hashable | None:
        """The key of ``text`` by its shape, learned or read."""
        if not text.isascii():
            return self._read(text)
        data = text.encode("ascii")
        coarse = coarse_shape(data)
        masks = self._shapes.get(coarse)
        if masks is None:
            if len(self._shapes) >= SHAPES_REMEMBERED:
                self.forget()
            self._shapes[coarse] = []
            return self._read(text)
        whole = int.from_bytes(data, "big")
        for mask, shapes in masks:
            learned = shapes.get(whole & mask)
            if learned is not None:
                key = learned.key(text)
                return self._read(text) if key is _READ_AFRESH else key
        key = self._read(text)
        if self._learned < SHAPES_LEARNED:
            self._learn(text, key, masks)
        return key

    def _learn(self, text: str, key: Hashable | None, masks: list[tuple[int, dict[int, _Alike | _Learned]]]) -> None:
        """Remembers what the lines of ``text``'s shape give, among ``masks`` of its coarse shape."""
        shape = NumberShape.of(text)
        found = self._learned_from(text, shape)
        # the first line's key as read in full is what it stands for: else the shape is read afresh
        learned = found if found.key(text) == key else _Alike(shape, _READ_AFRESH)
        table = next((table for mask, table in masks if mask == shape.mask), None)
        if table is None and len(masks) < MASKS_PER_COARSE:
            masks.append((shape.mask, table := {}))
        if table is not None:
            table[shape.masked] = learned
            self._learned += 1

    def file_read(self) -> None:
        """Forget the lines of the file read: those of the next differ from them (in their pid)."""
        self._seen.clear()

    def forget(self) -> None:
        """Forget every shape: what the KB's regexes give has changed (one was left out), or to bound
        what is remembered."""
        self._shapes.clear()
        self._learned = 0
        self._seen.clear()

    def _read(self, text: str) -> Hashable | None:
        plain = self._plain(text)
        return None if plain is None else self._key_of(plain)

    def _learned_from(self, text: str, shape: NumberShape) -> _Alike | _Learned:
        """What every line of ``text``'s shape gives, as ``text`` shows."""
        if not read_alike(text, shape.kinds):
            return _Alike(shape, _READ_AFRESH)
        layout = plain_layout(text)
        if layout is None:
            return _Alike(shape, None)
        if shape.varies(*layout.level) or shape.varies(*layout.module):
            return _Alike(shape, _READ_AFRESH)
        level, module = level_name(text[slice(*layout.level)]), text[slice(*layout.module)]
        start, end = layout.message
        message, wildcards = text[start:end], shape.wildcards(text)[start:end]
        WATCH.begin()
        try:
            read = self._extractor.values_at(message, module, level, self._per_occurrence, shape.kinds, wildcards)
            matched = self._matcher.matched_alike(message, module, shape.kinds, wildcards)
        except OverBudget:
            return _Alike(shape, _READ_AFRESH)
        finally:
            WATCH.end()
        if read is None or matched is None:
            return _Alike(shape, _READ_AFRESH)
        (values, unsure_values), (symptoms, unsure_symptoms) = read, matched
        literals = unsure_values.literals | unsure_symptoms.literals
        anchors = _any_of(tuple(sorted(literals)), literal=True)
        regexes = _any_of(tuple(sorted(unsure_values.regexes | unsure_symptoms.regexes)), literal=False)
        if any(unsure is not None and unsure.search(message) for unsure in (anchors, regexes)):
            return _Alike(shape, _READ_AFRESH)
        facts = tuple((fact, " ".join(value.split())) for fact, value, _, _ in values)
        evidence = (facts, symptoms) if facts or symptoms else NO_EVIDENCE
        varying = tuple((index, start + value_start, start + value_end, value != " ".join(value.split()))
                        for index, (_, value, value_start, value_end) in enumerate(values)
                        if value_start >= 0 and shape.varies(start + value_start, start + value_end))
        near = [(number_start, number_end) for number_start, number_end in shape.numbers
                if number_start < end and number_end > start]
        reach = max(map(len, literals), default=1) - 1
        anchors_span = (max(start, near[0][0] - reach), min(end, near[-1][1] + reach)) if near else (start, start)
        return _Learned(shape, layout.pid, level, module, evidence, varying, layout.message, anchors, regexes,
                        anchors_span)


@lru_cache(maxsize=64)
def _any_of(patterns: tuple[str, ...], literal: bool) -> re.Pattern[str] | None:
    """One regex finding any of ``patterns`` (literal: as one tree), None for none: the shapes of a
    reading have a few sets of them."""
    if not patterns:
        return None
    return re.compile(any_of(list(patterns)) if literal else "|".join(patterns))
