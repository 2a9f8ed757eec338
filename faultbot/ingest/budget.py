"""The decompressed-bytes budgets: what decompressors and zip members may still give out, from the
input file being read and from the whole run, so that a gzip or zip bomb ends with a note, not
with the machine's time or memory.

Only bytes a decompressor or a zip member gives out are charged: a plain file or a plain tar costs
what its size on disk says, while a compressed stream, or a zip whose entries overlap, can claim
any size. Nested levels are charged each: a gzip inside a tar.gz costs its bytes twice.
"""

from __future__ import annotations

import io
from typing import IO, TYPE_CHECKING

from faultbot.ingest.decode import StreamStopped
from faultbot.ingest.limits import (
    ARCHIVE_BYTES_VARIABLE,
    RUN_BYTES_VARIABLE,
    ReadLimits,
    size_text,
)

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer


class BudgetSpent(StreamStopped):
    """A budget of decompressed bytes ran out: the message names the input and the setting."""


class ByteBudget:
    """Decompressed bytes left for the run and for the input file being read (``start``)."""

    def __init__(self, limits: ReadLimits) -> None:
        self._limits = limits
        self._run_left = limits.max_run_bytes
        self._input_left = limits.max_archive_bytes
        self._input = ""

    def start(self, name: str) -> None:
        """A new input file: its own budget starts whole."""
        self._input, self._input_left = name, self._limits.max_archive_bytes

    def allowance(self, wanted: int) -> int:
        """How many of ``wanted`` bytes may still be read; raises BudgetSpent when none may."""
        if self._input_left <= 0:
            raise BudgetSpent(f"stopped after {size_text(self._limits.max_archive_bytes)} decompressed from "
                              f"{self._input} (the budget of one input file, {ARCHIVE_BYTES_VARIABLE})")
        if self._run_left <= 0:
            raise BudgetSpent(f"stopped after {size_text(self._limits.max_run_bytes)} decompressed in this run "
                              f"(the budget of all inputs, {RUN_BYTES_VARIABLE})")
        return min(wanted, self._input_left, self._run_left)

    def spend(self, count: int) -> None:
        self._input_left -= count
        self._run_left -= count


class _Metered(io.RawIOBase):
    """A decompressed stream that charges what it gives out to a budget."""

    def __init__(self, stream: IO[bytes], budget: ByteBudget) -> None:
        super().__init__()
        self._stream = stream
        # read1 gives what is there: a stream that fails part-way hands over all before the failure
        self._read = getattr(stream, "read1", stream.read)
        self._budget = budget

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: WriteableBuffer) -> int:
        view = memoryview(buffer).cast("B")
        data = self._read(self._budget.allowance(len(view)))
        self._budget.spend(len(data))
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._stream.close()
        super().close()


def metered(stream: IO[bytes], budget: ByteBudget) -> IO[bytes]:
    """``stream``, charged to ``budget`` as it is read."""
    return io.BufferedReader(_Metered(stream, budget))
