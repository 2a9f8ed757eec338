"""The prompt's history file: what engineers type, not the logs they paste (the transcript keeps
those, and a history of log pastes would make Up-arrow and Ctrl-R useless)."""

from __future__ import annotations

from pathlib import Path

from prompt_toolkit.history import FileHistory

MAX_HISTORY_LINES = 3


class ChatHistory(FileHistory):
    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        super().__init__(str(path))

    def store_string(self, string: str) -> None:
        if string.count("\n") < MAX_HISTORY_LINES:
            super().store_string(string)
