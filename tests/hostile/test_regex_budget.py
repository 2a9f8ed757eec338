"""A KB regex that the safety lint lets through but that is slow on a long line is stopped by the
per-record time budget (faultbot/match/regex_budget.py, FAULTBOT_MAX_REGEX_SECONDS): ``diagnose
--kb`` on such a KB finishes within seconds, says which regex on which line ran out of time, leaves
it out of the rest of the reading, and still concludes from the other lines and regexes; the same
holds in the worker processes of a tree read in parallel. The watchdog itself stops only guarded
work, puts back the handler and timer it found, and does nothing off the main thread."""

from __future__ import annotations

import re
import resource
import shutil
import signal
import sys
import threading
import time
from pathlib import Path

import pytest

from faultbot import parallel
from faultbot.evidence import EvidenceCollector
from faultbot.ingest.inputs import LogPath
from faultbot.ingest.limits import REGEX_SECONDS_VARIABLE, ReadLimits
from faultbot.kb.loader import load_kb
from faultbot.kb.regex_safety import check_regex
from faultbot.match.regex_budget import WATCH, OverBudget, watching
from tests.hostile import generate as g

from ..conftest import REPO_DIR

pytestmark = pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timers here")

# A shape the lint lets through by its own limits: two short lazy repeats that share a run out 31 x 31
# ways, under its limit of 1,000 a position (kb/README.md, "Regex rules"), but behind a prefix they
# also match, so on a line of x's every x is a start that tries them all before it fails: about
# 0.3 s of CPU on a 64 KB record; the tests give it a budget well below that.
SLOW = r"x[a-z]{0,30}?[a-z]{0,30}?MARK(?P<kernel_name>\w+)"
SLOW_LINE = "MARK " + "x" * 150_000
BUDGET_SECONDS = 0.05
# Before Python 3.11 ``re`` does not stop for signals: the tick comes when the search has returned,
# possibly outside the extractor that would name its regex, and then the record is what is noted.
_WHAT_RAN_PAST = ("the KB regex of extractor slow ran past its" if sys.version_info >= (3, 11)
                  else "(?:the KB regex of extractor slow ran past its|reading it ran past the KB regexes')")
BUDGET_NOTE = re.compile(rf"line (\d+): {_WHAT_RAN_PAST} time budget \({BUDGET_SECONDS:g} s of CPU, "
                         rf"{REGEX_SECONDS_VARIABLE}\)")


def test_the_slow_regex_passes_the_safety_lint_and_is_slow() -> None:
    assert check_regex(SLOW) == []
    with watching(0.1):
        WATCH.begin()
        try:
            with pytest.raises(OverBudget):
                re.search(SLOW, SLOW_LINE)
        finally:
            WATCH.end()


