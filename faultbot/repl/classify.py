"""What the engineer's input is: a command, a log paste, the path of a log file or folder, an answer
to the pending question, a failure told in words, or a question for the knowledge base. A pure
function of the text, the pending question, whether the text holds log records and whether it names
an existing path."""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import Enum

import msgspec

from ..engine.answers import is_unknown
from ..engine.questions import Question

MAX_ANSWER_WORDS = 6
_COMMAND = re.compile(r"^/[A-Za-z?]+(?:\s|$)")
_FAILURE = re.compile(
    r"\b(?:hang|hangs|hung|hanging|stuck|freez\w*|crash\w*|fail\w*|errors?|time[ds]?\s?out|timeouts?|"
    r"exit(?:s|ed)?|died|dies|dead|killed|abort\w*|core\s?dump\w*|deadlock\w*|E[A-Z]\d{4})\b"
    r"|卡死|卡住|卡主|挂死|挂住|报错|错误|失败|超时|退出|崩溃|异常|中断|不动", re.I)
# "why" is left out: "why does my job hang" asks for a diagnosis, not for an article.
_QUESTION = re.compile(
    r"^\s*(?:what|how|which|where|when|who|is|are|does|do|can|could|should|explain|define|tell me)\b"
    r"|是什么|什么是|怎么|如何|怎样|哪些|哪个|什么意思|吗[?？]?\s*$", re.I)


class InputKind(str, Enum):
    EMPTY = "empty"
    COMMAND = "command"
    PASTE = "paste"
    PATH = "path"
    ANSWER = "answer"
    DESCRIPTION = "description"
    QUESTION = "question"


class Input(msgspec.Struct, frozen=True):
    kind: InputKind
    text: str        # stripped; for a bare "why" while a question is pending, "/why"


def _answer_shaped(text: str, pending: Question) -> bool:
    """A value: one short line that neither asks nor tells of a failure (a choice always is one)."""
    if is_unknown(text) or text.lower() in (c.lower() for c in pending.choices):
        return True
    return ("\n" not in text and len(text.split()) <= MAX_ANSWER_WORDS and not _FAILURE.search(text)
            and not _QUESTION.search(text) and not text.endswith(("?", "？")))


def classify(text: str, pending: Question | None, holds_log: Callable[[str], bool],
             is_path: Callable[[str], bool] = lambda text: False) -> Input:
    text = text.strip()
    if not text:
        return Input(InputKind.EMPTY, text)
    if _COMMAND.match(text):
        return Input(InputKind.COMMAND, text)
    unquoted = text.strip("'\"")
    if "\n" not in text and is_path(unquoted):
        return Input(InputKind.PATH, unquoted)
    if holds_log(text):
        return Input(InputKind.PASTE, text)
    if pending is not None:
        if text.lower().rstrip("?？") == "why":
            return Input(InputKind.COMMAND, "/why")
        if _answer_shaped(text, pending):
            return Input(InputKind.ANSWER, text)
    if _FAILURE.search(text) and not _QUESTION.search(text):
        return Input(InputKind.DESCRIPTION, text)
    return Input(InputKind.QUESTION, text)
