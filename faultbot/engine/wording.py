"""How facts and condition tests read in explanations and questions (``cann_version version in <8.2.RC1``)."""

from __future__ import annotations

from ..kb.model import FactRef, FactTest


def show_value(value: object) -> str:
    return "yes" if value is True else "no" if value is False else str(value)


def describe_test(test: FactTest) -> str:
    value = test.value
    if isinstance(value, FactRef):
        shown = value.fact
    elif isinstance(value, tuple):
        shown = "[" + ", ".join(map(show_value, value)) + "]"
    else:
        shown = show_value(value)
    return f"{test.fact} {test.op.value.replace('_', ' ')} {shown}"
