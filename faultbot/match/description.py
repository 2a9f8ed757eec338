"""Whether an input reads as a failure told in words (a ticket's prose, perhaps with a few
``export`` lines) rather than as a log: then qa/described.py matches the words to the KB's faults.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..ingest.records import LogRecord, RecordKind

MAX_WORDS_CHARS = 8192         # a ticket, not a log: longer text is not read as a description
MIN_WORDS = 4
_LOG_LIKE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{2}:\d{2}:\d{2}|^\s*(?:\[|File \"|Traceback|at |\w+Error\b)")
_WORD = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]")


def description_of(records: Iterable[LogRecord]) -> str:
    """The text of ``records`` when it reads as a description: only free-text records, mostly
    lines that are not log lines, a few words at least, a ticket's length at most; else ""."""
    lines = []
    for record in records:
        if record.kind is not RecordKind.TEXT:
            return ""
        lines += [line for line in record.raw.splitlines() if line.strip()]
    text = "\n".join(lines)
    if not lines or len(text) > MAX_WORDS_CHARS or len(_WORD.findall(text)) < MIN_WORDS:
        return ""
    prose = sum(not _LOG_LIKE.search(line) for line in lines)
    return text if prose * 2 >= len(lines) else ""
