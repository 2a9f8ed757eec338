"""Facts files are checked field by field: deep JSON, huge integers, wrong types, unknown fields, a
trailer that miscounts, lines after the end or without end are refused in one line naming the file
and line, never a traceback; ``extract -o`` writes a file of its own and renames it whole."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from faultbot import facts_file
from faultbot.facts_file import FactsFileError, read_facts

from ..conftest import REPO_DIR

EXAMPLE = REPO_DIR / "examples" / "lccl-allreduce-vector-core-timeout.log"
TIMEOUT = 120


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "faultbot", *args], capture_output=True, text=True, cwd=REPO_DIR,
                          timeout=TIMEOUT)


@pytest.fixture(scope="module")
def good_lines(tmp_path_factory) -> list[str]:
    """The lines of a facts file ``faultbot extract`` wrote of the example log."""
    target = tmp_path_factory.mktemp("facts") / "node.facts.jsonl.gz"
    done = run("extract", str(EXAMPLE), "-o", str(target), "--node", "n1")
    assert done.returncode == 0, done.stderr
    return gzip.decompress(target.read_bytes()).decode().splitlines()


def _write(path: Path, lines: list[str]) -> Path:
    path.write_bytes(gzip.compress("".join(line + "\n" for line in lines).encode()))
    return path


def _record_with(line: str, **changes: object) -> str:
    """A record line with fields of its record (``origin`` merged) replaced."""
    data = json.loads(line)
    origin = changes.pop("origin", {})
    data["record"].update(changes)
    data["record"]["origin"].update(origin)
    return json.dumps(data)


DEEP = '{"record": ' + "[" * 100_000 + "]" * 100_000 + "}"


@pytest.mark.parametrize("damage, line, message", [
    (lambda lines: [lines[0], DEEP, *lines[1:]], 2, "JSON nested too deeply"),
    (lambda lines: [lines[0], lines[1].replace('"line":1', '"line":' + "9" * 5000), *lines[2:]], 2,
     "an integer of 5,000 digits"),
    (lambda lines: [lines[0], _record_with(lines[1], origin={"line": "1"}), *lines[2:]], 2,
     "record.origin.line must be a whole number"),
    (lambda lines: [lines[0], _record_with(lines[1], origin={"rank": -3}), *lines[2:]], 2,
     "record.origin.rank must be a whole number from 0"),
    (lambda lines: [lines[0], _record_with(lines[1], kind="bogus"), *lines[2:]], 2, "record.kind must be one of"),
    (lambda lines: [lines[0], _record_with(lines[1], raw=5), *lines[2:]], 2, "record.raw must be a string"),
    (lambda lines: [lines[0], _record_with(lines[1], notes="glued"), *lines[2:]], 2,
     "record.notes must be a list of strings"),
    (lambda lines: [lines[0], _record_with(lines[1], timestamp="yesterday"), *lines[2:]], 2,
     "record.timestamp must be an ISO 8601 date and time"),
    (lambda lines: [lines[0], _record_with(lines[1], colour="red"), *lines[2:]], 2,
     "record has a field this faultbot does not know: colour"),
    (lambda lines: [lines[0], _record_with(lines[1], origin={"source": None}), *lines[2:]], 2,
     "record.origin.source is missing"),
    (lambda lines: [lines[0], lines[1].replace('"record":', '"repeats":-1,"record":'), *lines[2:]], 2,
     "repeats must be a whole number"),
    (lambda lines: [lines[0], '{"record": {"origin": 1, "kind": "plog", "raw": "", "message": ""}}', *lines[1:]], 2,
     "record.origin must be an object"),
    (lambda lines: [lines[0], "[1, 2]", *lines[1:]], 2, "the line must be an object"),
    (lambda lines: [lines[0], '{"record": NaN}', *lines[1:]], 2, "NaN is not a number a facts file holds"),
    (lambda lines: [lines[0], *lines[2:]], 5, "the end line counts 4 records, the file holds 3"),
    (lambda lines: [*lines[:-1], lines[-1].replace('"files":1', '"files":"one"')], 6,
     "end.stats.files must be a whole number"),
    (lambda lines: [*lines, lines[1]], 7, "a line after the end line"),
    (lambda lines: [lines[0].replace('"version":1', '"version":"1"'), *lines[1:]], 1,
     "bad header: header.version must be a whole number"),
], ids=["deep", "huge-integer", "line-as-text", "negative-rank", "bad-kind", "raw-number", "notes-text",
        "bad-timestamp", "unknown-field", "null-source", "negative-repeats", "origin-number", "not-an-object", "nan",
        "miscounted", "stats-type", "after-end", "header-version"])
def test_a_damaged_facts_file_is_refused_in_one_line_naming_file_and_line(tmp_path, good_lines, damage, line,
                                                                         message):
    assert len(good_lines) == 6          # header, four records, trailer: the line numbers above count on it
    path = _write(tmp_path / "node.facts.jsonl.gz", damage(good_lines))
    done = run("diagnose", "--facts", str(path), "--no-ask", "--format", "json")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.startswith(f"faultbot: error: {path}:{line}: ") and message in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


def test_the_good_file_reads_and_a_record_of_it_round_trips(tmp_path, good_lines):
    facts = read_facts(_write(tmp_path / "node.facts.jsonl.gz", good_lines))
    assert len(facts.records) == 4 and facts.records[0].origin.node == "n1"


def test_a_line_over_the_length_cap_is_refused_before_it_is_parsed(tmp_path, good_lines, monkeypatch):
    monkeypatch.setattr(facts_file, "MAX_LINE_CHARS", 200)
    path = _write(tmp_path / "node.facts.jsonl.gz", good_lines)
    with pytest.raises(FactsFileError, match=r":2: a line longer than 200 characters"):
        read_facts(path)


def test_two_extracts_to_one_path_each_write_a_whole_file(tmp_path):
    target = tmp_path / "same.facts.jsonl.gz"
    extracts = [subprocess.Popen([sys.executable, "-m", "faultbot", "extract", str(EXAMPLE), "-o", str(target),
                                  "--node", f"n{i}"], cwd=REPO_DIR, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                for i in range(2)]
    results = [(p.wait(timeout=TIMEOUT), p.stderr.read().decode()) for p in extracts]
    assert [code for code, _ in results] == [0, 0], results
    assert read_facts(target).header["node"] in ("n0", "n1") and len(read_facts(target).records) == 4
    assert sorted(os.listdir(tmp_path)) == [target.name]        # no temporary file left behind


def test_extract_into_a_place_it_cannot_write_is_one_line(tmp_path):
    done = run("extract", str(EXAMPLE), "-o", "/proc/self/no.facts.gz")
    assert done.returncode == 2 and done.stderr.startswith("faultbot: error: cannot write /proc/self/no.facts.gz")
    assert done.stderr.count("\n") == 1
