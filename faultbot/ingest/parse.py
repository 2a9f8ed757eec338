"""One piece of text to its kind and header fields, choosing parsers by the piece's first
character so that each piece meets only the regexes that could match it."""

from __future__ import annotations

from collections.abc import Callable

from faultbot.ingest import freetext, plog, screen, traceback
from faultbot.ingest.fields import Parsed

Parser = Callable[[str], "Parsed | None"]

# "[ERROR] HCCL(...", "[ERROR] 2024-... (PID:...", "[PID: 1] ..."
_BRACKETED: tuple[Parser, ...] = (plog.parse_plog, screen.parse_torch_npu, screen.parse_screen)
# "Traceback (most...", "EI0002: ...", "Config_Error_Invalid_Environment_Variable(EI0001): ..."
_CAPITALISED: tuple[Parser, ...] = (traceback.parse_start, screen.parse_code_header)
# A plog line whose header start was cut off can start with anything.
_FALLBACK: tuple[Parser, ...] = (plog.parse_headless,)


def parse_piece(text: str) -> Parsed:
    lead = text[:1]
    specific = _BRACKETED if lead == "[" else _CAPITALISED if lead.isupper() else ()
    for parser in specific + _FALLBACK:
        parsed = parser(text)
        if parsed is not None:
            return parsed
    return freetext.parse_text(text)
