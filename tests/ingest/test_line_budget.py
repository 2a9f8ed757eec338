"""The line budgets of one file (faultbot/ingest/line_budget.py): past them the lines are counted,
the file's end is read again, and every line read keeps its number in the file, whatever the line
ends and wherever the chunks are cut."""

from __future__ import annotations

import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from faultbot.ingest import LogReader, ReadLimits
from faultbot.ingest.inputs import LogPath
from faultbot.ingest.line_budget import line_ends

PLOG = "[ERROR] HCCL(1,python):2025-01-01-00:00:00.000.000 [a.cc:1] line {}"
NOTE = re.compile(r"partly read: lines ([\d,]+)–([\d,]+) only counted, not read: the file had given "
                  r"(?P<spent>.*?)(?:; of its last ([\d,]+) lines, ([\d,]+) were read)?")


def _read(path: Path, limits: ReadLimits) -> tuple[list[tuple[int, int]], list[str]]:
    """(line number, number in the text) of every record, and the notes."""
    reader = LogReader([LogPath(path)], limits)
    records = [(record.origin.line, int(re.search(r"\d+$", record.raw)[0])) for record in reader.records()]
    return records, [note.reason for note in reader.stats.skipped]


def _log(path: Path, count: int, ends: list[str]) -> Path:
    path.write_bytes("".join(PLOG.format(n) + ends[n % len(ends)] for n in range(1, count + 1)).encode())
    return path


@settings(max_examples=60, deadline=None)     # a tail longer than a line: the tail's lines are whole
@given(ends=st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=1, max_size=4),
       chunk=st.integers(16, 400), budget=st.integers(1, 60), tail=st.integers(90, 500))
def test_every_line_read_keeps_its_number_and_the_rest_are_counted(tmp_path_factory, ends: list[str], chunk: int,
                                                                    budget: int, tail: int) -> None:
    path = _log(tmp_path_factory.mktemp("budget") / "a.log", 300, ends)
    records, notes = _read(path, ReadLimits(chunk_bytes=chunk, max_candidate_lines=budget, tail_chars=tail))
    assert all(line == number for line, number in records), records
    numbers = [line for line, _ in records]
    assert numbers == sorted(set(numbers))
    if not notes:       # the budget was spent in the file's last chunk, or never
        assert numbers == list(range(1, 301))
        return
    (note,) = notes
    found = NOTE.fullmatch(note)
    assert found, note
    first, last = (int(found[n].replace(",", "")) for n in (1, 2))
    assert found["spent"] == f"{budget:,} lines the prefilter lets through (FAULTBOT_MAX_CANDIDATE_LINES)"
    # the lines before the count are read whole, then nothing until the count ends, then the tail
    assert numbers == [*range(1, first), *range(last + 1, 301)]
    assert first - 1 >= budget and int(found[4] or 0) == 300 - last and int(found[5] or 0) <= 300 - last


def test_a_budget_of_lines_read_in_full_and_a_budget_of_zero(tmp_path: Path) -> None:
    path = _log(tmp_path / "a.log", 2000, ["\n"])
    records, notes = _read(path, ReadLimits(chunk_bytes=1024, max_evidence_lines=500, tail_chars=2000))
    assert len(notes) == 1 and "500 lines to read in full (FAULTBOT_MAX_EVIDENCE_LINES)" in notes[0]
    assert records[-1] == (2000, 2000) and 500 <= len(records) < 600
    records, notes = _read(path, ReadLimits(chunk_bytes=1024, max_evidence_lines=0, max_candidate_lines=0))
    assert not notes and len(records) == 2000


def test_a_line_longer_than_the_tail_is_read_from_where_the_tail_starts(tmp_path: Path) -> None:
    path = tmp_path / "a.log"
    path.write_text("".join(PLOG.format(n) + "\n" for n in range(1, 101)) + "x" * 5000 + " 101\n")
    records, notes = _read(path, ReadLimits(chunk_bytes=512, max_candidate_lines=10, tail_chars=1000))
    assert records[-1] == (101, 101) and len(notes) == 1
    path.write_text("".join(PLOG.format(n) + "\r\n" for n in range(1, 101)))
    records, notes = _read(path, ReadLimits(chunk_bytes=64, max_candidate_lines=10, tail_chars=1))
    assert records[-1] == (100, 0) and "lines 12–99 only counted" in notes[0]   # the last line's last digit


def test_line_ends_are_counted_as_universal_newlines_read_them() -> None:
    assert [line_ends(text) for text in ("", "a", "a\n", "a\r\nb\rc\n", "\r\r\n\n")] == [0, 0, 1, 3, 3]
