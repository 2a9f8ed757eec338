"""Every multi-pattern engine finds the same lines and the same patterns, in ASCII text and in
Chinese text alike (hyperscan scans the UTF-8 bytes and maps offsets back to characters)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faultbot.fullwidth import FULL_WIDTH_CHARACTERS
from faultbot.ingest.scanner import Scanner, available_engines, lines_with_high_bytes

LITERALS = ("Entry-Hccl", "crimer rank", "heartbeat", "心跳丢失", "通信域", "ret[")
REGEXES = (r"E[A-Z0-9][0-9]{4}", r"ret\[[1-9]", r"\\")
PIECES = st.sampled_from([*LITERALS, "EI0002", "ret[0]", "ret[7]", "中文日志", "，", "（", "\\", "\n", " ", "a", "é",
                          "0x1f", "[INFO]", *FULL_WIDTH_CHARACTERS[:5]])


def _lines_of(text: str, ends: list[int]) -> set[int]:
    return {text.count("\n", 0, end - 1) for end in ends}


@pytest.mark.parametrize("engine", available_engines())
@settings(max_examples=150, deadline=None)
@given(text=st.lists(PIECES, max_size=60).map("".join))
def test_engines_agree_on_lines_and_patterns(engine, text):
    reference = Scanner(LITERALS, REGEXES, engine="re")
    scanner = Scanner(LITERALS, REGEXES, engine=engine)
    assert _lines_of(text, scanner.ends(text)) == _lines_of(text, reference.ends(text))
    assert scanner.present(text) == reference.present(text)
    assert scanner.occurs(text) == bool(reference.present(text))


@pytest.mark.parametrize("engine", available_engines())
@pytest.mark.parametrize("encoding", ["utf-8", "gb18030"])
@settings(max_examples=100, deadline=None)
@given(text=st.lists(PIECES, max_size=60).map("".join))
def test_ascii_patterns_find_in_the_bytes_the_ascii_lines_they_find_in_the_text(engine, encoding, text):
    scanner = Scanner([literal for literal in LITERALS if literal.isascii()], REGEXES, engine=engine)
    data = text.encode(encoding)
    in_bytes = {data.count(b"\n", 0, end - 1) for end in scanner.ends_in_bytes(data)}
    reference = Scanner(scanner.literals, REGEXES, engine="re")
    assert in_bytes == {data.count(b"\n", 0, end - 1) for end in reference.ends_in_bytes(data)}
    ascii_lines = {number for number, line in enumerate(text.split("\n")) if line.isascii()}
    assert in_bytes & ascii_lines == _lines_of(text, reference.ends(text)) & ascii_lines


@pytest.mark.parametrize("engine", available_engines())
@settings(max_examples=200, deadline=None)
@given(data=st.lists(st.sampled_from([b"a", b"\n", b"\x00", b"\x7f", b"\x80", b"\xff", "中".encode("gb18030"),
                                      "中".encode()]), max_size=40).map(b"".join))
def test_the_lines_with_high_bytes_are_found(engine, data):
    starts = [0, *(position + 1 for position, byte in enumerate(data) if byte == ord("\n"))]
    ends = [position for position, byte in enumerate(data) if byte == ord("\n")] + [len(data)]
    expected = [(start, end) for start, end in zip(starts, ends) if not data[start:end].isascii()]
    assert lines_with_high_bytes(data, engine) == expected


@pytest.mark.parametrize("engine", available_engines())
def test_offsets_are_character_offsets_in_chinese_text(engine):
    text = "第一行：普通日志\n心跳丢失 crimer rank [10.0.0.1/3]\n最后一行 heartbeat"
    scanner = Scanner(LITERALS, (), engine=engine)
    ends = scanner.ends(text)
    assert {text[:end][-len("心跳丢失"):] for end in ends} >= {"心跳丢失"}
    assert _lines_of(text, ends) == {1, 2}


@pytest.mark.parametrize("engine", available_engines())
def test_a_pickled_scanner_scans_like_the_one_it_was(engine):
    scanner = Scanner(LITERALS, REGEXES, engine=engine)
    loaded = pickle.loads(pickle.dumps(scanner))
    text = "x 心跳丢失 y\nEI0002 z\n"
    assert loaded.ends(text) == scanner.ends(text)
    assert loaded.present(text) == scanner.present(text)
