"""Engineers' answers: typed against the fact catalogue, or "unknown" / "skip"."""

from __future__ import annotations

from collections.abc import Mapping

from ..kb.fact_values import coerce
from ..kb.model import FactSpec

UNKNOWN_WORDS = frozenset({"unknown", "skip", "?", "dont know", "don't know", "不知道", "跳过"})


class AnswerError(ValueError):
    """An answer that does not fit its fact; the message says why, to ask again."""


def is_unknown(text: str) -> bool:
    return " ".join(str(text).lower().split()) in UNKNOWN_WORDS


def parse_answer(specs: Mapping[str, FactSpec], fact: str, text: str) -> object:
    """The typed value of ``text`` for ``fact``; raises AnswerError for unknown facts and bad values."""
    spec = specs.get(fact)
    if spec is None:
        raise AnswerError(f"'{fact}' is not a fact faultbot knows (see kb/facts.yaml)")
    try:
        return coerce(spec, text)
    except ValueError as exc:
        raise AnswerError(f"{fact}: {exc}") from None
