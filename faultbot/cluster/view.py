"""The cluster view of a diagnosis: every rank of every communicator, the timeline of first errors,
and the suspect ranks with their reasons, built from the records the engine reasoned over."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from ..engine.aggregates import crimer, facts_by_record, first_per_rank, heartbeat_evidence, task_exceptions
from ..engine.diagnosis import Diagnosis
from ..engine.process import ProcessKey
from ..kb.loader import KnowledgeBase
from .identity import Identities, identify

if TYPE_CHECKING:
    from .communicators import Communicator
    from .localise import Finding, Suspect
    from .rank_evidence import RankEvidence
    from .table import RankRow
    from .timeline import TimelineEntry


class ClusterView(msgspec.Struct, frozen=True):
    """The cluster-wide view of a diagnosis (see cluster_view)."""

    identities: Identities
    evidence: dict[ProcessKey, RankEvidence]
    communicators: tuple[Communicator, ...]
    rows: tuple[RankRow, ...]                 # communicator by communicator, by rank
    timeline: tuple[TimelineEntry, ...]
    findings: tuple[Finding, ...]
    suspects: tuple[Suspect, ...]             # strongest first

    @property
    def nodes(self) -> tuple[str, ...]:
        return tuple(sorted({key.node for key in self.identities.ranks}))

    def label(self, key: ProcessKey) -> str:
        info = self.identities.info(key)
        return info.label if info else str(key)


def cluster_view(diagnosis: Diagnosis, kb: KnowledgeBase, echo_entries: frozenset[str]) -> ClusterView | None:
    """The view when the input holds two ranks or more, else None."""
    memory = diagnosis.memory
    records = list(facts_by_record(memory))
    events = task_exceptions(records)
    identities = identify(records, events)
    if len(identities.ranks) < 2:
        return None
    # The rest of the cluster analysis, imported only for input that holds several ranks.
    from .communicators import communicators
    from .localise import EngineFacts, Inputs, localise
    from .rank_evidence import rank_evidence
    from .table import table
    from .timeline import timeline

    heartbeats = heartbeat_evidence(memory, records)
    codes = kb.index.error_codes
    evidence = rank_evidence(records, heartbeats, diagnosis.matches, identities, echo_entries, codes)
    comms = communicators(identities)
    rows = table(comms, evidence)
    inputs = Inputs(identities, evidence, rows, first_per_rank(events), events,
                    crimer(heartbeats, kb.heartbeat_priority), EngineFacts.of(memory), kb.heartbeat_priority)
    findings, suspects = localise(inputs)
    return ClusterView(identities, evidence, comms, rows, timeline(evidence), findings, suspects)
