"""What the knowledge base states about the thing a question names, said as an answer: a setting's
values for what is asked, or the statements ``structured.choose`` picked (a short definition
followed by the section or entry that says more), with their sections.

A statement answers for sure when it is what is asked for about what is named: a default, a
cause, a workaround. When all the question asks is said with words that ask for many things
("what is", "where", "set", "seconds") or the thing is named by a word most passages write
(HCCL), the statement must also hold about as much of the question as the best passage does."""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from ..kb.model import Intent, parent_of
from .excerpt import passage_excerpt
from .index import Hit, KnowledgeIndex
from .question import Question
from .setting_answers import setting_answer
from .structured import Choice, also_asked, choose, last_clause, named_things, said_of_last, statement_words
from .things import RANK_ENTRY, SETTING_INTENTS, Statement
from .tokens import NAME_BOOST, query_terms, tokenize

SHORT_DEFINITION = 200     # a definition this short (a table row) is followed by a section or an entry on it
FAMILY_SHOWN = 3           # faults of one family shown when the question does not say which it means
STATED_COVERAGE = 0.75     # what a statement must hold of a weakly asked question, against the best passage
WEAK_MIN_COVERAGE = 0.3   # ... and at least this share of it in any case
WEAK_INTENTS = frozenset({Intent.MEANING, Intent.UNIT, Intent.CHECK, Intent.ENABLE})
ELSEWHERE_SHARE = 0.25     # the asking clause's words besides the thing, of the question's weight, that can send it
ELSEWHERE_GAP = 0.5        # ... to the best passage, when it holds this much more of them than the statement


class Stated(msgspec.Struct, frozen=True):
    text: str                       # Markdown
    citations: tuple[str, ...]      # the sections stating it, the first answered from first
    coverage: float                 # share of the question's weight it holds, 0..1


def _markdown(statement: Statement, question: Question, index: KnowledgeIndex) -> str:
    if statement.passage < 0:
        return statement.text
    return passage_excerpt(index.hit(statement.passage, question.query), question, index)


def _said(choice: Choice, question: Question, index: KnowledgeIndex,
          everything: bool = False) -> tuple[str, tuple[str, ...], set[str]]:
    """The Markdown, citations and words of what answers ``choice``; of a setting, the kinds of
    values asked for ("what is the default X": its default, not what it is), or ``everything``."""
    best = choice.statements[0]
    if best.setting:
        setting = index.catalogue.settings[best.setting]
        asked = question.intents & frozenset(SETTING_INTENTS)
        kinds = frozenset(SETTING_INTENTS) if everything else asked - {Intent.MEANING} or asked
        if kinds == {Intent.UNIT}:
            # "how long" and "how many seconds" ask for a value in seconds as often as for the unit
            kinds = frozenset({Intent.UNIT, Intent.DEFAULT, Intent.MEANING})
        text, cited = setting_answer(setting, kinds, question.text)
        return text, cited, set(tokenize(index.rewording.said_canonically(" ".join((text, *setting.called)))))
    if family := _faults_apart(choice, index):
        return _family_said(family, choice, question, index)
    shown = [best]
    if best.passage < 0 and len(best.text) < SHORT_DEFINITION:
        shown += [s for s in choice.statements[1:] if s.passage >= 0 and s.citation != best.citation][:1]
    if not everything:
        shown += [s for s in also_asked(choice, question.intents, index) if s not in shown]
    parts = [_markdown(shown[0], question, index)]
    parts += [f"**{s.title}:** " + _markdown(s, question, index) for s in shown[1:]]
    held = set().union(*(statement_words(s, index, with_section=True) for s in shown))
    return "\n\n".join(parts), tuple(dict.fromkeys(s.citation for s in shown)), held


def _entry_of(statement: Statement, index: KnowledgeIndex) -> str:
    return index.passages[statement.passage].ref.partition(" ")[0] if statement.rank == RANK_ENTRY else ""


