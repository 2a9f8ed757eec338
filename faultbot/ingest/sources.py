"""Input specs to readable sources: walks directories, opens compressed files and streams
archive members without unpacking them to disk, and sets binary files aside with a reason.

Formats are recognised by their magic bytes, not their names, so a ``.log`` that is really
gzip, or a tarball on standard input, is still read.
"""

from __future__ import annotations

import importlib
import io
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path, PurePosixPath
from typing import IO, TYPE_CHECKING

from faultbot.ingest.decode import bom_encoding, read_errors
from faultbot.ingest.inputs import InputSpec, LogPath, Paste, Stdin
from faultbot.ingest.limits import ReadLimits
from faultbot.ingest.stats import SkippedFile

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer


@dataclass(frozen=True)
class ByteSource:
    """A readable stream of bytes: a file, an archive member, standard input."""

    name: str
    stream: IO[bytes]


@dataclass(frozen=True)
class TextSource:
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


def expand(spec: InputSpec, limits: ReadLimits) -> Iterator[Source | SkippedFile]:
    """The sources one input spec stands for, in a stable order."""
    if isinstance(spec, Paste):
        yield TextSource(spec.name, spec.text)
    elif isinstance(spec, Stdin):
        stream = spec.stream if spec.stream is not None else sys.stdin.buffer
        yield from _sniffed(spec.name, stream, 0, limits, rewindable=False)
    elif isinstance(spec, LogPath):
        yield from _from_path(Path(spec.path), limits)


def _from_path(path: Path, limits: ReadLimits) -> Iterator[Source | SkippedFile]:
    if path.is_dir():
        for item in walk(path):
            if isinstance(item, SkippedFile):
                yield item
            else:
                yield from _from_file(item, limits)
    else:
        yield from _from_file(path, limits)


def _from_file(path: Path, limits: ReadLimits) -> Iterator[Source | SkippedFile]:
    name = str(path)
    reason = _binary_by_name(path.name)
    if reason:
        yield SkippedFile(name, reason)
        return
    try:
        stream = path.open("rb")
    except OSError as exc:
        yield SkippedFile(name, f"cannot open: {exc.strerror or exc}")
        return
    with stream:
        yield from _sniffed(name, stream, 0, limits, rewindable=stream.seekable())


def walk(root: Path) -> Iterator[Path | SkippedFile]:
    """Regular files under ``root``, sorted, following symlinks but never into a directory
    already read (symlink loops) and never to a file already read (links to the same file)."""
    seen_dirs: set[tuple[int, int]] = set()
    seen_files: dict[tuple[int, int], str] = {}
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            status = directory.stat()
            entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
        except OSError as exc:
            yield SkippedFile(str(directory), f"cannot list: {exc.strerror or exc}")
            continue
        key = (status.st_dev, status.st_ino)
        if key in seen_dirs:
            yield SkippedFile(str(directory), "directory already read (symlink loop or second link)")
            continue
        seen_dirs.add(key)
        subdirectories = []
        for entry in entries:
            try:
                if entry.is_dir():
                    subdirectories.append(Path(entry.path))
                    continue
                if not entry.is_file():
                    reason = "broken symlink" if entry.is_symlink() else "not a regular file"
                    yield SkippedFile(entry.path, reason)
                    continue
                status = entry.stat()
            except OSError as exc:
                yield SkippedFile(entry.path, f"cannot stat: {exc.strerror or exc}")
                continue
            file_key = (status.st_dev, status.st_ino)
            if file_key in seen_files:
                yield SkippedFile(entry.path, f"same file as {seen_files[file_key]}")
                continue
            seen_files[file_key] = entry.path
            yield Path(entry.path)
        stack.extend(reversed(subdirectories))


class _Replayed(io.RawIOBase):
    """A stream's already-read head followed by the rest of it, for streams that cannot seek;
    ``error`` is raised after the head when reading the head already failed part-way."""

    def __init__(self, head: bytes, rest: IO[bytes], error: BaseException | None = None) -> None:
        super().__init__()
        self._head = memoryview(head)
        self._rest = rest
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
        data = self._rest.read(len(view))
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


