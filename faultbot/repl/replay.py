"""Continuing a session: its recorded changes replayed into a fresh chat, and its earlier turns
shown the way they went."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.answers import AnswerError
from .chat import Chat
from .transcript import Record

FIRST_LINE = 100
UNDONE = ("cancelled", "refused")     # records saying an input changed nothing after all


def _apply(chat: Chat, kind: str, data: Mapping[str, Any], said: str) -> str:
    """Make one recorded change (``said``: the input it came with); why it was skipped, or ""."""
    if kind == "paste":
        chat.apply_paste(said.strip(), data.get("label") or "<paste>")     # as classify gave it, live
    elif kind == "read":
        try:
            chat.apply_read(data.get("path", ""))
        except OSError as error:
            return f"cannot read {data.get('path')} again: {error.strerror or error}"
    elif kind == "answer":
        try:
            chat.apply_answer(data.get("fact", ""), data.get("text") or said.strip(), data.get("question", ""),
                              data.get("why", ""))
        except AnswerError as error:
            return str(error)
    return ""


def replay(chat: Chat, records: Sequence[Record]) -> list[str]:
    """Apply ``records``' pastes, paths read, answers, undos, resets and cancelled inputs to ``chat``; the answers that
    no longer fit the knowledge base, and paths that can no longer be read, are skipped and returned."""
    undone = {record.get("of", -1) for record in records if record.kind in UNDONE}
    said: dict[int, str] = {}
    steps_before: dict[int, int] = {}     # how many session steps there were when each input was said
    skipped = []
    for record in records:
        reason = ""
        if record.kind == "said":
            said[record.seq] = record.get("text")
            steps_before[record.seq] = len(chat.session.steps)
            change = record.get("change", None)
            if isinstance(change, dict) and record.seq not in undone:
                reason = _apply(chat, change.get("kind", ""), change, record.get("text"))
        elif record.kind == "cancelled":
            steps = chat.session.steps
            while len(steps) > steps_before.get(record.get("of", -1), len(steps)):
                chat.apply_undo()
        elif record.kind in ("paste", "read", "answer"):
            reason = _apply(chat, record.kind, record.data, said.get(record.get("of", -1), ""))
        elif record.kind == "described":
            chat.apply_description(said.get(record.get("of", -1), ""))
        elif record.kind == "undo":
            chat.apply_undo()
        elif record.kind == "reset":
            chat.apply_reset()
        if reason:
            skipped.append(reason)
    return skipped


def _first_line(text: str) -> str:
    """The first line of a turn as plain words: Markdown heading and emphasis marks left out."""
    lines = [line.lstrip("#> ").replace("**", "") for line in text.strip().split("\n")]
    first = lines[0] if len(lines[0]) <= FIRST_LINE else lines[0][:FIRST_LINE] + " …"
    return first + (f" *(+{len(lines) - 1} lines)*" if len(lines) > 1 else "")


def earlier_turns(records: Sequence[Record]) -> str:
    """What was said and answered, a line each, as Markdown (control characters are shown when it
    is printed: render/safe_text.py)."""
    lines = []
    for record in records:
        if record.kind == "said":
            lines.append(f"- **you:** `{_first_line(record.get('text')).replace('`', '')}`")
        elif record.kind == "reply":
            lines.append(f"  **faultbot:** {_first_line(record.get('text'))}")
    return "\n".join(lines) or "Nothing was said in that session yet."
