"""The cluster view as Markdown: the ranks of each communicator, the timeline of first errors, and
the suspect ranks with their reasons; it comes before the conclusion when the input holds several
ranks."""

from __future__ import annotations

from ..cluster.identity import ProcessKey
from ..cluster.localise import Finding, clock
from ..cluster.rank_evidence import RankFailure
from ..cluster.runs import RowRun, row_runs
from ..cluster.table import RankRow, RowStatus
from ..cluster.view import ClusterView
from .safe_text import code_span, fenced_block, one_line, table_cell

_MAX_COMMUNICATORS = 6       # communicators with errors shown in the table; JSON has them all
_MAX_RUNS = 24               # table rows per communicator
_MAX_TIMELINE = 12


def _error_cell(error: RankFailure | None) -> str:
    if error is None:
        return "—"
    what = " ".join(part for part in (error.code, error.op) if part) or error.entry
    return table_cell(what + (f", stream {error.stream}" if error.stream is not None else ""))


def _run_line(run: RowRun, view: ClusterView) -> str:
    first, last = run.first, run.last
    ranks = f"{first.rank}" if first is last else f"{first.rank}–{last.rank}"
    nodes = sorted({row.process.node for row in run.rows if row.process is not None})
    node = " – ".join(dict.fromkeys(map(table_cell, nodes[:1] + nodes[-1:]))) or "—"
    if first is last and first.device is not None:
        node += f", device {first.device}"
    times = sorted(row.first_error.time for row in run.rows if row.first_error and row.first_error.time)
    when = " – ".join(dict.fromkeys(map(clock, times[:1] + times[-1:]))) or "—"
    mark = f"**{ranks}** ◀ suspect" if run.suspect else ranks
    return f"| {mark} | {node} | {first.status.value} | {_error_cell(first.first_error)} | {when} |"


def _table(view: ClusterView, suspects: set[ProcessKey]) -> list[str]:
    lines = ["## Ranks by communicator", ""]
    by_group: dict[str, list[RankRow]] = {}
    for row in view.rows:
        by_group.setdefault(row.group, []).append(row)
    # ranks that left no logs are an event even when too many to list (communicators.py bounds the listing)
    eventful = [c for c in view.communicators
                if c.missing_unlisted or any(r.status is not RowStatus.OK for r in by_group[c.name])]
    eventful.sort(key=lambda c: not any(r.process in suspects for r in by_group[c.name]))
    for comm in eventful[:_MAX_COMMUNICATORS]:
        runs = row_runs(by_group[comm.name], suspects)
        size = f"{comm.size} ranks" if comm.size else f"{len(comm.members)} ranks seen"
        lines += [f"**{one_line(comm.name)}** ({size})", "", "| ranks | node | status | first error | time |",
                  "| --- | --- | --- | --- | --- |", *(_run_line(run, view) for run in runs[:_MAX_RUNS])]
        if len(runs) > _MAX_RUNS:
            lines.append(f"| … {len(runs) - _MAX_RUNS} more rows | | | | |")
        if comm.missing_unlisted:
            count = f"… and {comm.missing_unlisted:,} more" if comm.missing else f"{comm.missing_unlisted:,}"
            lines += ["", f"*{count} ranks missing (no logs), not listed.*"]
        lines.append("")
    quiet = len(view.communicators) - len(eventful[:_MAX_COMMUNICATORS])
    if not eventful:
        lines.append(f"*No errors in any of the {quiet} communicator(s).*")
    elif quiet:
        lines.append(f"*{quiet} other communicator(s) not shown" +
                     (": no errors.*" if len(eventful) <= _MAX_COMMUNICATORS else " (see `--format json`).*"))
    return lines


def _timeline(view: ClusterView, suspects: set[ProcessKey]) -> list[str]:
    if not view.timeline:
        return []
    shown = [e for i, e in enumerate(view.timeline) if i < _MAX_TIMELINE or e.process in suspects]
    lines = ["", "## Timeline of first errors", "", "| time | after the first | rank | first error |",
             "| --- | --- | --- | --- |"]
    for entry in shown:
        after = f"+{entry.offset_s:.3f} s" if entry.offset_s is not None else "—"
        label = table_cell(view.label(entry.process))
        rank = f"**{label}**" if entry.process in suspects else label
        error = entry.error
        lines.append(f"| {clock(error.time)} | {after} | {rank} | {_error_cell(error)} ({table_cell(error.entry)}) |")
    hidden = len(view.timeline) - len(shown)
    if hidden:
        last = view.timeline[-1]
        lines += ["", f"*… and {hidden} more rank(s), the last at {clock(last.error.time)}.*"]
    return lines


def _reason(finding: Finding) -> str:
    return f"   - **{finding.kind.value}**: {one_line(finding.reason)}"


def _suspects(view: ClusterView) -> list[str]:
    lines = ["", "## Suspect ranks", ""]
    for number, suspect in enumerate(view.suspects, 1):
        info = view.identities.info(suspect.process)
        pid = f", pid {suspect.process.pid}" if suspect.process.pid >= 0 else ""
        holds = ", ".join(f"rank {m.rank} of {one_line(m.group)}" for m in info.memberships) if info else ""
        lines += [f"{number}. **{one_line(view.label(suspect.process))}**{pid}" + (f" — {holds}" if holds else ""),
                  *map(_reason, suspect.findings)]
        error = view.evidence[suspect.process].first_error()
        if error is None:
            lines.append("   - its own logs hold no error")
        else:
            origin = error.record.origin
            lines += [f"   - its own first error, {code_span(f'{origin.source}:{origin.line}')}:",
                      *fenced_block(error.record.raw.strip()[:400], indent="     ")]
    unranked = [f for f in view.findings if not f.ranks]
    if unranked:
        lines += ["", *(f"- **{f.kind.value}**: {one_line(f.reason)}" for f in unranked)]
    return lines


def cluster_headline(view: ClusterView) -> list[str]:
    """The cluster in two lines, for the first screen: its size and the suspect rank with why."""
    title = (f"# Cluster: {len(view.identities.ranks)} ranks on {len(view.nodes)} node(s), "
             f"{len(view.communicators)} communicator(s)")
    lines = [title, ""]
    if view.suspects:
        first = view.suspects[0]
        lines.append(f"**Suspect: {one_line(view.label(first.process))}** — {one_line(first.findings[0].reason)}.")
    elif view.findings:
        lines.append(f"**No single suspect rank** — {one_line(view.findings[0].reason)}.")
    else:
        lines.append("**No rank reported an error.**")
    return lines


def cluster_details(view: ClusterView) -> list[str]:
    """The ranks by communicator, the timeline of first errors and every suspect with its reasons."""
    suspects = {s.process for s in view.suspects}
    lines = ["", "## Ranks", "", *_table(view, suspects), *_timeline(view, suspects)]
    if view.suspects or view.findings:
        lines += _suspects(view)
    return lines
