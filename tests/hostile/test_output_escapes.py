"""Output is safe to print: escape sequences, C1 controls and newlines in file names and in KB text
are shown as visible text (``\\x1b``), never sent to the terminal or let into the Markdown's
structure; file names that are not UTF-8 are shown with U+FFFD; JSON is valid UTF-8."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from faultbot.render.safe_text import code_span, fenced_block, json_safe, one_line, printable

from ..conftest import REPO_DIR

EXAMPLE_LOG = (REPO_DIR / "examples" / "lccl-allreduce-vector-core-timeout.log").read_bytes()
HOSTILE = (b"\x1b", b"\x07", "\x9b".encode())          # ESC, BEL, and C1 CSI as UTF-8
TIMEOUT = 60


def run(*args: str, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "faultbot", *args], capture_output=True, cwd=REPO_DIR,
                          env={**os.environ, **env}, timeout=TIMEOUT)


def tree_with(tmp_path: Path, name: bytes) -> Path:
    """A folder holding the example log under the file name ``name`` (bytes: any the file system takes)."""
    folder = tmp_path / "logs"
    folder.mkdir()
    handle = os.open(os.path.join(os.fsencode(folder), name), os.O_WRONLY | os.O_CREAT, 0o644)
    os.write(handle, EXAMPLE_LOG)
    os.close(handle)
    return folder


@pytest.mark.parametrize("name, shown", [
    (b"plog-\x1b]0;pwned\x07-1.log", "plog-\\x1b]0;pwned\\x07-1.log"),
    (b"plog-\x1b[2J-2.log", "plog-\\x1b[2J-2.log"),
    ("plog-\x9b31m-3.log".encode(), "plog-\\x9b31m-3.log"),
    (b"plog-\x9b-raw.log", "plog-\ufffd-raw.log"),                      # a lone C1 byte is not UTF-8
    (b"plog-a\n# injected heading\n- [x](javascript:1)-4.log", "plog-a\\n# injected heading\\n- [x](javascript:1)-4.log"),
    ("日志-5.log".encode("gbk"), "\ufffd\ufffd\u05be-5.log"),        # C8 D5 are not UTF-8; D6 BE happen to be
    (b"plog-`tick`-6.log", "plog-`tick`-6.log"),
], ids=["osc-title", "clear-screen", "c1-csi", "raw-c1-byte", "newline-markdown", "gbk", "backticks"])
def test_hostile_file_names_are_shown_not_obeyed(tmp_path, name: bytes, shown: str):
    folder = tree_with(tmp_path, name)
    markdown = run("diagnose", str(folder), "--no-ask", "--format", "markdown", "--full")
    assert markdown.returncode == 0, markdown.stderr
    text = markdown.stdout.decode("utf-8")                     # valid UTF-8, or this raises
    assert not any(raw in markdown.stdout for raw in HOSTILE)
    assert shown in text
    assert not any(line.lstrip().startswith(("# injected", "- [x]")) for line in text.splitlines())

    terminal = run("diagnose", str(folder), "--no-ask", "--no-pager", FORCE_COLOR="1", COLUMNS="300")
    assert terminal.returncode == 0, terminal.stderr
    assert b"\x1b]0;pwned" not in terminal.stdout and b"\x1b[2J" not in terminal.stdout
    assert b"\x07" not in terminal.stdout and "\x9b".encode() not in terminal.stdout
    assert shown in terminal.stdout.decode("utf-8")

    report = run("diagnose", str(folder), "--no-ask", "--format", "json")
    assert report.returncode == 0, report.stderr
    assert "\x9b".encode() not in report.stdout and b"\x07" not in report.stdout and b"\x1b" not in report.stdout
    (file,) = {evidence["file"] for evidence in json.loads(report.stdout.decode("utf-8"))["conclusions"][0]["evidence"]}
    assert one_line(file).endswith(shown)        # ESC and newlines as JSON escapes; C1 and bad bytes made visible


def test_escape_sequences_in_kb_text_are_refused_and_never_printed_raw(tmp_path):
    """KB text with terminal escapes does not load (the loader refuses control characters), and
    the refusal itself shows them escaped."""
    kb = tmp_path / "kb"
    shutil.copytree(REPO_DIR / "kb", kb)
    shutil.copytree(REPO_DIR / "articles", tmp_path / "articles")
    entry = kb / "entries" / "lccl" / "lccl.allreduce-flag-cleanup.yaml"
    text = entry.read_text(encoding="utf-8")
    title = text.split("\n", 2)[1].removeprefix("title: ")
    entry.write_text(text.replace(f"title: {title}", f'title: "\\e]0;pwned\\a \\e[2J \\x9b31m {title}"', 1),
                     encoding="utf-8")
    cache = {"FAULTBOT_CACHE": str(tmp_path / "cache")}
    shown = run("diagnose", str(REPO_DIR / "examples" / "lccl-allreduce-vector-core-timeout.log"), "--kb", str(kb),
                "--no-ask", "--format", "markdown", **cache)
    entry_page = run("kb", "show", "lccl.allreduce-flag-cleanup", "--kb", str(kb), "--format", "markdown", **cache)
    for result in (shown, entry_page):
        assert result.returncode == 2, result.stderr
        assert b"lccl.allreduce-flag-cleanup.yaml:2:" in result.stderr and b"Traceback" not in result.stderr
        assert not any(raw in result.stdout + result.stderr for raw in HOSTILE)


def test_the_escaping_helpers():
    assert printable("a\x1b[2Jb\n\tc\r\x7f\x9b\u202e\udcd6") == "a\\x1b[2Jb\n\tc\\x0d\\x7f\\x9b\\u202e\ufffd"
    assert one_line("a\nb\tc") == "a\\nb\\tc"
    assert code_span("a`b") == "``a`b``" and code_span("`a") == "`` `a ``"
    assert fenced_block("x\n```\ny") == ["````text", "x", "```", "y", "````"]
    assert json_safe({"k\x9b": ["\x1b", "\udcd6", 3]}) == {"k\\x9b": ["\x1b", "\ufffd", 3]}
