"""Bytes to text, incrementally: BOM-sniffed UTF-8/16/32, UTF-16 without a BOM by its pattern of
zero bytes, else UTF-8, else GB18030 for logs from Chinese-locale machines; a UTF-8 log with GBK
lines in it (two programs, two locales) reads each line in its own encoding; the ASCII lines of a
GB18030 log are read by the ASCII codec, many times faster, to the same text. Undecodable bytes are
replaced and counted, never fatal; NUL bytes (padding a crash or a preallocating logger left) are
dropped from the text.

For the line prefilter a stream in an encoding whose ASCII bytes are always characters of their own
(ASCII, UTF-8, GB18030, the mix of the two) can be read as its bytes, each byte one character
(``iter_text`` with a ``LineDecoding``): the prefilter decodes only the lines with bytes above 0x7F,
and those it keeps, each as the whole stream's decoding reads it (``LineDecoding``)."""

from __future__ import annotations

import codecs
import re
import sys
import threading
import zlib
from collections.abc import Callable, Generator
from typing import IO

import msgspec
from msgspec.structs import replace

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


class StreamStopped(Exception):
    """Reading a stream stopped on purpose (a budget spent) or at damage faultbot found itself (an
    archive cut short): the message says why, in words for the output."""


_BASIC_READ_ERRORS: tuple[type[BaseException], ...] = (OSError, EOFError, zlib.error, StreamStopped)
# (module, error class) of the decompressors and archive readers, imported only when a stream of
# theirs is opened: most inputs are plain text.
_ARCHIVE_READ_ERRORS = (("lzma", "LZMAError"), ("zipfile", "BadZipFile"))


def read_errors() -> tuple[type[BaseException], ...]:
    """Errors a byte stream can raise mid-read (a truncated gzip, a corrupt archive member): the
    basic ones and those of every reader in use. An ``except`` clause evaluates this only when an
    exception is raised."""
    return _BASIC_READ_ERRORS + tuple(getattr(sys.modules[module], name)
                                      for module, name in _ARCHIVE_READ_ERRORS if module in sys.modules)



def describe_error(error: BaseException) -> str:
    """A read error as the output says it: faultbot's own stops in their words, others with their type."""
    return str(error) if isinstance(error, StreamStopped) else f"{type(error).__name__}: {error}"


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


class DecodeTally(msgspec.Struct, frozen=True):
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


MIXED = "utf-8+gb18030"    # each line in whichever of the two reads it whole


def choose_encoding(sample: bytes) -> str:
    """The candidate that decodes ``sample`` with the fewest undecodable bytes (the first on a
    tie): a UTF-8 log with one corrupt byte stays UTF-8, a GBK log reads as GB18030, and a log
    with lines of both reads line by line (``MIXED``). UTF-8 Chinese often reads as GB18030 too
    (garbled, not refused), so a sample that is not all UTF-8 but has whole UTF-8 lines in good
    number is taken for mixed."""
    lines = sample.splitlines(keepends=True)
    # a line end ends any character and every candidate reads ASCII alike: the lines with high
    # bytes read as they do in the whole sample, which they are a fraction of
    high = b"".join(line for line in lines if not line.isascii())
    for encoding in _CANDIDATES:   # the common case, in C: one candidate reads it all
        try:
            codecs.getincrementaldecoder(encoding)("strict").decode(high, False)
            return encoding
        except UnicodeDecodeError:
            # the last line may be cut
            if encoding == _CANDIDATES[0] and _utf8_line_share(lines[:-1]) >= MIXED_FROM_SHARE:
                return MIXED
    best: tuple[int, str] | None = None
    for encoding in _CANDIDATES:
        _, bad = _decode(_decoder(encoding), sample, final=False)
        if best is None or bad < best[0]:
            best = (bad, encoding)
    return best[1] if best else _CANDIDATES[0]


MIXED_FROM_SHARE = 0.25
_HIGH_BYTES = bytes(range(0x80, 0x100))