@pytest.fixture(scope="module")
def slow_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the shipped KB with one more extractor, whose regex is SLOW; its kb/ folder."""
    root = tmp_path_factory.mktemp("slow-kb")
    shutil.copytree(REPO_DIR / "kb", root / "kb")
    shutil.copytree(REPO_DIR / "articles", root / "articles")
    (root / "kb/facts/slow.yaml").write_text(f"extractors:\n  - id: slow\n    regex: '{SLOW}'\n    anchors: [MARK]\n")
    return root / "kb"


def _log(directory: Path, name: str = "job.log") -> Path:
    """A known error (hccl.notify-timeout), then one line the slow regex takes hours on, then the error again."""
    path = directory / name
    path.write_text(f"{g.notify_timeout()}\n{SLOW_LINE}\n{g.notify_timeout(task=22)}\n")
    return path


@pytest.mark.parametrize("output", ["markdown", "json"])
def test_diagnose_stops_the_slow_regex_notes_it_and_still_concludes(tmp_path: Path, slow_kb: Path,
                                                                     output: str) -> None:
    run = g.run_faultbot("diagnose", "--no-ask", "--kb", slow_kb, "--format", output, _log(tmp_path),
                         peak_file=tmp_path / "peak", env={"FAULTBOT_CACHE": str(slow_kb.parent / "cache"),
                                                           REGEX_SECONDS_VARIABLE: str(BUDGET_SECONDS)})
    g.assert_bounded(run)
    assert run.returncode == 0, run.stderr
    if output == "json":
        assert run.json()["conclusions"][0]["id"] == "hccl.notify-timeout"
        notes = [reason for name, reason in run.skipped().items() if name.endswith("job.log")]
    else:
        assert "hccl.notify-timeout" in run.stdout
        notes = [line for line in run.stdout.splitlines() if "time budget" in line]
    # the line is cut into records of 64 KB: the first one spends the budget, the rest skip the regex
    assert len(notes) == 1 and BUDGET_NOTE.search(notes[0]), notes
    assert BUDGET_NOTE.search(notes[0])[1] == "2"


def test_workers_of_a_parallel_reading_keep_the_budget(tmp_path: Path, slow_kb: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    kb = load_kb(slow_kb, slow_kb.parent / "articles")
    tree = tmp_path / "logs"
    tree.mkdir()
    for node in range(2):
        _log(tree, f"node-{node}.log")
    monkeypatch.setattr(parallel, "PARALLEL_FROM_BYTES", 0)
    started = time.monotonic()
    evidence = parallel.collect(kb, EvidenceCollector(kb), [LogPath(tree)], workers=2,
                                limits=ReadLimits(max_regex_seconds=BUDGET_SECONDS))
    assert time.monotonic() - started < 20
    assert evidence.stats is not None
    noted = sorted(Path(note.name).name for note in evidence.stats.skipped if BUDGET_NOTE.search(note.reason))
    assert noted == ["node-0.log", "node-1.log"]
    assert {m.entry_id for m in evidence.matches} >= {"hccl.notify-timeout"}


def _user_seconds() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_utime


def _busy(seconds: float) -> None:
    """Spend ``seconds`` of user CPU time, as a regex does (the budget's timer counts user time)."""
    until = _user_seconds() + seconds
    while _user_seconds() < until:
        sum(range(100_000))


def test_work_outside_a_section_is_never_stopped() -> None:
    with watching(0.1):
        _busy(0.4)
        WATCH.begin()
        WATCH.end()
        _busy(0.2)


@pytest.mark.skipif(sys.version_info < (3, 11), reason="re stops for signals inside a search from Python 3.11")
def test_a_section_is_stopped_between_half_the_budget_and_the_budget() -> None:
    with watching(0.2):
        WATCH.begin()
        started = _user_seconds()
        try:
            with pytest.raises(OverBudget):
                re.search(SLOW, SLOW_LINE)
        finally:
            WATCH.end()
        assert 0.1 <= _user_seconds() - started < 0.3


def test_the_handler_and_timer_in_place_before_are_put_back() -> None:
    def theirs(signum: int, frame: object) -> None:
        pass

    previous = signal.signal(signal.SIGVTALRM, theirs)
    try:
        signal.setitimer(signal.ITIMER_VIRTUAL, 100)
        with watching(0.2):
            assert signal.getsignal(signal.SIGVTALRM) != theirs
            with watching(0.05):            # nested: the outer timer stays
                assert signal.getitimer(signal.ITIMER_VIRTUAL)[1] == pytest.approx(0.1)
        assert signal.getsignal(signal.SIGVTALRM) is theirs
        assert 99 < signal.getitimer(signal.ITIMER_VIRTUAL)[0] <= 100.1
    finally:
        signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        signal.signal(signal.SIGVTALRM, previous)


def test_off_the_main_thread_there_is_no_budget_and_no_error() -> None:
    seen: list[object] = []

    def diagnose_in_a_thread() -> None:
        with watching(0.05):
            seen.append(signal.getitimer(signal.ITIMER_VIRTUAL))
            WATCH.begin()
            try:
                _busy(0.2)
            finally:
                WATCH.end()
        seen.append("done")

    thread = threading.Thread(target=diagnose_in_a_thread)
    thread.start()
    thread.join(10)
    assert seen == [(0.0, 0.0), "done"]


def test_the_budget_is_read_from_the_environment() -> None:
    assert ReadLimits().max_regex_seconds == 1.0
    assert ReadLimits.from_environment({REGEX_SECONDS_VARIABLE: "0.25"}).max_regex_seconds == 0.25
    assert ReadLimits.from_environment({REGEX_SECONDS_VARIABLE: "0"}).max_regex_seconds == 0
    for unreadable in ("soon", "-1", "nan", "inf"):
        assert ReadLimits.from_environment({REGEX_SECONDS_VARIABLE: unreadable}).max_regex_seconds == 1.0
    with watching(0):
        assert signal.getitimer(signal.ITIMER_VIRTUAL) == (0.0, 0.0)
