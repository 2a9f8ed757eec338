"""Diagnosis cases: a log, the answers the engineer knows, and the conclusion expected.

Eval cases (``tests/cases/*.yaml``), the real-paste corpus (``tests/corpus/*.yaml``, which adds
provenance: source, family, held-out mark) and the KB entries' own tests run here the same way: an
engineer who answers each question faultbot asks from the case's answers ("unknown" when the case
does not say) while faultbot asks (``engine.asking``), then reads "To narrow it down" and gives
the answers the case knows to the checks listed there, as ``--answer FACT=VALUE`` would. Only the
questions faultbot asked count as asked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import msgspec

from .engine.answers import AnswerError
from .engine.asking import question_to_ask
from .engine.candidates import Status
from .engine.diagnosis import Diagnosis
from .kb.entry_schema import NO_CONCLUSION
from .kb.fields import Fields, Problems
from .kb.kb_error import KbError
from .kb.loader import KnowledgeBase
from .kb.yaml_source import load_yaml
from .session import DiagnosisSession

MAX_QUESTIONS = 20
_CASE_FIELDS = ("name", "description", "log", "log_file", "answers", "expect", "expect_not", "tags")
# Corpus provenance: read for reports, never for diagnosis.
_CORPUS_FIELDS = ("source_url", "family", "form", "held_out", "happened", "resolution", "why", "ideal")


class Case(msgspec.Struct, frozen=True):
    name: str
    log: str
    answers: tuple[tuple[str, str], ...]
    expect: tuple[str, ...]     # ids acceptable as the first conclusion ("none": no conclusion); () checks none
    expect_not: tuple[str, ...]  # ids that must be neither the first conclusion nor a confirmed one
    where: str                  # file:line, for messages
    family: str = ""            # corpus: the fault family, for per-family figures
    held_out: bool = False      # corpus: in the held-out fifth, reported apart

    @property
    def expected(self) -> str:
        """The expectation as people read it: ``a``, ``a | b`` or ``not c``."""
        return " | ".join(self.expect) if self.expect else "not " + " | ".join(self.expect_not)

    def failure(self, diagnosis: Diagnosis) -> str | None:
        """Why ``diagnosis`` misses the expectation, or None when it meets it."""
        concluded = [c.id for c in diagnosis.conclusions]
        top = concluded[0] if concluded else NO_CONCLUSION
        if self.expect and top not in self.expect:
            then = f" (then: {', '.join(concluded[1:4])})" if len(concluded) > 1 else ""
            return f"expected {self.expected}, concluded {top}{then}"
        # a fault shown as the consequence of the first conclusion is not a conclusion of its own
        followed = {later for later, root in diagnosis.consequences if root == top}
        confirmed = [c.id for c in diagnosis.conclusions if c.status is Status.CONFIRMED and c.id not in followed]
        for unwanted in self.expect_not:
            if unwanted == top or unwanted in confirmed:
                return f"{unwanted} must not be concluded, but is ({'first' if unwanted == top else 'confirmed'})"
        return None


class CaseResult(msgspec.Struct, frozen=True):
    case: Case
    diagnosis: Diagnosis
    asked: tuple[str, ...]      # facts asked, in order
    failure: str | None
    volunteered: tuple[str, ...] = ()   # facts the case answered from "To narrow it down", unasked

    @property
    def passed(self) -> bool:
        return self.failure is None

    @property
    def concluded(self) -> str:
        return self.diagnosis.top.id if self.diagnosis.top else NO_CONCLUSION

    @property
    def confidently_wrong(self) -> bool:
        """Failed with a first conclusion stated as confirmed or probable, not merely possible."""
        top = self.diagnosis.top
        return not self.passed and top is not None and top.status in (Status.CONFIRMED, Status.PROBABLE)


def run_case(case: Case, kb: KnowledgeBase, session: DiagnosisSession | None = None) -> CaseResult:
    """Diagnose ``case`` as an engineer would at the prompt; ``session`` may be a fresh one to reuse
    compiled matchers (its steps are replaced)."""
    session = session or DiagnosisSession(kb)
    session.steps.clear()
    session.add_paste(case.log, name=f"<{case.name}>")
    known: Mapping[str, str] = dict(case.answers)
    asked: list[str] = []
    volunteered: list[str] = []
    diagnosis, asked_at = session.diagnose(), None
    while len(asked) + len(volunteered) < MAX_QUESTIONS:
        question = question_to_ask(diagnosis, asked_at)
        if question is not None:
            asked.append(question.fact)
        else:
            question = next((q for q in diagnosis.questions if q.fact in known and q.fact not in volunteered), None)
            if question is None:
                break
            volunteered.append(question.fact)
        try:
            session.answer(question.fact, known.get(question.fact, "unknown"))
        except AnswerError as error:
            return CaseResult(case, diagnosis, tuple(asked), f"the case's answer is invalid: {error}", tuple(volunteered))
        diagnosis, asked_at = session.diagnose(), diagnosis
    return CaseResult(case, diagnosis, tuple(asked), case.failure(diagnosis), tuple(volunteered))


def entry_cases(kb: KnowledgeBase, ids: Iterable[str] | None = None) -> list[Case]:
    wanted = set(ids) if ids else None
    return [Case(f"{entry.id}: {test.name}", test.log, test.answers, (test.expect,) if test.expect else (),
                 (test.expect_not,) if test.expect_not else (), str(test.where))
            for entry in kb.entries if wanted is None or entry.id in wanted for test in entry.tests]


def _case(path: Path, shown: str, problems: Problems) -> Case | None:
    fields = Fields(load_yaml(path, shown), "the case", problems, 1, _CASE_FIELDS + _CORPUS_FIELDS)
    if not fields.ok:
        return None
    log = fields.text("log", required=not fields.has("log_file"))
    if fields.has("log_file"):
        log_path = path.parent / fields.text("log_file")
        try:
            log = log_path.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            problems.add(fields.line_of("log_file"), f"cannot read log_file: {exc.strerror}")
    answers = fields.mapping_of("answers") or {}
    expect, expect_not = fields.strings("expect"), fields.strings("expect_not")
    if not expect and not expect_not:
        problems.add(fields.line, "the case says nothing to check", f"add 'expect: <id or {NO_CONCLUSION}>'")
    return Case(fields.text("name", required=False) or path.stem, log,
                tuple((str(k), str(v)) for k, v in answers.items()), expect, expect_not, f"{shown}:1",
                fields.text("family", required=False), fields.flag("held_out"))


def load_cases(directory: Path) -> list[Case]:
    """Every ``*.yaml`` case under ``directory``; raises KbError naming file:line for bad ones."""
    cases, problems = [], []
    for path in sorted(directory.rglob("*.yaml")):
        shown = str(path)
        collected = Problems(shown)
        try:
            case = _case(path, shown, collected)
        except KbError as exc:
            problems += exc.problems
            continue
        problems += collected.found
        if case is not None:
            cases.append(case)
    if problems:
        raise KbError(problems, "the cases above have problems")
    return cases
