"""Compiling the knowledge base: every file parsed and validated, every problem reported with
file:line, and the result assembled as a ``KnowledgeBase``. ``faultbot kb lint`` and the compiled
KB that every command loads come from this one function, so they always agree.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from msgspec.structs import replace

from .acl_code_tables import with_named_codes
from .aggregations_schema import AGGREGATIONS_FILE, parse_aggregations
from .articles import load_articles
from .codes_schema import parse_codebook
from .crosscheck import (
    check_codebook_citations,
    check_decoder_citations,
    check_entries,
    check_rule_citations,
)
from .decoders_schema import decoder_rules, parse_decoders
from .diagnostics import Problem
from .digest import KbDigest, kb_digest, list_files
from .entry_schema import parse_entry
from .facts_schema import parse_catalogue
from .fields import Problems
from .kb_error import KbError
from .knowledge_base import EntryIndex, KnowledgeBase
from .lazy import LazyTable
from .masks_schema import MASKS_FILE, parse_masks
from .model import Entry, Vocabulary
from .rules_schema import parse_rules
from .settings_schema import SETTINGS_FILE, check_setting_sources, parse_settings
from .vocabulary import VOCABULARY_FILE, parse_vocabulary
from .yaml_source import load_yaml, parse_yaml, read_kb_file

FACTS_FILE = "facts.yaml"
T = TypeVar("T")
CODES_FILE = "codes.yaml"
RULES_FILE = "rules.yaml"
DECODERS_FILE = "decoders.yaml"
ENTRIES_DIR = "entries"


def _shown(path: Path, kb_dir: Path) -> str:
    """Paths in messages start at the KB folder's own name (kb/entries/...), whatever the cwd."""
    try:
        return str(Path(kb_dir.name) / path.relative_to(kb_dir))
    except ValueError:
        return str(path)


def _data_files(kb_dir: Path, main_file: str) -> list[Path]:
    """``kb/<name>.yaml`` and every ``kb/<name>/*.yaml`` beside it, so areas of the KB can keep
    their facts and rules in files of their own."""
    stem = Path(main_file).stem
    main = [kb_dir / main_file] if _present(kb_dir / main_file) else []
    return main + sorted((kb_dir / stem).glob("*.yaml"))


def _present(path: Path) -> bool:
    """Whether there is something at ``path``: a FIFO or a broken link is there, to be reported
    when read, not skipped as if absent."""
    return os.path.lexists(path)


def todo_problems(text: str, shown: str) -> list[Problem]:
    """Every unfinished TODO of a draft, by line (drafts from ``faultbot kb new`` carry them)."""
    return [Problem(shown, number, f"unfinished draft: {line.strip()[:100]}",
                    "replace the TODO with the real text (see CONTRIBUTING.md)")
            for number, line in enumerate(text.splitlines(), 1) if "TODO" in line and not line.lstrip().startswith("#")]


def _read_all(paths: list[Path], kb_dir: Path) -> tuple[list[tuple[object, Problems]], list[Problem]]:
    documents, problems = [], []
    for path in paths:
        shown = _shown(path, kb_dir)
        try:
            documents.append((load_yaml(path, shown, kb_dir), Problems(shown)))
        except KbError as exc:
            problems += exc.problems
    return documents, problems


def _read_optional(path: Path, kb_dir: Path, parse: Callable[[Any, Problems], T], problems: list[Problem]) -> T | None:
    """A KB file that may be absent (codes.yaml, vocabulary.yaml), parsed; its problems go to ``problems``."""
    if not _present(path):
        return None
    shown = _shown(path, kb_dir)
    try:
        collected = Problems(shown)
        parsed = parse(load_yaml(path, shown, kb_dir), collected)
    except KbError as exc:
        problems += exc.problems
        return None
    problems += collected.found
    return parsed


