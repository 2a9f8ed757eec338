"""Questions about one field value ("what does retCode 0x31 mean", "CQE status 2 in an SDMA error"),
answered by the KB's field decoders word for word instead of by the passage that mentions it; and
about the values other than one the decoder knows ("a CQE status that is not 12"), answered by
what the decoder says of the values its table does not name.

A decoder is asked about by the names in its ``asked_as``, or by a log line pasted into the
question that one of the KB's extractors reads the field from (``hcclRet -> 9``, torch_npu's ``HCCL
function error: ..., error code is 5``); when several decoders share a name (a CQE status of RoCE
or of SDMA), the ones whose ``context`` words the question holds win, and without any such word
every reading is given, each labelled, rather than one guessed.
"""

from __future__ import annotations

import re

import msgspec

from ..engine.decoding import DecodedField, decode_value
from ..engine.facts import Fact, Provenance, ProvenanceSource
from ..kb.fact_values import coerce
from ..kb.loader import KnowledgeBase
from ..kb.model import Decoder, FactSpec, FactType

_VALUE = r"(?P<value>\((?:[0-9a-fA-Fx]{1,10}, ?){0,3}[0-9a-fA-Fx]{1,10}\)|0[xX][0-9a-fA-F]{1,8}|\d{1,6})(?![A-Za-z0-9_]|\.\d)"
_BETWEEN = r"[^\w(]{0,3}(?:(?:is|was|of|=|:|equals?|为|是)[^\w(]{0,3})?"
# "status that is not 12", "status isn't 12", "status other than 12", "status 不是12"
_NOT = (r"[^\w(]{0,3}(?:(?:that|which)\s+)?(?:(?:is|was|are)\s*(?:not|n't)|isn't|wasn't|not|"
        r"(?:(?:is|was)\s+)?(?:something\s+)?(?:other than|different from|besides)|不是|不等于|不为|并非|非)[^\w(]{0,3}")


class _Asked(msgspec.Struct, frozen=True):
    decoder: Decoder
    spec: FactSpec
    pattern: re.Pattern[str]
    negated: re.Pattern[str] | None    # the field said not to hold a value (when asked by its name)
    group: str = "value"               # the pattern's group that holds the value


def _asked_pattern(decoder: Decoder, between: str) -> re.Pattern[str]:
    names = "|".join(re.escape(n) for n in decoder.asked_as)
    return re.compile(r"(?i)(?<![\w])(?:" + names + r")" + between + _VALUE)


def _read_from_log_lines(kb: KnowledgeBase) -> list[_Asked]:
    """The decoded fields the KB's extractors read from any text (no module or level asked for): a
    log line pasted into a question is read as diagnose reads it."""
    decoders = {d.fact: d for d in kb.decoders}
    found = []
    for extractor in kb.catalogue.extractors:
        if extractor.modules or extractor.levels:
            continue
        pattern = re.compile(extractor.pattern)
        found += [_Asked(decoders[fact], kb.facts[fact], pattern, None, fact)
                  for fact in pattern.groupindex if fact in decoders]
    return found


class FieldQuestions:
    def __init__(self, kb: KnowledgeBase):
        self._asked = tuple(_Asked(d, kb.facts[d.fact], _asked_pattern(d, _BETWEEN), _asked_pattern(d, _NOT))
                            for d in kb.decoders if d.asked_as) + tuple(_read_from_log_lines(kb))

    def _read(self, asked: _Asked, text: str) -> object | None:
        hex_written = text.lower().startswith("0x")
        if hex_written != asked.decoder.hex_only and (asked.decoder.hex_only or asked.spec.type is FactType.INT):
            return None     # a hex field is always printed 0x..; a number field never is
        try:
            return coerce(asked.spec, text)
        except ValueError:
            return None

    def decode(self, question: str, typed: str = "") -> tuple[DecodedField, ...]:
        """Every decoded reading of the field values the question (in the articles' words) names,
        or a log line in it as ``typed`` holds, best-fitting fields first."""
        return self._found(question, negated=False, typed=typed or question)

    def decode_others(self, question: str) -> tuple[DecodedField, ...]:
        """For a field the question says is not some value ("CQE status 不是12"), what each decoder of
        that name that knows the value says of the values its table does not name; the fact holds
        the value excluded."""
        return self._found(question, negated=True, typed=question)

    def _found(self, question: str, negated: bool, typed: str) -> tuple[DecodedField, ...]:
        lowered = question.lower()
        found: list[tuple[bool, DecodedField]] = []
        for asked in self._asked:
            pattern = asked.negated if negated else asked.pattern
            read = question if asked.group == "value" else typed    # a log line as pasted, not reworded
            for match in pattern.finditer(read) if pattern is not None else ():
                value = self._read(asked, match.group(asked.group))
                if value is None:
                    continue
                decoded = decode_value(asked.decoder, Fact(asked.decoder.fact, value, Provenance(ProvenanceSource.ANSWER)))
                if negated:
                    # Only a value the table names has others to speak of; they are what it does not name.
                    decoded = (DecodedField(asked.decoder.id, asked.decoder.label, decoded.fact, asked.decoder.otherwise,
                                            asked.decoder.citation, False)
                               if decoded is not None and decoded.known and asked.decoder.otherwise else None)
                if decoded is not None:
                    in_context = any(word.lower() in lowered for word in asked.decoder.context)
                    found.append((in_context, decoded))
        if any(in_context for in_context, _ in found):
            found = [pair for pair in found if pair[0]]
        return tuple(dict.fromkeys(decoded for _, decoded in found))
