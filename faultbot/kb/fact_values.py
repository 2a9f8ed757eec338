"""Turning text into a typed fact value (answers, extracted log values, KB literals).

One function per type, chosen by the fact's spec, so that an answer typed by an engineer and a
value pulled from a log are compared on the same footing. Bad text raises ``ValueError`` with the
reason, which the REPL shows when it asks again.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .model import FactSpec, FactType
from .versions import VersionError, parse_version

FactValue = object

_TRUE = {"true", "yes", "y", "1", "on", "enabled", "是", "对", "有", "是的"}
_FALSE = {"false", "no", "n", "0", "off", "disabled", "否", "不", "没有", "不是"}
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?)?\s*$", re.I)
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600}


def _as_int(text: str) -> int:
    try:
        return int(text.strip().replace("_", ""), 0)
    except ValueError:
        raise ValueError(f"'{text}' is not a whole number (e.g. 12 or 0x15)") from None


def _as_float(text: str) -> float:
    try:
        return float(text.strip())
    except ValueError:
        raise ValueError(f"'{text}' is not a number") from None


def _as_seconds(text: str) -> int:
    match = _DURATION.match(text)
    if not match:
        raise ValueError(f"'{text}' is not a duration (e.g. 1836, 300s, 5min)")
    unit = (match.group(2) or "s")[0].lower()
    return round(float(match.group(1)) * _UNIT_SECONDS[unit])


def _as_bool(text: str) -> bool:
    word = text.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError(f"'{text}' is not yes or no")


def _as_enum(spec: FactSpec, text: str) -> str:
    wanted = " ".join(text.split()).lower()
    for value in spec.values:
        if value.lower() == wanted:
            return value
    for alias, canonical in spec.aliases:
        if alias.lower() == wanted:
            return canonical
    raise ValueError(f"'{text}' is not one of: {', '.join(spec.values)}")


def coerce(spec: FactSpec, value: object) -> FactValue:
    """The typed value of ``value`` for fact ``spec``; raises ValueError saying why it is not one."""
    if isinstance(value, bool) and spec.type is not FactType.BOOL:
        raise ValueError(f"true/false is not a {spec.type.value}")
    if spec.type is FactType.STRING:
        text = str(value).strip()
        if not text:
            raise ValueError("empty value")
        return text
    if spec.type is FactType.VERSION:
        assert spec.scheme is not None
        try:
            return parse_version(str(value), spec.scheme)
        except VersionError as exc:
            raise ValueError(str(exc)) from None
    if spec.type is FactType.ENUM:
        return _as_enum(spec, str(value))
    if isinstance(value, (int, float)) and spec.type in (FactType.INT, FactType.FLOAT, FactType.SECONDS):
        return value if spec.type is not FactType.INT or isinstance(value, int) else _as_int(str(value))
    if isinstance(value, bool):
        return value
    converters: dict[FactType, Callable[[str], FactValue]] = {
        FactType.INT: _as_int, FactType.FLOAT: _as_float,
        FactType.SECONDS: _as_seconds, FactType.BOOL: _as_bool,
    }
    return converters[spec.type](str(value))


NUMERIC_TYPES = frozenset({FactType.INT, FactType.FLOAT, FactType.SECONDS})
