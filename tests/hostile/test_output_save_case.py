"""``diagnose --save-case DIR`` into a folder that cannot be written: the diagnosis is printed all
the same, then one line says why the case was not saved, and the exit code is 2."""

from __future__ import annotations

import subprocess
import sys

import yaml

from ..conftest import REPO_DIR

EXAMPLE = str(REPO_DIR / "examples" / "lccl-allreduce-vector-core-timeout.log")


def diagnose(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "faultbot", "diagnose", EXAMPLE, "--no-ask", "--format", "markdown",
                           "--answer", "cann_version=8.0.RC2", *args], capture_output=True, text=True, cwd=REPO_DIR,
                          timeout=60)


def test_an_unwritable_case_folder_costs_the_case_not_the_diagnosis(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    done = diagnose("--save-case", str(blocker / "cases"))
    assert done.returncode == 2
    assert done.stdout.startswith("# LcalAllReduce hangs or fails") and "## Sources" in done.stdout
    assert done.stderr == f"faultbot: error: cannot save the case in {blocker / 'cases'}: Not a directory\n"


def test_a_writable_case_folder_gets_the_case(tmp_path):
    done = diagnose("--save-case", str(tmp_path / "cases"))
    assert done.returncode == 0 and done.stdout.startswith("# LcalAllReduce hangs or fails")
    (saved,) = (tmp_path / "cases").glob("*.yaml")
    assert done.stderr == f"faultbot: saved the case as {saved}\n"
    assert yaml.safe_load(saved.read_text(encoding="utf-8"))["expect"] == "lccl.allreduce-flag-cleanup"
    assert [p.name for p in (tmp_path / "cases").iterdir()] == [saved.name]      # no temporary file left
