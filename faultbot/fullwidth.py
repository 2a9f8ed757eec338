"""Full-width punctuation as Chinese-locale logs and pastes carry it, and its ASCII reading: one
table for normalising records, reading KB signatures and anchors, and prefiltering lines."""

from __future__ import annotations

import re

# Full-width forms U+FF01..U+FF5E are ASCII shifted by 0xFEE0 (what NFKC does for that range);
# the brackets and space below have no compatibility mapping but mean the same in logs.
FULL_WIDTH = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {
    0x3000: " ",   # ideographic space
    0x3010: "[",   # 【
    0x3011: "]",   # 】
}

# Characters that normalisation turns into ASCII: a line holding one may hold an anchor once cleaned.
FULL_WIDTH_CHARACTERS = tuple(map(chr, FULL_WIDTH))
_ASCII_OF = {chr(code): chr(ascii) if isinstance(ascii, int) else ascii for code, ascii in FULL_WIDTH.items()}
# str.translate looks every character of a Chinese line up in its table; a regex finds the few
# full-width ones several times faster.
_ANY_FULL_WIDTH = re.compile("[" + "".join(map(re.escape, FULL_WIDTH_CHARACTERS)) + "]")


def as_ascii_punctuation(text: str) -> str:
    """``text`` as faultbot reads a log line: full-width punctuation as its ASCII counterpart."""
    return text if text.isascii() else _ANY_FULL_WIDTH.sub(lambda found: _ASCII_OF[found.group()], text)


def full_width_in(text: str) -> str:
    """The full-width characters of ``text``, in order, each once."""
    return "".join(dict.fromkeys(c for c in text if ord(c) in FULL_WIDTH))
