"""Input specs to readable sources: walks directories, opens compressed files and streams
archive members without unpacking them to disk, and sets binary files aside with a reason.

Formats are recognised by their magic bytes, not their names, so a ``.log`` that is really
gzip, or a tarball on standard input, is still read. Nothing an input claims is believed: tar
sizes (faultbot/ingest/tar_stream.py), decompressed sizes (faultbot/ingest/budget.py), nesting,
zip entries pointing at the same data. Only regular files are opened, never waiting (a FIFO or a
device named or found is set aside: standard input reads a pipe), and symlinks in a folder are
followed only to files and folders inside it. File names that are not UTF-8 (GBK names from
Chinese-locale machines) are shown with U+FFFD in their place.
"""

from __future__ import annotations

import importlib
import io
import os
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from pathlib import Path, PurePosixPath
from typing import IO, TYPE_CHECKING

import msgspec
from msgspec.structs import replace

from faultbot.ingest.budget import ByteBudget, metered
from faultbot.ingest.decode import describe_error, looks_binary, read_errors
from faultbot.ingest.inputs import InputSpec, LogPath, Paste, Stdin
from faultbot.ingest.limits import ReadLimits, size_text
from faultbot.ingest.stats import SkippedFile
from faultbot.ingest.tar_stream import tar_members

if TYPE_CHECKING:
    import zipfile

    from _typeshed import WriteableBuffer


class ByteSource(msgspec.Struct, frozen=True):
    """A readable stream of bytes: a file, an archive member, standard input."""

    name: str
    stream: IO[bytes]


class TextSource(msgspec.Struct, frozen=True):
    """Text given as it is (a paste)."""

    name: str
    text: str


Source = ByteSource | TextSource

# (magic, module): each module's ``open`` reads a stream of its format. Imported when such a stream
# is met, like tarfile and zipfile: most inputs are plain text.
_COMPRESSED: tuple[tuple[bytes, str], ...] = ((b"\x1f\x8b", "gzip"), (b"BZh", "bz2"), (b"\xfd7zXZ\x00", "lzma"))
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_TAR_MAGIC_AT = 257  # "ustar" in a POSIX tar header

# Suffixes of files that are never logs; cheaper to skip by name than to open.
BINARY_SUFFIXES = frozenset(
    ".so .o .a .bin .om .onnx .pb .pt .pth .ckpt .safetensors .npy .npz .h5 .pkl .pyc .whl .exe "
    ".dll .png .jpg .jpeg .gif .bmp .ico .pdf .mp4 .db .sqlite .7z .rar .deb .rpm .iso .img".split()
)


class _Reading(msgspec.Struct, frozen=True):
    """How one input file is being read: the limits, the run's budget, how deep in archives, and
    what zips buffered in memory further out left for those further in."""

    limits: ReadLimits
    budget: ByteBudget
    depth: int
    zip_memory: int

    def deeper(self) -> _Reading:
        return replace(self, depth=self.depth + 1)


def sources_of(spec: InputSpec, limits: ReadLimits, budget: ByteBudget | None = None) -> Iterator[Source | SkippedFile]:
    """The sources one input spec stands for, in a stable order; ``budget`` is the run's (a
    fresh one when not given)."""
    budget = budget or ByteBudget(limits)
    if isinstance(spec, Paste):
        yield TextSource(spec.name, spec.text)
    elif isinstance(spec, Stdin):
        stream = spec.stream if spec.stream is not None else sys.stdin.buffer
        budget.start(spec.name)
        yield from _sniffed(spec.name, stream, _Reading(limits, budget, 0, limits.max_zip_in_memory), rewindable=False)
    elif isinstance(spec, LogPath):
        yield from _from_path(Path(spec.path), limits, budget)


def shown(name: str) -> str:
    """A file name as it can be printed and written: bytes that are not UTF-8 (a GBK name) as U+FFFD."""
    if name.isascii():
        return name
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    except UnicodeEncodeError:      # surrogates that no file name's bytes gave
        return name.encode("utf-8", "replace").decode("utf-8")


def _from_path(path: Path, limits: ReadLimits, budget: ByteBudget) -> Iterator[Source | SkippedFile]:
    if path.is_dir():
        for item in walk(path):
            if isinstance(item, SkippedFile):
                yield item
            else:
                yield from _from_file(item, limits, budget)
    else:
        yield from _from_file(path, limits, budget)


# Opening never waits: a FIFO put where a file was between the look and the open cannot block.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a directory"))


def _not_regular(mode: int) -> str:
    kind = next((kind for test, kind in _KINDS if test(mode)), "not a file")
    return f"not a regular file ({kind}): not opened; to read what it sends, give it as '-' (standard input)"


