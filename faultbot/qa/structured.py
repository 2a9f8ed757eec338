"""Answering from what the knowledge base states about a named thing: when a question names one
thing (after qualifiers such as a product or mode a named setting's values depend on) and asks
for something the KB states about it (its default, cause, workaround ...), the statements of that
kind answer, best first; otherwise the question is left to passage retrieval.

Among a thing's statements of the kind asked for, where it is stated decides (the settings file, a
section titled for it, a definition, an entry; see things.py), then the question's other words (a
question about a destroyed communicator and an SDMA error picks that particular fault's checks)."""

from __future__ import annotations

import re

import msgspec

from ..kb.model import Intent
from .index import KnowledgeIndex
from .question import asking_words, chars_from, last_clause
from .things import Statement, Thing
from .tokens import query_terms, tokenize, words

# When a question asks for several things, the most particular one is answered.
INTENT_ORDER = (Intent.DEFAULT, Intent.RANGE, Intent.UNIT, Intent.FIXED_VERSION, Intent.WORKAROUND,
                Intent.PERMANENT_FIX, Intent.CAUSE, Intent.CONSISTS_OF, Intent.COLLECT, Intent.SIGNATURE,
                Intent.CHECK, Intent.ENABLE, Intent.MEANING)


class Choice(msgspec.Struct, frozen=True):
    thing: Thing
    thing_number: int                   # its place in the catalogue
    intents: frozenset[Intent]          # what is asked that the statements answer
    statements: tuple[Statement, ...]   # of the most particular intent the thing answers, best first
    generic: bool                       # the thing is named by a word most passages write (HCCL)
    residual: dict[str, float]          # the question's terms besides what it asks and the thing's names


def _without_qualifiers(linked: list[int], index: KnowledgeIndex) -> list[int]:
    """A product or mode the values of a named setting depend on (AIV, Atlas A3) qualifies what is
    asked about that setting; it is not a second thing asked about."""
    things = index.catalogue.things
    qualifying = {w for number in linked for thing in [things[number]] for s in thing.statements if s.setting
                  for kind in index.catalogue.settings[s.setting].values for v in kind[1] for part in v.when
                  for w in words(index.rewording.reword(part))}
    kept = [n for n in linked if not all(set(words(index.rewording.reword(name))) <= qualifying
                                         for name in things[n].names)]
    return kept or linked


# "how can I solve it", "这个报错怎么解决": a clause asking about the failure the question pasted
_REFERS_BACK = re.compile(r"\b(?:it|this(?:\s+error)?|that)\s*[?？.!]*\s*$|(?:这个|该)(?:报错|错误|错|问题)", re.I)
# "this error code" asks about the one code the question names; an error code of CANN or the ACL
THIS_CODE = re.compile(r"\b(?:this|that|the)\s+(?:error\s+)?code\b|(?:这个|该)\s*(?:error\s*)?(?:码|code\b)", re.I)
_CODE = re.compile(r"[A-Z][A-Z0-9]\d{4}|[1-5]\d{5}")
# characters between a thing's name and the question word asking about it ("507011 是什么", "what is X")
AT_THE_QUESTION = 4


def asked_last(index: KnowledgeIndex, reworded: str, linked: list[int]) -> list[int]:
    """Of several things a question names, those its last clause names, when it asks there only
    (``last_clause``) and that clause names any: "... export HCCL_EXEC_TIMEOUT=17340, still error
    code is 507046 ..., 507046 到底是啥" asks about 507046 (and "X 默认值是多少, 要比 Y 大吗" both)."""
    clause = last_clause(reworded)
    if len(linked) < 2 or clause == reworded:
        return linked
    named = [n for n in index.linker.linked(clause, index.catalogue) if n in linked]
    if not named and (THIS_CODE.search(clause) or _REFERS_BACK.search(clause)):
        # "..., error code is 507013, device log: hwts sdma error, 这个错误码是啥": the code it names
        named = [n for n in linked if _code_written(index, reworded, n)]
    return _at_the_question(index, clause, named) or named or linked


