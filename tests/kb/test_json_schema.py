"""The published JSON Schemas of the KB files (kb/schema/*.schema.json): what ``faultbot kb schema``
prints, valid draft 2020-12, met by every shipped KB file, and refusing the shape errors that
``faultbot kb lint`` refuses, so an editor flags them as a contributor types."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from faultbot.cli.main import main
from faultbot.cli.parser import KB_FILE_KINDS
from faultbot.kb.crosscheck import check_entries
from faultbot.kb.entry_schema import ENTRY_FIELDS, parse_entry
from faultbot.kb.fields import Problems
from faultbot.kb.json_schema import KINDS
from faultbot.kb.yaml_source import parse_yaml

from ..conftest import REPO_DIR, TESTS_DIR

KB_DIR = REPO_DIR / "kb"
SCHEMA_DIR = KB_DIR / "schema"
BROKEN_KB = TESTS_DIR / "data" / "broken_kb" / "kb"
BASE_ENTRY = KB_DIR / "entries" / "lccl" / "lccl.allreduce-flag-cleanup.yaml"


def _schema(kind: str) -> dict:
    return json.loads((SCHEMA_DIR / f"{kind}.schema.json").read_text(encoding="utf-8"))


def _validator(kind: str) -> Any:
    return jsonschema.Draft202012Validator(_schema(kind))


def _files_of(kind: str, kb_dir: Path) -> list[Path]:
    return sorted({path for pattern in KINDS[kind].files for path in kb_dir.glob(pattern)})


def _schema_errors(kind: str, document: Any) -> list[str]:
    return [f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
            for error in _validator(kind).iter_errors(document)]


def _faultbot(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "faultbot", *args], capture_output=True, text=True, timeout=120,
                          cwd=REPO_DIR, check=False)


def test_the_committed_schemas_are_what_kb_schema_prints(tmp_path, capsys):
    """kb/schema/ cannot go stale: regenerate it with the command in each file's $comment."""
    assert sorted(path.name for path in SCHEMA_DIR.iterdir()) == sorted(f"{kind}.schema.json" for kind in KINDS)
    for kind in KINDS:
        assert main(["kb", "schema", "--kind", kind]) == 0
        committed = (SCHEMA_DIR / f"{kind}.schema.json").read_text(encoding="utf-8")
        assert capsys.readouterr().out == committed, (f"kb/schema/{kind}.schema.json is stale: run "
                                                      f"'faultbot kb schema --kind {kind} -o kb/schema/{kind}.schema.json'")
    written = _faultbot("kb", "schema", "--kind", "rules", "-o", str(tmp_path / "rules.json"))
    assert written.returncode == 0 and written.stdout == f"wrote {tmp_path / 'rules.json'}\n"
    assert (tmp_path / "rules.json").read_text(encoding="utf-8") == (SCHEMA_DIR / "rules.schema.json").read_text(encoding="utf-8")


def test_kb_schema_names_every_kind_and_refuses_an_unwritable_file(tmp_path):
    assert set(KB_FILE_KINDS) == set(KINDS)
    unwritable = _faultbot("kb", "schema", "-o", str(tmp_path / "no-such-folder" / "entry.json"))
    assert unwritable.returncode == 2
    assert unwritable.stderr.startswith("faultbot: error: cannot write") and "Traceback" not in unwritable.stderr
    unknown = _faultbot("kb", "schema", "--kind", "articles")
    assert unknown.returncode == 2 and "invalid choice: 'articles'" in unknown.stderr


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_schema_is_a_draft_2020_12_schema(kind):
    schema = _schema(kind)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_every_shipped_kb_file_meets_its_schema():
    covered: dict[Path, str] = {}
    failures = []
    for kind in KINDS:
        files = _files_of(kind, KB_DIR)
        assert files, f"no shipped file of kind {kind}"
        for path in files:
            assert path not in covered, f"{path} is of two kinds: {covered[path]} and {kind}"
            covered[path] = kind
            document = parse_yaml(path.read_text(encoding="utf-8"), str(path))
            failures += [f"{path.relative_to(REPO_DIR)}: {error}" for error in _schema_errors(kind, document)]
    assert not failures, "\n".join(failures)
    every_yaml = set(KB_DIR.rglob("*.yaml"))
    assert every_yaml == set(covered), f"KB files no schema covers: {sorted(every_yaml - set(covered))}"


def test_vscode_maps_each_schema_to_its_files():
    settings = json.loads((REPO_DIR / ".vscode" / "settings.json").read_text(encoding="utf-8"))
    assert settings["yaml.schemas"] == {f"./kb/schema/{kind}.schema.json": [f"kb/{pattern}" for pattern in k.files]
                                        for kind, k in KINDS.items()}


# The broken KB that test_lint.py runs lint over: the files whose errors are of shape, not of meaning.
SHAPE_ERRORS = [
    ("entry", "entries/demo/demo.unknown-field.yaml", "unknown field 'sympthoms'"),
    ("entry", "entries/demo/demo.missing-title.yaml", "missing required field 'title'"),
    ("entry", "entries/demo/demo.wrong-type.yaml", "field 'cause' of the entry must be text"),
    ("entry", "entries/demo/demo.words-form.yaml", "has form 'words'"),
    ("facts", "facts.yaml", "'type' of fact 'mode' is 'colour'"),
    ("decoders", "decoders/demo-broken.yaml", "decoder case is missing required field 'means'"),
    ("vocabulary", "vocabulary.yaml", "unknown intent 'wishes'"),
]


