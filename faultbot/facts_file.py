"""Facts files: the evidence records of one node's logs, gzipped JSON lines, written by ``faultbot
extract`` where the logs are and merged by ``faultbot diagnose --facts`` where they cannot all go.

    {"format": "faultbot-facts", "version": 1, "kb": "sha256:...", "node": ..., ...}     header
    {"record": {...}, "facts": {"task_group": ["..."]}, "symptoms": ["entry#symptom"]}   one per record
                                              ("repeats": N when N records like it were folded into it)
    {"end": {"records": N, "stats": {...}}}                                                 trailer

Only records that yield a fact or match a symptom are kept, each whole, and of records that say
the same thing only the first and the last (faultbot/folding.py), so the reader re-derives exactly
the evidence the logs give; ``facts`` and ``symptoms`` say what they gave, for people and
``jq``. A file without its trailer was cut short and is refused.

Read back, every line is checked field by field before it is used (types, ranges, known fields,
integer size, nesting, line length), and the trailer's record count against the records read: a
damaged or hostile file is refused with one line naming the file and line, never a traceback.
"""

from __future__ import annotations

import gzip
import io
import json
import zlib
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import msgspec
from msgspec.structs import replace

from .atomic_files import AtomicFile, json_line
from .folding import Found
from .ingest.records import LogRecord, Origin, RecordKind
from .ingest.stats import InputStats, SkippedFile
from .render.safe_text import one_line

FORMAT = "faultbot-facts"
VERSION = 1
MAX_LINE_CHARS = 32 << 20      # a record line longer than this is damage, not a log record
MAX_INTEGER = 2**63 - 1        # counts, lines, pids: no field holds more
_ORIGIN_FIELDS = Origin.__struct_fields__
# A record's repeats are written beside it, not in it: readers of version 1 know the record's fields.
_RECORD_FIELDS = tuple(name for name in LogRecord.__struct_fields__ if name not in ("origin", "repeats"))


class FactsFileError(ValueError):
    """A facts file that cannot be read; the message names the file and says why."""


def _plain(value: object) -> object:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, RecordKind):
        return value.value
    return list(value) if isinstance(value, tuple) else value


def _record_json(record: LogRecord) -> dict[str, object]:
    """The record's fields that are set; the reader rebuilds an equal LogRecord from them."""
    origin = {name: value for name in _ORIGIN_FIELDS if (value := getattr(record.origin, name)) is not None}
    return {"origin": origin, **{name: _plain(value) for name in _RECORD_FIELDS
                                 if (value := getattr(record, name)) is not None and value != ()}}


class _Invalid(ValueError):
    """A field that is not what the format says; the message names the field, never its value."""


def _count(value: object, name: str) -> int:
    if type(value) is not int or not 0 <= value <= MAX_INTEGER:
        raise _Invalid(f"{name} must be a whole number from 0 to {MAX_INTEGER}")
    return value


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise _Invalid(f"{name} must be a string")
    return value


