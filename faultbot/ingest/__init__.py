"""Log ingestion: pasted text, files, directories and archives to LogRecords."""

from faultbot.ingest.inputs import InputSpec, LogPath, Paste, Stdin
from faultbot.ingest.limits import DEFAULT_LIMITS, ReadLimits
from faultbot.ingest.reader import LogReader, read_records
from faultbot.ingest.records import LogRecord, Origin, RecordKind
from faultbot.ingest.stats import InputStats, SkippedFile

__all__ = [
    "DEFAULT_LIMITS",
    "InputSpec",
    "InputStats",
    "LogPath",
    "LogReader",
    "LogRecord",
    "Origin",
    "Paste",
    "ReadLimits",
    "RecordKind",
    "SkippedFile",
    "Stdin",
    "read_records",
]
