"""Regex fragments shared by the record splitter and the header parsers.

Both must agree on what a record header looks like, so the fragments live in one place.
"""

from __future__ import annotations

import re

# CANN plog levels; WARN appears in some components' logs next to WARNING.
LEVELS = r"ERROR|WARNING|WARN|INFO|DEBUG|EVENT|TRACE"

# 2025-10-24-11:18:29.597.044 (milliseconds and microseconds as separate groups of three)
PLOG_TIME = r"[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}\.[0-9]{3}"

# CANN error codes are six characters: E, a module letter or digit, four digits (EI0002, E10035).
ERROR_CODE = r"E[0-9A-Z][0-9]{4}"
# torch_npu's own codes: ERR02200 DIST call hccl api failed.
TORCH_NPU_CODE = r"ERR[0-9]{5}"
ANY_ERROR_CODE = re.compile(rf"\b(?:{TORCH_NPU_CODE}|{ERROR_CODE})\b")

PY_TRACEBACK = "Traceback (most recent call last):"
CANN_TRACEBACK = "TraceBack (most recent call last):"

# Record starts. Those opening with "[" are kept without it as well, so that the splitter can
# scan for them with one regex that starts with a literal "[" (much faster than a regex whose
# first character is one of a set).
PLOG_AFTER_BRACKET = rf"(?:{LEVELS})\] ?[A-Za-z_][\w-]*\([0-9]+,"
TORCH_NPU_AFTER_BRACKET = (
    r"(?:ERROR|WARNING|WARN|INFO)\] [0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9]{2}:[0-9]{2}:[0-9]{2}"
    r"(?:\.[0-9]{1,6}){0,2} \(PID:"
)
SCREEN_AFTER_BRACKET = r"PID: ?[0-9]+\] [0-9]{4}-"
BRACKETED_HEAD = rf"\[(?:{PLOG_AFTER_BRACKET}|{TORCH_NPU_AFTER_BRACKET}|{SCREEN_AFTER_BRACKET})"
# Mid-line, an error code only starts a record in the shapes CANN prints it in; at the start of a
# line any "EI0002: " does (see LINE_ONLY_START).
CODE_HEADER_START = rf"{ERROR_CODE}: (?:\[PID:|Inner Error|Internal error|[0-9]{{4}}-)"
TRACEBACK_START = rf"{re.escape(PY_TRACEBACK)}|{re.escape(CANN_TRACEBACK)}"

RECORD_HEAD = f"{BRACKETED_HEAD}|{CODE_HEADER_START}|{TRACEBACK_START}"

# Record starts recognised only at the start of a line: a bare "EI0001: message" and the
# newer "Title_Of_Error(EI0001): message" screen form without the [PID: n] part.
LINE_ONLY_START = rf"{ERROR_CODE}: |[A-Z][A-Za-z]*(?:_[A-Za-z]+)+\({ERROR_CODE}\): "

# Labels launchers and grep put in front of a record: torchrun's "[rank1]: ", "rank1: ", and
# grep's "run/plog/plog-2111667_20251024111652406.log:" (with -n, ":123:" after the path).
RANK_LABEL = r"\[rank[0-9]{1,6}\]: ?|rank ?[0-9]{1,6}: "
GREP_PATH = r"[\w.~/\\-]{1,512}\.(?:log|txt|out)(?:\.[0-9]{1,4})?"
GREP_PREFIX = rf"{GREP_PATH}(?::[0-9]{{1,9}})?:"
