"""What questions are answered from: each article section (its own text, without subsections) and
each KB entry's summary, cause and fixes, with the article section an answer from it cites."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import msgspec

from ..engine.facts import WorkingMemory
from ..engine.fill import fill
from ..kb.loader import KnowledgeBase
from ..kb.model import Article, Citation, Entry, FixStep, Section, step_lines
from .bm25 import build
from .rewording import NAME
from .sentences import KEY_TERMS_PREFIX, sentences
from .tokens import tokenize

# A thing a question can name: an environment variable, error code, kernel or acronym (AIV, RoCE).
ENTITY = re.compile(NAME.pattern + r"|\b[A-Z][A-Z0-9]{2,}\b", re.ASCII)
_CODE = re.compile(r"[A-Za-z][A-Za-z0-9]\d{4}")     # an error code: EI0014, E30008

_HEADING = re.compile(r"^#{1,6}\s")
ASKED_AS_PREFIX = "**Asked as:**"
_FENCE = re.compile(r"^\s*(```|~~~)")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
# The articles are the sources and an entry restates them: where a section answers about as well,
# the section is the better answer.
ENTRY_PRIOR = 0.8
# A section that mostly points elsewhere (a quick index, references) answers less well than what it points at.
NAVIGATION_PRIOR = 0.5
_LINK = re.compile(r"\]\(#[a-z0-9-]+\)|https?://")
# A run-in head: bold words opening a paragraph or a list item.
_POINT_HEAD = re.compile(r"^\s*(?P<item>(?:[-*+]|\d+\.)\s+)?\*\*(?P<head>[^*\n]{3,80}?)[.:]?\*\*")
MIN_POINTS = 2             # a section with fewer run-in heads is one point
POINTER_SHARE = 0.4        # a point with this share of its sentences pointing elsewhere is not one
_FIX_FIELDS = (("workaround", "workaround"), ("permanent", "permanent fix"), ("next_checks", "next checks"))


class Passage(msgspec.Struct, frozen=True):
    ref: str              # how /search names it: "article#section" or "entry-id cause"
    title: str
    text: str             # Markdown the answer is cut from
    citation: str         # the article section an answer from it cites ("article#section")
    terms: str = ""       # indexed with it: the article title, Chinese key terms, error codes, tags
    prior: float = 1.0    # its score is multiplied by this
    field: str = ""       # the entry field it holds (cause, workaround, permanent, next_checks), "" for a section
    asked: tuple[str, ...] = ()   # how engineers ask for what a section says: its "Asked as" line

    def searched(self) -> str:
        """What search matches: the title twice, the prose with its commands, the key terms (how it
        is asked for is matched apart, phrase by phrase: KnowledgeIndex.asked_coverage)."""
        prose = " ".join(" ".join((s.text, *s.commands)) for s in sentences(self.text))
        return " ".join((self.title, self.title, prose, self.terms))


def _own_lines(section: Section) -> list[str]:
    """The section's lines up to its first subsection (a section's text includes its subsections)."""
    kept, fenced = [], False
    for line in section.text.split("\n"):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and _HEADING.match(line):
            break
        kept.append(line)
    return kept


def own_text(section: Section) -> str:
    """The section's text up to its first subsection, without its "Asked as" line (how engineers
    ask for it is not what it says)."""
    return "\n".join(line for line in _own_lines(section) if not line.lstrip().startswith(ASKED_AS_PREFIX)).strip()


def asked_as(section: Section) -> tuple[str, ...]:
    """The questions the section's "Asked as" line says engineers ask it with."""
    return tuple(phrase.strip() for line in _own_lines(section) if line.lstrip().startswith(ASKED_AS_PREFIX)
                 for phrase in line.lstrip()[len(ASKED_AS_PREFIX):].split(";") if phrase.strip())


def _is_navigation(text: str, share: float = 0.5) -> bool:
    """Whether more than ``share`` of the sentences of ``text`` point elsewhere."""
    found = sentences(text)
    return len([s for s in found if _LINK.search(s.text)]) > share * len(found)


def _section_passage(article: Article, section: Section) -> Passage:
    text = own_text(section)
    terms = " ".join((_subject(article, section), *(t for t in section.key_terms if t in text)))
    ref = f"{article.id}#{section.slug}"
    return Passage(ref, section.title, text, ref, terms, NAVIGATION_PRIOR if _is_navigation(text) else 1.0,
                   asked=asked_as(section))


def _subject(article: Article, section: Section) -> str:
    """What a section of ``article`` is about besides its own words: the article's title, which
    names its subject (LcalAllReduce, HCCL, EI0014), but for the other codes it lists that another
    of its sections is titled by (E30008 of "AI CPU errors — ... timeouts (507017, E30008)"): that
    section is about them."""
    named = ENTITY.findall(article.title)
    others = {name.casefold() for other in article.sections.values() if other is not section
              for name in ENTITY.findall(other.title) if _CODE.fullmatch(name)}
    others.discard(named[0].casefold() if named else "")
    return ENTITY.sub(lambda name: "" if name.group().casefold() in others else name.group(), article.title)


