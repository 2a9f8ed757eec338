"""``faultbot kb lint | list | show | test | stats | new | schema``: checking, reading and adding to the
knowledge base, and the JSON Schemas editors check its files with."""

from __future__ import annotations

import argparse
import json
import sys
from difflib import get_close_matches
from pathlib import Path

from ..authoring.draft import default_id, draft_entry
from ..cases import entry_cases, run_case
from ..engine.conditions import Tri
from ..engine.explain import how
from ..engine.wording import describe_test
from ..evidence import EvidenceCollector
from ..ingest.inputs import LogPath
from ..ingest.reader import LogReader
from ..kb.compiler import ENTRIES_DIR
from ..kb.entry_schema import ENTRY_ID
from ..kb.json_schema import json_schema
from ..kb.kb_error import KbError
from ..kb.loader import KnowledgeBase, load_kb
from ..kb.stats import kb_stats
from ..overlap import overlap_problems
from ..render.console import print_markdown, print_table
from ..render.entry_json import entry_dict
from ..render.entry_markdown import entry_markdown
from ..render.safe_text import json_safe
from ..session import DiagnosisSession
from .errors import EXIT_NO_MATCH, EXIT_OK, UsageError
from .kb_location import kb_paths, writable_kb

JSON_SCHEMA_VERSION = 1


def _load(args: argparse.Namespace) -> KnowledgeBase:
    return load_kb(*kb_paths(args))


def cmd_lint(args: argparse.Namespace) -> int:
    kb_dir, articles_dir = kb_paths(args)
    try:
        kb = load_kb(kb_dir, articles_dir)
        overlaps = overlap_problems(kb)
        if overlaps:
            raise KbError(overlaps)
    except KbError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"{len(exc.problems)} problem(s) in {kb_dir}", file=sys.stderr)
        return EXIT_NO_MATCH
    tests = sum(len(e.tests) for e in kb.entries)
    print(f"ok: {len(kb.entries)} entries, {len(kb.facts)} facts, {len(kb.catalogue.extractors)} "
          f"extractors, {len(kb.decoders)} decoders, {len(kb.articles)} articles, {tests} entry tests")
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    kb = _load(args)
    if args.format == "json":
        rows = [{"id": e.id, "title": e.title, "error_codes": list(e.error_codes), "status": e.status.value,
                 "component": e.component} for e in kb.entries]
        print(json.dumps(json_safe({"schema": JSON_SCHEMA_VERSION, "entries": rows}), ensure_ascii=False, indent=2))
        return EXIT_OK
    print_table(("id", "title", "error codes", "status"),
                [(e.id, e.title, ", ".join(e.error_codes) or "-", e.status.value) for e in kb.entries])
    return EXIT_OK


def cmd_show(args: argparse.Namespace) -> int:
    kb = _load(args)
    entry = kb.entry(args.id)
    if entry is None:
        close = get_close_matches(args.id, kb.index.ids, n=3)
        hint = f" (did you mean: {', '.join(close)}?)" if close else "; see 'faultbot kb list'"
        raise UsageError(f"no entry '{args.id}' in the knowledge base{hint}")
    if args.format == "json":
        print(json.dumps({"schema": JSON_SCHEMA_VERSION, "entry": entry_dict(entry, kb.articles)},
                         ensure_ascii=False, indent=2))
    elif args.format == "markdown":
        sys.stdout.write(entry_markdown(entry, kb))
    else:
        print_markdown(entry_markdown(entry, kb), paged=not args.no_pager)
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
        print(json.dumps(json_safe({"schema": JSON_SCHEMA_VERSION, **stats}), ensure_ascii=False, indent=2))
        return EXIT_OK
    print(f"{stats['entries']} entries, {stats['tests']} tests, {len(stats['error_codes'])} error codes, "
          f"{len(stats['decoders'])} field decoders, {len(stats['articles'])} articles cited")
    print_table(("component", "status", "entries"),
                [(c, s, str(n)) for c, by_status in stats["by_component"].items() for s, n in by_status.items()])
    print_table(("article", "sections cited"), [(a, ", ".join(s)) for a, s in stats["articles"].items()])
    print("error codes: " + ", ".join(stats["error_codes"]))
    print("field decoders: " + ", ".join(f"{d} ({info['field']}, {info['cases']} values)"
                                          for d, info in stats["decoders"].items()))
    if stats["without_negative_test"]:
        print("without a negative test: " + ", ".join(stats["without_negative_test"]))
    return EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    kb_dir = writable_kb(kb_paths(args)[0])
    kb = _load(args)
    log_path = Path(args.from_log)
    if not log_path.is_file():
        raise UsageError(f"no such log file: {log_path}")
    collector = EvidenceCollector(kb, use_prefilter=False)
    records = list(LogReader([LogPath(log_path)]).records())
    if not records:
        raise UsageError(f"{log_path} holds no log records")
    entry_id = args.id or default_id(records)
    if not ENTRY_ID.match(entry_id):
        raise UsageError(f"'{entry_id}' is not a dotted slug id (e.g. hccl.socket-timeout); choose one with --id")
    if kb.entry(entry_id) is not None:
        raise UsageError(f"'{entry_id}' already exists ({kb.entry(entry_id).where.file}); choose another --id")
    target = kb_dir / ENTRIES_DIR / entry_id.split(".")[0] / f"{entry_id}.yaml"
    if target.exists():
        raise UsageError(f"{target} already exists; choose another --id")
    observations = [o for record in records for o in collector.extractor.extract(record)]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(draft_entry(entry_id, log_path.name, records, observations), encoding="utf-8")
    print(f"drafted {target}")
    kb_option = f" --kb {kb_dir}" if args.kb else ""
    print(f"next: replace every TODO in it, then run 'faultbot kb lint{kb_option}' and "
          f"'faultbot kb test{kb_option} {entry_id}'")
    return EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    text = json.dumps(json_schema(args.kind), ensure_ascii=False, indent=2) + "\n"
    if args.output is None:
        sys.stdout.write(text)
        return EXIT_OK
    try:
        args.output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {args.output}: {exc.strerror or exc}") from None
    print(f"wrote {args.output}")
    return EXIT_OK
