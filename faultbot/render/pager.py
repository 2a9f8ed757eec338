"""Long output for people goes through a pager on a terminal, as pgcli does: the first screen
stays the answer, the rest is a keystroke away, and nothing scrolls out of sight.

Only text longer than the terminal is paged. The pager is ``$FAULTBOT_PAGER``, else ``$PAGER``,
else ``less``; ``less`` runs with ``LESS=-FRX`` unless ``$LESS`` says otherwise (colours kept,
quit at once when the text fits, the text left on the screen after quitting). ``FAULTBOT_PAGER=off``
(or ``--no-pager``) prints directly; so does a pager that cannot be started.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from typing import TextIO

OFF = "off"
LESS_DEFAULT = "-FRX"


def pager_command() -> list[str] | None:
    """The pager to run, or None when paging is off or no pager is installed."""
    chosen = os.environ.get("FAULTBOT_PAGER") or os.environ.get("PAGER") or "less"
    if chosen.strip() in (OFF, "", "cat"):
        return None
    try:
        argv = shlex.split(chosen)
    except ValueError:
        return None
    return argv if argv and shutil.which(argv[0]) else None


def fits_on_screen(text: str, screen_lines: int) -> bool:
    return text.count("\n") + (0 if text.endswith("\n") else 1) <= screen_lines


def page(text: str, stream: TextIO, screen_lines: int) -> None:
    """``text`` (already rendered, escapes and all) on ``stream``, through the pager when it is
    longer than ``screen_lines`` and a pager can be started."""
    argv = None if fits_on_screen(text, screen_lines) else pager_command()
    if argv is None:
        stream.write(text)
        stream.flush()
        return
    env = dict(os.environ)
    env.setdefault("LESS", LESS_DEFAULT)
    stream.flush()
    try:
        pager = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=stream, env=env)
    except OSError:
        stream.write(text)
        return
    try:
        assert pager.stdin is not None
        pager.stdin.write(text.encode(getattr(stream, "encoding", None) or "utf-8", errors="replace"))
        pager.stdin.close()
    except BrokenPipeError:
        pass  # the reader quit the pager before the end: what they did not read is not an error
    finally:
        while True:
            try:
                pager.wait()
                break
            except KeyboardInterrupt:
                continue  # Ctrl-C belongs to the pager (less uses it to stop a search)
