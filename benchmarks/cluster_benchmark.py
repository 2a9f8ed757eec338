"""Cluster-wide diagnosis at scale: 256 to 2,048 ranks, cost per rank, and the facts-file size ratio.

    python benchmarks/cluster_benchmark.py [--ranks 256 512 1024 2048] [--out benchmarks/out]

Each size is a process-exit scenario (benchmarks/cluster_tree.py) of 8 ranks per node with small
per-rank logs, generated once and reused. It is diagnosed as ``faultbot diagnose TREE --format json``
does (reading on all cores, the engine, the cluster view, the JSON), phase by phase; seconds per rank
stay flat when the cost grows linearly. On the largest tree every node is then extracted to a facts
file as ``faultbot extract`` does, the files are merged as ``faultbot diagnose --facts`` does, and the
verdicts are compared.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cluster_tree import generate

from faultbot.cli.extract_command import extract
from faultbot.cli.main import main as faultbot
from faultbot.cluster.view import cluster_view
from faultbot.evidence import EvidenceCollector
from faultbot.ingest.inputs import LogPath
from faultbot.kb.loader import load_kb
from faultbot.paths import default_articles_dir, default_kb_dir
from faultbot.render.diagnosis_json import diagnosis_dict
from faultbot.session import DiagnosisSession

RANKS_PER_NODE = 8


def tree_bytes(root: Path) -> int:
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file())


def tree(out: Path, ranks: int, steps: int) -> Path:
    root = out / f"cluster-{ranks}-ranks"
    if not (root / "done").exists():
        generate(root, "process-exit", ranks // RANKS_PER_NODE, RANKS_PER_NODE, steps=steps)
        (root / "done").write_text("")
    return root


def verdict(payload: dict) -> dict:
    """What must not change between the two paths: the conclusions and the cluster view."""
    return {"conclusions": [(c["id"], c["status"], c["confidence"]) for c in payload["conclusions"]],
            "questions": [q["fact"] for q in payload["questions"]], "cluster": payload.get("cluster")}


def diagnose(kb, root: Path) -> tuple[dict[str, float], dict]:
    phases: dict[str, float] = {}
    start = time.perf_counter()
    session = DiagnosisSession(kb)
    session.add_inputs([LogPath(root)])
    phases["read"] = time.perf_counter() - start
    mark = time.perf_counter()
    diagnosis = session.diagnose()
    phases["engine"] = time.perf_counter() - mark
    mark = time.perf_counter()
    view = cluster_view(diagnosis, kb, session.engine.echo_entries)
    phases["cluster"] = time.perf_counter() - mark
    mark = time.perf_counter()
    payload = diagnosis_dict(diagnosis, kb, session.stats, False, view)
    json.dumps(payload, ensure_ascii=False)
    phases["json"] = time.perf_counter() - mark
    phases["total"] = time.perf_counter() - start
    return phases, payload


def facts_round_trip(kb, root: Path, out: Path, payload: dict) -> None:
    """Every node extracted as ``faultbot extract`` does (one KB load for all of them, where each
    node would load its own), then merged by the real ``faultbot diagnose --facts``."""
    facts_dir = out / f"{root.name}-facts"
    facts_dir.mkdir(exist_ok=True)
    nodes = sorted(path for path in root.iterdir() if path.is_dir())
    collector = EvidenceCollector(kb)
    start = time.perf_counter()
    for node in nodes:
        extract([LogPath(node)], facts_dir / f"{node.name}.facts.jsonl.gz", node.name, kb, collector)
    extract_s = time.perf_counter() - start
    files = sorted(facts_dir.glob("*.facts.jsonl.gz"))
    logs, facts = tree_bytes(root), sum(path.stat().st_size for path in files)
    start = time.perf_counter()
    merged_path = out / "merged.json"
    with merged_path.open("w") as stream:
        stdout, sys.stdout = sys.stdout, stream
        try:
            faultbot(["diagnose", "--facts", *map(str, files), "--no-ask", "--format", "json"])
        finally:
            sys.stdout = stdout
    merge_s = time.perf_counter() - start
    merged = json.loads(merged_path.read_text())
    same = verdict(merged) == verdict(payload)
    print(f"\nfacts files: {len(files)} nodes extracted in {extract_s:.1f} s ({extract_s / len(files):.2f} s per "
          f"node, one process), merged and diagnosed in "
          f"{merge_s:.1f} s; logs {logs / 2**20:.1f} MB -> facts {facts / 2**20:.2f} MB, "
          f"{logs / facts:.0f}x smaller; verdict identical to the tree's: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ranks", type=int, nargs="+", default=[256, 512, 1024, 2048])
    parser.add_argument("--steps", type=int, default=110,
                        help="training steps of INFO noise per rank (110: run plogs of about 70 KB)")
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "out")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    kb = load_kb(default_kb_dir(), default_articles_dir())
    print(f"{'ranks':>6} {'nodes':>6} {'MB':>7} {'read s':>7} {'engine s':>8} {'cluster s':>9} {'json s':>7} "
          f"{'total s':>8} {'ms/rank':>8}  suspect")
    payload: dict = {}
    root = args.out
    for ranks in args.ranks:
        root = tree(args.out, ranks, args.steps)
        phases, payload = diagnose(kb, root)
        suspect = payload["cluster"]["suspects"][0] if payload.get("cluster", {}).get("suspects") else {}
        print(f"{ranks:>6} {ranks // RANKS_PER_NODE:>6} {tree_bytes(root) / 2**20:>7.1f} {phases['read']:>7.2f} "
              f"{phases['engine']:>8.2f} {phases['cluster']:>9.2f} {phases['json']:>7.2f} {phases['total']:>8.2f} "
              f"{phases['total'] / ranks * 1000:>8.2f}  rank {suspect.get('rank')} "
              f"({payload['conclusions'][0]['id'] if payload['conclusions'] else 'none'})")
    facts_round_trip(kb, root, args.out, payload)


if __name__ == "__main__":
    main()