def asks_about_code(index: KnowledgeIndex, reworded: str, code: str) -> bool:
    """Whether ``code`` is what the question asks about: of the things it names, the one its last
    clause asks about (``asked_last``), or the only one."""
    linked = index.linker.linked(reworded, index.catalogue)
    return any(code in index.catalogue.things[n].names for n in asked_last(index, reworded, linked))


def _at_the_question(index: KnowledgeIndex, clause: str, named: list[int]) -> list[int]:
    """Of the things an asking clause names, the one written at its one question, when the others
    stand well apart: "errType=0x20(sq sw status error) 507011 是什么" asks about 507011, not
    the status the pasted words name."""
    asks = list(asking_words(clause))
    # one question: its words together ("是什么 mean"), not two questions apart
    if len(named) < 2 or not asks or asks[-1].start() - asks[0].end() > AT_THE_QUESTION:
        return []
    question = (asks[0].start(), asks[-1].end())
    apart = sorted((min(chars_from(question, clause, name) for name in index.catalogue.things[number].names), number)
                   for number in named)
    return [apart[0][1]] if apart[0][0] <= AT_THE_QUESTION < apart[1][0] - AT_THE_QUESTION else []


def said_of_last(index: KnowledgeIndex, reworded: str, number: int) -> str:
    """How a context-first question's last part (``last_clause``) asks about thing ``number``:
    "at the question" (named at its question word, ``_at_the_question``), "named" elsewhere there,
    "this code" (the code it writes, asked about as "this error code"), or ""."""
    clause = last_clause(reworded)
    if clause == reworded:
        return ""
    named = index.linker.linked(clause, index.catalogue)
    if number in named:
        return "at the question" if _at_the_question(index, clause, named) == [number] else "named"
    return "this code" if THIS_CODE.search(clause) and _code_written(index, reworded, number) else ""


def _code_written(index: KnowledgeIndex, reworded: str, number: int) -> bool:
    """Whether thing ``number`` is an error code the question writes."""
    return any(_CODE.fullmatch(name) and name in reworded for name in index.catalogue.things[number].names)


def statement_words(statement: Statement, index: KnowledgeIndex, with_section: bool = False) -> frozenset[str]:
    """The words a statement holds (in the articles' words): a passage's; a definition's own, or
    ``with_section`` those of the whole section it is part of."""
    within = statement.passage if statement.passage >= 0 else statement.within if with_section else -1
    terms = frozenset(tokenize(statement.terms))
    if within >= 0:
        return terms | frozenset(index.bm25.counts[within])
    return terms | frozenset(tokenize(index.rewording.said_canonically(f"{statement.title} {statement.text}")))


def _residual(reworded: str, thing: Thing, index: KnowledgeIndex) -> dict[str, float]:
    """The question's terms besides what it asks for and the thing's names."""
    named = set(tokenize(" ".join(index.rewording.reword(n) for n in thing.names)))
    return {t: b for t, b in query_terms(index.rewording.without_cues(reworded)).items() if t not in named}


def _ranked(statements: list[Statement], residual: dict[str, float], index: KnowledgeIndex) -> list[Statement]:
    """By rank, then by how much of the question's other words each holds (a fault family's own
    checks or a more particular fault's), the first written first."""
    total = index.bm25.total(residual)

    def held(statement: Statement) -> float:
        return index.bm25.held(residual, statement_words(statement, index)) / total if total else 1.0
    return sorted(statements, key=lambda s: (s.rank, -held(s)))


