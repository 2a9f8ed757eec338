"""What the ``faultbot`` command line accepts: every command's arguments, and which function runs it.

Only argparse is imported here: ``faultbot --help`` and a usage error cost the interpreter's start
and no more. Each command names its handler as ``module:function``; ``faultbot.cli.main`` imports
that module once the arguments are known, so a command imports only what it uses.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from .. import __version__
from .errors import UsageError

HANDLER = "handler"
# The kinds of faultbot.kb.json_schema.KINDS, named here so that the parser imports no KB code.
KB_FILE_KINDS = ("entry", "facts", "rules", "decoders", "codes", "vocabulary", "settings", "masks", "aggregations")


def _columns() -> int:
    """The terminal's width, as shutil.get_terminal_size says it (without importing shutil)."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns
    except (AttributeError, ValueError, OSError):
        return 80


class _Formatter(argparse.HelpFormatter):
    """argparse's help layout, given the terminal's width: asking shutil costs every command a module."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, width or _columns() - 2)


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{message} (see '{self.prog} --help')")


def _handled_by(parser: argparse.ArgumentParser, handler: str) -> None:
    parser.set_defaults(**{HANDLER: f"faultbot.cli.{handler}"})


def _kb_options() -> argparse.ArgumentParser:
    common = _Parser(add_help=False)
    common.add_argument("--kb", metavar="DIR", type=Path,
                        help="knowledge base folder (default: kb/ of the faultbot checkout the working directory is "
                             "in, else the one shipped with faultbot)")
    common.add_argument("--articles", metavar="DIR", type=Path,
                        help="articles folder (default: 'articles' beside --kb, else the shipped one)")
    return common


def _resume_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--resume", action="store_true", help="continue the last chat session")


def _diagnose(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Read logs (files, folders, .gz/.tar.gz/.zip bundles, or '-' for standard input) and "
                          "say what failed, why, and what to do. Exit 0: a conclusion; 1: nothing in the KB "
                          "matched; 2: usage or input error.")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="log files or folders; '-' reads standard input")
    parser.add_argument("--facts", nargs="+", action="extend", default=[], metavar="FILE",
                        help="facts files written by 'faultbot extract' on each node, merged as one input")
    parser.add_argument("--answer", action="append", default=[], metavar="FACT=VALUE",
                        help="answer a question in advance, e.g. --answer cann_version=8.0.RC2 (repeatable)")
    parser.add_argument("--no-ask", action="store_true", help="never ask; list the questions instead")
    parser.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    parser.add_argument("--explain", action="store_true", help="add WHY (for questions) and HOW (for the conclusion)")
    depth = parser.add_mutually_exclusive_group()
    depth.add_argument("--brief", action="store_true",
                       help="only the answer: conclusion, suspect rank, workaround, fix and the question that could "
                            "change it (text and Markdown; JSON keeps every field)")
    depth.add_argument("--full", action="store_true", help="everything, WHY and HOW included (as --explain)")
    parser.add_argument("--save-case", metavar="DIR",
                        help="also save the evidence, answers and conclusion as an eval case YAML in DIR")
    _no_pager(parser)
    _handled_by(parser, "diagnose_command:cmd_diagnose")


def _no_pager(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-pager", action="store_true",
                        help="print long output on a terminal directly instead of through $FAULTBOT_PAGER, $PAGER "
                             "or less")


def _extract(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Read one node's logs (files, folders, bundles, '-') and write only the records that "
                          "give facts or match symptoms to a gzipped facts file; 'faultbot diagnose --facts' merges "
                          "the files of every node. Exit 0: written; 2: usage or input error.")
    parser.add_argument("paths", nargs="*", metavar="PATH", help="log files or folders; '-' reads standard input")
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="the facts file to write, e.g. $(hostname).facts.jsonl.gz")
    parser.add_argument("--node", metavar="NAME",
                        help="node name for logs whose path names none (default: this host's name)")
    _handled_by(parser, "extract_command:cmd_extract")


def _eval(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Each case is a YAML file: name, log (or log_file), answers, expect (an id, a list of "
                          "acceptable ids, or 'none') or expect_not; corpus cases add family and held_out, reported "
                          "apart. Questions are answered from the case's answers, 'unknown' otherwise. "
                          "Exit 0 when every case passes (with --baseline: when no case that passed then fails now), "
                          "1 otherwise.")
    parser.add_argument("cases_dir", metavar="CASES_DIR", nargs="?")
    parser.add_argument("--questions", metavar="FILE",
                        help="instead of cases, a question set (tests/qa/questions.yaml): each question asked as "
                             "'faultbot ask' would, right when the answer holds the fact and cites a right section")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("--baseline", metavar="FILE",
                        help="fail only on regressions against this recorded baseline, so that new hard cases can land")
    parser.add_argument("--record-baseline", metavar="FILE", help="write this run's results as a baseline")
    _handled_by(parser, "eval_command:cmd_eval")


def _kb(kb: argparse.ArgumentParser) -> None:
    common = _kb_options()
    kb_sub = kb.add_subparsers(dest="kb_command", metavar="{lint,list,show,test,stats,new,schema}", required=True)
    lint = kb_sub.add_parser("lint", parents=[common], help="check every KB file; exit 1 on any problem")
    _handled_by(lint, "kb_commands:cmd_lint")
    listing = kb_sub.add_parser("list", parents=[common], help="list entries: id, title, error codes, status")
    listing.add_argument("--format", choices=("text", "json"), default="text")
    _handled_by(listing, "kb_commands:cmd_list")
    show = kb_sub.add_parser("show", parents=[common], help="show one entry: cause, fixes, sources")
    show.add_argument("id", help="entry id, e.g. lccl.allreduce-flag-cleanup")
    show.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    _no_pager(show)
    _handled_by(show, "kb_commands:cmd_show")
    test = kb_sub.add_parser("test", parents=[common], help="run entries' own tests; show HOW for failures")
    test.add_argument("ids", nargs="*", metavar="ID", help="entry ids (default: all)")
    _handled_by(test, "kb_commands:cmd_test")
    new = kb_sub.add_parser("new", parents=[common], help="draft a new entry from a log faultbot does not know")
    new.add_argument("--from-log", required=True, metavar="FILE", help="the log to draft the entry from")
    new.add_argument("--id", help="the new entry's id (default: <module>.<error code> from the log)")
    _handled_by(new, "kb_commands:cmd_new")
    stats = kb_sub.add_parser("stats", parents=[common], help="entries by component and status, codes, citations, tests")
    stats.add_argument("--format", choices=("text", "json"), default="text")
    _handled_by(stats, "kb_commands:cmd_stats")
    schema = kb_sub.add_parser("schema", help="print the JSON Schema of a KB file kind, for editors (kb/schema/)")
    schema.add_argument("--kind", choices=KB_FILE_KINDS, default=KB_FILE_KINDS[0],
                        help=f"the kind of KB file (default: {KB_FILE_KINDS[0]})")
    schema.add_argument("-o", "--output", metavar="FILE", type=Path, help="write it to FILE instead of printing it")
    _handled_by(schema, "kb_commands:cmd_schema")


def _chat(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Chat with faultbot: paste a log or describe the failure, answer its questions, ask "
                          "about the knowledge base, /export a report. Sessions are kept under "
                          "$XDG_DATA_HOME/faultbot. With standard input not a terminal, this is "
                          "'faultbot diagnose -'.")
    _resume_option(parser)
    _handled_by(parser, "chat_command:cmd_chat")


def _ask(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Answer a question (English or Chinese) from the articles and the knowledge base: the "
                          "passage that answers it, in a few sentences, with its source. Exit 0: answered; "
                          "1: nothing relevant is known; 2: usage error.")
    parser.add_argument("question", nargs="+", metavar="QUESTION", help="the question, e.g. \"怎么开启确定性计算\"")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    _handled_by(parser, "ask_command:cmd_ask")


# (command, one-line help, whether it takes --kb/--articles, what adds its arguments)
_COMMANDS: tuple[tuple[str, str, bool, Callable[[argparse.ArgumentParser], None]], ...] = (
    ("diagnose", "diagnose a failure from logs (files, folders, archives, '-')", True, _diagnose),
    ("extract", "keep one node's evidence in a facts file, for diagnose --facts", True, _extract),
    ("eval", "diagnose a folder of cases and report accuracy", True, _eval),
    ("kb", "check and read the knowledge base", False, _kb),
    ("chat", "the chat: paste logs, answer questions, ask (the default command)", True, _chat),
    ("ask", "answer a question from the articles and the KB, with sources", True, _ask),
)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv``: only the command ``argv`` names is built, with its arguments (every
    command when ``argv`` is None or names none it knows, listed for help and usage errors), which
    keeps a command's start short: each parser built costs argparse's message lookups."""
    named = next((word for word in (argv or ()) if not word.startswith("-")), None)
    if named not in {name for name, *_ in _COMMANDS}:
        named = None
    parser = _Parser(prog="faultbot", description="Diagnose Ascend NPU (CANN, HCCL, LCCL) job failures from their "
                     "logs. Without a command: the chat (faultbot chat).")
    parser.add_argument("--version", action="version", version=f"faultbot {__version__}")
    _resume_option(parser)
    parser.set_defaults(kb=None, articles=None)
    _handled_by(parser, "chat_command:cmd_chat")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, summary, takes_kb, add_arguments in _COMMANDS:
        if argv is not None and name != named:
            if named is None:
                subparsers.add_parser(name, help=summary)
            continue
        command = subparsers.add_parser(name, help=summary, parents=[_kb_options()] if takes_kb else [])
        add_arguments(command)
    return parser


def diagnose_arguments(argv: list[str]) -> argparse.Namespace:
    """``argv`` parsed as ``faultbot diagnose`` parses its arguments."""
    full = ["diagnose", *argv]
    return build_parser(full).parse_args(full)
