"""A flood of error lines that all differ: EI0002-like lines, each with its own code number and rank,
as a gzip. Every line is a new piece of evidence, so nothing folds as a repeat; what is kept stays
bounded all the same (faultbot/folding.py: past 1,000 different runs of one file, records fold by
kind), memory stays flat and time linear as the flood grows four times, and the output says that
evidence was folded and lists only the first error codes, with a count of the rest. Spread over
many files, the flood is bounded over all of them (5,000 different runs of one kind), read by one
process or by several alike.

At the size that matters (2,000,000 lines, 149 MB uncompressed) the line budgets of one file bound
it: tests/hostile/test_floods_full_size.py.
"""

from __future__ import annotations

import gzip
import re
from collections import Counter
from pathlib import Path

import pytest

from faultbot import parallel
from faultbot.evidence import Evidence, EvidenceCollector
from faultbot.folding import DEFAULT_FOLD_LIMITS
from faultbot.ingest.inputs import LogPath
from faultbot.render.diagnosis_markdown import MAX_CODES_SHOWN
from tests.hostile import generate as g
from tests.hostile.test_inputs_lines import assert_linear, startup


def distinct_flood(directory: Path, lines: int, first: int = 0, name: str = "distinct-flood.log.gz") -> Path:
    """A gzip of ``lines`` error-code lines, no two alike: codes EI0000 to EI9999 then EZ0000 ...,
    and a rank number of their own, from line number ``first`` of the flood on."""
    path = directory / name
    with gzip.open(path, "wb", compresslevel=1) as out:
        block = 20_000
        for start in range(first, first + lines, block):
            out.write("".join(f"E{'IZ'[n // 10_000 % 2]}{n % 10_000:04d}: The wait execution of the Notify register "
                              f"times out. rank[{n}]\n" for n in range(start, min(first + lines, start + block))).encode())
    return path


def _diagnose(tmp_path: Path, lines: int, name: str) -> g.Run:
    (tmp_path / name).mkdir()
    flood = distinct_flood(tmp_path / name, lines)
    run = g.run_faultbot("diagnose", "--no-ask", "--format", "markdown", "--full", flood,
                         peak_file=tmp_path / f"{name}.peak")
    g.assert_bounded(run)
    return run


def test_a_flood_of_distinct_error_lines_stays_flat_and_says_it_folded(tmp_path: Path) -> None:
    base = startup(tmp_path)
    small, large = _diagnose(tmp_path, 1_100, "small"), _diagnose(tmp_path, 4_400, "large")
    assert large.peak_mb < small.peak_mb + 30
    assert_linear(base, small.seconds, large.seconds)
    kept = DEFAULT_FOLD_LIMITS.max_runs_per_file
    assert (f"— {4_400 - kept} evidence records past the first {kept} different ones (of {kept} in all, at most "
            f"{DEFAULT_FOLD_LIMITS.max_runs_per_kind:,} of one kind) folded by kind") in large.stdout
    section = large.stdout.split("## What the error codes say")[1].split("\n\n")[1]
    codes = [line for line in section.splitlines() if line.startswith("- ")]
    assert len(codes) == MAX_CODES_SHOWN + 1 and codes[-1].startswith("- … and ")
    assert codes[-1].endswith(" more codes (`--format json` explains them all)")


FILES, LINES_PER_FILE = 6, 1000       # one kind of record, 6,000 different ones: over the bound of one kind


def _kept(evidence: Evidence) -> list[tuple[str, int, int]]:
    """(file, line, repeats) of every record the evidence kept."""
    records = {id(o.record): o.record for o in evidence.observations}
    return sorted((Path(r.origin.source).name, r.origin.line, r.repeats) for r in records.values())


def test_a_flood_spread_over_files_is_bounded_over_all_of_them_in_one_process_or_several(
        tmp_path: Path, kb, monkeypatch: pytest.MonkeyPatch) -> None:
    for number in range(FILES):
        distinct_flood(tmp_path, LINES_PER_FILE, number * LINES_PER_FILE, f"node-{number}.log.gz")
    collector = EvidenceCollector(kb)
    alone = collector.from_inputs([LogPath(tmp_path)])
    monkeypatch.setattr(parallel, "PARALLEL_FROM_BYTES", 0)
    shared = parallel.collect(kb, collector, [LogPath(tmp_path)], workers=2)
    assert _kept(shared) == _kept(alone)
    per_kind = DEFAULT_FOLD_LIMITS.max_runs_per_kind
    last = f"node-{FILES - 1}.log.gz"
    kept_by_file = Counter(name for name, _, _ in _kept(alone))
    # the first files are kept whole; the last is past the bound of its kind: its records fold into
    # one, with the count of the rest, but those whose code is a kind of its own (EI0002 ...)
    assert [kept_by_file[f"node-{number}.log.gz"] for number in range(FILES - 1)] == [LINES_PER_FILE] * (FILES - 1)
    assert kept_by_file[last] < 30
    assert sum(1 + repeats for name, _, repeats in _kept(alone) if name == last) == LINES_PER_FILE
    for evidence in (alone, shared):
        assert evidence.stats is not None
        notes = [(Path(note.name).name, note.reason) for note in evidence.stats.skipped]
        assert len(notes) == 1 and notes[0][0] == last
        assert re.fullmatch(rf"\d+ evidence records past the first \d+ different ones \(of \d+ in all, at "
                            rf"most {per_kind:,} of one kind\) folded by kind: .*", notes[0][1]), notes
