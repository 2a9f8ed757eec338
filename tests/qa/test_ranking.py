"""Ranking passages for a question: what makes a sentence the answer counts as much as its
passage holds the question."""

from __future__ import annotations

from faultbot.qa.answer import answer


def test_a_default_value_does_not_lift_a_passage_without_what_the_default_is_of(index):
    # HCCL_EXEC_TIMEOUT's "default 1836" sits among timeout words; the question asks about AI CPU operators
    assert answer(index, "default timeout for aicpu operators?").citations[0].startswith("cann-aicpu-errors#")
