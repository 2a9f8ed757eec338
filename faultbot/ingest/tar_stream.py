"""Reading a tar archive as a stream, believing no size its headers claim.

The standard library's stream mode skips a member by the size its header claims, reading block
after block long past the end of the data (a header claiming 2**62 bytes never finishes), reads a
long-name or pax header of any claimed size into memory, and ends quietly at a damaged header. Here
a member is the bytes that are really there, up to its claimed size; the end of the data inside a
member or before the end-of-archive block, a damaged header and an over-large name header stop
the archive with ``TarStopped``, whose message says where; an end-of-archive block ends it.

Read: regular files (POSIX ustar, GNU and pax names and sizes). Passed over: directories, links,
devices. Refused: GNU sparse members, whose data is not the file's bytes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING

import msgspec

from faultbot.ingest.decode import StreamStopped

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

BLOCK = 512
MAX_NAME_HEADER = 1 << 20          # long-name and pax headers; real ones are a few hundred bytes
_REGULAR = frozenset(b"07\0")      # typeflags of regular files (7: contiguous)
_LONG_NAME, _LONG_LINK, _PAX, _PAX_GLOBAL, _SPARSE = b"LKxgS"
_SKIP_BLOCK = 1 << 16


class TarStopped(StreamStopped):
    """The archive cannot be read on from here: damaged, or ending inside a member or header."""


class _Header(msgspec.Struct, frozen=True):
    name: bytes
    typeflag: int
    size: int


def tar_members(stream: IO[bytes]) -> Iterator[tuple[str, Callable[[], IO[bytes]]]]:
    """Each regular file of the tar ``stream`` in order, as (path inside, open it). Its stream
    must be read, if at all, before the next member is asked for; the rest is then passed over.
    Raises TarStopped where the archive cannot be read on."""
    offset = 0
    name_override: bytes | None = None
    size_override: int | None = None
    while True:
        block = _read_exactly(stream, BLOCK)
        if len(block) < BLOCK:
            raise TarStopped(f"the archive ends at byte {offset + len(block)}, without its end-of-archive block: "
                             "cut short, members after it may be missing")
        if not any(block):
            return      # the end-of-archive blocks
        header = _parse(block, offset)
        offset += BLOCK
        size = header.size if size_override is None else size_override
        name = header.name if name_override is None else name_override
        name_override = size_override = None
        if header.typeflag in (_LONG_NAME, _LONG_LINK, _PAX, _PAX_GLOBAL):
            data = _name_header(stream, header, size, offset)
            if header.typeflag == _LONG_NAME:
                name_override = data.split(b"\0", 1)[0]
            elif header.typeflag == _PAX:
                name_override, size_override = _pax(data, offset)
        else:
            member = _Member(stream, size, name)
            if header.typeflag in _REGULAR:
                yield name.decode("utf-8", "surrogateescape"), lambda member=member: io.BufferedReader(member)
            elif header.typeflag == _SPARSE:
                yield name.decode("utf-8", "surrogateescape"), _sparse
            if not member.pass_over():
                return      # its reader was told the archive ends inside it
        offset += size + _padding(size)
        _drop(stream, _padding(size))   # a cut in the padding shows at the next header


def _sparse() -> IO[bytes]:
    raise NotImplementedError("a GNU sparse member: its data is not the file's bytes")


def _padding(size: int) -> int:
    return -size % BLOCK


def _read_exactly(stream: IO[bytes], size: int) -> bytes:
    data = b""
    while len(data) < size and (more := stream.read(size - len(data))):
        data += more
    return data


def _drop(stream: IO[bytes], size: int) -> None:
    """Reads and drops up to ``size`` bytes."""
    while size > 0 and (dropped := len(stream.read(min(size, _SKIP_BLOCK)))):
        size -= dropped


class _Member(io.RawIOBase):
    """One member's bytes: what the archive really holds, up to the size its header claims."""

    def __init__(self, stream: IO[bytes], size: int, name: bytes) -> None:
        super().__init__()
        self._stream = stream
        self._size = size
        self._left = size
        self._name = name
        self._told = False      # its reader already met the end of the data

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        data = self._stream.read(min(len(view), self._left)) if self._left else b""
        if self._left and not data:
            self._told = True
            raise self._cut_short()
        self._left -= len(data)
        view[: len(data)] = data
        return len(data)

    def _cut_short(self) -> TarStopped:
        return TarStopped(f"the archive ends inside {self._name.decode('utf-8', 'replace')}: "
                          f"{self._size - self._left} bytes there of the {self._size} its header claims")

    def close(self) -> None:
        """Closing a member leaves the archive open: the next member follows."""
        super().close()

    def pass_over(self) -> bool:
        """Drops what the reader of this member left unread; False when the data ended inside it and
        its reader was told so, TarStopped when it ended there untold."""
        while self._left:
            dropped = len(self._stream.read(min(self._left, _SKIP_BLOCK)))
            if not dropped:
                if self._told:
                    return False
                raise self._cut_short()
            self._left -= dropped
        return True


def _name_header(stream: IO[bytes], header: _Header, size: int, offset: int) -> bytes:
    if size > MAX_NAME_HEADER:
        raise TarStopped(f"a name header at byte {offset - BLOCK} claims {size} bytes (at most {MAX_NAME_HEADER} "
                         "are read): the rest of the archive is not read")
    data = _read_exactly(stream, size)
    if len(data) < size:
        raise TarStopped(f"the archive ends inside the name header at byte {offset - BLOCK}")
    return data


def _pax(data: bytes, offset: int) -> tuple[bytes | None, int | None]:
    """The path and size a pax header gives the member after it (records "LENGTH key=value\\n")."""
    path: bytes | None = None
    size: int | None = None
    position = 0
    while position < len(data) and data[position:position + 1] != b"\0":
        length_text, space, _ = data[position:position + 20].partition(b" ")
        if not space or not length_text.isdigit() or int(length_text) <= len(length_text):
            raise TarStopped(f"a damaged pax header at byte {offset - BLOCK}: the rest of the archive is not read")
        record = data[position + len(length_text) + 1:position + int(length_text)].removesuffix(b"\n")
        key, _, value = record.partition(b"=")
        if key == b"path":
            path = value
        elif key == b"size" and value.isdigit():
            size = int(value)
        position += int(length_text)
    return path, size


def _parse(block: bytes, offset: int) -> _Header:
    damaged = TarStopped(f"a damaged header at byte {offset}: the rest of the archive is not read")
    stored = _octal(block[148:156])
    unsigned = sum(block[:148]) + 8 * 0x20 + sum(block[156:])
    signed = unsigned - 2 * sum(byte for byte in block[:148] + block[156:] if byte > 127)
    size = _size(block[124:136])
    if stored is None or stored not in (unsigned, signed) or size is None:
        raise damaged
    name = block[:100].split(b"\0", 1)[0]
    prefix = block[345:500].split(b"\0", 1)[0]
    if block[257:263] == b"ustar\0" and prefix:    # POSIX; GNU keeps other fields there
        name = prefix + b"/" + name
    return _Header(name, block[156], size)


def _octal(field: bytes) -> int | None:
    digits = field.replace(b"\0", b" ").strip()
    if not digits:
        return 0
    try:
        return int(digits, 8)
    except ValueError:
        return None


def _size(field: bytes) -> int | None:
    if field[0] == 0x80:          # GNU base-256 for sizes octal cannot hold
        return int.from_bytes(field[1:], "big")
    if field[0] & 0x80:
        return None               # negative, or not a number
    return _octal(field)
