"""The ingest entry point: inputs in, a stream of LogRecords out, and what reading came to.

    reader = LogReader([LogPath("logs/"), Paste(text)])
    for record in reader.records():
        ...
    reader.stats  # InputStats: counts and skipped files
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence

from msgspec.structs import replace

from faultbot.ingest.assemble import SourceContext, assemble
from faultbot.ingest.budget import ByteBudget
from faultbot.ingest.decode import DecodeTally, LineDecoding, iter_text
from faultbot.ingest.inputs import InputSpec
from faultbot.ingest.limits import DEFAULT_LIMITS, ReadLimits
from faultbot.ingest.line_budget import LineBudget, counting
from faultbot.ingest.line_filter import LineFilter, select_lines
from faultbot.ingest.lines import PhysicalLine, split_lines
from faultbot.ingest.pathinfo import hints_from_path
from faultbot.ingest.records import LogRecord
from faultbot.ingest.repeats import RepeatGate, RepeatKey
from faultbot.ingest.sources import Source, TextSource, sources_of
from faultbot.ingest.stats import InputStats, SkippedFile, SourceTally


class LogReader:
    """Reads inputs lazily: records stream out while files are read one at a time, so memory
    stays bounded however large the inputs are."""

    def __init__(self, inputs: Sequence[InputSpec], limits: ReadLimits = DEFAULT_LIMITS,
                 line_filter: LineFilter | None = None, repeat_key: RepeatKey | None = None) -> None:
        self._inputs = tuple(inputs)
        self._limits = limits
        self._line_filter = line_filter
        # files read through the line filter also hold back repeated lines (faultbot/ingest/repeats.py)
        self._gate = RepeatGate(repeat_key) if repeat_key is not None and line_filter is not None else None
        self._totals = InputStats()
        # Appended to rather than copied into the totals each time: there may be thousands.
        self._skipped: list[SkippedFile] = []
        self._decoded_as: list[tuple[str, str]] = []

    @property
    def stats(self) -> InputStats:
        """Counts for the sources read so far; final once ``records()`` is exhausted."""
        return replace(self._totals, skipped=tuple(self._skipped), decoded_as=tuple(self._decoded_as))

    def records(self) -> Iterator[LogRecord]:
        """The records of all inputs in order. Each call reads the inputs again (standard input
        only once) and restarts the counts."""
        self._totals = InputStats()
        self._skipped = []
        self._decoded_as = []
        budget = ByteBudget(self._limits)
        for spec in self._inputs:
            for item in sources_of(spec, self._limits, budget):
                if isinstance(item, SkippedFile):
                    self._skipped.append(item)
                    continue
                tally, problems = yield from _read_source(item, self._limits, self._line_filter, self._gate)
                self._totals = self._totals.adding(tally)
                self._skipped += problems
                if tally.encoding is not None and tally.encoding != "utf-8":
                    self._decoded_as.append((item.name, tally.encoding))


def read_records(
    inputs: Sequence[InputSpec], limits: ReadLimits = DEFAULT_LIMITS
) -> Iterator[LogRecord]:
    """The records of ``inputs``, for callers that need no stats."""
    return LogReader(inputs, limits).records()


def _whole_text(text: str) -> Generator[str, None, DecodeTally]:
    yield text
    return DecodeTally(len(text.encode("utf-8", "surrogatepass")), 0, "utf-8")


def _one(line: PhysicalLine) -> Generator[PhysicalLine, None, None]:
    yield line


def _read_source(
    source: Source, limits: ReadLimits, line_filter: LineFilter | None = None, gate: RepeatGate | None = None
) -> Generator[LogRecord, None, tuple[SourceTally, list[SkippedFile]]]:
    decoding: LineDecoding | None = None
    budget = LineBudget(limits)
    if isinstance(source, TextSource):
        lines = counting(split_lines(budget.chunks(_whole_text(source.text)), limits.max_line_chars), budget.selected)
    elif line_filter is not None:
        # read as bytes where the encoding allows: the filter decodes only the lines that need it
        decoding = LineDecoding()
        lines = select_lines(budget.chunks(iter_text(source.stream, limits.chunk_bytes, decoding)), line_filter,
                             limits.max_line_chars, gate, decoding, budget.selected)
    else:
        lines = counting(split_lines(budget.chunks(iter_text(source.stream, limits.chunk_bytes)), limits.max_line_chars),
                         budget.selected)
    context = SourceContext(source.name, hints_from_path(source.name))
    (decoded, lines), records = yield from assemble(budget.read(lines), context, limits)
    if decoding is not None:
        decoded = decoding.completed(decoded)
    for held, repeats in gate.held() if gate else ():
        for record in assemble(_one(held), context, limits):
            yield replace(record, repeats=repeats)
            records += 1
    tally = SourceTally(
        records, decoded.bytes_read, decoded.replaced_bytes, lines.cut_lines, decoded.encoding
    )
    problems = [SkippedFile(source.name, f"partly read: {decoded.error}")] if decoded.error else []
    if note := budget.note(lines.lines):
        problems.append(SkippedFile(source.name, f"partly read: {note}"))
    if lines.cut_lines:
        problems.append(SkippedFile(source.name, f"{lines.cut_lines} line(s) longer than {limits.max_line_chars} "
                                                  "characters, each read as several records"))
    return tally, problems