def _utf8_line_share(lines: list[bytes]) -> float:
    """The share of the non-ASCII bytes of ``lines`` that are in lines UTF-8 reads."""
    total = in_utf8 = 0
    for line in lines:
        high = 0 if line.isascii() else len(line) - len(line.translate(None, _HIGH_BYTES))
        if high:
            total += high
            try:
                line.decode("utf-8")
                in_utf8 += high
            except UnicodeDecodeError:
                pass
    return in_utf8 / total if total else 0.0


class _LineByLine:
    """A decoder that reads each line as UTF-8 if it can, else as GB18030 if it can, else as UTF-8
    with the undecodable bytes replaced; a line without an end for a long while is read in parts."""

    LONGEST_PART = 1 << 20

    def __init__(self) -> None:
        self._pending = b""

    def decode(self, data: bytes, final: bool = False) -> str:
        data = self._pending + data
        cut = len(data) if final or len(data) - data.rfind(b"\n") > self.LONGEST_PART else data.rfind(b"\n") + 1
        self._pending = data[cut:]
        return "".join(map(_line_text, data[:cut].splitlines(keepends=True)))


def _line_text(line: bytes) -> str:
    for encoding in _CANDIDATES:
        try:
            return line.decode(encoding)
        except UnicodeDecodeError:
            continue
    return line.decode(_CANDIDATES[0], _ERRORS)


_HIGH_AS_0X80 = bytes(range(0x80)) + b"\x80" * 0x80


class _AsciiLinesFirst:
    """An incremental GB18030 decoder that reads the lines without a byte above 0x7F as ASCII.

    CPython's GB18030 codec reads about 100 MB/s, its ASCII codec several GB/s, and a Chinese-locale
    log is mostly ASCII lines. Where the codec holds no unfinished character, ASCII bytes are
    characters of their own in GB18030, so reading them as ASCII gives what the codec gives; the
    codec reads everything else, in order, and so holds back what it would hold back on its own:
    the text of each call is the codec's to the character."""

    def __init__(self, encoding: str) -> None:
        self._codec = codecs.getincrementaldecoder(encoding)(_ERRORS)

    def decode(self, data: bytes, final: bool = False) -> str:
        parts: list[str] = []
        # every high byte as 0x80, so that memchr finds the next one (a regex looks at each byte)
        marked = data.translate(_HIGH_AS_0X80)
        # lines with high bytes are cut out one by one up to one a kilobyte: a denser mix (or a
        # hostile one, a high byte on every line) is left to the codec, at its own speed
        cuts_left = 1 + len(data) // 1024
        position = 0
        while position < len(data):
            high = marked.find(b"\x80", position)
            if high >= 0 and not cuts_left:
                parts.append(self._codec.decode(data[position:]))
                break
            cuts_left -= 1
            # the lines before the one holding the next high byte (or all of them), then that line
            line_start = len(data) if high < 0 else max(data.rfind(b"\n", position, high) + 1, position)
            if line_start > position:
                stretch = data[position:line_start]
                parts.append(self._codec.decode(stretch) if self._codec.getstate()[0] else stretch.decode("ascii"))
            if high < 0:
                break
            line_end = data.find(b"\n", high)
            position = len(data) if line_end < 0 else line_end + 1
            parts.append(self._codec.decode(data[line_start:position]))
        parts.append(self._codec.decode(b"", final))
        return "".join(parts)


def _decoder(encoding: str) -> codecs.IncrementalDecoder | _LineByLine | _AsciiLinesFirst:
    if encoding == MIXED:
        return _LineByLine()
    if encoding == "gb18030":
        return _AsciiLinesFirst(encoding)
    return codecs.getincrementaldecoder(encoding)(_ERRORS)


def utf16_without_bom(head: bytes) -> str | None:
    """``utf-16-le`` or ``utf-16-be`` when ``head`` has the zero bytes of mostly-ASCII UTF-16
    text at every other position (and hardly any at the others), else None."""
    sample = head[: 4096 - len(head) % 2]
    half = len(sample) // 2
    if half < 8:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    if odd >= half // 2 and even <= half // 20:
        return "utf-16-le"
    if even >= half // 2 and odd <= half // 20:
        return "utf-16-be"
    return None


