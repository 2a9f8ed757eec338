"""A diagnosis as Markdown for people: conclusion first, then cause, fixes, checks, alternatives, sources.

With several ranks in the input, the cluster view comes first: the table of ranks by communicator,
the timeline of first errors, and the suspect ranks with their reasons. Inputs set aside or read in
part are named right after the answer, since a log not read may hold what would change it; lists
that hostile input can make endless (those inputs, error codes) show their first few and a count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from ..engine.candidates import Candidate, described_only
from ..engine.conditions import Tri
from ..engine.diagnosis import Diagnosis
from ..engine.explain import how, ruled_out_by, why
from ..engine.fill import fill
from ..engine.questions import Question
from ..engine.wording import describe_test, show_value
from ..ingest.stats import SKIPPED_SHOWN, InputStats
from ..kb.loader import KnowledgeBase
from ..kb.model import Op
from ..match.symptoms import SymptomMatch
from .entry_markdown import cause_lines, citation_line, fix_sections
from .more_like import more_like
from .safe_text import code_span, fenced_block, one_line, printable

if TYPE_CHECKING:
    from ..cluster.view import ClusterView

_MAX_EVIDENCE = 5
MAX_CODES_SHOWN = 10        # error codes explained in text; JSON explains them all
NOT_IN_KB = ("**Not in my knowledge base.** Nothing in these logs matches a fault faultbot knows. "
             "Look for the first ERROR record (and its error code, e.g. `EI0002`, `EZ9999`) and try "
             "`faultbot kb list` for the faults it covers.")


def evidence_lines(candidate: Candidate, matches: Sequence[SymptomMatch]) -> list[str]:
    """The log lines that matched ``candidate``'s symptoms, each line once with every symptom it
    matched, where it was read, and how many more lines of all ``matches`` say the same."""
    by_line: dict[tuple[str, int], list[SymptomMatch]] = {}
    for match in candidate.evidence:
        by_line.setdefault((match.record.origin.source, match.record.origin.line), []).append(match)
    lines = []
    for same_line in list(by_line.values())[:_MAX_EVIDENCE]:
        match = same_line[0]
        origin = match.record.origin
        rank = f" (rank {origin.rank})" if origin.rank is not None else ""
        more = more_like(match, matches)
        also = ""
        if more.lines:
            elsewhere = f", {more.ranks} other rank(s)" if more.ranks else ""
            also = f" · {more.lines:,} more line(s) like it{elsewhere}"
        symptoms = ", ".join(f"{m.symptom.id} {m.score:.2f}" for m in same_line)
        lines.append(f"- {code_span(f'{origin.source}:{origin.line}')}{rank} — {symptoms}{also}")
        lines.append("\n".join(fenced_block(match.record.raw.strip()[:400], indent="  ")))
    return lines


def deciding_conditions(candidate: Candidate, diagnosis: Diagnosis) -> list[str]:
    """The conditions that hold, each with the value that satisfied it and where that value came
    from (a log line, an answer, or the rule that decoded it from other fields)."""
    lines = []
    for leaf in candidate.leaves:
        if leaf.verdict is not Tri.TRUE or leaf.test.op is Op.EXISTS:
            continue
        facts = diagnosis.memory.facts(leaf.test.fact)
        source = f" ({one_line(facts[0].provenance.describe())})" if facts else ""
        values = ", ".join(one_line(show_value(v)) for v in leaf.values[:3])
        line = f"- `{describe_test(leaf.test)}`: {values}{source}"
        if line not in lines:    # a child restates a test of its parent's (kernel_family equals compute)
            lines.append(line)
    return ["", "## What decided it", "", *lines] if lines else []


def decoded_field_lines(diagnosis: Diagnosis, kb: KnowledgeBase) -> list[str]:
    """Each field value a KB decoder explains (retCode, errcode, CQE status ...), where it was read,
    and the sources of those meanings."""
    if not diagnosis.decoded:
        return []
    lines = ["", "## What the log's fields say", ""]
    for field in diagnosis.decoded:
        lines.append(f"- {field.label} {code_span(show_value(field.fact.value))} "
                     f"({one_line(field.fact.provenance.describe())}): "
                     f"{field.sentence}")
    cited = list(dict.fromkeys(field.citation for field in diagnosis.decoded))
    return lines + ["", *(f"*Source: {citation_line(ref, kb.articles)}*  " for ref in cited)]


def skipped_input_lines(stats: InputStats | None) -> list[str]:
    """The inputs set aside or read only in part, each with why: the first SKIPPED_SHOWN and a
    count of the rest."""
    if stats is None or not stats.skipped:
        return []
    lines = ["", "## Inputs skipped or partly read", ""]
    lines += [f"- {code_span(note.name)} — {one_line(note.reason)}" for note in stats.skipped[:SKIPPED_SHOWN]]
    rest = len(stats.skipped) - SKIPPED_SHOWN
    if rest > 0:
        lines.append(f"- … and {rest:,} more (`--format json` lists them all)")
    return lines


def cli_answer_hint(question: Question) -> str:
    example = f" (e.g. `{question.example}`)" if question.example else ""
    return f"Answer with `--answer {question.fact}=VALUE`{example}."


def question_subject(diagnosis: Diagnosis) -> str:
    """What the questions are about: the file, line, node, rank and device of the leading
    conclusion's first evidence ("" without a conclusion)."""
    top = diagnosis.top
    if top is None or not top.evidence:
        return ""
    origin = top.evidence[0].record.origin
    where = [code_span(f"{origin.source}:{origin.line}")]
    where += [f"{name} {one_line(value)}" for name, value in (("node", origin.node), ("rank", origin.rank),
                                                               ("device", origin.device)) if value is not None]
    return ", ".join(where)


