"""A ticket in words as evidence: when an input holds no log line the KB knows, only prose (and
perhaps a few ``export`` lines), the faults whose descriptions fit the words become weak matches,
so the engine ranks them at "possible" and asks the question that tells them apart.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..ingest.records import LogRecord, Origin, RecordKind
from ..kb.model import Symptom, SymptomForm, Where
from ..match.symptoms import SymptomMatch

if TYPE_CHECKING:
    from .failure_match import FaultWords

DESCRIPTION_WEIGHT = 0.7       # the best-fitting fault's evidence, the others scaled by their score; capped at "possible"
MAX_WORDS_CHARS = 8192         # a ticket, not a log: longer text is not read as a description
MIN_WORDS = 4
# A ticket that says it is about Ascend (HCCL, NPU, CANN ...) may be long and mostly about its own
# setup: it is matched on the words the KB knows, of which the fault must hold this share.
ASCEND_CONTEXT = re.compile(r"HCCL|\bNPU\b|Ascend|CANN|昇腾|torch_npu|910[BC]|Atlas|\bEI\d{4}", re.IGNORECASE)
KNOWN_WORDS_COVERAGE = 0.45
_LOG_LIKE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{2}:\d{2}:\d{2}|^\s*(?:\[|File \"|Traceback|at |\w+Error\b)")
_WORD = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]")
DESCRIBED = Symptom("described-in-words", SymptomForm.WORDS, DESCRIPTION_WEIGHT, Where("<faultbot>", 0))


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


def described_matches(words: FaultWords, text: str, source: str) -> tuple[SymptomMatch, ...]:
    """The faults ``text`` describes as weak symptom matches, strongest first."""
    ascend = ASCEND_CONTEXT.search(text)
    if not ascend and words.rewording.foreign(text):
        return ()    # another vendor's failure (an NCCL watchdog) told in words is not an Ascend fault
    hits = words.candidates(text, KNOWN_WORDS_COVERAGE if ascend else None)
    if not hits:
        return ()
    record = LogRecord(Origin(source, 1), RecordKind.TEXT, text, text)
    best = hits[0].score
    return tuple(SymptomMatch(hit.entry.id, DESCRIBED, record, round(hit.score / best, 3)) for hit in hits)
