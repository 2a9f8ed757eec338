"""Every KB entry's own examples pass through the same path as `faultbot diagnose`."""

from __future__ import annotations

import pytest

from faultbot.engine.diagnosis import Engine
from faultbot.entry_tests import Expectation, run_case
from faultbot.evidence import EvidenceCollector
from faultbot.kb.loader import load_kb
from faultbot.paths import default_articles_dir, default_kb_dir

KB = load_kb(default_kb_dir(), default_articles_dir())
CASES = [(entry, test) for entry in KB.entries for test in entry.tests]


@pytest.fixture(scope="module")
def pipeline():
    return EvidenceCollector(KB), Engine(KB)


@pytest.mark.parametrize("entry, test", CASES, ids=[f"{e.id}: {t.name}" for e, t in CASES])
def test_entry_example(pipeline, entry, test):
    collector, engine = pipeline
    result = run_case(test.name, test.log, dict(test.answers), Expectation(test.expect, test.expect_not),
                      collector, engine)
    assert result.passed, f"{test.where}: {result.failure}"
