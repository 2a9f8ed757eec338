"""The cluster view of a rank whose task exception is split across rotated plog files: one process,
one rank, and the op mismatch its joined lines show points at it (issues 14 and 17)."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

from ..conftest import REPO_DIR
from .conftest import cluster_tree as tree

AT = datetime(2025, 10, 24, 11, 20, 0)
GROUP = "10.0.0.1%enp_60000_0_1761275812718970"
SIZE = 3


def lines(rank: tree.Rank, count: int, delay_ms: int) -> list[str]:
    moment = AT + timedelta(milliseconds=delay_ms)
    return [text for _, _, text in tree.task_exception(rank, moment, "AllReduce", GROUP, rank.world, SIZE, count=count)]


def write(path: Path, texts: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(texts) + "\n", encoding="utf-8")
    return path


def cluster_of(root: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "faultbot", "diagnose", str(root), "--no-ask", "--format", "json"],
                          capture_output=True, text=True, timeout=120, cwd=REPO_DIR)
    assert done.stdout and "Traceback" not in done.stderr, (done.returncode, done.stderr)
    return json.loads(done.stdout).get("cluster") or {}


def test_a_rank_split_across_rotated_plogs_is_one_process_and_its_op_mismatch_is_found(tmp_path: Path) -> None:
    ranks = [tree.Rank(world // 2, world % 2, world, SIZE, 2) for world in range(SIZE)]
    for r in ranks[:2]:
        write(tmp_path / f"node-{r.node}" / "log" / "run" / "plog" / f"plog-{r.pid}_1.log", lines(r, 524288, r.world))
    odd = ranks[2]
    base, *continuation = lines(odd, 1024, 2)
    plog = tmp_path / f"node-{odd.node}" / "log" / "run" / "plog"
    write(plog / f"plog-{odd.pid}_1.log", [base])
    rotated = write(plog / f"plog-{odd.pid}_2.log", continuation)

    cluster = cluster_of(tmp_path)
    assert cluster["ranks"] == SIZE           # its two files are one process, which its groupRank line names rank 2
    [mismatch] = [f for f in cluster["findings"] if f["kind"] == "op-mismatch"]
    assert mismatch["ranks"] == [{"rank": 2, "node": "node-1", "pid": odd.pid}]
    assert mismatch["reason"].startswith("it failed in AllReduce (count 1024, bfloat16) while 2 other rank(s)")
    assert [(s["rank"], s["pid"]) for s in cluster["suspects"]] == [(2, odd.pid)]

    rotated.unlink()
    cluster = cluster_of(tmp_path)
    assert cluster["ranks"] == 2              # without its groupRank line the process holds no known rank
    assert not [f for f in cluster["findings"] if f["kind"] == "op-mismatch"]
