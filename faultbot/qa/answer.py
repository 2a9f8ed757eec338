"""Answering a question: the passage that answers it best, cut to the few sentences that do, with
its source; below a coverage threshold, "not in my knowledge base" and search terms to try."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..engine.decoding import DecodedField
from ..engine.wording import show_value
from ..kb.model import Intent
from .index import ENTITY, Hit, KnowledgeIndex
from .sentences import Sentence
from .tokens import NAME_BOOST, query_terms, tokenize

MIN_COVERAGE = 0.45        # share of the question's weight the best passage must hold
BM25_SHARE = 0.35          # how much the BM25 score (relative to the best) counts beside focus
MAX_SENTENCES = 3
WHOLE_PASSAGE_CHARS = 900  # a passage this short is the answer whole
MAX_ROWS = 8               # table rows or list items a sentence brings along
LEAD_RATIO = 0.25          # when no sentence holds this much of what the passage holds, its lead answers
SECOND_PASSAGE_RATIO = 0.9   # a second section ranked this close is shown too
SEE_ALSO_RATIO = 0.9       # passages ranked this close to the best are cited too
MAX_CITATIONS = 3
MIN_SUGGESTION_CHARS = 3
MAX_ABOUT = 5              # sections listed when the question names a thing but no passage answers it
INTENT_FIT = 1.3           # a passage that answers what is asked (a workaround for "how to work around") ranks up

_DEFAULT = re.compile(r"\bdefault|默认|缺省", re.I)
_DEFAULT_VALUE = re.compile(r"(?:\bdefault\w*|默认\w*|缺省)\D{0,24}\d", re.I)
# "the default is N" says it is the default; "default N" in passing may be another setting's.
_DEFAULT_IS = re.compile(r"(?:\bdefault\w*(?:\s+value)?\s*(?:is|of|=|:)|默认(?:值)?(?:为|是))[\s*`]*\d", re.I)
_HOW = re.compile(r"\b(how|commands?|enable|run|check|set|find|turn on|fix|workaround|avoid|solve|resolve)\b"
                  r"|怎么|如何|怎样|开启|打开|设置|命令|查看|排查|解决|规避", re.I)
_NAME = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[A-Z][A-Z0-9]{2,}\b|\b[A-Z][a-z]+[A-Z]\w*\b")
_NOT_SUBJECTS = frozenset({"default", "the", "a", "an"})
_WHAT_IS = re.compile(r"^\s*what\s+(?:is|are|does)\s+(?:an?\s+|the\s+)?([\w.\-]+)"
                      r"|^\s*([\w.\-]+)\s*(?:是什么|是啥)", re.I)
_SETTING = re.compile(r"\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b")    # an environment variable: what a how-to sets
_TERM = re.compile(r"[A-Za-z0-9_]+(?:[.\-][A-Za-z0-9_]+)*|[\u3400-\u9fff]+")


@dataclass(frozen=True)
class Answer:
    text: str | None                  # Markdown; None when the knowledge holds nothing relevant
    citations: tuple[str, ...]        # "article#section", the one answered from first
    score: float                      # coverage of the question by the passage answered from, 0..1
    suggestions: tuple[str, ...] = () # search terms to try when there is no answer

    @property
    def found(self) -> bool:
        return self.text is not None


@dataclass(frozen=True)
class _Question:
    text: str
    query: dict[str, float]       # its terms in the articles' words and how much each counts
    total: float
    subject: str                  # X of "what is X", lower case; "" otherwise
    names: tuple[str, ...]        # the names it asks about (HCCL_EXEC_TIMEOUT), lower case
    intents: frozenset[Intent]    # what it asks for (cause, workaround, default ...)

    @classmethod
    def read(cls, text: str, index: KnowledgeIndex) -> "_Question":
        reworded = index.rewording.reword(text)
        query = query_terms(reworded)
        what = _WHAT_IS.match(reworded)
        subject = next((g for g in what.groups() if g), "").lower() if what else ""
        names = tuple(n.lower() for n in _NAME.findall(reworded))
        return cls(reworded, query, index.bm25.total(query) or 1.0, "" if subject in _NOT_SUBJECTS else subject,
                   names, index.rewording.intents(reworded))

    def _names_default(self, sentence: Sentence, context: str) -> float:
        """Whether ``sentence`` gives a default value of what is asked about: "default" and a number
        close after it (1 when it says "the default is N", 0.5 otherwise), the name before them in
        the sentence or in what precedes it (its paragraph's earlier sentence, the title)."""
        found = _DEFAULT_VALUE.search(sentence.text)
        if not found:
            return 0.0
        before = (context + " " + sentence.text[:found.start()]).lower()
        if self.names and not any(name in before for name in self.names):
            return 0.0
        return 1.0 if _DEFAULT_IS.search(sentence.text) else 0.5

    def bonus(self, sentence: Sentence, holds_any: bool, context: str = "", choosing: bool = False) -> float:
        """What makes a sentence the answer beyond its words: the default value of X for a
        default, "X is" for a what-is and, once the passage is chosen, commands or a variable to
        set for a how-to. ``context``: the passage title and the sentence before it."""
        if not holds_any:
            return 0.0
        bonus = 0.0
        if _DEFAULT.search(self.text):
            bonus += self._names_default(sentence, context)
        if self.subject and re.search(rf"{re.escape(self.subject)}(?:\s*\([^)]*\))?\W*\s+(?:is|are|means|stands for)\b",
                                      sentence.text, re.I):
            bonus += 0.5
        if choosing and _HOW.search(self.text) and (sentence.commands or _SETTING.search(sentence.text)):
            bonus += 0.5
        return bonus


def _contexts(hit_title: str, found: Sequence[Sentence]) -> list[str]:
    """For each sentence: the title and the sentence before it in its paragraph."""
    return [" ".join((hit_title, found[i - 1].text if i and found[i - 1].block == s.block else ""))
            for i, s in enumerate(found)]


def _focus(hit: Hit, question: _Question, index: KnowledgeIndex) -> float:
    """How much of the question the passage's title and key terms and its best sentence hold together."""
    best = 0.0
    for sentence, words, context in zip(hit.sentences, hit.words, _contexts(hit.passage.title, hit.sentences)):
        held = index.bm25.held(question.query, hit.title_words | words)
        best = max(best, held / question.total + question.bonus(sentence, held > 0, context))
    return best


def _answers_what_is_asked(hit: Hit, question: _Question) -> bool:
    """The passage is of the kind asked for (a workaround, a default ...) and about what is asked:
    it holds every name the question names."""
    if not hit.answers & question.intents:
        return False
    held = hit.title_words.union(*hit.words)
    return all(term in held for term, boost in question.query.items() if boost == NAME_BOOST)


def _ranked(hits: list[Hit], question: _Question, index: KnowledgeIndex) -> list[tuple[float, Hit]]:
    """The passages BM25 found, ranked again by focus: a passage that says it in one place (its
    title and one sentence) answers better than one with the words scattered over a page."""
    top = max((hit.score for hit in hits), default=1.0)
    scored = [((_focus(hit, question, index) + BM25_SHARE * hit.score / top) * hit.passage.prior
               * (INTENT_FIT if _answers_what_is_asked(hit, question) else 1.0), hit) for hit in hits]
    return sorted(scored, key=lambda pair: -pair[0])


def _selection_scores(hit: Hit, question: _Question, index: KnowledgeIndex) -> list[float]:
    """How much of what the passage holds of the question each sentence holds, plus its bonus.
    The title's words say nothing about which of its sentences answers, so they do not count:
    when the title holds it all, the whole passage answers, and its lead says so."""
    found, title, words = hit.sentences, hit.passage.title, hit.words
    own = {t: b for t, b in question.query.items() if t not in set(tokenize(title))}
    total = index.bm25.held(own, set().union(*words)) if words else 0.0
    scores = []
    for sentence, held, context in zip(found, words, _contexts(title, found)):
        share = index.bm25.held(own, held) / total if total else 0.0
        scores.append(share + question.bonus(sentence, index.bm25.held(question.query, held) > 0, context, choosing=True))
    return scores


def _table_around(found: list[Sentence], i: int) -> list[int]:
    start = i
    while start > 0 and found[start - 1].row:
        start -= 1
    return [j for j in range(start, min(start + MAX_ROWS, len(found))) if found[j].row]


def _introduced_by(found: list[Sentence], i: int) -> list[int]:
    """The list items or table rows after a sentence that ends in a colon, up to MAX_ROWS of them."""
    if not found[i].text.endswith(":"):
        return []
    kept: list[int] = []
    blocks: set[int] = set()
    for j in range(i + 1, len(found)):
        starts_block = found[j].block not in blocks
        if starts_block and not (found[j].row or found[j].bullet) or len(blocks) + starts_block > MAX_ROWS:
            break
        blocks.add(found[j].block)
        kept.append(j)
    return kept


def _in_context(found: list[Sentence], chosen: list[int]) -> list[int]:
    """A chosen sentence brings the first sentence of its paragraph (which says what the rest is
    about), a table row the rest of its table, and a sentence ending in a colon the list or table
    it introduces: alone, each reads out of context."""
    kept = set(chosen)
    for i in chosen:
        kept.add(next(j for j in range(i + 1) if found[j].block == found[i].block))
        kept.update(_table_around(found, i) if found[i].row else _introduced_by(found, i))
    return sorted(kept)


def _chosen(found: list[Sentence], scores: list[float], question: _Question) -> list[int]:
    if sum(len(s.text) for s in found) <= WHOLE_PASSAGE_CHARS:
        return list(range(len(found)))    # short enough to read whole: no sentence is out of context
    best = max(scores, default=0.0)
    if best < LEAD_RATIO:
        chosen = list(range(min(2, len(found))))
    else:
        ranked = sorted(range(len(found)), key=lambda i: (-scores[i], i))
        chosen = [i for i in ranked if scores[i] >= 0.6 * best][:MAX_SENTENCES]
    if _HOW.search(question.text) and not any(found[i].commands for i in chosen):
        chosen += [i for i in range(len(found)) if found[i].commands][:1]
    return _in_context(found, chosen)


def _excerpt(found: list[Sentence], chosen: list[int]) -> str:
    """The chosen sentences as Markdown: a paragraph or list item per block, commands as code."""
    parts: list[str] = []
    previous_block = None
    for i in chosen:
        sentence = found[i]
        if sentence.block == previous_block and parts:
            parts[-1] += " " + sentence.text
        elif (sentence.bullet or sentence.row) and parts and parts[-1].startswith("- "):
            parts[-1] += "\n- " + sentence.text
        else:
            parts.append(("- " if sentence.bullet or sentence.row else "") + sentence.text)
        previous_block = sentence.block
        if sentence.commands:
            parts.append("```bash\n" + "\n".join(sentence.commands) + "\n```")
            previous_block = None
    return "\n\n".join(parts)


def _citations(ranked: list[tuple[float, Hit]]) -> tuple[str, ...]:
    cited: list[str] = []
    for value, hit in ranked:
        if hit.passage.citation not in cited and (not cited or value >= SEE_ALSO_RATIO * ranked[0][0]):
            cited.append(hit.passage.citation)
    return tuple(cited[:MAX_CITATIONS])


def suggestions(question: str, index: KnowledgeIndex, limit: int = 3) -> tuple[str, ...]:
    """Domain words of the question to search for, rarest first: names the knowledge base writes
    (HCCL_BUFFSIZE) and words its titles use; never a stop word, a fragment or a name it lacks."""
    title_words = frozenset().union(*index.title_words)
    found = []
    for term in dict.fromkeys(_TERM.findall(index.rewording.reword(question))):
        tokens = tokenize(term)
        if (not tokens or len(term) < MIN_SUGGESTION_CHARS or not index.bm25.knows(tokens[0])
                or index.rewording.intents(term)):    # "default", "check": what is asked, not what about
            continue
        if term.casefold() in index.mentions or tokens[0] in title_words:
            found.append((term, tokens[0]))
    found.sort(key=lambda pair: -index.bm25.weight(pair[1]))
    return tuple(term for term, _ in found[:limit])


def _from_passages(index: KnowledgeIndex, asked: _Question) -> Answer:
    ranked = _ranked(index.search(asked.text, limit=None), asked, index)
    if not ranked or ranked[0][1].coverage < MIN_COVERAGE:
        coverage = ranked[0][1].coverage if ranked else 0.0
        return Answer(None, (), round(coverage, 3), suggestions(asked.text, index))
    best = ranked[0][1]
    text = _passage_excerpt(best, asked, index)
    runner_up = next((hit for value, hit in ranked[1:] if hit.passage.citation != best.passage.citation), None)
    if runner_up is not None and _close_second(ranked, runner_up) and runner_up.coverage >= MIN_COVERAGE:
        # Two sections answer about equally well: both are shown, the second under its title,
        # rather than a guess between them.
        text += f"\n\n**{runner_up.passage.title}:** " + _passage_excerpt(runner_up, asked, index)
    return Answer(text, _citations(ranked), round(best.coverage, 3))


def _passage_excerpt(hit: Hit, asked: _Question, index: KnowledgeIndex) -> str:
    found = list(hit.sentences)
    return _excerpt(found, _chosen(found, _selection_scores(hit, asked, index), asked))


def _close_second(ranked: list[tuple[float, Hit]], second: Hit) -> bool:
    value = next(v for v, hit in ranked if hit is second)
    return value >= SECOND_PASSAGE_RATIO * ranked[0][0]


def _field_lines(decoded: tuple[DecodedField, ...]) -> list[str]:
    lines = [f"- **{d.label}** `{show_value(d.fact.value)}`: {d.sentence}" for d in decoded]
    if len({d.decoder for d in decoded}) > 1:
        lines.append("\n*Several fields go by that name: the log line the value comes from decides which reading applies.*")
    return lines


def _about_what_is_named(index: KnowledgeIndex, asked: _Question) -> Answer | None:
    """No passage answers, but the question names something the knowledge base writes about: say
    what it holds about it (the sections that name it, those titled by it first) instead of
    "not in my knowledge base"."""
    named = [n for n in dict.fromkeys(ENTITY.findall(asked.text)) if n.casefold() in index.mentions]
    if not named:
        return None
    places = [i for name in named for i in index.mentions[name.casefold()]]
    titled = sorted(dict.fromkeys(places), key=lambda i: (not any(n.casefold() in index.passages[i].title.casefold()
                                                                   for n in named), places.index(i)))
    shown = list(dict.fromkeys(index.passages[i].citation for i in titled))[:MAX_ABOUT]
    titles = {index.passages[i].citation: index.passages[i].title for i in titled}
    names = ", ".join(f"`{n}`" for n in named)
    lines = [f"Nothing in the knowledge base answers this directly. What it holds about {names}:", "",
             *(f"- {titles[c]}" for c in shown)]
    return Answer("\n".join(lines), tuple(shown), 0.0)


def answer(index: KnowledgeIndex, question: str) -> Answer:
    """The passage that answers ``question``; a field value it names (retCode 0x31) is said first,
    in the decoder's words, with the decoder's source cited first. The passage then stays only when
    it comes from an article a decoder cites: its words matched the question, not its value."""
    asked = _Question.read(question.strip(), index)
    passage = _from_passages(index, asked)
    foreign = index.rewording.foreign(asked.text)
    if foreign and passage.found and not any(name in (passage.text or "").casefold() for name in foreign):
        # About another vendor's stack (NCCL_TIMEOUT, a CUDA error): the Ascend passage that shares
        # its other words does not answer it.
        return Answer(None, (), passage.score, suggestions(asked.text, index))
    decoded = index.fields.decode(asked.text) if index.fields else ()
    if not decoded:
        return passage if passage.found or foreign else _about_what_is_named(index, asked) or passage
    articles = {d.citation.partition("#")[0] for d in decoded}
    if passage.found and passage.citations[0].partition("#")[0] not in articles:
        passage = Answer(None, (), passage.score)
    text = "\n".join(_field_lines(decoded)) + (f"\n\n{passage.text}" if passage.found else "")
    citations = tuple(dict.fromkeys((*(d.citation for d in decoded), *passage.citations)))
    return Answer(text, citations[:MAX_CITATIONS + len(decoded)], 1.0)
