"""Non-ASCII text read as ASCII, one character for one, for the line prefilter's scan.

Full-width punctuation reads as its ASCII counterpart (faultbot/fullwidth.py), any other non-ASCII
character as a NUL. A pattern that can match only ASCII characters other than NUL and newline
(``matches_ascii_only``, ``is_ascii_literal``) finds on a line read so exactly what it finds on
the line itself or on the line with its full-width punctuation read as ASCII, at the same offsets.
So a Chinese-locale log is scanned once, as ASCII, with no conversion of offsets from UTF-8 bytes
back to characters and no second scan of the lines that hold full-width characters. Its skeleton
(``ascii_skeleton``, the other characters dropped) is cheaper still, and holds every such match too.
"""

from __future__ import annotations

import codecs
import string

from faultbot.fullwidth import FULL_WIDTH, as_ascii_punctuation

# UTF-8 read one byte a character: a lead byte as a NUL, continuation bytes dropped
_LEAD_AS_NUL = bytes(range(0x80)) + b"\x00" * 0x80
_CONTINUATION = bytes(range(0x80, 0xC0))


def read_as_ascii(text: str) -> str:
    """``text`` read as ASCII (see the module's description); as long as ``text``."""
    if text.isascii():
        return text
    # the few full-width characters by a regex, the rest by byte tables in C: a Python call per
    # stretch of Chinese text costs more than all of this
    utf8 = as_ascii_punctuation(text).encode("utf-8", "surrogatepass")
    return utf8.translate(_LEAD_AS_NUL, _CONTINUATION).decode("ascii")


# A charmap codec's table: ASCII as itself, the full-width characters as the bytes after it, which
# _SKELETON_ASCII then reads as their ASCII counterparts; other characters are not in it.
_SKELETON_MAP = codecs.charmap_build("".join(map(chr, range(0x80))) + "".join(map(chr, FULL_WIDTH)))
_SKELETON_ASCII = bytes(range(0x80)) + bytes(ord(ascii) if isinstance(ascii, str) else ascii
                                               for ascii in FULL_WIDTH.values()).ljust(0x80, b"\x00")


def ascii_skeleton(text: str) -> bytes:
    """``text`` read as ASCII with its other non-ASCII characters dropped rather than read as NULs,
    in one pass in C (a charmap codec). Dropping joins what surrounded them, so a pattern may match
    it where it does not match ``read_as_ascii(text)``, but every match there (of a pattern that
    matches ASCII alone) is here too, on the line of the same number: a cheap first look."""
    return codecs.charmap_encode(text, "ignore", _SKELETON_MAP)[0].translate(_SKELETON_ASCII)


def is_ascii_literal(literal: str) -> bool:
    """Whether ``literal`` is ASCII and holds neither a NUL nor a newline."""
    return literal.isascii() and "\x00" not in literal and "\n" not in literal


def matches_ascii_only(regex: str) -> bool:
    """Whether every character ``regex`` can match is ASCII, neither NUL nor a newline, as every
    engine reads it. A conservative reading of its text: a dot, a negated class, a class escape
    (``\\w``), an anchor, a lookaround or a character in a class that is not printable ASCII all
    answer False."""
    position, in_class = 0, False
    while position < len(regex):
        character, following = regex[position], regex[position + 1:position + 2]
        if not character.isascii() or character in "\x00\n" or (in_class and not character.isprintable()):
            return False
        if character == "\\":
            if following == "x" and not in_class:    # \xHH: one character, which must qualify too
                code = regex[position + 2:position + 4]
                if len(code) < 2 or not all(digit in string.hexdigits for digit in code):
                    return False
                if not is_ascii_literal(chr(int(code, 16))):
                    return False
                position += 4
                continue
            if not following.isascii() or not following or following.isalnum():
                return False
            position += 2
            continue
        if in_class:
            in_class = character != "]"
        elif character == "[":
            if following in ("^", "]"):
                return False
            in_class = True
        elif character in ".^$" or (character == "(" and following == "?" and regex[position + 2:position + 3] != ":"):
            return False
        position += 1
    return not in_class
