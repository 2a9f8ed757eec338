"""The compiled knowledge base as the rest of faultbot holds it: the catalogue, rules, decoders,
codes, masks and aggregation tables at hand, an index of the entries, and the entries and articles
read when used.

``compiler`` builds it and ``loader`` keeps it in the cache; both import it from here, so neither
imports the other's module to name the value they share.
"""

from __future__ import annotations

from pathlib import Path

import msgspec

from .digest import KbDigest
from .lazy import LazyTable
from .model import (
    Article,
    CodeBook,
    Decoder,
    Entry,
    ExecTimeoutProfile,
    FactCatalogue,
    FactSpec,
    Mask,
    Rule,
    Setting,
    Vocabulary,
    parent_of,
)


class EntryIndex(msgspec.Struct, frozen=True):
    """What the engine needs of every entry without reading any whole: the ids (sorted), which
    are marked as echoes, and the error codes each lists."""

    ids: tuple[str, ...]
    echo: frozenset[str]
    error_codes: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, entries: list[Entry]) -> EntryIndex:
        ordered = sorted(entries, key=lambda e: e.id)
        return cls(tuple(e.id for e in ordered), frozenset(e.id for e in ordered if e.echo),
                   {e.id: e.error_codes for e in ordered})

    def children(self, entry_id: str) -> tuple[str, ...]:
        return tuple(ident for ident in self.ids if parent_of(ident) == entry_id)

    def listing(self, code: str) -> tuple[str, ...]:
        """The entries that list the error code ``code``."""
        return tuple(ident for ident in self.ids if code in self.error_codes[ident])


class KnowledgeBase(msgspec.Struct, frozen=True):
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
    masks: tuple[Mask, ...] = ()                                  # kb/masks.yaml, in the order applied
    heartbeat_priority: tuple[str, ...] = ()                      # heartbeat statuses, highest first
    exec_timeout_profiles: tuple[ExecTimeoutProfile, ...] = ()    # kb/aggregations.yaml
    settings: tuple[Setting, ...] = ()                            # kb/settings.yaml

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
