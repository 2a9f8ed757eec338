"""Lines alike but for their numbers (faultbot/ingest/number_shapes.py): a regex said to read the
digits of numbers blindly finds the same matches in every line of a shape, whatever digits its
numbers hold; one said not to can tell two such lines apart; a line is found among the shapes by
its coarse shape and mask, and only a line of the shape is."""

from __future__ import annotations

import random
import re

import pytest

from faultbot.ingest import normalize, plog
from faultbot.ingest.number_shapes import (
    KINDS,
    NUMBER,
    NumberShape,
    blind_to,
    coarse_shape,
    could_hold,
    is_hex,
    necessary_literal,
    occurrences,
    reads_numbers_blindly,
    relaxed_filter,
)

PIECES = ("a", "E", "x", "0", "1", "7", "f", "F", r"\d", r"\w", r"\W", ".", r"[0-9]", r"[a-f]", r"[A-Z]", r"[^\]]",
          r"\[", r"\]", " ", "-", ":", r"\b", r"(?<!\d)", r"(?!\d)", r"(?=x)", r"(?<=\[)", "0x", "$", "^")


def _pattern(rng: random.Random, depth: int = 0) -> str:
    parts = []
    for _ in range(rng.randint(1, 4)):
        roll = rng.random()
        if roll < 0.15 and depth < 2:
            parts.append(f"(?:{_pattern(rng, depth + 1)}|{_pattern(rng, depth + 1)})")
        elif roll < 0.3 and depth < 2:
            parts.append(f"({_pattern(rng, depth + 1)})" + rng.choice(("*", "+", "?", "{1,3}", "*?", "{2}")))
        else:
            piece = rng.choice(PIECES)
            parts.append(piece + ("" if piece.startswith(("(?", "\\b", "$", "^")) else rng.choice(("", "", "+", "?"))))
    return "".join(parts)


def _text(rng: random.Random) -> str:
    parts = []
    for _ in range(rng.randint(1, 6)):
        roll = rng.random()
        if roll < 0.3:
            parts.append(str(rng.randint(0, 99999)))
        elif roll < 0.45:
            parts.append("0x" + "".join(rng.choice("0123456789abcdef") for _ in range(rng.randint(1, 6))))
        else:
            parts.append("".join(rng.choice("aEx0f1F[] -:_") for _ in range(rng.randint(1, 4))))
        parts.append(rng.choice((" ", "[", "]", ":", "-", "")))
    return "".join(parts)


def _alike(text: str, rng: random.Random) -> str:
    """``text`` with other digits in its numbers, of the same kinds."""
    chars = list(text)
    for number in NUMBER.finditer(text):
        start, end = number.span(number.lastgroup or 0)
        chars[start:end] = (rng.choice(KINDS[number.lastgroup or "decimal"]) for _ in range(end - start))
    return "".join(chars)


def _found(pattern: re.Pattern[str], text: str) -> list[tuple[tuple[int, int], ...]]:
    return [match.regs for match in pattern.finditer(text)]


@pytest.mark.parametrize("seed", range(4))
def test_a_regex_blind_to_a_shape_finds_the_same_matches_in_all_its_lines(seed: int) -> None:
    rng = random.Random(seed)
    compared = 0
    for _ in range(400):
        source = _pattern(rng)
        try:
            pattern = re.compile(source)
        except re.error:
            continue
        for _ in range(4):
            text = _text(rng)
            if not NumberShape.of(text).kinds <= blind_to(source):
                continue
            for _ in range(6):
                other = _alike(text, rng)
                assert _found(pattern, other) == _found(pattern, text), (source, text, other)
                compared += 1
    assert compared > 1000


@pytest.mark.parametrize(("pattern", "line", "other"), [
    (r"(?<!\d)207004(?!\d)", "code 207004 seen", "code 207005 seen"),            # a digit written out
    (r"\d+", "at 0x1a2b", "at 0x1234"),                                           # \d tells a hex letter apart
    (r"a 2-bit", "0x1a 2-bit error", "0x10 2-bit error"),                         # a letter at a number's end
    (r"ret\[[1-9]", "ret[0]", "ret[5]"),
    (r"(\d)\1", "n 11", "n 12"),                                                  # a backreference
])
def test_a_regex_that_is_not_blind_can_tell_lines_of_a_shape_apart(pattern: str, line: str, other: str) -> None:
    shape = NumberShape.of(line)
    assert _of_shape(other, line)
    assert _found(re.compile(pattern), line) != _found(re.compile(pattern), other)
    assert not reads_numbers_blindly(pattern, 0, shape.kinds)


