"""The bottom toolbar: the top candidates and how sure each is, and the question pending."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from ..engine.diagnosis import Diagnosis
from ..engine.questions import Question
from .style import confidence_colour

SHOWN = 3


def toolbar(diagnosis: Diagnosis, pending: Question | None) -> StyleAndTextTuples:
    parts: StyleAndTextTuples = []
    for candidate in diagnosis.conclusions[:SHOWN]:
        parts += [("", " "), (f"class:toolbar.{confidence_colour(candidate.confidence)}",
                              f"{candidate.id} {candidate.status.value} {candidate.confidence:.2f}"), ("", " │")]
    if not parts:
        parts = [("", " no candidates yet: paste a log or describe the failure │")]
    if pending is not None:
        parts.append(("", f" asking: {pending.fact} │"))
    return [*parts, ("", " /help ")]
