"""Reading typed fields out of a YAML mapping while collecting every problem with its line.

The entry and fact-catalogue schemas are written with this, so that one bad field is reported
and the rest of the file is still checked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from difflib import get_close_matches
from enum import Enum
from typing import Any, Protocol, TypeVar, overload

from .diagnostics import Problem
from .yaml_source import LineDict, LineList

E = TypeVar("E", bound=Enum)
T = TypeVar("T")


class _HasId(Protocol):
    @property
    def id(self) -> str: ...


Item = TypeVar("Item", bound=_HasId)


class Problems:
    """The problems found in one file so far."""

    def __init__(self, file: str):
        self.file = file
        self.found: list[Problem] = []

    def add(self, line: int, message: str, hint: str = "") -> None:
        self.found.append(Problem(self.file, line, message, hint))


_TYPE_NAMES: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (bool, "true/false"), (dict, "a mapping"), (list, "a list"), (str, "text"), ((int, float), "a number"),
)


def _type_name(value: Any) -> str:
    if value is None:
        return "nothing"
    return next((name for kind, name in _TYPE_NAMES if isinstance(value, kind)), type(value).__name__)


class Fields:
    """A view on one mapping of a KB file; every getter reports into ``problems``."""

    def __init__(self, mapping: Any, what: str, problems: Problems, line: int, allowed: Iterable[str]):
        self.what = what
        self.problems = problems
        self.ok = isinstance(mapping, dict)
        self.mapping: dict[str, Any] = mapping if self.ok else {}
        self.line = getattr(mapping, "line", line)
        if not self.ok:
            problems.add(line, f"{what} must be a mapping, found {_type_name(mapping)}")
            return
        allowed = tuple(allowed)
        for key in mapping:
            if key not in allowed:
                close = get_close_matches(key, allowed, n=1)
                hint = f"did you mean '{close[0]}'?" if close else f"allowed: {', '.join(allowed)}"
                problems.add(self.line_of(key), f"unknown field '{key}' in {what}", hint)

    def line_of(self, key: str) -> int:
        return self.mapping.line_of(key) if isinstance(self.mapping, LineDict) else self.line

    def has(self, key: str) -> bool:
        return key in self.mapping

    def raw(self, key: str, default: Any = None) -> Any:
        return self.mapping.get(key, default)

    def _get(self, key: str, required: bool, expected: tuple[type[T], ...], label: str) -> T | None:
        """The value under ``key`` when it is one of ``expected``; None (reported when it matters)
        when it is absent, null or of another type."""
        if key not in self.mapping or self.mapping[key] is None:
            if required:
                self.problems.add(self.line, f"{self.what} is missing required field '{key}'",
                                  f"add '{key}:' ({label})")
            return None
        value = self.mapping[key]
        if isinstance(value, expected) and (bool in expected or not isinstance(value, bool)):
            return value
        self.problems.add(self.line_of(key), f"field '{key}' of {self.what} must be {label}, "
                          f"found {_type_name(value)}")
        return None

    def text(self, key: str, required: bool = True, default: str = "") -> str:
        value = self._get(key, required, (str,), "text")
        if value is None:
            return default
        if required and not value.strip():
            self.problems.add(self.line_of(key), f"field '{key}' of {self.what} is empty")
        return value.strip()

    def number(self, key: str, default: float, low: float, high: float) -> float:
        value = self._get(key, False, (int, float), "a number")
        if value is None:
            return default
        if not low <= value <= high:
            self.problems.add(self.line_of(key), f"field '{key}' of {self.what} is {value}, "
                              f"outside {low}..{high}")
            return default
        return float(value)

    def flag(self, key: str, default: bool = False) -> bool:
        value = self._get(key, False, (bool,), "true or false")
        return default if value is None else value

    @overload
    def choice(self, key: str, enum: type[E], required: bool = True, *, default: E) -> E: ...

    @overload
    def choice(self, key: str, enum: type[E], required: bool = True, default: None = None) -> E | None: ...

    def choice(self, key: str, enum: type[E], required: bool = True, default: E | None = None) -> E | None:
        value = self._get(key, required, (str,), f"one of {', '.join(e.value for e in enum)}")
        if value is None:
            return default
        try:
            return enum(value)
        except ValueError:
            self.problems.add(self.line_of(key), f"field '{key}' of {self.what} is '{value}'",
                              f"use one of: {', '.join(e.value for e in enum)}")
            return default

    def mapping_of(self, key: str, required: bool = False) -> LineDict:
        """The mapping under ``key``; an empty one when it is absent or not a mapping (reported)."""
        value = self._get(key, required, (dict,), "a mapping")
        if isinstance(value, LineDict):
            return value
        # absent, or a plain dict (not read by yaml_source), which has no lines of its own: its key's stands in
        return LineDict(value, self.line_of(key))

    def items(self, key: str, required: bool = False, min_items: int = 0) -> list[tuple[int, Any]]:
        """The list under ``key`` as (line, item) pairs; a lone scalar counts as a one-item list."""
        value = self._get(key, required, (list, str), "a list")
        if value is None:
            return []
        if isinstance(value, str):
            pairs = [(self.line_of(key), value)]
        elif isinstance(value, LineList):
            pairs = [(value.line_of(i), item) for i, item in enumerate(value)]
        else:  # a plain list has no lines of its own: its key's line stands in
            pairs = [(self.line_of(key), item) for item in value]
        if len(pairs) < min_items:
            self.problems.add(self.line_of(key), f"field '{key}' of {self.what} needs at least "
                              f"{min_items} item(s), found {len(pairs)}")
        return pairs

    def strings(self, key: str, required: bool = False, min_items: int = 0) -> tuple[str, ...]:
        out = []
        for line, item in self.items(key, required, min_items):
            if isinstance(item, (str, int, float)) and not isinstance(item, bool):
                out.append(str(item).strip())
            else:
                self.problems.add(line, f"items of '{key}' in {self.what} must be text, "
                                  f"found {_type_name(item)}")
        return tuple(out)


def items_with_unique_ids(documents: list[tuple[Any, Problems]], key: str, kind: str,
                          parse: Callable[[Any, Problems, int], Item | None]) -> tuple[Item, ...]:
    """Every item under ``key:`` of several files (``kb/rules.yaml`` and ``kb/rules/*.yaml`` ...),
    parsed by ``parse(item, problems, line)``; an id used twice is reported where it repeats."""
    found: list[Item] = []
    seen: dict[str, str] = {}
    for raw, problems in documents:
        top = Fields(raw, f"the {key} file", problems, 1, (key,))
        for line, item in top.items(key):
            parsed = parse(item, problems, line)
            if parsed is None:
                continue
            ident = parsed.id
            if ident in seen:
                problems.add(line, f"duplicate {kind} id '{ident}' (first in {seen[ident]})")
            seen.setdefault(ident, f"{problems.file}:{line}")
            found.append(parsed)
    return tuple(found)
