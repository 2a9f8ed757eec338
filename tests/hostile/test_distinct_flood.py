"""A flood of error lines that all differ: EI0002-like lines, each with its own code number and rank,
as a gzip. Every line is a new piece of evidence, so nothing folds as a repeat; what is kept stays
bounded all the same (faultbot/folding.py: past 1,000 different runs of one file, records fold by
kind), memory stays flat and time linear as the flood grows four times, and the output says that
evidence was folded and lists only the first error codes, with a count of the rest.

By hand, at the size that matters (2,000,000 lines, 149 MB uncompressed)::

    python -c "from tests.hostile.test_distinct_flood import distinct_flood as f; from pathlib import Path; \\
               f(Path('.'), 2_000_000)"
    faultbot diagnose --no-ask distinct-flood.log.gz
"""

from __future__ import annotations

import gzip
from pathlib import Path

from faultbot.folding import DEFAULT_FOLD_LIMITS
from faultbot.render.diagnosis_markdown import MAX_CODES_SHOWN
from tests.hostile import generate as g
from tests.hostile.test_inputs_lines import assert_linear, startup


def distinct_flood(directory: Path, lines: int) -> Path:
    """A gzip of ``lines`` error-code lines, no two alike: codes EI0000 to EI9999 then EZ0000 ...,
    and a rank number of their own."""
    path = directory / "distinct-flood.log.gz"
    with gzip.open(path, "wb", compresslevel=1) as out:
        block = 20_000
        for start in range(0, lines, block):
            out.write("".join(f"E{'IZ'[n // 10_000 % 2]}{n % 10_000:04d}: The wait execution of the Notify register "
                              f"times out. rank[{n}]\n" for n in range(start, min(lines, start + block))).encode())
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
    assert (f"— {4_400 - kept} evidence records past the first {kept} different ones (of {kept} in all) "
            "folded by kind") in large.stdout
    section = large.stdout.split("## What the error codes say")[1].split("\n\n")[1]
    codes = [line for line in section.splitlines() if line.startswith("- ")]
    assert len(codes) == MAX_CODES_SHOWN + 1 and codes[-1].startswith("- … and ")
    assert codes[-1].endswith(" more codes (`--format json` explains them all)")
