"""A CPU-time budget for the KB's regexes on one record: the second line of defence behind the regex
safety lint (faultbot/kb/regex_safety.py), for a slow shape the lint does not know yet.

Timing every search would cost more than the search (google-re2 or the ``regex`` module's timeout
add 6 to 18 µs to a 0.6 µs ``re`` search), so a watchdog keeps the budget instead. While ``watching``
is in force an interval timer of the process's user CPU time (ITIMER_VIRTUAL: a loaded machine does
not count) ticks every half budget, and the KB-regex work of one record runs as a guarded section
(``WATCH.begin()`` ... ``WATCH.end()``), which costs two attribute stores. A tick that finds the
section it found at the previous tick still running raises ``OverBudget`` inside it: ``re`` checks
for signals while it matches, so even a search that would backtrack for hours stops there. A section
is stopped after between half the budget and the budget.

Before Python 3.11, ``re`` does not check for signals while it matches: the ticks wait for the
search to return, and the one tick that then runs, late by more than a tick's interval, stops the
section. There a slow search runs to its end once, and its regex is left out from then on.

Signals reach Python on the main thread only, and Windows has no SIGVTALRM: there ``watching`` does
nothing and the regexes run unbounded, as they would without it. Timers do not survive a fork, so a
worker process arms its own. The handler and timer in place before are put back after. A slow regex
that the repeat gate (faultbot/ingest/repeats.py) meets before its record is read can spend a budget
or two there too before it is left out.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType


class OverBudget(Exception):
    """The KB-regex work of a record ran past its time budget. ``rule`` names the KB regex that was
    running and ``leave_out()`` keeps it from running again in this process; the matcher or
    extractor that ran it sets both (a tick raises the bare exception)."""

    def __init__(self, rule: str = "", leave_out: Callable[[], object] = lambda: None) -> None:
        super().__init__(rule)
        self.rule = rule
        self.leave_out = leave_out


class _Watch:
    """What the ticks compare: how many sections have begun, whether one runs now, and when the last
    tick came."""

    __slots__ = ("armed_in", "inside", "interval", "last_tick", "seen", "sections")

    def __init__(self) -> None:
        self.sections = 0        # guarded sections begun
        self.seen = -1           # ... as the last tick found them
        self.inside = False      # a section runs
        self.armed_in = 0        # the process whose timer ticks (0: none)
        self.interval = 0.0      # CPU seconds between ticks
        self.last_tick = 0.0     # process CPU time of the last tick (or of arming)

    def begin(self) -> None:
        self.sections += 1
        self.inside = True

    def end(self) -> None:
        self.inside = False

    def arm(self, interval: float) -> None:
        self.interval = interval
        self.last_tick = time.process_time()

    def tick(self, signum: int, frame: FrameType | None) -> None:
        now = time.process_time()
        # a tick held back by a search that does not stop for signals (re before Python 3.11)
        late = now - self.last_tick >= 2 * self.interval
        self.last_tick = now
        if self.inside and (self.sections == self.seen or late):
            self.inside = False      # one exception per section, however long it takes to unwind
            raise OverBudget()
        self.seen = self.sections


WATCH = _Watch()


def _can_watch() -> bool:
    return (hasattr(signal, "setitimer") and hasattr(signal, "SIGVTALRM")
            and threading.current_thread() is threading.main_thread())


@contextmanager
def watching(seconds: float) -> Iterator[None]:
    """Within it, a guarded section of this thread that runs for ``seconds`` of CPU time raises
    OverBudget (see the module's description); ``seconds`` of 0 or less means no budget. Nested
    uses keep the outer one's timer."""
    if seconds <= 0 or WATCH.armed_in == os.getpid() or not _can_watch():
        yield
        return
    try:
        previous_handler = signal.signal(signal.SIGVTALRM, WATCH.tick)
    except ValueError:      # not the main interpreter's main thread after all
        yield
        return
    WATCH.arm(seconds / 2)
    previous_timer = signal.setitimer(signal.ITIMER_VIRTUAL, seconds / 2, seconds / 2)
    WATCH.armed_in = os.getpid()
    try:
        yield
    finally:
        WATCH.armed_in = 0
        signal.setitimer(signal.ITIMER_VIRTUAL, *previous_timer)
        # None: a handler set outside Python, which cannot be put back from here
        signal.signal(signal.SIGVTALRM, signal.SIG_DFL if previous_handler is None else previous_handler)