def test_files_lint_refuses_for_their_shape_are_refused_by_the_schema():
    linted = _faultbot("kb", "lint", "--kb", str(BROKEN_KB))
    assert linted.returncode == 1
    for kind, file, lint_says in SHAPE_ERRORS:
        assert any(line.startswith(f"kb/{file}:") and lint_says in line for line in linted.stderr.splitlines()), \
            f"lint no longer says {lint_says!r} of {file}"
        path = BROKEN_KB / file
        assert _schema_errors(kind, parse_yaml(path.read_text(encoding="utf-8"), str(path))), f"the schema accepts {file}"


@pytest.fixture(scope="module")
def base_entry() -> dict:
    """A shipped entry with every optional field filled in, which lint accepts."""
    entry = yaml.safe_load(BASE_ENTRY.read_text(encoding="utf-8"))
    entry.update(tags=["hang"], echo=False, concludes_at_most="probable")
    entry["applies_to"]["products"] = ["Atlas A2"]
    assert set(entry) == set(ENTRY_FIELDS)
    return entry


def _lint_problems(entry: dict, kb) -> list[str]:
    """What lint says of ``entry`` in place of the shipped one: its reading, then the checks across
    entries (ids, parents, citations, tests)."""
    shown = "kb/entries/lccl/lccl.allreduce-flag-cleanup.yaml"
    problems = Problems(shown)
    parsed = parse_entry(parse_yaml(yaml.safe_dump(entry, allow_unicode=True), shown), kb.facts, shown, problems)
    found = [str(problem) for problem in problems.found]
    if parsed is not None:
        others = [other for other in kb.entries if other.id != parsed.id]
        file_of = {id(other): other.where.file for other in others} | {id(parsed): shown}
        found += [str(problem) for problem in check_entries([*others, parsed], dict(kb.articles), file_of)
                  if problem.file == shown]
    return found


def test_the_base_entry_is_accepted_by_lint_and_schema(base_entry, kb):
    assert _lint_problems(base_entry, kb) == []
    assert _schema_errors("entry", base_entry) == []


@pytest.mark.parametrize("field", ENTRY_FIELDS)
def test_a_field_is_required_by_the_schema_exactly_when_lint_requires_it(field, base_entry, kb):
    entry = {key: value for key, value in base_entry.items() if key != field}
    lint_refuses = bool(_lint_problems(entry, kb))
    schema_refuses = bool(_schema_errors("entry", entry))
    assert lint_refuses == schema_refuses, f"without '{field}': lint refuses {lint_refuses}, schema {schema_refuses}"


def _set(path: tuple, value: Any) -> Callable[[dict], None]:
    def change(entry: dict) -> None:
        *parents, last = path
        for key in parents:
            entry = entry[key]
        entry[last] = value
    return change


def _drop(path: tuple) -> Callable[[dict], None]:
    def change(entry: dict) -> None:
        *parents, last = path
        for key in parents:
            entry = entry[key]
        del entry[last]
    return change


BROKEN_ENTRIES: list[tuple[str, Callable[[dict], None]]] = [
    ("an unknown field", _set(("sympthoms",), [])),
    ("an unknown symptom field", _set(("symptoms", 0, "wieght"), 0.5)),
    ("an unknown test field", _set(("tests", 0, "expected"), "none")),
    ("an unknown fix list", _set(("fixes", "workarounds"), ["restart"])),
    ("an unknown step field", _set(("fixes", "workaround", 0, "cmd"), ["ls"])),
    ("an unknown applies_to field", _set(("applies_to", "cuda"), ">=12")),
    ("a symptom without id", _drop(("symptoms", 0, "id"))),
    ("a test without log", _drop(("tests", 0, "log"))),
    ("a step without text", _drop(("fixes", "workaround", 0, "text"))),
    ("a title that is a list", _set(("title",), ["two", "lines"])),
    ("a blank cause", _set(("cause",), "  ")),
    ("echo as a word", _set(("echo",), "yes")),
    ("a weight as a word", _set(("symptoms", 0, "weight"), "high")),
    ("a weight above 1", _set(("symptoms", 0, "weight"), 2)),
    ("a min_score below 50", _set(("symptoms", 0, "min_score"), 10)),
    ("an unknown severity", _set(("severity",), "urgent")),
    ("an unknown status", _set(("status",), "draft")),
    ("a citation without section", _set(("citations",), ["lccl-allreduce-flag-cleanup"])),
    ("no citations", _set(("citations",), [])),
    ("a malformed error code", _set(("error_codes",), ["E1"])),
    ("an id that is no dotted slug", _set(("id",), "LCCL_flag")),
    ("a symptom with signature and regex", _set(("symptoms", 0, "signature"), "fault kernel_name=LcalAllReduce")),
    ("a regex symptom without anchors", _drop(("symptoms", 0, "anchors"))),
    ("a fact test with two operators", _set(("conditions",), {"fact": "kernel_name", "equals": "x", "regex": "x"})),
    ("an unknown combinator", _set(("conditions",), {"xor": [{"fact": "kernel_name", "exists": True}]})),
    ("an empty 'all'", _set(("conditions",), {"all": []})),
    ("'exists' with a word", _set(("conditions",), {"fact": "kernel_name", "exists": "maybe"})),
    ("a test expecting nothing", _drop(("tests", 0, "expect"))),
    ("empty fixes", _set(("fixes",), {"workaround": []})),
    ("a fact name in answers that is no fact name", _set(("tests", 0, "answers"), {"Kernel Name": "x"})),
]


@pytest.mark.parametrize("what, change", BROKEN_ENTRIES, ids=[what for what, _ in BROKEN_ENTRIES])
def test_an_entry_lint_refuses_for_its_shape_is_refused_by_the_schema(what, change, base_entry, kb):
    entry = copy.deepcopy(base_entry)
    change(entry)
    assert _lint_problems(entry, kb), f"lint accepts {what}"
    assert _schema_errors("entry", entry), f"the schema accepts {what}"
