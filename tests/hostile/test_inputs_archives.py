"""Archives that lie: a tar header claiming 2**62 bytes, a damaged tar header, a gzip bomb, zip
entries that overlap, zips nested past the limit. Each ends in bounded time and memory, with a note
naming the archive, and what could be read is read."""

from __future__ import annotations

import gzip
import io
import zipfile
from pathlib import Path

from faultbot.ingest import LogReader, ReadLimits, Stdin
from faultbot.ingest.limits import ARCHIVE_BYTES_VARIABLE, RUN_BYTES_VARIABLE
from tests.hostile import generate as g


def diagnose(tmp_path: Path, *inputs: Path, env: dict[str, str] | None = None) -> g.Run:
    run = g.run_faultbot("diagnose", "--no-ask", "--format", "json", *inputs, peak_file=tmp_path / "peak", env=env)
    g.assert_bounded(run)
    return run


def test_a_tar_header_claiming_2_62_bytes_is_read_as_it_is(tmp_path: Path) -> None:
    archive = g.tar_claiming_huge_member(tmp_path)
    run = diagnose(tmp_path, archive)
    reason = run.skipped()[f"{archive}!log/plog-1.log"]
    assert "the archive ends inside log/plog-1.log" in reason and str(2 ** 62) in reason
    # the member's real bytes are read: its error is diagnosed
    assert run.returncode == 0 and run.json()["conclusions"][0]["id"] == "hccl.notify-timeout"


def test_extract_of_a_tar_claiming_2_62_bytes_finishes(tmp_path: Path) -> None:
    archive = g.tar_claiming_huge_member(tmp_path)
    run = g.run_faultbot("extract", "-o", tmp_path / "node.facts.gz", archive, peak_file=tmp_path / "peak")
    g.assert_bounded(run)
    assert run.returncode == 0, run.stderr
    trailer = gzip.decompress((tmp_path / "node.facts.gz").read_bytes()).decode().splitlines()[-1]
    assert "the archive ends inside log/plog-1.log" in trailer


def test_a_damaged_tar_header_is_a_note_not_a_quiet_end(tmp_path: Path) -> None:
    archive = g.tar_with_corrupt_header(tmp_path)
    run = diagnose(tmp_path, archive)
    assert run.skipped()[str(archive)] == ("archive read stopped: a damaged header at byte 1024: "
                                           "the rest of the archive is not read")
    assert run.json()["input"]["files"] == 1 and run.returncode == 0   # a.log, before the damage


def test_a_gzip_bomb_stops_at_the_budget_of_one_input_file(tmp_path: Path) -> None:
    bomb = g.gzip_bomb(tmp_path, 48 << 20)
    assert bomb.stat().st_size < 1 << 20
    run = diagnose(tmp_path, bomb, env={ARCHIVE_BYTES_VARIABLE: "8M"})
    reason = run.skipped()[str(bomb)]
    assert reason == (f"partly read: stopped after 8 MiB decompressed from {bomb} "
                      f"(the budget of one input file, {ARCHIVE_BYTES_VARIABLE})")
    assert run.json()["input"]["bytes"] == 8 << 20
    assert run.returncode == 0      # what was read is diagnosed


def test_the_run_budget_bounds_all_inputs_together(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = g.gzip_bomb(tmp_path / "a", 8 << 20), g.gzip_bomb(tmp_path / "b", 8 << 20)
    run = diagnose(tmp_path, first, second, env={ARCHIVE_BYTES_VARIABLE: "6M", RUN_BYTES_VARIABLE: "10M"})
    skipped = run.skipped()
    assert ARCHIVE_BYTES_VARIABLE in skipped[str(first)]
    assert skipped[str(second)] == (f"partly read: stopped after 10 MiB decompressed in this run "
                                    f"(the budget of all inputs, {RUN_BYTES_VARIABLE})")
    assert run.json()["input"]["bytes"] == 10 << 20


def test_overlapping_zip_entries_are_read_once(tmp_path: Path) -> None:
    # 1000 entries a level, three levels: a billion logs if every entry were believed
    bomb = g.overlapping_zip_bomb(tmp_path, 3, 1000)
    run = diagnose(tmp_path, bomb)
    notes = run.skipped()
    assert notes[str(bomb)].startswith("999 entries point at data that other entries gave")
    assert notes[f"{bomb}!inner.zip!inner.zip"].startswith("999 entries")
    assert run.json()["input"]["files"] == 1 and run.returncode == 0


def test_zips_nested_past_the_limit_are_a_note(tmp_path: Path) -> None:
    nested = g.nested_zips(tmp_path, 6, 2, (g.notify_timeout() + "\n").encode())
    run = diagnose(tmp_path, nested)
    too_deep = [name for name, reason in run.skipped().items() if reason == "archive nested too deep"]
    assert too_deep and all(name.startswith(f"{nested}!") for name in too_deep)


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def test_zips_held_in_memory_share_one_allowance_at_every_depth() -> None:
    log = (g.notify_timeout() + "\n").encode() * 400           # about 115 KB
    inner = _zip({"plog.log": log})
    outer = _zip({"inner.zip": inner, "padding.log": b"x\n" * 60_000})
    # on stdin the outer zip is held in memory (about 235 KB); the inner one would need 115 KB more
    reader = LogReader([Stdin(io.BytesIO(outer))], ReadLimits(max_zip_in_memory=300_000))
    assert not any(record.origin.source.endswith("plog.log") for record in reader.records())
    (note,) = reader.stats.skipped
    assert note.name == "<stdin>!inner.zip"
    assert note.reason.startswith("a zip inside a stream, larger than the ") and "of 300000 bytes" in note.reason
