"""Reading a large log tree on every core: files are spread over worker processes, each with its
own compiled extractors and matchers, and their evidence is joined in file order.

Only directory trees are split (one task per file); pastes, standard input and single files or
archives are read in the calling process. Results are the same as reading sequentially, and so is
the run's budget of decompressed bytes: the workers and the calling process charge one account in
shared memory (faultbot/ingest/budget.py), not one budget each.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from .evidence import Evidence, EvidenceCollector
from .ingest.budget import SharedRunBytes, share_run_budget
from .ingest.inputs import InputSpec, LogPath
from .ingest.limits import DEFAULT_LIMITS, ReadLimits
from .ingest.sources import walk
from .ingest.stats import InputStats, SkippedFile
from .kb.loader import KnowledgeBase

if TYPE_CHECKING:
    from concurrent.futures import ProcessPoolExecutor

PARALLEL_FROM_BYTES = 32 << 20     # below this, starting workers costs more than it saves
_worker: EvidenceCollector | None = None


def _directory_files(spec: InputSpec) -> list[Path | SkippedFile] | None:
    """The files of a directory input, or None when the input is not a directory."""
    if isinstance(spec, LogPath) and Path(spec.path).is_dir():
        return list(walk(Path(spec.path)))
    return None


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _init(kb: KnowledgeBase | None, use_prefilter: bool, engine: str | None, run_bytes: SharedRunBytes) -> None:
    """Where workers are forked they inherit the caller's compiled collector; elsewhere
    (spawned workers) each compiles its own from the KB. Either charges the run's shared budget."""
    global _worker
    if kb is not None:
        _worker = EvidenceCollector(kb, use_prefilter, engine)
    share_run_budget(run_bytes)


def _shared_run_bytes(limits: ReadLimits) -> SharedRunBytes:
    """The run's budget of decompressed bytes, in memory the workers will share."""
    # Imported here (and in _pool): most inputs are read in this process, and these modules cost a
    # snippet's diagnosis.
    import multiprocessing

    return SharedRunBytes(multiprocessing.Value("q", limits.max_run_bytes))


def _pool(kb: KnowledgeBase, collector: EvidenceCollector, workers: int, run_bytes: SharedRunBytes
          ) -> ProcessPoolExecutor:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    global _worker
    if "fork" in multiprocessing.get_all_start_methods():
        _worker = collector
        return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"),
                                   initializer=_init, initargs=(None, False, None, run_bytes))
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init,
                               initargs=(kb, collector.line_filter is not None, collector.engine, run_bytes))


def _collect(path: Path, limits: ReadLimits) -> Evidence:
    assert _worker is not None
    return _worker.from_inputs([LogPath(path)], limits)


def collect(kb: KnowledgeBase, collector: EvidenceCollector, inputs: Sequence[InputSpec],
            workers: int | None = None, limits: ReadLimits = DEFAULT_LIMITS) -> Evidence:
    """Evidence from ``inputs``, in input order, with directory trees read by ``workers`` processes
    (default: one per core) when they are large enough to be worth it."""
    workers = workers or os.cpu_count() or 1
    listed = [_directory_files(spec) for spec in inputs]
    files = [item for items in listed if items for item in items if isinstance(item, Path)]
    if workers < 2 or len(files) < 2 or sum(map(_size, files)) < PARALLEL_FROM_BYTES:
        return collector.from_inputs(inputs, limits)
    parts: list[Evidence] = []
    run_bytes = _shared_run_bytes(limits)
    share_run_budget(run_bytes)
    try:
        with _pool(kb, collector, workers, run_bytes) as pool:
            for spec, items in zip(inputs, listed):
                if items is None:
                    parts.append(collector.from_inputs([spec], limits))
                    continue
                paths = [item for item in items if isinstance(item, Path)]
                skipped = tuple(item for item in items if isinstance(item, SkippedFile))
                parts += pool.map(partial(_collect, limits=limits), paths,
                                  chunksize=max(1, len(paths) // (workers * 8)))
                parts.append(Evidence((), (), InputStats(skipped=skipped)))
    finally:
        share_run_budget(None)
    return _joined(parts)


def _joined(parts: Sequence[Evidence]) -> Evidence:
    stats = InputStats()
    for part in parts:
        stats = stats.combined(part.stats or InputStats())
    return Evidence(tuple(o for p in parts for o in p.observations), tuple(m for p in parts for m in p.matches), stats)
