"""Drafting a new KB entry from a log that faultbot does not recognise (``faultbot kb new``).

The draft holds what a machine can write — signatures from the log's error records, its error
codes, a positive test made of the log itself, the facts seen — and a TODO wherever only a person
can write (title, cause, fixes, citation, a near-miss negative test). ``kb lint`` rejects the draft
until every TODO is gone.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..extract.facts import Observation
from ..ingest.records import LogRecord, RecordKind
from ..kb.model import CODE_SHAPE
from .yaml_writer import dump_yaml

MAX_SIGNATURES = 5
MAX_LOG_LINES = 40
TODO = "TODO"
_ERROR_LEVELS = {"ERROR", "FATAL", "WARNING"}
_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9]+")
# What only this occurrence says, left out of a drafted signature: the process id and time a
# screen error starts with (the matcher masks them anyway; the KB need not carry them).
_OCCURRENCE_PREFIX = re.compile(r"^(?:\[PID:\s*\d+\]\s*)?(?:\d{4}-\d{2}-\d{2}[-T ][\d:.]+\s*)?(?:\(\w+\):\s*)?")


def _signature(record: LogRecord) -> str:
    """The record's message as a signature: without its occurrence prefix, at most 400 characters."""
    return _OCCURRENCE_PREFIX.sub("", record.match_text)[:400]


def error_records(records: Sequence[LogRecord]) -> list[LogRecord]:
    """Records that look like the failure: errors, screen-printed errors, error-code headers."""
    return [r for r in records if r.level in _ERROR_LEVELS or r.error_code
            or r.kind in (RecordKind.SCREEN, RecordKind.ERROR_CODE_HEADER)]


def _symptom_id(record: LogRecord, taken: set[str]) -> str:
    words = [w.lower() for w in _WORDS.findall(record.match_text)[:4]] or ["line"]
    base = "-".join(words)[:40].strip("-")
    ident, n = base, 2
    while ident in taken:
        ident, n = f"{base}-{n}", n + 1
    taken.add(ident)
    return ident


def default_id(records: Sequence[LogRecord]) -> str:
    """``<module>.<code>`` from the first error record (``hccl.ei0006``), or a placeholder."""
    errors = error_records(records)
    first = errors[0] if errors else None
    component = (first.module or "draft").lower() if first else "draft"
    code = next((r.error_code for r in errors if r.error_code), None)
    return f"{re.sub(r'[^a-z0-9]+', '-', component).strip('-') or 'draft'}.{(code or 'new-fault').lower()}"


def draft_entry(entry_id: str, source: str, records: Sequence[LogRecord], observations: Sequence[Observation]) -> str:
    errors = error_records(records) or list(records)
    taken: set[str] = set()
    symptoms = [{"id": _symptom_id(r, taken), "form": "screen" if r.kind is not RecordKind.PLOG else "plog",
                 "signature": _signature(r), "weight": 0.8} for r in errors[:MAX_SIGNATURES]]
    # only CANN-shaped codes (EI0006, EZ9999): torch_npu's ERR01100 and the like are not error codes
    codes = sorted({str(o.value) for o in observations if o.fact == "error_code" and CODE_SHAPE.match(str(o.value))})
    log = "\n".join(r.raw.strip() for r in errors[:MAX_LOG_LINES]) + "\n"
    entry = {
        "id": entry_id,
        "title": f"{TODO}: one line an engineer recognises the fault by",
        "status": "experimental",
        "component": entry_id.split(".")[0],
        "severity": "high",
        "error_codes": codes,
        "symptoms": symptoms,
        "cause": f"{TODO}: why it happens, in a few sentences, from the cited article",
        "fixes": {"workaround": [f"{TODO}: what to do now"], "permanent": [f"{TODO}: what fixes it for good"],
                  "next_checks": [{"text": f"{TODO}: what to check next", "commands": [f"{TODO}: the exact command"]}]},
        "citations": [f"{TODO}: article-id#section-slug (write or extend the article in articles/ first)"],
        "tests": [
            {"name": f"the log this entry was drafted from ({source})", "log": log, "expect": entry_id},
            {"name": f"{TODO}: a near-miss log this entry must not conclude", "log": f"{TODO}: paste it here\n",
             "expect_not": entry_id},
        ],
    }
    facts = sorted({f"{o.fact}={o.value}" for o in observations})
    header = (f"# Draft made by `faultbot kb new` from {source}.\n"
              f"# Replace every {TODO}, then run `faultbot kb lint` and `faultbot kb test {entry_id}`.\n"
              "# Conditions: the facts below were seen in the log; add `conditions:` over the ones that\n"
              "# tell this fault from its near misses (see kb/README.md#conditions).\n")
    footer = "".join(f"#   {fact}\n" for fact in facts[:60])
    return header + dump_yaml(entry) + ("# Facts seen in the log:\n" + footer if footer else "")
