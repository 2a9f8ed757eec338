"""The knowledge base as typed, immutable values: fact specs, extractors, fault entries, rules,
field decoders, the error-code structure, the masks, the tables the aggregations read and the
source articles.

Parsing and checking live in the schema modules; these classes only hold what was read, with
the file and line it came from so that later errors (engine, entry tests) can point at it. A fix
step and a citation are also written here as Markdown, the one way every output shows them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from enum import Enum
from typing import NamedTuple

import msgspec

from ..equality import equal_apart_from
from .versions import Scheme, VersionRange


class Where(msgspec.Struct, frozen=True):
    """A file and line of the KB."""

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


class FactQuestion(msgspec.Struct, frozen=True):
    """How to ask an engineer for a fact: the question, why it matters, how to find the answer."""

    text: str
    why: str
    how_to_find: tuple[str, ...]   # each a command or file the engineer can look at
    example: str = ""


class FactSpec(msgspec.Struct, frozen=True):
    """One fact of the catalogue: its type, where values come from, and how to ask for it."""

    name: str
    type: FactType
    description: str
    sources: tuple[FactSource, ...]
    where: Where
    scheme: Scheme | None = None                 # for versions
    values: tuple[str, ...] = ()                 # for enums, canonical spellings
    aliases: tuple[tuple[str, str], ...] = ()    # (alias, canonical), case-insensitive
    unit: str = ""
    question: FactQuestion | None = None             # askable when set
    per_occurrence: bool = False                 # differs on every report of the same thing (a task id)

    @property
    def askable(self) -> bool:
        return self.question is not None


class Extractor(msgspec.Struct, frozen=True):
    """A regex whose named groups are fact names; ``sets`` adds constant facts on a match."""

    id: str
    pattern: str
    anchors: tuple[str, ...]          # literals one of which must occur in the text for a match
    modules: tuple[str, ...]          # restrict to records of these plog modules (empty = any)
    prefilter: str                    # or a simple regex every match contains, when no literal does
    sets: tuple[tuple[str, str], ...]
    where: Where
    levels: tuple[str, ...] = ()      # restrict to records of these levels (empty = any)


class EntryStatus(str, Enum):
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
    WORDS = "words"      # faultbot's own: a failure described in words, never a KB symptom's form


class Symptom(msgspec.Struct, frozen=True):
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


class FactRef(msgspec.Struct, frozen=True):
    """A comparison operand that is another fact's value (``{fact: name}``)."""

    fact: str


class FactTest(msgspec.Struct, frozen=True):
    """A test of one fact's value (equals, in, version_in, regex, comparisons, exists)."""

    fact: str
    op: Op
    value: object            # literal, tuple of literals, VersionRange, compiled-later regex text, FactRef
    where: Where


class AllOf(msgspec.Struct, frozen=True):
    """A condition that holds when every one of its items holds."""

    items: tuple[Condition, ...]
    where: Where


class AnyOf(msgspec.Struct, frozen=True):
    """A condition that holds when one of its items holds."""

    items: tuple[Condition, ...]
    where: Where


class NotOf(msgspec.Struct, frozen=True):
    """A condition that holds when its item does not."""

    item: Condition
    where: Where


Condition = FactTest | AllOf | AnyOf | NotOf


class FixStep(msgspec.Struct, frozen=True):
    """One step of a workaround, permanent fix or next check, with its commands and source."""

    text: str
    commands: tuple[str, ...] = ()      # may hold {fact_name} placeholders filled from the facts
    citation: str = ""


class Fixes(msgspec.Struct, frozen=True):
    """What to do now, for good, and what to check next."""

    workaround: tuple[FixStep, ...] = ()
    permanent: tuple[FixStep, ...] = ()
    next_checks: tuple[FixStep, ...] = ()


@equal_apart_from("line")
class Citation(msgspec.Struct, frozen=True):
    """An article section an entry cites (article#section), with the line citing it."""

    article: str
    section: str
    line: int = 0

    def __str__(self) -> str:
        return f"{self.article}#{self.section}"


class EntryTest(msgspec.Struct, frozen=True):
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


class AppliesTo(msgspec.Struct, frozen=True):
    """The versions and products an entry applies to; conditions like any other."""

    cann: VersionRange | None = None
    hdk: VersionRange | None = None
    torch_npu: VersionRange | None = None
    products: tuple[str, ...] = ()


class Ceiling(str, Enum):
    """The most an entry's conclusion may claim: a catch-all (an internal error code) names no
    cause, so it is never more than possible."""

    CONFIRMED = "confirmed"
    PROBABLE = "probable"
    POSSIBLE = "possible"


@equal_apart_from("field_lines")
class Entry(msgspec.Struct, frozen=True):
    """One fault of the knowledge base: how to recognise it, when it holds, why, what to do, its
    sources and tests."""

    id: str
    title: str
    status: EntryStatus
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
    tags: tuple[str, ...] = ()
    echo: bool = False          # usually the echo of another rank's failure (see kb/README.md)
    concludes_at_most: Ceiling = Ceiling.CONFIRMED
    field_lines: tuple[tuple[str, int], ...] = ()

    def line_of(self, field_name: str) -> int:
        """Where a top-level field of the entry is written, for messages about it."""
        return dict(self.field_lines).get(field_name, self.where.line)

    @property
    def parent_id(self) -> str | None:
        return parent_of(self.id)


