"""Saving a diagnosis as an eval case (``--save-case DIR``, the chat's ``/export --as-case``):
the evidence lines, the answers given, and the conclusion, ready for ``tests/cases/``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from .atomic_files import write_atomically
from .authoring.yaml_writer import dump_yaml
from .engine.diagnosis import Diagnosis
from .kb.entry_schema import NO_CONCLUSION


def evidence_log(diagnosis: Diagnosis) -> str:
    """The raw text of every record that gave a fact or matched a symptom, in input order."""
    records = {id(f.provenance.record): f.provenance.record for f in diagnosis.memory
               if f.provenance.record is not None}
    records.update({id(m.record): m.record for m in diagnosis.matches})
    ordered = sorted(records.values(), key=lambda r: (r.origin.source, r.origin.line))
    return "".join(r.raw.strip() + "\n" for r in ordered)


def case_document(name: str, log: str, answers: Mapping[str, str], expect: str) -> str:
    """An eval case as YAML, the log as a literal block so it reads as it was pasted."""
    case = {"name": name, "log": log if log.endswith("\n") else log + "\n", "answers": dict(answers), "expect": expect}
    return dump_yaml(case)


def case_yaml(diagnosis: Diagnosis, answers: dict[str, str], unknown: set[str], name: str) -> str:
    top = diagnosis.top
    status = f"{top.id} was concluded as {top.status.value}" if top else "nothing was concluded"
    header = f"# Saved by faultbot: {status}. Check the expectation before adding it to tests/cases/.\n"
    return header + case_document(name, evidence_log(diagnosis), {**answers, **dict.fromkeys(sorted(unknown), "unknown")},
                                  top.id if top else NO_CONCLUSION)


def save_case(directory: Path, diagnosis: Diagnosis, answers: dict[str, str], unknown: set[str]) -> Path:
    """Write the case into ``directory`` (made when missing), whole or not at all; raises OSError."""
    top = diagnosis.top
    stem = re.sub(r"[^a-z0-9.-]+", "-", (top.id if top else NO_CONCLUSION).lower())
    path = directory / f"{stem}-{datetime.now():%Y%m%d-%H%M%S}.yaml"
    name = f"saved {datetime.now():%Y-%m-%d %H:%M}: {top.entry.title if top else 'no conclusion'}"
    write_atomically(path, case_yaml(diagnosis, answers, unknown, name))
    return path
