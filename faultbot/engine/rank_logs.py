"""One request for the other ranks' logs instead of a question per fact derived from them: when
the question worth asking first is a fact faultbot itself derives by comparing ranks (which rank
failed first, whether their collectives or error times differ), it asks for those ranks' errors
once; the individual questions stay, after it, as checks to narrow the answer down.
"""

from __future__ import annotations

from collections.abc import Sequence

from .aggregates import FROM_OTHER_RANKS
from .facts import WorkingMemory
from .questions import Question

GREP_ERRORS = 'grep -rn "ERROR" ~/ascend/log/debug/plog  # on every node of the job'


def ask_for_rank_logs(questions: Sequence[Question], memory: WorkingMemory) -> tuple[Question, ...]:
    """``questions`` with the first one, when it is derived from other ranks' logs, replaced by a
    request for those logs that still accepts the fact's own answer."""
    if not questions or questions[0].fact not in FROM_OTHER_RANKS:
        return tuple(questions)
    first = questions[0]
    settled_by_logs = [q for q in questions if q.fact in FROM_OTHER_RANKS]
    groups = memory.values("task_group")
    which = f" of communicator {groups[0]}" if groups else ""
    facts = ", ".join(f"`{q.fact}`" for q in settled_by_logs)
    request = Question(
        fact=first.fact,
        text=f"Paste the errors of the other ranks{which} (the grep below, on every node); or answer: {first.text}",
        why=f"What decides this ({facts}) is in the other ranks' logs; one paste settles it all. {first.why}",
        how_to_find=(GREP_ERRORS, *first.how_to_find),
        choices=first.choices,
        example=first.example,
        needed_by=tuple(dict.fromkeys(pair for q in settled_by_logs for pair in q.needed_by)),
        score=first.score,
    )
    return (request, *questions[1:])
