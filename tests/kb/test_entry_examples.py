"""Every KB entry's own examples pass through the same path as `faultbot eval`."""

from __future__ import annotations

import pytest

from faultbot.cases import entry_cases, run_case
from faultbot.kb.loader import load_kb
from faultbot.paths import default_articles_dir, default_kb_dir
from faultbot.session import DiagnosisSession

KB = load_kb(default_kb_dir(), default_articles_dir())
CASES = entry_cases(KB)


@pytest.fixture(scope="module")
def session():
    return DiagnosisSession(KB)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_entry_example(session, case):
    result = run_case(case, KB, session)
    assert result.passed, f"{case.where}: {result.failure} (asked: {', '.join(result.asked) or 'nothing'})"
