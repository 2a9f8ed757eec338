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

from collections.abc import Callable, Generator, Hashable
from typing import TypeVar

import msgspec

from faultbot.ingest.lines import PhysicalLine
from faultbot.ingest.normalize import ends_with_label

T = TypeVar("T")
NO_EVIDENCE: tuple[()] = ()

RepeatKey = Callable[[str], Hashable | None]     # a line's key; None when it is not a plain line
MAX_KEYS = 4096


class RepeatGate(msgspec.Struct):
    """Holds back repeated plain lines of the files of one reader (see the module's description)."""

    key_of: RepeatKey
    # every key met in the file (up to MAX_KEYS), with the repeat held for it and how many it stands for
    _runs: dict[Hashable, tuple[PhysicalLine | None, int]] = msgspec.field(default_factory=dict)

    def lines(self, lines: Generator[PhysicalLine, None, T]) -> Generator[PhysicalLine, None, T]:
        """``lines`` with repeats and lines without evidence replaced by gaps."""
        after_gap = False       # the line given out last was a gap (a first gap is given out)
        open_before = False     # the line given out last could go on in the next (``_open_end``)
        line: PhysicalLine | None = None
        line_key: Hashable | None = None
        while True:
            try:
                upcoming: PhysicalLine | None = next(lines)
            except StopIteration as stop:
                upstream, upcoming = stop.value, None
            upcoming_key = (self.key_of(upcoming.text) if upcoming is not None and upcoming.text and not upcoming.cut
                            else None)
            if line is not None:
                if line.text and self._keeps(line, line_key, open_before, upcoming, upcoming_key):
                    yield line
                    after_gap, open_before = False, _open_end(line)
                elif not after_gap:   # one gap stands for several
                    yield line if not line.text else PhysicalLine(line.number, "")
                    after_gap, open_before = True, False
            if upcoming is None:
                return upstream
            line, line_key = upcoming, upcoming_key

    def _keeps(self, line: PhysicalLine, key: Hashable | None, open_before: bool,
               after: PhysicalLine | None, after_key: Hashable | None) -> bool:
        """Whether the line (of ``key``) is given out (else a gap takes its place)."""
        if key is None or open_before or _open_end(line) or (after is not None and after.text and after_key is None):
            return True
        if key == NO_EVIDENCE:
            return False
        run = self._runs.get(key)
        if run is None:
            if len(self._runs) < MAX_KEYS:
                self._runs[key] = _NOT_HELD
            return True
        self._runs[key] = (line, run[1] + 1)
        return False

    def held(self) -> list[tuple[PhysicalLine, int]]:
        """The last repeat of every run, with how many earlier repeats it stands for, in line order;
        the gate is then ready for the next file."""
        held = sorted(((line, folded) for line, folded in self._runs.values() if line is not None),
                      key=lambda item: item[0].number)
        self._runs = {}
        return held


_NOT_HELD: tuple[None, int] = (None, -1)


def _open_end(line: PhysicalLine) -> bool:
    """Whether the next line could continue ``line`` (not empty): it ends where a terminal's wrap cut
    it (in a space, a launcher label, or cut for length)."""
    return line.cut or line.text[-1].isspace() or ends_with_label(line.text)
