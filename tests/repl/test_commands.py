"""The command registry: one list drives dispatch, /help and completion; every command answers
in one piece, with or without a diagnosis."""

from __future__ import annotations

import pytest

from faultbot.repl.commands import COMMANDS, find, help_markdown, run_command

from ..conftest import REPO_DIR
from .conftest import EXAMPLE_LOG

REQUIRED = {"help", "why", "how", "facts", "evidence", "alternatives", "back", "reset", "show", "search", "cite",
            "export", "quit"}


def test_registry_has_every_command_and_help_lists_them_all():
    assert {c.name for c in COMMANDS} == REQUIRED
    text = help_markdown()
    assert all(f"`/{c.name}" in text for c in COMMANDS)
    assert all(c.help for c in COMMANDS)


@pytest.mark.parametrize("typed, name", [("h", None), ("he", "help"), ("ho", "how"), ("exit", "quit"),
                                          ("?", "help"), ("undo", "back"), ("expo", "export"), ("x", None)])
def test_find_by_name_prefix_or_alias(typed, name):
    command = find(typed)
    assert (command.name if command else None) == name


def test_unknown_command_is_one_line_error(chat):
    reply = run_command(chat, "/frobnicate")
    assert reply.error == "unknown command '/frobnicate' — /help lists them"


@pytest.mark.parametrize("command", [c for c in COMMANDS if c.name not in ("quit", "export")], ids=lambda c: c.name)
@pytest.mark.parametrize("diagnosed", [False, True], ids=["fresh", "diagnosed"])
def test_every_command_answers_without_a_traceback(chat, command, diagnosed):
    if diagnosed:
        chat.respond(EXAMPLE_LOG)
    reply = run_command(chat, f"/{command.name} lccl")
    assert reply.markdown or reply.error
    assert "\n" not in reply.error


def test_quit_quits(chat):
    assert run_command(chat, "/quit").quit


def test_readme_lists_every_chat_command():
    readme = (REPO_DIR / "README.md").read_text(encoding="utf-8")
    assert all(f"| `/{c.name}" in readme for c in COMMANDS)