def _sniffed(
    name: str, stream: IO[bytes], depth: int, limits: ReadLimits, rewindable: bool
) -> Iterator[Source | SkippedFile]:
    try:
        head, stream = _peek(stream, limits.sniff_bytes, rewindable)
    except read_errors() as exc:
        yield SkippedFile(name, f"unreadable: {type(exc).__name__}: {exc}")
        return
    nested = depth + 1
    for magic, module in _COMPRESSED:
        if head.startswith(magic):
            if nested > limits.max_nesting:
                yield SkippedFile(name, "compressed too many levels deep")
            else:
                decompressed = importlib.import_module(module).open(stream, "rb")
                yield from _sniffed(name, decompressed, nested, limits, rewindable=False)
            return
    is_tar = head[_TAR_MAGIC_AT : _TAR_MAGIC_AT + 5] == b"ustar"
    if is_tar or head.startswith(_ZIP_MAGIC):
        if nested > limits.max_nesting:
            yield SkippedFile(name, "archive nested too deep")
        elif is_tar:
            yield from _tar_members(name, stream, nested, limits)
        else:
            yield from _zip_members(name, stream, nested, limits, rewindable)
        return
    if b"\x00" in head and bom_encoding(head) is None:
        yield SkippedFile(name, f"binary: NUL bytes in the first {limits.sniff_bytes} bytes")
        return
    yield ByteSource(name, stream)


def _member_name(archive: str, member: str) -> str:
    return f"{archive}!{member}"


def _binary_by_name(member: str) -> str | None:
    suffix = PurePosixPath(member).suffix.lower()
    return f"binary file type ({suffix})" if suffix in BINARY_SUFFIXES else None


def _read_members(name: str, members: Iterable[tuple[str, Callable[[], IO[bytes] | None]]], depth: int,
                  limits: ReadLimits) -> Iterator[Source | SkippedFile]:
    """Each file of an archive in order, as ``(path inside, open it)``: skipped by a binary name,
    else read as a stream like any other input."""
    for path, open_member in members:
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
        if content is not None:
            with content:
                yield from _sniffed(member_name, content, depth, limits, rewindable=False)


def _tar_members(
    name: str, stream: IO[bytes], depth: int, limits: ReadLimits
) -> Iterator[Source | SkippedFile]:
    import tarfile  # imported here: most inputs are plain text

    try:
        # "r|" reads the tar as a stream: members in order, no seeking, nothing written to disk.
        with tarfile.open(fileobj=stream, mode="r|") as archive:
            yield from _read_members(name, ((member.name, partial(archive.extractfile, member))
                                            for member in archive if member.isfile()), depth, limits)
    except read_errors() as exc:
        yield SkippedFile(name, f"archive read stopped: {type(exc).__name__}: {exc}")


def _zip_members(
    name: str, stream: IO[bytes], depth: int, limits: ReadLimits, rewindable: bool
) -> Iterator[Source | SkippedFile]:
    if not rewindable:
        # A zip's directory is at its end: inside another archive or on stdin it must be
        # buffered (in memory, never on disk) to be read.
        data = stream.read(limits.max_zip_in_memory + 1)
        if len(data) > limits.max_zip_in_memory:
            yield SkippedFile(name, f"zip inside a stream larger than {limits.max_zip_in_memory} bytes")
            return
        stream = io.BytesIO(data)
    import zipfile  # imported here: most inputs are plain text

    try:
        with zipfile.ZipFile(stream) as archive:
            yield from _read_members(name, ((info.filename, partial(archive.open, info))
                                            for info in archive.infolist() if not info.is_dir()), depth, limits)
    except read_errors() as exc:
        yield SkippedFile(name, f"archive read stopped: {type(exc).__name__}: {exc}")
