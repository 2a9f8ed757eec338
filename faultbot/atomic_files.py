"""Writing files safely, for the chat and for the files faultbot hands on (facts files, eval cases):
whole or not at all (a crash mid-write leaves the old file, never half a new one; two writers of
one path each write a file of their own and the last rename wins), and JSON lines that any string
can go into."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any


def _mode(path: Path) -> int:
    """The file's own mode when it exists, else what the umask allows (mkstemp's 0600 would hide a report)."""
    if path.exists():
        return path.stat().st_mode & 0o777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


class AtomicFile:
    """A file written under a unique temporary name beside ``path``, renamed over ``path`` by
    ``commit`` once on disk; ``discard`` removes it. ``stream`` takes the bytes."""

    def __init__(self, path: Path):
        self.path = path
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        self.temporary = Path(temporary)
        self.stream = os.fdopen(handle, "wb")

    def commit(self) -> None:
        try:
            self.stream.flush()
            os.fsync(self.stream.fileno())
            self.stream.close()
            os.chmod(self.temporary, _mode(self.path))
            os.replace(self.temporary, self.path)
        except BaseException:
            self.discard()
            raise

    def discard(self) -> None:
        try:
            self.stream.close()
        except OSError:
            pass          # a full disk: what could not be written goes with the file
        self.temporary.unlink(missing_ok=True)


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to a temporary file beside ``path``, flush it to disk, then rename it over ``path``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    output = AtomicFile(path)
    try:
        output.stream.write(text.encode("utf-8"))
    except BaseException:
        output.discard()
        raise
    output.commit()


def json_line(data: dict[str, Any]) -> str:
    """``data`` as one line of JSON, readable UTF-8 whatever its strings hold: the undecodable bytes
    of a file name (lone surrogates) are written escaped, so they read back as they were."""
    line = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        line = json.dumps(data, separators=(",", ":"))
    return line + "\n"
