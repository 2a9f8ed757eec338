"""Versions from pasted ``pip show`` output: a Name line followed by its Version line.

Each line is a record of its own, so the pairing needs two records: the Version line right after
``Name: torch-npu`` in the same paste gives ``torch_npu_version``.
"""

from __future__ import annotations

from ..kb.fact_values import coerce
from .aggregates import facts_by_record
from .facts import Fact, Provenance, ProvenanceSource, WorkingMemory
from .rules import Context

_PACKAGES = {"torch-npu": "torch_npu_version", "torch_npu": "torch_npu_version"}


class PipShowVersions:
    id = "pip-show-versions"
    priority = 0
    specificity = 1

    def fire(self, memory: WorkingMemory, context: Context) -> list[Fact]:
        names, versions = {}, {}
        for record, facts in facts_by_record(memory):
            where = (record.origin.source, record.origin.line)
            if "pip_package" in facts:
                names[where] = facts["pip_package"]
            if "pip_version" in facts:
                versions[where] = facts["pip_version"]
        derived = []
        for (source, line), name in names.items():
            fact_name = _PACKAGES.get(str(name.value).lower())
            version = versions.get((source, line + 1))
            if fact_name is None or version is None:
                continue
            try:
                value = coerce(context.specs[fact_name], version.value)
            except ValueError:
                continue
            derived.append(Fact(fact_name, value, Provenance(ProvenanceSource.DERIVED, rule=self.id, supports=(name, version))))
        return derived
