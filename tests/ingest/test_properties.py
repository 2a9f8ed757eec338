"""Whatever the input, reading returns and never raises; garbage is read in bounded time."""

from __future__ import annotations

import io
import random
import string
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from faultbot.ingest import LogReader, Paste, ReadLimits, Stdin
from tests.ingest import damage
from tests.ingest.helpers import seed_names, seed_text

# Text built from pieces of real records, so that hypothesis explores near-misses of every
# header as well as plain noise.
FRAGMENTS = [
    "[ERROR] ", "[INFO]", "HCCL(", "2111667,", "python3.10):", "2025-10-24-11:18:29.597.044 ",
    "[task_exception_handler.cc:908] ", "[2111667]", "tid:1,", "[PID: 3480365] ", "EI0002: ",
    "EZ9999: Inner Error!", "Traceback (most recent call last):\n", '  File "a.py", line 1, in f\n',
    "TraceBack (most recent call last):\n", "        ", "RuntimeError: x\n", "rank1: ", "[rank2]: ",
    "run/plog/plog-1_2.log:", "(Worker_TP3 pid=1071) ", "Possible Cause: ", "\r", "\n", "\x1b[31m",
    "【", "：", "> ", "```", "\\_", "[10.0.0.1](http://10.0.0.1/)", "报错如下", " ",
]
SMALL = ReadLimits(chunk_bytes=64, max_line_chars=200, max_joined_chars=500, max_group_lines=20)


def _read(*inputs, limits: ReadLimits = SMALL) -> LogReader:
    reader = LogReader(list(inputs), limits)
    for record in reader.records():
        assert record.origin.line >= 1
    return reader


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    _read(Paste(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=5), max_size=60).map("".join))
def test_record_like_text_never_raises(text: str) -> None:
    _read(Paste(text))
    _read(Paste(damage.wrap(text, 40)))


@settings(max_examples=300, deadline=None)
@given(st.binary())
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    reader = _read(Stdin(io.BytesIO(data)))
    assert reader.stats.bytes_read + len(reader.stats.skipped) > 0 or not data


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(seed_names()), st.integers(0, 2000), st.integers(0, 2000))
def test_any_cut_of_a_seed_example_reads(name: str, start: int, end: int) -> None:
    text = seed_text(name)
    records = list(LogReader([Paste(text[start:len(text) - end])]).records())
    assert all(record.raw for record in records)


def test_megabyte_of_garbage_reads_quickly() -> None:
    generator = random.Random(1)
    garbage = "".join(generator.choices(string.printable, k=1 << 20))
    started = time.perf_counter()
    reader = _read(Paste(garbage), limits=ReadLimits())
    assert time.perf_counter() - started < 10
    assert reader.stats.records > 0


def test_megabyte_of_near_miss_headers_reads_quickly() -> None:
    generator = random.Random(2)
    text = "".join(generator.choices(FRAGMENTS, k=60_000))
    started = time.perf_counter()
    _read(Paste(text), limits=ReadLimits())
    assert time.perf_counter() - started < 10
