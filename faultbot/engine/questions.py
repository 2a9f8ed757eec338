"""Choosing the one question worth asking: the askable unknown fact whose answer would most change
the conclusion. The one chooser for ``diagnose``, the chat and a failure told in words: each scores
the askable facts its candidates' open tests depend on (``askable_for`` follows the derivations) and
``question_about`` words the question the same way.

Only candidates that could still become the conclusion shown first count: the current leader if
it is undecided, its refinements, and any candidate that would outrank it once confirmed. For each
askable fact, every way its answer could turn the tests that depend on it (directly, or through the
rules that derive from it) is tried, each candidate's other open tests assumed to hold; a fact is
worth asking when that splits some candidate's verdict, and the best split, weighted by the
candidates' confidence, is asked first.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import msgspec

from ..kb.model import FactRef, FactSpec, FactTest, FactType, Rule
from .candidates import Candidate, Status
from .conditions import Tri
from .facts import WorkingMemory
from .wording import describe_test

MAX_LEAVES_PER_FACT = 6
YES_NO = ("yes", "no")


class Question(msgspec.Struct, frozen=True):
    """A question worth asking: the fact, how to find it, and the candidates and tests its answer
    decides."""

    fact: str
    text: str
    why: str
    how_to_find: tuple[str, ...]
    choices: tuple[str, ...]
    example: str
    needed_by: tuple[tuple[str, str], ...]      # (entry id, the condition test that needs the answer)
    score: float


def feeders(rules: Sequence[Rule], declared: Sequence[Mapping[str, set[str]]] = ()) -> dict[str, set[str]]:
    """For each derived fact, the facts it is derived from (transitively): from the KB rules and
    from what the engine's own derivations declare (their ``feeds``)."""
    direct: dict[str, set[str]] = {}
    for rule in rules:
        for fact, _ in rule.then:
            direct.setdefault(fact, set()).update(rule.inputs)
    for feeds in declared:
        for fact, inputs in feeds.items():
            direct.setdefault(fact, set()).update(inputs)
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


def askable_for(fact: str, specs: Mapping[str, FactSpec], feeds: Mapping[str, set[str]]) -> set[str]:
    """The facts an engineer can be asked that settle ``fact``: itself when it has a question, and
    the askable facts it is derived from (``feeds``, see ``feeders``)."""
    return {name for name in {fact} | feeds.get(fact, set())
            if (spec := specs.get(name)) is not None and spec.question is not None}


def question_about(fact: str, spec: FactSpec, needed_by: tuple[tuple[str, str], ...], score: float,
                   lead: str = "Needed by") -> Question:
    """The question that asks for ``fact``, saying which candidates and tests (``needed_by``) its
    answer decides."""
    asked = spec.question
    assert asked is not None        # askable_for keeps only facts with a question
    why = asked.why + f" {lead}: " + "; ".join(f"{entry} ({test})" for entry, test in needed_by) + "."
    return Question(fact, asked.text, why, asked.how_to_find, choices_for(spec), asked.example,
                    needed_by, round(score, 4))


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


def _could_lead(candidate: Candidate, leader: Candidate | None) -> bool:
    """Whether settling ``candidate`` in its favour could make it the conclusion shown first."""
    if leader is None or candidate.id == leader.id or leader.status is not Status.CONFIRMED:
        return True
    return candidate.id.startswith(leader.id + ".") or candidate.strength > leader.confidence


def select_questions(candidates: Sequence[Candidate], leader: Candidate | None, memory: WorkingMemory,
                     specs: Mapping[str, FactSpec], feeds: Mapping[str, set[str]],
                     rescore: Callable[[Candidate, Mapping[int, Tri]], Candidate | None]) -> list[Question]:
    """Questions worth asking, best first. ``leader`` is the conclusion shown first now; ``feeds``
    maps derived facts to what they come from (see ``feeders``); ``rescore`` scores one candidate
    again with some condition tests pinned to a verdict."""
    relevant = [c for c in candidates if c.verdict is Tri.UNKNOWN and c.status is not Status.EXCLUDED
                and _could_lead(c, leader)]
    uses: dict[str, list[tuple[Candidate, FactTest]]] = {}
    for candidate in relevant:
        for leaf in candidate.leaves:
            if leaf.verdict is not Tri.UNKNOWN:
                continue
            for fact in _facts_of(leaf.test):
                for askable in askable_for(fact, specs, feeds):
                    uses.setdefault(askable, []).append((candidate, leaf.test))
    questions = []
    for fact, fact_uses in uses.items():
        if memory.known(fact) or memory.answered(fact):
            continue
        score = sum(candidate.confidence * _split(candidate, [t for c, t in fact_uses if c is candidate], memory, rescore)
                    for candidate in {id(c): c for c, _ in fact_uses}.values())
        if score <= 0:
            continue
        needed_by = tuple(dict.fromkeys((c.id, describe_test(t)) for c, t in fact_uses))
        questions.append(question_about(fact, specs[fact], needed_by, score))
    return sorted(questions, key=lambda q: (-q.score, q.fact))


def _split(candidate: Candidate, tests: list[FactTest], memory: WorkingMemory,
           rescore: Callable[[Candidate, Mapping[int, Tri]], Candidate | None]) -> float:
    """How evenly the answers to ``tests`` split ``candidate``'s verdict, its other open tests
    assumed to hold (unless already answered "unknown", which they will stay)."""
    others = {id(leaf.test): Tri.TRUE for leaf in candidate.leaves if leaf.verdict is Tri.UNKNOWN
              and not any(memory.answered(f) for f in _facts_of(leaf.test))}
    tests = list({id(t): t for t in tests}.values())[:MAX_LEAVES_PER_FACT]
    verdicts = []
    for assignment in itertools.product((Tri.TRUE, Tri.FALSE), repeat=len(tests)):
        pinned = {**others, **{id(test): verdict for test, verdict in zip(tests, assignment)}}
        rescored = rescore(candidate, pinned)
        verdicts.append(rescored.status if rescored is not None else Status.EXCLUDED)
    return _entropy(verdicts)
