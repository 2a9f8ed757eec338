"""The knowledge base as the engine uses it, and where it comes from.

``load_kb`` returns the compiled KB from the cache when the KB's content has not changed since it
was compiled, so only the first run after an edit pays for parsing and validating every file
(``faultbot.kb.compiler``); a run then reads only the entries and articles it uses.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .. import cache
from .diagnostics import KbError, Problem
from .digest import KbDigest, kb_digest
from .lazy import LazyTable
from .model import Article, CodeBook, Decoder, Entry, FactCatalogue, FactSpec, Rule, Vocabulary, parent_of


@dataclass(frozen=True)
class EntryIndex:
    """What the engine needs of every entry without reading any whole: the ids (sorted), which
    are marked as echoes, and the error codes each lists."""

    ids: tuple[str, ...]
    echo: frozenset[str]
    error_codes: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, entries: list[Entry]) -> "EntryIndex":
        ordered = sorted(entries, key=lambda e: e.id)
        return cls(tuple(e.id for e in ordered), frozenset(e.id for e in ordered if e.echo),
                   {e.id: e.error_codes for e in ordered})

    def children(self, entry_id: str) -> tuple[str, ...]:
        return tuple(ident for ident in self.ids if parent_of(ident) == entry_id)

    def listing(self, code: str) -> tuple[str, ...]:
        """The entries that list the error code ``code``."""
        return tuple(ident for ident in self.ids if code in self.error_codes[ident])


@dataclass(frozen=True)
class KnowledgeBase:
    """A compiled knowledge base: catalogue, rules, decoders and codes at hand, entries and articles
    read when used."""

    catalogue: FactCatalogue
    rules: tuple[Rule, ...]              # kb/rules*, then the decoder cases that assert facts
    codebook: CodeBook | None
    index: EntryIndex
    entry_table: LazyTable[Entry]        # by id; each read whole only when used
    articles: LazyTable[Article]         # by id, likewise
    kb_dir: Path
    digest: KbDigest
    decoders: tuple[Decoder, ...] = ()
    vocabulary: Vocabulary = Vocabulary()

    @property
    def facts(self) -> dict[str, FactSpec]:
        return self.catalogue.facts

    @property
    def entries(self) -> tuple[Entry, ...]:
        """Every entry, by id: reads them all (the engine reads only those the evidence names)."""
        return tuple(self.entry_table[ident] for ident in self.index.ids)

    def entry(self, entry_id: str) -> Entry | None:
        return self.entry_table.get(entry_id)

    def children(self, entry_id: str) -> tuple[Entry, ...]:
        return tuple(self.entry_table[ident] for ident in self.index.children(entry_id))


def load_kb(kb_dir: Path, articles_dir: Path) -> KnowledgeBase:
    """The KB in ``kb_dir`` with the articles in ``articles_dir``: compiled once per content, from
    the cache afterwards. Raises KbError when the KB has problems."""
    kb_dir = kb_dir.resolve()
    if not kb_dir.is_dir():
        raise KbError([Problem(str(kb_dir), 1, "knowledge base folder does not exist")])
    articles_dir = articles_dir.resolve()
    digest = kb_digest(kb_dir, articles_dir)
    return cache.load_or_build("kb", (digest.content, str(kb_dir), str(articles_dir)),
                               lambda: _compiled(kb_dir, articles_dir, digest))


def _compiled(kb_dir: Path, articles_dir: Path, digest: KbDigest) -> KnowledgeBase:
    from .compiler import compile_kb  # the parsers and validators: only when the cache has no compiled KB

    return compile_kb(kb_dir, articles_dir, digest)
