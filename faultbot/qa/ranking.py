"""The passages search found, ranked again for a question: by how much of it the passage says in
one place (its title and one sentence), by BM25, and up when the passage is of the kind asked for
and about what is asked (a workaround section for "how to work around X")."""

from __future__ import annotations

from collections.abc import Sequence

from ..kb.model import Intent
from .index import Hit, KnowledgeIndex
from .question import Question
from .sentences import Sentence
from .tokens import NAME_BOOST

BM25_SHARE = 0.35          # how much the BM25 score (relative to the best) counts beside focus
INTENT_FIT = 1.3           # a passage that answers what is asked (a workaround for "how to work around") ranks up
POINT_BELOW_LIST = 0.99
ANSWERED_BY_A_LIST = frozenset({Intent.CONSISTS_OF, Intent.COLLECT})


def sentence_contexts(title: str, found: Sequence[Sentence]) -> list[str]:
    """For each sentence: the title and the sentence before it in its paragraph."""
    return [" ".join((title, found[i - 1].text if i and found[i - 1].block == s.block else ""))
            for i, s in enumerate(found)]


def _focus(hit: Hit, question: Question, index: KnowledgeIndex) -> float:
    """How much of the question the passage's title and key terms and its best sentence (or one way
    the section is asked for) hold together, plus what makes that sentence the answer (a default
    value ...), which counts as much as the passage holds the question: "default 1836" answers a
    default of what the rest of it is about."""
    best = 0.0
    for sentence, words, context in zip(hit.sentences, hit.words, sentence_contexts(hit.passage.title, hit.sentences)):
        held = index.bm25.held(question.query, hit.title_words | words)
        best = max(best, held / question.total + hit.coverage ** 2 * question.bonus(sentence, held > 0, context))
    # a way the section is asked for counts as a sentence that holds the question, with no bonus:
    # it says what is asked, not the answer
    return max(best, hit.asked_share)


def answers_what_is_asked(hit: Hit, question: Question) -> bool:
    """The passage is of the kind asked for (a workaround, a default ...) and about what is asked:
    it holds every name the question names."""
    if not hit.answers & question.intents:
        return False
    held = hit.title_words.union(*hit.words)
    return all(term in held for term, boost in question.query.items() if boost == NAME_BOOST)


def rank(hits: list[Hit], question: Question, index: KnowledgeIndex) -> list[tuple[float, Hit]]:
    """The passages BM25 found, ranked again by focus: a passage that says it in one place (its
    title and one sentence) answers better than one with the words scattered over a page."""
    top = max((hit.score for hit in hits), default=0.0) or 1.0    # found only by how it is asked for: no BM25 score
    scored = [((_focus(hit, question, index) + BM25_SHARE * hit.score / top) * hit.passage.prior
               * (INTENT_FIT if answers_what_is_asked(hit, question) else 1.0), hit) for hit in hits]
    if question.intents & ANSWERED_BY_A_LIST:
        scored = _points_under_their_list(scored)
    return sorted(scored, key=lambda pair: -pair[0])


def _points_under_their_list(scored: list[tuple[float, Hit]]) -> list[tuple[float, Hit]]:
    """For a question a list answers (what to collect, what X consists of), a point of a section
    that holds no more of the question than the whole section ranks just below it: the list is
    the answer, not one item of it."""
    sections = {hit.passage.ref: (value, hit.coverage) for value, hit in scored if hit.passage.ref == hit.passage.citation}
    kept = []
    for value, hit in scored:
        section = sections.get(hit.passage.citation)
        if hit.passage.ref != hit.passage.citation and section is not None and hit.coverage <= section[1]:
            value = min(value, section[0] * POINT_BELOW_LIST)
        kept.append((value, hit))
    return kept
