"""Answering a question: a value of a log field it names in the decoder's words, or how error
codes are built, or what the KB states about the one thing it names (stated.py), or else the
passage that answers it best, cut to the few sentences that do; each with its source. Below a
coverage threshold, "not in my knowledge base" and search terms to try, or what the KB holds
about the thing the question names."""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec
from msgspec.structs import replace

from ..engine.codes import read_return_code
from ..engine.decoding import DecodedField
from ..engine.wording import show_value
from ..fullwidth import as_ascii_punctuation
from ..kb.model import Intent
from .codebook_answers import ACL_CODE, CANN_OR_ACL_CODE, acl_class_sentence, code_answer
from .excerpt import best_sentence, passage_excerpt
from .forms import stated_value
from .headings import article_definition, article_subject
from .index import Hit, KnowledgeIndex
from .log_examples import shown
from .passages import ENTITY
from .question import Question, last_clause, without_absent_names
from .ranking import answers_what_is_asked, rank
from .stated import Stated, about_named, from_things, is_about, writes_any
from .structured import asks_about_code
from .tokens import NAME_BOOST, PART_OF_NAME, cjk_pieces, is_cjk, query_terms, tokenize
from .unknown_codes import unknown_codes

MIN_COVERAGE = 0.45        # share of the question's weight the best passage must hold
MIN_COVERAGE_FITTED = 0.35  # ... when it is of the kind asked for (a what-to-collect for "which logs")
MIN_COVERAGE_MANY_WORDS = 0.40  # ... when it holds MANY_WORDS_HELD of the words of a question naming nothing
MANY_WORDS_HELD = 6
SEE_ALSO_RATIO = 0.7        # sections ranked this close to the best are cited, and shown by their best sentence
SECOND_PASSAGE_RATIO = 0.8  # a section ranked this close answers about as well: shown by its excerpt
MAX_CITATIONS = 4          # sections shown and cited at most: the best and three ranked close to it
MIN_SUGGESTION_CHARS = 3
MIN_CJK_SUGGESTION = 2     # Chinese: a word of two characters or more (安装), without the question's function words
MAX_CJK_SUGGESTION = 4     # a longer run is a phrase of the question (分析完结果写到哪个文件), not a term
_WHAT_OR_WHY = frozenset({Intent.MEANING, Intent.CAUSE})   # asked of a code, its name and class say part of it
# Asked only for a setting's default, range or unit ("what is the default ..."), the value the KB
# states answers alone; asked anything more ("why does the message say 1800 s by default"), what
# the KB states comes with the sections ranked close to the best.
_VALUES = frozenset({Intent.DEFAULT, Intent.RANGE, Intent.UNIT})
_ACTIONS = frozenset({Intent.WORKAROUND, Intent.PERMANENT_FIX, Intent.FIXED_VERSION})
# asked what a pasted value means, or what to do about the fault around it (its reading then follows)
_VALUE_ASKS = _ACTIONS | {Intent.MEANING}
_POINTS_AT_PASTE = re.compile(r"\b(?:this|it)\b|这|此", re.I)
MAX_ABOUT = 5              # sections listed when the question names a thing but no passage answers it

_INTERNAL_CODE = re.compile(r"[A-Z][A-Z0-9]9\d{3}")   # E*9***: a CANN internal code
_TERM = re.compile(r"[A-Za-z0-9_]+(?:[.\-][A-Za-z0-9_]+)*|[\u3400-\u9fff]+")


