"""The chat and `faultbot diagnose` put the same first question to the engineer for the same
evidence: both ask through engine/asking.py, and this holds them to it on every eval case."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from faultbot.cases import Case, load_cases
from faultbot.cli.main import main
from faultbot.repl.chat import Chat
from faultbot.repl.locations import sessions_dir
from faultbot.repl.transcript import Transcript

from ..conftest import REPO_DIR

CASES = load_cases(REPO_DIR / "tests" / "cases")


def _diagnose_first_question(case: Case, tmp_path) -> str | None:
    log = tmp_path / "case.log"
    log.write_text(case.log, encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["diagnose", "--format", "json", "--no-ask", str(log)])
    questions = json.loads(out.getvalue())["questions"]
    return questions[0]["fact"] if questions else None


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_the_chat_asks_what_diagnose_asks(case: Case, kb, tmp_path) -> None:
    chat = Chat(kb, Transcript.create(sessions_dir(), kb.kb_dir))
    chat.respond(case.log)
    asked_in_chat = chat.pending.fact if chat.pending else None
    assert asked_in_chat == _diagnose_first_question(case, tmp_path)


def test_the_parity_is_not_vacuous(kb):
    """The cases that carry the engineer's answers were asked something: the chat asks on them."""
    answered = [case for case in CASES if case.answers][:12]
    asking = 0
    for case in answered:
        chat = Chat(kb, Transcript.create(sessions_dir(), kb.kb_dir))
        chat.respond(case.log)
        asking += chat.pending is not None
    assert len(answered) >= 6 and asking >= len(answered) // 2
