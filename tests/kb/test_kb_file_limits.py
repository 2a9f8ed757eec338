"""The limits every KB file is read under, at their edges: size, nesting, number of values, control
characters; and problems printed on one line with nothing a terminal would act on."""

from __future__ import annotations

from pathlib import Path

import pytest

from faultbot.kb.diagnostics import Problem
from faultbot.kb.kb_error import KbError
from faultbot.kb.yaml_source import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, load_yaml, parse_yaml, read_kb_file


def refusal(call) -> Problem:
    with pytest.raises(KbError) as caught:
        call()
    (problem,) = caught.value.problems
    return problem


def test_a_file_at_the_size_limit_is_read_and_one_byte_more_is_not(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_bytes(b"#" + b" " * (MAX_FILE_BYTES - 2) + b"\n")
    assert len(read_kb_file(path, "kb/big.yaml")) == MAX_FILE_BYTES
    path.write_bytes(b"#" + b" " * (MAX_FILE_BYTES - 1) + b"\n")
    problem = refusal(lambda: read_kb_file(path, "kb/big.yaml"))
    assert str(problem).startswith(f"kb/big.yaml:1: file is {MAX_FILE_BYTES + 1} bytes, over the limit")


def test_nesting_to_the_limit_is_read_and_one_level_more_is_refused_where_it_starts() -> None:
    def nested(depth: int) -> str:
        return "".join(" " * level + "k:\n" for level in range(depth - 1)) + " " * (depth - 1) + "k: [x]\n"

    assert parse_yaml(nested(MAX_DEPTH - 1), "kb/x.yaml") is not None   # mappings and the last list
    problem = refusal(lambda: parse_yaml(nested(MAX_DEPTH), "kb/x.yaml"))
    assert str(problem).startswith(f"kb/x.yaml:{MAX_DEPTH}: invalid YAML: nested more than {MAX_DEPTH} levels deep")


def test_values_to_the_limit_are_read_and_one_more_is_refused() -> None:
    def items(count: int) -> str:       # a list of count - 1 scalars: count values with the list
        return "[" + ",".join(["a"] * (count - 1)) + "]"

    assert len(parse_yaml(items(MAX_NODES), "kb/x.yaml")) == MAX_NODES - 1
    assert refusal(lambda: parse_yaml(items(MAX_NODES + 1), "kb/x.yaml")).message == (
        f"invalid YAML: more than {MAX_NODES} values in one file")


def test_an_anchor_is_refused_even_when_nothing_refers_to_it() -> None:
    assert str(refusal(lambda: parse_yaml("a: 1\nb: &x 2\n", "kb/x.yaml"))).startswith(
        "kb/x.yaml:2: invalid YAML: anchors and aliases are not allowed")


def test_crlf_line_ends_and_tabs_are_text_and_a_lone_carriage_return_is_not(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"a: 1\r\nb: \"x\ty\"\r\n")
    assert load_yaml(path, "kb/x.yaml") == {"a": 1, "b": "x\ty"}
    path.write_bytes(b"a: 1\nb: 2\rc: 3\n")
    assert str(refusal(lambda: load_yaml(path, "kb/x.yaml"))).startswith(
        "kb/x.yaml:2: text holds control character U+000D")


@pytest.mark.parametrize(("text", "code"), [('a: "\\e[2J"\n', "U+001B"), ('a: "\\x9b"\n', "U+009B"),
                                            ('a: "\\u202e"\n', "U+202E"), ("a:\n  - ok\n  - \"\\0\"\n", "U+0000")])
def test_an_escaped_control_character_in_a_value_is_refused_at_the_value(text: str, code: str) -> None:
    problem = refusal(lambda: parse_yaml(text, "kb/x.yaml"))
    assert problem.line == text.count("\n") and problem.message == f"invalid YAML: a value holds control character {code}"


def test_a_problem_prints_on_one_line_with_control_characters_escaped() -> None:
    shown = str(Problem("kb/\x1b]0;title\x07.yaml", 3, "heading 'a\nb\u202ec' is odd", "fix\r\nit"))
    assert shown == "kb/\\x1b]0;title\\x07.yaml:3: heading 'a\\nb\\u202ec' is odd — fix\\r\\nit"