@pytest.mark.parametrize("pattern", [
    r"streamId\[(?P<stream>\d+)\]", r"Entry-(?P<op>Hccl(?!CommInit)\w{1,40}): tag\[(?P<tag>[^\]]{1,200})\]",
    "CANN", "EI0002", r"HCCL_EXEC_TIMEOUT[^\d\n]{0,24}?(?P<s>\d{1,10})(?![\d.])", r"(?i)timeout",
])
def test_what_log_regexes_mostly_are_is_blind(pattern: str) -> None:
    assert blind_to(pattern) == frozenset(KINDS)


def test_plain_plog_and_clean_up_read_the_digits_of_numbers_blindly() -> None:
    """The claim faultbot/ingest/plog.py ``read_alike`` rests on: every regex plain_plog and clean-up
    read a line with but the Markdown-link rewrite, which a line holding "](" never reaches."""
    cleaning = [step.rewrite.__defaults__[0] for step in normalize._PRINTABLE_REWRITES
                if getattr(step.rewrite, "__defaults__", None)]
    markdown_links = [pattern for pattern in cleaning if "\\1" in pattern.pattern]
    assert len(markdown_links) == 1 and not blind_to(markdown_links[0].pattern)
    for pattern in (plog._HEADER_AND_TID, plog._ANY_HEAD, normalize._FENCE_ONLY,
                    *(pattern for pattern in cleaning if pattern not in markdown_links)):
        assert blind_to(pattern.pattern, pattern.flags) == frozenset(KINDS), pattern.pattern


def _of_shape(text: str, line: str) -> bool:
    """Whether ``text`` is found as a line of ``line``'s shape, as faultbot/extract/repeat_keys.py looks."""
    shape = NumberShape.of(line)
    data = text.encode("ascii")
    return coarse_shape(data) == coarse_shape(line.encode("ascii")) and int.from_bytes(data, "big") & shape.mask == shape.masked


LINE = "[INFO] HCCL(2100042,python3):2025-10-24-11:00:01.004.042 sendBuf[0x120a642c15c3], count[230992365], dataType[int32]"


def test_a_line_of_the_shape_is_found_by_its_coarse_shape_and_mask() -> None:
    assert all(_of_shape(_alike(LINE, random.Random(n)), LINE) for n in range(20))


@pytest.mark.parametrize("other", [
    LINE.replace("int32", "int64"),                      # digits outside numbers
    LINE.replace("python3", "pythoe3"),                  # a hex letter outside numbers
    LINE.replace("count[230992365]", "count[2309923a5]"),  # a letter in a decimal number
])
def test_a_line_of_another_shape_is_not_taken_for_it(other: str) -> None:
    assert not _of_shape(other, LINE)


def test_where_a_line_of_the_shape_could_hold_a_literal() -> None:
    shape = NumberShape.of(LINE)
    wildcards = shape.wildcards(LINE)
    filtered = relaxed_filter(wildcards)
    for literal, held in [("507015", True), ("int64", False)]:   # in count[...] or the address; nowhere
        assert could_hold(wildcards, literal, occurrences(filtered, relaxed_filter(literal))) is held
    assert necessary_literal(r"ret\[[1-9]") == "ret[" and necessary_literal(r"[a-z]+") == ""


def test_a_line_could_hold_a_literal_where_its_hex_digits_may_be_any_digit() -> None:
    # the definition, as a regex: each hex digit of the literal may also be a NUL of the wildcards
    chooser = random.Random(7)
    alphabet = "0123456789abcdefABCDEFxz:[] \0"
    for _ in range(20_000):
        literal = "".join(chooser.choice(alphabet[:-1]) for _ in range(chooser.randint(1, 4)))
        wildcards = "".join(chooser.choice(alphabet) for _ in range(chooser.randint(0, 12)))
        definition = "".join(f"[{re.escape(c)}\0]" if c in "0123456789abcdefABCDEF" else re.escape(c) for c in literal)
        held = could_hold(wildcards, literal, occurrences(relaxed_filter(wildcards), relaxed_filter(literal)))
        if is_hex(literal) and "\0" * len(literal) in wildcards:   # the short cut AnchorIndex.unsure takes
            assert held
        assert held == (re.search(definition, wildcards) is not None), (literal, wildcards)
