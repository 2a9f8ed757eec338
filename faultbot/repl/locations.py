"""Where the chat keeps its files: under $XDG_DATA_HOME/faultbot (default ~/.local/share/faultbot)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path


def data_dir(environ: Mapping[str, str] = os.environ) -> Path:
    base = environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "faultbot"


def history_file(environ: Mapping[str, str] = os.environ) -> Path:
    return data_dir(environ) / "history"


def sessions_dir(environ: Mapping[str, str] = os.environ) -> Path:
    return data_dir(environ) / "sessions"
