"""Text from outside faultbot made safe to print: file and node names, log lines, KB text and what
an engineer typed reach a terminal only as visible characters.

Control characters (C0 but newline and tab, DEL, C1 such as ``\\x9b``, the CSI of some terminals)
and the bidirectional overrides are shown as the text ``\\x1b``, ``\\u202e``: an escape sequence in
a file name can neither retitle the window nor clear the screen. Bytes that were not UTF-8 (kept by
Python as lone surrogates) are shown as U+FFFD, so output is always valid UTF-8. Names get more:
a newline or tab in a file name is shown as ``\\n`` or ``\\t``, so it cannot start a Markdown line.
"""

from __future__ import annotations

import re

# What no printed text may carry as is; lone surrogates are undecodable bytes of a file name.
_UNSAFE = "\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_UNSAFE_IN_TEXT = re.compile(f"[{_UNSAFE}]")
_UNSAFE_IN_LINE = re.compile(f"[{_UNSAFE}\t\n]")
# In JSON, json.dumps escapes C0 itself (losslessly); C1, DEL and surrogates it would write raw.
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
_BACKTICKS = re.compile("`+")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xD800 <= code <= 0xDFFF:
        return "\ufffd"
    if code == 0x0A:
        return "\\n"
    if code == 0x09:
        return "\\t"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` with every unsafe character visible; newlines and tabs kept (a document, a log line)."""
    return _UNSAFE_IN_TEXT.sub(_visible, text)


def one_line(text: object) -> str:
    """``text`` on one line with every unsafe character visible, newlines and tabs too (a name)."""
    return _UNSAFE_IN_LINE.sub(_visible, str(text))


def code_span(text: object) -> str:
    """``text`` as one Markdown code span, whatever backticks it holds (CommonMark's rule: a fence
    of more backticks than any run inside, padded when it starts or ends with one)."""
    shown = one_line(text)
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(shown)), default=0) + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def table_cell(text: object) -> str:
    """``text`` for a Markdown table cell: on one line, its bars unable to end the cell."""
    return one_line(text).replace("|", "\\|")


def fenced_block(text: str, indent: str = "", info: str = "text") -> list[str]:
    """``text`` as a fenced code block (a fence no line of it can close), each line indented."""
    shown = printable(text).split("\n")
    longest = max((len(run) for line in shown for run in _BACKTICKS.findall(line)), default=0)
    fence = "`" * max(3, longest + 1)
    return [f"{indent}{fence}{info}", *(f"{indent}{line}" for line in shown), f"{indent}{fence}"]


def json_safe(value: object) -> object:
    """``value`` (dicts, lists, strings, numbers) with strings json.dumps(ensure_ascii=False)
    would write unsafely (C1 controls, DEL, undecodable bytes) made visible."""
    if isinstance(value, str):
        return value if value.isascii() and "\x7f" not in value else _UNSAFE_IN_JSON.sub(_visible, value)
    if isinstance(value, dict):
        return {json_safe(key): json_safe(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(item) for item in value]
    return value
