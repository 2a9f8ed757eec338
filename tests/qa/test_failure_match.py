"""A failure told in words: the faults that fit, and the question that tells them apart."""

from __future__ import annotations

import pytest

from faultbot.engine.diagnosis import Engine
from faultbot.qa.failure_match import FaultWords


@pytest.fixture(scope="module")
def words(kb) -> FaultWords:
    return FaultWords(kb, Engine(kb).feeds)


def test_aiv_hang_in_words_points_at_the_aiv_fault_and_asks_for_the_kernel(words):
    match = words.match("HcclAllreduce hangs after I set HCCL_OP_EXPANSION_MODE=AIV", known={"hccl_op_expansion_mode"})
    assert match.candidates[0].entry.id == "hccl.aiv-kernel-failure"
    assert match.question is not None and match.question.fact == "kernel_name"


def test_chinese_sdma_error_points_at_sdma_faults(words):
    match = words.match("多卡训练时报 sdma 错误")
    assert any(hit.entry.id.startswith("hccl.sdma-error") for hit in match.candidates)
    assert match.question is not None


def test_an_error_code_keeps_only_the_faults_that_report_it(words):
    match = words.match("job hangs, EI0002 on all ranks")
    assert match.candidates
    assert all(hit.entry.id.startswith("hccl.notify-timeout") for hit in match.candidates)


def test_words_about_nothing_in_the_kb_match_nothing(words):
    match = words.match("my cat is sick")
    assert match.candidates == () and match.question is None
