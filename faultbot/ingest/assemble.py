"""Lines of one source to LogRecords: splits records glued onto one line, rejoins records a
terminal wrapped across lines, gathers tracebacks and indented error blocks, attaches origins."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, replace
from enum import Enum
from functools import lru_cache
from typing import TypeVar

from faultbot.ingest.fields import Parsed
from faultbot.ingest.grammar import ANY_ERROR_CODE
from faultbot.ingest.limits import ReadLimits
from faultbot.ingest.lines import PhysicalLine
from faultbot.ingest.normalize import NO_LABELS, CleanLine, Labels, clean_line, ends_with_label, read_labels
from faultbot.ingest.parse import parse_piece
from faultbot.ingest.pathinfo import NO_HINTS, PathHints, hints_from_path
from faultbot.ingest.records import LogRecord, Origin, RecordKind
from faultbot.ingest.split import split_pieces, starts_record
from faultbot.ingest.traceback import PyStep, continues_cann, python_step

T = TypeVar("T")

# A line shorter than this was not cut by a terminal: nobody's terminal is that narrow.
WRAP_MIN_WIDTH = 40
# Lines of an error block that continue it without being indented (pastes lose indentation).
_BLOCK_LEADS = ("Possible Cause:", "Solution:", "Reason:")
# Records that may gather further lines of their own, and records a terminal may have wrapped
# (tracebacks are Python's or CANN's own multi-line output, prose is one record a line).
_GROUP_KINDS = frozenset(
    {RecordKind.PYTHON_TRACEBACK, RecordKind.TRACEBACK, RecordKind.SCREEN, RecordKind.ERROR_CODE_HEADER}
)
_WRAPPABLE_KINDS = frozenset({RecordKind.PLOG, RecordKind.SCREEN, RecordKind.ERROR_CODE_HEADER})
_NO_LEAD = 1 << 30  # block_lead before a block's first line


@dataclass(frozen=True)
class SourceContext:
    source: str
    hints: PathHints = NO_HINTS


@dataclass(frozen=True)
class _Open:
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


@dataclass(frozen=True)
class _State:
    current: _Open | None = None
    previous: CleanLine | None = None  # the line before, None after a blank line
    widest: int = 0                    # longest line so far
    wrap_width: int | None = None      # width the source was hard-wrapped at, once seen
    block_lead: int = _NO_LEAD         # least indentation since the last blank line


class _Join(Enum):
    NONE = "none"
    APPEND = "append"  # the line continues the record as a line of its own
    CLOSE = "close"    # ... and is its last line
    WRAP = "wrap"      # the line is the rest of the record's last line, cut by a terminal


def assemble(
    lines: Generator[PhysicalLine, None, T], context: SourceContext, limits: ReadLimits
) -> Generator[LogRecord, None, tuple[T, int]]:
    """Records from ``lines``; returns what ``lines`` returned and the number of records."""
    state = _State()
    count = 0
    while True:
        try:
            physical = next(lines)
        except StopIteration as stop:
            upstream = stop.value
            break
        line = clean_line(physical)
        if line is None:
            if state.current is not None:
                yield _finish(state.current, context)
                count += 1
            state = replace(state, current=None, previous=None, block_lead=_NO_LEAD)
            continue
        done, state = _advance(state, line, limits)
        for record in done:
            yield _finish(record, context)
            count += 1
    if state.current is not None:
        yield _finish(state.current, context)
        count += 1
    return upstream, count


def _advance(state: _State, line: CleanLine, limits: ReadLimits) -> tuple[list[_Open], _State]:
    """Records completed by ``line`` and the state after it."""
    current, previous = state.current, state.previous
    after = replace(
        state, previous=line, widest=max(state.widest, len(line.text)),
        block_lead=min(state.block_lead, line.lead),
    )
    if current is not None and previous is not None:
        join, after_frame = _join_kind(current, previous, line, state, limits)
        if join is _Join.APPEND:
            extended = replace(current, extra=current.extra + (line,), after_frame=after_frame)
            return [], replace(after, current=extended)
        if join is _Join.CLOSE:
            closed = replace(current, extra=current.extra + (line,), closed=True)
            return [closed], replace(after, current=None)
        if join is _Join.WRAP:
            done, rejoined = _rewrap(current, line, " " * _wrap_gap(current, line, state) + line.content)
            return done, replace(after, current=rejoined, wrap_width=len(previous.text))
    opened = _open_pieces(
        line.text, line.body_start, line.labels, line.number, line.number, 0, line.lead,
        line.indent, ("cut",) if line.cut else (),
    )
    done = ([current] if current is not None else []) + opened[:-1]
    return done, replace(after, current=opened[-1])


def _join_kind(
    current: _Open, previous: CleanLine, line: CleanLine, state: _State, limits: ReadLimits
) -> tuple[_Join, bool]:
    """How ``line`` joins the open record, and whether it is a Python traceback frame."""
    if line.cut or previous.cut or len(current.extra) >= limits.max_group_lines:
        return _Join.NONE, False
    kind = current.parsed.kind
    wrapped = kind in _WRAPPABLE_KINDS and _was_wrapped(current, previous, line, state, limits)
    # At a known wrap width a full line is cut whatever the next line starts with, even
    # "Solution:"; without that evidence an error block's own continuation lines come first.
    if wrapped and state.wrap_width is not None:
        return _Join.WRAP, False
    if kind in _GROUP_KINDS and not starts_record(line.text, line.body_start):
        join, after_frame = _group_join(current, line)
        if join is not _Join.NONE:
            return join, after_frame
    return (_Join.WRAP if wrapped else _Join.NONE), False


def _group_join(current: _Open, line: CleanLine) -> tuple[_Join, bool]:
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


def _was_wrapped(
    current: _Open, previous: CleanLine, line: CleanLine, state: _State, limits: ReadLimits
) -> bool:
    """Whether ``line`` is the rest of ``previous``, cut by a terminal or ``fold``.

    A hard-wrapped text has every cut line exactly as long as the wrap width and no line longer,
    so a first cut is only believed at the widest width seen so far, and only if the next line
    does not start a record or carry a launcher prefix of its own. Once a cut is seen, every
    line of that width is taken as cut, whatever the next line starts with: a cut may land
    just before a record or inside a grep "path:", and the rejoined text is split again anyway.
    A header cut short needs no such evidence.
    """
    content = line.content
    if not content.isascii() or line.lead - min(state.block_lead, line.lead) > 1:
        return False
    if len(current.text) + len(content) > limits.max_joined_chars:
        return False
    width = len(previous.text)
    if state.wrap_width is not None:
        return width == state.wrap_width
    if line.labels is not NO_LABELS or starts_record(line.text, line.lead):
        # ... unless the line before ends in a label ("rank1: ", a grep "path:") for it, or the
        # cut fell at the space that glued this record on (log lines neither end in a space
        # nor start one column in).
        return (
            ends_with_label(previous.text)
            or previous.text[-1:].isspace()
            or line.lead - state.block_lead == 1
        )
    if current.parsed.truncated and not current.parsed.message and not current.extra:
        return True  # the text ended inside the header
    return width >= WRAP_MIN_WIDTH and width == state.widest


def _wrap_gap(current: _Open, line: CleanLine, state: _State) -> int:
    """Spaces a wrap cut off the end of a line and left at the start of the next one.

    Indentation that every line of the block has (a ticket's code block) is not part of the
    text; a continuation less indented than its record's first line was wrapped at column 0
    (an indented line wrapped by a terminal), so all its leading whitespace is text.
    """
    if line.lead < current.lead:
        return line.lead
    return max(0, line.lead - state.block_lead)


def _rewrap(current: _Open, line: CleanLine, rest: str) -> tuple[list[_Open], _Open]:
    """``current`` with ``rest`` (the wrapped line's text) appended to its last line."""
    if current.extra:
        last = current.extra[-1]
        joined = replace(last, text=last.text + rest)
        notes = _with_note(current.notes, "wrapped")
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
) -> list[_Open]:
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
            piece_notes = _with_note(piece_notes, "glued")
        if 0 < boundary and piece.start < boundary < piece.end:
            piece_notes = _with_note(piece_notes, "wrapped")
        if parsed.truncated:
            piece_notes = _with_note(piece_notes, "truncated")
        opened.append(
            _Open(
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


def _with_note(notes: tuple[str, ...], note: str) -> tuple[str, ...]:
    return notes if note in notes else notes + (note,)


@lru_cache(maxsize=4096)
def _named_file_hints(named_file: str) -> PathHints:
    return hints_from_path(named_file)


def _first(*values: int | None) -> int | None:
    return next((value for value in values if value is not None), None)


def _finish(record: _Open, context: SourceContext) -> LogRecord:
    parsed = record.parsed
    extra_bodies = [line.body.strip() for line in record.extra]
    notes = record.notes
    error_code = parsed.error_code
    if parsed.kind is RecordKind.PYTHON_TRACEBACK:
        # A traceback's message is its exception line; the frames stay in raw.
        message = extra_bodies[-1] if extra_bodies else parsed.message
        if record.closed:
            code = ANY_ERROR_CODE.search(message)
            error_code = code.group() if code else None
        else:
            notes = _with_note(notes, "truncated")
    else:
        message = "\n".join(part for part in (parsed.message, *extra_bodies) if part)
    labels = record.labels
    named = _named_file_hints(labels.named_file) if labels.named_file else NO_HINTS
    hints = context.hints
    origin = Origin(
        source=context.source,
        line=record.line,
        node=labels.node or named.node or hints.node,
        rank=_first(labels.rank, parsed.rank, named.rank, hints.rank),
        device=_first(parsed.device, named.device, hints.device),
        worker=labels.worker,
        named_file=labels.named_file,
    )
    raw = "\n".join([record.text.strip(), *(line.text.rstrip() for line in record.extra)])
    return LogRecord(
        origin=origin,
        kind=parsed.kind,
        raw=raw,
        message=message,
        level=parsed.level,
        module=parsed.module,
        pid=parsed.pid,
        process=parsed.process,
        timestamp=parsed.timestamp,
        src_file=parsed.src_file,
        src_line=parsed.src_line,
        tid=parsed.tid,
        error_code=error_code,
        notes=notes,
    )
