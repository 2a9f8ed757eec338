"""A ticket in words as evidence: when an input holds no log line the KB knows, only prose (and
perhaps a few ``export`` lines), the faults whose descriptions fit the words become weak matches,
so the engine ranks them at "possible" and asks the question that tells them apart (whether an
input reads as words at all: match/description.py).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..ingest.records import LogRecord, Origin, RecordKind
from ..kb.model import Symptom, SymptomForm, Where
from ..match.symptoms import SymptomMatch

if TYPE_CHECKING:
    from .failure_match import FaultWords

DESCRIPTION_WEIGHT = 0.7       # the best-fitting fault's evidence, the others scaled by their score; capped at "possible"
# A ticket that says it is about Ascend (HCCL, NPU, CANN ...) may be long and mostly about its own
# setup: it is matched on the words the KB knows, of which the fault must hold this share.
ASCEND_CONTEXT = re.compile(r"HCCL|\bNPU\b|Ascend|CANN|昇腾|torch_npu|910[BC]|Atlas|\bEI\d{4}", re.IGNORECASE | re.ASCII)
KNOWN_WORDS_COVERAGE = 0.45
DESCRIBED = Symptom("described-in-words", SymptomForm.WORDS, DESCRIPTION_WEIGHT, Where("<faultbot>", 0))


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
