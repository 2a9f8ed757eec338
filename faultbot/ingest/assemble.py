"""Lines of one source to LogRecords: splits records glued onto one line, rejoins records a
terminal wrapped across lines, gathers tracebacks and indented error blocks, attaches origins."""

from __future__ import annotations

from collections.abc import Generator
from enum import Enum
from typing import TypeVar

from msgspec.structs import replace

from faultbot.ingest.build import finish, with_note
from faultbot.ingest.limits import ReadLimits
from faultbot.ingest.lines import PhysicalLine
from faultbot.ingest.normalize import NO_LABELS, CleanLine, Labels, clean_line, read_labels
from faultbot.ingest.parse import parse_piece
from faultbot.ingest.pending import NO_LEAD, OpenRecord, ReadState, SourceContext
from faultbot.ingest.records import LogRecord, RecordKind
from faultbot.ingest.split import split_pieces, starts_record
from faultbot.ingest.traceback import PyStep, continues_cann, python_step
from faultbot.ingest.wrapping import was_wrapped, wrap_gap

T = TypeVar("T")

# Lines of an error block that continue it without being indented (pastes lose indentation).
_BLOCK_LEADS = ("Possible Cause:", "Solution:", "Reason:")
# Records that may gather further lines of their own, and records a terminal may have wrapped
# (tracebacks are Python's or CANN's own multi-line output, prose is one record a line).
_GROUP_KINDS = frozenset({
    RecordKind.PYTHON_TRACEBACK, RecordKind.TRACEBACK, RecordKind.SCREEN, RecordKind.ERROR_CODE_HEADER
})
_WRAPPABLE_KINDS = frozenset({RecordKind.PLOG, RecordKind.SCREEN, RecordKind.ERROR_CODE_HEADER})


class _Join(Enum):
    NONE = "none"
    APPEND = "append"  # the line continues the record as a line of its own
    CLOSE = "close"    # ... and is its last line
    WRAP = "wrap"      # the line is the rest of the record's last line, cut by a terminal


def assemble(
    lines: Generator[PhysicalLine, None, T], context: SourceContext, limits: ReadLimits
) -> Generator[LogRecord, None, tuple[T, int]]:
    """Records from ``lines``; returns what ``lines`` returned and the number of records."""
    state = ReadState()
    count = 0
    while True:
        try:
            physical = next(lines)
        except StopIteration as stop:
            upstream = stop.value
            break
        line = clean_line(physical) if physical.text else None
        if line is None:
            if state.current is not None:
                yield finish(state.current, context)
                count += 1
            if state.previous is not None or state.block_lead != NO_LEAD:
                state = ReadState(None, None, state.widest, state.wrap_width, NO_LEAD)
            continue
        done, state = _advance(state, line, limits)
        for record in done:
            yield finish(record, context)
            count += 1
    if state.current is not None:
        yield finish(state.current, context)
        count += 1
    return upstream, count


def _advance(
    state: ReadState, line: CleanLine, limits: ReadLimits
) -> tuple[list[OpenRecord], ReadState]:
    """Records completed by ``line`` and the state after it."""
    current, previous = state.current, state.previous
    widest = max(state.widest, len(line.text))
    block_lead = min(state.block_lead, line.lead)
    if current is not None and previous is not None:
        join, after_frame = _join_kind(current, previous, line, state, limits)
        if join is _Join.APPEND:
            extended = replace(current, extra=current.extra + (line,), after_frame=after_frame)
            return [], ReadState(extended, line, widest, state.wrap_width, block_lead)
        if join is _Join.CLOSE:
            closed = replace(current, extra=current.extra + (line,), closed=True)
            return [closed], ReadState(None, line, widest, state.wrap_width, block_lead)
        if join is _Join.WRAP:
            rest = " " * wrap_gap(current, line, state) + line.content
            done, rejoined = _rewrap(current, line, rest)
            return done, ReadState(rejoined, line, widest, len(previous.text), block_lead)
    opened = _open_pieces(
        line.text, line.body_start, line.labels, line.number, line.number, 0, line.lead,
        line.indent, ("cut",) if line.cut else (),
    )
    done = ([current] if current is not None else []) + opened[:-1]
    return done, ReadState(opened[-1], line, widest, state.wrap_width, block_lead)