def _texts(value: object, name: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise _Invalid(f"{name} must be a list of strings")
    return tuple(_text(item, f"{name}[{i}]") for i, item in enumerate(value))


def _pairs(value: object, name: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, list) or not all(isinstance(item, list) and len(item) == 2 for item in value):
        raise _Invalid(f"{name} must be a list of [string, string] pairs")
    return tuple((_text(a, f"{name}[{i}][0]"), _text(b, f"{name}[{i}][1]")) for i, (a, b) in enumerate(value))


def _kind(value: object, name: str) -> RecordKind:
    try:
        return RecordKind(_text(value, name))
    except ValueError:
        raise _Invalid(f"{name} must be one of {', '.join(k.value for k in RecordKind)}") from None


def _timestamp(value: object, name: str) -> datetime:
    try:
        return datetime.fromisoformat(_text(value, name))
    except ValueError:
        raise _Invalid(f"{name} must be an ISO 8601 date and time") from None


Check = Callable[[object, str], object]


def _fields(data: object, name: str, checks: dict[str, Check], required: tuple[str, ...]) -> dict[str, Any]:
    """``data``'s fields, each checked and converted; a null optional field is left out. ``name``
    says where ``data`` is ("" for the line itself)."""
    if not isinstance(data, dict):
        raise _Invalid(f"{name or 'the line'} must be an object")
    for key in required:
        if data.get(key) is None:
            raise _Invalid(f"{name + '.' if name else ''}{key} is missing")
    values = {}
    for key, value in data.items():
        if key not in checks:
            raise _Invalid(f"{name or 'the line'} has a field this faultbot does not know: {one_line(key)[:40]}")
        if value is not None:
            values[key] = checks[key](value, f"{name + '.' if name else ''}{key}")
    return values


def _origin(value: object, name: str) -> Origin:
    return Origin(**_fields(value, name, _ORIGIN_CHECKS, ("source", "line")))


def _log_record(value: object, name: str) -> LogRecord:
    return LogRecord(**_fields(value, name, _RECORD_CHECKS, ("origin", "kind", "raw", "message")))


def _facts_seen(value: object, name: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise _Invalid(f"{name} must be an object")
    return {key: _texts(texts, f"{name}.{one_line(key)[:40]}") for key, texts in value.items()}


def _input_stats(value: object, name: str) -> InputStats:
    counts = _fields(value, name, _STATS_CHECKS, tuple(_STATS_CHECKS))
    return InputStats(counts["records"], counts["files"], counts["bytes"], counts["undecodable_bytes"],
                      counts["cut_lines"], tuple(SkippedFile(n, r) for n, r in counts["skipped"]),
                      counts["decoded_as"])


def _end(value: object, name: str) -> dict[str, Any]:
    return _fields(value, name, {"records": _count, "stats": _input_stats}, ("records", "stats"))


_ORIGIN_CHECKS: dict[str, Check] = {"source": _text, "line": _count, "node": _text, "rank": _count,
                                     "device": _count, "worker": _text, "named_file": _text}
_RECORD_CHECKS: dict[str, Check] = {
    "origin": _origin, "kind": _kind, "raw": _text, "message": _text, "level": _text, "module": _text,
    "pid": _count, "process": _text, "timestamp": _timestamp, "src_file": _text, "src_line": _count,
    "tid": _count, "error_code": _text, "notes": _texts}
_STATS_CHECKS: dict[str, Check] = {"records": _count, "files": _count, "bytes": _count, "undecodable_bytes": _count,
                                   "cut_lines": _count, "skipped": _pairs, "decoded_as": _pairs}
_HEADER_CHECKS: dict[str, Check] = {"format": _text, "version": _count, "kb": _text, "node": _text,
                                    "inputs": _texts}
_LINE_CHECKS: dict[str, Check] = {"record": _log_record, "facts": _facts_seen, "symptoms": _texts,
                                  "repeats": _count, "end": _end}


def _line_content(data: object) -> tuple[LogRecord | None, dict[str, Any]]:
    """A record line's record (with its repeats), or None and the end line's counts."""
    line = _fields(data, "", _LINE_CHECKS, ())
    if "end" in line:
        return None, line["end"]
    if "record" not in line:
        raise _Invalid("the line holds neither a record nor the end")
    record: LogRecord = line["record"]
    return (replace(record, repeats=line["repeats"]) if line.get("repeats") else record), {}


def _stats_json(stats: InputStats) -> dict[str, object]:
    return {"records": stats.records, "files": stats.files, "bytes": stats.bytes_read,
            "undecodable_bytes": stats.replaced_bytes, "cut_lines": stats.cut_lines,
            "skipped": [[s.name, s.reason] for s in stats.skipped], "decoded_as": [list(d) for d in stats.decoded_as]}


class FactsWriter:
    """Writes one facts file record by record, to a temporary file of its own beside ``path`` that
    takes the name only when finished (two extracts to one path never share a file)."""

    def __init__(self, path: Path, header: dict[str, object]) -> None:
        self.path = path
        self._file = AtomicFile(path)
        # Held open across add() calls, closed by finish() or discard().
        self._out: IO[str] = io.TextIOWrapper(gzip.GzipFile(fileobj=self._file.stream, mode="wb", compresslevel=6),
                                              encoding="utf-8")
        self.kept = 0
        self._line({"format": FORMAT, "version": VERSION, **header})

    def _line(self, data: dict[str, object]) -> None:
        self._out.write(json_line(data))

    def add(self, found: Found) -> None:
        facts: dict[str, list[str]] = {}
        for observation in found.observations:
            facts.setdefault(observation.fact, []).append(observation.text)
        repeats = {"repeats": found.record.repeats} if found.record.repeats else {}
        self._line({"record": _record_json(found.record), "facts": facts,
                    "symptoms": [f"{m.entry_id}#{m.symptom.id}" for m in found.matches], **repeats})
        self.kept += 1

    def finish(self, stats: InputStats) -> None:
        self._line({"end": {"records": self.kept, "stats": _stats_json(stats)}})
        self._out.close()          # the gzip trailer; the file itself stays open for commit()
        self._file.commit()

    def discard(self) -> None:
        try:
            self._out.close()
        except OSError:
            pass          # a full disk: the file is removed all the same
        self._file.discard()


class FactsFile(msgspec.Struct, frozen=True):
    """A facts file read back: its header, records and the read counts of the node it came from."""

    header: dict[str, object]
    records: tuple[LogRecord, ...]
    stats: InputStats


def _whole_number(digits: str) -> int:
    """A JSON integer, refused before it is converted when no field could hold it (a 5,000-digit
    number costs nothing)."""
    if len(digits.lstrip("-")) > len(str(MAX_INTEGER)):
        raise _Invalid(f"an integer of {len(digits):,} digits")
    return int(digits)


def _not_a_number(constant: str) -> object:
    raise _Invalid(f"{constant} is not a number a facts file holds")


def _parsed(line: str, where: str) -> object:
    try:
        return json.loads(line, parse_int=_whole_number, parse_constant=_not_a_number)
    except _Invalid as exc:
        raise FactsFileError(f"{where}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise FactsFileError(f"{where}: not a JSON line ({exc.msg})") from None
    except RecursionError:
        raise FactsFileError(f"{where}: JSON nested too deeply") from None


def _lines(path: Path, shown: str) -> Iterator[tuple[int, object]]:
    """Each line parsed, streamed, none longer than MAX_LINE_CHARS."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            number = 0
            while line := stream.readline(MAX_LINE_CHARS + 1):
                number += 1
                if len(line) > MAX_LINE_CHARS:
                    raise FactsFileError(f"{shown}:{number}: a line longer than {MAX_LINE_CHARS:,} characters")
                yield number, _parsed(line, f"{shown}:{number}")
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        reason = "cut short" if isinstance(exc, EOFError) else one_line(str(exc) or type(exc).__name__)
        raise FactsFileError(f"{shown}: not a readable facts file ({reason})") from None


def _header(data: object, shown: str) -> dict[str, Any]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise FactsFileError(f"{shown}: not a faultbot facts file (write one with 'faultbot extract')")
    version = data.get("version")
    if type(version) is int and version > VERSION:
        raise FactsFileError(f"{shown}: facts file version {version} is newer than this faultbot reads ({VERSION}); "
                             "upgrade faultbot")
    try:
        header = {key: value for key, value in data.items() if key not in _HEADER_CHECKS}
        header.update(_fields({key: value for key, value in data.items() if key in _HEADER_CHECKS}, "header",
                              _HEADER_CHECKS, ("format", "version")))
    except _Invalid as exc:
        raise FactsFileError(f"{shown}:1: bad header: {exc}") from None
    return header


def read_facts(path: Path) -> FactsFile:
    """The file read line by line and checked field by field; FactsFileError names the file and
    line of the first thing wrong."""
    shown = one_line(path)
    lines = _lines(path, shown)
    header = _header(next(lines, (1, {}))[1], shown)
    records: list[LogRecord] = []
    for number, data in lines:
        try:
            record, end = _line_content(data)
            if record is None:
                if end["records"] != len(records):
                    raise _Invalid(f"the end line counts {end['records']:,} records, the file holds "
                                   f"{len(records):,}")
                break
            records.append(record)
        except _Invalid as exc:
            raise FactsFileError(f"{shown}:{number}: {exc}") from None
    else:
        raise FactsFileError(f"{shown}: cut short (no end line); run 'faultbot extract' again")
    for number, _ in lines:
        raise FactsFileError(f"{shown}:{number}: a line after the end line")
    return FactsFile(header, tuple(records), end["stats"])
