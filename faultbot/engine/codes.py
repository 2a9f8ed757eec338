"""Explaining an error code by its structure when no entry describes it: which module reported
which kind of error, and what that class of code means — never a cause it cannot know."""

from __future__ import annotations

from dataclasses import dataclass

from ..kb.codes_schema import CODE_SHAPE, CodeBook
from ..kb.loader import KnowledgeBase


@dataclass(frozen=True)
class CodeExplanation:
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


def explain_code(code: str, codebook: CodeBook, kb: KnowledgeBase) -> CodeExplanation | None:
    match = CODE_SHAPE.match(code)
    if match is None:
        return None
    level, module, number = match.groups()
    klass = next((c for c in codebook.classes if c.first <= int(number) <= c.last), None)
    return CodeExplanation(
        code, codebook.levels.get(level, "code of unknown level"),
        codebook.modules.get(module, f"module '{module}', which the error-code reference does not name"),
        klass.name if klass else "unlisted", klass.meaning if klass else "the reference gives no class for it",
        tuple(e.id for e in kb.entries if code in e.error_codes), codebook.citations)
