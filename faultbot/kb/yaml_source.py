"""Safe YAML reading that remembers where every value came from.

KB files are untrusted (they change by pull request): a file is read only when it is a regular file
of at most MAX_FILE_BYTES, and only plain YAML is accepted: no anchors or aliases (the "billion
laughs" bombs), at most MAX_DEPTH levels of nesting and MAX_NODES values, no control characters.
All of it is checked on the parser's event stream before any node is built, so a hostile file costs
no more than a pass over its text. Each mapping and sequence keeps the line of each key and item so
that errors can name file:line.
"""

from __future__ import annotations

import stat
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

from .control_chars import CONTROL_HINT, first_control
from .diagnostics import Problem
from .kb_error import KbError

MAX_FILE_BYTES = 1 << 20     # per KB file (entry, catalogue, article): the largest shipped is under 64 KiB
MAX_DEPTH = 64               # levels of nesting; KB files use fewer than 10
MAX_NODES = 50_000           # values (scalars, mappings, sequences) per file; kb/facts.yaml has under 2,000
_TOO_DEEP = (f"nested more than {MAX_DEPTH} levels deep", "flatten it: KB files need only a few levels")


class LineDict(dict[str, Any]):
    """A mapping from a KB file: ``line`` is where it starts, ``key_lines[key]`` where each key is."""

    def __init__(self, items: Mapping[str, Any] | None = None, line: int = 0,
                 key_lines: dict[str, int] | None = None) -> None:
        super().__init__(items or {})
        self.line = line
        self.key_lines: dict[str, int] = key_lines or {}

    def line_of(self, key: str) -> int:
        return self.key_lines.get(key, self.line)


class LineList(list[Any]):
    """A sequence from a KB file: ``item_lines[i]`` is where item i starts."""

    def __init__(self, items: Iterable[Any] = (), line: int = 0, item_lines: list[int] | None = None) -> None:
        super().__init__(items)
        self.line = line
        self.item_lines: list[int] = item_lines or []

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if index < len(self.item_lines) else self.line


# libyaml's parser (C) where PyYAML was built with it, else the pure-Python one: the same YAML,
# the same marks, several times faster.
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_SafeLoader):  # type: ignore[misc, valid-type]
    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> LineDict:
        mapping = LineDict(line=node.start_mark.line + 1)
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

    def construct_sequence(self, node: yaml.SequenceNode, deep: bool = False) -> LineList:
        return LineList((self.construct_object(child, deep=True) for child in node.value), node.start_mark.line + 1,
                        [child.start_mark.line + 1 for child in node.value])


class _Refused(Exception):
    """Plain YAML that the KB does not accept, at a parser mark."""

    def __init__(self, mark: yaml.Mark, message: str, hint: str):
        super().__init__(message)
        self.mark, self.message, self.hint = mark, message, hint


def _check_events(text: str) -> None:
    """Refuse anchors and aliases, nesting deeper than MAX_DEPTH, more than MAX_NODES values and
    control characters in values, from the parser's events: nothing is built, so an alias bomb or a
    file of a million tiny values costs one pass over the text."""
    depth = nodes = 0
    for event in yaml.parse(text, Loader=_SafeLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise _Refused(event.start_mark, "anchors and aliases are not allowed", "write the value out in full")
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                raise _Refused(event.start_mark, *_TOO_DEEP)
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
        if isinstance(event, yaml.NodeEvent):
            nodes += 1
            if nodes > MAX_NODES:
                raise _Refused(event.start_mark, f"more than {MAX_NODES} values in one file",
                               "split it into smaller files")
        if isinstance(event, yaml.ScalarEvent):
            found = first_control(event.value)
            if found is not None:
                raise _Refused(event.start_mark, f"a value holds {found.describe()}", CONTROL_HINT)


_LineLoader.add_constructor("tag:yaml.org,2002:map", _LineLoader.construct_mapping)
_LineLoader.add_constructor("tag:yaml.org,2002:seq", _LineLoader.construct_sequence)
# Dates and timestamps stay strings: a KB value is what the author wrote.
_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", yaml.SafeLoader.construct_yaml_str)


def parse_yaml(text: str, shown_as: str) -> Any:
    """Parse KB text, every mapping in it a LineDict and every sequence a LineList; raise KbError
    naming ``shown_as``:line when it is not plain, safe YAML."""
    loader = None
    try:
        _check_events(text)
        loader = _LineLoader(text)
        root = loader.get_single_node()
        return None if root is None else loader.construct_document(root)
    except _Refused as exc:
        line, message, hint = exc.mark.line + 1, exc.message, exc.hint
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        message, hint = str(exc.problem), "fix the syntax; quote values that hold ': ' or start with a special character"
        if "nesting depth" in message:  # libyaml's own limit, met while it looks ahead in [[[[...
            message, hint = _TOO_DEEP
    except yaml.YAMLError as exc:
        line, message, hint = 1, str(exc).splitlines()[0], ""
    except RecursionError:  # the pure-Python parser, without libyaml, recurses once per level
        line, (message, hint) = 1, _TOO_DEEP
    finally:
        if loader is not None:
            loader.dispose()
    raise KbError([Problem(shown_as, line, f"invalid YAML: {message}", hint)])


def read_kb_file(path: Path, shown_as: str, within: Path | None = None) -> str:
    """The text of a KB file: a regular UTF-8 file of at most MAX_FILE_BYTES without control
    characters, inside the folder ``within`` (when given) once links are followed. Its kind, place
    and size are checked before it is opened (a FIFO or a link to a device or to a secret never
    is), and no more than the limit is ever read (a file may grow meanwhile)."""
    try:
        status = path.stat()
    except OSError as exc:
        raise KbError([Problem(shown_as, 1, f"cannot read file: {exc.strerror}")]) from None
    if not stat.S_ISREG(status.st_mode):
        raise KbError([Problem(shown_as, 1, "not a regular file", "KB files are plain text files")])
    if within is not None and not path.resolve().is_relative_to(within.resolve()):
        raise KbError([Problem(shown_as, 1, f"links to a file outside {within.name}/",
                               "copy the file into the folder instead of linking to it")])
    if status.st_size > MAX_FILE_BYTES:
        raise KbError([_too_big(shown_as, f"file is {status.st_size} bytes")])
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise KbError([Problem(shown_as, 1, f"cannot read file: {exc.strerror}")]) from None
    if len(data) > MAX_FILE_BYTES:
        raise KbError([_too_big(shown_as, "file grew while read")])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise KbError([Problem(shown_as, line, "file is not UTF-8", "save it as UTF-8")]) from None
    found = first_control(text)
    if found is not None:
        raise KbError([Problem(shown_as, found.line, f"text holds {found.describe()}", CONTROL_HINT)])
    return text


def _too_big(shown_as: str, what: str) -> Problem:
    return Problem(shown_as, 1, f"{what}, over the limit of {MAX_FILE_BYTES} bytes ({MAX_FILE_BYTES >> 20} MiB)",
                   "split it: one fault per entry, one source per article")


def load_yaml(path: Path, shown_as: str, within: Path | None = None) -> Any:
    """Parse one KB file (see read_kb_file); raise KbError naming ``shown_as``:line when it cannot be used."""
    return parse_yaml(read_kb_file(path, shown_as, within), shown_as)