def question_markdown(question: Question, explain: bool = False,
                      answer_hint: Callable[[Question], str] = cli_answer_hint, about: str = "") -> list[str]:
    """A question with what it is about, how to find the answer, and ``answer_hint`` on how to give
    it (the command line's ``--answer`` by default, the chat passes its own)."""
    lines = [f"- **{question.text}** (`{question.fact}`)"]
    if about:
        lines.append(f"  About: {about}.")
    if question.choices:
        lines.append(f"  Answers: {', '.join(question.choices)}, or unknown.")
    lines.append("  Find it with:")
    lines += [f"  - `{command}`" for command in question.how_to_find]
    lines.append(f"  {answer_hint(question)}")
    if explain:
        lines.append(f"  Why: {question.why}")
        lines += [f"  - {line}" for line in why(question)]
    return lines


def how_markdown(candidate: Candidate, diagnosis: Diagnosis) -> list[str]:
    lines = [f"### How faultbot concluded `{candidate.id}`", ""]
    for step in how(candidate, diagnosis.memory):
        origin = f" — {code_span(step.origin)}" if step.origin else ""
        lines.append(f"{'  ' * step.depth}- {step.kind}: {one_line(step.text)}{origin}")
    return lines


def diagnosis_markdown(diagnosis: Diagnosis, kb: KnowledgeBase, stats: InputStats | None,
                       explain: bool = False, cluster: ClusterView | None = None, brief: bool = False) -> str:
    """The diagnosis for people, answer first; ``brief`` stops after the answer (the first screen)."""
    lines: list[str] = []
    details: list[str] = []
    if cluster is not None:
        # the cluster modules: only with several ranks; its headline (size, suspect) on the first
        # screen, its tables after the answer
        from .cluster_markdown import cluster_details, cluster_headline

        lines += [*cluster_headline(cluster), ""]
        details = cluster_details(cluster)
    top = diagnosis.top
    skipped = skipped_input_lines(stats)
    if top is None:
        lines += [NOT_IN_KB, *skipped, *details, *decoded_field_lines(diagnosis, kb)]
    else:
        entry = top.entry
        lines += [f"# {entry.title}", "",
                  f"**{top.status.value}**, confidence {top.confidence:.2f} · `{entry.id}`"
                  + (f" · {', '.join(entry.error_codes)}" if entry.error_codes else "")]
        if described_only(top.evidence):
            lines += ["", "**This rests on a description, not on a log.** The words fit this fault best; paste "
                      "the failing rank's log (`grep -rn ERROR ~/ascend/log`) to confirm or rule it out."]
        crimer = diagnosis.memory.values("crimer_rank")
        if crimer:
            found = cluster.identities.resolve(crimer[0]) if cluster is not None else None
            known = f", {one_line(cluster.label(found))} in these logs" if cluster is not None and found else ""
            lines += ["", f"**Rank to look at: {one_line(crimer[0])}** (named by the cluster heartbeat{known})."]
        if top.echo and diagnosis.echo_root is not None:
            lines += ["", f"This is most likely the echo of `{diagnosis.echo_root.id}`."]
        followed = [c for c in diagnosis.conclusions if (c.id, top.id) in diagnosis.consequences]
        if followed:
            lines += ["", f"First `{top.id}`, then {', '.join(f'`{c.id}` ({c.entry.title})' for c in followed)} "
                      "as a consequence: the later error comes after this one on the same rank."]
        echoes = [c for c in diagnosis.conclusions if c.echo]
        if not top.echo and echoes:
            lines += ["", f"The other errors in the log ({', '.join(c.id for c in echoes[:3])}) are most likely its echo."]
        filled = lambda text: fill(text, diagnosis.memory)  # noqa: E731
        # the answer first: what to do now and for good, and the one question that could change it
        lines += fix_sections(entry, ("workaround", "permanent"), filled)
        if diagnosis.questions:
            first = diagnosis.questions[0]
            find = f"find it with `{first.how_to_find[0]}`; " if first.how_to_find else ""
            about = question_subject(diagnosis)
            lines += ["", f"**Could change this:** {first.text} ({f'about {about}; ' if about else ''}{find}"
                      f"answer with `--answer {first.fact}=...`)"]
        lines += skipped
        if brief:
            return printable("\n".join([*lines, "", "*More: evidence, cause, next checks and sources with "
                                         "`--full`, or without `--brief`.*"]) + "\n")
        lines += details
        lines += cause_lines(entry, filled)
        lines += ["", "## Evidence", "", *evidence_lines(top, diagnosis.matches)]
        lines += deciding_conditions(top, diagnosis)
        lines += decoded_field_lines(diagnosis, kb)
        lines += fix_sections(entry, ("next_checks",), filled)
    concluded_codes = {code for c in diagnosis.conclusions for code in c.entry.error_codes}
    unexplained = [c for c in (*diagnosis.codes, *diagnosis.return_codes) if c.code not in concluded_codes]
    if unexplained:
        lines += ["", "## What the error codes say", ""]
        for code in unexplained[:MAX_CODES_SHOWN]:
            known = f" Known entries for it: {', '.join(f'`{e}`' for e in code.entries)}." if code.entries else ""
            lines.append(f"- {code.sentence}{known}")
        if len(unexplained) > MAX_CODES_SHOWN:
            lines.append(f"- … and {len(unexplained) - MAX_CODES_SHOWN:,} more codes (`--format json` explains "
                         "them all)")
        sources = dict.fromkeys(code.citations[0] for code in unexplained[:MAX_CODES_SHOWN])
        lines += [f"  *Source: {citation_line(ref, kb.articles)}*" for ref in sources]
    if diagnosis.questions:
        lines += ["", "## To narrow it down", ""]
        for question in diagnosis.questions:
            lines += question_markdown(question, explain, about=question_subject(diagnosis))
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
        noted = f", {len(stats.skipped)} skipped or partly read" if stats.skipped else ""
        undecodable = f", {stats.replaced_bytes} undecodable bytes" if stats.replaced_bytes else ""
        lines += ["", f"*Read {stats.records} records from {stats.files} file(s), {stats.bytes_read} bytes{undecodable}{noted}.*"]
    return printable("\n".join(lines) + "\n")