# Bytes that text holds: tab, line ends, form feed, escape (ANSI colours); other control bytes
# and NULs outside runs of padding are what binary formats hold.
_TEXT_CONTROLS = frozenset(b"\t\n\r\x0b\x0c\x1b")
_CONTROLS = bytes(byte for byte in range(32) if byte not in _TEXT_CONTROLS) + b"\x7f"
_NUL_PADDING = re.compile(rb"\x00{16,}")
BINARY_SHARE = 0.05


def looks_binary(head: bytes) -> bool:
    """Whether a stream that starts with ``head`` is binary rather than a log: it holds NUL bytes
    and, runs of NUL padding aside, more than ``BINARY_SHARE`` of it are control bytes. UTF-16
    text and logs with NUL padding (a crash or a preallocating logger leaves it) are text."""
    if b"\x00" not in head or bom_encoding(head) is not None or utf16_without_bom(head) is not None:
        return False
    rest = _NUL_PADDING.sub(b"", head)
    controls = len(rest) - len(rest.translate(None, _CONTROLS))
    return controls > BINARY_SHARE * len(rest)


def _decode(decoder: codecs.IncrementalDecoder | _LineByLine | _AsciiLinesFirst, data: bytes, final: bool) -> tuple[str, int]:
    _replaced.count = 0
    text = decoder.decode(data, final)
    return text, _replaced.count


def _without_nuls(text: str) -> str:
    return text.replace("\x00", "") if "\x00" in text else text


_TERMINATOR = b"\n\n"


class LineDecoding:
    """The decoding of a stream that ``iter_text`` gives as bytes (see the module's description).

    A line is decoded followed by two newlines when it has one: the codecs read an unfinished
    character before a newline otherwise than at the end of the stream (GB18030 looks at four bytes
    before it gives up on one), and no character of either encoding holds a newline byte, so each
    line reads as it does within the whole stream."""

    def __init__(self) -> None:
        self.active = False             # the stream is given as bytes (set by ``iter_text``)
        self.encoding: str | None = None
        self.replaced = 0               # undecodable bytes in the lines read by ``text_of_lines``

    def _fresh(self) -> codecs.IncrementalDecoder | _LineByLine:
        # every line holds a high byte: the codec reads them faster than _AsciiLinesFirst
        return _LineByLine() if self.encoding == MIXED else codecs.getincrementaldecoder(self.encoding or "ascii")(_ERRORS)

    def text_of_lines(self, lines: list[bytes], last_terminated: bool) -> str:
        """The text of ``lines`` (no newlines in them; the last one followed by a newline when
        ``last_terminated``), one a line, its undecodable bytes counted: call it once for every line of
        a stream with a high byte."""
        data = b"\n".join([*lines, b"", b""] if last_terminated else lines)   # ended by _TERMINATOR
        text, bad = _decode(self._fresh(), data, final=True)
        self.replaced += bad
        return text[:-len(_TERMINATOR)] if last_terminated else text

    def text(self, line: bytes, terminated: bool) -> str:
        """The text of one line, not counted again (``text_of_lines`` counted it)."""
        text, _ = _decode(self._fresh(), line + _TERMINATOR if terminated else line, final=True)
        return text[:-len(_TERMINATOR)] if terminated else text

    def whole(self, data: bytes) -> str:
        """The text of a whole stream given as bytes, its undecodable bytes counted."""
        text, bad = _decode(self._fresh(), data, final=True)
        self.replaced += bad
        return text

    def chars(self, data: bytes) -> int:
        """How many characters the start of a stream ``data`` is, an unfinished last one not counted."""
        return len(_decode(self._fresh(), data, final=False)[0])

    def given_out(self, data: bytes, max_chars: int) -> int:
        """How many bytes of ``data``, the start of a line with no end yet, the whole stream's
        decoding gives out now: all but an unfinished character once they are over ``max_chars``
        characters (a line by line decoding, all once they are a part of its size); else none."""
        if self.encoding == MIXED:
            return len(data) if len(data) >= _LineByLine.LONGEST_PART else 0
        if data.isascii():
            return len(data) if len(data) > max_chars else 0
        if self.chars(data) <= max_chars:
            return 0
        decoder = codecs.getincrementaldecoder(self.encoding or "ascii")(_ERRORS)
        _decode(decoder, data, final=False)
        return len(data) - len(decoder.getstate()[0])

    def completed(self, tally: DecodeTally) -> DecodeTally:
        """``tally`` with the undecodable bytes of the lines decoded here."""
        return replace(tally, replaced_bytes=tally.replaced_bytes + self.replaced) if self.replaced else tally


