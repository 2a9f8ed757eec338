"""One chat: the diagnosis it drives, the question pending, and a reply to every input (never printed
here); each input is recorded before it is acted on, each change as it is made, for --resume."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

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
from ..session import DiagnosisSession
from . import views
from .change import Change
from .classify import Kind, classify
from .commands import run_command
from .reply import Reply
from .transcript import Transcript


class Chat:
    def __init__(self, kb: KnowledgeBase, transcript: Transcript | None = None):
        self.kb = kb
        self.transcript = transcript
        self.session = DiagnosisSession(kb)
        self.changes: list[Change] = []
        self.pending: Question | None = None
        self.last_citations: tuple[str, ...] = ()
        self.pastes = 0
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
        return self.transcript.append(kind, **data) if self.transcript else -1

    # --- changes to the diagnosis: live turns and --resume both make them here -----------------

    def _refresh(self, answered: bool = False) -> None:
        """Diagnose again; after an answer, ask another question only as ``engine.asking`` says."""
        asked_at = self.diagnosis if answered else None
        self.diagnosis = self.session.diagnose()
        self.pending = question_to_ask(self.diagnosis, asked_at)

    def apply_paste(self, text: str, label: str) -> None:
        self.session.add_paste(text, name=label)
        self.changes.append(Change("paste", label=label, text=text))
        self.pastes += 1
        self._refresh()

    def apply_read(self, path: str) -> None:
        """Read a log file or folder the engineer typed; raises OSError when it cannot be read."""
        if not Path(path).expanduser().exists():
            raise FileNotFoundError(path)
        self.session.add_inputs([LogPath(Path(path).expanduser())], label=path)
        self.changes.append(Change("read", label=path))
        self._refresh()

    def apply_answer(self, fact: str, text: str, question: str = "", why: str = "") -> None:
        """Raises AnswerError when ``text`` does not fit ``fact``."""
        self.session.answer(fact, text)
        self.changes.append(Change("answer", text=text.strip(), fact=fact, question=question, why=why))
        self._refresh(answered=True)

    def apply_undo(self) -> Change | None:
        if self.session.undo() is None:
            return None
        change = self.changes.pop()
        self._refresh()
        return change

    def apply_reset(self) -> None:
        self.session.steps.clear()
        self.changes.clear()
        self._refresh()

    @property
    def has_evidence(self) -> bool:
        return any(change.is_log for change in self.changes)

    # --- turns ----------------------------------------------------------------------------------

    def respond(self, text: str) -> Reply:
        if not text.strip():
            return Reply()
        said = self.record("said", text=text)     # first: a crash from here on still keeps it
        before = (len(self.session.steps), len(self.changes), self.diagnosis, self.pending)
        try:
            reply = self._respond(text, said)
        except KeyboardInterrupt:
            # cancelled: the session goes back to what it was, and the transcript says so
            steps, changes, self.diagnosis, self.pending = before
            del self.session.steps[steps:], self.changes[changes:]
            self.record("cancelled", of=said)
            raise
        if reply.markdown or reply.error:
            self.record("reply", text=reply.error or reply.markdown)
        return reply

    def _respond(self, text: str, said: int) -> Reply:
        given = classify(text, self.pending, self.session.collector.has_log_records, _names_a_path)
        if given.kind is Kind.COMMAND:
            return run_command(self, given.text)
        if given.kind is Kind.PASTE:
            return self.paste(given.text, said)
        if given.kind is Kind.PATH:
            return self.read(given.text)
        if given.kind is Kind.ANSWER and self.pending is not None:
            return self.answer_pending(given.text)
        if given.kind is Kind.DESCRIPTION:
            return self.describe(given.text, said)
        return self.ask(given.text)

    def conclusion_reply(self) -> Reply:
        markdown = views.after_evidence(self.diagnosis, self.kb, self.session.stats, self.pending)
        return Reply(markdown, conclusion=self.diagnosis.top if self.pending is None else None)

    def paste(self, text: str, said: int) -> Reply:
        label = f"<paste {self.pastes + 1}>"
        self.apply_paste(text, label)
        self.record("paste", of=said, label=label)
        return self.conclusion_reply()

    def read(self, path: str) -> Reply:
        try:
            self.apply_read(path)
        except OSError as error:
            return Reply(error=f"cannot read {path}: {error.strerror or error}")
        self.record("read", path=path)
        return self.conclusion_reply()

    def answer_pending(self, text: str) -> Reply:
        question = self.pending
        assert question is not None
        try:
            self.apply_answer(question.fact, text, question.text, question.why)
        except AnswerError as error:
            return Reply(error=f"{error} — try again, or answer 'unknown'")
        self.record("answer", fact=question.fact, text=text, question=question.text, why=question.why)
        if self.has_evidence:
            return self.conclusion_reply()
        return Reply(f"Noted: `{question.fact}` = {text}. Paste the failing rank's plog and I will diagnose "
                     "it with this answer.")

    def describe(self, text: str, said: int) -> Reply:
        """A failure told in words: its log signatures, if it quotes any, are evidence; otherwise the
        faults whose descriptions fit, and the question that tells them apart."""
        evidence = self.session.collector.from_inputs([Paste(text)])
        if evidence.matches:
            return self.paste(text, said)
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
    if not text or len(text) > 4096 or (" " in text and not Path(text).expanduser().exists()):
        return False
    try:
        return Path(text).expanduser().exists()
    except (OSError, ValueError):
        return False