def choose(index: KnowledgeIndex, reworded: str, intents: frozenset[Intent]) -> Choice | None:
    """What answers ``reworded`` (a question in the articles' words) from a named thing's statements,
    or None when it names no thing, or several that answer the most particular thing asked that one
    of them answers. What a thing is ("what is X") is answered only when nothing more is asked."""
    particular = [i for i in INTENT_ORDER if i in intents and i is not Intent.MEANING]
    things = index.catalogue.things
    for intent in particular or [i for i in INTENT_ORDER if i in intents]:
        holders = asked_last(index, reworded, _without_qualifiers(index.linker.linked(
            reworded, index.catalogue, lambda n, asked=intent: bool(things[n].answering(asked))), index))
        holders = holders or _longer_named(index, reworded, intent)
        if len(holders) > 1:
            return None
        if holders:
            thing = things[holders[0]]
            residual = _residual(reworded, thing, index)
            ranked = _ranked(thing.answering(intent), residual, index)
            answered = frozenset({intent} | {i for i in intents if i in ranked[0].intents})
            return Choice(thing, holders[0], answered, tuple(ranked), holders[0] in index.linker.generic, residual)
    return None


# What a fault is asked for together ("what causes X and how do I fix it"): each is answered.
ASKED_TOGETHER = (Intent.CAUSE, Intent.WORKAROUND, Intent.PERMANENT_FIX)


def also_asked(choice: Choice, intents: frozenset[Intent], index: KnowledgeIndex) -> list[Statement]:
    """For each of ASKED_TOGETHER the question asks that ``choice`` does not answer, the chosen
    thing's statement that answers it best (ranked as ``choose`` ranks), when it is another one."""
    found: list[Statement] = []
    for intent in ASKED_TOGETHER:
        if intent in intents and intent not in choice.intents:
            answering = _ranked(choice.thing.answering(intent), choice.residual, index)
            if answering and answering[0] not in choice.statements[:1] and answering[0] not in found:
                found.append(answering[0])
    return found


def _longer_named(index: KnowledgeIndex, reworded: str, intent: Intent) -> list[int]:
    """The one thing whose main name is the name of the one thing ``reworded`` names and one word
    more, and that answers ``intent`` where the thing named does not ("why would an SDMA task fail":
    the causes of SDMA ERROR); else nothing."""
    things, called = index.catalogue.things, index.linker.called
    linked = index.linker.linked(reworded, index.catalogue)
    if len(linked) != 1:
        return []
    longer = [number for number, thing in enumerate(things)
              if number != linked[0] and thing.answering(intent)
              and any(mine < called[number][0] and len(called[number][0] - mine) == 1 for mine in called[linked[0]])]
    return longer if len(longer) == 1 else []


MAX_COMPARED = 3      # things compared in one question ("socket type 2 vs socket type 0")
_COMPARES = re.compile(r"\b(?:difference|compare)\b")     # as kb/vocabulary.yaml rewords 区别, vs, versus


def _only_fields(thing: Thing, reworded: str) -> bool:
    """The question writes the words of ``thing``'s names only as fields of a line it pastes, each
    with its value (chipId:5, dieId:0, ranks[8]): the line is what it asks about, not the fields."""
    words = {part for name in thing.names for part in re.split(r"[,\s]+", name) if part}
    written = [word for word in words if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", reworded, re.I)]
    return bool(written) and all(re.search(rf"(?<!\w){re.escape(word)}\s?[:\[]\s?(?:0x)?[0-9a-fA-F]", reworded, re.I)
                                 for word in written)


def named_things(index: KnowledgeIndex, reworded: str) -> list[Choice]:
    """What the KB says each particular thing ``reworded`` names is (a setting's values, a
    definition, its section), when it names one (a product or mode aside), or compares up to
    MAX_COMPARED, none a word most passages write (HCCL), and the KB says that of every one."""
    things = index.catalogue.things
    linked = asked_last(index, reworded, _without_qualifiers(index.linker.linked(reworded, index.catalogue), index))
    linked = [number for number in linked if not _only_fields(things[number], reworded)]
    most = MAX_COMPARED if _COMPARES.search(reworded) else 1
    if not 0 < len(linked) <= most or any(number in index.linker.generic or not things[number].answering(Intent.MEANING)
                                              for number in linked):
        return []
    chosen = []
    for number in linked:
        thing = things[number]
        ranked = _ranked(thing.answering(Intent.MEANING), _residual(reworded, thing, index), index)
        chosen.append(Choice(thing, number, frozenset({Intent.MEANING}), tuple(ranked), False, {}))
    return chosen
