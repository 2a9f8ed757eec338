"""``faultbot extract``: one node's logs in, its facts file out, for ``faultbot diagnose --facts``.

Records stream from the reader to the file file by file, so memory stays flat however large the
logs; only records that yield a fact or match a symptom are written, and of those that say the
same thing only the first and the last, with a count of the rest (faultbot/folding.py). The file
is written under a temporary name of its own and takes its name only when whole. Inputs set aside
or read in part, and evidence the folding's bounds left out, go into the file's trailer (so
``diagnose --facts`` names them) and, the first few with a count, to standard error.
"""

from __future__ import annotations

import argparse
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

from msgspec.structs import replace

from ..evidence import EvidenceCollector
from ..facts_file import FactsWriter
from ..ingest.inputs import InputSpec
from ..ingest.records import LogRecord
from ..ingest.stats import SKIPPED_SHOWN, InputStats
from ..kb.loader import KnowledgeBase, load_kb
from ..render.safe_text import one_line
from .diagnose_command import input_specs
from .errors import EXIT_OK, UsageError
from .kb_location import kb_paths


def _on_node(record: LogRecord, node: str) -> LogRecord:
    """Records whose path names no node get ``node``, and their file names say so: two nodes'
    logs often have the very same paths."""
    if record.origin.node is not None:
        return record
    return replace(record, origin=replace(record.origin, node=node, source=f"{node}:{record.origin.source}"))


def extract(specs: Sequence[InputSpec], output: Path, node: str, kb: KnowledgeBase,
            collector: EvidenceCollector) -> tuple[int, InputStats]:
    """Write the facts file of ``specs`` to ``output``: how many records it kept, and what was read."""
    reader = collector.reader(specs)
    folder = collector.folder()
    inputs = [str(getattr(spec, "path", getattr(spec, "name", ""))) for spec in specs]
    writer = FactsWriter(output, {"kb": kb.digest.fingerprint, "node": node, "inputs": inputs})
    try:
        for found in collector.found_in((_on_node(record, node) for record in reader.records()), folder):
            writer.add(found)
        stats = reader.stats.noting(folder.notes)
        writer.finish(stats)
    except BaseException:
        writer.discard()
        raise
    return writer.kept, stats


def _note_lines(stats: InputStats) -> list[str]:
    """The inputs set aside or read in part, as notes for standard error: the first
    SKIPPED_SHOWN and a count of the rest."""
    lines = [f"faultbot: note: {one_line(note.name)}: {one_line(note.reason)}"
             for note in stats.skipped[:SKIPPED_SHOWN]]
    rest = len(stats.skipped) - SKIPPED_SHOWN
    if rest > 0:
        lines.append(f"faultbot: note: ... and {rest:,} more, listed in the facts file (diagnose --facts names them)")
    return lines


def cmd_extract(args: argparse.Namespace) -> int:
    specs = input_specs(args.paths)
    output = Path(args.output)
    if not output.parent.is_dir():
        raise UsageError(f"no such folder for -o: {output.parent}")
    kb = load_kb(*kb_paths(args))
    try:
        kept, stats = extract(specs, output, args.node or socket.gethostname(), kb, EvidenceCollector(kb))
        size = output.stat().st_size
    except OSError as error:
        raise UsageError(f"cannot write {one_line(output)}: {error.strerror or error}") from None
    noted = f", {len(stats.skipped)} input(s) skipped or partly read" if stats.skipped else ""
    print(f"faultbot: kept {kept} of {stats.records} records from {stats.files} file(s), "
          f"{stats.bytes_read} bytes of logs{noted} -> {size} bytes in {one_line(output)}", file=sys.stderr)
    for line in _note_lines(stats):
        print(line, file=sys.stderr)
    return EXIT_OK
