"""The effective HCCL_EXEC_TIMEOUT depends on product and mode; the engine compares error-time
spreads against it and asks for product / mode only when the answer decides."""

from __future__ import annotations

import pytest

from faultbot.engine.exec_timeout import NEVER, effective
from faultbot.session import DiagnosisSession

TRAINING_SERIES = ("Atlas training series", "Atlas inference series")
AIV_CAP = 1091


@pytest.mark.parametrize("products, modes, configured, expected", [
    (TRAINING_SERIES, ("HOST",), 600, 544),          # 600 // 68 * 68
    (TRAINING_SERIES, ("HOST",), 30, 68),            # below 68 counts as 68
    (TRAINING_SERIES, ("HOST",), None, 1836),        # the default is 27 x 68
    (("Atlas A2",), ("AIV",), None, AIV_CAP),
    (("Atlas A2",), ("AIV",), 5000, AIV_CAP),
    (("Atlas A2",), ("AIV",), 0, AIV_CAP),
    (("Atlas A2",), ("HOST",), 0, NEVER),
    (("Atlas A3",), ("AI_CPU",), 300, 300),
])
def test_the_kb_profiles(kb, products, modes, configured, expected):
    """The profiles of kb/aggregations.yaml turn a configured value into the one that applies."""
    profile = next(p for p in kb.exec_timeout_profiles
                   if set(products) <= set(p.products) and (not modes or set(modes) <= set(p.modes)))
    assert effective(profile, configured) == expected


@pytest.fixture(scope="module")
def gap_log(kb):
    return kb.entry("hccl.notify-timeout.exec-timeout-gap").tests[0].log


def diagnose(kb, log, **answers):
    session = DiagnosisSession(kb)
    session.add_paste(log)
    for fact, value in answers.items():
        session.answer(fact, value)
    return session.diagnose()


def test_range_over_unknown_products(kb, gap_log):
    memory = diagnose(kb, gap_log, hccl_exec_timeout="600").memory
    assert memory.values("exec_timeout_min_s") == [544] and memory.values("exec_timeout_max_s") == [600]
    assert memory.values("effective_exec_timeout_s") == []


def test_spread_between_min_and_max_asks_for_the_product(kb, gap_log):
    # the two ranks' errors are 344 s apart: above 340 (5 x 68) but below 400
    asked = {q.fact for q in diagnose(kb, gap_log, hccl_exec_timeout="400").questions}
    assert {"product", "hccl_op_expansion_mode"} & asked
    # 300 s is below the spread on every product: nothing to ask about product or mode
    assert not {"product", "hccl_op_expansion_mode"} & {q.fact for q in diagnose(kb, gap_log, hccl_exec_timeout="300").questions}
    answered = diagnose(kb, gap_log, hccl_exec_timeout="400", product="Atlas training series")
    assert answered.top.id == "hccl.notify-timeout.exec-timeout-gap"
    assert answered.memory.values("effective_exec_timeout_s") == [340]
    on_a2 = diagnose(kb, gap_log, hccl_exec_timeout="400", product="Atlas A2", hccl_op_expansion_mode="HOST",
                     other_rank_error_first="no")
    assert on_a2.top.id == "hccl.notify-timeout.inconsistent-behaviour"


def test_unknown_timeout_in_aiv_mode_uses_the_1091_s_default(kb, gap_log):
    diagnosis = diagnose(kb, gap_log, hccl_exec_timeout="unknown", hccl_op_expansion_mode="AIV")
    assert diagnosis.memory.values("effective_exec_timeout_s") == [AIV_CAP]


DEVICE_LINE = ("The error from device(chipId:4, dieId:0), serial number is 1, notify wait timeout occurred during task "
               "execution, stream_id:142, sq_id:146, task_id:46645, notify_id=155, timeout=204s.")


@pytest.mark.parametrize("line, seconds", [
    (DEVICE_LINE, 204),
    ("The error from device(chipId:0, dieId:0), serial number is 1, hccl fftsplus task timeout occurred during task "
     "execution, stream_id:4, sq_id:4, task_id:5, stuck notify num:7, timeout:1836.", 1836),
    ("The error from device(chipId:2, dieId:0), serial number is 9, hccl fftsplus task timeout occurred during task "
     "execution, stream_id:5, sq_id:5, task_id:38827, stuck notify num:1, timeout=30min(default).", None),
])
def test_the_timeout_the_device_printed_is_the_one_in_force(kb, line, seconds):
    diagnosis = diagnose(kb, line + "\nexport HCCL_EXEC_TIMEOUT=200\n")
    printed = diagnosis.memory.values("reported_exec_timeout_s")
    assert printed == ([seconds] if seconds else [])
    if seconds:
        effective = diagnosis.memory.facts("effective_exec_timeout_s")
        assert [f.value for f in effective] == [seconds]
        assert "HCCL_EXEC_TIMEOUT says 200 s" in effective[0].provenance.note
        assert "hccl_exec_timeout" not in [q.fact for q in diagnosis.questions]