def _point_starts(lines: list[str]) -> list[tuple[int, str, int]]:
    """Where a run-in head opens a paragraph or a list item (``**Why most ranks time out.**``),
    outside code, with its depth: a paragraph's head 0, a list item's deeper the more it is indented."""
    starts, fenced = [], False
    for number, line in enumerate(lines):
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and not line.lstrip().startswith(KEY_TERMS_PREFIX) and (head := _POINT_HEAD.match(line)):
            if head.group("item"):
                starts.append((number, head.group("head").strip("`"), 1 + len(line) - len(line.lstrip())))
            elif number == 0 or not lines[number - 1].strip():    # not a line wrapped inside a paragraph
                starts.append((number, head.group("head").strip("`"), 0))
    return starts


def _end_of_point(lines: list[str], starts: list[tuple[int, str, int]], position: int) -> int:
    """Where the point opened at ``starts[position]`` ends: at the next head as shallow as its own;
    a list item's also where its list does (at a paragraph that is neither an item nor indented)."""
    start, _, depth = starts[position]
    end = next((number for number, _, other in starts[position + 1:] if other <= depth), len(lines))
    if depth:
        end = next((n for n in range(start + 1, end) if lines[n].strip() and not lines[n][:1].isspace()
                    and not _ITEM.match(lines[n]) and not lines[n - 1].strip()), end)
    return end


def _points(article: Article, section: Section) -> list[Passage]:
    """A section that makes several points under run-in heads, point by point: each head with what
    follows it up to the next head as shallow as its own (a paragraph's point holds the list it
    introduces, heads of the items included), cited as the section. A question about one point is
    answered by it, not by whichever of the section's sentences share its words. A point that
    mostly points elsewhere ("See find-group-ranks") is left to the section it points to."""
    lines = own_text(section).split("\n")
    starts = _point_starts(lines)
    if len(starts) < MIN_POINTS:
        return []
    ref = f"{article.id}#{section.slug}"
    points = []
    for position, (start, head, _) in enumerate(starts):
        text = "\n".join(lines[start:_end_of_point(lines, starts, position)]).strip()
        if not _is_navigation(text, POINTER_SHARE):
            points.append(Passage(f"{ref}/{position + 1}", f"{section.title}: {head}", text, ref, article.title))
    return points


def _article_passages(articles: Iterable[Article]) -> list[Passage]:
    return [_section_passage(a, s) for a in articles for s in a.sections.values()]


def _step_markdown(step: FixStep, memory: WorkingMemory) -> str:
    return "\n".join(step_lines(step, lambda text: fill(text, memory)))


class _Sections:
    """The article sections, searchable, to find which of an entry's citations backs a field."""

    def __init__(self, passages: list[Passage]):
        self.position = {p.ref: i for i, p in enumerate(passages)}
        self.bm25 = build(tokenize(p.searched()) for p in passages)

    def supporting(self, text: str, citations: Sequence[Citation]) -> str:
        """Of ``citations``, the section ``text`` reads most like (the first cited on a tie)."""
        query = dict.fromkeys(tokenize(text), 1.0)
        scored = [(self.bm25.score(self.position[str(c)], query) if str(c) in self.position else -1.0, -i, str(c))
                  for i, c in enumerate(citations)]
        return max(scored)[2] if scored else ""


def _entry_passages(entry: Entry, sections: _Sections) -> list[Passage]:
    memory = WorkingMemory()   # no diagnosis: placeholders read <fact>
    fields = [("cause", f"{entry.title} — cause", fill(entry.cause, memory), "")]
    if entry.summary:
        fields.insert(0, ("summary", entry.title, fill(entry.summary, memory), ""))
    for name, label in _FIX_FIELDS:
        steps: tuple[FixStep, ...] = getattr(entry.fixes, name)
        if steps:
            cited = next((s.citation for s in steps if s.citation), "")
            fields.append((name, f"{entry.title} — {label}", "\n".join(_step_markdown(s, memory) for s in steps), cited))
    codes = " ".join((*entry.error_codes, *entry.tags))     # what the fault is called: its first field's words
    return [Passage(f"{entry.id} {name}", title, text, cited or sections.supporting(text, entry.citations),
                    codes if position == 0 else "", ENTRY_PRIOR, name)
            for position, (name, title, text, cited) in enumerate(fields)]


def kb_passages(kb: KnowledgeBase) -> list[Passage]:
    articles = _article_passages(kb.articles.values())
    sections = _Sections(articles)
    points = [p for a in kb.articles.values() for s in a.sections.values() for p in _points(a, s)]
    return articles + points + [p for entry in kb.entries for p in _entry_passages(entry, sections)]
