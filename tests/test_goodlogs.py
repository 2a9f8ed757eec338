"""Healthy logs (tests/goodlogs/): a normal 8-rank job's CANN run and debug plogs, training output and
launcher log. No KB entry may fire on them, as a whole collection or file by file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from faultbot.cli.main import main

TESTS_DIR = Path(__file__).resolve().parent
REPO_DIR = TESTS_DIR.parent
GOODLOGS = TESTS_DIR / "goodlogs"
FILES = sorted(path for path in GOODLOGS.rglob("*") if path.is_file())

EXIT_NO_MATCH = 1


def _assert_healthy(report: dict, what: str) -> None:
    assert report["schema"] == 1
    assert report["conclusions"] == [], f"{what}: {[c['id'] for c in report['conclusions']]}"
    assert report["input"]["records"] > 0, f"{what}: no records read"


def test_collection_has_the_expected_layout() -> None:
    names = {path.relative_to(GOODLOGS).as_posix() for path in FILES}
    assert "node-0/log/run/plog/plog-2111667_20251024111652406.log" in names
    assert any(name.startswith("node-1/log/debug/plog/") for name in names)
    assert any(name.endswith("train_rank0.log") for name in names)


def test_whole_collection_has_no_conclusion() -> None:
    """The real CLI over the whole folder, as an engineer points it at a log collection."""
    proc = subprocess.run(
        [sys.executable, "-m", "faultbot", "diagnose", str(GOODLOGS), "--no-ask", "--format", "json"],
        capture_output=True, text=True, cwd=REPO_DIR, timeout=120,
    )
    assert proc.returncode == EXIT_NO_MATCH, proc.stdout[-2000:] + proc.stderr[-2000:]
    report = json.loads(proc.stdout)
    _assert_healthy(report, "tests/goodlogs")
    assert report["input"]["files"] == len(FILES)
    assert report["input"]["skipped_files"] == []


@pytest.mark.parametrize("path", FILES, ids=[path.relative_to(GOODLOGS).as_posix() for path in FILES])
def test_each_file_has_no_conclusion(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each file alone, through the CLI's entry point in-process (a subprocess each would be slow)."""
    code = main(["diagnose", str(path), "--no-ask", "--format", "json"])
    out, err = capsys.readouterr()
    assert code == EXIT_NO_MATCH, out[-2000:] + err[-2000:]
    _assert_healthy(json.loads(out), path.relative_to(GOODLOGS).as_posix())
