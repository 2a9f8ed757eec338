"""A question set (tests/qa/questions.yaml, format in tests/qa/QUESTIONS.md) and how `faultbot ask`
does on it: each fact asked several ways must be answered with the fact and a section that states
it; each must-not-answer question must get "not in my knowledge base"."""

from __future__ import annotations

from pathlib import Path

import msgspec

from ..kb.fields import Fields, Problems
from ..kb.kb_error import KbError
from ..kb.yaml_source import load_yaml
from .answer import Answer, answer
from .index import KnowledgeIndex

SUMMARY = "the question set has problems"


class AskedQuestion(msgspec.Struct, frozen=True):
    text: str
    held_out: bool
    fact: str              # the fact's id; "" for a must-not-answer question
    cites: tuple[str, ...]
    contains: tuple[str, ...]
    where: str             # file:line
    source_url: str = ""   # a real question: the public thread it was asked in


class QuestionResult(msgspec.Struct, frozen=True):
    question: AskedQuestion
    answer: Answer

    @property
    def passed(self) -> bool:
        if not self.question.fact:     # declined: no answer, or only what the KB holds about a name it asks about
            return not self.answer.found or not self.answer.direct
        text = (self.answer.text or "").casefold()
        return (self.answer.found and bool(set(self.answer.citations) & set(self.question.cites))
                and any(phrase.casefold() in text for phrase in self.question.contains))


def _questions(fields: Fields, problems: Problems, fact: str, cites: tuple[str, ...],
               contains: tuple[str, ...]) -> list[AskedQuestion]:
    found = []
    for line, item in fields.items("questions" if fact else "must_not_answer", required=True, min_items=1):
        asked = Fields(item, "a question", problems, line, ("q", "held_out", "source_url"))
        if asked.ok and (text := asked.text("q")):
            found.append(AskedQuestion(text, asked.flag("held_out"), fact, cites, contains,
                                       f"{problems.file}:{asked.line}", asked.text("source_url", required=False)))
    return found


def load_question_set(path: Path) -> list[AskedQuestion]:
    """Every question of the set; KbError naming file:line when the file cannot be used."""
    shown = str(path)
    problems = Problems(shown)
    top = Fields(load_yaml(path, shown), "the question set", problems, 1, ("seed", "facts", "must_not_answer"))
    questions: list[AskedQuestion] = []
    for line, item in top.items("facts", required=True, min_items=1):
        fact = Fields(item, "a fact", problems, line, ("id", "about", "cites", "contains", "questions"))
        if not fact.ok:
            continue
        cites = tuple(str(c) for _, c in fact.items("cites", required=True, min_items=1))
        contains = tuple(str(c) for _, c in fact.items("contains", required=True, min_items=1))
        questions += _questions(fact, problems, fact.text("id"), cites, contains)
    questions += _questions(top, problems, "", (), ())
    first: dict[str, str] = {}
    for question in questions:
        # the same words twice would be counted twice, perhaps once tuned on and once held out
        if (seen := first.setdefault(question.text, question.where)) != question.where:
            problems.add(int(question.where.rpartition(":")[2]), f"the same question as {seen}",
                         "each phrasing is asked once; drop the later one")
    if problems.found:
        raise KbError(problems.found, SUMMARY)
    return questions


def ask_all(index: KnowledgeIndex, questions: list[AskedQuestion]) -> list[QuestionResult]:
    return [QuestionResult(q, answer(index, q.text)) for q in questions]


def share(results: list[QuestionResult]) -> tuple[int, int]:
    """(passed, asked)."""
    return sum(r.passed for r in results), len(results)
