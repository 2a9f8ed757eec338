"""Every multi-pattern engine finds the same lines and the same patterns, in ASCII text and in
Chinese text alike (hyperscan scans the UTF-8 bytes and maps offsets back to characters)."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from faultbot.fullwidth import FULL_WIDTH_CHARACTERS
from faultbot.ingest.scanner import Scanner, available_engines

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
