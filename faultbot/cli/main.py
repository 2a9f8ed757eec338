"""The ``faultbot`` command: argument parsing, dispatch, and turning failures into exit codes."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .. import __version__
from ..engine.agenda import RuleError
from ..kb.diagnostics import KbError
from .ask_command import add_ask_parser
from .chat_command import add_chat_parser, add_resume_option, cmd_chat
from .diagnose_command import add_diagnose_parser
from .errors import EXIT_USAGE, UsageError
from .eval_command import add_eval_parser
from .extract_command import add_extract_parser
from .kb_commands import add_kb_parser
from .kb_location import add_kb_options


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")


def build_parser() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    add_kb_options(common)
    parser = _Parser(prog="faultbot", description="Diagnose Ascend NPU (CANN, HCCL, LCCL) job failures from their logs. "
                     "Without a command: the chat (faultbot chat).")
    parser.add_argument("--version", action="version", version=f"faultbot {__version__}")
    add_resume_option(parser)
    parser.set_defaults(handler=cmd_chat, kb=None, articles=None)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    add_diagnose_parser(subparsers, common)
    add_extract_parser(subparsers, common)
    add_eval_parser(subparsers, common)
    add_kb_parser(subparsers, common)
    add_chat_parser(subparsers, common)
    add_ask_parser(subparsers, common)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        return args.handler(args)
    except UsageError as exc:
        print(f"faultbot: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KbError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print("faultbot: error: the knowledge base has problems; run 'faultbot kb lint'", file=sys.stderr)
        return EXIT_USAGE
    except RuleError as exc:
        print(f"faultbot: error: {exc} (a defect in faultbot or its KB rules; please report it)", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("faultbot: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
