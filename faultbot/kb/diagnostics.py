"""Problems found in the knowledge base, each tied to a file and line.

The linter prints them and the run-time loader raises them (faultbot/kb/kb_error.py), so both say
the same thing, each on one line whatever the KB holds.
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
