"""Inputs that are not plain logs: a FIFO or a device named or found in a folder, a symlink out of
the folder read, NUL padding, UTF-16 without a BOM, UTF-8 and GBK lines in one file, file names in
GBK. None blocks, none is dropped in silence, and what is a log is read as one."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

from tests.hostile import generate as g


def diagnose(tmp_path: Path, *inputs: Path | str, env: dict[str, str] | None = None) -> g.Run:
    run = g.run_faultbot("diagnose", "--no-ask", "--format", "json", *inputs, peak_file=tmp_path / "peak", env=env)
    g.assert_bounded(run)
    return run


def _log(directory: Path, name: str = "plog-1.log") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(g.notify_timeout() + "\n")
    return path


def test_a_fifo_named_is_set_aside_without_waiting(tmp_path: Path) -> None:
    pipe = g.fifo(tmp_path)     # nothing ever writes to it: opening it to read would wait for ever
    run = diagnose(tmp_path, pipe)
    assert run.skipped()[str(pipe)].startswith("not a regular file (a FIFO): not opened")
    assert run.returncode == 1


def test_a_fifo_in_a_folder_is_set_aside_and_the_logs_beside_it_read(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    _log(folder)
    pipe = g.fifo(folder, "plog-2.log")
    run = diagnose(tmp_path, folder)
    assert run.skipped()[str(pipe)].startswith("not a regular file (a FIFO)")
    assert run.returncode == 0 and run.json()["input"]["files"] == 1


def test_a_device_named_is_set_aside(tmp_path: Path) -> None:
    run = diagnose(tmp_path, "/dev/zero")   # endless: read, it would never finish
    assert run.skipped()["/dev/zero"].startswith("not a regular file (a character device)")


def test_symlinks_are_followed_only_inside_the_folder_read(tmp_path: Path) -> None:
    outside = _log(tmp_path / "elsewhere", "secret.log")
    folder = tmp_path / "logs"
    inside = _log(folder / "run")
    os.symlink(outside, folder / "out.log")
    os.symlink(outside.parent, folder / "out-dir")
    os.symlink(inside, folder / "again.log")
    run = diagnose(tmp_path, folder)
    skipped = run.skipped()
    for link in ("out.log", "out-dir"):
        assert skipped[str(folder / link)].endswith(f"outside {folder}: not followed")
    # the link inside is followed: it is read once, its target then being the same file
    assert skipped[str(inside)] == f"same file as {folder / 'again.log'}"
    assert run.json()["input"]["files"] == 1


def test_nul_padding_does_not_make_a_log_binary(tmp_path: Path) -> None:
    run = diagnose(tmp_path, g.nul_padded_log(tmp_path))
    assert run.json()["input"]["skipped_files"] == []
    assert run.json()["conclusions"][0]["id"] == "hccl.notify-timeout"


def test_binary_content_is_still_set_aside(tmp_path: Path) -> None:
    blob = tmp_path / "core.dump"
    blob.write_bytes(bytes(range(256)) * 64)
    run = diagnose(tmp_path, blob)
    assert run.skipped()[str(blob)] == "binary: NUL bytes in the first 8192 bytes"


def test_utf16_without_a_bom_is_read(tmp_path: Path) -> None:
    for byte_order in ("le", "be"):
        run = diagnose(tmp_path, g.utf16_without_bom(tmp_path, byte_order))
        assert run.json()["input"]["skipped_files"] == [] and run.json()["input"]["undecodable_bytes"] == 0
        assert run.json()["conclusions"][0]["id"] == "hccl.notify-timeout"


def test_utf8_and_gbk_lines_in_one_file_are_each_read(tmp_path: Path) -> None:
    run = diagnose(tmp_path, g.mixed_encodings(tmp_path), "--full")
    data = run.json()
    assert data["input"]["skipped_files"] == [] and data["input"]["undecodable_bytes"] <= 4
    assert data["conclusions"][0]["id"] == "hccl.notify-timeout"


def test_gbk_file_names_are_shown_with_replacement_characters(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    g.gbk_named_log(folder)
    shown = str(folder / g.GBK_NAME.decode("utf-8", "replace"))
    run = g.run_faultbot("diagnose", "--no-ask", "--full", folder, peak_file=tmp_path / "peak",
                         env={"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"})
    g.assert_bounded(run)
    assert run.returncode == 0 and f"{shown}:1" in run.stdout


def test_extract_takes_gbk_file_names_in_any_locale(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    g.gbk_named_log(folder)
    _log(folder, "plog-2.log")
    for locale in ("C", "C.UTF-8"):
        facts = tmp_path / f"{locale}.facts.gz"
        run = g.run_faultbot("extract", "-o", facts, "--node", "node-1", folder, peak_file=tmp_path / "peak",
                             env={"LC_ALL": locale})
        g.assert_bounded(run)
        assert run.returncode == 0, run.stderr
        sources = {json.loads(line)["record"]["origin"]["source"]
                   for line in gzip.decompress(facts.read_bytes()).decode().splitlines() if '"record"' in line}
        assert f"node-1:{folder / g.GBK_NAME.decode('utf-8', 'replace')}" in sources and len(sources) == 2
        merged = diagnose(tmp_path, "--facts", facts)
        assert merged.returncode == 0
