"""The part of a passage that answers a question: its sentences that hold most of what the passage
holds of the question, each with what it needs to be read (its paragraph's first sentence, the
table of a row, the list a colon introduces), or the whole passage when it is short; a how-to
brings along the sentence that says which variable to set and a command, a question about what
something consists of the list that names its parts, and a question quoting a log line the sentence
that introduces it."""

from __future__ import annotations

import re
from collections import Counter

from ..kb.model import Intent
from .index import Hit, KnowledgeIndex
from .question import Question
from .ranking import sentence_contexts
from .sentences import Sentence
from .tokens import NAME_BOOST, PART_OF_NAME, query_terms, tokenize

MAX_SENTENCES = 3
# sentences holding this share of the best one's score are shown with it, up to MAX_SENTENCES: the
# best sentence alone often names the thing asked about without what is asked of it
CLOSE_SENTENCE_SHARE = 0.3
WHOLE_PASSAGE_CHARS = 900  # a passage this short is the answer whole
MAX_ROWS = 8               # table rows or list items a sentence brings along
LEAD_RATIO = 0.25          # when no sentence holds this much of what the passage holds, its lead answers
# A sentence that says to set a variable: what a how-to is answered with, besides a command.
_SETS_A_VARIABLE = re.compile(r"\b(?:set|export|raise|increase|lower|adjust|change)\b(?!\s+by\b)"
                              r"[^.;]{0,40}?\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b")
# A name the passage is titled or keyed by (the article's subject, LcalAllReduce) is what all its
# sentences are about: the one holding the question's other words answers, not the one naming it.
SUBJECT_SHARE = 0.25
_COMMAND_BELOW = re.compile(r"\bcommands?\b[^.]{0,40}\bbelow\b|命令如下")
LIST_BONUS = 0.5           # for a question about parts, a sentence introducing a list of them
_RUN_IN_HEAD = re.compile(r"\*\*[^*]+\*\*[.:]?")
# A paragraph opening with words that point back at the commands shown just before it
_POINTS_BACK = re.compile(r"(?:The (?:first|second|former|latter|output|command)s?|These|This|Those|Both|Each|Its?)\b")
# A sentence saying only how the log example after it is laid out, or only labelling it ("The
# guide's screen example:", "Its plog line:": a few words, nothing quoted)
_LAYOUT_NOTE = re.compile(r"\b(?:one record per line|glued onto one line)\b[^:]*:$")
_LABEL = re.compile(r"[^`\s]+(?:\s+[^`\s]+){0,4}:")


def _selection_scores(hit: Hit, question: Question, index: KnowledgeIndex, subject: str = "") -> list[float]:
    """How much of what the passage holds of the question each sentence holds, plus its bonus.
    The title's words say nothing about which of its sentences answers, so they do not count:
    when the title holds it all, the whole passage answers, and its lead says so. A name its title
    writes as words (HeartbeatAbnormal in "Heartbeat abnormal events"), and a ``subject`` the
    passage is known to be about, count as a name in its title does."""
    found, words = list(hit.sentences), hit.words
    titled = tokenize(hit.passage.title)
    about = hit.title_words | {first + second for first, second in zip(titled, titled[1:])} | query_terms(subject).keys()
    own = {t: b * (SUBJECT_SHARE if b in (NAME_BOOST, PART_OF_NAME) and t in about else 1.0)
           for t, b in question.query.items() if t not in hit.heading_words}
    total = index.bm25.held(own, set().union(*words)) if words else 0.0
    scores = []
    listing = Intent.CONSISTS_OF in question.intents
    for i, (sentence, held, context) in enumerate(zip(found, words, sentence_contexts(hit.passage.title, found))):
        share = index.bm25.held(own, held) / total if total else 0.0
        holds_any = index.bm25.held(question.query, held) > 0
        # "What X consists of" is answered by the list a sentence introduces ("What each record tells you:")
        parts = LIST_BONUS if listing and holds_any and _introduced_by(found, i) else 0.0
        scores.append(share + parts + question.bonus(sentence, holds_any, context, choosing=True))
    return scores


