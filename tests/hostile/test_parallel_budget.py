"""The run's budget of decompressed bytes (FAULTBOT_MAX_RUN_BYTES) holds for the run when a tree is
read by several worker processes: they charge one account, so six gzip bombs of 4 MiB under a
6 MiB budget give 6 MiB, not 6 MiB a worker or a file. Bytes are taken from the account before a
read, and what a read did not use, even one that failed, goes back."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from faultbot import parallel
from faultbot.evidence import EvidenceCollector
from faultbot.ingest import LogPath, ReadLimits
from faultbot.ingest.budget import ByteBudget, SharedRunBytes, metered, share_run_budget
from faultbot.ingest.limits import RUN_BYTES_VARIABLE
from tests.hostile import generate as g

BOMBS, BOMB_BYTES, RUN_BYTES = 6, 4 << 20, 6 << 20
SPENT = f"stopped after 6 MiB decompressed in this run (the budget of all inputs, {RUN_BYTES_VARIABLE})"


def _tree(root: Path) -> Path:
    """Six nodes' gzip bombs, and a model file large enough on disk (sparse, never read: binary by its
    name) that the tree is read in parallel."""
    for node in range(BOMBS):
        (root / f"node-{node}").mkdir(parents=True)
        g.gzip_bomb(root / f"node-{node}", BOMB_BYTES)
    with open(root / "model.om", "wb") as model:
        model.truncate(parallel.PARALLEL_FROM_BYTES + 1)
    return root


def test_workers_share_the_run_budget(tmp_path: Path, kb, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = _tree(tmp_path / "logs")
    monkeypatch.setattr(parallel, "PARALLEL_FROM_BYTES", 0)     # parallel whatever this machine's cores
    evidence = parallel.collect(kb, EvidenceCollector(kb), [LogPath(tree)], workers=2,
                                limits=ReadLimits(max_run_bytes=RUN_BYTES))
    assert evidence.stats is not None
    assert evidence.stats.bytes_read == RUN_BYTES
    # two bombs fill the budget: at most one is read whole (which, the workers' timing decides)
    assert sum(note.reason.endswith(SPENT) for note in evidence.stats.skipped) >= BOMBS - 1


def test_a_tree_read_in_parallel_stops_at_the_run_budget(tmp_path: Path) -> None:
    tree = _tree(tmp_path / "logs")
    run = g.run_faultbot("diagnose", "--no-ask", "--format", "json", tree, peak_file=tmp_path / "peak",
                         env={RUN_BYTES_VARIABLE: "6M"})
    g.assert_bounded(run)
    assert run.returncode == 0, run.stderr
    data = run.json()
    assert data["input"]["bytes"] == RUN_BYTES
    assert sum(reason.endswith(SPENT) for reason in run.skipped().values()) >= BOMBS - 1


class _Failing(io.RawIOBase):
    """A decompressed stream that gives ``good`` bytes, then fails as a damaged gzip does."""

    def __init__(self, good: int) -> None:
        super().__init__()
        self._left = good

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        if not self._left:
            raise OSError("damaged")
        count = min(len(buffer), self._left)
        buffer[:count] = b"x" * count
        self._left -= count
        return count


def test_bytes_taken_for_a_read_that_fails_go_back_to_the_run() -> None:
    import multiprocessing

    shared = SharedRunBytes(multiprocessing.Value("q", 1 << 20))
    budget = ByteBudget(ReadLimits(max_run_bytes=1 << 20))
    share_run_budget(shared)
    try:
        stream = metered(io.BufferedReader(_Failing(1000)), ByteBudget(ReadLimits(max_run_bytes=1 << 20)))
    finally:
        share_run_budget(None)
    with pytest.raises(OSError):
        stream.read()
    assert shared.take(2 << 20) == (1 << 20) - 1000     # what the other processes may still read
    assert budget.take(2 << 20) == 1 << 20              # a budget made with none shared is its own
