"""The session transcript: JSON lines appended and fsynced as each turn happens, so --resume can
replay it. An input is written before it is acted on, in one record with the change it makes when
that is known beforehand (``said`` with ``change``: a paste, a path read, an answer), so no kill can
keep the one without the other; ``refused`` and ``cancelled`` say an input changed nothing after all.
Other changes (``answer`` from a description, ``described``, ``undo``, ``reset``) and every
``reply`` follow as records of their own. Format 1 wrote pastes, reads and answers apart from the
input (``paste``, ``read``, ``answer`` records); replay still reads them.

A transcript is for its owner alone (0600, in a 0700 folder) and for one chat at a time: the chat
writing it holds a lock on it, and a second --resume of it is refused. Each new chat prunes the
transcripts older than KEEP_DAYS days and all but the KEEP_SESSIONS most recent ones.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import msgspec

from ..atomic_files import json_line

FORMAT_VERSION = 2
SUFFIX = ".jsonl"
FILE_MODE = 0o600
FOLDER_MODE = 0o700
KEEP_DAYS = 30
KEEP_SESSIONS = 100


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Record(msgspec.Struct, frozen=True):
    seq: int
    kind: str
    data: dict[str, Any] = msgspec.field(default_factory=dict)

    def get(self, key: str, default: Any = "") -> Any:
        return self.data.get(key, default)


class SessionInUse(Exception):
    """The transcript is held by another chat (a --resume of a session still open elsewhere)."""


def read_transcript(path: Path) -> list[Record]:
    """Every record of a transcript; a line torn by a crash (the last one, usually) is skipped."""
    records = []
    with open(path, encoding="utf-8", errors="replace") as stream:
        for line in stream:
            try:
                raw = json.loads(line)
            except ValueError:
                continue
            if isinstance(raw, dict) and isinstance(raw.get("seq"), int) and isinstance(raw.get("kind"), str):
                records.append(Record(raw["seq"], raw["kind"], raw))
    return records


def _locked(handle: int) -> bool:
    """Lock ``handle``'s file for this process; False when another process holds it."""
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


class Transcript:
    """A transcript file open for appending, locked for this chat."""

    def __init__(self, path: Path, next_seq: int = 0):
        self.path = path
        self.next_seq = next_seq
        handle = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, FILE_MODE)
        if not _locked(handle):
            os.close(handle)
            raise SessionInUse(str(path))
        try:
            os.fchmod(handle, FILE_MODE)       # a transcript written before this rule, or under a loose umask
        except OSError:
            pass                               # not ours to change: it is still only appended to
        self._handle = handle

    @classmethod
    def create(cls, directory: Path, kb_dir: Path) -> Transcript:
        _private_folder(directory)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
        path = directory / f"{stamp}-{os.getpid()}{SUFFIX}"
        tries = 1
        while path.exists():        # another chat of this process began this second
            tries += 1
            path = directory / f"{stamp}-{os.getpid()}-{tries}{SUFFIX}"
        transcript = cls(path)
        _sync_directory(directory)   # the new file's name survives a crash too
        transcript.append("start", version=FORMAT_VERSION, kb=str(kb_dir))
        prune(directory, keep=transcript.path)
        return transcript

    @classmethod
    def reopen(cls, path: Path) -> tuple[Transcript, list[Record]]:
        """Continue ``path``, and its records as they are once it is locked for this chat; a line
        torn by a crash is ended so the next record starts clean. Raises SessionInUse."""
        transcript = cls(path)
        try:
            records = read_transcript(path)
            transcript.next_seq = max((r.seq for r in records), default=-1) + 1
            if _ends_torn(path):
                transcript._write(b"\n")
        except BaseException:
            transcript.close()
            raise
        return transcript, records

    @property
    def session_id(self) -> str:
        return self.path.stem

    def append(self, kind: str, **data: Any) -> int:
        """Write one record whole (one write, then fsync); raises OSError (a full disk, say)."""
        seq = self.next_seq
        self._write(json_line({"seq": seq, "kind": kind, "at": _now(), **data}).encode("utf-8"))
        self.next_seq += 1
        return seq

    def _write(self, data: bytes) -> None:
        written = os.write(self._handle, data)
        while written < len(data):      # a short write: the disk filled up, and the next one says so
            written += os.write(self._handle, data[written:])
        os.fsync(self._handle)

    def close(self) -> None:
        if self._handle >= 0:
            os.close(self._handle)      # and with it the lock
            self._handle = -1


def last_transcript(directory: Path) -> Path | None:
    """The transcript written to most recently."""
    found = [p for p in directory.glob(f"*{SUFFIX}") if p.is_file()] if directory.is_dir() else []
    return max(found, key=lambda p: (p.stat().st_mtime, p.name), default=None)


def prune(directory: Path, keep: Path, days: float = KEEP_DAYS, sessions: int = KEEP_SESSIONS,
          now: float | None = None) -> list[Path]:
    """Remove the transcripts older than ``days`` and all but the ``sessions`` most recent (``keep``
    and those open in a chat never); the ones removed. Pruning never stops a chat: a transcript
    that cannot be removed stays."""
    oldest = (time.time() if now is None else now) - days * 86400
    dated = []
    for path in directory.glob(f"*{SUFFIX}"):
        try:
            dated.append((path.stat().st_mtime, path))
        except OSError:
            continue
    dated.sort(reverse=True)
    removed = []
    for position, (modified, path) in enumerate(dated):
        if path == keep or (position < sessions and modified >= oldest):
            continue
        try:
            handle = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            if _locked(handle):
                path.unlink()
                removed.append(path)
        except OSError:
            pass
        finally:
            os.close(handle)
    return removed


def _private_folder(directory: Path) -> None:
    """``directory``, created or made readable by its owner alone."""
    directory.mkdir(mode=FOLDER_MODE, parents=True, exist_ok=True)
    if directory.stat().st_mode & 0o777 != FOLDER_MODE:
        os.chmod(directory, FOLDER_MODE)


def _ends_torn(path: Path) -> bool:
    if path.stat().st_size == 0:
        return False
    with open(path, "rb") as stream:
        stream.seek(-1, os.SEEK_END)
        return stream.read(1) != b"\n"


def _sync_directory(directory: Path) -> None:
    try:
        handle = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass    # some file systems cannot sync a directory; the file itself is synced per record
    finally:
        os.close(handle)
