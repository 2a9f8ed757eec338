"""Lines alike but for their numbers: where the numbers of a line are, and which regexes cannot tell
two such lines apart.

A number is a run of digits, or ``0x`` and lower-case hex digits, with no letter, digit or ``_``
on either side (``NUMBER``): a time, a pid, a count, an address. Two ASCII lines have one shape
(``NumberShape``) when they differ only in the digits of their numbers, the numbers of one in the
same places and of the same kinds and lengths as the other's. ``blind_to`` says for which kinds of
number a regex finds the same matches, at the same offsets, in every line of a shape (the text it
captures differs only inside numbers), so that what a line gives can be learned from another line
of its shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import msgspec

try:  # Python 3.11+
    from re import _constants as sre_constants  # type: ignore[attr-defined]
    from re import _parser as sre_parse  # type: ignore[attr-defined]
except ImportError:  # Python 3.10
    import sre_constants
    import sre_parse

# sre_*: what the regex readers share
__all__ = ["EVERY_KINDS", "KINDS", "NUMBER", "Kinds", "NumberShape", "blind_to", "coarse_shape", "could_hold",
           "is_hex", "necessary_literal", "occurrences", "reads_numbers_blindly", "relaxed_filter", "sre_constants", "sre_parse"]

NUMBER = re.compile(r"(?<!\w)(?:0x(?P<hex>[0-9a-f]+)|[0-9]+)(?!\w)")
# The kinds of number, by the characters their digits may be (a hex number's after "0x").
DIGITS = "0123456789"
KINDS = {"decimal": DIGITS, "hex": DIGITS + "abcdef"}
HEX_DIGITS = DIGITS + "abcdefABCDEF"
Kinds = frozenset[str]
EVERY_KINDS: tuple[Kinds, ...] = tuple(frozenset(kind for n, kind in enumerate(KINDS) if chosen >> n & 1)
                                       for chosen in range(1 << len(KINDS)))
_AS_ZERO = bytes.maketrans(b"123456789abcdef", b"0" * 15)
_LETTER_BIT = 0x40    # set in "a" to "f", clear in "0" to "9"


def coarse_shape(data: bytes) -> bytes:
    """An ASCII line's bytes with every digit and lower-case hex letter read as "0": lines of one shape
    have one coarse shape, and a line of the coarse shape of a ``NumberShape`` is of it when
    its ``NumberShape.mask`` says so."""
    return data.translate(_AS_ZERO)


class NumberShape(msgspec.Struct, frozen=True):
    """The shape of one ASCII line: its text outside numbers and where its numbers are."""

    numbers: tuple[tuple[int, int], ...]    # (start, end) of the digits of each number, in order
    kinds: Kinds                            # the kinds of its numbers
    # An ASCII line of the coarse shape of this shape's lines (``coarse_shape``) holds a digit or a
    # lower-case hex letter wherever they hold a digit of a number. It is of this shape when it
    # agrees with them outside numbers and holds no letter in a decimal number: when its bytes as
    # one integer, masked by ``mask`` (every bit outside numbers, the letter bit of each digit of a
    # decimal number, nothing of a hex number's digits), are ``masked``.
    mask: int
    masked: int

    @classmethod
    def of(cls, text: str) -> NumberShape:
        numbers: list[tuple[int, int]] = []
        mask = bytearray(b"\xff" * len(text))
        kinds: set[str] = set()
        for number in NUMBER.finditer(text):
            kind = number.lastgroup or "decimal"
            start, end = number.span(number.lastgroup or 0)
            numbers.append((start, end))
            kinds.add(kind)
            mask[start:end] = bytes([_LETTER_BIT if kind == "decimal" else 0]) * (end - start)
        whole = int.from_bytes(mask, "big")
        return cls(tuple(numbers), frozenset(kinds), whole, int.from_bytes(text.encode("ascii"), "big") & whole)

    def varies(self, start: int, end: int) -> bool:
        """Whether the text at ``start:end`` holds digits of a number (may differ between lines)."""
        return any(start < number_end and number_start < end for number_start, number_end in self.numbers)

    def wildcards(self, text: str) -> str:
        """``text`` (of this shape) with the digits of its numbers as NUL: what every line of the shape has."""
        kept = list(text)
        for start, end in self.numbers:
            kept[start:end] = "\0" * (end - start)
        return "".join(kept)


# every character that may stand for a digit of a number (a hex digit), and the NUL standing for one, as "0"
_RELAXED_AS_ZERO = str.maketrans(dict.fromkeys(HEX_DIGITS + "\0", "0"))


def relaxed_filter(text: str) -> str:
    """``text`` with every hex digit and NUL read as "0": where a line of a shape could hold a
    literal (``could_hold``), the literal's filter occurs in the filter of the shape's wildcards."""
    return text.translate(_RELAXED_AS_ZERO)


def could_hold(wildcards: str, literal: str, positions: Sequence[int]) -> bool:
    """Whether some line of a shape could hold ``literal`` at one of ``positions``: whether
    ``wildcards`` (what every line of the shape has, ``NumberShape.wildcards``: NULs for the digits
    of its numbers) holds it there, each of its hex digits read as itself or a NUL. The positions
    are where its ``relaxed_filter`` occurs in the wildcards' (``occurrences``); compared character
    by character, with no regex compiled (a worker would compile one per anchor of the KB)."""
    return any(all(held == wanted or (held == "\0" and wanted in HEX_DIGITS)
                   for held, wanted in zip(wildcards[position:position + len(literal)], literal))
               for position in positions)


def occurrences(text: str, needle: str) -> list[int]:
    """Where ``needle`` starts in ``text``, overlaps included."""
    found: list[int] = []
    position = text.find(needle)
    while position >= 0:
        found.append(position)
        position = text.find(needle, position + 1)
    return found


def is_hex(literal: str) -> bool:
    """Whether every character of ``literal`` may be a digit of a number: a stretch of NULs as
    long could hold it."""
    return all(character in HEX_DIGITS for character in literal)


def necessary_literal(pattern: str, flags: int = 0) -> str:
    """The longest stretch of text every match of the regex holds, as far as its top level shows
    ("" when none)."""
    try:
        parsed = sre_parse.parse(pattern, flags)
    except re.error:
        return ""
    if parsed.state.flags & re.I:
        return ""
    runs = [""]
    for op, value in parsed:
        if op is sre_constants.LITERAL:
            runs[-1] += chr(value)
        elif runs[-1]:
            runs.append("")
    return max(runs, key=len)


# What reads_numbers_blindly follows of a parsed regex.
_ATOMS = {sre_constants.LITERAL, sre_constants.NOT_LITERAL, sre_constants.ANY, sre_constants.IN}
_REPEATS = {sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT,
            *(getattr(sre_constants, name) for name in ("POSSESSIVE_REPEAT",) if hasattr(sre_constants, name))}
_GROUPS = {getattr(sre_constants, name) for name in ("ATOMIC_GROUP",) if hasattr(sre_constants, name)}
_START = ()   # where a match may begin: anywhere


class _Unfollowed(Exception):
    """A construct reads_numbers_blindly does not follow (a backreference): the regex is not blind."""


class _Atom(msgspec.Struct, frozen=True):
    """One character test of a parsed regex."""

    op: object
    value: Any
    ignore_case: bool

    def accepts(self, char: str) -> bool:
        variants = {char, char.lower(), char.upper()} if self.ignore_case else {char}
        if self.op is sre_constants.LITERAL:
            return any(ord(v) == self.value for v in variants)
        if self.op is sre_constants.NOT_LITERAL:
            return all(ord(v) != self.value for v in variants)
        if self.op is sre_constants.ANY:
            return char != "\n"
        items = list(self.value)
        negated = bool(items) and items[0][0] is sre_constants.NEGATE
        return any(_in_item(op, value, v) for op, value in items if op is not sre_constants.NEGATE
                   for v in variants) != negated

    def accepts_any(self, chars: str) -> bool:
        return any(map(self.accepts, chars))

    def uniform(self, chars: str) -> bool:
        return len({self.accepts(char) for char in chars}) == 1

    def accepts_non_word(self) -> bool:
        """Whether some character that is not a letter, digit or ``_`` passes (True when unsure)."""
        if self.op is sre_constants.LITERAL:
            return not _word(chr(self.value))
        if self.op is not sre_constants.IN:
            return True
        for op, value in self.value:
            if op is sre_constants.LITERAL and _word(chr(value)):
                continue
            if op is sre_constants.RANGE and value[1] - value[0] < 4096 and all(
                    _word(chr(code)) for code in range(value[0], value[1] + 1)):
                continue
            if op is sre_constants.CATEGORY and _category(value) in (("DIGIT", False), ("WORD", False)):
                continue
            return True
        return False


def _word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _in_item(op: object, value: Any, char: str) -> bool:
    if op is sre_constants.LITERAL:
        return ord(char) == int(value)
    if op is sre_constants.RANGE:
        return bool(value[0] <= ord(char) <= value[1])
    if op is sre_constants.CATEGORY:
        kind, negated = _category(value)
        if kind not in _CATEGORY_TESTS:
            raise _Unfollowed(kind)
        return _CATEGORY_TESTS[kind](char) != negated
    raise _Unfollowed(str(op))


_CATEGORY_TESTS: dict[str, Callable[[str], bool]] = {
    "DIGIT": str.isdigit, "WORD": _word, "SPACE": str.isspace, "LINEBREAK": lambda char: char == "\n"}


def _category(value: object) -> tuple[str, bool]:
    """A category's kind (DIGIT, WORD, ...) and whether it is negated (``\\D``)."""
    name = str(getattr(value, "name", value))
    return name.split("_")[-1], "_NOT_" in name