def _faults_apart(choice: Choice, index: KnowledgeIndex) -> list[Statement]:
    """When what answers first is one particular fault's field (the family of an error code has
    no statement of its own for what is asked) and the question's other words single out none of
    the family's faults, one statement per fault that answers, up to FAMILY_SHOWN; else nothing."""
    best = choice.statements[0]
    entry = _entry_of(best, index)
    if not entry or parent_of(entry) is None:
        return []
    total = index.bm25.total(choice.residual)

    def held(statement: Statement) -> float:
        return index.bm25.held(choice.residual, statement_words(statement, index)) / total if total else 0.0
    faults: dict[str, Statement] = {}
    for statement in choice.statements:
        if (other := _entry_of(statement, index)) and other not in faults:
            faults[other] = statement
    others = [held(s) for e, s in faults.items() if e != entry]
    if others and held(best) > max(others):
        return []
    return list(faults.values())[:FAMILY_SHOWN]


def _family_said(family: list[Statement], choice: Choice, question: Question,
                 index: KnowledgeIndex) -> tuple[str, tuple[str, ...], set[str]]:
    """Each fault's statement under its title, after a line saying that the answer depends on the fault."""
    name = choice.thing.names[0]
    lead = (f"The knowledge base knows several faults behind `{name}`; which answer applies depends on "
            "which one the log shows (`faultbot diagnose` on it tells them apart):" if len(family) > 1 else
            f"The knowledge base states this for one particular fault behind `{name}`; `faultbot diagnose` "
            "on the log tells whether it is that one:")
    parts = [lead] + [f"**{index.passages[s.passage].title}:** " + _markdown(s, question, index) for s in family]
    held = set().union(*(statement_words(s, index, with_section=True) for s in family))
    return "\n\n".join(parts), tuple(dict.fromkeys(s.citation for s in family)), held


def from_things(index: KnowledgeIndex, question: Question, ranked: list[tuple[float, Hit]]) -> Stated | None:
    """The answer from what the KB states about the one thing ``question`` names, for what it asks;
    None when there is none, or when it is weakly asked and the best passage (``ranked`` first)
    holds clearly more of the question."""
    choice = choose(index, question.text, question.intents)
    if choice is None or (choice.generic and NAME_BOOST in choice.residual.values()):
        return None     # HCCL named in passing beside the name the question is about (ret[9], errNo)
    text, cited, held = _said(choice, question, index)
    if ranked and _asked_elsewhere(choice, question, held, ranked[0][1], index):
        return None
    coverage = index.bm25.held(question.query, held) / question.total
    weak = choice.generic or choice.intents <= WEAK_INTENTS
    if weak and not _asked_last(choice, question, held, index) and (
            coverage < WEAK_MIN_COVERAGE or (ranked and coverage < STATED_COVERAGE * ranked[0][1].coverage)):
        return None
    return Stated(text, cited, round(coverage, 3))


def _asked_elsewhere(choice: Choice, question: Question, held: set[str], best: Hit, index: KnowledgeIndex) -> bool:
    """The clause that asks is about more than the chosen thing, and the best passage says that
    more where what is stated about the thing does not: it names another thing the KB is about
    (``mentions``; "HCCL_BUFFSIZE minimum for MoeDistributeDispatch"), or, of a setting, its other
    words weigh ELSEWHERE_SHARE of the question and the passage holds ELSEWHERE_GAP more of them
    ("AI_CPU mode max concurrent graphs": a limit of that mode, not the setting's range of values)."""
    asking = query_terms(last_clause(question.text))
    # a name the KB writes, however the question cases it ("moedistributedispatch min HCCL_BUFFSIZE")
    others = {term for term in choice.residual if term in index.mentions and term in asking} - held
    said = best.title_words.union(*best.words)
    if others and others <= said:
        return True
    if not choice.statements[0].setting:
        return False
    words = {term: boost for term, boost in choice.residual.items() if term in asking and boost != NAME_BOOST}
    total = index.bm25.total(words)
    if not total or total < ELSEWHERE_SHARE * question.total:
        return False
    return (index.bm25.held(words, said) - index.bm25.held(words, held)) / total >= ELSEWHERE_GAP


