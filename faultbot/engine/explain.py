"""WHY and HOW: the reasoning behind a pending question and behind a conclusion, as data.

HOW walks from log lines (file:line) through the condition tests and the rules that derived their
facts to the conclusion; WHY names the candidates and tests that need a question's answer.
"""

from __future__ import annotations

import msgspec

from ..kb.model import FactRef
from .candidates import Candidate
from .conditions import LeafResult
from .facts import Fact, ProvenanceSource, WorkingMemory
from .questions import Question
from .wording import describe_test, show_value

_MAX_SUPPORT_DEPTH = 4


class HowStep(msgspec.Struct, frozen=True):
    """One step of HOW: a log line, a condition, a fact or the conclusion, at its depth."""

    kind: str       # "evidence", "condition", "fact"
    text: str
    origin: str     # file:line, "your answer", "rule X", ...
    depth: int = 0


def _fact_steps(fact: Fact, depth: int) -> list[HowStep]:
    provenance = fact.provenance
    steps = [HowStep("fact", f"{fact.name} = {show_value(fact.value)}", provenance.describe(), depth)]
    if provenance.source is ProvenanceSource.DERIVED and depth < _MAX_SUPPORT_DEPTH:
        for support in provenance.supports:
            steps += _fact_steps(support, depth + 1)
    return steps


def _leaf_steps(leaf: LeafResult, memory: WorkingMemory) -> list[HowStep]:
    steps = [HowStep("condition", f"{describe_test(leaf.test)} -> {leaf.verdict.value}",
                  str(leaf.test.where), 0)]
    names = [leaf.test.fact] + ([leaf.test.value.fact] if isinstance(leaf.test.value, FactRef) else [])
    for name in names:
        facts = memory.facts(name)
        if not facts:
            steps.append(HowStep("fact", f"{name} is not known", "", 1))
        for fact in facts[:3]:
            steps += _fact_steps(fact, 1)
    return steps


def how(candidate: Candidate, memory: WorkingMemory) -> list[HowStep]:
    """From log lines through rules to ``candidate``'s status."""
    steps = []
    for match in candidate.evidence:
        origin = match.record.origin
        rank = f" rank {origin.rank}" if origin.rank is not None else ""
        steps.append(HowStep("evidence", f"symptom {match.entry_id}/{match.symptom.id} matched "
                          f"(score {match.score:.2f}, weight {match.symptom.weight}){rank}: "
                          f"{match.record.raw.strip()[:200]}", f"{origin.source}:{origin.line}"))
    for leaf in candidate.leaves:
        steps += _leaf_steps(leaf, memory)
    steps.append(HowStep("conclusion", f"{candidate.id}: {candidate.status.value}, confidence {candidate.confidence:.2f} "
                      f"(evidence {candidate.strength:.2f}, conditions {candidate.verdict.value})", ""))
    return steps


def why(question: Question) -> list[str]:
    """What the pending question decides: each candidate and the test that waits for the answer."""
    return [f"{entry} needs: {test}" for entry, test in question.needed_by]


def ruled_out_by(candidate: Candidate) -> list[str]:
    """For an alternative: the unknown tests that would rule it out (or confirm it) once known."""
    return [describe_test(leaf.test) for leaf in candidate.leaves if leaf.verdict.value == "unknown"]
