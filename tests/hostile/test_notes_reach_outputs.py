"""What reading set aside or read in part reaches every output, as a user runs faultbot: the text of
``diagnose`` names it right after the answer (the first few, and a count of the rest), its JSON
lists it all with a count, and ``extract`` says it on standard error and keeps it in the facts
file, where ``diagnose --facts`` finds it again. That covers files skipped (binary, FIFO, symlink
out of the folder), read in part (over the byte budget, an archive with a damaged header) and
evidence the folding's bounds left out."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

from faultbot.ingest.limits import ARCHIVE_BYTES_VARIABLE
from faultbot.ingest.stats import SKIPPED_SHOWN
from tests.hostile import generate as g

SECTION = "## Inputs skipped or partly read"


def _hostile_folder(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder with a log faultbot knows and, beside it, one input of each kind that is not read
    in full; the name each is shown under, and the start of its note."""
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "plog-1.log").write_text(g.notify_timeout() + "\n")
    (folder / "core.dump").write_bytes(bytes(range(256)) * 64)
    g.fifo(folder, "pipe.log")
    (tmp_path / "secret.log").write_text("outside\n")
    os.symlink(tmp_path / "secret.log", folder / "out.log")
    g.gzip_bomb(folder, 2 << 20)
    g.tar_with_corrupt_header(folder)
    expected = {
        "core.dump": "binary: NUL bytes",
        "pipe.log": "not a regular file (a FIFO)",
        "out.log": "symlink to",
        "bomb.log.gz": "partly read: stopped after 1 MiB decompressed",
        "corrupt-header.tar": "archive read stopped: a damaged header",
    }
    return folder, {str(folder / name): reason for name, reason in expected.items()}


def _run(tmp_path: Path, *args: str | Path) -> g.Run:
    run = g.run_faultbot(*args, peak_file=tmp_path / "peak", env={ARCHIVE_BYTES_VARIABLE: "1M"})
    g.assert_bounded(run)
    return run


def _section(text: str) -> list[str]:
    """The lines of the 'Inputs skipped' block of a diagnosis in Markdown."""
    start = text.index(SECTION)
    block = text[start:].split("\n\n")[1]
    return block.splitlines()


def test_the_text_names_every_input_not_read_in_full_after_the_answer(tmp_path: Path) -> None:
    folder, expected = _hostile_folder(tmp_path)
    for mode in ("--brief", "--full"):
        run = _run(tmp_path, "diagnose", "--no-ask", "--format", "markdown", mode, folder)
        assert run.returncode == 0, run.stderr
        text = run.stdout
        # after the answer, on its first screen: before the evidence, and before --brief's last line
        assert text.index("## Immediate workaround") < text.index(SECTION)
        assert mode == "--brief" or text.index(SECTION) < text.index("## Evidence")
        lines = _section(text)
        assert len(lines) == len(expected)
        for name, reason in expected.items():
            assert any(line.startswith(f"- `{name}` — {reason}") for line in lines), (name, lines)


def test_json_lists_every_note_with_a_count(tmp_path: Path) -> None:
    folder, expected = _hostile_folder(tmp_path)
    data = _run(tmp_path, "diagnose", "--no-ask", "--format", "json", folder).json()
    assert data["schema"] == 1
    notes = {item["name"]: item["reason"] for item in data["input"]["skipped_files"]}
    assert data["input"]["skipped_count"] == len(expected) == len(notes)
    for name, reason in expected.items():
        assert notes[name].startswith(reason)


def test_the_text_shows_the_first_notes_and_counts_the_rest(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "plog-1.log").write_text(g.notify_timeout() + "\n")
    blobs = [folder / f"core-{n:02d}.dump" for n in range(SKIPPED_SHOWN + 3)]
    for blob in blobs:
        blob.write_bytes(bytes(range(256)) * 64)
    run = _run(tmp_path, "diagnose", "--no-ask", "--format", "markdown", "--brief", folder)
    lines = _section(run.stdout)
    assert lines[:-1] == [f"- `{blob}` — binary: NUL bytes in the first 8192 bytes" for blob in blobs[:SKIPPED_SHOWN]]
    assert lines[-1] == "- … and 3 more (`--format json` lists them all)"


def test_evidence_folded_past_its_bounds_is_noted(tmp_path: Path) -> None:
    # 1,100 lines that differ in their facts: past 1,000 different runs of one file they fold by kind
    flood = g.gzip_flood(tmp_path, 1_100, near_identical=True)
    run = _run(tmp_path, "diagnose", "--no-ask", "--format", "markdown", "--brief", flood)
    (line,) = _section(run.stdout)
    assert line.startswith(f"- `{flood}` — 100 evidence records past the first 1000 different ones")


def test_extract_says_what_it_did_not_read_and_keeps_it_for_diagnose(tmp_path: Path) -> None:
    folder, expected = _hostile_folder(tmp_path)
    g.gzip_flood(folder, 1_100, near_identical=True)
    facts = tmp_path / "node.facts.gz"
    run = _run(tmp_path, "extract", "-o", facts, "--node", "node-1", folder)
    assert run.returncode == 0, run.stderr
    notes = [line for line in run.stderr.splitlines() if line.startswith("faultbot: note: ")]
    assert len(notes) == len(expected) + 1
    assert f"{len(expected) + 1} input(s) skipped or partly read" in run.stderr
    for name, reason in expected.items():
        assert f"faultbot: note: {name}: {reason}" in run.stderr
    assert any("evidence records past the first 1000 different ones" in line for line in notes)
    trailer = json.loads(gzip.decompress(facts.read_bytes()).decode().splitlines()[-1])
    assert len(trailer["end"]["stats"]["skipped"]) == len(expected) + 1

    merged = _run(tmp_path, "diagnose", "--no-ask", "--format", "markdown", "--brief", "--facts", facts)
    assert merged.returncode == 0, merged.stderr
    assert len(_section(merged.stdout)) == len(expected) + 1
