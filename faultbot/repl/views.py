"""The chat's replies as Markdown: diagnoses, questions, HOW and entries as faultbot.render writes
them, arranged for a conversation, plus the views only a chat needs (facts, inputs, answers, hits)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine.candidates import Candidate
from ..engine.conditions import Tri
from ..engine.diagnosis import Diagnosis
from ..engine.explain import ruled_out_by
from ..engine.facts import WorkingMemory
from ..engine.questions import Question
from ..engine.wording import describe_test, show_value
from ..ingest.stats import InputStats
from ..kb.loader import KnowledgeBase
from ..kb.model import Article
from ..qa.failure_match import WordsMatch
from ..qa.index import Hit
from ..render.diagnosis_markdown import (
    decoded_field_lines,
    diagnosis_markdown,
    evidence_lines,
    question_markdown,
    question_subject,
)
from ..render.entry_markdown import citation_line
from ..render.safe_text import one_line, table_cell

MAX_FACT_VALUES = 4
MAX_SNIPPET = 160


def candidate_line(candidate: Candidate) -> str:
    return f"`{candidate.id}` — {candidate.entry.title} ({candidate.status.value}, {candidate.confidence:.2f})"


def chat_answer_hint(question: Question) -> str:
    example = f" (e.g. `{question.example}`)" if question.example else ""
    return f"Type the answer{example}, `unknown`, or paste more log; `/why` says why it is asked."


def question_block(question: Question, explain: bool = False, about: str = "") -> str:
    return "\n".join(["## Question", "", *question_markdown(question, explain, chat_answer_hint, about)])


def after_evidence(diagnosis: Diagnosis, kb: KnowledgeBase, stats: InputStats, pending: Question | None) -> str:
    """After a paste or an answer: the conclusion when nothing is left to ask; else the leading
    candidates and the one question that decides between them."""
    if pending is None:
        return diagnosis_markdown(diagnosis, kb, stats)
    lines = [f"*Read {stats.records} records from {stats.files} input(s).*", ""]
    if diagnosis.conclusions:
        lines += ["Leading candidates:", "", *(f"- {candidate_line(c)}" for c in diagnosis.conclusions[:3]), ""]
    fields = decoded_field_lines(diagnosis, kb)
    return "\n".join([*lines, *fields[1:], *([""] if fields else []),
                      question_block(pending, about=question_subject(diagnosis))])


def facts_markdown(memory: WorkingMemory) -> str:
    if not memory.names():
        return "No facts yet: paste a log, or describe the failure."
    lines = ["| fact | value | from |", "| --- | --- | --- |"]
    for name in sorted(memory.names()):
        values = memory.values(name)
        shown = ", ".join(show_value(v) for v in values[:MAX_FACT_VALUES])
        shown += " …" if len(values) > MAX_FACT_VALUES else ""
        origins = dict.fromkeys(f.provenance.describe() for f in memory.facts(name))
        lines.append(f"| `{name}` | {table_cell(shown)} | {table_cell('; '.join(list(origins)[:2]))} |")
    unknown = sorted(memory.unknown_answers)
    if unknown:
        lines += ["", "Answered unknown: " + ", ".join(f"`{name}`" for name in unknown)]
    return "\n".join(lines)


def evidence_markdown(inputs: Iterable[tuple[str, InputStats | None]], diagnosis: Diagnosis) -> str:
    lines = ["## Inputs", ""]
    inputs = list(inputs)
    lines += [f"- {one_line(label)}: {stats.records if stats else 0} records" for label, stats in inputs] or ["- none yet"]
    for candidate in diagnosis.conclusions:
        if candidate.evidence:
            lines += ["", f"## Log lines that point at `{candidate.id}`", "", *evidence_lines(candidate, diagnosis.matches)]
    if not diagnosis.conclusions:
        lines += ["", "No log line matches a fault the knowledge base knows."]
    return "\n".join(lines)


def alternatives_markdown(diagnosis: Diagnosis) -> str:
    lines = []
    alternatives = diagnosis.conclusions[1:]
    if alternatives:
        lines += ["## Alternatives still possible", ""]
        for candidate in alternatives:
            open_tests = ruled_out_by(candidate)
            decided = f" — decided by: {'; '.join(open_tests)}" if open_tests else ""
            lines.append(f"- {candidate_line(candidate)}{decided}")
    if diagnosis.excluded:
        lines += ["", "## Ruled out", ""] if lines else ["## Ruled out", ""]
        for candidate in diagnosis.excluded:
            false = [describe_test(leaf.test) for leaf in candidate.leaves if leaf.verdict is Tri.FALSE]
            lines.append(f"- `{candidate.id}` — {candidate.entry.title} — ruled out by: {'; '.join(false)}")
    return "\n".join(lines) or "No alternatives: nothing else in the knowledge base fits the evidence."


def words_markdown(match: WordsMatch, stated: Sequence[tuple[str, str]]) -> str:
    lines = []
    if stated:
        lines += ["Noted from your words: " + ", ".join(f"`{fact}` = {one_line(value)}" for fact, value in stated)
                  + " (`/back` takes it back).", ""]
    lines += ["From your description, the faults that fit best:", ""]
    lines += [f"{i}. `{hit.entry.id}` — {hit.entry.title}" for i, hit in enumerate(match.candidates, 1)]
    if match.question is not None:
        lines += ["", "To tell them apart:" if len(match.candidates) > 1 else "To confirm it:", "",
                  *question_markdown(match.question, answer_hint=chat_answer_hint)]
    if match.telltales:
        lines += ["", "Or paste the failing rank's plog; lines that tell them apart:", ""]
        lines += [f"- `{literal}` → `{entry}`" for entry, literal in match.telltales]
    return "\n".join(lines)


def _snippet(hit: Hit) -> str:
    first = hit.sentences[0].text if hit.sentences else ""
    return first if len(first) <= MAX_SNIPPET else first[:MAX_SNIPPET].rsplit(" ", 1)[0] + " …"


def search_markdown(hits: Sequence[Hit], articles: dict[str, Article], suggestions: Sequence[str]) -> str:
    if not hits:
        tries = ", ".join(f"`/search {s}`" for s in suggestions)
        return "Nothing found." + (f" Try {tries}." if tries else "")
    lines = []
    for hit in hits:
        lines += [f"- **{hit.passage.title}** (`{hit.passage.ref}`, {hit.coverage:.2f})",
                  f"  {_snippet(hit)}", f"  *{citation_line(hit.passage.citation, articles)}*"]
    return "\n".join(lines)
