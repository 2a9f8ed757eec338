"""Reading a large log tree on every core: files are spread over worker processes, each with its
own compiled extractors and matchers, and their evidence is joined in file order.

Only directory trees are split (one task per file); pastes, standard input and single files or
archives are read in the calling process. Results are the same as reading sequentially. Each worker
folds the evidence of its file (faultbot/folding.py) and the calling process folds what they give
once more, as it comes, as one reading: the bounds on what is kept over all files hold, and memory
stays what they keep. The run's budget of decompressed bytes is one account in shared memory that
the workers and the calling process charge (faultbot/ingest/budget.py), not one budget each.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from .evidence import Evidence, EvidenceCollector
from .extract.facts import Observation
from .folding import Found, RecordFolder
from .ingest.budget import SharedRunBytes, share_run_budget
from .ingest.inputs import InputSpec, LogPath
from .ingest.limits import DEFAULT_LIMITS, ReadLimits
from .ingest.sources import walk
from .ingest.stats import InputStats, SkippedFile
from .kb.loader import KnowledgeBase
from .match.symptoms import SymptomMatch

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


def _collect(path: Path, limits: ReadLimits) -> tuple[list[Found], InputStats]:
    assert _worker is not None
    return _worker.folded([LogPath(path)], limits)


def collect(kb: KnowledgeBase, collector: EvidenceCollector, inputs: Sequence[InputSpec],
            workers: int | None = None, limits: ReadLimits = DEFAULT_LIMITS) -> Evidence:
    """Evidence from ``inputs``, in input order, with directory trees read by ``workers`` processes
    (default: one per core) when they are large enough to be worth it."""
    workers = workers or os.cpu_count() or 1
    listed = [_directory_files(spec) for spec in inputs]
    files = [item for items in listed if items for item in items if isinstance(item, Path)]
    if workers < 2 or len(files) < 2 or sum(map(_size, files)) < PARALLEL_FROM_BYTES:
        return collector.from_inputs(inputs, limits)
    merged = _Merged(collector.per_occurrence)
    run_bytes = _shared_run_bytes(limits)
    share_run_budget(run_bytes)
    try:
        with _pool(kb, collector, workers, run_bytes) as pool:
            for spec, items in zip(inputs, listed):
                if items is None:
                    merged.add(*collector.folded([spec], limits))
                    continue
                paths = [item for item in items if isinstance(item, Path)]
                for found, stats in pool.map(partial(_collect, limits=limits), paths,
                                             chunksize=max(1, len(paths) // (workers * 8))):
                    merged.add(found, stats)
                merged.add((), InputStats(skipped=tuple(item for item in items if isinstance(item, SkippedFile))))
    finally:
        share_run_budget(None)
    return merged.evidence()


class _Merged:
    """The evidence of a reading's parts, added in input order and folded as one reading."""

    def __init__(self, per_occurrence: frozenset[str]):
        self._folder = RecordFolder.merging(per_occurrence)
        self._observations: list[Observation] = []
        self._matches: list[SymptomMatch] = []
        self._stats = InputStats()

    def _keep(self, found: Iterable[Found]) -> None:
        for each in found:
            self._observations += each.observations
            self._matches += each.matches

    def add(self, found: Iterable[Found], stats: InputStats) -> None:
        for each in found:
            self._keep(self._folder.add(each))
        self._stats = self._stats.combined(stats)

    def evidence(self) -> Evidence:
        self._keep(self._folder.finish())
        return Evidence(tuple(self._observations), tuple(self._matches), self._stats.noting(self._folder.notes))
