"""Scoring KB entries against the evidence: which faults are candidates, how sure, in what order.

Symptom matches give an entry its evidence strength (inherited symptoms count for children);
its effective condition gives a verdict. Together they give a status (confirmed, probable,
possible, excluded) and a confidence. Ordering puts confirmed before probable before possible,
puts echo faults (timeouts) after the fault they echo, and lets a child win over its parent only
when the child's own conditions hold.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

import msgspec
from msgspec.structs import replace

from ..kb.model import Entry, FactSpec, SymptomForm
from ..match.symptoms import SymptomMatch
from .conditions import Evaluator, LeafResult, Tri
from .facts import WorkingMemory
from .lineage import Lineage, depth

MIN_CONFIDENCE = 0.15         # below this a candidate is neither shown nor asked about
STRONG_EVIDENCE = 0.5         # evidence strength from which a matched entry can be confirmed


class Status(str, Enum):
    CONFIRMED = "confirmed"   # symptoms matched strongly and every condition holds
    PROBABLE = "probable"     # strong symptoms, conditions not all known (or weak symptoms, conditions hold)
    POSSIBLE = "possible"     # weak symptoms and unknown conditions
    EXCLUDED = "excluded"     # a condition is false


_STATUS_ORDER = {Status.CONFIRMED: 0, Status.PROBABLE: 1, Status.POSSIBLE: 2, Status.EXCLUDED: 3}


class Candidate(msgspec.Struct, frozen=True):
    """A KB entry scored against the evidence: its best matches, verdict, status and confidence."""

    entry: Entry
    evidence: tuple[SymptomMatch, ...]     # the best match of each symptom, strongest first
    strength: float
    verdict: Tri
    leaves: tuple[LeafResult, ...]
    status: Status
    confidence: float
    echo: bool

    @property
    def id(self) -> str:
        return self.entry.id


def _best_matches(entry: Entry, lineage: Lineage, matches_by_entry: Mapping[str, list[SymptomMatch]]) -> list[SymptomMatch]:
    best: dict[tuple[str, str], SymptomMatch] = {}
    for member in (*lineage.ancestors(entry), entry):
        for match in matches_by_entry.get(member.id, []):
            key = (member.id, match.symptom.id)
            if key not in best or match.score > best[key].score:
                best[key] = match
    return sorted(best.values(), key=lambda m: -m.symptom.weight * m.score)


def described_only(evidence: Sequence[SymptomMatch]) -> bool:
    """Whether ``evidence`` is only a failure described in words (qa/described.py), no log line."""
    return all(match.symptom.form is SymptomForm.WORDS for match in evidence)


def _strength(evidence: Sequence[SymptomMatch]) -> float:
    """Noisy-or of the matched symptoms' weighted scores."""
    missing = 1.0
    for match in evidence:
        missing *= 1.0 - match.symptom.weight * match.score
    return 1.0 - missing


def _status(verdict: Tri, strength: float) -> Status:
    if verdict is Tri.FALSE:
        return Status.EXCLUDED
    strong = strength >= STRONG_EVIDENCE
    if verdict is Tri.TRUE:
        return Status.CONFIRMED if strong else Status.PROBABLE
    return Status.PROBABLE if strong else Status.POSSIBLE


def _confidence(verdict: Tri, strength: float, leaves: Sequence[LeafResult]) -> float:
    if verdict is Tri.TRUE:
        return round(strength, 3)
    if verdict is Tri.FALSE:
        return 0.0
    known_true = sum(leaf.verdict is Tri.TRUE for leaf in leaves) / max(len(leaves), 1)
    return round(strength * (0.45 + 0.3 * known_true), 3)


def score_entries(lineage: Lineage, memory: WorkingMemory, matches: Sequence[SymptomMatch],
                  specs: Mapping[str, FactSpec], overrides: Mapping[int, Tri] | None = None) -> list[Candidate]:
    """Every entry with at least one matched symptom (own or inherited), scored; unordered."""
    by_entry = _matches_by_entry(matches)
    scorer = _Scorer(lineage, memory, specs, overrides)
    return [candidate for entry in lineage.families_of(by_entry)
            if (candidate := scorer.score(entry, by_entry)) is not None]


