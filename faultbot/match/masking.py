"""Masking the variable parts of a log message, Drain3-style, so that signatures compare shapes.

The masks are KB data (``kb/masks.yaml``, carried by the compiled KB as ``KnowledgeBase.masks``):
an ordered table of regexes and the placeholder each becomes. One ``Masker`` masks both the KB's
signatures and the log's records, so an example value written in a signature never has to equal
the log's value.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..kb.model import Mask

# A placeholder a signature's author may write by hand for "anything here".
WRITTEN_PLACEHOLDER = "<*>"
_SPACES = re.compile(r"\s+")


class Masker:
    """A KB's masks, compiled, in the order they are applied."""

    def __init__(self, masks: Sequence[Mask]):
        self._masks = tuple((re.compile(mask.regex), mask.token) for mask in masks)
        tokens = sorted({WRITTEN_PLACEHOLDER, *(mask.token for mask in masks)})
        self._placeholder = re.compile("|".join(map(re.escape, tokens)))

    def mask(self, message: str) -> str:
        """``message`` with its variable parts replaced by typed placeholders and spaces folded."""
        for pattern, token in self._masks:
            message = pattern.sub(token, message)
        return _SPACES.sub(" ", message).strip()

    def literal_runs(self, masked: str) -> list[str]:
        """The literal stretches of a masked message, longest first (candidates for prefilter anchors)."""
        runs = [run.strip(" ,.:;[](){}") for run in self._placeholder.split(masked)]
        return sorted((run for run in runs if len(run) >= 4), key=len, reverse=True)
