"""Continuing a session: its recorded changes replayed into a fresh chat, and its earlier turns
shown the way they went."""

from __future__ import annotations

from typing import Sequence

from ..engine.answers import AnswerError
from .chat import Chat
from .transcript import Record

FIRST_LINE = 100


def replay(chat: Chat, records: Sequence[Record]) -> list[str]:
    """Apply ``records``' pastes, paths read, answers, undos, resets and cancelled inputs to ``chat``; the answers that
    no longer fit the knowledge base, and paths that can no longer be read, are skipped and returned."""
    said: dict[int, str] = {}
    changes_before: dict[int, int] = {}     # how many changes there were when each input was said
    skipped = []
    for record in records:
        if record.kind == "said":
            said[record.seq] = record.get("text")
            changes_before[record.seq] = len(chat.changes)
        elif record.kind == "cancelled":
            while len(chat.changes) > changes_before.get(record.get("of", -1), len(chat.changes)):
                chat.apply_undo()
        elif record.kind == "paste":
            chat.apply_paste(said.get(record.get("of", -1), ""), record.get("label") or "<paste>")
        elif record.kind == "described":
            chat.apply_description(said.get(record.get("of", -1), ""))
        elif record.kind == "read":
            try:
                chat.apply_read(record.get("path"))
            except OSError as error:
                skipped.append(f"cannot read {record.get('path')} again: {error.strerror or error}")
        elif record.kind == "answer":
            try:
                chat.apply_answer(record.get("fact"), record.get("text"), record.get("question"), record.get("why"))
            except AnswerError as error:
                skipped.append(str(error))
        elif record.kind == "undo":
            chat.apply_undo()
        elif record.kind == "reset":
            chat.apply_reset()
    return skipped


def _first_line(text: str) -> str:
    """The first line of a turn as plain words: Markdown heading and emphasis marks left out."""
    lines = [line.lstrip("#> ").replace("**", "") for line in text.strip().split("\n")]
    first = lines[0] if len(lines[0]) <= FIRST_LINE else lines[0][:FIRST_LINE] + " …"
    return first + (f" *(+{len(lines) - 1} lines)*" if len(lines) > 1 else "")


def earlier_turns(records: Sequence[Record]) -> str:
    """What was said and answered, a line each, as Markdown."""
    lines = []
    for record in records:
        if record.kind == "said":
            lines.append(f"- **you:** `{_first_line(record.get('text')).replace('`', '')}`")
        elif record.kind == "reply":
            lines.append(f"  **faultbot:** {_first_line(record.get('text'))}")
    return "\n".join(lines) or "Nothing was said in that session yet."
