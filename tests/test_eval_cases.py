"""The evaluation corpus (tests/cases/*.yaml): every case passes as an engineer at the prompt would
run it, and the real `faultbot eval` command reports 100 % top-1 accuracy over the whole corpus.

A case that fails for a reason in the engine or the KB is moved to tests/cases_failing/ (not run
here) until it is fixed; its expectation is never changed to match faultbot.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from faultbot.cases import Case, load_cases, run_case
from faultbot.kb.loader import KnowledgeBase
from faultbot.session import DiagnosisSession

TESTS_DIR = Path(__file__).resolve().parent
REPO_DIR = TESTS_DIR.parent
CASES_DIR = TESTS_DIR / "cases"

MIN_CASES = 45
MIN_NO_CONCLUSION_CASES = 8

CASES = load_cases(CASES_DIR)


@pytest.fixture(scope="module")
def session(kb: KnowledgeBase) -> DiagnosisSession:
    """One session for all cases: its compiled matchers are reused, its steps replaced per case."""
    return DiagnosisSession(kb)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_case(case: Case, kb: KnowledgeBase, session: DiagnosisSession) -> None:
    result = run_case(case, kb, session)
    asked = ", ".join(result.asked) or "nothing"
    assert result.passed, f"{case.where}: {result.failure} (asked: {asked})"


def test_cli_eval_reports_full_accuracy() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "faultbot", "eval", str(CASES_DIR), "--format", "json"],
        capture_output=True, text=True, cwd=REPO_DIR, timeout=120,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    assert report["schema"] == 1
    totals = report["totals"]
    failed = [f"{c['file']}: {c['failure']}" for c in report["cases"] if not c["passed"]]
    assert totals["top1_accuracy"] == 1.0, failed
    assert totals["cases"] == len(CASES) >= MIN_CASES
    no_conclusion = [c for c in report["cases"] if c["expect"] == "none"]
    assert len(no_conclusion) >= MIN_NO_CONCLUSION_CASES
