"""Records still open while the lines of a source are read, and the reading state."""

from __future__ import annotations

import msgspec

from faultbot.ingest.fields import Parsed
from faultbot.ingest.normalize import CleanLine, Labels
from faultbot.ingest.pathinfo import NO_HINTS, PathHints

NO_LEAD = 1 << 30  # block_lead before a block's first line


class SourceContext(msgspec.Struct, frozen=True):
    """The source being read: its name and what its path says."""

    source: str
    hints: PathHints = NO_HINTS


class OpenRecord(msgspec.Struct, frozen=True):
    """A record whose further lines may still follow."""

    line: int
    text: str          # the record's first logical line, from its raw start (prefixes included)
    body_start: int    # where, in ``text``, the parsed content starts
    labels: Labels
    parsed: Parsed
    lead: int          # leading whitespace of the line the record starts on
    indent: int        # its indentation, counting whitespace after launcher prefixes too
    notes: tuple[str, ...]
    extra: tuple[CleanLine, ...] = ()  # further lines of a traceback or error block
    after_frame: bool = False          # Python traceback: the last line was a File "..." frame
    closed: bool = False               # Python traceback: ended by its exception line


class ReadState(msgspec.Struct, frozen=True):
    """Where reading a source stands: the open record, the line before, wrap widths seen."""

    current: OpenRecord | None = None
    previous: CleanLine | None = None  # the line before, None after a blank line
    widest: int = 0                    # longest line so far
    wrap_width: int | None = None      # width the source was hard-wrapped at, once seen
    block_lead: int = NO_LEAD          # least indentation since the last blank line
