"""Running the examples that ship with KB entries (and eval cases) through the real pipeline.

A test is a log, some answers, and an expectation: the id concluded first, ``none`` for no
conclusion, or an id that must not be concluded. Unanswered questions stay unanswered, as with
``faultbot diagnose --no-ask``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from .engine.answers import is_unknown
from .engine.diagnosis import Diagnosis, Engine
from .evidence import EvidenceCollector
from .ingest.inputs import Paste
from .kb.entry_schema import NO_CONCLUSION


@dataclass(frozen=True)
class Expectation:
    expect: str | None
    expect_not: str | None

    def failure(self, diagnosis: Diagnosis) -> str | None:
        """Why ``diagnosis`` misses the expectation, or None when it meets it."""
        concluded = [c.id for c in diagnosis.conclusions]
        top = concluded[0] if concluded else NO_CONCLUSION
        if self.expect and self.expect != top:
            return f"expected {self.expect}, concluded {top}" + (
                f" (then: {', '.join(concluded[1:4])})" if len(concluded) > 1 else "")
        if self.expect_not and self.expect_not in concluded:
            return f"{self.expect_not} must not be concluded, but is (position {concluded.index(self.expect_not) + 1})"
        return None


@dataclass(frozen=True)
class CaseResult:
    name: str
    diagnosis: Diagnosis
    failure: str | None

    @property
    def passed(self) -> bool:
        return self.failure is None


def run_case(name: str, log: str, answers: Mapping[str, str], expectation: Expectation,
             collector: EvidenceCollector, engine: Engine) -> CaseResult:
    evidence = collector.from_inputs([Paste(log, name=f"<{name}>")])
    known = {fact: value for fact, value in answers.items() if not is_unknown(value)}
    unknown = [fact for fact, value in answers.items() if is_unknown(value)]
    diagnosis = engine.diagnose(evidence.observations, evidence.matches, known, unknown)
    return CaseResult(name, diagnosis, expectation.failure(diagnosis))
