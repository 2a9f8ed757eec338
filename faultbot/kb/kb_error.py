"""The error that carries the knowledge base's problems (faultbot/kb/diagnostics.py).

Apart from the Problem record so that the CLI can catch it without importing the record library:
`faultbot --help` imports this module.
"""

from __future__ import annotations

TYPE_CHECKING = False    # typing itself costs `faultbot --help` about 2 ms
if TYPE_CHECKING:
    from .diagnostics import Problem


class KbError(Exception):
    """The knowledge base (or, with ``summary``, another YAML input such as eval cases) cannot be
    used; ``problems`` says every reason, in file order."""

    def __init__(self, problems: list[Problem],
                 summary: str = "the knowledge base has problems; run 'faultbot kb lint'"):
        self.problems = sorted(problems)
        self.summary = summary
        super().__init__("\n".join(str(p) for p in self.problems))
