"""The pager: only text longer than the screen goes through it, and paging never loses output."""

from __future__ import annotations

import os
import re
import sys

import pexpect

from faultbot.render.pager import page, pager_command

LONG = "".join(f"line {n}\n" for n in range(1, 61))


def _paged(tmp_path, monkeypatch, text: str, pager: str) -> str:
    monkeypatch.setenv("FAULTBOT_PAGER", pager)
    out = tmp_path / "out.txt"
    with open(out, "w", encoding="utf-8") as stream:
        page(text, stream, screen_lines=24)
    return out.read_text(encoding="utf-8")


def test_long_text_goes_through_the_pager(tmp_path, monkeypatch):
    numbered = _paged(tmp_path, monkeypatch, LONG, "cat -n")
    assert re.match(r"\s+1\tline 1\n", numbered) and numbered.rstrip().endswith("60\tline 60")


def test_text_that_fits_is_printed_directly(tmp_path, monkeypatch):
    assert _paged(tmp_path, monkeypatch, "one\ntwo\n", "cat -n") == "one\ntwo\n"


def test_no_pager_installed_or_paging_off_prints_directly(tmp_path, monkeypatch):
    assert _paged(tmp_path, monkeypatch, LONG, "no-such-pager-anywhere --flag") == LONG
    assert _paged(tmp_path, monkeypatch, LONG, "off") == LONG
    monkeypatch.delenv("FAULTBOT_PAGER")
    monkeypatch.setenv("PAGER", "cat")
    assert pager_command() is None


def test_no_pager_prints_everything_on_a_terminal_without_waiting():
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": "25"}
    env.pop("FAULTBOT_PAGER", None)
    env.pop("PAGER", None)
    child = pexpect.spawn(sys.executable, ["-m", "faultbot", "kb", "show", "hccl.notify-timeout", "--no-pager"],
                          env=env, encoding="utf-8", timeout=60, dimensions=(25, 100))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert len(child.before.splitlines()) > 25 and "Sources" in child.before