class Answer(msgspec.Struct, frozen=True):
    text: str | None                  # Markdown; None when the knowledge holds nothing relevant
    citations: tuple[str, ...]        # "article#section", the one answered from first
    score: float                      # coverage of the question by the passage answered from, 0..1
    suggestions: tuple[str, ...] = () # search terms to try when there is no answer
    direct: bool = True               # False: nothing answers it; the text says what the KB holds about what it names

    @property
    def found(self) -> bool:
        return self.text is not None

    @classmethod
    def of(cls, stated: Stated) -> Answer:
        return cls(stated.text, stated.citations, stated.coverage)


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
    said = _TERM.findall(index.rewording.reword(question))
    for term in dict.fromkeys(piece for run in said for piece in (cjk_pieces(run) if is_cjk(run) else [run])):
        tokens = tokenize(term)
        if (not tokens or len(term) < (MIN_CJK_SUGGESTION if is_cjk(term) else MIN_SUGGESTION_CHARS)
                or (is_cjk(term) and len(term) > MAX_CJK_SUGGESTION) or not index.bm25.knows(tokens[0])
                or index.rewording.intents(term)):    # "default", "check": what is asked, not what about
            continue
        if term.casefold() in index.mentions or tokens[0] in title_words:
            found.append((term, tokens[0]))
    found.sort(key=lambda pair: -index.bm25.weight(pair[1]))
    return tuple(term for term, _ in found[:limit])


def _only_names_in_passing(hit: Hit, asked: Question, index: KnowledgeIndex) -> bool:
    """The passage holds only names the question asks about that the KB writes of in passing, no
    passage being about them (MindSpore), and none of what the question asks about them (安装)."""
    if any(name.casefold() in index.mentions for name in ENTITY.findall(asked.text)):
        return False
    # "what does X mean" asks what X is, as "what is X" does: the word "mean" is not what it asks about X
    asked_words = {t: b for t, b in asked.query.items()
                   if b not in (NAME_BOOST, PART_OF_NAME) and Intent.MEANING not in index.rewording.intents(t)}
    held = index.bm25.counts[index.position[hit.passage.ref]].keys() | frozenset().union(*hit.asked)
    return bool(asked_words) and index.bm25.held(asked_words, held) == 0


def _from_passages(index: KnowledgeIndex, asked: Question, ranked: list[tuple[float, Hit]]) -> Answer:
    if (not ranked or ranked[0][1].coverage < _min_coverage(ranked[0][1], asked, index)
            or _only_names_in_passing(ranked[0][1], asked, index)):
        coverage = ranked[0][1].coverage if ranked else 0.0
        return Answer(None, (), round(coverage, 3), suggestions(asked.text, index))
    best = ranked[0][1]
    shown, cited = _close_sections(index, asked, ranked, (best.passage.citation,))
    citations = tuple(dict.fromkeys((*cited, *_citations(ranked))))[:MAX_CITATIONS]
    return Answer(passage_excerpt(best, asked, index) + shown, citations, round(best.coverage, 3))