def _asked_last(choice: Choice, question: Question, held: set[str], index: KnowledgeIndex) -> bool:
    """The question asks last about the chosen thing, after what it pastes ("..., error code is
    507014 [Error]: ... what does 507014 indicate?"), and the statement holds that clause, or names
    it at the question word, or calls it "this error code": the pasted context does not make it
    weakly asked."""
    said = said_of_last(index, question.text, choice.thing_number)
    if said != "named":
        return said in ("this code", "at the question")
    asked = query_terms(last_clause(question.text), index.bm25.knows)
    total = index.bm25.total(asked)
    return bool(total) and index.bm25.held(asked, held) / total >= WEAK_MIN_COVERAGE


def is_about(hit: Hit, names: Sequence[str]) -> bool:
    """The passage is about one of ``names``: its title or its first sentence says it (a table row
    naming it in passing does not), a name's underscores as spaces or not."""
    return writes_any(hit.passage.title + " " + (hit.sentences[0].text if hit.sentences else ""), names)


def writes_any(text: str, names: Sequence[str]) -> bool:
    """``text`` writes one of ``names`` as a whole word, in any case; a field's name in words too
    (device_ip as "device IP")."""
    return any(re.search(r"(?<![\w-])" + re.escape(name).replace("_", "[_ ]") + r"(?![\w-])", text, re.I | re.ASCII)
               for name in names)


def about_named(index: KnowledgeIndex, question: Question, ranked: Sequence[tuple[float, Hit]] = ()) -> Stated | None:
    """What the KB says the things ``question`` names are (for a setting, everything documented
    about it: what it does, its default, range, unit and special values), for a question about
    them that nothing answers directly; then, of the sections about each, the one ranked best for
    the question (``ranked``), cut to its sentences nearest the question. Several things (compared
    in one question) are each said under their name."""
    choices = named_things(index, question.text)
    if not choices:
        return None
    parts: list[str] = []
    cited: tuple[str, ...] = ()
    for choice in choices:
        said, said_at = _what_is_said(choice, question, index, ranked)
        # things compared are often defined side by side: what one's section said is not said again
        said = [part for part in said if not any(part in shown for shown in parts)]
        if said:
            parts.append("\n\n".join(said) if len(choices) == 1 else f"**`{choice.thing.names[0]}`:** " + "\n\n".join(said))
            cited = (*cited, *said_at)
    names = " and ".join(f"`{choice.thing.names[0]}`" for choice in choices)
    return Stated(f"Nothing in the knowledge base answers this directly. What it says about {names}:\n\n"
                  + "\n\n".join(parts), tuple(dict.fromkeys(cited)), 0.0)


def _what_is_said(choice: Choice, question: Question, index: KnowledgeIndex,
                  ranked: Sequence[tuple[float, Hit]]) -> tuple[list[str], tuple[str, ...]]:
    """What the KB says ``choice``'s thing is, and the sentences of its best-ranked section
    nearest the question when they add to that; with their citations."""
    text, cited, _ = _said(choice, question, index, everything=True)
    own = {statement.citation for statement in choice.thing.statements}
    # a section about it by its title or opening ("AIV mode constraints") is one of its sections too
    nearest = next((hit for _, hit in ranked if hit.passage.citation in own or is_about(hit, choice.thing.names)), None)
    excerpt = passage_excerpt(nearest, question, index, subject=choice.thing.names[0]) if nearest else ""
    # the section the statement comes from adds what the question asks beyond the statement
    if nearest is not None and (nearest.passage.citation not in cited or excerpt not in text):
        section = f"**{nearest.passage.title}:** " + excerpt
        # a statement the excerpt holds (a labelled list item) is said there, in its list
        return [section] if text in excerpt else [text, section], (*cited, nearest.passage.citation)
    return [text], cited