def compile_kb(kb_dir: Path, articles_dir: Path, digest: KbDigest | None = None) -> KnowledgeBase:
    """Parse and validate every file of the KB; raise KbError with every problem found."""
    problems: list[Problem] = []
    kb_dir = kb_dir.resolve()
    if not kb_dir.is_dir():
        raise KbError([Problem(str(kb_dir), 1, "knowledge base folder does not exist")])
    digest = digest or kb_digest(kb_dir, articles_dir)
    fact_paths = _data_files(kb_dir, FACTS_FILE)
    if not _present(kb_dir / FACTS_FILE):
        problems.append(Problem(_shown(kb_dir / FACTS_FILE, kb_dir), 1, "fact catalogue is missing",
                                "create kb/facts.yaml"))
    fact_documents, found = _read_all(fact_paths, kb_dir)
    if found:
        # Every entry and rule names facts: checked against half a catalogue they would drown the
        # one real problem in "unknown fact" errors.
        raise KbError([*problems, *found, Problem(found[0].file, found[0].line, "the rest of the knowledge base is "
                                                  "checked once the fact catalogue reads", "fix the error above first")])
    catalogue = parse_catalogue(fact_documents)
    rule_documents, found = _read_all(_data_files(kb_dir, RULES_FILE), kb_dir)
    problems += found
    rules = parse_rules(rule_documents, catalogue.facts)
    decoder_documents, found = _read_all(_data_files(kb_dir, DECODERS_FILE), kb_dir)
    problems += found
    decoders = parse_decoders(decoder_documents, catalogue.facts)
    codes_path = kb_dir / CODES_FILE
    codebook = _read_optional(codes_path, kb_dir, parse_codebook, problems)
    vocabulary = _read_optional(kb_dir / VOCABULARY_FILE, kb_dir, parse_vocabulary, problems) or Vocabulary()
    settings = _read_optional(kb_dir / SETTINGS_FILE, kb_dir, parse_settings, problems) or ()
    masks = _read_optional(kb_dir / MASKS_FILE, kb_dir, parse_masks, problems) or ()
    problems += [p for _, collected in fact_documents + rule_documents + decoder_documents for p in collected.found]
    entries: list[Entry] = []
    file_of: dict[int, str] = {}
    entry_paths = sorted(Path(listed[0]) for listed in list_files(kb_dir / ENTRIES_DIR, (".yaml", ".yml"), recursive=True))
    for path in entry_paths:
        shown = _shown(path, kb_dir)
        if path.suffix == ".yml":
            problems.append(Problem(shown, 1, "entry files end in .yaml", f"rename to {path.stem}.yaml"))
            continue
        try:
            text = read_kb_file(path, shown, kb_dir)
            problems += todo_problems(text, shown)
            collected = Problems(shown)
            entry = parse_entry(parse_yaml(text, shown), catalogue.facts, shown, collected)
            problems += collected.found
        except KbError as exc:
            problems += exc.problems
            continue
        if entry is not None:
            entries.append(entry)
            file_of[id(entry)] = shown
    articles, article_problems = load_articles(articles_dir, articles_dir.name)
    problems += article_problems
    problems += check_entries(entries, articles, file_of)
    problems += check_rule_citations(rules, articles)
    problems += check_decoder_citations(decoders, articles)
    problems += check_setting_sources(settings, articles)
    heartbeat_priority, exec_timeout_profiles = _read_optional(
        kb_dir / AGGREGATIONS_FILE, kb_dir,
        lambda raw, collected: parse_aggregations(raw, collected, catalogue.facts, articles), problems) or ((), ())
    if codebook is not None:
        problems += check_codebook_citations(codebook, _shown(codes_path, kb_dir), articles)
        if codebook.acl is not None:
            acl, found = with_named_codes(codebook.acl, articles, _shown(codes_path, kb_dir))
            codebook, problems = replace(codebook, acl=acl), problems + found
    if problems:
        raise KbError(problems)
    index = EntryIndex.of(entries)
    return KnowledgeBase(catalogue, rules + decoder_rules(decoders), codebook, index,
                         LazyTable({e.id: e for e in sorted(entries, key=lambda e: e.id)}), LazyTable(articles),
                         kb_dir, digest, decoders, vocabulary, masks, heartbeat_priority, exec_timeout_profiles,
                         settings)
