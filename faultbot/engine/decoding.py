"""Field decoding: each value a decoder knows (retCode 0x26, errcode (0, 0, 0), CQE status 12)
said in words, with the fact it was read from, so a diagnosis explains the fields it relied on."""

from __future__ import annotations

import msgspec

from ..kb.model import Decoder
from .conditions import holds
from .facts import Fact, WorkingMemory

MAX_VALUES_PER_FIELD = 4


class DecodedField(msgspec.Struct, frozen=True):
    """A field value a KB decoder explains, in words, with where the value was read."""

    decoder: str
    label: str          # what the field is
    fact: Fact          # the value, with where it was read
    meaning: str
    citation: str
    known: bool         # False when the decoder's table has no case for the value

    @property
    def sentence(self) -> str:
        """The meaning as a sentence, with its full stop."""
        return self.meaning if self.meaning.endswith(".") else f"{self.meaning}."


def decode_value(decoder: Decoder, fact: Fact) -> DecodedField | None:
    case = next((c for c in decoder.cases if holds(c.test, fact.value)), None)
    if case is not None:
        return DecodedField(decoder.id, decoder.label, fact, case.means, case.citation or decoder.citation, True)
    if decoder.otherwise:
        return DecodedField(decoder.id, decoder.label, fact, decoder.otherwise, decoder.citation, False)
    return None


def decode_fields(memory: WorkingMemory, decoders: tuple[Decoder, ...]) -> tuple[DecodedField, ...]:
    """Every distinct value of every decoded field, in decoder order; the first fact of a value
    stands for it (its provenance says where the value was read)."""
    decoded: list[DecodedField] = []
    for decoder in decoders:
        seen: list[object] = []
        for fact in memory.facts(decoder.fact):
            if fact.value in seen or len(seen) == MAX_VALUES_PER_FIELD:
                continue
            seen.append(fact.value)
            if (field := decode_value(decoder, fact)) is not None:
                decoded.append(field)
    return tuple(decoded)
