"""``faultbot`` / ``faultbot chat [--resume]``: the chat REPL; with standard input not a terminal
(``cat plog.log | faultbot``), exactly ``faultbot diagnose -``."""

from __future__ import annotations

import argparse
import sys

from ..kb.loader import load_kb
from .diagnose_command import cmd_diagnose
from .errors import UsageError
from .kb_location import kb_paths
from .parser import diagnose_arguments


def _diagnose_standard_input(args: argparse.Namespace) -> int:
    """Run ``faultbot diagnose -`` with these KB options."""
    options = [*(["--kb", str(args.kb)] if args.kb else []), *(["--articles", str(args.articles)] if args.articles else [])]
    return cmd_diagnose(diagnose_arguments(["-", *options]))


def cmd_chat(args: argparse.Namespace) -> int:
    if not sys.stdin.isatty():
        if args.resume:
            raise UsageError("--resume continues a chat at a terminal; standard input is not one")
        return _diagnose_standard_input(args)
    from ..repl.app import NoSessionToResume, run  # the chat's packages, only for the chat

    kb = load_kb(*kb_paths(args))
    try:
        return run(kb, args.resume)
    except NoSessionToResume as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(f"cannot keep the session transcript: {error.strerror}: {error.filename} "
                         "(set XDG_DATA_HOME to a writable folder)") from None
