"""Whether a line is the rest of the line before it, cut by a terminal's hard wrap."""

from __future__ import annotations

from faultbot.ingest.limits import ReadLimits
from faultbot.ingest.normalize import NO_LABELS, CleanLine, ends_with_label
from faultbot.ingest.pending import OpenRecord, ReadState
from faultbot.ingest.split import starts_record

# A line shorter than this was not cut by a terminal: nobody's terminal is that narrow.
WRAP_MIN_WIDTH = 40


def was_wrapped(
    current: OpenRecord, previous: CleanLine, line: CleanLine, state: ReadState, limits: ReadLimits
) -> bool:
    """Whether ``line`` is the rest of ``previous``, cut by a terminal or ``fold``.

    A hard-wrapped text has every cut line exactly as long as the wrap width and no line longer,
    so a first cut is only believed at the widest width seen so far (or where the text ended
    inside a header), and only if the next line does not start a record or carry a launcher
    prefix of its own. Once a cut is seen, every line of that width is taken as cut, whatever
    the next line starts with: a cut may land just before a record or inside a grep "path:",
    and the rejoined text is split again anyway.
    """
    width = len(previous.text)
    if state.wrap_width is not None:
        fits = width == state.wrap_width
    else:
        header_cut = current.parsed.truncated and not current.parsed.message and not current.extra
        fits = header_cut or (width >= WRAP_MIN_WIDTH and width == state.widest)
        if fits and (line.labels is not NO_LABELS or starts_record(line.text, line.lead)):
            # A line of its own, unless the line before ends in a label ("rank1: ", a grep
            # "path:") for it, or the cut fell at the space that glued this record on (log
            # lines neither end in a space nor start one column in).
            fits = (
                ends_with_label(previous.text)
                or previous.text[-1:].isspace()
                or line.lead - state.block_lead == 1
            )
    if not fits:
        return False
    content = line.content
    return (
        content.isascii()
        and line.lead - min(state.block_lead, line.lead) <= 1
        and len(current.text) + len(content) <= limits.max_joined_chars
    )


def wrap_gap(current: OpenRecord, line: CleanLine, state: ReadState) -> int:
    """Spaces a wrap cut off the end of a line and left at the start of the next one.

    Indentation that every line of the block has (a ticket's code block) is not part of the
    text; a continuation less indented than its record's first line was wrapped at column 0
    (an indented line wrapped by a terminal), so all its leading whitespace is text.
    """
    if line.lead < current.lead:
        return line.lead
    return max(0, line.lead - state.block_lead)
