"""Bytes to text and lines: encodings, replacement counting, line ends, over-long lines."""

from __future__ import annotations

import codecs
import io
import random

import pytest

from faultbot.ingest import LogReader, ReadLimits, Stdin
from faultbot.ingest.decode import (
    _ERRORS,
    MIXED,
    MIXED_FROM_SHARE,
    _decode,
    _decoder,
    _utf8_line_share,
    choose_encoding,
    iter_text,
)
from faultbot.ingest.lines import PhysicalLine, split_lines


def decode(data: bytes, chunk: int = 7) -> tuple[str, object]:
    stream = iter_text(io.BytesIO(data), chunk)
    parts = []
    while True:
        try:
            parts.append(next(stream))
        except StopIteration as stop:
            return "".join(parts), stop.value


def lines(text_chunks: list[str], max_chars: int = 100) -> tuple[list[PhysicalLine], object]:
    def chunks():
        yield from text_chunks
        return "upstream"

    generator = split_lines(chunks(), max_chars)
    out = []
    while True:
        try:
            out.append(next(generator))
        except StopIteration as stop:
            return out, stop.value


@pytest.mark.parametrize("encoding", ["utf-8", "gb18030", "gbk", "utf-16", "utf-8-sig", "utf-32"])
def test_encodings_round_trip_across_chunk_boundaries(encoding: str) -> None:
    text = "[ERROR] HCCL(1,p): 报错如下：通信超时 — done\n" * 5
    for chunk in (1, 3, 7, 64, 4096):
        decoded, tally = decode(text.encode(encoding), chunk)
        assert decoded == text
        assert tally.replaced_bytes == 0


def test_encoding_is_sniffed_at_the_first_non_ascii_byte() -> None:
    data = b"ascii line\n" * 200_000 + "中文日志\n".encode("gbk")
    decoded, tally = decode(data, 1 << 16)
    assert decoded.endswith("中文日志\n")
    assert tally.encoding == "gb18030"
    assert tally.bytes_read == len(data)


def test_one_bad_byte_keeps_utf8_and_is_counted() -> None:
    data = "通信超时 ".encode() * 100 + b"\xff" + "结束".encode()
    assert choose_encoding(data) == "utf-8"
    decoded, tally = decode(data)
    assert tally.replaced_bytes == 1 and decoded.count("\ufffd") == 1 and decoded.endswith("结束")


def test_undecodable_bytes_are_replaced_and_counted() -> None:
    data = b"ok \x80\x81\xfe\xff ok\n"
    decoded, tally = decode(data)
    assert decoded.startswith("ok ") and decoded.endswith(" ok\n")
    assert tally.replaced_bytes > 0


def test_all_ascii_reports_no_encoding() -> None:
    decoded, tally = decode(b"abc\n")
    assert (decoded, tally.encoding, tally.bytes_read) == ("abc\n", None, 4)


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_line_endings(ending: str) -> None:
    text = ending.join(["one", "two", "", "four"]) + ending
    for cut in range(len(text)):
        got, _ = lines([text[:cut], text[cut:]])
        assert [(l.number, l.text) for l in got] == [(1, "one"), (2, "two"), (3, ""), (4, "four")]


def test_over_long_line_is_cut_and_counted() -> None:
    got, (upstream, tally) = lines(["x" * 250 + "\nshort\n"], max_chars=100)
    assert upstream == "upstream"
    assert [(l.number, len(l.text), l.cut) for l in got] == [
        (1, 100, True), (1, 100, True), (1, 50, True), (2, 5, False)]
    assert tally.cut_lines == 1


def test_long_line_without_newline_stays_bounded() -> None:
    limits = ReadLimits(chunk_bytes=4096, max_line_chars=10_000)
    reader = LogReader([Stdin(io.BytesIO(b"[ERROR] " + b"y" * 100_000))], limits)
    records = list(reader.records())
    assert max(len(r.raw) for r in records) <= 10_000
    assert all("cut" in r.notes for r in records)
    assert reader.stats.cut_lines == 1
    assert sum(len(r.raw) for r in records) == 100_008


def _random_gbk_log(rng: random.Random) -> bytes:
    """ASCII lines, Chinese lines, and bytes GB18030 cannot read (cut characters, stray lead bytes,
    an unfinished four-byte character before a newline) in a random order."""
    pieces = [b"[INFO] HCCL(1,p):2025-10-24-11:00:00.000.000 [a.cc:1] ok\n", "训练：第3轮，损失（loss）\n".encode("gb18030"),
              "【错误】".encode("gb18030"), b"\x81", b"\x81\x30", b"\x81\x30\x81", b"\xff", b"\x80", b"\n", b"\r\n",
              b"abc", "\u00e9\U0001f600".encode("gb18030"), b"\x00"]
    return b"".join(rng.choice(pieces) for _ in range(rng.randrange(1, 200)))


@pytest.mark.parametrize("seed", range(40))
def test_gb18030_reads_as_the_codec_does_call_by_call(seed: int) -> None:
    # the ASCII lines are read by the ASCII codec (faster); nothing else may change, even the text
    # each chunk gives and the bytes counted as replaced
    rng = random.Random(seed)
    data = _random_gbk_log(rng)
    cuts = sorted(rng.sample(range(len(data) + 1), min(len(data) + 1, rng.randrange(1, 12))))
    chunks = [data[start:end] for start, end in zip([0, *cuts], [*cuts, len(data)])]
    ours, codec = _decoder("gb18030"), codecs.getincrementaldecoder("gb18030")(_ERRORS)
    for number, chunk in enumerate(chunks):
        final = number == len(chunks) - 1
        assert _decode(ours, chunk, final) == _decode(codec, chunk, final)


def _chosen_on_the_whole_sample(sample: bytes) -> str:
    """``choose_encoding`` the long way: each candidate tried on all of ``sample``."""
    for encoding in ("utf-8", "gb18030"):
        try:
            codecs.getincrementaldecoder(encoding)("strict").decode(sample, False)
            return encoding
        except UnicodeDecodeError:
            if encoding == "utf-8" and _utf8_line_share(sample.splitlines()[:-1]) >= MIXED_FROM_SHARE:
                return MIXED
    undecodable = {encoding: _decode(_decoder(encoding), sample, final=False)[1] for encoding in ("utf-8", "gb18030")}
    return min(undecodable, key=undecodable.__getitem__)


@pytest.mark.parametrize("seed", range(80))
def test_the_encoding_chosen_on_the_lines_with_high_bytes_is_the_one_the_whole_sample_gives(seed: int) -> None:
    rng = random.Random(seed)
    # one kind of Chinese mostly, the other kind, line ends and damage now and then
    common, rare = ("训练：第3轮，损失（loss）", "【错误】")
    kinds = [("gb18030", "utf-8"), ("utf-8", "gb18030")][seed % 2]
    pieces = [b"abc ok", common.encode(kinds[0]), rare.encode(kinds[0]), b"\n", b"\n", b"\r\n", b"\r"]
    pieces += rng.sample([common.encode(kinds[1]), b"\x81", b"\x81\x30", b"\xe4\xb8", b"\xff"], rng.randrange(3))
    sample = b"".join(rng.choice(pieces) for _ in range(rng.randrange(1, 300)))
    assert choose_encoding(sample) == _chosen_on_the_whole_sample(sample)
