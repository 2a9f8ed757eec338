"""The shapes of values that vary from log to log (an IPv4 address, a timestamp, the characters of
a path), as regex texts defined once for the two places that look for them: the KB's masks, which
name them as ``{ipv4}`` in ``kb/masks.yaml`` so that signatures compare shapes, and ``/export
--redact`` (``repl/redaction_patterns.py``), which hides them in a report. Each shape carries its own
boundaries, so it never matches inside a longer run of digits: a five-part version such as
``24.1.0.3.1`` holds no IPv4 address, and neither side calls it one.
"""

from __future__ import annotations

# Four dotted numbers standing alone: not inside a longer dotted run on either side.
IPV4 = r"(?<![0-9])(?<![0-9]\.)\d{1,3}(?:\.\d{1,3}){3}(?![0-9]|\.[0-9])"
# CANN's 2025-05-12-20:55:44.706.132, ISO 8601 with a zone, and the slashed and spaced forms between.
TIMESTAMP = (r"(?<![0-9])\d{4}[-/]\d{2}[-/]\d{2}[-T ]\d{2}:\d{2}:\d{2}(?:[.,:]\d{1,9}){0,3}"
             r"(?:Z|[+-]\d{2}:?\d{2})?(?![0-9])")
# A character of a file or folder name as logs print paths (a glob's * included).
PATH_CHAR = r"[\w.@+*-]"

SHAPES: dict[str, str] = {"ipv4": IPV4, "timestamp": TIMESTAMP, "path_char": PATH_CHAR}
