"""Asking the engine's questions at a terminal during ``faultbot diagnose``.

The question comes with how to find the answer; choices complete with Tab; "unknown" or "skip"
is always accepted; an invalid answer is asked again with the reason. A pasted log (several
lines, or a line that is a log record) is taken as more evidence instead of an answer.
"""

from __future__ import annotations

import sys

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import WordCompleter

from ..engine.answers import AnswerError
from ..engine.asking import question_to_ask
from ..engine.diagnosis import Diagnosis
from ..engine.questions import Question
from ..render.console import print_markdown
from ..render.diagnosis_markdown import question_markdown, question_subject
from ..session import DiagnosisSession


def ask(question: Question, session: DiagnosisSession, prompt: PromptSession, about: str = "") -> bool:
    """Ask until the session holds an answer (or more log); False when the engineer quits."""
    print_markdown("\n".join(["", "## Question", "", *question_markdown(question, about=about)]), sys.stderr)
    completer = WordCompleter([*question.choices, "unknown"], ignore_case=True)
    while True:
        try:
            reply = prompt.prompt(f"{question.fact}> ", completer=completer)
        except (EOFError, KeyboardInterrupt):
            return False
        reply = reply.strip()
        if not reply:
            continue
        if reply.lower() in ("why", "/why"):
            print(question.why, file=sys.stderr)
            continue
        try:
            session.answer(question.fact, reply)
            return True
        except AnswerError as error:
            if "\n" in reply or session.collector.has_log_records(reply):
                session.add_paste(reply, name="<answer paste>")
                return True
            print(f"  {error} — try again, or answer 'unknown'", file=sys.stderr)


def ask_until_settled(session: DiagnosisSession, diagnosis: Diagnosis) -> Diagnosis:
    """Ask the leading question, re-diagnose, and ask again only while answers change the leading
    candidate (``engine.asking``), or until the engineer quits; the diagnosis as it then stands."""
    prompt: PromptSession = PromptSession()
    asked_at = None
    while ((question := question_to_ask(diagnosis, asked_at)) is not None
           and ask(question, session, prompt, question_subject(diagnosis))):
        diagnosis, asked_at = session.diagnose(), diagnosis
    return diagnosis
