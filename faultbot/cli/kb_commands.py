"""``faultbot kb lint | list | show``: checking and reading the knowledge base."""

from __future__ import annotations

import argparse
import json
import sys
from difflib import get_close_matches

from ..cases import entry_cases, run_case
from ..engine.conditions import Tri
from ..engine.explain import how
from ..engine.wording import describe_test
from ..kb.diagnostics import KbError
from ..kb.stats import kb_stats
from ..session import DiagnosisSession
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


def cmd_test(args: argparse.Namespace) -> int:
    kb = _load(args)
    unknown = [ident for ident in args.ids if kb.entry(ident) is None]
    if unknown:
        raise UsageError(f"no entry {', '.join(map(repr, unknown))} in the knowledge base; see 'faultbot kb list'")
    cases = entry_cases(kb, args.ids or None)
    session = DiagnosisSession(kb)
    failed = 0
    for case in cases:
        result = run_case(case, kb, session)
        print(f"{'ok  ' if result.passed else 'FAIL'} {case.name}")
        if result.passed:
            continue
        failed += 1
        print(f"     {case.where}: {result.failure}")
        print(f"     asked: {', '.join(result.asked) or 'nothing'}")
        top = result.diagnosis.top
        if top is not None:
            print(f"     how faultbot concluded {top.id}:")
            for step in how(top, result.diagnosis.memory):
                origin = f"  [{step.origin}]" if step.origin else ""
                print(f"       {'  ' * step.depth}{step.kind}: {step.text}{origin}")
        for candidate in result.diagnosis.excluded:
            ruled = [describe_test(leaf.test) for leaf in candidate.leaves if leaf.verdict is Tri.FALSE]
            print(f"     excluded {candidate.id}: {'; '.join(ruled)}")
    print(f"{len(cases) - failed} passed, {failed} failed")
    return EXIT_NO_MATCH if failed else EXIT_OK


def cmd_stats(args: argparse.Namespace) -> int:
    stats = kb_stats(_load(args))
    if args.format == "json":
        print(json.dumps({"schema": JSON_SCHEMA_VERSION, **stats}, ensure_ascii=False, indent=2))
        return EXIT_OK
    print(f"{stats['entries']} entries, {stats['tests']} tests, {len(stats['error_codes'])} error codes, "
          f"{len(stats['articles'])} articles cited")
    print_table(("component", "status", "entries"),
                [(c, s, str(n)) for c, by_status in stats["by_component"].items() for s, n in by_status.items()])
    print_table(("article", "sections cited"), [(a, ", ".join(s)) for a, s in stats["articles"].items()])
    print("error codes: " + ", ".join(stats["error_codes"]))
    if stats["without_negative_test"]:
        print("without a negative test: " + ", ".join(stats["without_negative_test"]))
    return EXIT_OK


def add_kb_parser(subparsers: argparse._SubParsersAction, common: argparse.ArgumentParser) -> None:
    kb = subparsers.add_parser("kb", help="check and read the knowledge base")
    kb_sub = kb.add_subparsers(dest="kb_command", metavar="{lint,list,show,test,stats}", required=True)
    lint = kb_sub.add_parser("lint", parents=[common], help="check every KB file; exit 1 on any problem")
    lint.set_defaults(handler=cmd_lint)
    listing = kb_sub.add_parser("list", parents=[common], help="list entries: id, title, error codes, status")
    listing.add_argument("--format", choices=("text", "json"), default="text")
    listing.set_defaults(handler=cmd_list)
    show = kb_sub.add_parser("show", parents=[common], help="show one entry: cause, fixes, sources")
    show.add_argument("id", help="entry id, e.g. lccl.allreduce-flag-cleanup")
    show.add_argument("--format", choices=("text", "markdown", "json"), default="text")
    show.set_defaults(handler=cmd_show)
    test = kb_sub.add_parser("test", parents=[common], help="run entries' own tests; show HOW for failures")
    test.add_argument("ids", nargs="*", metavar="ID", help="entry ids (default: all)")
    test.set_defaults(handler=cmd_test)
    stats = kb_sub.add_parser("stats", parents=[common], help="entries by component and status, codes, citations, tests")
    stats.add_argument("--format", choices=("text", "json"), default="text")
    stats.set_defaults(handler=cmd_stats)