def _join_kind(
    current: OpenRecord, previous: CleanLine, line: CleanLine, state: ReadState, limits: ReadLimits
) -> tuple[_Join, bool]:
    """How ``line`` joins the open record, and whether it is a Python traceback frame."""
    if line.cut or previous.cut or len(current.extra) >= limits.max_group_lines:
        return _Join.NONE, False
    kind = current.parsed.kind
    wrapped = kind in _WRAPPABLE_KINDS and was_wrapped(current, previous, line, state, limits)
    # At a known wrap width a full line is cut whatever the next line starts with, even
    # "Solution:"; without that evidence an error block's own continuation lines come first.
    if wrapped and state.wrap_width is not None:
        return _Join.WRAP, False
    if kind in _GROUP_KINDS and not starts_record(line.text, line.body_start):
        join, after_frame = _group_join(current, line)
        if join is not _Join.NONE:
            return join, after_frame
    return (_Join.WRAP if wrapped else _Join.NONE), False


def _group_join(current: OpenRecord, line: CleanLine) -> tuple[_Join, bool]:
    body = line.body
    relative = line.indent - current.indent
    kind = current.parsed.kind
    if kind is RecordKind.PYTHON_TRACEBACK:
        step = python_step(body, relative, current.after_frame)
        join = {PyStep.EXCEPTION: _Join.CLOSE, PyStep.END: _Join.NONE}.get(step, _Join.APPEND)
        return join, step is PyStep.FRAME
    if kind is RecordKind.TRACEBACK:
        return (_Join.APPEND if continues_cann(body, line.indent, relative) else _Join.NONE), False
    if relative >= 2 or body.startswith(_BLOCK_LEADS):
        return _Join.APPEND, False
    return _Join.NONE, False


def _rewrap(current: OpenRecord, line: CleanLine, rest: str) -> tuple[list[OpenRecord], OpenRecord]:
    """``current`` with ``rest`` (the wrapped line's text) appended to its last line."""
    if current.extra:
        last = current.extra[-1]
        joined = replace(last, text=last.text + rest)
        notes = with_note(current.notes, "wrapped")
        return [], replace(current, extra=current.extra[:-1] + (joined,), notes=notes)
    boundary = len(current.text)
    opened = _open_pieces(
        current.text + rest, current.body_start, current.labels,
        current.line, line.number, boundary, current.lead, current.indent, current.notes,
    )
    return opened[:-1], opened[-1]


def _open_pieces(
    text: str,
    body_start: int,
    labels: Labels,
    first_line: int,
    later_line: int,
    boundary: int,
    lead: int,
    indent: int,
    notes: tuple[str, ...],
) -> list[OpenRecord]:
    """An open record for each piece of ``text[body_start:]``; ``boundary`` is where the text
    rejoined from a wrapped line starts (0 when nothing was rejoined)."""
    pieces = split_pieces(text, body_start, boundary)
    glued = len(pieces) > 1
    opened = []
    for index, piece in enumerate(pieces):
        raw_start, content_start = (0, body_start) if index == 0 else (piece.start, piece.start)
        if index > 0:
            # A "rank1: " or grep "path:" label in mid-line names the origin of what follows,
            # until the next label. A record right at the start of a rejoined line, with no
            # space before it that glued it on, is a line of its own and keeps no labels.
            piece_labels, content_start = read_labels(text, piece.start)
            if piece.start == boundary and not text[boundary - 1].isspace():
                labels = piece_labels
            elif piece_labels is not NO_LABELS:
                labels = piece_labels.over(labels)
        content = text[content_start:piece.end]
        stripped = content.lstrip()
        content_start += len(content) - len(stripped)
        parsed = parse_piece(stripped)
        piece_notes = notes
        if glued:
            piece_notes = with_note(piece_notes, "glued")
        if 0 < boundary and piece.start < boundary < piece.end:
            piece_notes = with_note(piece_notes, "wrapped")
        if parsed.truncated:
            piece_notes = with_note(piece_notes, "truncated")
        opened.append(
            OpenRecord(
                line=first_line if piece.start < boundary else later_line,
                text=text[raw_start:piece.end],
                body_start=content_start - raw_start,
                labels=labels,
                parsed=parsed,
                lead=lead,
                indent=indent,
                notes=piece_notes,
            )
        )
    return opened


