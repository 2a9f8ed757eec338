"""Ways real pastes and log collections damage log text, each a pure function of the text."""

from __future__ import annotations

import re

_LEVEL_TAG = re.compile(r"\[(ERROR|WARNING|INFO|DEBUG|EVENT)\]")
_IP = re.compile(r"(?<![\w.])([0-9]{1,3}(?:\.[0-9]{1,3}){3})(?![\w])")
# Punctuation and digits an IME turns full-width, and the CJK brackets tickets use.
_FULL_WIDTH = str.maketrans(
    {**{c: chr(ord(c) + 0xFEE0) for c in ":,();={}0123456789"}, "[": "【", "]": "】"}
)


def lines_of(text: str) -> list[str]:
    return text.strip("\n").split("\n")


def glue(text: str) -> str:
    return " ".join(lines_of(text))


def wrap(text: str, width: int = 80) -> str:
    """A terminal's hard wrap: every line cut into pieces of exactly ``width`` characters."""
    return "\n".join(
        line[start:start + width] for line in lines_of(text) for start in range(0, max(len(line), 1), width)
    )


def crlf(text: str) -> str:
    return "\r\n".join(lines_of(text)) + "\r\n"


def ansi(text: str) -> str:
    coloured = _LEVEL_TAG.sub(lambda m: f"\x1b[1;31m{m.group()}\x1b[0m", text)
    return "\n".join(f"\x1b[32m{line}\x1b[0m\x1b[K" for line in lines_of(coloured))


def full_width(text: str) -> str:
    return text.translate(_FULL_WIDTH)


def indent(text: str, by: str = "    ") -> str:
    return "\n".join(by + line for line in lines_of(text))


def prefix(text: str, label: str) -> str:
    return "\n".join(label + line for line in lines_of(text))


def markdown(text: str) -> str:
    """A ticket: fenced, quoted, with Markdown escapes and auto-linked IP addresses."""
    escaped = re.sub(r"([_*\-\\])", r"\\\1", text)
    linked = _IP.sub(lambda m: f"[{m.group(1)}](http://{m.group(1)}/)", escaped)
    quoted = "\n".join("> " + line for line in lines_of(linked))
    return f"```text\n{quoted}\n```\n"


def escape_brackets(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]")


TEXT_DAMAGE = {
    "glue": glue,
    "wrap80": wrap,
    "wrap120": lambda text: wrap(text, 120),
    "crlf": crlf,
    "ansi": ansi,
    "full_width": full_width,
    "indent": indent,
    "markdown": markdown,
    "escaped_brackets": escape_brackets,
    "markdown_indented_wrapped": lambda text: markdown(indent(wrap(text, 100))),
    "everything": lambda text: ansi(full_width(wrap(crlf(indent(text)), 90))),
}
