"""Log ingestion: pasted text, files, directories and archives to LogRecords.

The names below are the package's public API. Each is imported from its module when first used
(PEP 562), so that a module that needs one record type does not import the whole reader.
"""

from __future__ import annotations

import importlib
from typing import Any

_MODULE_OF = {
    "InputSpec": "inputs", "LogPath": "inputs", "Paste": "inputs", "Stdin": "inputs",
    "DEFAULT_LIMITS": "limits", "ReadLimits": "limits",
    "LogReader": "reader", "read_records": "reader",
    "LogRecord": "records", "Origin": "records", "RecordKind": "records",
    "InputStats": "stats", "SkippedFile": "stats",
}

__all__ = sorted(_MODULE_OF)  # noqa: PLE0605 - the names the lazy loader below gives


def __getattr__(name: str) -> Any:
    if name not in _MODULE_OF:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_MODULE_OF[name]}"), name)
