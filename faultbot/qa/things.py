"""The things the knowledge base knows by name, and what it states about each, by what a question
asks for: a setting's default and range (kb/settings.yaml), a section titled by a thing and what
it answers ("Causes of SDMA ERROR"), the names a section defines ("`crimer rank`: the root node"),
and a fault entry's summary, cause and fixes (named by its error code or the name its title opens
with). Names written together as one ("SDMA ERROR (EI0012)") are one thing."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import msgspec

from ..kb.loader import KnowledgeBase
from ..kb.model import Article, Entry, Intent, Section, Setting, parent_of
from .definitions import definitions
from .headings import article_subject, read_heading
from .passages import Passage, own_text
from .rewording import NAME, Rewording
from .sentences import Sentence, sentences
from .tokens import words

# Which statement answers first when a thing has several for what is asked (lower first): the
# settings file, a section titled for it, a definition or a fix section for what to do (below), the
# thing's own section or a section whose title asks with other words besides ("Causes named by the
# reference"), a fault entry's field (the family's own or a more particular fault's: the question's
# other words decide). The articles are the sources; an entry restates them.
RANK_SETTING, RANK_SECTION, RANK_DEFINITION, RANK_OWN_SECTION, RANK_ENTRY = range(5)
RANK_LOOSE_SECTION = RANK_OWN_SECTION
RANK_ALSO = RANK_DEFINITION
# The word kb/vocabulary.yaml says "stands for", "full name" and 全称 in: what an acronym spelled
# out in prose answers.
ACRONYM_TERM = "acronym"
ENTRY_FIELD_INTENTS = {
    "summary": frozenset({Intent.MEANING}),
    "cause": frozenset({Intent.CAUSE}),
    "workaround": frozenset({Intent.WORKAROUND}),
    "permanent": frozenset({Intent.PERMANENT_FIX, Intent.FIXED_VERSION}),
    "next_checks": frozenset({Intent.CHECK, Intent.COLLECT}),
}
_CODE = re.compile(r"[A-Z]{2}\d{4}|\d{6}")     # an error code: EI0012, 507034

# A section titled for fixing a thing ("Resolving ERROR CQE") is its procedure: what to do now and
# what to check, as well as the fix.
SECTION_ALSO_ANSWERS = {Intent.PERMANENT_FIX: frozenset({Intent.WORKAROUND, Intent.CHECK})}
# What each kind of setting value answers.
SETTING_INTENTS = {
    Intent.MEANING: ("meaning", "special"),
    Intent.DEFAULT: ("default", "unit"),
    Intent.RANGE: ("range", "unit", "special"),
    Intent.UNIT: ("unit",),
}


class Statement(msgspec.Struct, frozen=True):
    """What the knowledge base states about a thing for some intents, and where."""

    intents: frozenset[Intent]
    rank: int
    citation: str                 # article#section
    title: str
    text: str = ""                # a definition's own Markdown
    passage: int = -1             # else the passage it is (a section, an entry's field)
    setting: str = ""             # else the setting it comes from
    within: int = -1              # the passage holding it (a definition's section): what it covers of a question
    terms: str = ""               # what it answers besides its own words: "acronym" for an acronym spelled out


class Thing(msgspec.Struct, frozen=True):
    names: tuple[str, ...]                # as the knowledge base writes them, the first the main one
    statements: tuple[Statement, ...]
    context: frozenset[str]               # words of the titles it is named under

    def answering(self, intent: Intent) -> list[Statement]:
        return [s for s in self.statements if intent in s.intents]


class Catalogue(msgspec.Struct, frozen=True):
    things: tuple[Thing, ...]
    settings: dict[str, Setting]


def name_key(name: str, rewording: Rewording) -> str:
    """A name as the words a question names it with (in the articles' words, inflections folded)."""
    return " ".join(words(rewording.reword(name)))


class _Collector:
    """Statements gathered under names; names said together become one thing (union-find)."""

    def __init__(self, rewording: Rewording):
        self.rewording = rewording
        self.parent: dict[str, str] = {}
        self.written: dict[str, str] = {}
        self.found: list[tuple[str, Statement | None, frozenset[str]]] = []

    def key(self, name: str) -> str:
        return name_key(name, self.rewording)

    def _root(self, key: str) -> str:
        while self.parent.setdefault(key, key) != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def add(self, names: Iterable[str], statement: Statement | None, context: str = "") -> None:
        keys = []
        for name in names:
            if key := self.key(name):
                self.written.setdefault(key, name)
                keys.append(key)
        for key in keys[1:]:
            self.parent[self._root(key)] = self._root(keys[0])
        if keys:
            self.found.append((keys[0], statement, frozenset(words(context))))

    def things(self) -> list[Thing]:
        groups: dict[str, tuple[list[str], list[Statement], set[str]]] = {}
        for key in self.written:
            groups.setdefault(self._root(key), ([], [], set()))[0].append(self.written[key])
        for key, statement, context in self.found:
            _, statements, words_of = groups[self._root(key)]
            if statement is not None and statement not in statements:
                statements.append(statement)
            words_of.update(context)
        return [Thing(tuple(names), tuple(statements), frozenset(context))
                for names, statements, context in groups.values()]


# A sentence opening with a short label ("Possible causes:", "Root cause:", "Solution:") states
# what the label asks for (by kb/vocabulary.yaml's intents) about what its section is about.
_LABEL = re.compile(r"^\**([A-Za-z][A-Za-z ]{1,30}?)\**:\s")
MAX_LABEL_WORDS = 3


def _labelled(found: list[Sentence], rewording: Rewording) -> list[tuple[frozenset[Intent], str]]:
    """The labelled sentences of a section, each with what its label asks for and its text up to
    the next label or the end of its paragraph."""
    labels = [(i, rewording.intents(rewording.reword(label.group(1))))
              for i, sentence in enumerate(found)
              if (label := _LABEL.match(sentence.text)) and len(label.group(1).split()) <= MAX_LABEL_WORDS]
    labelled = []
    for number, (i, intents) in enumerate(labels):
        if not intents:
            continue
        end = labels[number + 1][0] if number + 1 < len(labels) else len(found)
        kept = [s.text for s in found[i:end] if s.block == found[i].block]
        also = frozenset().union(*(SECTION_ALSO_ANSWERS.get(intent, ()) for intent in intents))
        labelled.append((intents | also, " ".join(kept)))
    return labelled


def _labelled_statements(article: Article, section: Section, names: Iterable[str], collect: _Collector,
                         at: int) -> None:
    citation = f"{article.id}#{section.slug}"
    for intents, text in _labelled(sentences(own_text(section)), collect.rewording):
        collect.add(names, Statement(intents, RANK_OWN_SECTION, citation, section.title, text=text, within=at),
                    f"{section.title} {article.title}")


def _definition_statements(article: Article, section: Section, collect: _Collector, at: int) -> None:
    citation = f"{article.id}#{section.slug}"
    for found in definitions(own_text(section)):
        statement = Statement(frozenset({Intent.MEANING}), RANK_DEFINITION, citation, section.title,
                              text=found.text, within=at, terms=ACRONYM_TERM if found.spelled_out else "")
        # Names defined together beside an error code are that code's keywords (EI0012,
        # Execution_Error_SDMA); others are things of their own defined alike (HeartbeatAbnormal,
        # Cluster Exception Location).
        together = any(_CODE.fullmatch(name) for name in found.names)
        for names in [found.names] if together else [(name,) for name in found.names]:
            collect.add(names, statement, f"{section.title} {article.title}")


def _article_statements(article: Article, collect: _Collector, section_at: dict[str, int]) -> None:
    """What each section states by its heading, about what its heading names or, when it names
    nothing ("Root cause"), about what the section above it or the article is about; and what
    each section defines."""
    subject = article_subject(article.title)
    if subject:
        collect.add(subject, None, article.title)
    named: list[tuple[int, tuple[str, ...]]] = []     # the sections above, with what they name
    for section in article.sections.values():
        citation = f"{article.id}#{section.slug}"
        at = section_at.get(citation, -1)
        named = [(level, names) for level, names in named if level < section.level]
        heading = read_heading(section.title, collect.rewording)
        if heading.usable:
            names = heading.names or (named[-1][1] if named else subject)
            own = bool(heading.names) and heading.intents == {Intent.MEANING}
            rank = RANK_OWN_SECTION if own else RANK_LOOSE_SECTION if heading.loose else RANK_SECTION
            context = f"{section.title} {article.title}"
            collect.add(names, Statement(heading.intents, rank, citation, section.title, passage=at), context)
            also = frozenset().union(*(SECTION_ALSO_ANSWERS.get(i, ()) for i in heading.intents)) - heading.intents
            if also:
                collect.add(names, Statement(also, max(rank, RANK_ALSO), citation, section.title, passage=at), context)
            if heading.names:
                named.append((section.level, heading.names))
            if heading.intents == {Intent.MEANING}:
                _labelled_statements(article, section, names, collect, at)
        _definition_statements(article, section, collect, at)


def _root_id(entry_id: str) -> str:
    while (parent := parent_of(entry_id)) is not None:
        entry_id = parent
    return entry_id


def _entry_names(entry: Entry, roots_of_code: dict[str, list[str]]) -> list[tuple[str, bool]]:
    """The names a root entry goes by, each with whether the entry says what it is: an error code
    no other root lists (its fault is what the code means), the name its title opens with (its
    fault is one of that thing: LcalAllReduce hangs ...)."""
    names = [(code, True) for code in entry.error_codes if roots_of_code.get(code) == [entry.id]]
    opening = re.match(NAME.pattern, entry.title)
    return names + ([(opening.group(), False)] if opening else [])


def _entry_statements(kb: KnowledgeBase, collect: _Collector, field_at: dict[str, int],
                      passages: Sequence[Passage]) -> None:
    entries = kb.entries
    roots_of_code: dict[str, list[str]] = {}
    for entry in entries:
        if entry.parent_id is None:
            for code in entry.error_codes:
                roots_of_code.setdefault(code, []).append(entry.id)
    names_of = {e.id: _entry_names(e, roots_of_code) for e in entries if e.parent_id is None}
    for entry in entries:
        for field, intents in ENTRY_FIELD_INTENTS.items():
            at = field_at.get(f"{entry.id} {field}")
            if at is None:
                continue
            statement = Statement(intents, RANK_ENTRY, passages[at].citation, passages[at].title, passage=at)
            for name, says_what in names_of.get(_root_id(entry.id), []):
                if says_what or Intent.MEANING not in intents:     # each its own thing: 507014 is not 507034
                    collect.add((name,), statement, entry.title)


def _setting_statements(settings: Iterable[Setting], collect: _Collector) -> None:
    for setting in settings:
        for intent, kinds in SETTING_INTENTS.items():
            if values := setting.of(kinds[0]):
                collect.add((setting.name, *setting.called),
                            Statement(frozenset({intent}), RANK_SETTING, values[0].citation, setting.name,
                                      setting=setting.name), setting.name)


def build_catalogue(kb: KnowledgeBase, passages: Sequence[Passage], rewording: Rewording,
                    settings: tuple[Setting, ...]) -> Catalogue:
    collect = _Collector(rewording)
    section_at = {p.ref: i for i, p in enumerate(passages) if not p.field}
    field_at = {p.ref: i for i, p in enumerate(passages) if p.field}
    _setting_statements(settings, collect)
    for article in kb.articles.values():
        _article_statements(article, collect, section_at)
    _entry_statements(kb, collect, field_at, passages)
    return Catalogue(tuple(collect.things()), {s.name: s for s in settings})
