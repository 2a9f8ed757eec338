"""Reading an error code by its structure: which module reported which kind of error, and what
that class of code means — never a cause it cannot know — and the reporting module as a fact; an
aclError return code by the class its first digit gives it."""

from __future__ import annotations

import msgspec

from ..kb.model import CODE_SHAPE, CodeBook, NamedCode, ReturnCodes
from .facts import Fact, Provenance, ProvenanceSource, WorkingMemory
from .rules import Context


class CodeExplanation(msgspec.Struct, frozen=True):
    """An error code read by its structure: level, reporting module and number class."""

    code: str
    level: str
    module: str
    code_class: str
    meaning: str
    entries: tuple[str, ...]          # KB entries that list this code
    citations: tuple[str, ...]

    @property
    def sentence(self) -> str:
        return (f"{self.code} is {'an' if self.level[:1] in 'aeiou' else 'a'} {self.level} reported by {self.module}, "
                f"in the {self.code_class} range: {self.meaning}.")


def explain_code(code: str, codebook: CodeBook, entries: tuple[str, ...] = ()) -> CodeExplanation | None:
    """``code`` read by its structure, with the KB ``entries`` that list it; None when it is not a
    CANN code."""
    match = CODE_SHAPE.match(code)
    if match is None:
        return None
    level, module, number = match.groups()
    klass = next((c for c in codebook.classes if c.first <= int(number) <= c.last), None)
    return CodeExplanation(
        code, codebook.levels.get(level, "code of unknown level"),
        codebook.modules.get(module, f"module '{module}', which the error-code reference does not name"),
        klass.name if klass else "unlisted", klass.meaning if klass else "the reference gives no class for it",
        entries, codebook.citations)


class ReturnCodeReading(msgspec.Struct, frozen=True):
    """An aclError return code (507015) read by its class digit, and by its name when an article's
    table names it."""

    code: str
    code_class: str                   # its first digit
    meaning: str
    entries: tuple[str, ...]          # KB entries that list this code
    citation: str
    named: NamedCode | None = None

    @property
    def sentence(self) -> str:
        name = f" (`{self.named.name}`: {self.named.says})" if self.named else ""
        return f"{self.code}{name} is a class-{self.code_class} aclError: {self.meaning}."

    @property
    def citations(self) -> tuple[str, ...]:
        return (self.named.citation, self.citation) if self.named else (self.citation,)


def read_return_code(code: str, codes: ReturnCodes, entries: tuple[str, ...] = ()) -> ReturnCodeReading | None:
    """``code`` read by its first digit and named when a table names it, with the KB ``entries``
    that list it; None when it is not six digits or the KB knows no such class."""
    meaning = codes.classes.get(code[:1]) if len(code) == 6 and code.isdigit() else None
    return ReturnCodeReading(code, code[:1], meaning, entries, codes.citation, codes.named.get(code)) if meaning else None


class ReportingModule:
    """internal_error_module: the module an internal code names by its second letter (EE9999 ->
    Runtime), read from the same kb/codes.yaml that explains codes by their structure."""

    id = "error-code-module-letter"
    priority = 0
    specificity = 1
    def __init__(self, codebook: CodeBook | None):
        self.modules = codebook.modules if codebook else {}
        self.feeds = {"internal_error_module": {"internal_error_code"}}

    def fire(self, memory: WorkingMemory, context: Context) -> list[Fact]:
        derived = []
        for fact in memory.facts("internal_error_code"):
            shape = CODE_SHAPE.match(str(fact.value))
            if shape and shape.group(2) in self.modules:
                derived.append(Fact("internal_error_module", self.modules[shape.group(2)],
                                    Provenance(ProvenanceSource.DERIVED, rule=self.id, supports=(fact,))))
        return derived
