"""What the reader can be given: pasted text, standard input, or a path (file or directory)."""

from __future__ import annotations

import os
from typing import BinaryIO

import msgspec


class Paste(msgspec.Struct, frozen=True):
    """Text given as it is: a paste in the chat, a log in a test."""

    text: str
    name: str = "<paste>"


class Stdin(msgspec.Struct, frozen=True):
    """Standard input read as bytes; ``stream`` replaces it (tests, callers with a pipe)."""

    stream: BinaryIO | None = None
    name: str = "<stdin>"


class LogPath(msgspec.Struct, frozen=True):
    """A log file, a compressed file or archive, or a directory read recursively."""

    path: str | os.PathLike[str]


InputSpec = Paste | Stdin | LogPath
