"""Problems found in the knowledge base, each tied to a file and line, and the error that carries them.

The linter prints them and the run-time loader raises them, so both say the same thing, each on one
line whatever the KB holds.
"""

from __future__ import annotations

import msgspec


class Problem(msgspec.Struct, frozen=True, order=True):
    """One problem of the KB, at a file and line, with what to do."""

    file: str
    line: int
    message: str
    hint: str = ""

    def __str__(self) -> str:
        # One line, and nothing a terminal acts on: file names and quoted KB text are untrusted.
        from .control_chars import one_line  # when a problem is shown: --help imports this module too

        text = f"{one_line(self.file)}:{self.line}: {one_line(self.message)}"
        return f"{text} — {one_line(self.hint)}" if self.hint else text


class KbError(Exception):
    """The knowledge base (or, with ``summary``, another YAML input such as eval cases) cannot be
    used; ``problems`` says every reason, in file order."""

    def __init__(self, problems: list[Problem],
                 summary: str = "the knowledge base has problems; run 'faultbot kb lint'"):
        self.problems = sorted(problems)
        self.summary = summary
        super().__init__("\n".join(str(p) for p in self.problems))
