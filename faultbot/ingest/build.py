"""Finished open records to LogRecords: message, raw text and origin."""

from __future__ import annotations

from functools import lru_cache

from faultbot.ingest.grammar import ANY_ERROR_CODE
from faultbot.ingest.normalize import NO_LABELS
from faultbot.ingest.pathinfo import NO_HINTS, PathHints, hints_from_path
from faultbot.ingest.pending import OpenRecord, SourceContext
from faultbot.ingest.records import LogRecord, Origin, RecordKind


def with_note(notes: tuple[str, ...], note: str) -> tuple[str, ...]:
    return notes if note in notes else notes + (note,)


@lru_cache(maxsize=4096)
def _named_file_hints(named_file: str) -> PathHints:
    return hints_from_path(named_file)


def _first(*values: int | None) -> int | None:
    return next((value for value in values if value is not None), None)


def finish(record: OpenRecord, context: SourceContext) -> LogRecord:
    parsed = record.parsed
    notes = record.notes
    error_code = parsed.error_code
    message = parsed.message
    raw = record.text.strip()
    if record.extra or parsed.kind is RecordKind.PYTHON_TRACEBACK:
        extra_bodies = [line.body.strip() for line in record.extra]
        raw = "\n".join([raw, *(line.text.rstrip() for line in record.extra)])
        if parsed.kind is not RecordKind.PYTHON_TRACEBACK:
            message = "\n".join(part for part in (message, *extra_bodies) if part)
        elif record.closed:
            # A traceback's message is its exception line; the frames stay in raw.
            message = extra_bodies[-1]
            code = ANY_ERROR_CODE.search(message)
            error_code = code.group() if code else None
        else:
            message = extra_bodies[-1] if extra_bodies else message
            notes = with_note(notes, "truncated")
    return LogRecord(
        origin=_origin(record, context),
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


def _origin(record: OpenRecord, context: SourceContext) -> Origin:
    """What the content says about where a record came from goes before what its path says."""
    labels, parsed, hints = record.labels, record.parsed, context.hints
    if labels is NO_LABELS and parsed.rank is None and parsed.device is None:
        return Origin(context.source, record.line, hints.node, hints.rank, hints.device)
    named = _named_file_hints(labels.named_file) if labels.named_file else NO_HINTS
    return Origin(
        source=context.source,
        line=record.line,
        node=labels.node or named.node or hints.node,
        rank=_first(labels.rank, parsed.rank, named.rank, hints.rank),
        device=_first(parsed.device, named.device, hints.device),
        worker=labels.worker,
        named_file=labels.named_file,
    )
