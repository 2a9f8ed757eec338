"""comm_destroyed_before_sync: a process destroyed its communicator (Entry-HcclCommDestroy) and
then reported an SDMA error or a task exception — the collective was still running when the HCCL
buffer was freed, as the HCCL article's SDMA section describes. Same process: engine/process.py."""

from __future__ import annotations

from ..ingest.records import LogRecord
from .aggregates import facts_by_record
from .facts import Fact, Provenance, ProvenanceSource, WorkingMemory
from .process import ProcessKey, process_of
from .rules import Context

SDMA_FAMILY = "hccl.sdma-error"


class CommDestroyedEarly:
    id = "comm-destroyed-before-sync"
    priority = 0
    specificity = 1

    def fire(self, memory: WorkingMemory, context: Context) -> list[Fact]:
        destroyed: dict[ProcessKey, Fact] = {}
        failures: list[tuple[LogRecord, Fact | None]] = []
        for record, facts in facts_by_record(memory):
            if "comm_destroyed" in facts and record.timestamp is not None:
                destroyed.setdefault(process_of(record), facts["comm_destroyed"])
            if "task_tag" in facts or "sdma_remote_rank" in facts:
                failures.append((record, next(iter(facts.values()))))
        failures += [(m.record, None) for m in context.matches if m.entry_id.startswith(SDMA_FAMILY)]
        for record, support in failures:
            destroy = destroyed.get(process_of(record))
            if destroy is None or record.timestamp is None:
                continue
            destroy_record = destroy.provenance.record
            destroyed_at = destroy_record.timestamp if destroy_record is not None else None
            if destroyed_at is not None and destroyed_at <= record.timestamp:
                origin = record.origin
                return [Fact("comm_destroyed_before_sync", True, Provenance(
                    ProvenanceSource.DERIVED, rule=self.id, supports=tuple(f for f in (destroy, support) if f),
                    note=f"destroyed at {destroyed_at}, failure at {origin.source}:{origin.line}"))]
        return []