def _table_around(found: list[Sentence], i: int) -> list[int]:
    """The rows of the table row ``i`` is in, when it has at most MAX_ROWS: a row reads against the
    few beside it; of a long list of codes, the others are noise (each row names its columns)."""
    start = end = i
    while start > 0 and found[start - 1].row:
        start -= 1
    while end + 1 < len(found) and found[end + 1].row:
        end += 1
    return list(range(start, end + 1)) if end - start < MAX_ROWS else [i]


def _introduced_by(found: list[Sentence], i: int) -> list[int]:
    """The list items or table rows after a sentence that ends in a colon, up to MAX_ROWS of them;
    or, when a paragraph follows (the log example it introduced is left out), that paragraph."""
    if not found[i].text.endswith(":") or i + 1 == len(found):
        return []
    if not (found[i + 1].row or found[i + 1].bullet):
        return [j for j in range(i + 1, len(found)) if found[j].block == found[i + 1].block]
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
    about), a table row the rest of its table, and a paragraph that ends in a colon the list or
    table it introduces: alone, each reads out of context."""
    kept = set(chosen)
    for i in chosen:
        kept.add(next(j for j in range(i + 1) if found[j].block == found[i].block))
        if _RUN_IN_HEAD.fullmatch(found[i].text) and i + 1 < len(found) and found[i + 1].block == found[i].block:
            kept.add(i + 1)    # a run-in head ("**A timeout with no heartbeat events.**") only names what follows
        if i and found[i - 1].commands and found[i - 1].block != found[i].block and _POINTS_BACK.match(found[i].text):
            kept.add(i - 1)    # "The first shows whether ...": of the commands just before it
        if found[i].row:
            kept.update(_table_around(found, i))
            continue
        last = max(j for j in range(i, len(found)) if found[j].block == found[i].block)
        if last == i or (found[last].text.endswith(":") and _introduced_by(found, last)):
            kept.update(range(i, last + 1))
            kept.update(_introduced_by(found, last))
    return sorted(kept)


def _chosen(found: list[Sentence], scores: list[float], question: Question, titled: bool) -> list[int]:
    """``titled``: the passage's title says it is what is asked for (Causes of SDMA ERROR, for a
    cause); its lead then says it in general, and comes first."""
    # the sentence introducing the log line the question quotes says what the line is
    introducing = question.quoted.introduced_by(found) if question.quoted.runs else None
    # a sentence saying only how the log example after it is laid out ("rank0, one record per line:"),
    # or only labelling it ("The guide's screen example:"), would dangle without it, and excerpts
    # leave examples out; a layout note introducing the line the question quotes says what it holds
    dangling = {i for i, sentence in enumerate(found) if sentence.shows and (
        _LABEL.fullmatch(sentence.text) or i != introducing and _LAYOUT_NOTE.search(sentence.text))}
    if sum(len(s.text) for s in found) <= WHOLE_PASSAGE_CHARS:
        # short enough to read whole: no sentence is out of context
        return [i for i in range(len(found)) if i not in dangling]
    best = max(scores, default=0.0)
    if best < LEAD_RATIO:
        chosen = list(range(min(2, len(found))))
    else:
        ranked = sorted((i for i in range(len(found)) if i not in dangling), key=lambda i: (-scores[i], i))
        # a score more sentences share than are shown (every row of a list of codes writes "error")
        # says nothing about which of them answers
        alike = Counter(scores)
        chosen = [i for i in ranked if scores[i] == best or (scores[i] >= CLOSE_SENTENCE_SHARE * best
                                                             and alike[scores[i]] <= MAX_SENTENCES)][:MAX_SENTENCES]
        if titled and found and not found[0].bullet and not found[0].row:
            chosen.append(0)
    if question.how_to:
        chosen += _what_to_do(found, scores, chosen)
    if introducing is not None and introducing not in chosen:
        chosen.append(introducing)
    # brought along as context, a sentence introducing a log example the excerpt leaves out ("The
    # documented format:") would dangle too
    return [i for i in _in_context(found, chosen) if i not in dangling
            and (i in chosen or not (found[i].shows and found[i].text.endswith(":")))]


def _what_to_do(found: list[Sentence], scores: list[float], chosen: list[int]) -> list[int]:
    """For a how-to: the sentence that says to set a variable ("set `HCCL_EXEC_TIMEOUT` to a larger
    value"), the best of them, unless one is chosen already; and a command, unless one is."""
    added = []
    settings = [i for i in range(len(found)) if _SETS_A_VARIABLE.search(found[i].text)]
    if settings and not set(settings) & set(chosen):
        added.append(max(settings, key=lambda i: (scores[i], -i)))
    if not any(found[i].commands for i in chosen + added):
        added += [i for i in range(len(found)) if found[i].commands][:1]
    return added


def _markdown(found: list[Sentence], chosen: list[int]) -> str:
    """The chosen sentences as Markdown: a paragraph or list item per block, commands as code."""
    parts: list[str] = []
    previous_block = None
    for i in chosen:
        sentence = found[i]
        text = sentence.text
        if sentence.shows and not sentence.commands and text.endswith(":"):
            text = text[:-1] + "."    # the log example it introduces is left out: nothing follows
        if sentence.block == previous_block and parts:
            parts[-1] += " " + text
        elif (sentence.bullet or sentence.row) and parts and parts[-1].startswith("- "):
            parts[-1] += "\n- " + text
        else:
            parts.append(("- " if sentence.bullet or sentence.row else "") + text)
        previous_block = sentence.block
        if sentence.commands:
            parts.append("```bash\n" + "\n".join(sentence.commands) + "\n```")
            previous_block = None
    return "\n\n".join(parts)


def _section_command(hit: Hit, question: Question, index: KnowledgeIndex) -> str:
    """For a how-to answered by one point of a section, the command of that section the question's
    words fit best ("search the run log (command below)" and the command after the list), if any."""
    section = index.position.get(hit.passage.citation)
    if section is None or section == index.position.get(hit.passage.ref):
        return ""
    whole = index.hit(section, question.query)
    scores = _selection_scores(whole, question, index)
    commands = [i for i, sentence in enumerate(whole.sentences) if sentence.commands and scores[i] > 0]
    if not commands and any(_COMMAND_BELOW.search(sentence.text) for sentence in hit.sentences):
        # the point says its command follows ("command and example output below"): the first after it
        texts = [sentence.text for sentence in whole.sentences]
        point = texts.index(hit.sentences[-1].text) if hit.sentences[-1].text in texts else len(texts)
        commands = [i for i in range(point + 1, len(texts)) if whole.sentences[i].commands][:1]
    if not commands:
        return ""
    best = max(commands, key=lambda i: scores[i])
    return "\n\n" + _markdown(list(whole.sentences), [best])


def passage_excerpt(hit: Hit, question: Question, index: KnowledgeIndex, subject: str = "") -> str:
    """The Markdown of what in ``hit`` answers ``question``; ``subject``: a name the passage is
    known to be about (``_selection_scores``)."""
    found = list(hit.sentences)
    titled = not hit.passage.field and bool(hit.answers & question.intents - {Intent.MEANING})
    chosen = _chosen(found, _selection_scores(hit, question, index, subject), question, titled)
    text = _markdown(found, chosen)
    if question.how_to and not any(found[i].commands for i in chosen):
        text += _section_command(hit, question, index)
    return text


def best_sentence(hit: Hit, question: Question, index: KnowledgeIndex) -> str:
    """The Markdown of the one sentence of ``hit`` that answers ``question`` best, with what it needs
    to be read. When none stands out (holds LEAD_RATIO of what the passage holds), its lead, if its
    title holds some of the question (the title says it is what is asked); else "". A table row
    comes alone, in its "header: cell" words, and only when it holds more of the question than a
    name: a row naming PyTorch's version says nothing of what PyTorch is."""
    found = list(hit.sentences)
    scores = _selection_scores(hit, question, index)
    best = max(range(len(found)), key=lambda i: (scores[i], -i), default=None)
    if best is None:
        return ""
    if scores[best] < LEAD_RATIO:
        if found[0].row or found[0].bullet or not (hit.title_words & question.query.keys()):
            return ""
        best = 0
    if not found[best].row:
        return _markdown(found, _in_context(found, [best]))
    asked = {t: b for t, b in question.query.items() if b not in (NAME_BOOST, PART_OF_NAME)}
    return _markdown(found, [best]) if index.bm25.held(asked, hit.words[best]) > 0 else ""
