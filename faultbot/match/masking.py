"""Masking the variable parts of a log message, Drain3-style, so that signatures compare shapes.

The masks are data: an ordered table of (pattern, token). The same function masks KB signatures
and log records, so an example value written in a signature never has to equal the log's value.
"""

from __future__ import annotations

import re

MASK = "<*>"

# Order matters: wider shapes first (a timestamp before the numbers inside it).
_MASKS: tuple[tuple[str, str], ...] = (
    (r"\d{4}-\d{2}-\d{2}[-T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,6}){0,2}", "<TS>"),      # CANN / ISO time
    (r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) +\d{1,2} "
     r"\d{2}:\d{2}:\d{2} \d{4}\b", "<TS>"),                                         # ctime
    # IPs, also as users mask them (xx.xx.xx.199, 10.*.*.*) and as HCCL group names (IP%ifname_port_...)
    (r"(?<![\d.])(?:\d{1,3}|x{1,3}|\*)(?:\.(?:\d{1,3}|x{1,3}|\*)){3}(?:%\w+)?(?!\d)", "<IP>"),
    (r"(?<![\w/])(?:/[\w.@+-]{1,80}){2,}", "<PATH>"),
    (r"\b0x[0-9a-fA-F]+\b", "<HEX>"),
    (r"(?<=\()\d+(?=,)", "<PID>"),
    (r"(?<![A-Za-z\d])\d+(?:\.\d+)?", "<NUM>"),   # not inside words such as float32 or EI0002
)
_COMPILED = tuple((re.compile(pattern), token) for pattern, token in _MASKS)
_SPACES = re.compile(r"\s+")


def mask(message: str) -> str:
    """``message`` with its variable parts replaced by typed placeholders and spaces folded."""
    for pattern, token in _COMPILED:
        message = pattern.sub(token, message)
    return _SPACES.sub(" ", message).strip()


_PLACEHOLDER = re.compile(r"<(?:TS|IP|PATH|HEX|PID|NUM|\*)>")


def literal_runs(masked: str) -> list[str]:
    """The literal stretches of a masked message, longest first (candidates for prefilter anchors)."""
    runs = [run.strip(" ,.:;[](){}") for run in _PLACEHOLDER.split(masked)]
    return sorted((run for run in runs if len(run) >= 4), key=len, reverse=True)
