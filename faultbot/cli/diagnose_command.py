"""``faultbot diagnose``: logs in, a diagnosis out, asking questions on a terminal."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ..cluster.view import cluster_view
from ..engine.answers import AnswerError
from ..engine.diagnosis import Diagnosis
from ..evidence import Evidence
from ..ingest.inputs import InputSpec, LogPath, Stdin
from ..kb.loader import load_kb
from ..render.console import print_markdown
from ..render.diagnosis_markdown import diagnosis_markdown
from ..render.safe_text import one_line
from ..session import DiagnosisSession
from .errors import EXIT_NO_MATCH, EXIT_OK, EXIT_USAGE, UsageError
from .kb_location import kb_paths


def input_specs(paths: list[str]) -> list[InputSpec]:
    if not paths:
        if sys.stdin.isatty():
            raise UsageError("give log files or folders to read, or '-' to read standard input")
        return [Stdin()]
    specs: list[InputSpec] = []
    for path in paths:
        if path == "-":
            specs.append(Stdin())
        elif not os.path.exists(path):
            raise UsageError(f"no such file or folder: {path}")
        else:
            specs.append(LogPath(Path(path)))
    return specs


def parse_answers(pairs: list[str]) -> list[tuple[str, str]]:
    parsed = []
    for pair in pairs:
        fact, sep, value = pair.partition("=")
        if not sep or not fact.strip():
            raise UsageError(f"--answer takes FACT=VALUE, got '{pair}'")
        parsed.append((fact.strip(), value.strip()))
    return parsed


def add_facts_files(session: DiagnosisSession, paths: list[str]) -> None:
    """The evidence of each ``faultbot extract`` file, re-derived from its records with this KB."""
    from ..facts_file import FactsFileError, read_facts  # only with --facts

    fingerprint = session.kb.digest.fingerprint
    other_kb = []
    for path in paths:
        try:
            facts = read_facts(Path(path))
        except FactsFileError as error:
            raise UsageError(str(error)) from None
        if facts.header.get("kb") != fingerprint:
            other_kb.append(path)
        evidence = session.collector.from_records(facts.records)
        session.add_evidence(Evidence(evidence.observations, evidence.matches, facts.stats), label=path)
    if other_kb:
        print(f"faultbot: warning: {len(other_kb)} facts file(s) ({other_kb[0]}, ...) were extracted with another "
              "knowledge base; records only this one would keep are not in them", file=sys.stderr)


def _interactive(args: argparse.Namespace, specs: list[InputSpec]) -> bool:
    reads_stdin = any(isinstance(spec, Stdin) for spec in specs)
    return (not args.no_ask and args.format == "text" and not reads_stdin
            and sys.stdin.isatty() and sys.stdout.isatty())


def cmd_diagnose(args: argparse.Namespace) -> int:
    specs = input_specs(args.paths) if args.paths or not args.facts else []
    kb = load_kb(*kb_paths(args))
    session = DiagnosisSession(kb)
    for fact, value in parse_answers(args.answer):
        try:
            session.answer(fact, value)
        except AnswerError as error:
            raise UsageError(f"--answer {fact}={value}: {error}") from None
    for path in args.facts:
        if not os.path.isfile(path):
            raise UsageError(f"no such facts file: {path}")
    if specs:
        session.add_inputs(specs)
    if args.facts:
        add_facts_files(session, args.facts)
    diagnosis = session.diagnose()
    if _interactive(args, specs):
        from .ask_terminal import ask_until_settled  # prompt_toolkit, only when asking at a terminal

        diagnosis = ask_until_settled(session, diagnosis)
    cluster = cluster_view(diagnosis, kb, session.engine.echo_entries)
    if args.format == "json":
        import json  # json and its renderer only for --format json

        from ..render.diagnosis_json import diagnosis_dict

        payload = diagnosis_dict(diagnosis, kb, session.stats, args.explain or args.full, cluster)
        print(json.dumps(payload, ensure_ascii=False, indent=2))
    else:
        text = diagnosis_markdown(diagnosis, kb, session.stats, args.explain or args.full, cluster, brief=args.brief)
        if args.format == "markdown":
            sys.stdout.write(text)
        else:
            print_markdown(text, paged=not args.no_pager)
    if args.save_case and not _saved_case(Path(args.save_case), session, diagnosis):
        return EXIT_USAGE
    return EXIT_OK if diagnosis.conclusions else EXIT_NO_MATCH


def _saved_case(directory: Path, session: DiagnosisSession, diagnosis: Diagnosis) -> bool:
    """Save the case after the diagnosis is shown: a folder that cannot be written costs the case, not the answer."""
    from ..case_export import save_case  # YAML writing: only when a case is saved

    try:
        saved = save_case(directory, diagnosis, session.answers, session.unknown)
    except OSError as error:
        print(f"faultbot: error: cannot save the case in {one_line(directory)}: {error.strerror or error}",
              file=sys.stderr)
        return False
    print(f"faultbot: saved the case as {one_line(saved)}", file=sys.stderr)
    return True
