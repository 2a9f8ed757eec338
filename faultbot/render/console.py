"""Writing for people: Markdown rendered in a terminal, plain Markdown when piped, and tables."""

from __future__ import annotations

import os
import sys
from typing import Sequence, TextIO

from rich.console import Console
from rich.markdown import Markdown
from rich.table import Table


def console_for(stream: TextIO) -> Console:
    # NO_COLOR (no-color.org) and pipes get plain text; rich already honours NO_COLOR and isatty.
    return Console(file=stream, soft_wrap=False, highlight=False,
                   force_terminal=None if os.environ.get("FORCE_COLOR") is None else True)


def print_markdown(text: str, stream: TextIO = sys.stdout) -> None:
    console = console_for(stream)
    if console.is_terminal:
        console.print(Markdown(text, code_theme="ansi_dark"))
    else:
        stream.write(text)


def print_table(headers: Sequence[str], rows: Sequence[Sequence[str]], stream: TextIO = sys.stdout) -> None:
    console = console_for(stream)
    if not console.is_terminal:
        stream.write("\t".join(headers) + "\n")
        stream.writelines("\t".join(row) + "\n" for row in rows)
        return
    table = Table(*headers, header_style="bold", show_lines=False)
    for row in rows:
        table.add_row(*row)
    console.print(table)
