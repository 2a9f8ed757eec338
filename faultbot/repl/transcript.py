"""The session transcript: JSON lines appended and fsynced as each turn happens (``said``, the
changes --resume replays: ``paste``, ``answer``, ``undo``, ``reset``; and ``reply``)."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

FORMAT_VERSION = 1
SUFFIX = ".jsonl"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Record:
    seq: int
    kind: str
    data: dict[str, Any] = field(default_factory=dict)

    def get(self, key: str, default: Any = "") -> Any:
        return self.data.get(key, default)


def read_records(path: Path) -> list[Record]:
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


class Transcript:
    """A transcript file open for appending."""

    def __init__(self, path: Path, next_seq: int = 0):
        self.path = path
        self.next_seq = next_seq
        self._stream = open(path, "a", encoding="utf-8")

    @classmethod
    def create(cls, directory: Path, kb_dir: Path) -> "Transcript":
        directory.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
        transcript = cls(directory / f"{stamp}-{os.getpid()}{SUFFIX}")
        _sync_directory(directory)   # the new file's name survives a crash too
        transcript.append("start", version=FORMAT_VERSION, kb=str(kb_dir))
        return transcript

    @classmethod
    def reopen(cls, path: Path) -> "Transcript":
        """Continue ``path``; a line torn by a crash is ended so the next record starts clean."""
        records = read_records(path)
        torn = _ends_torn(path)
        transcript = cls(path, max((r.seq for r in records), default=-1) + 1)
        if torn:
            transcript._write("\n")
        return transcript

    @property
    def session_id(self) -> str:
        return self.path.stem

    def append(self, kind: str, **data: Any) -> int:
        seq = self.next_seq
        self.next_seq += 1
        self._write(json.dumps({"seq": seq, "kind": kind, "at": _now(), **data}, ensure_ascii=False) + "\n")
        return seq

    def _write(self, text: str) -> None:
        self._stream.write(text)
        self._stream.flush()
        os.fsync(self._stream.fileno())

    def close(self) -> None:
        self._stream.close()


def last_transcript(directory: Path) -> Path | None:
    """The transcript written to most recently."""
    found = [p for p in directory.glob(f"*{SUFFIX}") if p.is_file()] if directory.is_dir() else []
    return max(found, key=lambda p: (p.stat().st_mtime, p.name), default=None)


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
