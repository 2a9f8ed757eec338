"""What the chat shows for one input: Markdown, or a one-line error; never printed here."""

from __future__ import annotations

import msgspec

from ..engine.candidates import Candidate


class Reply(msgspec.Struct, frozen=True):
    markdown: str = ""
    error: str = ""                       # one line, shown as an error
    conclusion: Candidate | None = None   # shown first, coloured by its confidence
    quit: bool = False
    notice: str = ""                      # one line about the chat itself (its transcript no longer saved)
