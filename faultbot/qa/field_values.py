"""Questions about one field value ("what does retCode 0x31 mean", "CQE status 2 in an SDMA error"),
answered by the KB's field decoders word for word instead of by the passage that mentions it; and
about the values other than one the decoder knows ("a CQE status that is not 12"), answered by
what the decoder says of the values its table does not name.

A decoder is asked about by the names in its ``asked_as``, or by a log line pasted into the
question that one of the KB's extractors reads the field from (``hcclRet -> 9``, torch_npu's ``HCCL
function error: ..., error code is 5``; ``ret[9]`` of an HCCL error line where the question asks
about it); a value those extractors read as another field is not
decoded by a name match (``ErrCode=507899`` of a runtime line is an ACL code, not an ``errcode``).
When several decoders share a name (a CQE status of RoCE or of SDMA), the ones whose ``context``
words the question holds win, and without any such word every reading is given, each labelled,
rather than one guessed.
"""

from __future__ import annotations

import re

import msgspec

from ..engine.decoding import DecodedField, decode_value
from ..engine.facts import Fact, Provenance, ProvenanceSource
from ..kb.fact_values import coerce
from ..kb.loader import KnowledgeBase
from ..kb.model import Decoder, FactSpec, FactType
from .question import last_clause

_VALUE = r"(?P<value>\((?:[0-9a-fA-Fx]{1,10}, ?){0,3}[0-9a-fA-Fx]{1,10}\)|0[xX][0-9a-fA-F]{1,8}|\d{1,6})(?![A-Za-z0-9_]|\.\d)"
_BETWEEN = r"[^\w(]{0,3}(?:(?:is|was|of|=|:|equals?|为|是)[^\w(]{0,3})?"
# "status that is not 12", "status isn't 12", "status other than 12", "status 不是12"
_NOT = (r"[^\w(]{0,3}(?:(?:that|which)\s+)?(?:(?:is|was|are)\s*(?:not|n't)|isn't|wasn't|not|"
        r"(?:(?:is|was)\s+)?(?:something\s+)?(?:other than|different from|besides)|不是|不等于|不为|并非|非)[^\w(]{0,3}")


class _Field(msgspec.Struct, frozen=True):
    decoder: Decoder
    spec: FactSpec


class _Asked(msgspec.Struct, frozen=True):
    field: _Field
    pattern: re.Pattern[str]           # the field asked by a name of its, with a value
    negated: re.Pattern[str]           # the field said not to hold a value


def _asked_pattern(decoder: Decoder, between: str) -> re.Pattern[str]:
    names = "|".join(re.escape(n) for n in decoder.asked_as)
    return re.compile(r"(?i)(?<![\w])(?:" + names + r")" + between + _VALUE)


class _LogExtractor(msgspec.Struct, frozen=True):
    """A KB extractor as a question is read by it, with the facts it reads. One that diagnose runs
    on some modules or levels only (``ret[9]`` of an HCCL error line) reads only where the question
    asks ("这个 ret[9] 指什么"): a pasted line without its header does not say its module or level."""

    pattern: str          # compiled on first use, by re's cache: a fresh `ask` need not compile them all
    facts: tuple[str, ...]
    where_asked: bool

    def read(self, asking: str, typed: str) -> list[tuple[str, str]]:
        """Each fact this extractor reads from the question, with its value, in the text's order."""
        return [(fact, value) for match in re.finditer(self.pattern, asking if self.where_asked else typed)
                for fact in self.facts if (value := match.group(fact))]


def _log_extractors(kb: KnowledgeBase) -> tuple[_LogExtractor, ...]:
    """The KB's extractors: a log line pasted into a question is read as diagnose reads it."""
    found = []
    for extractor in kb.catalogue.extractors:
        facts = tuple(fact for fact in re.compile(extractor.pattern).groupindex if fact in kb.facts)
        found.append(_LogExtractor(extractor.pattern, facts, bool(extractor.modules or extractor.levels)))
    return tuple(found)


class FieldQuestions:
    def __init__(self, kb: KnowledgeBase):
        self._fields = {d.fact: _Field(d, kb.facts[d.fact]) for d in kb.decoders}
        self._asked = tuple(_Asked(self._fields[d.fact], _asked_pattern(d, _BETWEEN), _asked_pattern(d, _NOT))
                            for d in kb.decoders if d.asked_as)
        extractors = _log_extractors(kb)
        # those reading a field a decoder decodes run on every question; the others only to check
        # a value a decoder's name matched, which is rare
        self._decodable = tuple(e for e in extractors if not self._fields.keys().isdisjoint(e.facts))
        self._others = tuple(e for e in extractors if self._fields.keys().isdisjoint(e.facts))

    @staticmethod
    def _read(field: _Field, text: str) -> object | None:
        hex_written = text.lower().startswith("0x")
        if hex_written != field.decoder.hex_only and (field.decoder.hex_only or field.spec.type is FactType.INT):
            return None     # a hex field is always printed 0x..; a number field never is
        try:
            return coerce(field.spec, text)
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
        # what the KB's extractors read from the question as typed (a pasted line's fields)
        asking = last_clause(typed)
        # in the order the extractors and the text give them: the answer must not depend on a set's order
        read = list(dict.fromkeys(pair for extractor in self._decodable for pair in extractor.read(asking, typed)))
        values: list[tuple[_Field, str]] = [(self._fields[fact], value) for fact, value in read
                                            if fact in self._fields and not negated]
        named = [(asked.field, match.group("value")) for asked in self._asked
                 for match in (asked.negated if negated else asked.pattern).finditer(question)]
        if named:
            read += [pair for extractor in self._others for pair in extractor.read(asking, typed)]
        # a value the extractors read as another field is that field's ("ErrCode=507899" of a
        # runtime line is an ACL code, not an AI Core errcode)
        values += [(field, value) for field, value in named
                   if not any(other != field.decoder.fact and said == value for other, said in read)]
        found: list[tuple[bool, DecodedField]] = []
        for field, text in values:
            decoder, value = field.decoder, self._read(field, text)
            if value is None:
                continue
            decoded = decode_value(decoder, Fact(decoder.fact, value, Provenance(ProvenanceSource.ANSWER)))
            if negated:
                # Only a value the table names has others to speak of; they are what it does not name.
                decoded = (DecodedField(decoder.id, decoder.label, decoded.fact, decoder.otherwise, decoder.citation, False)
                           if decoded is not None and decoded.known and decoder.otherwise else None)
            if decoded is not None:
                in_context = any(word.lower() in lowered for word in decoder.context)
                found.append((in_context, decoded))
        if any(in_context for in_context, _ in found):
            found = [pair for pair in found if pair[0]]
        return tuple(dict.fromkeys(decoded for _, decoded in found))
