"""Every regex the shipped KB runs on log lines (symptoms, extractors, prefilters) stays linear on
long hostile lines: runs of the characters its repeats match, of its anchors, of its literal text.
The safety lint rejects the shapes that are not (a leading \\w+ took 80 s on a 150 KB line); this
checks the lint let nothing slow through, by timing each search, and that each shape it rejects
really is slow: a 600 KB line keeps re busy past a CPU budget."""

from __future__ import annotations

import re
import signal
import sys
import time

import pytest

from faultbot.kb.regex_safety import check_regex
from faultbot.match.regex_budget import WATCH, OverBudget, watching

LINE_CHARS = 30_000        # a shape that backtracks quadratically takes seconds on this, a linear one milliseconds
MAX_SECONDS = 0.5
_UNITS = ("a", "1", "a1 ", "=", "[1]", " ", "x.")
_LITERAL = re.compile(r"[A-Za-z_:\[\]= ]{3,}")


def _line_regexes(kb) -> list[tuple[str, str, tuple[str, ...]]]:
    """(where, pattern, literal anchors) of every regex a log line goes through."""
    found = [(f"extractor {e.id}", e.pattern, e.anchors) for e in kb.catalogue.extractors]
    found += [(f"prefilter of extractor {e.id}", e.prefilter, ()) for e in kb.catalogue.extractors if e.prefilter]
    found += [(f"symptom {s.id} of {entry.id}", s.regex, s.anchors)
              for entry in kb.entries for s in entry.symptoms if s.regex]
    return found


def _hostile_lines(pattern: str, anchors: tuple[str, ...]) -> list[str]:
    literals = _LITERAL.findall(pattern.replace("\\", ""))
    units = (*_UNITS, *anchors, *(a + " " for a in anchors), *(a + "1" for a in anchors), *literals)
    return [(unit * (LINE_CHARS // len(unit) + 1))[:LINE_CHARS] for unit in dict.fromkeys(units)]


def test_the_shipped_kb_has_line_regexes_to_time(kb) -> None:
    assert len(_line_regexes(kb)) > 100


def test_every_shipped_line_regex_is_fast_on_long_hostile_lines(kb) -> None:
    slow = []
    for where, pattern, anchors in _line_regexes(kb):
        compiled = re.compile(pattern)
        for line in _hostile_lines(pattern, anchors):
            started = time.perf_counter()
            for _ in compiled.finditer(line):
                pass
            seconds = time.perf_counter() - started
            if seconds > MAX_SECONDS:
                slow.append(f"{where}: {seconds:.2f} s on {line[:20]!r}...")
    assert not slow, slow


HOSTILE_LINE_CHARS = 600_000   # the bounded leading repeat costs its length at each position: about 0.5 s of CPU here
BUDGET_SECONDS = 0.2       # the watchdog stops a search after between half of this and all of it: 0.1 s of CPU
                           # proves the shape slow (a linear search of the line takes about 1 ms)

# (pattern, what a line is made of, the problem the lint reports)
REJECTED_SHAPES = [
    (r"\w+MARK", "a", "leading repeat"),                                # unbounded, leading
    (r"[a-z]{1,1000}MARK", "a", "leading repeat"),                      # bounded, leading, long
    (r"x[a-z]{1,1000}MARK", "x", "leading repeat"),                     # bounded, after text it matches
    (r"=.{0,1000}x.{0,1000}y", "=x", "adjacent repeats"),               # bounded, trading across the x
    (r"x[^y]{0,1000}z[^y]{0,1000}w", "xz", "adjacent repeats"),
    (r"a.{0,100}?b.{0,100}?c.{0,100}?d", "abc", "adjacent repeats"),    # a chain of bounded lazy repeats
]


@pytest.mark.skipif(not hasattr(signal, "setitimer"), reason="no interval timers here")
@pytest.mark.skipif(sys.version_info < (3, 11), reason="re stops for signals inside a search from Python 3.11")
@pytest.mark.parametrize(("pattern", "unit", "problem"), REJECTED_SHAPES)
def test_every_shape_the_lint_rejects_is_slow_on_a_long_line(pattern: str, unit: str, problem: str) -> None:
    assert [p for p in check_regex(pattern) if p.startswith(problem)], check_regex(pattern)
    line = (unit * (HOSTILE_LINE_CHARS // len(unit) + 1))[:HOSTILE_LINE_CHARS]
    with watching(BUDGET_SECONDS):
        WATCH.begin()
        try:
            with pytest.raises(OverBudget):   # so it ran for at least BUDGET_SECONDS / 2 of CPU
                re.search(pattern, line)
        finally:
            WATCH.end()
