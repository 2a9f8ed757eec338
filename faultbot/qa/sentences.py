"""A Markdown passage cut into the sentences answers are made of: table rows read "header: cell",
shell blocks stay with the sentence that introduces them, and so do log examples, which are not
shown but tell which sentence introduces a log line a question quotes."""

from __future__ import annotations

import re

import msgspec
from msgspec.structs import replace

# The end of a sentence: . ! ? (closing marks may follow) and a space before a capital, or a Chinese stop.
_SENTENCE_END = re.compile(r"[.!?][*_`)\]\"”’]*\s+(?=[A-Z0-9`*(\"“\[])|[。！？；]")
_ITEM = re.compile(r"^\s*(?:[-*+]|\d+\.)\s+")
INLINE_CODE = re.compile(r"`([^`\n]+)`")    # its text: what the article quotes, a log message among them
_FENCE = re.compile(r"^\s*(```+|~~~+)\s*([\w-]*)")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")
SHELL_LANGUAGES = frozenset({"bash", "sh", "shell", "console", "zsh"})
KEY_TERMS_PREFIX = "**Key terms (zh):**"


class Sentence(msgspec.Struct, frozen=True):
    text: str                        # Markdown, inline formatting kept
    block: int                       # the paragraph, list item or table row it comes from
    bullet: bool = False             # the first sentence of a list item
    row: bool = False                # a table row
    commands: tuple[str, ...] = ()   # a shell block right after it
    shows: tuple[str, ...] = ()      # the lines of a log example (any other block) right after it


def _split(text: str) -> list[str]:
    """``text`` cut at its sentence ends, but not inside inline code (a quoted log message's own
    full stops: `RuntimeError: NPU out of memory. Tried to allocate ...`)."""
    text = " ".join(text.split())
    quoted = [found.span() for found in INLINE_CODE.finditer(text)]
    parts, start = [], 0
    for end in _SENTENCE_END.finditer(text):
        if any(first < end.start() < last - 1 for first, last in quoted):
            continue
        parts.append(text[start:end.end()].strip())
        start = end.end()
    parts.append(text[start:].strip())
    return [part for part in parts if part]


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


class _Reader:
    def __init__(self) -> None:
        self.sentences: list[Sentence] = []
        self.block = 0
        self.pending: list[str] = []
        self.bullet = False

    def flush(self) -> None:
        if self.pending:
            for position, text in enumerate(_split(" ".join(self.pending))):
                self.sentences.append(Sentence(text, self.block, self.bullet and position == 0))
            self.block += 1
        self.pending, self.bullet = [], False

    def attach(self, commands: list[str], shown: list[str]) -> None:
        self.flush()
        if self.sentences and (commands or shown):
            last = self.sentences[-1]
            self.sentences[-1] = replace(last, commands=last.commands + tuple(commands), shows=last.shows + tuple(shown))


def sentences(markdown: str) -> list[Sentence]:
    reader = _Reader()
    lines = markdown.split("\n")
    header: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        fence = _FENCE.match(line)
        if fence:
            body = []
            while index < len(lines) and not lines[index].strip().startswith(fence.group(1)):
                body.append(lines[index].strip())
                index += 1
            index += 1
            block = [b for b in body if b]
            shell = fence.group(2) in SHELL_LANGUAGES
            reader.attach(block if shell else [], [] if shell else block)
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", KEY_TERMS_PREFIX)):
            reader.flush()
            header = [] if not stripped.startswith("|") else header
            continue
        if stripped.startswith("|"):
            reader.flush()
            if _TABLE_RULE.match(stripped):
                continue
            if not header:
                header = _cells(stripped)
                continue
            row = "; ".join(f"{name}: {cell}" if name else cell for name, cell in zip(header, _cells(stripped)))
            reader.sentences.append(Sentence(row, reader.block, row=True))
            reader.block += 1
            continue
        header = []
        if _ITEM.match(line):
            reader.flush()
            reader.bullet = True
            reader.pending.append(_ITEM.sub("", line))
        else:
            reader.pending.append(stripped)
    reader.flush()
    return reader.sentences
