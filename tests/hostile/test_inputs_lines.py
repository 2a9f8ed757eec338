"""Lines that never end and evidence that never stops: one line of megabytes, a line of 100,000
error codes, floods of identical and of near-identical errors. Time grows linearly with the input
(a size and four times it are compared), memory stays flat, and what is cut or folded is noted."""

from __future__ import annotations

from pathlib import Path

import pytest

from faultbot.engine.facts import Fact, Provenance, ProvenanceSource, WorkingMemory
from faultbot.evidence import EvidenceCollector
from faultbot.folding import DEFAULT_FOLD_LIMITS, FoldLimits, Found, RecordFolder
from faultbot.ingest import LogReader, Paste
from faultbot.ingest.limits import DEFAULT_LIMITS
from tests.hostile import generate as g


def diagnose(tmp_path: Path, path: Path, name: str) -> g.Run:
    run = g.run_faultbot("diagnose", "--no-ask", "--format", "json", path, peak_file=tmp_path / f"{name}.peak")
    g.assert_bounded(run)
    return run


def startup(tmp_path: Path) -> float:
    """The seconds a run on a one-line log takes: what every run costs before its input."""
    return diagnose(tmp_path, g.one_long_line(tmp_path, "x", 10, "tiny.log"), "tiny").seconds


def assert_linear(base: float, small: float, large: float) -> None:
    """``large`` (four times the input of ``small``) costs about four times as much: well under the
    sixteen times a quadratic reading would, with room for a busy machine."""
    assert large - base <= 7 * max(small - base, 0.1) + 1.5, (base, small, large)


@pytest.mark.parametrize("unit", ["a\\", "EI0002 "], ids=["backslashes", "error-codes"])
def test_one_long_line_is_read_in_linear_time(tmp_path: Path, unit: str) -> None:
    small = g.one_long_line(tmp_path, unit, 1 << 20, "small.log")
    large = g.one_long_line(tmp_path, unit, 4 << 20, "large.log")
    base = startup(tmp_path)
    small_run, large_run = diagnose(tmp_path, small, "small"), diagnose(tmp_path, large, "large")
    assert_linear(base, small_run.seconds, large_run.seconds)
    assert large_run.skipped()[str(large)] == (f"1 line(s) longer than {DEFAULT_LIMITS.max_line_chars} characters, "
                                               "each read as several records")
    assert large_run.json()["input"]["cut_lines"] == 1


def test_a_line_of_100000_error_codes(tmp_path: Path) -> None:
    run = diagnose(tmp_path, g.codes_on_one_line(tmp_path, 100_000), "codes")
    notes = [item["reason"] for item in run.json()["input"]["skipped_files"]
             if item["name"] == str(tmp_path / "codes.log")]
    assert notes[0].startswith("1 line(s) longer than")
    # the line is cut into records, and of each record only the first values of a fact are kept
    most = DEFAULT_FOLD_LIMITS.max_values_per_record
    assert f"record(s) with more than {most} values of a fact, of which only the first are kept" in notes[1]
    assert any(conclusion["id"] == "hccl.notify-timeout" for conclusion in run.json()["conclusions"])


def test_working_memory_values_are_linear_in_the_values() -> None:
    facts = [Fact("error_code", f"EZ{n:06d}", Provenance(ProvenanceSource.LOG)) for n in range(100_000)]
    memory = WorkingMemory(facts + facts[:10])
    values = memory.values("error_code")
    assert len(values) == 100_000 and values[:2] == ["EZ000000", "EZ000001"]


def test_a_flood_of_identical_errors_stays_flat(tmp_path: Path) -> None:
    (tmp_path / "small").mkdir()
    (tmp_path / "large").mkdir()
    small = diagnose(tmp_path, g.gzip_flood(tmp_path / "small", 10_000, near_identical=False), "small")
    large = diagnose(tmp_path, g.gzip_flood(tmp_path / "large", 40_000, near_identical=False), "large")
    assert large.json()["input"]["bytes"] == 4 * small.json()["input"]["bytes"]
    assert large.peak_mb < small.peak_mb + 20
    assert large.json()["conclusions"][0]["evidence"][0]["more"]["lines"] == 40_000 - 1


def test_a_flood_of_near_identical_errors_stays_flat(tmp_path: Path) -> None:
    # every line differs in its process, stream and task: past the per-file limit they fold by kind
    (tmp_path / "small").mkdir()
    (tmp_path / "large").mkdir()
    small_log = g.gzip_flood(tmp_path / "small", 1_500, near_identical=True)
    large_log = g.gzip_flood(tmp_path / "large", 6_000, near_identical=True)
    base = startup(tmp_path)
    small, large = diagnose(tmp_path, small_log, "small"), diagnose(tmp_path, large_log, "large")
    assert large.peak_mb < small.peak_mb + 30
    assert_linear(base, small.seconds, large.seconds)
    assert large.json()["conclusions"][0]["id"] == "hccl.notify-timeout"


def _found(collector: EvidenceCollector, text: str) -> list[Found]:
    found = []
    for record in LogReader([Paste(text)]).records():
        observations, matches = collector.extractor.extract(record), collector.matcher.match(record)
        if observations or matches:
            found.append(Found(record, tuple(observations), tuple(matches)))
    return found


def test_the_folder_bounds_values_per_record_and_runs_per_file_with_notes(kb) -> None:
    collector = EvidenceCollector(kb)
    codes = " ".join(f"EZ{n:04d}" for n in range(100))
    flood = "\n".join(g.notify_timeout(pid=1000 + n, stream=n) for n in range(30))
    folder = RecordFolder(collector.per_occurrence, FoldLimits(max_runs_per_file=10, max_values_per_record=8))
    kept = [out for found in _found(collector, f"{g.SCREEN_EI0002} {codes}\n{flood}\n") for out in folder.add(found)]
    kept += folder.finish()
    assert max(sum(o.fact == "error_code" for o in found.observations) for found in kept) == 8
    assert len(kept) < 15
    assert sum(1 + found.record.repeats for found in kept) == 31        # every record counted
    notes = [note.reason for note in folder.notes]
    assert notes[0] == ("1 record(s) with more than 8 values of a fact, of which only the first are kept "
                        "(line 1 gives 101 values of error_code)")
    assert notes[1].startswith("21 evidence records past the first 10 different ones")
