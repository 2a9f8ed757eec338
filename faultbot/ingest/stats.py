"""What reading the inputs came to: counts, and the files set aside with the reason for each."""

from __future__ import annotations

from collections.abc import Iterable

import msgspec
from msgspec.structs import replace

# Inputs skipped or read in part that text output names (diagnose, extract), the rest counted;
# JSON and facts files hold them all.
SKIPPED_SHOWN = 10


class SkippedFile(msgspec.Struct, frozen=True):
    """A file not read, or read only in part (the reason says which)."""

    name: str
    reason: str


class SourceTally(msgspec.Struct, frozen=True):
    """One source (file, archive member, paste, stdin) once read."""

    records: int
    bytes_read: int
    replaced_bytes: int
    cut_lines: int
    encoding: str | None  # None when the text was all ASCII


class InputStats(msgspec.Struct, frozen=True):
    """What reading the inputs came to: records, files, bytes, damage, files skipped and why."""

    records: int = 0
    files: int = 0            # sources read: files, archive members, pastes, stdin
    bytes_read: int = 0       # decompressed bytes (UTF-8 bytes of a paste)
    replaced_bytes: int = 0   # undecodable bytes replaced by U+FFFD
    cut_lines: int = 0        # over-long lines cut into pieces
    skipped: tuple[SkippedFile, ...] = ()
    # (source, encoding) of sources not read as UTF-8: GB18030 logs from Chinese-locale
    # machines, UTF-16 files with a BOM.
    decoded_as: tuple[tuple[str, str], ...] = ()

    def combined(self, other: InputStats) -> InputStats:
        """The counts of two readings together (inputs read in parts, or by several workers)."""
        return InputStats(
            records=self.records + other.records, files=self.files + other.files,
            bytes_read=self.bytes_read + other.bytes_read,
            replaced_bytes=self.replaced_bytes + other.replaced_bytes,
            cut_lines=self.cut_lines + other.cut_lines, skipped=self.skipped + other.skipped,
            decoded_as=self.decoded_as + other.decoded_as,
        )

    def noting(self, notes: Iterable[SkippedFile]) -> InputStats:
        """These counts, with ``notes`` on inputs read in part added to the files set aside (what
        reading found after the reader was done: evidence folded past its bounds)."""
        return replace(self, skipped=self.skipped + tuple(notes))

    def adding(self, tally: SourceTally) -> InputStats:
        return InputStats(
            records=self.records + tally.records,
            files=self.files + 1,
            bytes_read=self.bytes_read + tally.bytes_read,
            replaced_bytes=self.replaced_bytes + tally.replaced_bytes,
            cut_lines=self.cut_lines + tally.cut_lines,
            skipped=self.skipped,
            decoded_as=self.decoded_as,
        )
