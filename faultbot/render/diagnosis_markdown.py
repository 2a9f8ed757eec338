"""A diagnosis as Markdown for people: conclusion first, then cause, fixes, checks, alternatives, sources."""

from __future__ import annotations

from ..engine.candidates import Candidate
from ..engine.diagnosis import Diagnosis
from ..engine.explain import how, ruled_out_by, why
from ..engine.fill import fill
from ..engine.questions import Question
from ..ingest.stats import InputStats
from ..kb.loader import KnowledgeBase
from ..kb.model import FixStep
from .entry_markdown import citation_line

_FIX_HEADINGS = (("workaround", "Immediate workaround"), ("permanent", "Permanent fix"), ("next_checks", "Next checks"))
_MAX_EVIDENCE = 5
NOT_IN_KB = ("**Not in my knowledge base.** Nothing in these logs matches a fault faultbot knows. "
             "Look for the first ERROR record (and its error code, e.g. `EI0002`, `EZ9999`) and try "
             "`faultbot kb list` for the faults it covers.")


def _steps(steps: tuple[FixStep, ...], diagnosis: Diagnosis) -> list[str]:
    lines = []
    for step in steps:
        lines.append(f"- {fill(step.text, diagnosis.memory)}")
        lines += [f"  ```bash\n  {fill(command, diagnosis.memory)}\n  ```" for command in step.commands]
    return lines


def _evidence(candidate: Candidate) -> list[str]:
    lines = []
    for match in candidate.evidence[:_MAX_EVIDENCE]:
        origin = match.record.origin
        rank = f" (rank {origin.rank})" if origin.rank is not None else ""
        lines.append(f"- `{origin.source}:{origin.line}`{rank} — {match.symptom.id}, score {match.score:.2f}")
        lines.append(f"  ```text\n  {match.record.raw.strip()[:400]}\n  ```")
    return lines


def question_markdown(question: Question, explain: bool = False) -> list[str]:
    lines = [f"- **{question.text}** (`{question.fact}`)"]
    if question.choices:
        lines.append(f"  Answers: {', '.join(question.choices)}, or unknown.")
    lines += [f"  Find it with: `{command}`" for command in question.how_to_find]
    lines.append(f"  Answer with `--answer {question.fact}=VALUE`" + (f" (e.g. `{question.example}`)" if question.example else "") + ".")
    if explain:
        lines.append(f"  Why: {question.why}")
        lines += [f"  - {line}" for line in why(question)]
    return lines


def how_markdown(candidate: Candidate, diagnosis: Diagnosis) -> list[str]:
    lines = [f"### How faultbot concluded `{candidate.id}`", ""]
    for step in how(candidate, diagnosis.memory):
        origin = f" — `{step.origin}`" if step.origin else ""
        lines.append(f"{'  ' * step.depth}- {step.kind}: {step.text}{origin}")
    return lines


def diagnosis_markdown(diagnosis: Diagnosis, kb: KnowledgeBase, stats: InputStats | None,
                       explain: bool = False) -> str:
    lines: list[str] = []
    top = diagnosis.top
    if top is None:
        lines += [NOT_IN_KB]
    else:
        entry = top.entry
        lines += [f"# {entry.title}", "",
                  f"**{top.status.value}**, confidence {top.confidence:.2f} · `{entry.id}`"
                  + (f" · {', '.join(entry.error_codes)}" if entry.error_codes else "")]
        crimer = diagnosis.memory.values("crimer_rank")
        if crimer:
            lines += ["", f"**Rank to look at: {crimer[0]}** (named by the cluster heartbeat)."]
        if top.echo and diagnosis.echo_root is not None:
            lines += ["", f"These timeouts are most likely the echo of `{diagnosis.echo_root.id}`."]
        echoes = [c for c in diagnosis.conclusions if c.echo]
        if not top.echo and echoes:
            lines += ["", f"The timeouts in the log ({', '.join(c.id for c in echoes[:3])}) are most likely its echo."]
        lines += ["", "## Evidence", "", *_evidence(top)]
        if entry.summary:
            lines += ["", entry.summary]
        lines += ["", "## Cause", "", entry.cause]
        for field, heading in _FIX_HEADINGS:
            steps = getattr(entry.fixes, field)
            if steps:
                lines += ["", f"## {heading}", "", *_steps(steps, diagnosis)]
    concluded_codes = {code for c in diagnosis.conclusions for code in c.entry.error_codes}
    unexplained = [c for c in diagnosis.codes if c.code not in concluded_codes]
    if unexplained:
        lines += ["", "## What the error codes say", ""]
        for code in unexplained:
            known = f" Known entries for it: {', '.join(f'`{e}`' for e in code.entries)}." if code.entries else ""
            lines.append(f"- {code.sentence}{known}")
        lines += [f"  *Source: {citation_line(ref, kb.articles)}*" for ref in unexplained[0].citations[:1]]
    if diagnosis.questions:
        lines += ["", "## Questions that would sharpen this", ""]
        for question in diagnosis.questions:
            lines += question_markdown(question, explain)
    alternatives = diagnosis.conclusions[1:]
    if alternatives:
        lines += ["", "## Alternatives still possible", ""]
        for candidate in alternatives:
            open_tests = ruled_out_by(candidate)
            decided_by = f" — decided by: {'; '.join(open_tests)}" if open_tests else ""
            lines.append(f"- `{candidate.id}` — {candidate.entry.title} ({candidate.status.value}, "
                         f"{candidate.confidence:.2f}){decided_by}")
    if top is not None:
        lines += ["", "## Sources", ""]
        lines += [f"- {citation_line(c, kb.articles)}" for c in top.entry.citations]
    if explain and top is not None:
        lines += ["", *how_markdown(top, diagnosis)]
    if stats is not None:
        skipped = f", {len(stats.skipped)} skipped" if stats.skipped else ""
        undecodable = f", {stats.replaced_bytes} undecodable bytes" if stats.replaced_bytes else ""
        lines += ["", f"*Read {stats.records} records from {stats.files} file(s), {stats.bytes_read} bytes{undecodable}{skipped}.*"]
    return "\n".join(lines) + "\n"
