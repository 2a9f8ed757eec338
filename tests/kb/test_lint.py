"""`faultbot kb lint` catches every error class, each with file:line and what to do."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from faultbot.cli.main import MAX_PROBLEMS_SHOWN, main

from ..conftest import REPO_DIR, TESTS_DIR

BROKEN = TESTS_DIR / "data" / "broken_kb" / "kb"

# (file:line prefix, words the message must contain): one row per error class the linter knows.
EXPECTED = [
    ("kb/entries/demo/demo.unknown-field.yaml:6:", "unknown field 'sympthoms'", "did you mean 'symptoms'"),
    ("kb/entries/demo/demo.missing-title.yaml:1:", "missing required field 'title'", "add 'title:'"),
    ("kb/entries/demo/demo.wrong-type.yaml:12:", "field 'cause' of the entry must be text", ""),
    ("kb/entries/demo/demo.valid.yaml:1:", "duplicate id 'demo.valid'", "ids must be unique"),
    ("kb/entries/demo/demo.duplicate.yaml:1:", "holds 'demo.valid'", "rename it"),
    ("kb/entries/demo/demo.unknown-fact.yaml:12:", "unknown fact 'kernal_name'", "declare it"),
    ("kb/entries/demo/demo.bad-regex.yaml:9:", "unterminated subpattern", "fix the regex"),
    ("kb/entries/demo/demo.redos.yaml:9:", "nested", "fix the regex"),
    ("kb/entries/demo/demo.bad-range.yaml:8:", "bad cann version range '>=8.x'", "8.0.RC2"),
    ("kb/entries/demo/demo.bad-citation.yaml:14:", "'#no-such-section', which is not a section", "cite an existing"),
    ("kb/entries/demo/demo.bad-citation.yaml:14:", "unknown article 'missing-article'", "cite an existing"),
    ("kb/entries/demo/demo.no-negative.yaml:15:", "has no negative test", "expect_not: demo.no-negative"),
    ("kb/entries/demo/demo.no-positive.yaml:15:", "has no positive test", "expect: demo.no-positive"),
    ("kb/entries/demo/demo.orphan.child.yaml:1:", "refines 'demo.orphan', which does not exist", "add the parent"),
    ("kb/entries/demo/demo.bad-yaml.yaml:3:", "invalid YAML", "fix the syntax"),
    ("kb/entries/demo/demo.words-form.yaml:9:", "has form 'words'", "use plog, screen or any"),
    ("kb/facts.yaml:12:", "'type' of fact 'mode' is 'colour'", "use one of"),
    ("kb/facts.yaml:17:", "captures 'kernel_nam', which is not a fact", "declare the fact"),
    ("articles/demo-article.md:18:", "has no {#slug} anchor", "end it with"),
    ("articles/demo-article.md:22:", "'Asked as' line lists no question", "separated by ';'"),
    ("kb/decoders/demo-broken.yaml:4:", "decoder 'reads-unknown-fact' reads unknown fact 'kernal_name'", "declare it"),
    ("kb/decoders/demo-broken.yaml:14:", "'hex' reads a text field; 'cann_version' is version", "use 'equals'"),
    ("kb/decoders/demo-broken.yaml:15:", "decoder 'bad-cases' cites '#no-such-section'", ""),
    ("kb/decoders/demo-broken.yaml:20:", "nested quantifier", "fix the regex"),
    ("kb/decoders/demo-broken.yaml:21:", "needs exactly one of hex, equals, in, regex; found equals, in", ""),
    ("kb/decoders/demo-broken.yaml:22:", "decoder case is missing required field 'means'", "add 'means:'"),
    ("kb/decoders/demo-broken.yaml:24:", "second case for Sub (first at line 23)", "merge the cases"),
    ("kb/vocabulary.yaml:4:", "needs the articles' word and at least one other", ""),
    ("kb/vocabulary.yaml:5:", "'stuck' is already in the group of 'hang'", "a phrase belongs to one group"),
    ("kb/vocabulary.yaml:8:", "unknown intent 'wishes'", "use one of: cause"),
    ("kb/vocabulary.yaml:9:", "unstated must be a non-empty list of phrases", ""),
    ("kb/vocabulary.yaml:10:", "context must be a non-empty list of phrases", ""),
]


@pytest.fixture(scope="module")
def lint_output() -> list[str]:
    completed = subprocess.run([sys.executable, "-m", "faultbot", "kb", "lint", "--kb", str(BROKEN)],
                               capture_output=True, text=True, timeout=120)
    assert completed.returncode == 1
    assert "Traceback" not in completed.stderr
    return completed.stderr.splitlines()


@pytest.mark.parametrize("where, message, hint", EXPECTED, ids=[row[1][:40] for row in EXPECTED])
def test_each_error_class_is_reported_with_file_line_and_hint(lint_output, where, message, hint):
    matching = [line for line in lint_output if line.startswith(where) and message in line]
    assert matching, f"no '{where} ... {message}' in:\n" + "\n".join(lint_output)
    assert hint in matching[0]


def test_valid_entries_of_the_broken_kb_are_not_reported(lint_output):
    assert not [line for line in lint_output if line.startswith("kb/entries/demo/demo.valid.yaml")
                and "duplicate" not in line]
    assert not [line for line in lint_output if line.startswith("kb/decoders/demo-valid.yaml")]


def test_shipped_kb_is_clean(capsys):
    assert main(["kb", "lint"]) == 0
    assert capsys.readouterr().out.startswith("ok: ")


def test_loading_a_broken_kb_at_run_time_reports_the_same_problems(capsys, lint_output):
    """The first problems lint reports, one line each, then how many more and where to see them all."""
    assert main(["kb", "list", "--kb", str(BROKEN)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert not any("Traceback" in line for line in lines)
    shown = [line for line in lines if ": " in line and not line.startswith(("...", "faultbot: error"))]
    assert len(shown) == MAX_PROBLEMS_SHOWN and all(any(line in out for out in lint_output) for line in shown)
    assert lines[-2].startswith("... and ") and "faultbot kb lint" in lines[-2]
    assert "run 'faultbot kb lint'" in lines[-1]


def test_fixing_the_problem_makes_lint_pass(tmp_path, capsys):
    kb_copy = tmp_path / "kb"
    shutil.copytree(BROKEN.parent, tmp_path, dirs_exist_ok=True)
    for path in (kb_copy / "entries" / "demo").glob("*.yaml"):
        if path.name != "demo.valid.yaml":
            path.unlink()
    (kb_copy / "decoders" / "demo-broken.yaml").unlink()
    (kb_copy / "vocabulary.yaml").write_text("synonyms:\n  - [hang, stuck, wedged]\nintents:\n  workaround: [what can I do now]\n")
    facts = (kb_copy / "facts.yaml").read_text()
    facts = facts.replace("type: colour", "type: string").replace("kernel_nam>", "kernel_name>")
    (kb_copy / "facts.yaml").write_text(facts)
    article = tmp_path / "articles" / "demo-article.md"
    article.write_text(article.read_text().replace("without an anchor", "with an anchor {#second}")
                       .replace("**Asked as:** ; ;", "**Asked as:** what is the demo; demo 是什么"))
    assert main(["kb", "lint", "--kb", str(kb_copy)]) == 0, capsys.readouterr().err


def test_kb_is_only_read_with_safe_yaml(tmp_path, capsys):
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    evil = tmp_path / "kb" / "entries" / "hccl" / "hccl.heartbeat.yaml"
    evil.write_text("id: !!python/object/apply:os.system ['touch pwned']\n")
    assert main(["kb", "lint", "--kb", str(tmp_path / "kb"), "--articles", str(REPO_DIR / "articles")]) == 1
    assert "invalid YAML" in capsys.readouterr().err
    assert not (tmp_path / "pwned").exists()


def test_a_fact_file_that_does_not_parse_is_reported_alone(tmp_path, capsys):
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    facts = tmp_path / "kb" / "facts" / "hccl-codes.yaml"
    facts.write_text(facts.read_text(encoding="utf-8") + "  - id: broken\n    anchors: [ret[]\n", encoding="utf-8")
    assert main(["kb", "lint", "--kb", str(tmp_path / "kb"), "--articles", str(REPO_DIR / "articles")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("kb/facts/hccl-codes.yaml:") and "invalid YAML" in err[0]
    assert "checked once the fact catalogue reads" in err[1]
    assert err[2] == f"2 problem(s) in {tmp_path / 'kb'}"


def test_a_torch_npu_submodule_of_the_wrong_length_is_named_with_its_line(tmp_path, capsys):
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    codes = tmp_path / "kb" / "codes.yaml"
    codes.write_text(codes.read_text(encoding="utf-8").replace('    "03": GRAPH', '    "3": GRAPH'), encoding="utf-8")
    assert main(["kb", "lint", "--kb", str(tmp_path / "kb"), "--articles", str(REPO_DIR / "articles")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("kb/codes.yaml:") and "submodule '3' must be 2 digits" in err[0]


def test_an_acl_class_of_the_wrong_length_and_a_bad_unclassified_code_are_named_with_their_lines(tmp_path, capsys):
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    codes = tmp_path / "kb" / "codes.yaml"
    text = codes.read_text(encoding="utf-8").replace('    "3": business', '    "30": business')
    codes.write_text(text.replace('unclassified: "500000"', 'unclassified: "5000"'), encoding="utf-8")
    assert main(["kb", "lint", "--kb", str(tmp_path / "kb"), "--articles", str(REPO_DIR / "articles")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert any(line.startswith("kb/codes.yaml:") and "class '30' must be 1 digits" in line for line in err)
    assert any(line.startswith("kb/codes.yaml:") and "unclassified '5000' must be 6 digits" in line for line in err)


def test_a_note_for_a_level_letter_the_codebook_lacks_is_named_with_its_line(tmp_path, capsys):
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    codes = tmp_path / "kb" / "codes.yaml"
    codes.write_text(codes.read_text(encoding="utf-8").replace("level_notes:\n", "level_notes:\n  X: never\n"),
                     encoding="utf-8")
    assert main(["kb", "lint", "--kb", str(tmp_path / "kb"), "--articles", str(REPO_DIR / "articles")]) == 1
    err = capsys.readouterr().err.splitlines()
    assert any(line.startswith("kb/codes.yaml:") and "level note for 'X'" in line for line in err)
