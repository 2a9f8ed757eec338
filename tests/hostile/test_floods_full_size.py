"""Floods at the size that matters, bounded by the line budgets of one file
(faultbot/ingest/line_budget.py): 2,000,000 different error lines (149 MB, every line new evidence)
and a gzip bomb of one error line up to the 4 GiB budget of one input file (15 million lines). Past
a budget the lines are counted, not read; the note says which lines and which budget; the end of the
file is read, so its last error is still found.

Memory has the bound every hostile input gets (200 MB). Time at this size depends on the machine,
so its bound is a multiple of the bare interpreter's own read of the same file, measured in the
same run (never under the 20 s every hostile input gets): about 11 times for the flood, whose
first lines all go through the whole pipeline, and 1.7 times for the bomb, which is mostly counted."""

from __future__ import annotations

import re
from pathlib import Path

from faultbot.ingest.limits import ARCHIVE_BYTES_VARIABLE, ReadLimits
from tests.hostile import generate as g
from tests.hostile.test_distinct_flood import distinct_flood

LIMITS = ReadLimits()


FLOOD_PACE = 30         # times the bare read; measured about 11
BOMB_PACE = 5           # measured about 1.7


def _diagnosed(tmp_path: Path, log: Path, pace: float) -> tuple[g.Run, list[str]]:
    seconds = max(g.MAX_SECONDS, pace * g.bare_read_seconds(log))
    run = g.run_faultbot("diagnose", "--no-ask", "--format", "json", log, peak_file=tmp_path / "peak",
                         timeout=3 * seconds)
    g.assert_bounded(run, seconds=seconds)
    assert run.returncode == 0, run.stderr
    notes = [item["reason"] for item in run.json()["input"]["skipped_files"] if item["name"] == str(log)]
    return run, notes


def _lines_shown(document: object) -> set[int]:
    """Every line number the JSON output names."""
    if isinstance(document, dict):
        found = {document["line"]} if isinstance(document.get("line"), int) else set()
        return found.union(*map(_lines_shown, document.values()))
    if isinstance(document, list):
        return set().union(*map(_lines_shown, document))
    return set()


def test_two_million_different_error_lines_are_read_to_the_budget_and_their_end(tmp_path: Path) -> None:
    lines = 2_000_000
    run, notes = _diagnosed(tmp_path, distinct_flood(tmp_path, lines), FLOOD_PACE)
    budget = (rf"lines ([\d,]+)–([\d,]+) only counted, not read: the file had given {LIMITS.max_evidence_lines:,} "
              r"lines to read in full \(FAULTBOT_MAX_EVIDENCE_LINES\); of its last ([\d,]+) lines, ([\d,]+) were read")
    (found,) = [found for note in notes if (found := re.fullmatch(f"partly read: {budget}", note))]
    first, last, tail, tail_read = (int(found[n].replace(",", "")) for n in (1, 2, 3, 4))
    assert LIMITS.max_evidence_lines < first < 2 * LIMITS.max_evidence_lines and last + tail == lines == tail_read + last
    assert lines in _lines_shown(run.json())      # the last line is evidence, with its number


def test_a_gzip_bomb_of_one_error_line_ends_at_its_budgets(tmp_path: Path) -> None:
    bomb = g.gzip_bomb(tmp_path, LIMITS.max_archive_bytes + (8 << 20))
    run, notes = _diagnosed(tmp_path, bomb, BOMB_PACE)
    assert notes[0] == (f"partly read: stopped after 4 GiB decompressed from {bomb} "
                        f"(the budget of one input file, {ARCHIVE_BYTES_VARIABLE})")
    found = re.fullmatch(r"partly read: lines ([\d,]+)–[\d,]+ only counted, not read: the file had given "
                         rf"{LIMITS.max_candidate_lines:,} lines the prefilter lets through "
                         r"\(FAULTBOT_MAX_CANDIDATE_LINES\); of its last [\d,]+ lines, [\d,]+ were read", notes[1])
    assert found and 0 < int(found[1].replace(",", "")) - LIMITS.max_candidate_lines < 4000    # within a chunk
    assert run.json()["conclusions"][0]["id"] == "hccl.notify-timeout"
