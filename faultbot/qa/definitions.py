"""The names an article section defines, with their definitions: list items that open with a
name (``- `crimer rank`: the root node ...``, ``- **Notify**: usually a timeout ...``), table rows
whose first cell names something (a code, a keyword, an acronym), and acronyms spelled out in
prose (``HCCL (Huawei Collective Communication Library, ...)``)."""

from __future__ import annotations

import re

import msgspec

from .rewording import NAME

MAX_NAME_WORDS = 5
_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d+\.)\s+(.*)$")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}")
_MARKED = r"`[^`\n]+`|\*\*[^*\n]+?\*\*"
# A list item that opens with one or more marked names, then a colon, a dash or a full stop.
_ITEM_HEAD = re.compile(rf"^(?P<head>(?:{_MARKED})(?:\s*(?:,|/|or|and)\s*(?:{_MARKED}))*)"
                        r"(?:\s*\([^)\n]*\))?\s*(?:[:：]|\s[—–]|\.(?=\s)|(?<=\.\*\*)(?=\s))\s*(?P<rest>\S.*)$")
_MARK = re.compile(_MARKED)
_ACRONYM_CELL = re.compile(r"^[A-Z][A-Z0-9]{1,7}$")
_ACRONYM = re.compile(r"\b(?P<short>[A-Z][A-Za-z]{1,7})\s+\((?P<long>[A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*){1,6})"
                      r"(?=[,;)])[^)\n]*\)")
_SENTENCE = re.compile(r"[^.!?。\n]*(?:[.!?。]|$)")


class Definition(msgspec.Struct, frozen=True):
    names: tuple[str, ...]     # as the article writes them
    text: str                  # Markdown: the item, the row or the sentence that defines them
    spelled_out: bool = False  # an acronym spelled out: it answers what the acronym stands for


def _plain(marked: str) -> str:
    return marked.strip("`*").strip().strip("`").rstrip(".").strip()


def _is_name(text: str) -> bool:
    """Words or a code of five digits or more (507034), not a small number or a lone letter, and
    short enough to be what something is called."""
    return (len(text) > 1 and bool(re.search(r"[A-Za-z\u4e00-\u9fff]|^\d{5,}$", text))
            and len(text.split()) <= MAX_NAME_WORDS)


def _items(lines: list[str]) -> list[str]:
    """The list items of a Markdown text, each with its continuation lines, code blocks left out."""
    items: list[str] = []
    current: list[str] | None = None
    fenced = False
    for line in lines:
        if _FENCE.match(line):
            fenced, current = not fenced, None
            continue
        found = _ITEM.match(line) if not fenced else None
        if found:
            current = [found.group(2)]
            items.append("")
        elif current is not None and line.strip() and not fenced and not line.lstrip().startswith(("|", "#")):
            current.append(line.strip())
        else:
            current = None
        if current is not None:
            items[-1] = " ".join(current)
    return items


def _item_definitions(lines: list[str]) -> list[Definition]:
    found = []
    for item in _items(lines):
        head = _ITEM_HEAD.match(item)
        if head:
            names = tuple(n for m in _MARK.findall(head.group("head")) if _is_name(n := _plain(m)))
            if names:
                found.append(Definition(names, item))
    return found


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def _row_names(cell: str) -> tuple[str, ...]:
    """The names a first cell gives: what it marks as code or bold, the codes and variables it
    writes (EI0012), or the cell itself when it is one acronym (LCAL)."""
    marked = [_plain(m) for m in _MARK.findall(cell)]
    bare = _MARK.sub(" ", cell).strip()
    plain = [bare] if _ACRONYM_CELL.match(bare) else NAME.findall(bare) + re.findall(r"\b\d{5,}\b", bare)
    return tuple(dict.fromkeys(n for n in (*marked, *plain) if _is_name(n)))


def _says_something(cell: str) -> bool:
    """A cell in words (vector core execution timed out), not a value (8.0.RC2) with a remark."""
    return len(re.findall(r"[A-Za-z]{2,}|[\u4e00-\u9fff]+", _MARK.sub(" ", re.sub(r"\([^)]*\)", " ", cell)))) >= 2


def _row_definitions(lines: list[str]) -> list[Definition]:
    found, header = [], []
    for line in lines:
        stripped = line.strip()
        if not stripped.startswith("|"):
            header = []
            continue
        if _TABLE_RULE.match(stripped):
            continue
        if not header:
            header = _cells(stripped)
            continue
        cells = _cells(stripped)
        names = _row_names(cells[0]) if cells else ()
        if names and any(_says_something(cell) for cell in cells[1:]):
            text = "; ".join(f"{name}: {cell}" if name else cell for name, cell in zip(header, cells))
            found.append(Definition(names, text))
    return found


def _initials_spell(short: str, long: str) -> bool:
    initials = "".join(word[0] for word in re.split(r"[\s-]+", long) if word).lower()
    return initials.startswith(short.lower()) or initials == short.lower()


def _acronyms(text: str) -> list[Definition]:
    found = []
    for paragraph in re.split(r"\n\s*\n", text):
        prose = " ".join(line for line in paragraph.split("\n") if not line.lstrip().startswith(("|", "```", "#")))
        prose = " ".join(prose.split())
        for match in _ACRONYM.finditer(prose):
            if _initials_spell(match.group("short"), match.group("long")):
                sentence = next((s.strip() for s in _SENTENCE.findall(prose)
                                 if s.strip() and match.group(0) in s), match.group(0))
                found.append(Definition((match.group("short"),), sentence, spelled_out=True))
    return found


def definitions(text: str) -> list[Definition]:
    """What the section ``text`` (its own Markdown) defines, in the order it says it."""
    lines = text.split("\n")
    return _item_definitions(lines) + _row_definitions(lines) + _acronyms(text)
