"""The knowledge base as typed, immutable values: fact specs, extractors, fault entries.

Parsing and checking live in the schema modules; these classes only hold what was read, with
the file and line it came from so that later errors (engine, entry tests) can point at it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Union

from .versions import Scheme, VersionRange


@dataclass(frozen=True)
class Where:
    file: str
    line: int

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


class FactType(str, Enum):
    STRING = "string"
    INT = "int"
    FLOAT = "float"
    SECONDS = "seconds"
    BOOL = "bool"
    ENUM = "enum"
    VERSION = "version"


class FactSource(str, Enum):
    LOG = "log"          # extracted from log records by the catalogue's extractors
    DERIVED = "derived"  # computed by the engine from other facts
    USER = "user"        # only known when the engineer answers


@dataclass(frozen=True)
class Question:
    text: str
    why: str
    how_to_find: tuple[str, ...]   # each a command or file the engineer can look at
    example: str = ""


@dataclass(frozen=True)
class FactSpec:
    name: str
    type: FactType
    description: str
    sources: tuple[FactSource, ...]
    where: Where
    scheme: Scheme | None = None                 # for versions
    values: tuple[str, ...] = ()                 # for enums, canonical spellings
    aliases: tuple[tuple[str, str], ...] = ()    # (alias, canonical), case-insensitive
    unit: str = ""
    question: Question | None = None             # askable when set

    @property
    def askable(self) -> bool:
        return self.question is not None


@dataclass(frozen=True)
class Extractor:
    """A regex whose named groups are fact names; ``sets`` adds constant facts on a match."""

    id: str
    pattern: str
    anchors: tuple[str, ...]          # literals one of which must occur in the text for a match
    modules: tuple[str, ...]          # restrict to records of these plog modules (empty = any)
    prefilter: str                    # or a simple regex every match contains, when no literal does
    sets: tuple[tuple[str, str], ...]
    where: Where


class Status(str, Enum):
    EXPERIMENTAL = "experimental"
    STABLE = "stable"
    DEPRECATED = "deprecated"


class Severity(str, Enum):
    CRITICAL = "critical"
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


class SymptomForm(str, Enum):
    PLOG = "plog"        # CANN log (run/debug plog, device log)
    SCREEN = "screen"    # what the job prints to the terminal
    ANY = "any"


@dataclass(frozen=True)
class Symptom:
    """A log signature: a message example matched fuzzily after masking, or an exact regex."""

    id: str
    form: SymptomForm
    weight: float
    where: Where
    signature: str = ""
    regex: str = ""
    anchors: tuple[str, ...] = ()
    min_score: float = 85.0
    modules: tuple[str, ...] = ()


class Op(str, Enum):
    EQUALS = "equals"
    IN = "in"
    VERSION_IN = "version_in"
    REGEX = "regex"
    GT = "gt"
    GE = "ge"
    LT = "lt"
    LE = "le"
    EXISTS = "exists"


@dataclass(frozen=True)
class FactRef:
    """A comparison operand that is another fact's value (``{fact: name}``)."""

    fact: str


@dataclass(frozen=True)
class FactTest:
    fact: str
    op: Op
    value: object            # literal, tuple of literals, VersionRange, compiled-later regex text, FactRef
    where: Where


@dataclass(frozen=True)
class AllOf:
    items: tuple["Condition", ...]
    where: Where


@dataclass(frozen=True)
class AnyOf:
    items: tuple["Condition", ...]
    where: Where


@dataclass(frozen=True)
class NotOf:
    item: "Condition"
    where: Where


Condition = Union[FactTest, AllOf, AnyOf, NotOf]


@dataclass(frozen=True)
class FixStep:
    text: str
    commands: tuple[str, ...] = ()      # may hold {fact_name} placeholders filled from the facts
    citation: str = ""


@dataclass(frozen=True)
class Fixes:
    workaround: tuple[FixStep, ...] = ()
    permanent: tuple[FixStep, ...] = ()
    next_checks: tuple[FixStep, ...] = ()


@dataclass(frozen=True)
class Citation:
    article: str
    section: str
    line: int = field(default=0, compare=False)

    def __str__(self) -> str:
        return f"{self.article}#{self.section}"


@dataclass(frozen=True)
class EntryTest:
    """An example that keeps the entry right: a log, answers, and what must (not) be concluded."""

    name: str
    log: str
    answers: tuple[tuple[str, str], ...]
    expect: str | None          # conclusion id expected first, "none" for no conclusion
    expect_not: str | None      # an id that must not be among the conclusions
    where: Where

    def is_positive_for(self, entry_id: str) -> bool:
        return self.expect == entry_id

    def is_negative_for(self, entry_id: str) -> bool:
        return self.expect_not == entry_id or bool(self.expect and self.expect != entry_id)


@dataclass(frozen=True)
class AppliesTo:
    cann: VersionRange | None = None
    hdk: VersionRange | None = None
    torch_npu: VersionRange | None = None
    products: tuple[str, ...] = ()


@dataclass(frozen=True)
class Entry:
    id: str
    title: str
    status: Status
    component: str
    severity: Severity
    error_codes: tuple[str, ...]
    applies_to: AppliesTo
    symptoms: tuple[Symptom, ...]
    conditions: Condition | None
    cause: str
    fixes: Fixes
    citations: tuple[Citation, ...]
    tests: tuple[EntryTest, ...]
    where: Where
    summary: str = ""
    tags: tuple[str, ...] = field(default=())
    echo: bool = False          # usually the echo of another rank's failure (see kb/README.md)
    field_lines: tuple[tuple[str, int], ...] = field(default=(), compare=False, repr=False)

    def line_of(self, field_name: str) -> int:
        """Where a top-level field of the entry is written, for messages about it."""
        return dict(self.field_lines).get(field_name, self.where.line)

    @property
    def parent_id(self) -> str | None:
        """The id this entry refines, when its own id has a parent inside the same family."""
        head, _, _ = self.id.rpartition(".")
        return head if head.count(".") >= 1 else None
