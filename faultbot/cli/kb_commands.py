"""``faultbot kb lint | list | show``: checking and reading the knowledge base."""

from __future__ import annotations

import argparse
import json
import sys
from difflib import get_close_matches

from ..kb.diagnostics import KbError
from ..kb.loader import KnowledgeBase, load_kb
from ..render.console import print_markdown, print_table
from ..render.entry_json import entry_dict
from ..render.entry_markdown import entry_markdown
from .errors import EXIT_NO_MATCH, EXIT_OK, UsageError
from .kb_location import kb_paths

JSON_SCHEMA_VERSION = 1


def _load(args: argparse.Namespace) -> KnowledgeBase:
    return load_kb(*kb_paths(args))


def cmd_lint(args: argparse.Namespace) -> int:
    kb_dir, articles_dir = kb_paths(args)
    try:
        kb = load_kb(kb_dir, articles_dir)
    except KbError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"{len(exc.problems)} problem(s) in {kb_dir}", file=sys.stderr)
        return EXIT_NO_MATCH
    tests = sum(len(e.tests) for e in kb.entries)
    print(f"ok: {len(kb.entries)} entries, {len(kb.facts)} facts, {len(kb.catalogue.extractors)} "
          f"extractors, {len(kb.articles)} articles, {tests} entry tests")
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    kb = _load(args)
    if args.format == "json":
        rows = [{"id": e.id, "title": e.title, "error_codes": list(e.error_codes), "status": e.status.value,
                 "component": e.component} for e in kb.entries]
        print(json.dumps({"schema": JSON_SCHEMA_VERSION, "entries": rows}, ensure_ascii=False, indent=2))
        return EXIT_OK
    print_table(("id", "title", "error codes", "status"),
                [(e.id, e.title, ", ".join(e.error_codes) or "-", e.status.value) for e in kb.entries])
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    kb = _load(args)
    entry = kb.entry(args.id)
    if entry is None:
        close = get_close_matches(args.id, [e.id for e in kb.entries], n=3)
        hint = f" (did you mean: {', '.join(close)}?)" if close else "; see 'faultbot kb list'"
        raise UsageError(f"no entry '{args.id}' in the knowledge base{hint}")
    if args.format == "json":
        print(json.dumps({"schema": JSON_SCHEMA_VERSION, "entry": entry_dict(entry, kb.articles)},
                         ensure_ascii=False, indent=2))
    elif args.format == "markdown":
        sys.stdout.write(entry_markdown(entry, kb))
    else:
        print_markdown(entry_markdown(entry, kb))
    return EXIT_OK


def add_kb_parser(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    kb = subparsers.add_parser("kb", help="check and read the knowledge base")
    kb_sub = kb.add_subparsers(dest="kb_command", metavar="{lint,list,show}", required=True)
    lint = kb_sub.add_parser("lint", parents=[common], help="check every KB file; exit 1 on any problem")
    lint.set_defaults(handler=cmd_lint)
    listing = kb_sub.add_parser("list", parents=[common], help="list entries: id, title, error codes, status")
    listing.add_argument("--format", choices=("text", "json"), default="text")
    listing.set_defaults(handler=cmd_list)
    show = kb_sub.add_parser("show", parents=[common], help="show one entry: cause, fixes, sources")
    show.add_argument("id", help="entry id, e.g. lccl.allreduce-flag-cleanup")
    show.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    show.set_defaults(handler=cmd_show)


