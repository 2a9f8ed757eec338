"""Multi-pattern search for the line prefilter: where in a text any of many literals or simple
regexes occurs.

Hyperscan is used when it is installed, then google-re2, then Python's ``re``; all three report
the same lines (tests check it), the first two just much faster. Patterns must be literals or
simple regexes (classes, repeats, alternation) that every engine understands.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

try:  # optional accelerators, in order of preference
    import hyperscan
except ImportError:  # pragma: no cover - depends on the machine
    hyperscan = None
try:
    import re2
except ImportError:  # pragma: no cover
    re2 = None

ENGINES = ("hyperscan", "re2", "re")


def available_engines() -> tuple[str, ...]:
    return tuple(e for e in ENGINES if e == "re" or {"hyperscan": hyperscan, "re2": re2}[e] is not None)


class Scanner:
    """Finds the end offsets of matches of any pattern; ``engine`` says which library does it."""

    def __init__(self, literals: Sequence[str], regexes: Sequence[str] = (), engine: str | None = None):
        self.patterns = tuple(re.escape(literal) for literal in sorted(set(literals))) + tuple(regexes)
        if not self.patterns:
            raise ValueError("a scanner needs at least one pattern")
        self.engine = engine or available_engines()[0]
        alternation = "|".join(f"(?:{p})" for p in self.patterns)
        self._re = re.compile(alternation)
        if self.engine == "hyperscan":
            self._db = hyperscan.Database()
            expressions = [p.encode("ascii") for p in self.patterns]
            self._db.compile(expressions=expressions, ids=list(range(len(expressions))),
                             elements=len(expressions), flags=[0] * len(expressions))
        elif self.engine == "re2":
            self._re2 = re2.compile(alternation)

    def ends(self, text: str) -> list[int]:
        """End offsets (exclusive) of matches in ``text``: every line holding a match holds one of them."""
        if self.engine == "hyperscan" and text.isascii():
            found: list[int] = []
            self._db.scan(text.encode("ascii"), match_event_handler=lambda _id, _from, to, _flags, _ctx: found.append(to))
            return found
        if self.engine == "re2":
            return [m.end() for m in self._re2.finditer(text)]
        return [m.end() for m in self._re.finditer(text)]