class _Graph:
    """The character tests of a regex, each with the tests that may come just before it (``_START``:
    the match may begin there) and whether the match, or a lookaround, may end just after it."""

    def __init__(self) -> None:
        self.atoms: dict[tuple[int, ...], _Atom] = {}
        self.before: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
        self.last: set[tuple[int, ...]] = set()

    def walk(self, items: list[tuple[object, object]], path: tuple[int, ...], before: frozenset[tuple[int, ...]],
             ignore_case: bool) -> frozenset[tuple[int, ...]]:
        """Adds ``items`` after the tests ``before``; returns the tests that may come last in them."""
        for index, (op, value) in enumerate(items):
            before = self._node(op, value, (*path, index), before, ignore_case)
        return before

    def _node(self, op: object, value: Any, path: tuple[int, ...], before: frozenset[tuple[int, ...]],
              ignore_case: bool) -> frozenset[tuple[int, ...]]:
        if op in _ATOMS:
            self.atoms[path] = _Atom(op, value, ignore_case)
            self.before.setdefault(path, set()).update(before)
            return frozenset((path,))
        if op is sre_constants.SUBPATTERN:
            _, add, remove, items = value
            return self.walk(items, path, before, (ignore_case or bool(add & re.I)) and not remove & re.I)
        if op in _GROUPS:
            return self.walk(value, path, before, ignore_case)
        if op is sre_constants.BRANCH:
            return frozenset().union(*(self.walk(items, (*path, n), before, ignore_case)
                                       for n, items in enumerate(value[1])))
        if op in _REPEATS:
            least, _, items = value
            ends = self.walk(items, path, before, ignore_case)
            while True:   # a repeat may follow itself: until no test gains a test before it
                links = self._links()
                more = self.walk(items, path, before | ends, ignore_case)
                if more <= ends and links == self._links():
                    break
                ends |= more
            return ends | before if least == 0 else ends
        if op is sre_constants.AT:
            return before
        if op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
            direction, items = value
            # a lookbehind's tests start somewhere before: as if anywhere
            self.last |= self.walk(items, path, before if direction == 1 else frozenset((_START,)), ignore_case)
            return before
        raise _Unfollowed(str(op))

    def _links(self) -> int:
        return sum(map(len, self.before.values()))

    def just_before_number(self, path: tuple[int, ...], kind: str) -> bool:
        """Whether the test may pass the character just before the first digit of a number of
        ``kind``: a non-word character, or for a hex number the "x" after its "0"."""
        atom = self.atoms[path]
        if kind == "decimal":
            return atom.accepts_non_word()
        return atom.accepts("x") and any(other == _START or self.atoms[other].accepts("0") for other in self.before[path])

    def dies_in_number(self, path: tuple[int, ...], chars: str) -> bool:
        """Whether a match that passed the test at a digit of a number (``chars``) ends before the
        number does: the tests that may follow pass only more of its digits, then fail."""
        seen = {path}
        todo = [path]
        while todo:
            here = todo.pop()
            if here in self.last:
                return False
            for after, before in self.before.items():
                if here in before and after not in seen:
                    atom = self.atoms[after]
                    if atom.accepts_non_word():
                        return False
                    if atom.accepts_any(chars):
                        seen.add(after)
                        todo.append(after)
        return True


