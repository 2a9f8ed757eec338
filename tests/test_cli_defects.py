"""A defect in faultbot (an exception no command expects) ends the command with one line on stderr
and exit code 70, not a traceback and not the exit code of "nothing matched"; FAULTBOT_DEBUG=1
lets the traceback through for the report."""

from __future__ import annotations

import pytest

from faultbot.cli import main as cli


class _Broken:
    """Any command's module whose handler hits a defect."""

    def __getattr__(self, name: str):
        def handler(_args):
            raise IndexError("list index out of range")
        return handler


def test_a_defect_is_one_line_and_exit_code_70(monkeypatch, capsys):
    monkeypatch.delenv("FAULTBOT_DEBUG", raising=False)
    monkeypatch.setattr(cli, "_import_command", lambda module: _Broken())
    assert cli.main(["ask", "what is EI0002"]) == 70
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("faultbot: internal error: IndexError: list index out of range")


def test_faultbot_debug_shows_the_traceback(monkeypatch):
    monkeypatch.setenv("FAULTBOT_DEBUG", "1")
    monkeypatch.setattr(cli, "_import_command", lambda module: _Broken())
    with pytest.raises(IndexError):
        cli.main(["ask", "what is EI0002"])
