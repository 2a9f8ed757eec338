"""Fuzzy scores are remembered by masked message and symptom (faultbot/match/recent.py ``Remembered``):
a flood of lines that differ only in what masking hides (numbers, times, pids) is scored once per
symptom, every score is the one the line would get afresh, and what is remembered stays bounded
in entries and in the length of the text kept."""

from __future__ import annotations

import pytest

from faultbot.match import symptoms
from faultbot.match.recent import Remembered
from faultbot.match.symptoms import SymptomMatcher

NOTIFY = ("EI0002: [PID: {pid}] 2025-10-24-11:18:{s:02d}.{ms:03d}.902 The wait execution of the Notify register times "
          "out. Reason: The Notify register has not received the Notify record from remote rank: [{rank}].")
OTHER = "The Notify register of stream {n} was reset by the driver."      # the anchor, other words


def test_a_text_is_computed_once_until_the_memory_is_full() -> None:
    calls: list[tuple[str, int]] = []
    remembered = Remembered(lambda text, n: calls.append((text, n)) or len(text) + n, size=3, max_chars=10)
    assert [remembered("ab", 1), remembered("ab", 1), remembered("ab", 2)] == [3, 3, 4]
    assert calls == [("ab", 1), ("ab", 2)]
    remembered("cd", 1)
    remembered("ef", 1)                   # a fourth key: everything is forgotten, then this one kept
    remembered("ab", 1)
    assert calls[-2:] == [("ef", 1), ("ab", 1)]


def test_text_longer_than_the_bound_is_never_kept() -> None:
    calls: list[str] = []
    remembered = Remembered(lambda text: calls.append(text) or text.upper(), max_chars=4)
    assert [remembered("abcde"), remembered("abcde")] == ["ABCDE", "ABCDE"]
    assert calls == ["abcde", "abcde"]


@pytest.fixture()
def scored(kb, monkeypatch: pytest.MonkeyPatch) -> tuple[SymptomMatcher, list[tuple[str, symptoms.CompiledSymptom]]]:
    """A new matcher whose fuzzy scores are counted, and the list they are counted in."""
    calls: list[tuple[str, symptoms.CompiledSymptom]] = []
    score = symptoms._fuzzy_score
    monkeypatch.setattr(symptoms, "_fuzzy_score", lambda masked, compiled: calls.append((masked, compiled))
                        or score(masked, compiled))
    return SymptomMatcher(kb), calls


def test_lines_that_differ_in_masked_parts_only_are_scored_once_per_symptom(scored) -> None:
    matcher, calls = scored
    lines = [NOTIFY.format(pid=1000 + n, s=n % 60, ms=n % 1000, rank=n) for n in range(200)]
    found = {matcher.matched(line, None) for line in lines}
    assert len(found) == 1 and ("hccl.notify-timeout", 5) in next(iter(found))
    symptoms_scored = {compiled for _, compiled in calls}
    assert symptoms_scored and len(calls) == len(symptoms_scored)


def test_every_score_is_the_score_of_the_line_afresh(scored) -> None:
    matcher, calls = scored
    lines = [template.format(pid=7, s=n, ms=n, rank=n, n=n) for n in range(3) for template in (NOTIFY, OTHER)]
    for line in lines * 2:     # the notify lines and the other lines in turn: each hits the memory of its own
        masked = matcher.masker.mask(line)
        afresh = {compiled: symptoms._fuzzy_score(masked, compiled) for compiled in matcher._candidates(line)
                  if not compiled.regex}
        expected = {compiled: score for compiled, score in afresh.items() if score * 100 >= compiled.min_score}
        assert {compiled: score for compiled, score in matcher._matching(line, None) if not compiled.regex} == expected
    assert len({masked for masked, _ in calls}) == 2
