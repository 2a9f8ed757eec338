"""Writing for people: Markdown rendered in a terminal, plain Markdown when piped, and tables.

rich is imported only when the stream may be a terminal: piped output (scripts, CI, ``| less``)
is plain text and costs nothing to start.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

from .safe_text import one_line, printable

if TYPE_CHECKING:
    from rich.console import Console


def _may_be_terminal(stream: TextIO) -> bool:
    """False only where rich would certainly not treat ``stream`` as a terminal."""
    if os.environ.get("FORCE_COLOR") is not None or os.environ.get("TTY_COMPATIBLE") == "1":
        return True
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def console_for(stream: TextIO) -> Console | None:
    """A rich console for ``stream`` when it is a terminal, else None (write plain text)."""
    if not _may_be_terminal(stream):
        return None
    from rich.console import Console

    # NO_COLOR (no-color.org) and pipes get plain text; rich already honours NO_COLOR and isatty.
    console = Console(file=stream, soft_wrap=False, highlight=False,
                      force_terminal=None if os.environ.get("FORCE_COLOR") is None else True)
    return console if console.is_terminal else None


def print_markdown(text: str, stream: TextIO | None = None, paged: bool = False) -> None:
    """``text`` rendered on ``stream`` (standard output as it is at the call) when a terminal, else as it is.
    ``paged``: on a terminal, text longer than the screen goes through the pager (render/pager.py).
    Control characters in ``text`` are shown, never sent to the terminal (render/safe_text.py)."""
    stream = stream or sys.stdout
    text = printable(text)
    console = console_for(stream)
    if console is None:
        stream.write(text)
        return
    from rich.markdown import Markdown

    rendered = Markdown(text, code_theme="ansi_dark")
    if not paged:
        console.print(rendered)
        return
    from .pager import page

    with console.capture() as captured:
        console.print(rendered)
    page(captured.get(), stream, console.size.height)


def print_table(headers: Sequence[str], rows: Sequence[Sequence[str]], stream: TextIO | None = None) -> None:
    """A table on ``stream`` (standard output as it is at the call): tab-separated when piped, each
    cell on one line with its control characters shown."""
    stream = stream or sys.stdout
    rows = [[one_line(cell) for cell in row] for row in rows]
    console = console_for(stream)
    if console is None:
        stream.write("\t".join(headers) + "\n")
        stream.writelines("\t".join(row) + "\n" for row in rows)
        return
    from rich.table import Table
    from rich.text import Text

    table = Table(*headers, header_style="bold", show_lines=False)
    for row in rows:
        table.add_row(*map(Text, row))     # as written: a '[' in a KB title is no rich markup
    console.print(table)
