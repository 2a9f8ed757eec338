"""Growth of the knowledge base: the shipped KB against a generated 2,000-entry one, in one run.

    python benchmarks/kb_growth.py [--entries 2000] [--tree-mb 64] [--runs 3] [--check]

Generates, under benchmarks/out, kb-<entries> (benchmarks/generate_kb.py; again whenever kb/,
articles/ or the generator changed) and tree-<N>mb-healthy (benchmarks/generate_tree.py), then,
with warm caches (a private $XDG_CACHE_HOME):

- diagnose: `faultbot diagnose --no-ask <example>` in fresh processes, the shipped KB against
  `--kb kb-<entries>/kb`; median wall time of --runs. Target: ratio <= 1.5.
- scan: the tree read as `faultbot diagnose` reads it (every file, the line prefilter, fact
  extraction and symptom matching, on all cores) through the Python API, so start-up is left
  out; best of --runs, as MB/s. Target: the large KB within 1.2x of the shipped one's time.

The two KBs' runs alternate, so that a change of load on the machine hits both alike.

With --check the script exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate_kb
import generate_tree
from cold_start import EXAMPLE, cache_env, faultbot_command, measure

from faultbot.evidence import EvidenceCollector
from faultbot.ingest.inputs import LogPath
from faultbot.kb.loader import load_kb
from faultbot.parallel import collect

DIAGNOSE_TARGET = 1.5
SCAN_TARGET = 1.2
REPO = generate_kb.REPO


def large_kb(entries: int) -> Path:
    """OUT/kb-<entries>, generated again when anything it is made from is newer."""
    out = generate_tree.OUT_ROOT / f"kb-{entries}"
    marker = out / "generated"
    sources = [Path(generate_kb.__file__), *(p for root in (REPO / "kb", REPO / "articles")
                                              for p in root.rglob("*") if p.is_file())]
    if not marker.exists() or max(p.stat().st_mtime for p in sources) > marker.stat().st_mtime:
        print(f"generating {entries} entries under {out} ...", flush=True)
        generate_kb.generate(out, entries)
        marker.write_text("")
    return out


def scan_seconds(kb_dirs: list[Path], tree: Path, runs: int) -> list[tuple[float, str]]:
    """Best scan time of the tree with each KB, and the KB's size in words."""
    prepared = []
    for kb_dir in kb_dirs:
        kb = load_kb(kb_dir, kb_dir.parent / "articles")
        prepared.append((kb, EvidenceCollector(kb)))
    best = [float("inf")] * len(prepared)
    for _ in range(runs + 1):           # the first round warms the page cache
        for index, (kb, collector) in enumerate(prepared):
            start = time.perf_counter()
            collect(kb, collector, [LogPath(tree)])
            best[index] = min(best[index], time.perf_counter() - start)
    return [(seconds, f"{len(kb.entries)} entries, {len(kb.catalogue.extractors)} extractors, "
                      f"{len(collector.matcher.anchors)} symptom anchors")
            for seconds, (kb, collector) in zip(best, prepared, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--tree-mb", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    large = large_kb(args.entries)
    tree = generate_tree.tree_dir(args.tree_mb, "healthy")
    if not tree.exists():
        print(f"generating {args.tree_mb} MB under {tree} ...", flush=True)
        generate_tree.generate(tree, args.tree_mb, nodes=8, ranks_per_node=8)
    mb = sum(p.stat().st_size for p in tree.rglob("*") if p.is_file()) / (1 << 20)

    faultbot = faultbot_command()
    shipped_diagnose = [*faultbot, "diagnose", "--no-ask", str(EXAMPLE)]
    large_diagnose = [*faultbot, "diagnose", "--kb", str(large / "kb"), "--no-ask", str(EXAMPLE)]
    with tempfile.TemporaryDirectory(prefix="faultbot-growth-") as scratch:
        shipped_start, large_start = measure([shipped_diagnose, large_diagnose], args.runs, cache_env(Path(scratch)))
    (shipped_scan, shipped_size), (large_scan, large_size) = scan_seconds([REPO / "kb", large / "kb"], tree, args.runs)

    diagnose_ratio = large_start.seconds / shipped_start.seconds
    scan_ratio = large_scan / shipped_scan
    print(f"shipped KB: {shipped_size}")
    print(f"large KB:   {large_size}")
    print(f"diagnose --no-ask {EXAMPLE.name} (median of {args.runs} interleaved runs, warm cache):")
    print(f"  shipped KB {shipped_start.seconds:6.3f} s, peak {shipped_start.peak_mb:.0f} MB")
    print(f"  large KB   {large_start.seconds:6.3f} s, peak {large_start.peak_mb:.0f} MB")
    print(f"  ratio {diagnose_ratio:.2f}x (target <= {DIAGNOSE_TARGET}x) "
          f"{'ok' if diagnose_ratio <= DIAGNOSE_TARGET else 'MISSED'}")
    print(f"scan of {tree.name} ({mb:.0f} MB, best of {args.runs} interleaved runs):")
    print(f"  shipped KB {shipped_scan:6.2f} s, {mb / shipped_scan:5.1f} MB/s")
    print(f"  large KB   {large_scan:6.2f} s, {mb / large_scan:5.1f} MB/s")
    print(f"  ratio {scan_ratio:.2f}x (target <= {SCAN_TARGET}x) {'ok' if scan_ratio <= SCAN_TARGET else 'MISSED'}")
    if args.check and (diagnose_ratio > DIAGNOSE_TARGET or scan_ratio > SCAN_TARGET):
        sys.exit(1)


if __name__ == "__main__":
    main()
