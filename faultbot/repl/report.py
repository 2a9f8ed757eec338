"""The incident report ``/export`` writes: the conclusion with its HOW trace (as ``faultbot diagnose
--explain`` shows it), the questions asked with why and the answers, the facts, and the input."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

from .. import __version__
from ..engine.diagnosis import Diagnosis
from ..ingest.stats import InputStats
from ..kb.loader import KnowledgeBase
from ..render.diagnosis_markdown import diagnosis_markdown
from ..render.safe_text import fenced_block, one_line, printable
from ..session import SessionStep, StepKind
from .views import facts_markdown

MAX_INPUT_LINES = 200


def _fenced(text: str) -> str:
    lines = text.rstrip("\n").split("\n")
    shown = lines[:MAX_INPUT_LINES]
    more = f"\n\n*… {len(lines) - len(shown)} more lines not shown.*" if len(lines) > len(shown) else ""
    return "\n".join(fenced_block("\n".join(shown))) + more


def _answers(steps: Sequence[SessionStep]) -> list[str]:
    lines = []
    for step in steps:
        if step.kind in (StepKind.ANSWER, StepKind.UNKNOWN):
            asked = f"**{one_line(step.question)}** " if step.question else ""
            lines.append(f"- {asked}(`{step.fact}`) — {one_line(step.text)}")
            if step.why:
                lines.append(f"  - Why it was asked: {step.why}")
    return lines or ["- No questions were answered."]


def _inputs(steps: Sequence[SessionStep]) -> list[str]:
    lines = []
    for step in steps:
        if step.kind is StepKind.PASTE:
            lines += ["", f"### {one_line(step.label)}", "", _fenced(step.text)]
        elif step.kind.adds_evidence:
            lines += ["", f"### {one_line(step.label)}", "", "Read from this path (not copied into the report)."]
    return lines or ["", "No logs were pasted."]


def report_markdown(session_id: str, diagnosis: Diagnosis, kb: KnowledgeBase, stats: InputStats,
                    steps: Sequence[SessionStep], now: datetime | None = None) -> str:
    now = now or datetime.now(timezone.utc)
    header = [f"*faultbot {__version__} incident report · session `{session_id}` · "
              f"exported {now.isoformat(timespec='seconds')}*", ""]
    body = diagnosis_markdown(diagnosis, kb, stats, explain=True).rstrip("\n")
    sections = ["", "## Questions and answers", "", *_answers(steps),
                "", "## Facts", "", facts_markdown(diagnosis.memory),
                "", "## Input evidence", *_inputs(steps)]
    return printable("\n".join([*header, body, *sections]) + "\n")
