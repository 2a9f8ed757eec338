"""The line prefilter reading a stream as its bytes (only the lines it needs decoded) gives the
lines, numbers, encoding and count of undecodable bytes that filtering the decoded text gives."""

from __future__ import annotations

import io
import random

import pytest

from faultbot.ingest.decode import LineDecoding, iter_text
from faultbot.ingest.line_filter import LineFilter, select_lines
from faultbot.ingest.scanner import available_engines

FILTERS = {
    # every pattern ASCII: Chinese lines are scanned read as ASCII ("loss(" hides behind "（")
    **{f"ascii-{engine}": LineFilter.build(["ok", "loss(", "ERROR"], engine=engine) for engine in available_engines()},
    # a Chinese anchor: Chinese lines are scanned as they are
    "chinese": LineFilter.build(["错误", "ok"], engine="re"),
}
PIECES_TEXT = ("[INFO] HCCL(1,p):2025-10-24-11:00:00.000.000 [a.cc:1] ok\n", "训练：第3轮，损失（loss）\n",
               "【错误】", "  continued\n", "[ERROR] RUNTIME(2,p):2025-10-24-11:00:00.000.000 [b.cc:2] 中文 ERROR\n",
               "x" * 700, "\u00e9\U0001f600", "\\", "\n", "\r\n", "\r", "abc",
               "乷k")    # "ok" in its GB18030 bytes (81 6F 6B), not in its text
BROKEN = (b"\x81", b"\x81\x30", b"\x81\x30\x81", b"\xff", b"\x80", b"\xe4\xb8")
NOISE = b"[INFO] GE(1,p):2025-10-24-11:00:00.000.000 [g.cc:3] quiet line\n"


def _log(rng: random.Random, encoding: str) -> bytes:
    parts = []
    while sum(map(len, parts)) < 300_000:
        if rng.random() < 0.7:
            parts.append(NOISE)
        elif rng.random() < 0.9:
            text = rng.choice(PIECES_TEXT)
            line_encoding = encoding if encoding != "mixed" else rng.choice(("utf-8", "gb18030"))
            parts.append(text.encode(line_encoding))
        else:
            parts.append(rng.choice(BROKEN))
    return b"".join(parts)


def _read(data: bytes, line_filter: LineFilter, chunk: int, max_chars: int, as_bytes: bool):
    decoding = LineDecoding() if as_bytes else None
    lines = select_lines(iter_text(io.BytesIO(data), chunk, decoding), line_filter, max_chars, None, decoding)
    out = []
    while True:
        try:
            out.append(next(lines))
        except StopIteration as stop:
            tally, line_tally = stop.value
            break
    if decoding is not None:
        assert decoding.active
        tally = decoding.completed(tally)
    return out, tally, line_tally


@pytest.mark.parametrize("encoding", ["gb18030", "utf-8", "mixed"])
@pytest.mark.parametrize("filter_name", sorted(FILTERS))
@pytest.mark.parametrize("seed", [0, 1, 2, 6])   # 6: a mixed log with over-long lines
def test_reading_as_bytes_gives_what_the_decoded_text_gives(encoding: str, filter_name: str, seed: int) -> None:
    rng = random.Random(seed)
    data = _log(rng, encoding)
    chunk, max_chars = rng.choice((4096, 65536, 1 << 20)), rng.choice((500, 64 * 1024))
    as_text = _read(data, FILTERS[filter_name], chunk, max_chars, as_bytes=False)
    as_bytes = _read(data, FILTERS[filter_name], chunk, max_chars, as_bytes=True)
    assert as_bytes == as_text
    assert any(line.text for line in as_text[0])


def test_utf16_is_read_as_text() -> None:
    data = ("中文 ok\n" * 20_000).encode("utf-16")
    decoding = LineDecoding()
    lines = list(select_lines(iter_text(io.BytesIO(data), 1 << 16, decoding), FILTERS["ascii-re"], 1000, None, decoding))
    assert not decoding.active
    assert lines[0].text == "中文 ok" and len(lines) == 20_000
