"""A diagnosis in progress: the evidence read so far, the answers given, and the current result.

Used by ``faultbot diagnose`` and by the chat REPL alike. Every change (inputs, a paste, an answer,
"unknown") is one step that ``undo`` takes back; ``diagnose`` recomputes the result from scratch,
so the result never depends on the order of steps beyond what they contain.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Sequence

from .engine.answers import is_unknown, parse_answer
from .engine.diagnosis import Diagnosis, Engine
from .evidence import Evidence, EvidenceCollector
from .ingest.inputs import InputSpec, Paste
from .ingest.stats import InputStats
from .kb.loader import KnowledgeBase
from .parallel import collect
from .qa.described import described_matches

if TYPE_CHECKING:
    from .qa.failure_match import FaultWords


@dataclass(frozen=True)
class Step:
    """One change to a session: inputs read, an answer, or a fact marked unknown."""

    kind: str                                  # "input", "answer", "unknown"
    evidence: Evidence | None = None
    fact: str = ""
    text: str = ""
    label: str = ""


@dataclass
class DiagnosisSession:
    """A diagnosis in progress (see the module's description)."""

    kb: KnowledgeBase
    collector: EvidenceCollector = field(init=False)
    engine: Engine = field(init=False)
    steps: list[Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.collector = EvidenceCollector(self.kb)
        self.engine = Engine(self.kb)

    def add_inputs(self, inputs: Sequence[InputSpec], label: str = "") -> Evidence:
        evidence = collect(self.kb, self.collector, inputs)
        self.steps.append(Step("input", evidence=evidence, label=label or ", ".join(map(_describe, inputs))))
        return evidence

    def add_evidence(self, evidence: Evidence, label: str) -> None:
        """Evidence read elsewhere (a ``faultbot extract`` facts file) as one input step."""
        self.steps.append(Step("input", evidence=evidence, label=label))

    def add_paste(self, text: str, name: str = "<paste>") -> Evidence:
        return self.add_inputs([Paste(text, name=name)], label=name)

    def answer(self, fact: str, text: str) -> None:
        """Record an answer; "unknown" / "skip" mark the fact unknown. Raises AnswerError when invalid."""
        if is_unknown(text):
            self.steps.append(Step("unknown", fact=fact, text=text))
            return
        parse_answer(self.kb.facts, fact, text)
        self.steps.append(Step("answer", fact=fact, text=text.strip()))

    def undo(self) -> Step | None:
        return self.steps.pop() if self.steps else None

    @property
    def answers(self) -> dict[str, str]:
        given: dict[str, str] = {}
        for step in self.steps:
            if step.kind == "answer":
                given[step.fact] = step.text
            elif step.kind == "unknown":
                given.pop(step.fact, None)
        return given

    @property
    def unknown(self) -> set[str]:
        marked: set[str] = set()
        for step in self.steps:
            if step.kind == "unknown":
                marked.add(step.fact)
            elif step.kind == "answer":
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

        return FaultWords(self.kb)

    def diagnose(self) -> Diagnosis:
        observations = tuple(o for s in self.steps if s.evidence for o in s.evidence.observations)
        matches = tuple(m for s in self.steps if s.evidence for m in s.evidence.matches)
        if not matches:
            matches = tuple(m for s in self.steps if s.evidence and s.evidence.description
                            for m in described_matches(self.fault_words, s.evidence.description, s.label))
        return self.engine.diagnose(observations, matches, self.answers, self.unknown)


def _describe(spec: InputSpec) -> str:
    return getattr(spec, "name", None) or str(getattr(spec, "path", spec))

