"""Choosing the one question worth asking: the askable unknown fact whose answer would most change
the conclusion.

For each askable fact, every way its answer could turn the condition tests that depend on it
(directly, or through the rules that derive from it) is tried; a fact is worth asking only when the
leading conclusion differs between those outcomes. Among those, the one whose outcomes are most
evenly split, weighted by the confidence of the candidates it touches, is asked first.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from ..kb.model import FactSpec, FactTest, FactType, FactRef
from ..kb.rules_schema import Rule
from .candidates import Candidate, Status
from .conditions import Tri
from .facts import WorkingMemory

MAX_LEAVES_PER_FACT = 6
YES_NO = ("yes", "no")


@dataclass(frozen=True)
class Question:
    fact: str
    text: str
    why: str
    how_to_find: tuple[str, ...]
    choices: tuple[str, ...]
    example: str
    needed_by: tuple[tuple[str, str], ...]      # (entry id, the condition test that needs the answer)
    score: float


def _describe(test: FactTest) -> str:
    value = test.value
    shown = f"{{fact: {value.fact}}}" if isinstance(value, FactRef) else (
        ", ".join(map(str, value)) if isinstance(value, tuple) else str(value))
    return f"{test.fact} {test.op.value} {shown}"


def _feeders(rules: Sequence[Rule]) -> dict[str, set[str]]:
    """For each derived fact, the facts its rules read (transitively)."""
    direct: dict[str, set[str]] = {}
    for rule in rules:
        for fact, _ in rule.then:
            direct.setdefault(fact, set()).update(rule.inputs)
    closed: dict[str, set[str]] = {}
    for fact in direct:
        seen, todo = set(), list(direct[fact])
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo += direct.get(name, ())
        closed[fact] = seen
    return closed


def _facts_of(test: FactTest) -> set[str]:
    return {test.fact} | ({test.value.fact} if isinstance(test.value, FactRef) else set())


def _entropy(outcomes: Sequence[object]) -> float:
    counts = Counter(outcomes)
    total = len(outcomes)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def choices_for(spec: FactSpec) -> tuple[str, ...]:
    if spec.type is FactType.BOOL:
        return YES_NO
    if spec.type is FactType.ENUM:
        return spec.values
    return ()


def select_questions(candidates: Sequence[Candidate], memory: WorkingMemory, specs: Mapping[str, FactSpec],
                     rules: Sequence[Rule], rescore: Callable[[Mapping[int, Tri]], list[Candidate]],
                     top: Callable[[list[Candidate]], tuple[str, str] | None]) -> list[Question]:
    """Questions worth asking, best first. ``rescore`` re-scores the candidates with some leaf verdicts
    pinned; ``top`` names the leading conclusion of a ranked list."""
    feeders = _feeders(rules)
    undecided = [c for c in candidates if c.verdict is Tri.UNKNOWN and c.status is not Status.EXCLUDED]
    unknown_leaves: dict[str, list[tuple[Candidate, FactTest]]] = {}
    for candidate in undecided:
        for leaf in candidate.leaves:
            if leaf.verdict is not Tri.UNKNOWN:
                continue
            for fact in _facts_of(leaf.test):
                for askable in {fact} | feeders.get(fact, set()):
                    unknown_leaves.setdefault(askable, []).append((candidate, leaf.test))
    questions = []
    for fact, uses in unknown_leaves.items():
        spec = specs.get(fact)
        if spec is None or spec.question is None or memory.known(fact) or memory.answered(fact):
            continue
        tests = list({id(test): test for _, test in uses}.values())[:MAX_LEAVES_PER_FACT]
        outcomes = [top(rescore({id(test): verdict for test, verdict in zip(tests, verdicts)}))
                    for verdicts in itertools.product((Tri.TRUE, Tri.FALSE), repeat=len(tests))]
        split = _entropy(outcomes)
        if split == 0:
            continue
        weight = max(candidate.confidence for candidate, _ in uses)
        needed_by = tuple(dict.fromkeys((c.id, _describe(t)) for c, t in uses))
        question = spec.question
        why = question.why + " Needed by: " + "; ".join(f"{entry} ({test})" for entry, test in needed_by) + "."
        questions.append(Question(fact, question.text, why, question.how_to_find, choices_for(spec),
                                  question.example, needed_by, round(split * weight, 4)))
    return sorted(questions, key=lambda q: (-q.score, q.fact))