def iter_text(stream: IO[bytes], chunk_size: int, as_bytes: LineDecoding | None = None
              ) -> Generator[str, None, DecodeTally]:
    """Text of ``stream`` in chunks of about ``chunk_size`` bytes.

    The encoding is chosen at the first non-ASCII byte: up to there every candidate reads the
    same, and a log that is ASCII for megabytes before its first Chinese line is still sniffed
    on that line rather than on an all-ASCII head. Given ``as_bytes``, a stream in an encoding
    that keeps ASCII bytes whole comes as its bytes, each one character (Latin-1), NULs dropped;
    ``as_bytes`` then knows the encoding and decodes its lines (``LineDecoding``).
    """
    total = replaced = 0
    encoding: str | None = None
    decoder: codecs.IncrementalDecoder | _LineByLine | _AsciiLinesFirst | None = None
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
            total += bom[1]
            chunk = chunk[bom[1]:]
        else:
            encoding = utf16_without_bom(chunk)
        if as_bytes is not None and encoding in (None, "utf-8"):
            as_bytes.active, as_bytes.encoding = True, encoding
            return (yield from _as_bytes(chunk, read, chunk_size, as_bytes, total))
        decoder = _decoder(encoding) if encoding else None
        while chunk or (chunk := read(chunk_size)):
            total += len(chunk)
            if decoder is None:
                # isascii is a fast C scan; the regex only runs on chunks that need it
                first = None if chunk.isascii() else _NON_ASCII.search(chunk)
                if first is None:
                    yield _without_nuls(chunk.decode("ascii"))
                    chunk = b""
                    continue
                if first.start():
                    yield _without_nuls(chunk[: first.start()].decode("ascii"))
                chunk = chunk[first.start():]
                encoding = choose_encoding(chunk[:SAMPLE_BYTES])
                decoder = _decoder(encoding)
            text, bad = _decode(decoder, chunk, final=False)
            replaced += bad
            if text:
                yield _without_nuls(text)
            chunk = b""
    except read_errors() as exc:
        error = describe_error(exc)
    if decoder is not None:
        text, bad = _decode(decoder, b"", final=True)
        replaced += bad
        if text:
            yield _without_nuls(text)
    return DecodeTally(total, replaced, encoding, error)


def _as_bytes(chunk: bytes, read: Callable[[int], bytes], chunk_size: int, decoding: LineDecoding, total: int
              ) -> Generator[str, None, DecodeTally]:
    """``iter_text``'s chunks as bytes: cut where its decoded chunks would be, the encoding chosen
    on the same sample."""
    error: str | None = None
    try:
        while chunk or (chunk := read(chunk_size)):
            total += len(chunk)
            if decoding.encoding is None and not chunk.isascii():
                first = _NON_ASCII.search(chunk).start()    # type: ignore[union-attr]
                if first:
                    yield _without_nuls(chunk[:first].decode("ascii"))
                chunk = chunk[first:]
                decoding.encoding = choose_encoding(chunk[:SAMPLE_BYTES])
            if text := _without_nuls(chunk.decode("latin-1")):
                yield text
            chunk = b""
    except read_errors() as exc:
        error = describe_error(exc)
    return DecodeTally(total, 0, decoding.encoding, error)
