"""Scan throughput of faultbot against GNU grep over the same generated log tree, in one run.

    python benchmarks/scan_benchmark.py [--size-mb 512] [--entry-log] [--out benchmarks/out]

The tree is generated once (benchmarks/generate_tree.py) and reused. grep gets the KB's literal
anchors (`grep -rcF -f anchors`); faultbot reads the tree as `faultbot diagnose` does: every file,
the line prefilter, fact extraction and symptom matching, on all cores. Figures are MB/s of log
read, the ratio faultbot/grep, and peak memory (the main process and the largest worker).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from generate_tree import generate  # noqa: E402

from faultbot.evidence import EvidenceCollector  # noqa: E402
from faultbot.ingest.inputs import LogPath  # noqa: E402
from faultbot.kb.loader import load_kb  # noqa: E402
from faultbot.parallel import collect  # noqa: E402
from faultbot.paths import default_articles_dir, default_kb_dir  # noqa: E402


def tree_size(root: Path) -> int:
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file())


def best_of(runs: int, action) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=512)
    parser.add_argument("--entry-log", action="store_true", help="tree as with HCCL_ENTRY_LOG_ENABLE=1")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "out")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kb", type=Path, default=default_kb_dir())
    parser.add_argument("--articles", type=Path, default=default_articles_dir())
    args = parser.parse_args()

    tree = args.out / f"tree-{args.size_mb}mb{'-entrylog' if args.entry_log else ''}"
    if not tree.exists():
        print(f"generating {args.size_mb} MB under {tree} ...", flush=True)
        generate(tree, args.size_mb, nodes=8, ranks_per_node=8, entry_log=args.entry_log)
    size = tree_size(tree)
    kb = load_kb(args.kb, args.articles)
    collector = EvidenceCollector(kb)
    anchors = sorted({*collector.matcher.anchors, *(a for e in kb.catalogue.extractors for a in e.anchors)})
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(anchors) + "\n")
    grep = ["grep", "-rcF", "-f", handle.name, str(tree)]
    # stdout must be a real pipe: GNU grep stops at the first match when it writes to /dev/null
    grep_seconds = best_of(args.runs, lambda: subprocess.run(grep, stdout=subprocess.PIPE, check=False))
    evidence = collect(kb, collector, [LogPath(tree)])
    ours_seconds = best_of(args.runs, lambda: collect(kb, collector, [LogPath(tree)]))
    os.unlink(handle.name)
    mb = size / (1 << 20)
    peak_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    peak_worker = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"tree: {mb:.0f} MB, {evidence.stats.files} files, {len(evidence.observations)} facts, "
          f"{len(evidence.matches)} symptom matches, prefilter engine {collector.engine}, {os.cpu_count()} cores")
    print(f"grep -rcF -f <{len(anchors)} anchors>: {grep_seconds:.2f} s, {mb / grep_seconds:.0f} MB/s")
    print(f"faultbot scan:                 {ours_seconds:.2f} s, {mb / ours_seconds:.0f} MB/s")
    print(f"ratio faultbot/grep: {grep_seconds / ours_seconds:.2f} (>= 1 means at least as fast as grep)")
    print(f"peak memory: main process {peak_self:.0f} MB, largest worker {peak_worker:.0f} MB")


if __name__ == "__main__":
    main()
