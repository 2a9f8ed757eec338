"""A diagnosis in progress: the evidence read so far, the answers given, and the current result.

Used by ``faultbot diagnose`` and by the chat REPL alike. Every change (inputs, a paste, a path
typed in the chat, an answer, "unknown") is one typed step, the one history that ``undo`` takes
back and reports list; ``diagnose`` recomputes the result from scratch, so the result never depends
on the order of steps beyond what they contain.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from functools import cached_property
from typing import TYPE_CHECKING

import msgspec

from .engine.answers import is_unknown, parse_answer
from .engine.diagnosis import Diagnosis, Engine
from .evidence import Evidence, EvidenceCollector
from .ingest.inputs import InputSpec, Paste
from .ingest.stats import InputStats
from .kb.loader import KnowledgeBase
from .parallel import collect

if TYPE_CHECKING:
    from .qa.failure_match import FaultWords


class StepKind(Enum):
    INPUT = "input"       # files, folders or a facts file named on the command line
    PASTE = "paste"       # log text pasted (``text`` holds it)
    READ = "read"         # a file or folder path typed in the chat
    ANSWER = "answer"
    UNKNOWN = "unknown"   # a question answered "unknown" / "skip"

    @property
    def adds_evidence(self) -> bool:
        return self in (StepKind.INPUT, StepKind.PASTE, StepKind.READ)


class SessionStep(msgspec.Struct, frozen=True):
    """One change to a session: evidence read, an answer, or a fact marked unknown."""

    kind: StepKind
    evidence: Evidence | None = None
    fact: str = ""
    text: str = ""              # the log pasted, or the answer as typed
    label: str = ""             # what the evidence was read from: the paste's name, a path
    question: str = ""          # for an answer: the question as asked, and why it was asked
    why: str = ""


class DiagnosisSession:
    """A diagnosis in progress (see the module's description)."""

    def __init__(self, kb: KnowledgeBase) -> None:
        self.kb = kb
        self.collector = EvidenceCollector(kb)
        self.engine = Engine(kb)
        self.steps: list[SessionStep] = []

    def add_inputs(self, inputs: Sequence[InputSpec], label: str = "", kind: StepKind = StepKind.INPUT) -> Evidence:
        evidence = collect(self.kb, self.collector, inputs)
        self.steps.append(SessionStep(kind, evidence=evidence, label=label or ", ".join(map(_describe, inputs))))
        return evidence

    def add_evidence(self, evidence: Evidence, label: str) -> None:
        """Evidence read elsewhere (a ``faultbot extract`` facts file) as one input step."""
        self.steps.append(SessionStep(StepKind.INPUT, evidence=evidence, label=label))

    def add_paste(self, text: str, name: str = "<paste>") -> Evidence:
        evidence = collect(self.kb, self.collector, [Paste(text, name=name)])
        self.steps.append(SessionStep(StepKind.PASTE, evidence=evidence, label=name, text=text))
        return evidence

    def answer(self, fact: str, text: str, question: str = "", why: str = "") -> None:
        """Record an answer; "unknown" / "skip" mark the fact unknown. Raises AnswerError when invalid."""
        kind = StepKind.UNKNOWN if is_unknown(text) else StepKind.ANSWER
        if kind is StepKind.ANSWER:
            parse_answer(self.kb.facts, fact, text)
        self.steps.append(SessionStep(kind, fact=fact, text=text.strip(), question=question, why=why))

    def undo(self) -> SessionStep | None:
        return self.steps.pop() if self.steps else None

    @property
    def has_evidence(self) -> bool:
        return any(step.kind.adds_evidence for step in self.steps)

    @property
    def answers(self) -> dict[str, str]:
        given: dict[str, str] = {}
        for step in self.steps:
            if step.kind is StepKind.ANSWER:
                given[step.fact] = step.text
            elif step.kind is StepKind.UNKNOWN:
                given.pop(step.fact, None)
        return given

    @property
    def unknown(self) -> set[str]:
        marked: set[str] = set()
        for step in self.steps:
            if step.kind is StepKind.UNKNOWN:
                marked.add(step.fact)
            elif step.kind is StepKind.ANSWER:
                marked.discard(step.fact)
        return marked

    @property
    def stats(self) -> InputStats:
        total = InputStats()
        for step in self.steps:
            if step.evidence is not None and step.evidence.stats is not None:
                total = total.combined(step.evidence.stats)
        return total

    @cached_property
    def fault_words(self) -> FaultWords:
        """The KB's faults searchable by words: built when a description is first read."""
        from .qa.failure_match import FaultWords

        return FaultWords(self.kb, self.engine.feeds)

    def diagnose(self) -> Diagnosis:
        observations = tuple(o for s in self.steps if s.evidence for o in s.evidence.observations)
        matches = tuple(m for s in self.steps if s.evidence for m in s.evidence.matches)
        if not matches:
            from .qa.described import described_matches  # only for input with no log line the KB knows

            matches = tuple(m for s in self.steps if s.evidence and s.evidence.description
                            for m in described_matches(self.fault_words, s.evidence.description, s.label))
        return self.engine.diagnose(observations, matches, self.answers, self.unknown)


def _describe(spec: InputSpec) -> str:
    return getattr(spec, "name", None) or str(getattr(spec, "path", spec))

