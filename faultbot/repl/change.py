"""A change the chat made to the diagnosis, kept beside the session's step for reports and /back."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Change:
    kind: str               # "paste", "read" (a file or folder typed as a path) or "answer"
    label: str = ""         # the paste's name, or the path read
    text: str = ""          # the log pasted, or the answer as typed
    fact: str = ""
    question: str = ""      # the question answered, and why it was asked
    why: str = ""

    @property
    def is_log(self) -> bool:
        """Whether the change added log evidence (a paste or a path read)."""
        return self.kind in ("paste", "read")
