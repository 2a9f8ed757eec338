"""Forms of question that say more than their words: a log field stated with its value
("ExceptionType is Heartbeat Lost Occurred. What happened?"), which asks about the value, not about
the field; read so that the value alone is what the question names."""

from __future__ import annotations

import re

import msgspec

from ..kb.model import Intent
from .index import KnowledgeIndex

# A field, then is / = / : / [ and its value, up to the end of the clause: "ExceptionType:[Stuck
# Occurred]", "the status is LOST", "ExceptionType = Heartbeat Lost Occurred".
_CONNECTOR = re.compile(r"\s*(?:\b(?:is|was|says|shows)\b|=|:|\[)\s*\[?", re.ASCII)
_VALUE = re.compile(r"[^.?!,;:\[\]()=\n]{2,60}")
_CLAUSE = re.compile(r"[.?!,;:\[\]()=\n]")
MAX_FIELD_WORDS = 3
_ERROR_CODE = re.compile(r"[A-Z][A-Z0-9]\d{4}")    # "EI0002: The wait execution ..." is a code and its message


class StatedValue(msgspec.Struct, frozen=True):
    field: str        # as the question writes it
    value: int        # the thing the value is, in the catalogue
    rest: str         # the question without the field: what it asks about the value


def stated_value(index: KnowledgeIndex, reworded: str) -> StatedValue | None:
    """The value the (reworded) question states a log field to have, when the field is something the
    knowledge base names and the value is another thing it says the meaning of; else None."""
    if index.linker is None:
        return None
    things = index.catalogue.things
    for connector in _CONNECTOR.finditer(reworded):
        value = _VALUE.match(reworded, connector.end())
        before = _CLAUSE.split(reworded[:connector.start()])[-1].split()
        # The field is the fewest words before the connector that name something (the status, not
        # "my summary line says the status").
        field = next((n for n in range(1, min(MAX_FIELD_WORDS, len(before)) + 1)
                      if index.linker.linked(" ".join(before[-n:]), index.catalogue)), 0)
        if value is None or not field or _ERROR_CODE.fullmatch(" ".join(before[-field:])):
            continue
        named = set(index.linker.linked(" ".join(before[-field:]), index.catalogue))
        values = [t for t in index.linker.linked(value.group(), index.catalogue,
                                                 lambda n: bool(things[n].answering(Intent.MEANING)))
                  if t not in named]
        if values:
            rest = f"{reworded[:connector.start()].rstrip()[:-len(' '.join(before[-field:]))]} {reworded[value.start():]}"
            return StatedValue(" ".join(before[-field:]), values[0], " ".join(rest.split()))
    return None
