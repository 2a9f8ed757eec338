"""One rank, several errors: the first different error on a rank is the root, and a fault whose
every line on that rank comes after it is its consequence ("X, then Y as a consequence"), shown
after it whatever its own confidence. Echo entries (timeouts) are handled by ``candidates.rank``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..match.symptoms import SymptomMatch
from .candidates import Candidate, Status

_ROOT_STATUSES = (Status.CONFIRMED, Status.PROBABLE)


def _first_lines(candidate: Candidate, matches: Sequence[SymptomMatch]) -> dict[tuple[str, int | None], int]:
    """Per (source, rank): the first line where any of ``candidate``'s matched symptoms was seen."""
    symptoms = {(m.entry_id, m.symptom.id) for m in candidate.evidence}
    first: dict[tuple[str, int | None], int] = {}
    for match in matches:
        if (match.entry_id, match.symptom.id) in symptoms:
            origin = match.record.origin
            key = (origin.source, origin.rank)
            first[key] = min(first.get(key, origin.line), origin.line)
    return first


def _related(a: Candidate, b: Candidate) -> bool:
    return a.id.startswith(b.id + ".") or b.id.startswith(a.id + ".")


def consequences(ranked: Sequence[Candidate], matches: Sequence[SymptomMatch]) -> dict[str, str]:
    """{consequence id: root id} among the confirmed and probable non-echo candidates: a fault seen
    only after another one on the same rank of the same input, sharing none of its lines."""
    roots = [c for c in ranked if not c.echo and c.status in _ROOT_STATUSES]
    first = {c.id: _first_lines(c, matches) for c in roots}
    found: dict[str, str] = {}
    for later in roots:
        for earlier in roots:
            if earlier is later or _related(earlier, later) or earlier.id in found:
                continue
            shared = first[earlier.id].keys() & first[later.id].keys()
            if shared and all(first[earlier.id][k] < first[later.id][k] for k in shared):
                found[later.id] = earlier.id
                break
    return found


def roots_first(ranked: Sequence[Candidate], found: dict[str, str]) -> list[Candidate]:
    """``ranked`` with each consequence moved after the candidates that are not consequences."""
    return sorted(ranked, key=lambda c: c.id in found)
