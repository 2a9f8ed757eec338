"""The field readers every KB schema module uses: problems name the line the YAML gave each value,
and a mapping built in code (not read through yaml_source) still reports at the field's own line."""

from __future__ import annotations

from faultbot.kb.fields import Fields, Problems
from faultbot.kb.yaml_source import parse_yaml


def test_problems_name_the_line_of_the_value_the_yaml_gave():
    document = parse_yaml("id: x\ntitle: 3\nextra: 1\n", "entry.yaml")
    problems = Problems("entry.yaml")
    fields = Fields(document, "entry", problems, 1, ("id", "title"))
    fields.text("title")
    assert sorted((p.line, p.message) for p in problems.found) == [
        (2, "field 'title' of entry must be text, found a number"), (3, "unknown field 'extra' in entry")]


def test_a_plain_mapping_built_in_code_reports_at_the_fields_own_line():
    problems = Problems("generated")
    fields = Fields({"when": {"fact": "x"}, "items": [1, "two"], "bogus": 1}, "condition", problems, 42,
                    ("when", "items"))
    assert fields.mapping_of("when") == {"fact": "x"} and fields.mapping_of("missing") == {}
    assert [value for _, value in fields.items("items")] == [1, "two"]
    assert [p.line for p in problems.found] == [42]   # the unknown field, at the line given
