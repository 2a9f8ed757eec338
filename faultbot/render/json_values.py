"""A fact's value as JSON holds it: numbers, booleans and null as they are, times in ISO 8601,
anything else as its text. Shared by the diagnosis and the cluster JSON."""

from __future__ import annotations

from datetime import datetime


def json_value(value: object) -> object:
    if isinstance(value, (bool, int, float)) or value is None:
        return value
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)
