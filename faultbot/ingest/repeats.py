"""Holding back log lines that repeat what an earlier line of the same file said, before they are
parsed: an Entry- line per dispatched collective, the same environment line at every step.

Only plain lines are judged (faultbot/ingest/plog.py ``plain_plog``: one whole plog record that no
clean-up changes), and only where the lines around them cannot join them (a neighbour that is plain
or a gap, a line before that does not end in a space or a launcher label, as a terminal's wrap would
leave it). ``key_of`` says whether a line is plain (None: not) and what its evidence is: the same
key as an earlier line of the file means the same evidence, apart from facts that differ on every
occurrence; an empty key means the line gives no evidence at all. A repeat is held back in place
of the one held before it, which is counted; a line without evidence is dropped. Either leaves a
gap, as the line prefilter leaves for lines it skips, so the lines around read as they would have.
At the end of the file the held lines come out, each with the count of the repeats it stands for,
so that the last of every run is read in full (faultbot/folding.py then joins the runs). A file of
endless different lines is not remembered past ``MAX_KEYS`` keys: later new lines are read as they
are.
"""

from __future__ import annotations

from collections.abc import Generator, Hashable
from typing import Protocol, TypeVar

import msgspec

from faultbot.ingest.lines import PhysicalLine
from faultbot.ingest.normalize import ends_with_label

T = TypeVar("T")
NO_EVIDENCE: tuple[()] = ()

MAX_KEYS = 4096


class RepeatKey(Protocol):
    def __call__(self, text: str) -> Hashable | None:
        """A line's key; None when it is not a plain line."""

    def file_read(self) -> None:
        """A file has been read: what was remembered of its lines alone may go."""


class RepeatGate(msgspec.Struct):
    """Holds back repeated plain lines of the files of one reader (see the module's description)."""

    key_of: RepeatKey
    # every key met in the file (up to MAX_KEYS), with the repeat held for it and how many it stands for
    _runs: dict[Hashable, tuple[PhysicalLine | None, int]] = msgspec.field(default_factory=dict)

    def lines(self, lines: Generator[PhysicalLine, None, T]) -> Generator[PhysicalLine, None, T]:
        """``lines`` with repeats and lines without evidence replaced by gaps."""
        # one loop, with what it uses in locals: it runs for every line the prefilter lets through
        key_of, runs = self.key_of, self._runs
        after_gap = False       # the line given out last was a gap (a first gap is given out)
        open_before = False     # the line given out last could go on in the next (``open_end``)
        line, text, key = _NO_LINE, "", None
        while True:
            try:
                upcoming = next(lines)
            except StopIteration as stop:
                upstream: T = stop.value
                upcoming = _NO_LINE
            upcoming_text = upcoming.text
            upcoming_key = key_of(upcoming_text) if upcoming_text and not upcoming.cut else None
            keep = open_end = False
            if text:
                # the next line could continue this one: it ends where a terminal's wrap cut it (in a
                # space, a launcher label, or cut for length); a label ends in ":" or ": "
                last = text[-1]
                open_end = line.cut or last.isspace() or (last == ":" and ends_with_label(text))
                if key is None or open_before or open_end or (upcoming_text and upcoming_key is None):
                    keep = True
                elif key != NO_EVIDENCE:
                    run = runs.get(key)
                    if run is not None:
                        runs[key] = (line, run[1] + 1)
                    else:
                        keep = True
                        if len(runs) < MAX_KEYS:
                            runs[key] = _NOT_HELD
            if keep:
                yield line
                after_gap, open_before = False, open_end
            elif not after_gap and line is not _NO_LINE:   # one gap stands for several
                yield PhysicalLine(line.number, "") if text else line
                after_gap, open_before = True, False
            if upcoming is _NO_LINE:
                return upstream
            line, text, key = upcoming, upcoming_text, upcoming_key

    def held(self) -> list[tuple[PhysicalLine, int]]:
        """The last repeat of every run, with how many earlier repeats it stands for, in line order;
        the gate (and the key, told the file is read) is then ready for the next file."""
        held = sorted(((line, folded) for line, folded in self._runs.values() if line is not None),
                      key=lambda item: item[0].number)
        self._runs.clear()     # in place: ``lines`` holds it
        self.key_of.file_read()
        return held


_NOT_HELD: tuple[None, int] = (None, -1)
_NO_LINE = PhysicalLine(0, "")     # before the first line and after the last
