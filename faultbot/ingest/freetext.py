"""Free-text lines: other logging styles' headers (glog, torch c10) parsed into level, time and
source fields, otherwise just a timestamp when one leads the line."""

from __future__ import annotations

import re

from msgspec.structs import replace

from faultbot.ingest.fields import Parsed, level_name, small_int
from faultbot.ingest.grammar import TORCH_NPU_CODE
from faultbot.ingest.records import RecordKind
from faultbot.ingest.timestamps import find_timestamp, make_datetime

_TIME = r"(?P<hour>[0-9]{2}):(?P<minute>[0-9]{2}):(?P<second>[0-9]{2})(?:\.(?P<fraction>[0-9]{1,9}))?"
_SOURCE = r"(?P<file>[^\s:\]]{1,200}):(?P<line>[0-9]{1,9})"


# Logging styles' line headers. Groups a style may define: level, year, month, day, the time
# parts, tid, file, line. A header without a year yields no timestamp (see timestamps).
_STYLES: tuple[re.Pattern[str], ...] = (
    # glog: I20251111 12:28:58.490254  1234 file.cc:42] message (older glog omits the year)
    re.compile(
        r"(?P<level>[IWEF])(?P<year>[0-9]{4})?(?P<month>[0-9]{2})(?P<day>[0-9]{2}) " + _TIME
        + r"(?: +(?P<tid>[0-9]{1,10}) " + _SOURCE + r"\])? ?",
        re.ASCII,
    ),
    # torch c10: [W723 10:35:57.462083519 ProcessGroupNCCL.cpp:4115] / [E ProcessGroupHCCL.cpp:12]
    re.compile(
        r"\[(?P<level>[IWEF])(?:(?P<month>[0-9]{1,2})(?P<day>[0-9]{2}) " + _TIME + r")?"
        r"(?: (?:(?P<tid>[0-9]{1,10}) )?" + _SOURCE + r")?\] ?",
        re.ASCII,
    ),
)

_TORCH_NPU_CODE = re.compile(rf"\b{TORCH_NPU_CODE}\b", re.ASCII)


def _styled(text: str) -> Parsed | None:
    for style in _STYLES:
        match = style.match(text)
        if match is None:
            continue
        fields = match.groupdict()
        timestamp = (
            make_datetime(
                fields["year"], fields["month"], fields["day"],
                fields["hour"], fields["minute"], fields["second"], fields["fraction"] or "",
            )
            if fields.get("year") and fields.get("hour")
            else None
        )
        return Parsed(
            kind=RecordKind.TEXT,
            message=text[match.end():].strip(),
            level=level_name(fields["level"]),
            timestamp=timestamp,
            src_file=fields.get("file"),
            src_line=small_int(fields.get("line")),
            tid=small_int(fields.get("tid")),
        )
    return None


def parse_text(text: str) -> Parsed:
    """Any text: never fails."""
    styled = _styled(text) if text[:1] in _STYLE_LEADS else None
    parsed = styled or Parsed(
        kind=RecordKind.TEXT, message=text.strip(), timestamp=find_timestamp(text)
    )
    if "ERR" in text:
        # torch_npu's "RuntimeError: ... ERR02200 DIST call hccl api failed." names its error code.
        code = _TORCH_NPU_CODE.search(text)
        if code:
            return replace(parsed, kind=RecordKind.ERROR_CODE_HEADER, error_code=code.group())
    return parsed


# First characters a styled header can start with: skips the style regexes for most lines.
_STYLE_LEADS = frozenset("IWEF[")
