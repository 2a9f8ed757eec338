"""What the reader can be given: pasted text, standard input, or a path (file or directory)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import BinaryIO


@dataclass(frozen=True)
class Paste:
    """Text given as it is: a paste in the chat, a log in a test."""

    text: str
    name: str = "<paste>"


@dataclass(frozen=True)
class Stdin:
    """Standard input read as bytes; ``stream`` replaces it (tests, callers with a pipe)."""

    stream: BinaryIO | None = None
    name: str = "<stdin>"


@dataclass(frozen=True)
class LogPath:
    """A log file, a compressed file or archive, or a directory read recursively."""

    path: str | os.PathLike[str]


InputSpec = Paste | Stdin | LogPath