def parent_of(entry_id: str) -> str | None:
    """The id an entry refines, when its own id has a parent inside the same family."""
    head, _, _ = entry_id.rpartition(".")
    return head if head.count(".") >= 1 else None


class FactCatalogue(msgspec.Struct, frozen=True):
    """Every fact an entry may use, and the extractors that read facts from logs."""

    facts: dict[str, FactSpec]
    extractors: tuple[Extractor, ...]


def facts_used(condition: Condition | None) -> set[str]:
    """The facts a condition reads."""
    if condition is None:
        return set()
    if isinstance(condition, FactTest):
        extra = {condition.value.fact} if isinstance(condition.value, FactRef) else set()
        return {condition.fact} | extra
    if isinstance(condition, NotOf):
        return facts_used(condition.item)
    return set().union(*(facts_used(item) for item in condition.items))


class Rule(msgspec.Struct, frozen=True):
    """A derivation rule: when its condition holds, it asserts facts."""

    id: str
    priority: int
    when: Condition
    then: tuple[tuple[str, object], ...]     # (fact, typed value or FactRef)
    citation: str
    where: Where

    @property
    def inputs(self) -> set[str]:
        return facts_used(self.when) | {v.fact for _, v in self.then if isinstance(v, FactRef)}


class DecoderCase(msgspec.Struct, frozen=True):
    """One case of a decoder: the values it covers, what they mean, the facts they assert."""

    key: str                     # its name in rule ids and messages: "name", else "0x26", "9", "case2"
    test: FactTest
    means: str
    then: tuple[tuple[str, object], ...]
    citation: str
    where: Where
    hex: bool = False            # the case was written as a hex value


class Decoder(msgspec.Struct, frozen=True):
    """A field decoder: what each value of one log field means, in words (kb/decoders)."""

    id: str
    fact: str
    label: str                   # what the field is, e.g. "task scheduler return code (retCode)"
    cases: tuple[DecoderCase, ...]
    otherwise: str               # said of a value no case covers; empty: such values are not mentioned
    citation: str
    where: Where
    asked_as: tuple[str, ...] = ()   # how a question names the field ("retCode", "cqe status")
    context: tuple[str, ...] = ()    # words that tell this field from another of the same name ("sdma")

    @property
    def hex_only(self) -> bool:
        """Every case reads hex: a value in a question must say 0x to be this field's."""
        return all(case.hex for case in self.cases)

    def rule_id(self, case: DecoderCase) -> str:
        return f"{self.id}={case.key}"


# An error code: level letter, module letter or digit, four-digit number (EI0002, EZ9999).
CODE_SHAPE = re.compile(r"^([EWI])([0-9A-Z])(\d{4})$")


class CodeClass(msgspec.Struct, frozen=True):
    """A range of error-code numbers and what codes in it are."""

    first: int
    last: int
    name: str
    meaning: str


class WrapperCodes(msgspec.Struct, frozen=True):
    """How torch_npu's own ERR codes read: ERR, a two-digit submodule and a code (ERR02200)."""

    submodules: dict[str, str]        # "02" -> DIST (distributed, HCCL)
    codes: dict[str, str]             # "200" -> call hccl api failed
    citation: str
    says: str = ""                    # what such a code tells, and what it does not


class NamedCode(msgspec.Struct, frozen=True):
    """One aclError as a table of an article names it: `| 107027 | `ACL_ERROR_RT_STREAM_CAPTURED` | ... |`."""

    name: str
    says: str
    citation: str


class ReturnCodes(msgspec.Struct, frozen=True):
    """How an aclError return code of the ACL and runtime APIs reads: six digits, the first its class;
    each code the tables of the ``named_in`` sections list by its name, with what it is."""

    classes: dict[str, str]           # "5" -> internal software or hardware errors ...
    citation: str
    unclassified: str = ""            # the code every error the ACL layer cannot classify becomes
    named_in: tuple[str, ...] = ()    # article sections whose tables name codes
    named: dict[str, NamedCode] = msgspec.field(default_factory=dict)   # filled from them when the KB loads


class CodeBook(msgspec.Struct, frozen=True):
    """How an error code reads: level, reporting module and number class (kb/codes.yaml)."""

    levels: dict[str, str]
    modules: dict[str, str]
    classes: tuple[CodeClass, ...]
    citations: tuple[str, ...]        # the sections that say all this
    torch_npu: WrapperCodes | None = None
    acl: ReturnCodes | None = None
    level_notes: dict[str, str] = {}  # "W" -> what a code of that level does and does not tell


class Section(msgspec.Struct, frozen=True):
    """A citable section of a source article (``articles/<id>.md#<slug>``)."""

    slug: str
    title: str
    level: int
    line: int
    text: str                      # Markdown body, without the heading line
    key_terms: tuple[str, ...]


