"""A message too short to reach a fuzzy symptom's minimum is not scored (``_out_of_reach``): the text
of that length most like the signature, its own beginning, scores 0 there, and one character more
may not."""

from __future__ import annotations

from faultbot.match import symptoms
from faultbot.match.symptoms import SymptomMatcher


def _first_in_reach(compiled: symptoms.CompiledSymptom) -> int:
    return next((n for n in range(1, len(compiled.masked)) if not symptoms._out_of_reach(n, compiled)),
                len(compiled.masked))


def test_a_message_out_of_reach_scores_zero(kb) -> None:
    fuzzy = [compiled for compiled in SymptomMatcher(kb).symptoms if compiled.masked]
    assert fuzzy
    for compiled in fuzzy:
        first = _first_in_reach(compiled)
        assert first > 1
        for length in range(1, first):
            assert symptoms._fuzzy_score(compiled.masked[:length], compiled) == 0


def test_the_bound_is_tight_for_a_low_minimum(kb) -> None:
    compiled = next(compiled for compiled in SymptomMatcher(kb).symptoms if compiled.masked)
    for minimum in (40.0, 55.0, 70.0):
        low = compiled._replace(min_score=minimum)
        first = _first_in_reach(low)
        assert first < symptoms.TRUNCATED_SHARE * len(low.masked)       # compared whole, by ratio
        assert symptoms._fuzzy_score(low.masked[:first - 1], low) == 0 < symptoms._fuzzy_score(low.masked[:first], low)
