"""The 'Inputs skipped' block of a diagnosis in text: each input set aside or read in part with its
reason, shown safe to print whatever its name holds, the first few and a count of the rest."""

from __future__ import annotations

from faultbot.ingest.stats import SKIPPED_SHOWN, InputStats, SkippedFile
from faultbot.render.diagnosis_json import input_dict
from faultbot.render.diagnosis_markdown import skipped_input_lines


def test_nothing_skipped_adds_nothing() -> None:
    assert skipped_input_lines(None) == [] and skipped_input_lines(InputStats()) == []


def test_names_and_reasons_cannot_reach_the_terminal_or_break_the_list() -> None:
    stats = InputStats(skipped=(SkippedFile("logs/\x1b]0;owned\x07a`b\nc.log", "binary:\x1b[2J cleared"),))
    assert skipped_input_lines(stats) == [
        "", "## Inputs skipped or partly read", "",
        "- ``logs/\\x1b]0;owned\\x07a`b\\nc.log`` — binary:\\x1b[2J cleared",
    ]


def test_the_first_are_named_and_the_rest_counted() -> None:
    notes = tuple(SkippedFile(f"rank-{n}.bin", "binary file type (.bin)") for n in range(SKIPPED_SHOWN + 1_234))
    lines = skipped_input_lines(InputStats(skipped=notes))
    assert lines[3:-1] == [f"- `rank-{n}.bin` — binary file type (.bin)" for n in range(SKIPPED_SHOWN)]
    assert lines[-1] == "- … and 1,234 more (`--format json` lists them all)"


def test_json_lists_them_all_with_a_count() -> None:
    notes = tuple(SkippedFile(f"rank-{n}.bin", "binary file type (.bin)") for n in range(SKIPPED_SHOWN + 5))
    shown = input_dict(InputStats(skipped=notes))
    assert shown["skipped_count"] == len(notes)
    assert shown["skipped_files"] == [{"name": note.name, "reason": note.reason} for note in notes]
