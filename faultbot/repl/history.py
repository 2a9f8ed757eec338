"""The prompt's history file: what engineers type, not the logs they paste (the transcript keeps
those, and a history of log pastes would make Up-arrow and Ctrl-R useless). It is for its owner
alone (created 0600). A history file that cannot be used (a folder in its place, no permission, a
full disk) costs only the history: ``problem`` says why, and the chat shows it once."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from prompt_toolkit.history import FileHistory

MAX_HISTORY_LINES = 3
FILE_MODE = 0o600


class ChatHistory(FileHistory):
    def __init__(self, path: Path):
        super().__init__(str(path))
        self.problem = ""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            os.close(os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, FILE_MODE))
        except OSError as error:
            self._give_up(error)

    def _give_up(self, error: OSError) -> None:
        self.problem = f"history not kept: cannot use {self.filename}: {error.strerror or error}"

    def load_history_strings(self) -> Iterable[str]:
        if self.problem:
            return []
        try:
            return super().load_history_strings()
        except OSError as error:
            self._give_up(error)
            return []

    def store_string(self, string: str) -> None:
        if self.problem or string.count("\n") >= MAX_HISTORY_LINES:
            return
        try:
            super().store_string(string)
        except OSError as error:
            self._give_up(error)
