"""The real-paste corpus (tests/corpus/*.yaml): every case carries its provenance, a fifth is held
out, and `faultbot eval` over it reports per family, apart for the held-out fifth, and fails only on
regressions against the recorded baseline (tests/corpus/baseline.json)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from faultbot.kb.yaml_source import load_yaml

from .conftest import REPO_DIR, TESTS_DIR

CORPUS_DIR = TESTS_DIR / "corpus"
BASELINE = CORPUS_DIR / "baseline.json"
FILES = sorted(CORPUS_DIR.glob("*.yaml"))
PROVENANCE = ("name", "source_url", "family", "held_out", "happened", "resolution", "why", "log")
SEED_FAMILIES = {"heartbeat", "exec-timeout", "sdma", "roce-cqe", "aiv", "lccl"}
FAMILIES = SEED_FAMILIES | {"other", "near-miss", "negative"}
MIN_CASES, MIN_SEED_FAMILY_CASES, MIN_NEAR_MISSES_AND_NEGATIVES = 150, 50, 30


def _cases() -> list[dict]:
    return [load_yaml(path, str(path)) for path in FILES]


def test_the_corpus_is_large_enough_and_spread_over_the_families():
    families = [case["family"] for case in _cases()]
    assert len(families) >= MIN_CASES
    assert sum(f in SEED_FAMILIES for f in families) >= MIN_SEED_FAMILY_CASES
    assert sum(f in ("near-miss", "negative") for f in families) >= MIN_NEAR_MISSES_AND_NEGATIVES


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_each_case_says_where_it_comes_from_and_why(path: Path):
    case = load_yaml(path, str(path))
    missing = [name for name in PROVENANCE if name not in case or case[name] in (None, "")]
    assert not missing, f"{path.name}: missing {missing}"
    assert str(case["source_url"]).startswith(("https://", "http://")), path.name
    assert case["family"] in FAMILIES, path.name
    assert "expect" in case or "expect_not" in case, path.name


def test_a_fifth_is_held_out():
    held = sum(bool(case["held_out"]) for case in _cases())
    assert 0.18 <= held / len(FILES) <= 0.22, f"{held} of {len(FILES)} held out"


def test_no_source_is_used_for_more_than_two_cases():
    urls = [case["source_url"] for case in _cases()]
    assert max(urls.count(url) for url in set(urls)) <= 2


def _eval(*args: str) -> tuple[int, dict]:
    proc = subprocess.run([sys.executable, "-m", "faultbot", "eval", str(CORPUS_DIR), "--format", "json", *args],
                          capture_output=True, text=True, cwd=REPO_DIR, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    return proc.returncode, json.loads(proc.stdout)


@pytest.fixture(scope="module")
def against_baseline() -> tuple[int, dict]:
    return _eval("--baseline", str(BASELINE))


def test_no_case_that_passed_in_the_baseline_fails_now(against_baseline):
    code, report = against_baseline
    assert report["regressions"] == [], report["regressions"]
    assert code == 0


def test_the_report_gives_families_and_the_held_out_fifth_apart(against_baseline):
    _, report = against_baseline
    assert set(report["families"]) <= FAMILIES
    assert report["held_out"]["cases"] + report["tuning"]["cases"] == report["totals"]["cases"] == len(FILES)


def test_no_near_miss_or_negative_is_newly_answered_confidently_wrong(against_baseline):
    """The target is none at all; the baseline lists the known misses, and no case may join them."""
    _, report = against_baseline
    known = json.loads(BASELINE.read_text())["cases"]
    wrong = [c["file"].rsplit(":", 1)[0].removeprefix(str(CORPUS_DIR) + "/") for c in report["cases"]
             if c["family"] in ("near-miss", "negative") and c["confidently_wrong"]]
    assert [case for case in wrong if not known.get(case, {}).get("confidently_wrong")] == []


def test_a_regression_against_the_baseline_fails_the_run(tmp_path):
    """A case the baseline recorded as passing that fails now makes eval exit 1 and name it; a new
    failing case the baseline does not know does not."""
    log = "[ERROR] RUNTIME(1,python):2025-01-01-00:00:00.000.000 [x.cc:1]1 some error we know nothing of"
    for name in ("was-passing", "new-case"):
        (tmp_path / f"{name}.yaml").write_text(f"name: {name}\nexpect: hccl.heartbeat\nlog: '{log}'\n")
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps({"schema": 1, "cases": {"was-passing.yaml": {"passed": True, "concluded": "x"}}}))
    proc = subprocess.run([sys.executable, "-m", "faultbot", "eval", str(tmp_path), "--baseline", str(baseline)],
                          capture_output=True, text=True, cwd=REPO_DIR, timeout=120)
    assert proc.returncode == 1, proc.stdout[-2000:] + proc.stderr[-2000:]
    regressions = proc.stdout.split("regressions against", 1)[1]
    assert "was-passing.yaml" in regressions and "new-case.yaml" not in regressions
