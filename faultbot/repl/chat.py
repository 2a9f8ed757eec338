"""One chat: the diagnosis it drives, the question pending, and a reply to every input (never printed
here); each input is recorded before it is acted on, with the change it makes when that is known
beforehand (repl/transcript.py), for --resume. A transcript that cannot be written (a full disk)
stops being written: the chat goes on unsaved and says so once."""

from __future__ import annotations

import errno
import os
from functools import cached_property
from pathlib import Path

from msgspec.structs import replace

from ..engine.answers import AnswerError
from ..engine.asking import question_to_ask
from ..engine.diagnosis import Diagnosis
from ..engine.questions import Question
from ..engine.wording import show_value
from ..ingest.inputs import LogPath, Paste
from ..kb.loader import KnowledgeBase
from ..qa.answer import answer
from ..qa.failure_match import FaultWords, WordsMatch
from ..qa.index import KnowledgeIndex
from ..render.answer_markdown import answer_markdown
from ..session import DiagnosisSession, SessionStep, StepKind
from . import views
from .classify import Input, InputKind, classify
from .commands import run_command
from .reply import Reply
from .transcript import Transcript


class Chat:
    def __init__(self, kb: KnowledgeBase, transcript: Transcript | None = None):
        self.kb = kb
        self.transcript = transcript
        self.session = DiagnosisSession(kb)
        self.pending: Question | None = None
        self.last_citations: tuple[str, ...] = ()
        self.pastes = 0
        self.unsaved = ""           # why the transcript is no longer written, once it is not
        self.diagnosis: Diagnosis = self.session.diagnose()

    @cached_property
    def knowledge(self) -> KnowledgeIndex:
        return KnowledgeIndex.of(self.kb)

    @property
    def fault_words(self) -> FaultWords:
        return self.session.fault_words

    @property
    def session_id(self) -> str:
        return self.transcript.session_id if self.transcript else "session"

    def record(self, kind: str, **data: object) -> int:
        """Append a record to the transcript; -1 when there is none or it can no longer be written."""
        if self.transcript is None or self.unsaved:
            return -1
        try:
            return self.transcript.append(kind, **data)
        except OSError as error:
            self.unsaved = (f"cannot save the session to {self.transcript.path}: {error.strerror or error}; "
                            "the chat goes on, but nothing from here on is saved")
            return -1

    # --- changes to the diagnosis: live turns and --resume both make them here -----------------

    def _refresh(self, answered: bool = False) -> None:
        """Diagnose again; after an answer, ask another question only as ``engine.asking`` says."""
        asked_at = self.diagnosis if answered else None
        self.diagnosis = self.session.diagnose()
        self.pending = question_to_ask(self.diagnosis, asked_at)

    def apply_paste(self, text: str, label: str) -> None:
        self.session.add_paste(text, name=label)
        self.pastes += 1
        self._refresh()

    def apply_read(self, path: str) -> None:
        """Read a log file or folder the engineer typed; raises OSError when it cannot be read."""
        if not Path(path).expanduser().exists():
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), path)
        self.session.add_inputs([LogPath(Path(path).expanduser())], label=path, kind=StepKind.READ)
        self._refresh()

    def apply_answer(self, fact: str, text: str, question: str = "", why: str = "") -> None:
        """Raises AnswerError when ``text`` does not fit ``fact``."""
        self.session.answer(fact, text, question, why)
        self._refresh(answered=True)

    def apply_undo(self) -> SessionStep | None:
        step = self.session.undo()
        if step is not None:
            self._refresh()
        return step

    def apply_reset(self) -> None:
        self.session.steps.clear()
        self._refresh()

    @property
    def has_evidence(self) -> bool:
        return self.session.has_evidence

    # --- turns ----------------------------------------------------------------------------------

    def respond(self, text: str) -> Reply:
        if not text.strip():
            return Reply()
        was_saved = not self.unsaved
        given = self._classify(text)
        # first, with the change it will make: a crash from here on still keeps both
        said = self.record("said", text=text, **self._change_of(given))
        before = (len(self.session.steps), self.diagnosis, self.pending)
        try:
            reply = self._respond(given, said)
        except BaseException:
            # cancelled (Ctrl-C) or failed: the session goes back to what it was, and the transcript says so
            steps, self.diagnosis, self.pending = before
            del self.session.steps[steps:]
            self.record("cancelled", of=said)
            raise
        if reply.markdown or reply.error:
            self.record("reply", text=reply.error or reply.markdown)
        return replace(reply, notice=self.unsaved) if was_saved and self.unsaved else reply

    def _classify(self, text: str) -> Input:
        """What the input is; words that quote a log signature are a paste."""
        given = classify(text, self.pending, self.session.collector.has_log_records, _names_a_path)
        if given.kind is InputKind.DESCRIPTION and self.session.collector.from_inputs([Paste(given.text)]).matches:
            return Input(InputKind.PASTE, given.text)
        return given

    def _change_of(self, given: Input) -> dict[str, object]:
        """The change ``given`` will make, recorded with it (repl/transcript.py); {} when not known yet."""
        if given.kind is InputKind.PASTE:
            return {"change": {"kind": "paste", "label": self.next_paste_label}}
        if given.kind is InputKind.PATH:
            return {"change": {"kind": "read", "path": given.text}}
        if given.kind is InputKind.ANSWER and self.pending is not None:
            question = self.pending
            return {"change": {"kind": "answer", "fact": question.fact, "question": question.text,
                               "why": question.why}}
        return {}

    def _respond(self, given: Input, said: int) -> Reply:
        if given.kind is InputKind.COMMAND:
            return run_command(self, given.text)
        if given.kind is InputKind.PASTE:
            return self.paste(given.text)
        if given.kind is InputKind.PATH:
            return self.read(given.text, said)
        if given.kind is InputKind.ANSWER and self.pending is not None:
            return self.answer_pending(given.text, said)
        if given.kind is InputKind.DESCRIPTION:
            return self.describe(given.text, said)
        return self.ask(given.text)

    def conclusion_reply(self) -> Reply:
        markdown = views.after_evidence(self.diagnosis, self.kb, self.session.stats, self.pending)
        return Reply(markdown, conclusion=self.diagnosis.top if self.pending is None else None)

    @property
    def next_paste_label(self) -> str:
        return f"<paste {self.pastes + 1}>"

    def paste(self, text: str) -> Reply:
        self.apply_paste(text, self.next_paste_label)
        return self.conclusion_reply()

    def read(self, path: str, said: int) -> Reply:
        try:
            self.apply_read(path)
        except OSError as error:
            self.record("refused", of=said)
            return Reply(error=f"cannot read {path}: {error.strerror or error}")
        return self.conclusion_reply()

    def answer_pending(self, text: str, said: int) -> Reply:
        question = self.pending
        assert question is not None
        try:
            self.apply_answer(question.fact, text, question.text, question.why)
        except AnswerError as error:
            self.record("refused", of=said)
            return Reply(error=f"{error} — try again, or answer 'unknown'")
        if self.has_evidence:
            return self.conclusion_reply()
        return Reply(f"Noted: `{question.fact}` = {text}. Paste the failing rank's plog and I will diagnose "
                     "it with this answer.")

    def describe(self, text: str, said: int) -> Reply:
        """A failure told in words (words quoting a log signature are a paste: ``_classify``): the
        facts they state, the faults whose descriptions fit, and the question that tells them apart."""
        evidence = self.session.collector.from_inputs([Paste(text)])
        stated = []
        for observation in evidence.observations:
            spec = self.kb.facts.get(observation.fact)
            if spec is None or spec.question is None or self.diagnosis.memory.answered(observation.fact):
                continue
            value = show_value(observation.value)
            try:
                self.apply_answer(observation.fact, value, "(said in your description)")
            except AnswerError:
                continue
            self.record("answer", fact=observation.fact, text=value, question="(said in your description)")
            stated.append((observation.fact, value))
        match = self.apply_description(text)
        if not match.candidates:
            return self.ask(text)
        if match.question is not None:
            self.record("described", of=said)
        return Reply(views.words_markdown(match, stated))

    def apply_description(self, text: str) -> WordsMatch:
        """The faults ``text`` describes; the question that tells them apart becomes the pending one
        (live, and again on --resume)."""
        known = set(self.diagnosis.memory.names()) | set(self.diagnosis.memory.unknown_answers)
        match = self.fault_words.match(text, known)
        if match.question is not None:
            self.pending = match.question
        return match

    def ask(self, text: str) -> Reply:
        found = answer(self.knowledge, text)
        self.last_citations = found.citations or self.last_citations
        return Reply(answer_markdown(found, self.kb.articles))


def _names_a_path(text: str) -> bool:
    """Whether ``text`` is the path of an existing file or folder (one word, or quoted)."""
    if not text or len(text) > 4096:
        return False
    try:
        return Path(text).expanduser().exists()
    except (OSError, ValueError, RuntimeError):     # a NUL byte; ~name of no user (RuntimeError)
        return False
