"""Scan throughput of faultbot against GNU grep over the same generated log tree, in one run.

    python benchmarks/scan_benchmark.py [--size-mb 512] [--kind healthy|entry|gbk] [--runs 3]

The tree is generated once (benchmarks/generate_tree.py) and reused. grep gets the KB's literal
anchors (`grep -rcF -f anchors`); faultbot reads the tree as `faultbot diagnose` does: every file,
the line prefilter, the repeat gate, fact extraction and symptom matching, on all cores. Figures:
MB/s of log read, the ratio faultbot/grep (target >= 1), then one `faultbot diagnose --format json`
of the whole tree as a user runs it: wall time, peak memory of the process and its workers (target
< 200 MB), and the size of its output against the evidence lines it stands for (the output must
not grow with them).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate_tree

from faultbot.evidence import EvidenceCollector
from faultbot.ingest.inputs import LogPath
from faultbot.kb.loader import load_kb
from faultbot.parallel import collect
from faultbot.paths import default_articles_dir, default_kb_dir

MEMORY_LIMIT_MB = 200


def tree_size(root: Path) -> int:
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file())


def best_of(runs: int, action) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        action()
        best = min(best, time.perf_counter() - start)
    return best


def diagnose_whole_tree(tree: Path) -> tuple[float, float, int]:
    """Wall seconds, peak RSS in MB (the process and its workers) and output bytes of
    ``faultbot diagnose --format json TREE``, in a fresh process."""
    faultbot = shutil.which("faultbot", path=str(Path(sys.executable).parent)) or "faultbot"
    start = time.perf_counter()
    process = subprocess.Popen([faultbot, "diagnose", "--no-ask", "--format", "json", str(tree)],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    output = process.stdout.read()
    _, _, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return seconds, max(usage.ru_maxrss, workers) / 1024, len(output)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=int, default=512)
    parser.add_argument("--kind", choices=generate_tree.KINDS, default="healthy")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kb", type=Path, default=default_kb_dir())
    parser.add_argument("--articles", type=Path, default=default_articles_dir())
    args = parser.parse_args()

    tree = generate_tree.tree_dir(args.size_mb, args.kind)
    if not tree.exists():
        print(f"generating {args.size_mb} MB ({args.kind}) under {tree} ...", flush=True)
        generate_tree.generate(tree, args.size_mb, nodes=8, ranks_per_node=8, kind=args.kind)
    size = tree_size(tree)
    kb = load_kb(args.kb, args.articles)
    collector = EvidenceCollector(kb)
    anchors = sorted({*collector.matcher.anchors, *(a for e in kb.catalogue.extractors for a in e.anchors)})
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(anchors) + "\n")
    grep = ["grep", "-rcF", "-f", handle.name, str(tree)]
    # stdout must be a real pipe: GNU grep stops at the first match when it writes to /dev/null
    grep_seconds = best_of(args.runs, lambda: subprocess.run(grep, stdout=subprocess.PIPE, check=False))
    os.unlink(handle.name)
    evidence = collect(kb, collector, [LogPath(tree)])
    ours_seconds = best_of(args.runs, lambda: collect(kb, collector, [LogPath(tree)]))
    records = {id(o.record): o.record for o in evidence.observations} | {id(m.record): m.record for m in evidence.matches}
    stands_for = sum(1 + record.repeats for record in records.values())
    wall, peak_mb, output_bytes = diagnose_whole_tree(tree)
    mb = size / (1 << 20)
    ratio = grep_seconds / ours_seconds
    print(f"tree: {args.kind}, {mb:.0f} MB, {evidence.stats.files} files, prefilter engine {collector.engine}, "
          f"{os.cpu_count()} cores")
    print(f"grep -rcF -f <{len(anchors)} anchors>: {grep_seconds:.2f} s, {mb / grep_seconds:.0f} MB/s")
    print(f"faultbot scan:                 {ours_seconds:.2f} s, {mb / ours_seconds:.0f} MB/s")
    print(f"ratio faultbot/grep: {ratio:.2f} (target >= 1.0: {'ok' if ratio >= 1 else 'MISSED'})")
    print(f"evidence: {len(records)} records kept for {stands_for} evidence lines, {len(evidence.observations)} facts, "
          f"{len(evidence.matches)} symptom matches")
    print(f"faultbot diagnose --format json: {wall:.2f} s, peak memory {peak_mb:.0f} MB "
          f"(target < {MEMORY_LIMIT_MB}: {'ok' if peak_mb < MEMORY_LIMIT_MB else 'MISSED'}), "
          f"output {output_bytes / 1024:.0f} KB for {stands_for} evidence lines")


if __name__ == "__main__":
    main()
