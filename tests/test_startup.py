"""Each command imports what it uses: the parser alone for --help, and for a diagnosis of a snippet
neither the chat, nor the KB's parsers, nor the archive readers or the cluster analysis."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import REPO_DIR

EXAMPLE = REPO_DIR / "examples" / "lccl-allreduce-vector-core-timeout.log"
NEVER_AT_START = ("prompt_toolkit", "rich", "yaml", "markdown_it", "faultbot.kb.compiler", "faultbot.repl.",
                  "tarfile", "zipfile", "multiprocessing")


def imported_by(*args: str) -> set[str]:
    """The modules ``faultbot ARGS`` imports (after a first run has compiled the KB)."""
    command = [sys.executable, "-X", "importtime", "-m", "faultbot", *args]
    subprocess.run(command, capture_output=True, timeout=300)
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    return {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}


def test_help_imports_the_parser_only():
    modules = imported_by("--help")
    ours = {m for m in modules if m.startswith("faultbot")}
    assert ours <= {"faultbot", "faultbot.__main__", "faultbot.cli", "faultbot.cli.main", "faultbot.cli.parser",
                    "faultbot.cli.errors", "faultbot.kb", "faultbot.kb.kb_error", "faultbot.engine",
                    "faultbot.engine.rule_error"}, ours
    assert not {m for m in modules if m.split(".")[0] in ("rapidfuzz", "hyperscan", "re2", "yaml", "rich")}


@pytest.mark.parametrize("args", [("diagnose", "--no-ask", str(EXAMPLE)),
                                  ("ask", "what is the default HCCL_EXEC_TIMEOUT")], ids=["diagnose", "ask"])
def test_a_command_does_not_import_what_it_does_not_use(args):
    modules = imported_by(*args)
    assert "faultbot.kb.loader" in modules
    assert not [m for m in modules if m.startswith(NEVER_AT_START)]


def test_a_single_rank_snippet_skips_the_cluster_analysis():
    modules = imported_by("diagnose", "--no-ask", str(EXAMPLE))
    assert "faultbot.cluster.identity" in modules
    assert "faultbot.cluster.localise" not in modules
