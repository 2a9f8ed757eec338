"""Errors printed to the screen: CANN's ``[PID: n] time Title(EI0012): ...`` lines, error-code
headers as torch_npu relays them (``EI0002: [PID: n] ...``, ``EZ9999: Inner Error!``) and
torch_npu's own ``[ERROR] time (PID:n, Device:d, RankID:r) ERR02200 ...`` lines."""

from __future__ import annotations

import re

from faultbot.ingest.fields import Parsed, level_name, small_int
from faultbot.ingest.grammar import ERROR_CODE, PLOG_TIME, TORCH_NPU_CODE
from faultbot.ingest.records import RecordKind
from faultbot.ingest.timestamps import find_timestamp, plog_time

# The title ("Execution_Error_SDMA", "Execution Error ROCE CQE") stays in the message: it is the
# keyword the HCCL documentation tells engineers to search for.
_SCREEN = re.compile(
    rf"\[PID: ?(?P<pid>[0-9]{{1,10}})\] (?P<time>{PLOG_TIME}) "
    rf"(?P<message>(?:[^()\[\]]{{1,80}}?\((?P<code>{ERROR_CODE})\): )?.*)",
    re.ASCII | re.DOTALL,
)

_CODE_HEADER = re.compile(
    rf"(?P<code>{ERROR_CODE}): (?:\[PID: ?(?P<pid>[0-9]{{1,10}})\] )?(?:(?P<time>{PLOG_TIME}) )?"
    r"(?P<message>.*)",
    re.ASCII | re.DOTALL,
)

# "Config_Error_Invalid_Environment_Variable(EI0001): Value 1000 ..." without the [PID: n] part.
_TITLED_CODE = re.compile(
    rf"[A-Z][A-Za-z]*(?:_[A-Za-z]+)+\((?P<code>{ERROR_CODE})\): ", re.ASCII
)

_TORCH_NPU = re.compile(
    r"\[(?P<level>ERROR|WARNING|WARN|INFO)\] (?P<time>[0-9]{4}-[0-9]{2}-[0-9]{2}-[0-9:.]{8,16}) "
    r"\(PID:(?P<pid>[0-9]{1,10}), Device:(?P<device>-?[0-9]{1,6}), RankID:(?P<rank>-?[0-9]{1,9})\)\.? "
    rf"(?:(?P<code>{TORCH_NPU_CODE}) )?(?P<message>.*)",
    re.ASCII | re.DOTALL,
)


def parse_screen(text: str) -> Parsed | None:
    match = _SCREEN.match(text)
    if match is None:
        return None
    return Parsed(
        kind=RecordKind.SCREEN,
        message=match.group("message").strip(),
        pid=small_int(match.group("pid")),
        timestamp=plog_time(match.group("time")),
        error_code=match.group("code"),
    )


def parse_code_header(text: str) -> Parsed | None:
    match = _CODE_HEADER.match(text)
    if match is None:
        titled = _TITLED_CODE.match(text)
        if titled is None:
            return None
        return Parsed(
            kind=RecordKind.ERROR_CODE_HEADER, message=text.strip(), error_code=titled.group("code")
        )
    time = match.group("time")
    return Parsed(
        kind=RecordKind.ERROR_CODE_HEADER,
        message=match.group("message").strip(),
        pid=small_int(match.group("pid")),
        timestamp=plog_time(time) if time else None,
        error_code=match.group("code"),
    )


def parse_torch_npu(text: str) -> Parsed | None:
    match = _TORCH_NPU.match(text)
    if match is None:
        return None
    # Negative ids mean "not known yet" (RankID:-1 before the process group exists).
    device = int(match.group("device"))
    rank = int(match.group("rank"))
    return Parsed(
        kind=RecordKind.ERROR_CODE_HEADER,
        message=match.group("message").strip(),
        level=level_name(match.group("level")),
        pid=small_int(match.group("pid")),
        timestamp=find_timestamp(match.group("time")),
        error_code=match.group("code"),
        device=device if device >= 0 else None,
        rank=rank if rank >= 0 else None,
    )