def _from_file(path: Path, limits: ReadLimits, budget: ByteBudget) -> Iterator[Source | SkippedFile]:
    name = shown(str(path))
    reason = _binary_by_name(path.name)
    if reason:
        yield SkippedFile(name, reason)
        return
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            yield SkippedFile(name, _not_regular(mode))
            return
        stream = open(os.open(path, _OPEN_FLAGS), "rb")
    except OSError as exc:
        yield SkippedFile(name, f"cannot open: {exc.strerror or exc}")
        return
    with stream:
        mode = os.fstat(stream.fileno()).st_mode
        if not stat.S_ISREG(mode):
            yield SkippedFile(name, _not_regular(mode))
            return
        budget.start(name)
        yield from _sniffed(name, stream, _Reading(limits, budget, 0, limits.max_zip_in_memory),
                            rewindable=stream.seekable())


def _inside(path: str, root: str) -> bool:
    real = os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def walk(root: Path) -> Iterator[Path | SkippedFile]:
    """Regular files under ``root``, sorted, following symlinks to files and folders inside
    ``root`` but never into a directory already read (symlink loops) and never to a file already
    read (links to the same file); symlinks that lead outside it are set aside with a note."""
    real_root = os.path.realpath(root)
    seen_dirs: set[tuple[int, int]] = set()
    seen_files: dict[tuple[int, int], str] = {}
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            status = directory.stat()
            entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
        except OSError as exc:
            yield SkippedFile(shown(str(directory)), f"cannot list: {exc.strerror or exc}")
            continue
        key = (status.st_dev, status.st_ino)
        if key in seen_dirs:
            yield SkippedFile(shown(str(directory)), "directory already read (symlink loop or second link)")
            continue
        seen_dirs.add(key)
        subdirectories = []
        for entry in entries:
            name = shown(entry.path)
            try:
                if entry.is_symlink() and not _inside(entry.path, real_root):
                    target = shown(os.path.realpath(entry.path))
                    yield SkippedFile(name, f"symlink to {target}, outside {shown(str(root))}: not followed")
                    continue
                if entry.is_dir():
                    subdirectories.append(Path(entry.path))
                    continue
                if not entry.is_file():
                    yield SkippedFile(name, _not_regular(entry.stat().st_mode))
                    continue
                status = entry.stat()
            except FileNotFoundError:
                yield SkippedFile(name, "broken symlink")
                continue
            except OSError as exc:
                yield SkippedFile(name, f"cannot stat: {exc.strerror or exc}")
                continue
            file_key = (status.st_dev, status.st_ino)
            if file_key in seen_files:
                yield SkippedFile(name, f"same file as {seen_files[file_key]}")
                continue
            seen_files[file_key] = name
            yield Path(entry.path)
        stack.extend(reversed(subdirectories))


class _Replayed(io.RawIOBase):
    """A stream's already-read head followed by the rest of it, for streams that cannot seek;
    ``error`` is raised after the head when reading the head already failed part-way."""

    def __init__(self, head: bytes, rest: IO[bytes], error: BaseException | None = None) -> None:
        super().__init__()
        self._head = memoryview(head)
        # read1: a stream that fails part-way (a truncated gzip, a budget spent) hands over all before it
        self._read_rest = getattr(rest, "read1", rest.read)
        self._error = error

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        if self._head:
            count = min(len(view), len(self._head))
            view[:count] = self._head[:count]
            self._head = self._head[count:]
            return count
        if self._error is not None:
            raise self._error
        data = self._read_rest(len(view))
        view[: len(data)] = data
        return len(data)


def _peek(stream: IO[bytes], size: int, rewindable: bool) -> tuple[bytes, IO[bytes]]:
    """The first ``size`` bytes of ``stream`` and a stream that starts with them again."""
    read = getattr(stream, "read1", stream.read)
    head = b""
    error: BaseException | None = None
    try:
        while len(head) < size and (more := read(size - len(head))):
            head += more
    except read_errors() as exc:
        if not head:
            raise
        error = exc  # keep what was read; the reader reports the failure after it
    if rewindable and error is None:
        stream.seek(0)
        return head, stream
    return head, io.BufferedReader(_Replayed(head, stream, error))


