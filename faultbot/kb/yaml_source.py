"""Safe YAML reading that remembers where every value came from.

KB files are untrusted: only plain YAML (no tags, anchors or aliases) is accepted, and each
mapping and sequence keeps the line of each key and item so that errors can name file:line.
"""

from __future__ import annotations

import stat
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


# libyaml's parser (C) where PyYAML was built with it, else the pure-Python one: the same YAML,
# the same marks, several times faster.
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_DEPTH = 64


class _LineLoader(_SafeLoader):  # type: ignore[misc, valid-type]
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


def _check_shape(root: yaml.Node) -> None:
    """Refuse aliases (a node reached twice: the alias bombs of untrusted YAML) and nesting deeper
    than MAX_DEPTH, before anything is built from the nodes."""
    seen: set[int] = set()
    pending = [(root, 1)]
    while pending:
        node, depth = pending.pop()
        if id(node) in seen:
            raise yaml.MarkedYAMLError("while reading the KB", None, "anchors and aliases are not allowed",
                                       node.start_mark)
        seen.add(id(node))
        if depth > MAX_DEPTH:
            raise yaml.MarkedYAMLError("while reading the KB", None, f"nested more than {MAX_DEPTH} levels deep",
                                       node.start_mark)
        if isinstance(node, yaml.MappingNode):
            pending += [(child, depth + 1) for pair in node.value for child in pair]
        elif isinstance(node, yaml.SequenceNode):
            pending += [(child, depth + 1) for child in node.value]


_LineLoader.add_constructor("tag:yaml.org,2002:map", _LineLoader.construct_mapping)
_LineLoader.add_constructor("tag:yaml.org,2002:seq", _LineLoader.construct_sequence)
# Dates and timestamps stay strings: a KB value is what the author wrote.
_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", yaml.SafeLoader.construct_yaml_str)


def parse_yaml(text: str, shown_as: str) -> Any:
    """Parse KB text; raise KbError naming ``shown_as``:line when it is not plain, safe YAML."""
    loader = _LineLoader(text)
    try:
        root = loader.get_single_node()
        if root is None:
            return None
        _check_shape(root)
        return loader.construct_document(root)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        raise KbError([Problem(shown_as, line, f"invalid YAML: {exc.problem}",
                               "fix the syntax (plain YAML: no tags, anchors or aliases)")]) from None
    except yaml.YAMLError as exc:
        raise KbError([Problem(shown_as, 1, f"invalid YAML: {exc}")]) from None
    except RecursionError:
        raise KbError([Problem(shown_as, 1, "invalid YAML: nested too deeply",
                               f"keep KB files under {MAX_DEPTH} levels of nesting")]) from None
    finally:
        loader.dispose()


def read_kb_file(path: Path, shown_as: str, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a KB file: a regular UTF-8 file of at most ``limit`` bytes, checked before
    anything is read (a FIFO or a link to a device is never opened)."""
    try:
        status = path.stat()
    except OSError as exc:
        raise KbError([Problem(shown_as, 1, f"cannot read file: {exc.strerror}")]) from None
    if not stat.S_ISREG(status.st_mode):
        raise KbError([Problem(shown_as, 1, "not a regular file", "KB files are plain text files")])
    if status.st_size > limit:
        raise KbError([Problem(shown_as, 1, f"file is {status.st_size} bytes, over the {limit >> 20} MiB limit",
                               "split it: one fault per file")])
    try:
        with path.open("rb") as handle:
            data = handle.read(limit + 1)
    except OSError as exc:
        raise KbError([Problem(shown_as, 1, f"cannot read file: {exc.strerror}")]) from None
    if len(data) > limit:
        raise KbError([Problem(shown_as, 1, f"file grew over the {limit >> 20} MiB limit while read",
                               "split it: one fault per file")])
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise KbError([Problem(shown_as, line, "file is not UTF-8", "save it as UTF-8")]) from None


def load_yaml(path: Path, shown_as: str) -> Any:
    """Parse one KB file; raise KbError naming ``shown_as``:line when it cannot be used."""
    return parse_yaml(read_kb_file(path, shown_as), shown_as)
