"""Safe YAML reading that remembers where every value came from.

KB files are untrusted: only plain YAML (no tags, anchors or aliases) is accepted, and each
mapping and sequence keeps the line of each key and item so that errors can name file:line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .diagnostics import KbError, Problem

MAX_FILE_BYTES = 1 << 20


class LineDict(dict):
    """A mapping from a KB file: ``line`` is where it starts, ``key_lines[key]`` where each key is."""

    line: int = 0
    key_lines: dict[str, int]

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LineList(list):
    """A sequence from a KB file: ``item_lines[i]`` is where item i starts."""

    line: int = 0
    item_lines: list[int]

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if index < len(self.item_lines) else self.line


class _LineLoader(yaml.SafeLoader):
    def compose_node(self, parent, index):  # type: ignore[override]
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise yaml.MarkedYAMLError(
                "while reading the KB", None, "anchors and aliases are not allowed", event.start_mark
            )
        return super().compose_node(parent, index)

    def construct_mapping(self, node, deep=False):  # type: ignore[override]
        mapping = LineDict()
        mapping.line = node.start_mark.line + 1
        mapping.key_lines = {}
        for key_node, value_node in node.value:
            key = self.construct_object(key_node, deep=True)
            if not isinstance(key, str):
                raise yaml.MarkedYAMLError(
                    "while reading a mapping", node.start_mark,
                    f"keys must be strings, found {key!r}", key_node.start_mark,
                )
            if key in mapping:
                raise yaml.MarkedYAMLError(
                    "while reading a mapping", node.start_mark,
                    f"duplicate key {key!r}", key_node.start_mark,
                )
            mapping[key] = self.construct_object(value_node, deep=True)
            mapping.key_lines[key] = key_node.start_mark.line + 1
        return mapping

    def construct_sequence(self, node, deep=False):  # type: ignore[override]
        sequence = LineList(self.construct_object(child, deep=True) for child in node.value)
        sequence.line = node.start_mark.line + 1
        sequence.item_lines = [child.start_mark.line + 1 for child in node.value]
        return sequence


_LineLoader.add_constructor("tag:yaml.org,2002:map", _LineLoader.construct_mapping)
_LineLoader.add_constructor("tag:yaml.org,2002:seq", _LineLoader.construct_sequence)
# Dates and timestamps stay strings: a KB value is what the author wrote.
_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", yaml.SafeLoader.construct_yaml_str)


def load_yaml(path: Path, shown_as: str) -> Any:
    """Parse one KB file; raise KbError naming ``shown_as``:line when it is not plain, safe YAML."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise KbError([Problem(shown_as, 1, f"cannot read file: {exc.strerror}")]) from None
    if len(data) > MAX_FILE_BYTES:
        raise KbError([Problem(shown_as, 1, f"file is {len(data)} bytes, over the 1 MiB limit",
                               "split it: one fault per file")])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise KbError([Problem(shown_as, line, "file is not UTF-8", "save it as UTF-8")]) from None
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        raise KbError([Problem(shown_as, line, f"invalid YAML: {exc.problem}",
                               "fix the syntax (plain YAML: no tags, anchors or aliases)")]) from None
    except yaml.YAMLError as exc:
        raise KbError([Problem(shown_as, 1, f"invalid YAML: {exc}")]) from None