def _sniffed(name: str, stream: IO[bytes], reading: _Reading, rewindable: bool) -> Iterator[Source | SkippedFile]:
    try:
        head, stream = _peek(stream, reading.limits.sniff_bytes, rewindable)
    except read_errors() as exc:
        yield SkippedFile(name, f"unreadable: {describe_error(exc)}")
        return
    nested = reading.deeper()
    for magic, module in _COMPRESSED:
        if head.startswith(magic):
            if nested.depth > reading.limits.max_nesting:
                yield SkippedFile(name, "compressed too many levels deep")
            else:
                decompressed = metered(importlib.import_module(module).open(stream, "rb"), reading.budget)
                yield from _sniffed(name, decompressed, nested, rewindable=False)
            return
    is_tar = head[_TAR_MAGIC_AT : _TAR_MAGIC_AT + 5] == b"ustar"
    if is_tar or head.startswith(_ZIP_MAGIC):
        if nested.depth > reading.limits.max_nesting:
            yield SkippedFile(name, "archive nested too deep")
        elif is_tar:
            yield from _tar_members(name, stream, nested)
        else:
            yield from _zip_members(name, stream, nested, rewindable)
        return
    if looks_binary(head):
        yield SkippedFile(name, f"binary: NUL bytes in the first {reading.limits.sniff_bytes} bytes")
        return
    yield ByteSource(name, stream)


def _member_name(archive: str, member: str) -> str:
    return f"{archive}!{shown(member)}"


def _binary_by_name(member: str) -> str | None:
    suffix = PurePosixPath(member).suffix.lower()
    return f"binary file type ({suffix})" if suffix in BINARY_SUFFIXES else None


Member = tuple[str, Callable[[], IO[bytes]]]


def _read_members(name: str, members: Iterable[Member | SkippedFile], reading: _Reading
                  ) -> Iterator[Source | SkippedFile]:
    """Each file of an archive in order, as ``(path inside, open it)`` (or a member already set
    aside): skipped by a binary name, else read as a stream like any other input."""
    for member in members:
        if isinstance(member, SkippedFile):
            yield member
            continue
        path, open_member = member
        member_name = _member_name(name, path)
        reason = _binary_by_name(path)
        if reason:
            yield SkippedFile(member_name, reason)
            continue
        try:
            content = open_member()
        except (RuntimeError, NotImplementedError, *read_errors()) as exc:
            # zipfile raises these for encrypted members and unsupported compression methods.
            yield SkippedFile(member_name, f"cannot open member: {exc}")
            continue
        with content:
            yield from _sniffed(member_name, content, reading, rewindable=False)


def _tar_members(name: str, stream: IO[bytes], reading: _Reading) -> Iterator[Source | SkippedFile]:
    try:
        yield from _read_members(name, tar_members(stream), reading)
    except read_errors() as exc:
        yield SkippedFile(name, f"archive read stopped: {describe_error(exc)}")


def _zip_members(name: str, stream: IO[bytes], reading: _Reading, rewindable: bool) -> Iterator[Source | SkippedFile]:
    if not rewindable:
        # A zip's directory is at its end: inside another archive or on stdin it must be
        # buffered (in memory, never on disk) to be read; all such zips at once share one allowance.
        allowed = reading.zip_memory
        try:
            data = stream.read(allowed + 1)
        except read_errors() as exc:
            yield SkippedFile(name, f"unreadable: {describe_error(exc)}")
            return
        if len(data) > allowed:
            yield SkippedFile(name, f"a zip inside a stream, larger than the {size_text(allowed)} left to hold "
                                    f"such zips in memory (of {size_text(reading.limits.max_zip_in_memory)})")
            return
        stream = io.BytesIO(data)
        reading = replace(reading, zip_memory=allowed - len(data))
    import zipfile  # imported here: most inputs are plain text

    try:
        with zipfile.ZipFile(stream) as archive:
            yield from _read_members(name, _zip_entries(name, archive, reading.budget), reading)
    except read_errors() as exc:
        yield SkippedFile(name, f"archive read stopped: {describe_error(exc)}")


def _zip_entries(name: str, archive: zipfile.ZipFile, budget: ByteBudget) -> Iterator[Member | SkippedFile]:
    """The files of a zip, each read through the budget; entries whose data another entry already
    gave (entries that overlap, as zip bombs make them) are read once, and counted in a note."""
    read_at: set[int] = set()
    overlapping = 0
    for info in archive.infolist():
        if info.is_dir():
            continue
        if info.header_offset in read_at:
            overlapping += 1
            continue
        read_at.add(info.header_offset)
        yield info.filename, partial(_metered_open, archive, info, budget)
    if overlapping:
        yield SkippedFile(name, f"{overlapping} entries point at data that other entries gave (overlapping "
                                "entries, as zip bombs make them): each read once")


def _metered_open(archive: zipfile.ZipFile, info: zipfile.ZipInfo, budget: ByteBudget) -> IO[bytes]:
    return metered(archive.open(info), budget)
