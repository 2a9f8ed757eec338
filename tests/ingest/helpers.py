"""Shared helpers for the ingest tests: reading text, record signatures, the seed examples."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from faultbot.ingest import LogReader, LogRecord, Paste, RecordKind, read_records

DATA = Path(__file__).resolve().parent / "data"
SEED = DATA / "seed"


def parse(text: str) -> list[LogRecord]:
    return list(read_records([Paste(text)]))


def read_all(*inputs) -> tuple[list[LogRecord], LogReader]:
    reader = LogReader(list(inputs))
    return list(reader.records()), reader


def signature(record: LogRecord) -> tuple:
    """The parsed fields of a record: what must survive any damage to the text it came from."""
    return (
        record.kind, record.level, record.module, record.pid, record.process, record.timestamp,
        record.src_file, record.src_line, record.tid, record.message, record.error_code,
    )


def seed_text(name: str) -> str:
    return (SEED / name).read_text(encoding="utf-8")


def seed_names() -> list[str]:
    return sorted(path.name for path in SEED.iterdir())


@dataclass(frozen=True)
class Expected:
    """What one record must parse into; ``message`` is the message's start."""

    kind: RecordKind
    level: str | None
    module: str | None
    pid: int | None
    process: str | None
    timestamp: str | None
    src_file: str | None
    src_line: int | None
    tid: int | None
    message: str
    code: str | None = None
    rank: int | None = None
    named_file: str | None = None

    def check(self, record: LogRecord) -> None:
        timestamp = datetime.fromisoformat(self.timestamp) if self.timestamp else None
        assert record.kind is self.kind
        assert (record.level, record.module, record.pid, record.process) == (
            self.level, self.module, self.pid, self.process)
        assert record.timestamp == timestamp
        assert (record.src_file, record.src_line, record.tid) == (self.src_file, self.src_line, self.tid)
        assert record.message.startswith(self.message), (record.message, self.message)
        assert record.error_code == self.code
        assert record.origin.rank == self.rank
        assert record.origin.named_file == self.named_file
