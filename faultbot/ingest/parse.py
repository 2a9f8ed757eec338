"""One piece of text to its kind and header fields, choosing parsers by the piece's first
character so that each piece meets only the regexes that could match it."""

from __future__ import annotations

from collections.abc import Callable

from faultbot.ingest.fields import Parsed
from faultbot.ingest.freetext import parse_text
from faultbot.ingest.plog import parse_headless, parse_plog
from faultbot.ingest.screen import parse_code_header, parse_screen, parse_torch_npu
from faultbot.ingest.traceback import parse_start

Parser = Callable[[str], "Parsed | None"]

# "[ERROR] HCCL(...", "[ERROR] 2024-... (PID:...", "[PID: 1] ..."
_BRACKETED: tuple[Parser, ...] = (parse_plog, parse_torch_npu, parse_screen)
# "Traceback (most...", "EI0002: ...", "Config_Error_Invalid_Environment_Variable(EI0001): ..."
_CAPITALISED: tuple[Parser, ...] = (parse_start, parse_code_header)
# A plog line whose header start was cut off can start with anything.
_FALLBACK: tuple[Parser, ...] = (parse_headless,)


def parse_piece(text: str) -> Parsed:
    lead = text[:1]
    specific = _BRACKETED if lead == "[" else _CAPITALISED if lead.isupper() else ()
    for parser in specific + _FALLBACK:
        parsed = parser(text)
        if parsed is not None:
            return parsed
    return parse_text(text)
