"""Filling ``{fact}`` placeholders of KB text and commands with values from the diagnosis."""

from __future__ import annotations

import re

from .facts import WorkingMemory
from .wording import show_value

_PLACEHOLDER = re.compile(r"\{([a-z][a-z0-9_]*)\}")


def fill(template: str, memory: WorkingMemory) -> str:
    """``template`` with each ``{fact}`` replaced by its first known value, or ``<fact>`` when unknown."""
    def value(match: re.Match[str]) -> str:
        values = memory.values(match.group(1))
        return show_value(values[0]) if values else f"<{match.group(1)}>"
    return _PLACEHOLDER.sub(value, template)
