"""The engine's front door: evidence and answers in, a ranked diagnosis with questions out.

``Engine.diagnose`` is a pure function of its inputs (observations from the logs, symptom matches,
answers), so a session can replay it after every answer or paste, and a what-if run for question
selection is the same code with some condition verdicts pinned.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import msgspec

from ..extract.facts import Observation
from ..kb.loader import KnowledgeBase
from ..match.symptoms import SymptomMatch
from .agenda import run_to_fixpoint
from .aggregates import AGGREGATIONS, HeartbeatCrimer
from .answers import parse_answer
from .candidates import Candidate, Status, rank, score_entries, score_entry
from .codes import CodeExplanation, ReportingModule, ReturnCodeReading, explain_code, read_return_code
from .conditions import Tri
from .consequences import consequences, roots_first
from .decoding import DecodedField, decode_fields
from .exec_timeout import EffectiveExecTimeout
from .facts import Fact, Provenance, ProvenanceSource, WorkingMemory
from .lifecycle import CommDestroyedEarly
from .lineage import Lineage
from .pip_show import PipShowVersions
from .questions import Question, feeders, select_questions
from .rank_logs import ask_for_rank_logs
from .rules import Context, DerivationRule, KbRule


class Diagnosis(msgspec.Struct, frozen=True):
    """The engine's answer: conclusions, ruled-out candidates, questions, and everything they rest
    on."""

    conclusions: tuple[Candidate, ...]   # best first; empty when nothing in the KB fits
    excluded: tuple[Candidate, ...]      # matched, but a condition ruled them out
    questions: tuple[Question, ...]      # best first; empty when no answer would change anything
    memory: WorkingMemory
    matches: tuple[SymptomMatch, ...]
    fired: tuple[str, ...]               # derivation rules that fired, in order
    echo_root: Candidate | None          # the non-echo fault the timeouts echo, when there is one
    codes: tuple[CodeExplanation, ...] = ()   # every error code seen, read by its structure
    decoded: tuple[DecodedField, ...] = ()    # every field value a KB decoder explains
    consequences: tuple[tuple[str, str], ...] = ()   # (fault, the earlier fault on its rank it follows from)
    return_codes: tuple[ReturnCodeReading, ...] = ()  # every aclError seen, read by its class digit

    @property
    def top(self) -> Candidate | None:
        return self.conclusions[0] if self.conclusions else None


class Engine:
    def __init__(self, kb: KnowledgeBase):
        self.kb = kb
        self.lineage = Lineage(kb)
        self.specs = kb.facts
        self.rules: tuple[DerivationRule, ...] = (
            *(KbRule(rule) for rule in kb.rules), *AGGREGATIONS, HeartbeatCrimer(kb.heartbeat_priority),
            PipShowVersions(), EffectiveExecTimeout(kb.exec_timeout_profiles), CommDestroyedEarly(),
            ReportingModule(kb.codebook))
        self.echo_entries = self.lineage.echo_ids
        self.feeds = feeders(kb.rules, [getattr(rule, "feeds", {}) for rule in self.rules])

    def memory_for(self, observations: Iterable[Observation], answers: Mapping[str, str],
                   unknown: Iterable[str]) -> WorkingMemory:
        memory = WorkingMemory(unknown=unknown)
        for observation in observations:
            memory.add(Fact(observation.fact, observation.value,
                            Provenance(ProvenanceSource.LOG, record=observation.record, rule=observation.extractor)))
        for fact, text in answers.items():
            memory.add(Fact(fact, parse_answer(self.specs, fact, text), Provenance(ProvenanceSource.ANSWER)))
        return memory

    def diagnose(self, observations: Sequence[Observation], matches: Sequence[SymptomMatch],
                 answers: Mapping[str, str] | None = None, unknown: Iterable[str] = ()) -> Diagnosis:
        memory = self.memory_for(observations, answers or {}, unknown)
        context = Context(self.specs, tuple(matches), self.echo_entries)
        fired = run_to_fixpoint(memory, self.rules, context)
        candidates = score_entries(self.lineage, memory, matches, self.specs)
        ranked = rank(candidates)
        after = consequences(ranked, matches)
        ranked = roots_first(ranked, after)

        def rescore(candidate: Candidate, overrides: Mapping[int, Tri]) -> Candidate | None:
            return score_entry(candidate.entry, self.lineage, memory, matches, self.specs, overrides)

        leader = ranked[0] if ranked else None
        questions = ask_for_rank_logs(select_questions(candidates, leader, memory, self.specs, self.feeds, rescore),
                                      memory)
        roots = [c for c in ranked if not c.echo and c.status in (Status.CONFIRMED, Status.PROBABLE)]
        echo_root = roots[0] if roots and any(c.echo for c in ranked) else None
        excluded = tuple(c for c in candidates if c.status is Status.EXCLUDED)
        codebook = self.kb.codebook
        codes = tuple(explanation for code in map(str, memory.values("error_code"))
                      if codebook and (explanation := explain_code(code, codebook, self.kb.index.listing(code))))
        acl = codebook.acl if codebook else None
        return_codes = tuple(reading for code in dict.fromkeys(map(str, memory.values("acl_error_code")))
                             if acl and (reading := read_return_code(code, acl, self.kb.index.listing(code))))
        return Diagnosis(tuple(ranked), excluded, tuple(questions), memory, tuple(matches), tuple(fired), echo_root,
                         codes, decode_fields(memory, self.kb.decoders), tuple(after.items()), return_codes)
