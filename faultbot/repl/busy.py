"""The terminal while the chat works on an input: what the engineer pastes meanwhile is kept as
one input for the next prompt (bracketed paste stays on, echo off), and after Ctrl-C what was
typed ahead is dropped with the input that was cancelled."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import TextIO

try:
    import termios
except ImportError:           # not a POSIX terminal: nothing to keep or drop
    termios = None  # type: ignore[assignment]

BRACKETED_PASTE_ON = "\x1b[?2004h"


def _terminal(stream: TextIO) -> int | None:
    try:
        return stream.fileno() if termios is not None and stream.isatty() else None
    except (AttributeError, ValueError, OSError):
        return None


@contextlib.contextmanager
def busy(stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout) -> Iterator[None]:
    """While the body runs: the terminal brackets pastes (so a multi-line paste reaches the next
    prompt whole, not as one input per line) and does not echo them over the output."""
    fd = _terminal(stdin)
    if fd is None:
        yield
        return
    saved = termios.tcgetattr(fd)
    quiet = termios.tcgetattr(fd)
    quiet[3] &= ~termios.ECHO
    try:
        termios.tcsetattr(fd, termios.TCSANOW, quiet)
        if stdout.isatty():
            stdout.write(BRACKETED_PASTE_ON)
            stdout.flush()
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)


def drop_typeahead(stdin: TextIO = sys.stdin) -> None:
    """Forget input that arrived while the cancelled work ran."""
    fd = _terminal(stdin)
    if fd is not None:
        termios.tcflush(fd, termios.TCIFLUSH)
