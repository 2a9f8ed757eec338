"""When to ask: one question before the conclusion is shown, and another only when the answer to
the last one changed the standing of the candidates (the leader, or a candidate confirmed or ruled
out). An "unknown" changes nothing, so it ends the questions: what is left goes under "To narrow it
down" as next checks. The terminal (``diagnose``), the chat and the eval harness all ask by this rule.
"""

from __future__ import annotations

from .diagnosis import Diagnosis
from .questions import Question


def _standing(diagnosis: Diagnosis) -> tuple[str | None, dict[str, str]]:
    """The leading candidate and every candidate's status."""
    statuses = {c.id: c.status.value for c in (*diagnosis.conclusions, *diagnosis.excluded)}
    return (diagnosis.top.id if diagnosis.top else None), statuses


def question_to_ask(now: Diagnosis, asked_at: Diagnosis | None = None) -> Question | None:
    """The question to put to the engineer now. ``asked_at`` is the diagnosis the last question
    was asked on, or None when no question has been asked since the evidence last changed."""
    if not now.questions:
        return None
    if asked_at is not None and _standing(asked_at) == _standing(now):
        return None
    return now.questions[0]
