"""Bytes to text, incrementally: BOM-sniffed UTF-8/16/32, else UTF-8, else GB18030 for logs
from Chinese-locale machines; undecodable bytes are replaced and counted, never fatal."""

from __future__ import annotations

import codecs
import re
import sys
import threading
import zlib
from collections.abc import Generator
from dataclasses import dataclass
from typing import IO

# Longest BOM first: the UTF-32-LE BOM starts with the UTF-16-LE one.
_BOMS: tuple[tuple[bytes, str], ...] = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_LONGEST_BOM = max(len(bom) for bom, _ in _BOMS)
# Tried in order on a sample when there is no BOM.
_CANDIDATES = ("utf-8", "gb18030")
SAMPLE_BYTES = 64 * 1024

_BASIC_READ_ERRORS: tuple[type[BaseException], ...] = (OSError, EOFError, zlib.error)
# (module, error class) of the decompressors and archive readers, imported only when a stream of
# theirs is opened: most inputs are plain text.
_ARCHIVE_READ_ERRORS = (("lzma", "LZMAError"), ("tarfile", "TarError"), ("zipfile", "BadZipFile"))


def read_errors() -> tuple[type[BaseException], ...]:
    """Errors a byte stream can raise mid-read (a truncated gzip, a corrupt archive member): the
    basic ones and those of every reader in use. An ``except`` clause evaluates this only when an
    exception is raised."""
    return _BASIC_READ_ERRORS + tuple(getattr(sys.modules[module], name)
                                      for module, name in _ARCHIVE_READ_ERRORS if module in sys.modules)

_NON_ASCII = re.compile(rb"[\x80-\xff]")

# The codecs machinery calls error handlers by registered name, with no way to pass per-call
# state; a thread-local counter, reset around each decode call, attributes replacements to the
# stream being decoded.
_ERRORS = "faultbot-count-replace"
_replaced = threading.local()


def _count_and_replace(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeDecodeError):
        raise error
    _replaced.count += error.end - error.start
    return "\ufffd", error.end


codecs.register_error(_ERRORS, _count_and_replace)


@dataclass(frozen=True)
class DecodeTally:
    """What decoding one source came to: bytes read and replaced, the encoding, an early stop."""

    bytes_read: int
    replaced_bytes: int
    encoding: str | None      # None when the text was all ASCII
    error: str | None = None  # why reading stopped early, if it did


def bom_encoding(head: bytes) -> tuple[str, int] | None:
    """The encoding a byte-order mark names and the BOM's length, or None."""
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return encoding, len(bom)
    return None


def choose_encoding(sample: bytes) -> str:
    """The candidate that decodes ``sample`` with the fewest undecodable bytes (the first on a
    tie): a UTF-8 log with one corrupt byte stays UTF-8, a GBK log reads as GB18030."""
    for encoding in _CANDIDATES:   # the common case, in C: one candidate reads it all
        try:
            codecs.getincrementaldecoder(encoding)("strict").decode(sample, False)
            return encoding
        except UnicodeDecodeError:
            continue
    best: tuple[int, str] | None = None
    for encoding in _CANDIDATES:
        _, bad = _decode(codecs.getincrementaldecoder(encoding)(_ERRORS), sample, final=False)
        if best is None or bad < best[0]:
            best = (bad, encoding)
    return best[1] if best else _CANDIDATES[0]


def _decode(decoder: codecs.IncrementalDecoder, data: bytes, final: bool) -> tuple[str, int]:
    _replaced.count = 0
    text = decoder.decode(data, final)
    return text, _replaced.count


def iter_text(stream: IO[bytes], chunk_size: int) -> Generator[str, None, DecodeTally]:
    """Text of ``stream`` in chunks of about ``chunk_size`` bytes.

    The encoding is chosen at the first non-ASCII byte: up to there every candidate reads the
    same, and a log that is ASCII for megabytes before its first Chinese line is still sniffed
    on that line rather than on an all-ASCII head.
    """
    total = replaced = 0
    encoding: str | None = None
    decoder: codecs.IncrementalDecoder | None = None
    error: str | None = None
    # read1 returns what one underlying read gives: a stream that fails part-way (a truncated
    # gzip) has then handed over everything before the failure.
    read = getattr(stream, "read1", stream.read)
    try:
        chunk = read(chunk_size)
        while len(chunk) < _LONGEST_BOM:  # a tiny first read must still show a whole BOM
            more = read(_LONGEST_BOM - len(chunk))
            if not more:
                break
            chunk += more
        bom = bom_encoding(chunk)
        if bom:
            encoding = bom[0]
            decoder = codecs.getincrementaldecoder(encoding)(_ERRORS)
            total += bom[1]
            chunk = chunk[bom[1]:]
        while chunk or (chunk := read(chunk_size)):
            total += len(chunk)
            if decoder is None:
                # isascii is a fast C scan; the regex only runs on chunks that need it
                first = None if chunk.isascii() else _NON_ASCII.search(chunk)
                if first is None:
                    yield chunk.decode("ascii")
                    chunk = b""
                    continue
                if first.start():
                    yield chunk[: first.start()].decode("ascii")
                chunk = chunk[first.start():]
                encoding = choose_encoding(chunk[:SAMPLE_BYTES])
                decoder = codecs.getincrementaldecoder(encoding)(_ERRORS)
            text, bad = _decode(decoder, chunk, final=False)
            replaced += bad
            if text:
                yield text
            chunk = b""
    except read_errors() as exc:
        error = f"{type(exc).__name__}: {exc}"
    if decoder is not None:
        text, bad = _decode(decoder, b"", final=True)
        replaced += bad
        if text:
            yield text
    return DecodeTally(total, replaced, encoding, error)
