"""``faultbot`` / ``faultbot chat [--resume]``: the chat REPL; with standard input not a terminal
(``cat plog.log | faultbot``), exactly ``faultbot diagnose -``."""

from __future__ import annotations

import argparse
import sys

from ..kb.loader import load_kb
from ..repl.app import NoSessionToResume, run
from .diagnose_command import add_diagnose_parser
from .errors import UsageError
from .kb_location import add_kb_options, kb_paths


def _diagnose_standard_input(args: argparse.Namespace) -> int:
    """Run ``faultbot diagnose -`` with these KB options, parsed by diagnose's own parser."""
    common = argparse.ArgumentParser(add_help=False)
    add_kb_options(common)
    parser = argparse.ArgumentParser(prog="faultbot")
    add_diagnose_parser(parser.add_subparsers(), common)
    options = [*(["--kb", str(args.kb)] if args.kb else []), *(["--articles", str(args.articles)] if args.articles else [])]
    diagnose = parser.parse_args(["diagnose", "-", *options])
    return diagnose.handler(diagnose)


def cmd_chat(args: argparse.Namespace) -> int:
    if not sys.stdin.isatty():
        if args.resume:
            raise UsageError("--resume continues a chat at a terminal; standard input is not one")
        return _diagnose_standard_input(args)
    kb = load_kb(*kb_paths(args))
    try:
        return run(kb, args.resume)
    except NoSessionToResume as error:
        raise UsageError(str(error)) from None
    except OSError as error:
        raise UsageError(f"cannot keep the session transcript: {error.strerror}: {error.filename} "
                         "(set XDG_DATA_HOME to a writable folder)") from None


def add_resume_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--resume", action="store_true", help="continue the last chat session")


def add_chat_parser(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    parser = subparsers.add_parser(
        "chat", parents=[common], help="the chat: paste logs, answer questions, ask (the default command)",
        description="Chat with faultbot: paste a log or describe the failure, answer its questions, ask "
                    "about the knowledge base, /export a report. Sessions are kept under "
                    "$XDG_DATA_HOME/faultbot. With standard input not a terminal, this is 'faultbot diagnose -'.")
    add_resume_option(parser)
    parser.set_defaults(handler=cmd_chat)
