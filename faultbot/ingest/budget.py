"""The decompressed-bytes budgets: what decompressors and zip members may still give out, from the
input file being read and from the whole run, so that a gzip or zip bomb ends with a note, not
with the machine's time or memory.

Only bytes a decompressor or a zip member gives out are charged: a plain file or a plain tar costs
what its size on disk says, while a compressed stream, or a zip whose entries overlap, can claim
any size. Nested levels are charged each: a gzip inside a tar.gz costs its bytes twice.

The run's budget is one however many processes read the run's files (faultbot/parallel.py): while
``share_run_budget`` has given this process a ``SharedRunBytes``, every budget made in it charges
that account, which all the processes reading the run hold, instead of a budget of its own. Bytes
are taken before they are read and what a read did not use is given back, so the processes
together never read more than the budget.
"""

from __future__ import annotations

import io
from typing import IO, TYPE_CHECKING, Protocol

from faultbot.ingest.decode import StreamStopped
from faultbot.ingest.limits import (
    ARCHIVE_BYTES_VARIABLE,
    RUN_BYTES_VARIABLE,
    ReadLimits,
    size_text,
)

if TYPE_CHECKING:
    from multiprocessing.sharedctypes import Synchronized

    from _typeshed import WriteableBuffer


class BudgetSpent(StreamStopped):
    """A budget of decompressed bytes ran out: the message names the input and the setting."""


class RunBytes(Protocol):
    """The bytes the whole run may still decompress."""

    def take(self, wanted: int) -> int:
        """Up to ``wanted`` bytes, charged now (0 when none are left)."""

    def give_back(self, count: int) -> None:
        """Bytes taken and not read after all."""


class _LocalRunBytes:
    """The run's bytes left, when this process reads all of the run."""

    def __init__(self, left: int) -> None:
        self._left = left

    def take(self, wanted: int) -> int:
        granted = max(0, min(wanted, self._left))
        self._left -= granted
        return granted

    def give_back(self, count: int) -> None:
        self._left += count


class SharedRunBytes:
    """The run's bytes left, in memory that the processes reading one run share (``value``: a
    ``multiprocessing.Value("q")`` made by the process that starts them, with its lock)."""

    def __init__(self, value: Synchronized[int]) -> None:
        self._value = value

    def take(self, wanted: int) -> int:
        with self._value.get_lock():
            granted = max(0, min(wanted, self._value.value))
            self._value.value -= granted
        return granted

    def give_back(self, count: int) -> None:
        with self._value.get_lock():
            self._value.value += count


_shared_run: SharedRunBytes | None = None


def share_run_budget(account: SharedRunBytes | None) -> None:
    """Budgets made from now on in this process charge ``account`` for the run (None: each its own
    again)."""
    global _shared_run
    _shared_run = account


class ByteBudget:
    """Decompressed bytes left for the run and for the input file being read (``start``)."""

    def __init__(self, limits: ReadLimits) -> None:
        self._limits = limits
        self._run: RunBytes = _shared_run or _LocalRunBytes(limits.max_run_bytes)
        self._input_left = limits.max_archive_bytes
        self._input = ""

    def start(self, name: str) -> None:
        """A new input file: its own budget starts whole."""
        self._input, self._input_left = name, self._limits.max_archive_bytes

    def take(self, wanted: int) -> int:
        """Up to ``wanted`` bytes to read, charged now (``give_back`` what the read did not use);
        raises BudgetSpent when none may be read."""
        if self._input_left <= 0:
            raise BudgetSpent(f"stopped after {size_text(self._limits.max_archive_bytes)} decompressed from "
                              f"{self._input} (the budget of one input file, {ARCHIVE_BYTES_VARIABLE})")
        granted = self._run.take(min(wanted, self._input_left))
        if granted <= 0 < wanted:
            raise BudgetSpent(f"stopped after {size_text(self._limits.max_run_bytes)} decompressed in this run "
                              f"(the budget of all inputs, {RUN_BYTES_VARIABLE})")
        self._input_left -= granted
        return granted

    def give_back(self, count: int) -> None:
        self._input_left += count
        self._run.give_back(count)


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
        granted = self._budget.take(len(view))
        data = b""
        try:
            data = self._read(granted)
        finally:    # a stream that fails part-way has read nothing of what was taken for it
            self._budget.give_back(granted - len(data))
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._stream.close()
        super().close()


def metered(stream: IO[bytes], budget: ByteBudget) -> IO[bytes]:
    """``stream``, charged to ``budget`` as it is read."""
    return io.BufferedReader(_Metered(stream, budget))
