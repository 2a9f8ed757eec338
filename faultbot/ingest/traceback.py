"""Which lines belong to a Python traceback or to a CANN ``TraceBack (most recent call last):``
block, so each becomes one record."""

from __future__ import annotations

import re
from enum import Enum

from faultbot.ingest.fields import Parsed
from faultbot.ingest.grammar import CANN_TRACEBACK, PY_TRACEBACK
from faultbot.ingest.records import RecordKind

_STARTS = ((PY_TRACEBACK, RecordKind.PYTHON_TRACEBACK), (CANN_TRACEBACK, RecordKind.TRACEBACK))

_FRAME = re.compile(r'File "[^"]*", line [0-9]+')
# The closing line of a traceback: "RuntimeError: ...", "torch.distributed.DistBackendError: ...",
# "KeyboardInterrupt".
_EXCEPTION = re.compile(
    r"(?:[A-Za-z_]\w{0,100}\.){0,10}[A-Za-z_]\w{0,100}"
    r"(?:Error|Exception|Exit|Interrupt|Warning|Failure)\b"
    r"|(?:[A-Za-z_]\w{0,100}\.){0,10}[A-Za-z_]\w{0,100}: ",
    re.ASCII,
)
# Lines Python prints inside a traceback without indentation.
_PY_INNER_LEADS = ("[Previous line repeated", "...")

# CANN TraceBack entries end with where they were raised: "...[FUNC:GetError][FILE:stream.cc][LINE:1191]"
_CANN_MARKERS = ("[FUNC:", "[FILE:")


class PyStep(Enum):
    FRAME = "frame"          # File "...", line N, in f
    BODY = "body"            # code, caret markers, "[Previous line repeated ...]"
    EXCEPTION = "exception"  # the exception line: the traceback's last line
    END = "end"              # not part of the traceback


def parse_start(text: str) -> Parsed | None:
    """The first line of either kind of traceback, or None."""
    for lead, kind in _STARTS:
        if text.startswith(lead):
            return Parsed(kind=kind, message=text[len(lead):].strip())
    return None


def python_step(body: str, relative_indent: int, after_frame: bool) -> PyStep:
    """Classify a line following a Python traceback's frames.

    Indentation is the strong signal, but pasted tracebacks often lose it, so a frame line also
    claims the line after it as its code unless that line reads as the exception.
    """
    if body.startswith('File "') and _FRAME.match(body):
        return PyStep.FRAME
    if relative_indent > 0 or body.startswith(_PY_INNER_LEADS):
        return PyStep.BODY
    if _EXCEPTION.match(body):
        return PyStep.EXCEPTION
    return PyStep.BODY if after_frame else PyStep.END


def continues_cann(body: str, indent: int, relative_indent: int) -> bool:
    """Whether a line continues a CANN TraceBack block (indented like it, or shaped like an entry)."""
    return (indent > 0 and relative_indent >= 0) or any(marker in body for marker in _CANN_MARKERS)
