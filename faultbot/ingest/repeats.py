"""Holding back log lines that repeat what an earlier line of the same file said, before they are
parsed: an Entry- line per dispatched collective, the same environment line at every step.

Only plain lines are judged (faultbot/ingest/plog.py ``plain_plog``: one whole plog record that no
clean-up changes), and only where the lines around them cannot join them (a neighbour that is
plain or a gap, a line before that does not end in a space or a launcher label, as a terminal's
wrap would leave it). ``key_of`` says what a line's evidence is: the same key as an earlier line
of the file means the same evidence, apart from facts that differ on every occurrence; an empty
key means the line gives no evidence at all. A repeat is held back in place of the one held
before it, which is counted; a line without evidence is dropped. Either leaves a gap, as the line
prefilter leaves for lines it skips, so the lines around read as they would have. At the end of
the file the held lines come out, each with the count of the repeats it stands for, so that the
last of every run is read in full (faultbot/folding.py then joins the runs). A file of endless
different lines is not remembered past ``MAX_KEYS`` keys: later new lines are read as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Hashable
from dataclasses import dataclass, field
from typing import TypeVar

from faultbot.ingest.lines import PhysicalLine
from faultbot.ingest.normalize import ends_with_label
from faultbot.ingest.plog import PlainPlog, plain_plog

T = TypeVar("T")
NO_EVIDENCE: tuple[()] = ()

RepeatKey = Callable[[PlainPlog], Hashable]
MAX_KEYS = 4096


@dataclass
class RepeatGate:
    """Holds back repeated plain lines of the files of one reader (see the module's description)."""

    key_of: RepeatKey
    _seen: set[Hashable] = field(default_factory=set)
    _held: dict[Hashable, tuple[PhysicalLine, int]] = field(default_factory=dict)

    def lines(self, lines: Generator[PhysicalLine, None, T]) -> Generator[PhysicalLine, None, T]:
        """``lines`` with repeats and lines without evidence replaced by gaps."""
        before: PhysicalLine | None = None      # the line given out last
        line: PhysicalLine | None = None
        line_plain: PlainPlog | None = None
        while True:
            try:
                upcoming: PhysicalLine | None = next(lines)
            except StopIteration as stop:
                upstream, upcoming = stop.value, None
            upcoming_plain = self._plain(upcoming)
            if line is not None:
                kept = self._judge(line, line_plain, before, upcoming, upcoming_plain)
                if kept.text or before is None or before.text:   # one gap stands for several
                    yield kept
                before = kept
            if upcoming is None:
                return upstream
            line, line_plain = upcoming, upcoming_plain

    @staticmethod
    def _plain(line: PhysicalLine | None) -> PlainPlog | None:
        return plain_plog(line.text) if line is not None and line.text and not line.cut else None

    def _judge(self, line: PhysicalLine, plain: PlainPlog | None, before: PhysicalLine | None,
               after: PhysicalLine | None, after_plain: PlainPlog | None) -> PhysicalLine:
        """The line, or a gap in its place."""
        if plain is None or _open_end(before) or _open_end(line) or (after is not None and after.text and
                                                                      after_plain is None):
            return line
        key = self.key_of(plain)
        if key == NO_EVIDENCE:
            return PhysicalLine(line.number, "")
        if key not in self._seen:
            if len(self._seen) < MAX_KEYS:
                self._seen.add(key)
            return line
        _, folded = self._held.get(key, (line, -1))
        self._held[key] = (line, folded + 1)
        return PhysicalLine(line.number, "")

    def held(self) -> list[tuple[PhysicalLine, int]]:
        """The last repeat of every run, with how many earlier repeats it stands for, in line order;
        the gate is then ready for the next file."""
        held = sorted(self._held.values(), key=lambda item: item[0].number)
        self._seen, self._held = set(), {}
        return held


def _open_end(line: PhysicalLine | None) -> bool:
    """Whether the next line could continue ``line``: it ends where a terminal's wrap cut it (in a
    space, a launcher label, or cut for length)."""
    return line is not None and bool(line.text) and (line.cut or line.text[-1:].isspace() or ends_with_label(line.text))
