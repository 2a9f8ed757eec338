"""Control characters in KB text: found, so lint can refuse them, and escaped, so nothing printed
about the KB (a problem, a file name) can carry one to a terminal.

KB text is printed to terminals, where an escape sequence can clear the screen, retitle the window
or rewrite what was shown, and bidirectional overrides make text read differently from what it
is. Newlines and tabs are text; a carriage return is allowed only as part of a CRLF line end.
"""

from __future__ import annotations

import re

import msgspec

# C0 controls but tab and newline, DEL, C1 controls, a carriage return not ending a line, and the
# bidirectional embeddings, overrides and isolates.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)")
CONTROL_HINT = "remove it: KB text may hold newlines and tabs but no other control characters"


class ControlChar(msgspec.Struct, frozen=True):
    """The first control character of a text, where it is."""

    line: int      # 1-based, counted in the text searched
    count: int     # how many the text holds in all
    code: str      # U+001B

    def describe(self) -> str:
        more = f" (and {self.count - 1} more)" if self.count > 1 else ""
        return f"control character {self.code}{more}"


def first_control(text: str) -> ControlChar | None:
    """The first control character of ``text``, or None when it has none."""
    found = _CONTROL.search(text)
    if found is None:
        return None
    return ControlChar(text.count("\n", 0, found.start()) + 1, len(_CONTROL.findall(text)),
                       f"U+{ord(found.group()[0]):04X}")


_UNPRINTABLE = re.compile(rf"{_CONTROL.pattern}|[\r\n]")


def one_line(text: str) -> str:
    """``text`` on one line and harmless to print: control characters and line ends written as
    escapes (\\x1b, \\u202e, \\n)."""
    return _UNPRINTABLE.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)
