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
"""

from __future__ import annotations

import gzip
import json
import os
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from datetime import datetime
from pathlib import Path
from typing import IO

from .folding import Found
from .ingest.records import LogRecord, Origin, RecordKind
from .ingest.stats import InputStats, SkippedFile

FORMAT = "faultbot-facts"
VERSION = 1
_ORIGIN_FIELDS = tuple(f.name for f in fields(Origin))
# A record's repeats are written beside it, not in it: readers of version 1 know the record's fields.
_RECORD_FIELDS = tuple(f.name for f in fields(LogRecord) if f.name not in ("origin", "repeats"))


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


def _record(data: dict[str, object]) -> LogRecord:
    values = dict(data)
    origin = Origin(**values.pop("origin"))  # type: ignore[arg-type]
    values["kind"] = RecordKind(values["kind"])
    if "timestamp" in values:
        values["timestamp"] = datetime.fromisoformat(str(values["timestamp"]))
    if "notes" in values:
        values["notes"] = tuple(values["notes"])  # type: ignore[arg-type]
    return LogRecord(origin=origin, **values)  # type: ignore[arg-type]


def _stats_json(stats: InputStats) -> dict[str, object]:
    return {"records": stats.records, "files": stats.files, "bytes": stats.bytes_read,
            "undecodable_bytes": stats.replaced_bytes, "cut_lines": stats.cut_lines,
            "skipped": [[s.name, s.reason] for s in stats.skipped], "decoded_as": [list(d) for d in stats.decoded_as]}


def _stats(data: dict[str, object]) -> InputStats:
    return InputStats(int(data["records"]), int(data["files"]), int(data["bytes"]),  # type: ignore[arg-type]
                      int(data["undecodable_bytes"]), int(data["cut_lines"]),  # type: ignore[arg-type]
                      tuple(SkippedFile(n, r) for n, r in data["skipped"]),  # type: ignore[union-attr]
                      tuple((s, e) for s, e in data["decoded_as"]))  # type: ignore[union-attr]


class FactsWriter:
    """Writes one facts file record by record; the file appears under its name only when finished."""

    def __init__(self, path: Path, header: dict[str, object]) -> None:
        self.path = path
        self._partial = path.with_name(path.name + ".partial")
        # Held open across add() calls, closed by finish() or discard().
        self._out: IO[str] = gzip.open(self._partial, "wt", encoding="utf-8", compresslevel=6)  # noqa: SIM115
        self.kept = 0
        self._line({"format": FORMAT, "version": VERSION, **header})

    def _line(self, data: dict[str, object]) -> None:
        self._out.write(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")

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
        self._out.close()
        os.replace(self._partial, self.path)

    def discard(self) -> None:
        self._out.close()
        self._partial.unlink(missing_ok=True)


@dataclass(frozen=True)
class FactsFile:
    """A facts file read back: its header, records and the read counts of the node it came from."""

    header: dict[str, object]
    records: tuple[LogRecord, ...]
    stats: InputStats


def _lines(path: Path) -> Iterator[tuple[int, dict[str, object]]]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            for number, line in enumerate(stream, 1):
                try:
                    data = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise FactsFileError(f"{path}:{number}: not a JSON line ({exc.msg})") from None
                if not isinstance(data, dict):
                    raise FactsFileError(f"{path}:{number}: not a JSON object")
                yield number, data
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        reason = "cut short" if isinstance(exc, EOFError) else str(exc) or type(exc).__name__
        raise FactsFileError(f"{path}: not a readable facts file ({reason})") from None


def read_facts(path: Path) -> FactsFile:
    lines = _lines(path)
    header = next(lines, (0, {}))[1]
    if header.get("format") != FORMAT:
        raise FactsFileError(f"{path}: not a faultbot facts file (write one with 'faultbot extract')")
    if not isinstance(header.get("version"), int) or header["version"] > VERSION:
        raise FactsFileError(f"{path}: facts file version {header.get('version')} is newer than this faultbot "
                             f"reads ({VERSION}); upgrade faultbot")
    records: list[LogRecord] = []
    for number, data in lines:
        if "end" in data:
            try:
                return FactsFile(header, tuple(records), _stats(data["end"]["stats"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise FactsFileError(f"{path}:{number}: bad trailer ({exc})") from None
        try:
            record = _record(data["record"])
            repeats = data.get("repeats", 0)
            records.append(replace(record, repeats=repeats) if isinstance(repeats, int) and repeats > 0 else record)
        except (KeyError, TypeError, ValueError) as exc:
            raise FactsFileError(f"{path}:{number}: bad record ({type(exc).__name__}: {exc})") from None
    raise FactsFileError(f"{path}: cut short (no end line); run 'faultbot extract' again")
