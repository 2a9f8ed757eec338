"""The repository's own automation stays true: CI, the GitHub workflow, pre-commit and the README agree."""

from __future__ import annotations

import re

import pytest
import yaml

from .conftest import REPO_DIR


def quickstart_commands() -> list[str]:
    readme = (REPO_DIR / "README.md").read_text()
    block = readme.split("<!-- quickstart:begin -->")[1].split("<!-- quickstart:end -->")[0]
    return [line for line in block.splitlines() if re.match(r"^(python3|\.|pip|faultbot|pytest)", line)]


def test_quickstart_is_two_commands_install_and_diagnose_then_tests():
    first, second = quickstart_commands()
    assert "pip install ." in first and "faultbot diagnose" in first and " examples/" in first
    # pasted as one block, the first line must not stop for a question that swallows the second
    assert "--no-ask" in first
    assert "pip install '.[test]'" in second and second.endswith("pytest")


def test_ci_runs_the_quickstart_then_lint_and_entry_tests():
    script = (REPO_DIR / ".ci" / "run").read_text()
    assert "quickstart:begin" in script and "eval \"$line\"" in script
    assert script.index("faultbot kb lint") < script.index("faultbot kb test")


def test_workflow_is_valid_yaml_running_the_same_commands_on_pull_requests():
    workflow = yaml.safe_load((REPO_DIR / ".github" / "workflows" / "ci.yml").read_text())
    triggers = workflow.get("on", workflow.get(True))   # YAML 1.1 reads a bare `on` as true
    assert "pull_request" in triggers
    steps = [step for job in workflow["jobs"].values() for step in job["steps"]]
    assert any(step.get("run", "").strip() == "bash .ci/run" for step in steps)


def test_pre_commit_lints_changed_kb_files():
    config = yaml.safe_load((REPO_DIR / ".pre-commit-config.yaml").read_text())
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    lint = next(hook for hook in hooks if hook["entry"] == "faultbot kb lint")
    assert re.search(lint["files"], "kb/entries/hccl/x.yaml") and re.search(lint["files"], "articles/a.md")


def test_every_package_is_shipped_and_every_shipped_package_exists():
    tomllib = pytest.importorskip("tomllib")   # Python 3.11+; one Python of the CI matrix checks it

    listed = set(tomllib.loads((REPO_DIR / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    on_disk = {".".join(init.parent.relative_to(REPO_DIR).parts) for init in (REPO_DIR / "faultbot").rglob("__init__.py")}
    data = {"faultbot._kb", "faultbot._articles"}
    assert on_disk <= listed, f"add to pyproject packages: {sorted(on_disk - listed)}"
    assert listed - data <= on_disk, f"listed but missing: {sorted(listed - data - on_disk)}"