def score_entry(entry: Entry, lineage: Lineage, memory: WorkingMemory, matches: Sequence[SymptomMatch],
                specs: Mapping[str, FactSpec], overrides: Mapping[int, Tri] | None = None) -> Candidate | None:
    """``entry`` alone scored as ``score_entries`` scores it (candidates are scored independently),
    or None when no symptom of its family matched."""
    return _Scorer(lineage, memory, specs, overrides).score(entry, _matches_by_entry(matches))


def _matches_by_entry(matches: Sequence[SymptomMatch]) -> dict[str, list[SymptomMatch]]:
    by_entry: dict[str, list[SymptomMatch]] = {}
    for match in matches:
        by_entry.setdefault(match.entry_id, []).append(match)
    return by_entry


class _Scorer:
    """Scores entries against one working memory, with some condition tests optionally pinned."""

    def __init__(self, lineage: Lineage, memory: WorkingMemory, specs: Mapping[str, FactSpec],
                 overrides: Mapping[int, Tri] | None) -> None:
        self.lineage = lineage
        self.from_log = Evaluator(memory, specs, overrides)
        self.from_words = Evaluator(memory, specs, overrides, from_log=False)

    def score(self, entry: Entry, by_entry: Mapping[str, list[SymptomMatch]]) -> Candidate | None:
        evidence = _best_matches(entry, self.lineage, by_entry)
        if not evidence:
            return None
        described = described_only(evidence)
        leaves: list[LeafResult] = []
        verdict = (self.from_words if described else self.from_log).evaluate(self.lineage.condition(entry), leaves)
        strength = _strength(evidence)
        # words are not a log, and a catch-all names no cause: neither claims more than its ceiling
        ceiling = Status.POSSIBLE if described else Status(entry.concludes_at_most.value)
        status = max(_status(verdict, strength), ceiling, key=_STATUS_ORDER.__getitem__)
        return Candidate(entry, tuple(evidence), round(strength, 3), verdict, tuple(leaves),
                         status, _confidence(verdict, strength, leaves), self.lineage.is_echo(entry))


def _waiting_on(candidate: Candidate) -> frozenset[str]:
    """The facts whose unknown tests leave ``candidate``'s conditions undecided."""
    return frozenset(leaf.test.fact for leaf in candidate.leaves if leaf.verdict is Tri.UNKNOWN)


def _lines(candidate: Candidate) -> frozenset[int]:
    return frozenset(id(match.record) for match in candidate.evidence)


def _undecided(live: Sequence[Candidate]) -> set[str]:
    """Probable candidates that one unknown fact decides between: the same log lines match them, each
    waits on that fact, and neither refines the other (AI Core "kernel execute failed" is an
    exception or a timeout until the retCode says which). Naming one would be a guess."""
    waiting = [c for c in live if c.status is Status.PROBABLE and c.verdict is Tri.UNKNOWN]
    return {c.id for c in waiting for rival in waiting
            if rival is not c and _lines(rival) == _lines(c) and _waiting_on(rival) & _waiting_on(c)
            and not rival.id.startswith(c.id + ".") and not c.id.startswith(rival.id + ".")}


def rank(candidates: Sequence[Candidate]) -> list[Candidate]:
    """Live candidates in the order an engineer should read them; refined parents and weak ones dropped;
    rivals an unknown fact decides between are possible, not probable (``_undecided``)."""
    live = [c for c in candidates if c.status is not Status.EXCLUDED and c.confidence >= MIN_CONFIDENCE]
    undecided = _undecided(live)
    live = [replace(c, status=Status.POSSIBLE) if c.id in undecided else c for c in live]
    # A child whose own conditions all hold says everything its parent says, and more.
    holding = {c.id for c in live if c.verdict is Tri.TRUE}
    live = [c for c in live if not any(other.startswith(c.id + ".") for other in holding)]
    root_found = any(not c.echo and c.status in (Status.CONFIRMED, Status.PROBABLE) for c in live)

    def key(c: Candidate) -> tuple[object, ...]:
        demoted = c.echo and root_found
        # on a tie the more general entry comes first: a child wins only by its own conditions
        return (demoted, _STATUS_ORDER[c.status], -c.confidence, depth(c.entry), c.id)

    return sorted(live, key=key)