class Article(msgspec.Struct, frozen=True):
    """A source article: its front matter and citable sections."""

    id: str
    title: str
    original_title: str
    source_url: str
    published: str
    language_of_source: str
    file: str
    sections: dict[str, Section]

    def section(self, slug: str) -> Section | None:
        return self.sections.get(slug)


class Intent(Enum):
    """What a question asks for; each is answered from its own field or kind of section."""

    CAUSE = "cause"
    WORKAROUND = "workaround"
    PERMANENT_FIX = "permanent_fix"
    FIXED_VERSION = "fixed_version"
    DEFAULT = "default"
    RANGE = "range"
    UNIT = "unit"
    CHECK = "check"
    MEANING = "meaning"
    CONSISTS_OF = "consists_of"
    COLLECT = "collect"
    ENABLE = "enable"
    SIGNATURE = "signature"      # the log text that shows it: a keyword, the lines of its symptoms


class SynonymGroup(msgspec.Struct, frozen=True):
    """One concept: ``canonical`` as the articles write it, ``said_as`` as engineers type it."""

    canonical: str
    said_as: tuple[str, ...]


class Vocabulary(msgspec.Struct, frozen=True):
    synonyms: tuple[SynonymGroup, ...] = ()
    intents: tuple[tuple[Intent, tuple[str, ...]], ...] = ()
    out_of_scope: tuple[str, ...] = ()   # other vendors' stacks: a question naming one is not about Ascend
    unstated: tuple[str, ...] = ()       # asks for what the articles never state (speed, power, price)
    context: tuple[str, ...] = ()        # where a job ran (MindIE, k8s, vLLM): never what a way of asking holds


@equal_apart_from("line")
class SettingValue(msgspec.Struct, frozen=True):
    """One documented value of a setting (a default, a range, a unit, what it controls), where it
    holds, and the article section that states it: each text is the section's own wording."""

    value: str                   # "1836", "[0, 2147483647]", "seconds", "HOST"
    citation: str                # article#section stating the value (and ``when``, ``release``, ``means``)
    when: tuple[str, ...] = ()   # the products or modes it holds for; empty: everywhere
    release: str = ""            # the release it held in, when it no longer holds
    means: str = ""              # what this value does, for a value with a meaning of its own ("never time out")
    line: int = 0   # where kb/settings.yaml writes it


class Setting(msgspec.Struct, frozen=True):
    """An environment variable and its documented facts, by kind (kb/settings.yaml)."""

    name: str                                    # HCCL_EXEC_TIMEOUT
    called: tuple[str, ...]                      # other names questions use ("exec timeout")
    values: tuple[tuple[str, tuple[SettingValue, ...]], ...]   # (kind, values): meaning, default, range, unit, special
    where: Where

    def of(self, kind: str) -> tuple[SettingValue, ...]:
        return dict(self.values).get(kind, ())


class Mask(NamedTuple):
    """One kind of variable part of log messages (kb/masks.yaml) and the placeholder it becomes,
    so that a signature and a log line compare shapes. A row of plain values: every diagnosis loads
    the table with the compiled KB."""

    name: str       # ip, path, num
    regex: str      # the shared shapes ({ipv4}) already filled in
    token: str      # <IP>


class ExecTimeoutProfile(msgspec.Struct, frozen=True):
    """How one product and expansion mode turns HCCL_EXEC_TIMEOUT into the timeout that applies
    (kb/aggregations.yaml): the default, and at most one of a rounding step, a cap, or 0 meaning never."""

    products: tuple[str, ...]     # values of the fact `product`
    modes: tuple[str, ...]        # values of the fact `hccl_op_expansion_mode`
    default: float                # seconds, when the variable is not set
    round_down_to: int = 0        # the value is rounded down to a multiple of this, and is at least this
    cap: float = 0                # 0, or anything above the cap, is treated as the cap
    zero_means_never: bool = False


# Fix steps and sources as Markdown, written here once for both render/ (the diagnosis, an entry)
# and qa/ (the passages answers are cut from), which sit on either side of a layer.
Fill = Callable[[str], str]


def as_written(text: str) -> str:
    return text


def citation_line(citation: Citation | str, articles: Mapping[str, Article]) -> str:
    """``title — section — URL`` for a citation, as everywhere faultbot names a source."""
    article_id, _, slug = str(citation).partition("#")
    article = articles.get(article_id)
    if article is None:
        return str(citation)
    section = article.section(slug)
    section_title = section.title if section else slug
    return f"{article.title} — {section_title} — {article.source_url}"


def step_lines(step: FixStep, fill: Fill = as_written, articles: Mapping[str, Article] | None = None) -> list[str]:
    """A fix step as a list item with its commands as code; its source when ``articles`` are given.
    ``fill`` puts the diagnosis's values into ``{fact}`` placeholders."""
    lines = [f"- {fill(step.text)}"]
    lines += [f"  ```bash\n  {fill(command)}\n  ```" for command in step.commands]
    if step.citation and articles is not None:
        lines.append(f"  *Source: {citation_line(step.citation, articles)}*")
    return lines
