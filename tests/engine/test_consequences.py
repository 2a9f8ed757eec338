"""One rank, several errors: the first different error is the root and a later one its consequence,
whichever of them the evidence alone would rank higher; the answer says "X, then Y"."""

from __future__ import annotations

import json
import subprocess
import sys

from faultbot.cases import Case, run_case
from faultbot.session import DiagnosisSession

from ..conftest import REPO_DIR

FIRST, LATER = "aicpu.kernel-exception", "driver.device-memory-insufficient"


def _paste(kb, *ids: str) -> str:
    return "\n".join(kb.entry(i).tests[0].log for i in ids)


def test_the_first_error_on_the_rank_leads_and_the_later_one_follows_from_it(kb):
    for first, later in ((FIRST, LATER), (LATER, FIRST)):
        session = DiagnosisSession(kb)
        session.add_paste(_paste(kb, first, later))
        diagnosis = session.diagnose()
        assert diagnosis.top.id == first
        assert (later, first) in diagnosis.consequences


def test_the_answer_says_which_came_first_in_text_and_json(kb, tmp_path):
    log = tmp_path / "rank.log"
    log.write_text(_paste(kb, FIRST, LATER))
    text = subprocess.run([sys.executable, "-m", "faultbot", "diagnose", "--no-ask", str(log)],
                          capture_output=True, text=True, cwd=REPO_DIR, timeout=120).stdout
    assert f"First `{FIRST}`, then `{LATER}`" in text
    out = subprocess.run([sys.executable, "-m", "faultbot", "diagnose", "--format", "json", str(log)],
                         capture_output=True, text=True, cwd=REPO_DIR, timeout=120).stdout
    later = next(c for c in json.loads(out)["conclusions"] if c["id"] == LATER)
    assert later["consequence_of"] == FIRST


def test_an_eval_case_may_rule_out_a_fault_that_is_only_shown_as_a_consequence(kb):
    """`expect_not` forbids a fault as the answer; shown as the consequence of the right answer it
    is not one. As the first conclusion it still fails."""
    log = _paste(kb, FIRST, LATER)
    follows = Case("later is a consequence", log, (), (FIRST,), (LATER,), "<test>")
    assert run_case(follows, kb).passed
    leads = Case("later first", _paste(kb, LATER, FIRST), (), (), (LATER,), "<test>")
    assert not run_case(leads, kb).passed
