"""`kb` commands inside a faultbot checkout work on the checkout's KB (found from the working
directory, as git finds its repository), and a draft is never written into an installed package."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from faultbot.cli.errors import UsageError
from faultbot.cli.kb_location import checkout_root, writable_kb

from ..conftest import REPO_DIR


def _faultbot(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "faultbot", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300, env={"PATH": "/usr/bin:/bin", "HOME": str(cwd)})


def test_the_checkout_is_found_from_a_folder_inside_it():
    assert checkout_root(REPO_DIR / "kb" / "entries") == REPO_DIR
    assert checkout_root(Path("/")) is None


def test_kb_new_inside_a_checkout_drafts_into_its_kb_and_lint_then_fails(tmp_path):
    checkout = tmp_path / "faultbot"
    checkout.mkdir()
    shutil.copy(REPO_DIR / "pyproject.toml", checkout)
    shutil.copytree(REPO_DIR / "kb", checkout / "kb")
    shutil.copytree(REPO_DIR / "articles", checkout / "articles")
    log = checkout / "new.log"
    log.write_text("[ERROR] HCCL(1,python):2025-01-01-00:00:00.000.000 [x.cc:1] [1]something new failed, ret[7]\n")
    work = checkout / "kb" / "entries"
    drafted = _faultbot(work, "kb", "new", "--from-log", str(log), "--id", "hccl.something-new")
    assert drafted.returncode == 0, drafted.stderr
    assert (checkout / "kb" / "entries" / "hccl" / "hccl.something-new.yaml").is_file()
    lint = _faultbot(work, "kb", "lint")
    assert lint.returncode == 1 and "hccl.something-new.yaml" in lint.stderr


def test_a_kb_inside_site_packages_is_refused_for_drafts(tmp_path, monkeypatch):
    site = tmp_path / "lib" / "site-packages"
    (site / "faultbot" / "_kb").mkdir(parents=True)
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    with pytest.raises(UsageError, match="installed package"):
        writable_kb(site / "faultbot" / "_kb")
    assert writable_kb(tmp_path) == tmp_path