def _close_sections(index: KnowledgeIndex, asked: Question, ranked: list[tuple[float, Hit]],
                    cited: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """The sections ranked close to the best besides those ``cited``, each under its title, rather
    than a guess between them: those that answer about as well by their excerpts (past the first,
    only one with a sentence that stands out, which the excerpt keeps), the others by the sentence
    of each that answers; and the citations, with these."""
    text, sections = "", list(cited)
    for value, other in ranked:
        if len(sections) >= MAX_CITATIONS or value < SEE_ALSO_RATIO * ranked[0][0]:
            break
        if other.passage.citation in sections:
            continue
        as_well = value >= SECOND_PASSAGE_RATIO * ranked[0][0]
        if len(sections) == 1 and as_well:
            said = passage_excerpt(other, asked, index)
        elif (said := best_sentence(other, asked, index)) and as_well:
            excerpt = passage_excerpt(other, asked, index)
            said = excerpt if said in excerpt else f"{said}\n\n{excerpt}"
        if said:
            text += "\n\n" + _under_title(other.passage.title, said)
            sections.append(other.passage.citation)
    return text, tuple(sections)


def _under_title(title: str, said: str) -> str:
    """What a section says, shown under its title: a list starts on a line of its own."""
    return f"**{title}:**" + ("\n\n" if said.startswith("- ") else " ") + said


def _asks_only_a_value(asked: Question) -> bool:
    """It asks for a setting's default, range or unit and nothing more than what that is."""
    return bool(asked.intents & _VALUES) and asked.intents <= _VALUES | {Intent.MEANING}


def _min_coverage(best: Hit, asked: Question, index: KnowledgeIndex) -> float:
    """How much of the question the best passage must hold: less when it is of the kind asked for,
    or when the question names nothing and the passage holds many of its words (a long question's
    context dilutes what any passage holds of it; one the KB cannot answer shares few words)."""
    if answers_what_is_asked(best, asked):
        return MIN_COVERAGE_FITTED
    if not asked.names:
        held = index.bm25.counts[index.position[best.passage.ref]]
        if sum(term in held for term in asked.query) >= MANY_WORDS_HELD:
            return MIN_COVERAGE_MANY_WORDS
    return MIN_COVERAGE


def _value_asked(index: KnowledgeIndex, asked: Question, question: str, decoded: tuple[DecodedField, ...]) -> bool:
    """The clause that asks reads a field value itself, writes one the question's paste gave
    ("..., error code = 0x800000. 这个 0x800000 是哪里出问题了"), or only points at the paste ("这是
    哪里的问题", "what is this"): the value is what it asks about."""
    asking = last_clause(as_ascii_punctuation(question))
    if index.fields is not None and index.fields.decode(last_clause(asked.text), asking):
        return True
    said = asking.casefold()
    if any(value.casefold() in said for d in decoded for value in {str(d.fact.value), show_value(d.fact.value)}):
        return True
    # "这是哪里的问题", "what is it": a clause with no word of its own but the pointer asks about the paste
    rest = index.rewording.without_cues(index.rewording.reword(_POINTS_AT_PASTE.sub(" ", asking)))
    return _POINTS_AT_PASTE.search(asking) is not None and not any(len(term) > 1 for term in query_terms(rest))


def _field_lines(decoded: tuple[DecodedField, ...], others: bool) -> list[str]:
    """Each reading of the value, or with ``others`` of the values besides it."""
    besides = "other than " if others else ""
    lines = [f"- **{d.label}** {besides}`{show_value(d.fact.value)}`: {d.sentence}" for d in decoded]
    # one value read by several decoders (a CQE status of RoCE or of SDMA), not two fields of a pasted line
    values = [show_value(d.fact.value) for d in decoded]
    if len(set(values)) < len(values):
        lines.append("\n*Several fields go by that name: the log line the value comes from decides which reading applies.*")
    return lines


def _what_code_is(index: KnowledgeIndex, codes: Sequence[str]) -> Stated | None:
    """What the KB states the first of ``codes`` it knows means."""
    about = (Question.read(code, index) for code in dict.fromkeys(codes))
    return next((said for question in about
                 if (said := from_things(index, replace(question, intents=frozenset({Intent.MEANING})), []))), None)


def _named_by_reading(index: KnowledgeIndex, decoded: tuple[DecodedField, ...]) -> Stated | None:
    """What the KB states a code means, when the one reading of a value names that code (retCode
    0x2a: "the API returns aclError 507018"): the reading's code is what the engineer meets next."""
    if len(decoded) != 1:
        return None
    return _what_code_is(index, CANN_OR_ACL_CODE.findall(decoded[0].sentence))


def _about_what_is_named(index: KnowledgeIndex, asked: Question, ranked: list[tuple[float, Hit]],
                         typed: str) -> Answer | None:
    """No passage answers, but the question names something the knowledge base writes about: say
    what it holds about it (a setting's documented values; else the sections that name it: the one
    about it ranked best for the question with its sentences nearest it, then the others, those
    titled by it first) instead of "not in my knowledge base"."""
    if (said := about_named(index, asked, ranked)) is not None:
        return replace(Answer.of(said), direct=False)
    # a name only the synonyms put there (API for 接口) is not one the question names
    canonical = set(index.rewording.canonical.values())
    named = [n for n in dict.fromkeys(ENTITY.findall(without_absent_names(asked.text))) if n.casefold() in index.mentions
             and (n not in canonical or n.casefold() in typed.casefold())]
    if not named:
        return None
    places = [i for name in named for i in index.mentions[name.casefold()]]
    titled = sorted(dict.fromkeys(places), key=lambda i: (not any(n.casefold() in index.passages[i].title.casefold()
                                                                   for n in named), places.index(i)))
    titles = {index.passages[i].citation: index.passages[i].title for i in titled}
    naming = {index.passages[i].ref for i in places}
    nearest = next((hit for _, hit in ranked if hit.passage.ref in naming and is_about(hit, named)), None)
    names = ", ".join(f"`{n}`" for n in named)
    lines = [f"Nothing in the knowledge base answers this directly. What it holds about {names}:", ""]
    if nearest is not None:
        lines += [f"**{nearest.passage.title}:** " + passage_excerpt(nearest, asked, index), ""]
    first = [nearest.passage.citation] if nearest is not None else []
    shown = list(dict.fromkeys((*first, *(index.passages[i].citation for i in titled))))[:MAX_ABOUT]
    lines += [f"- {titles[c]}" for c in shown[len(first):]]
    return Answer("\n".join(lines).rstrip(), tuple(shown), 0.0, direct=False)


def _with_best_ranked(index: KnowledgeIndex, asked: Question, ranked: list[tuple[float, Hit]], about: Answer) -> Answer:
    """What the KB holds about the things a question names, with the section ranked best for the
    whole question when it is not among them: the names lead to their own sections, while the rest
    of the question ("does Task run failed need a switch on A2") may be answered elsewhere (the
    section saying the records are switched on by hand)."""
    if not ranked or (best := ranked[0][1]).passage.citation in about.citations:
        return about
    if not (said := passage_excerpt(best, asked, index)):
        return about
    return replace(about, text=f"{about.text}\n\n{_under_title(best.passage.title, said)}",
                   citations=(*about.citations, best.passage.citation))


def _quoted_line(index: KnowledgeIndex, asked: Question, ranked: list[tuple[float, Hit]]) -> Hit | None:
    """The section showing the log line the question quotes (the best ranked of them), if any; not
    when that line reports another code than any the question writes: the two share a wrapper's
    words (torch_npu's "NPU function error: ..., error code is N"), not the failure."""
    sections = asked.quoted.sections
    if not sections:
        return None
    found = next((hit for _, hit in ranked if hit.passage.ref in sections), None)
    found = found or index.hit(index.position[min(sections)], asked.query)
    introducing = asked.quoted.introduced_by(found.sentences)
    shown_codes = _reported_codes(shown(found.sentences[introducing])) if introducing is not None else set()
    asked_codes = _reported_codes(asked.text)
    return None if shown_codes and asked_codes and not shown_codes & asked_codes else found


def _reported_codes(text: str) -> set[str]:
    """The CANN and ACL codes ``text`` writes, but internal ones (EE9999: where a failure surfaced)."""
    return {code for code in CANN_OR_ACL_CODE.findall(text) if not _INTERNAL_CODE.fullmatch(code)}


def _with_quoted_line(index: KnowledgeIndex, asked: Question, answered: Answer, quoted: Hit | None) -> Answer:
    """An answer from elsewhere than the section that shows the log line the question quotes, with
    what that section says of the line: after the answer, or before it when all the question asks
    is what the line is and the answer comes from another article."""
    if quoted is None or quoted.passage.citation in answered.citations:
        return answered
    said = f"**The line you quote — {quoted.passage.title}:** {passage_excerpt(quoted, asked, index)}"
    if answered.direct and not asked.intents - {Intent.MEANING} and not any(
            cited.partition("#")[0] == quoted.passage.citation.partition("#")[0] for cited in answered.citations):
        # "what is this" of a line another article explains: that article says what the line is
        return replace(answered, text=f"{said}\n\n{answered.text}", citations=(quoted.passage.citation, *answered.citations))
    return replace(answered, text=f"{answered.text}\n\n{said}", citations=(*answered.citations, quoted.passage.citation))


def _with_subject(index: KnowledgeIndex, asked: Question, answered: Answer) -> Answer:
    """An answer to what a thing is, from the article about that thing (the question names it, or
    quotes a line the answering section shows): the article's title, which says what it is ("EI0011
    (Resource_Error_Insufficient_Device_Memory) — not enough NPU memory for HCCL"), comes first; the
    passage then says the particulars."""
    if asked.intents != {Intent.MEANING} or not answered.found or not answered.direct:
        return answered
    title = index.article_titles.get(answered.citations[0].partition("#")[0], "")
    if not (defined := article_definition(title)) or not (writes_any(asked.text, article_subject(title))
                                                          or answered.citations[0] in asked.quoted.sections):
        return answered
    return replace(answered, text=f"**{defined}.**\n\n{answered.text}")


def _with_code_reading(index: KnowledgeIndex, asked: Question, answered: Answer) -> Answer:
    """An answer about the one aclError code a question asks about, with what that code is: asked
    what it is or why it happened, its name and class first when the answer does not name it (a
    cause of 507015 from the AI Core article: "507015 (`ACL_ERROR_RT_AICORE_EXCEPTION`: ...) is a
    class-5 aclError ..."); else, asked what it is, the class its first digit gives it (107027 is
    a class-1 code, a usage error)."""
    codes = index.codebook.acl if index.codebook else None
    written = list(dict.fromkeys(m.group(0) for m in ACL_CODE.finditer(asked.text)))
    if codes is None or not answered.found or not answered.direct or len(written) != 1:
        return answered
    code, text = written[0], answered.text or ""
    reading = read_return_code(code, codes)
    if reading is None or f"class-{code[0]}" in text:
        return answered
    if (reading.named is not None and reading.named.name not in text and asked.intents and asked.intents <= _WHAT_OR_WHY
            and asks_about_code(index, asked.text, code)):
        cited = tuple(dict.fromkeys((*answered.citations, *reading.citations)))
        return replace(answered, text=f"{reading.sentence}\n\n{text}", citations=cited)
    if asked.intents != {Intent.MEANING} or (said := acl_class_sentence(code, codes)) is None:
        return answered
    return replace(answered, text=f"{text}\n\n{said}", citations=tuple(dict.fromkeys((*answered.citations, codes.citation))))


def _what_it_is(index: KnowledgeIndex, asked: Question, answered: Answer) -> Answer:
    """An answer about a code or a setting, with what the KB says it is besides the passage: the
    title of the article about it, an aclError's name and class."""
    return _with_code_reading(index, asked, _with_subject(index, asked, answered))


def _from_things(index: KnowledgeIndex, asked: Question, ranked: list[tuple[float, Hit]]) -> Stated | None:
    """What the KB states about the thing the question names; when it states a log field's value
    (ExceptionType is Heartbeat Lost Occurred), about that value, for what is asked or else for
    what the value means."""
    if (value := stated_value(index, asked.text)) is None:
        return from_things(index, asked, ranked)
    about = replace(asked, text=value.rest)
    return (from_things(index, about, ranked)
            or from_things(index, replace(about, intents=frozenset({Intent.MEANING})), ranked))


def answer(index: KnowledgeIndex, question: str) -> Answer:
    """What answers ``question``: a field value it names (retCode 0x31), or the values besides one
    ("CQE status not 12"), when it asks what the value means or what to do, or its asking clause
    holds the value, said first in the decoder's words, with the decoder's source cited first (the
    passage then stays only when it comes from an article a decoder cites: its words matched the
    question, not its value); else what the KB states about the one thing it names, for what it
    asks; else the passage that answers it best. Asked for what the articles never state (a speed,
    a price: the vocabulary's ``unstated``), only an answer that says it answers."""
    asked = Question.read(question.strip(), index)
    said = _answer(index, asked, question)
    unstated = index.rewording.unstated_asks(last_clause(as_ascii_punctuation(question)))
    if unstated and said.found and said.direct and not any(ask in (said.text or "").casefold() for ask in unstated):
        return Answer(None, (), said.score, suggestions(asked.text, index))
    return said


def _answer(index: KnowledgeIndex, asked: Question, question: str) -> Answer:
    foreign = index.rewording.foreign(asked.text)
    if (counterpart := asked.counterpart(foreign, index)) is not None:
        asked, foreign = counterpart, frozenset()    # what Ascend has instead of CUDA_LAUNCH_BLOCKING
    decoded = index.fields.decode(asked.text, as_ascii_punctuation(question)) if index.fields else ()
    if decoded and not asked.intents & _VALUE_ASKS and not _value_asked(index, asked, question, decoded):
        decoded = ()    # pasted before a clause that asks something else ("... status[12]. which server is the other end?")
    others = not decoded and index.fields is not None and bool(decoded := index.fields.decode_others(asked.text))
    if not foreign and not decoded and (coded := code_answer(index.codebook, asked.text, asked.intents)):
        # the class of a code the KB describes, and what it describes it as ("507015 算哪一类错误")
        if (said := _what_code_is(index, coded.codes)) is not None:
            read, _, classes = coded.text.partition("\n\n")
            return Answer(f"{read}\n\n{said.text}\n\n{classes}".rstrip(), (*coded.citations, *said.citations), 1.0)
        return Answer(coded.text, coded.citations, 1.0)
    ranked = rank(index.found(asked.query, limit=None), asked, index)
    if not foreign and not decoded and (unknown := unknown_codes(index, asked, ranked)) is not None:
        return Answer(unknown.text, unknown.citations, 1.0, direct=False)
    # what to do about a fault the question names comes from that fault, whatever field value the
    # paste around it gives ("LcalAllReduce ... errcode=0 ... 临时规避办法"); the reading follows
    acting = not others and bool(asked.intents & _ACTIONS)
    if not foreign and (not decoded or acting) and (stated := _from_things(index, asked, ranked)) is not None:
        said = _what_it_is(index, asked, Answer.of(stated))
        if not _asks_only_a_value(asked):
            shown, cited = _close_sections(index, asked, ranked, said.citations)
            said = replace(said, text=f"{said.text}{shown}", citations=cited)
        if not decoded:
            return said
        fields = "\n".join(_field_lines(decoded, others))
        return replace(said, text=f"{said.text}\n\n{fields}",
                       citations=tuple(dict.fromkeys((*said.citations, *(d.citation for d in decoded)))))
    passage = _from_passages(index, asked, ranked)
    if foreign and passage.found and not any(name in (passage.text or "").casefold() for name in foreign):
        # About another vendor's stack (NCCL_TIMEOUT, a CUDA error): the Ascend passage that shares
        # its other words does not answer it; what the KB holds about an Ascend name it asks about may.
        return (_about_what_is_named(index, asked, ranked, question)
                or Answer(None, (), passage.score, suggestions(asked.text, index)))
    if not decoded:
        # another vendor's message ("CUDA out of memory. Tried to allocate") is not the Ascend line it resembles
        quoted = _quoted_line(index, asked, ranked) if not foreign else None
        if passage.found:
            return _with_quoted_line(index, asked, _what_it_is(index, asked, passage), quoted)
        if (named := _about_what_is_named(index, asked, ranked, question)) is not None:
            return _with_quoted_line(index, asked, _with_best_ranked(index, asked, ranked, named), quoted)
        if quoted is not None:
            return Answer(passage_excerpt(quoted, asked, index), (quoted.passage.citation,), round(quoted.coverage, 3))
        return passage
    articles = {d.citation.partition("#")[0] for d in decoded}
    if passage.found and passage.citations[0].partition("#")[0] not in articles:
        passage = Answer(None, (), passage.score)
    if not passage.found and (named := _named_by_reading(index, decoded)) is not None:
        passage = Answer.of(named)
    text = "\n".join(_field_lines(decoded, others)) + (f"\n\n{passage.text}" if passage.found else "")
    citations = tuple(dict.fromkeys((*(d.citation for d in decoded), *passage.citations)))
    return Answer(text, citations[:MAX_CITATIONS + len(decoded)], 1.0)