def reads_numbers_blindly(pattern: str, flags: int, kinds: Kinds) -> bool:
    """Whether the regex finds the same matches (spans and groups) in every line of a
    ``NumberShape`` whose numbers are of ``kinds``, wherever a search of it starts (``blind_to``)."""
    return kinds <= blind_to(pattern, flags)


@cache
def blind_to(pattern: str, flags: int = 0) -> Kinds:
    """The kinds of number whose digits the regex reads blindly: it finds the same matches (spans
    and groups) in every line of one ``NumberShape`` with numbers of those kinds only, wherever a
    search of it starts.

    The lines differ only in the digits of numbers, so a test of one character that sees one of them
    must pass all a number's digits alike or none (``\\d``, ``\\w``, ``.``, ``[^\\]]``), or, where it
    tells them apart (a letter, a digit written out), the match must die at the next character
    whichever way it went: a number ends at a non-word character, and the tests that may come next
    pass neither it nor a digit. A test sees a number's digit only when the match may begin there or
    the test before it may pass what comes before that digit (a non-word character or a digit; for a
    hex digit, the "x" or a hex digit). A backreference is not followed: not blind."""
    try:
        parsed = sre_parse.parse(pattern, flags)
        graph = _Graph()
        ignore_case = bool(parsed.state.flags & re.I)
        graph.last |= graph.walk(list(parsed), (), frozenset((_START,)), ignore_case)
    except (_Unfollowed, re.error):
        return frozenset()
    return frozenset(kind for kind in KINDS if _blind(graph, kind))


def _blind(graph: _Graph, kind: str) -> bool:
    chars = KINDS[kind]
    seen: set[tuple[int, ...]] = set()     # tests that may see a digit of a number of the kind
    changed = True
    while changed:
        changed = False
        for path, before in graph.before.items():
            if path not in seen and (_START in before or any(
                    other != _START and (graph.just_before_number(other, kind)
                                         or (other in seen and graph.atoms[other].accepts_any(chars)))
                    for other in before)):
                seen.add(path)
                changed = True
    return all(graph.atoms[path].uniform(chars) or graph.dies_in_number(path, chars) for path in seen)


