"""Derivations over several records, and what happens when a rule itself fails."""

from __future__ import annotations

import pytest

from faultbot.cases import load_cases
from faultbot.engine.agenda import RuleError, run_to_fixpoint
from faultbot.engine.facts import WorkingMemory
from faultbot.engine.rules import Context
from faultbot.session import DiagnosisSession

from ..conftest import TESTS_DIR

DESTROY = ("[INFO] HCCL(57096,python3.10):2025-05-12-20:55:44.601.000 [op_base.cc:1500] [57096]"
           "Entry-HcclCommDestroy: comm[0xfffe380078d0]\n")


def test_comm_destroyed_before_the_sdma_error_is_derived(kb):
    session = DiagnosisSession(kb)
    sdma = kb.entry("hccl.sdma-error").tests[1].log
    session.add_paste(DESTROY + sdma)
    diagnosis = session.diagnose()
    assert diagnosis.memory.values("comm_destroyed_before_sync") == [True]
    assert diagnosis.top.id == "hccl.sdma-error.comm-destroyed"


def test_destroy_after_the_error_proves_nothing(kb):
    session = DiagnosisSession(kb)
    later = DESTROY.replace("20:55:44.601.000", "20:59:00.000.000")
    session.add_paste(kb.entry("hccl.sdma-error").tests[1].log + later)
    assert session.diagnose().memory.values("comm_destroyed_before_sync") == []


class _Broken:
    id = "broken-rule"
    priority = 0
    specificity = 1

    def fire(self, memory, context):
        raise ZeroDivisionError("division by zero")


def test_a_rule_that_raises_is_reported_with_its_id():
    with pytest.raises(RuleError, match="rule 'broken-rule' failed: ZeroDivisionError"):
        run_to_fixpoint(WorkingMemory(), [_Broken()], Context({}, (), frozenset()))


def test_every_rank_present_and_none_failed_first_settles_other_rank_error_first(kb):
    """Four of four ranks time out and nothing failed before: the evidence answers the question,
    so it is not asked; with a rank missing it stays open."""
    four = next(c for c in load_cases(TESTS_DIR / "cases") if c.name.startswith("All four ranks time out"))
    session = DiagnosisSession(kb)
    session.add_paste(four.log)
    diagnosis = session.diagnose()
    assert diagnosis.memory.values("other_rank_error_first") == [False]
    assert "other_rank_error_first" not in [q.fact for q in diagnosis.questions]
    three = "\n".join(line for line in four.log.splitlines() if "HCCL(31203" not in line)
    session = DiagnosisSession(kb)
    session.add_paste(three)
    assert session.diagnose().memory.values("other_rank_error_first") == []


def test_a_rank_whose_op_data_line_is_missing_is_not_a_different_collective(kb):
    """One rank's opData line (count, dataType) is in another file or paste: missing is unknown,
    never different, so no op mismatch is concluded; the ranks that print it are still compared."""
    four = next(c for c in load_cases(TESTS_DIR / "cases") if c.name.startswith("All four ranks time out"))
    split = "\n".join(line for line in four.log.splitlines()
                      if not ("HCCL(31203" in line and "opData information" in line))
    session = DiagnosisSession(kb)
    session.add_paste(split)
    diagnosis = session.diagnose()
    assert diagnosis.memory.values("ops_differ_in_group") == []
    assert diagnosis.top.id != "hccl.notify-timeout.op-mismatch"
    session = DiagnosisSession(kb)
    session.add_paste(split.replace("index[4401], count[65536]", "index[4401], count[1024]", 1))
    assert session.diagnose().memory.values("ops_differ_in_group") == [True]
