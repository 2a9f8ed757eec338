"""The shortcuts of reading a large log give what the long way gives: the scan of Chinese text read
as ASCII (faultbot/ingest/ascii_reading.py), the memory of line shapes and the hyperscan search for
a glued record head behind ``plain_plog`` (faultbot/ingest/plog.py)."""

from __future__ import annotations

import random
import re

import pytest
from msgspec.structs import replace

from faultbot.evidence import EvidenceCollector
from faultbot.fullwidth import FULL_WIDTH_CHARACTERS
from faultbot.ingest import plog
from faultbot.ingest.ascii_reading import ascii_skeleton, matches_ascii_only, read_as_ascii
from faultbot.ingest.line_filter import _lines_of
from faultbot.ingest.scanner import Scanner, available_engines

from . import damage
from .helpers import SEED
from .test_repeats import REPEATED

SEEDS = sorted(SEED.glob("*.log"))
PIECES = ["ret[", "ret[0]", "ret[7]", "EI0002", "E39999", "Entry-Hccl", "heartbeat", "Ｅ", "Ｉ", "０", "２", "７", "ｒｅｔ［",
          "【", "】", "：", "，", "　", "中文日志", "é", "\\", "＼", "\x1b", "\n", " ", "a", "[INFO] HCCL(1,p):"]


def _hit_lines(text: str, ends: list[int]) -> list[int]:
    return [start for start, _ in _lines_of(text, ends)]


def test_text_read_as_ascii_keeps_every_offset():
    text = "训练：第３轮【错误】\u3000ret［1］ é\nok"
    read = read_as_ascii(text)
    assert len(read) == len(text) and read.isascii()
    assert read == "\x00\x00:\x003\x00[\x00\x00] ret[1] \x00\nok"


@pytest.mark.parametrize("regex, reads_ascii_only", [
    (r"E[1-9A-Z]9[0-9]{3}", True), (r"ret\[[1-9]", True), (r"\x1b", True), (r"\\", True), (r"(?:a|b)c{2,3}", True),
    (r"a.b", False), (r"[^a]", False), (r"\w+", False), (r"\s", False), (r"^a", False), (r"a$", False),
    (r"(?=a)", False), (r"\x00", False), (r"\x0a", False), (r"[\x00-\x7f]", False), ("中", False), ("[a", False),
])
def test_only_regexes_that_match_ascii_alone_qualify(regex, reads_ascii_only):
    assert matches_ascii_only(regex) is reads_ascii_only


@pytest.mark.parametrize("seed", range(60))
def test_the_ascii_reading_finds_the_lines_the_full_width_scan_finds(kb, seed):
    line_filter = EvidenceCollector(kb).line_filter
    assert line_filter.ascii_only     # the shipped KB's anchors and prefilters qualify
    long_way = replace(line_filter, ascii_only=False)
    rng = random.Random(seed)
    text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 400)))
    if seed % 3 == 0:
        text += damage.full_width(SEEDS[seed % len(SEEDS)].read_text(encoding="utf-8"))
    assert _hit_lines(text, line_filter.hit_ends(text)) == _hit_lines(text, long_way.hit_ends(text))


def test_the_skeleton_reads_full_width_punctuation_and_drops_other_characters():
    assert ascii_skeleton("训练：第３轮【错误】\u3000ret［1］ é\n\U0001f600ok\x00") == b":3[] ret[1] \nok\x00"


@pytest.mark.parametrize("engine", available_engines())
@pytest.mark.parametrize("seed", range(40))
def test_every_line_the_ascii_reading_hits_its_skeleton_hits(kb, engine, seed):
    patterns = EvidenceCollector(kb).line_filter.scanner
    scanner = Scanner(patterns.literals, patterns.regexes, engine=engine)
    rng = random.Random(seed)
    text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 400)))
    skeleton = ascii_skeleton(text)
    assert skeleton.count(b"\n") == text.count("\n")
    in_reading = {text.count("\n", 0, end - 1) for end in scanner.ends(read_as_ascii(text))}
    assert in_reading <= {skeleton.count(b"\n", 0, end - 1) for end in scanner.ends_in_bytes(skeleton)}


def _lines() -> list[str]:
    lines = [line for seed in SEEDS for line in seed.read_text(encoding="utf-8").splitlines()]
    lines += [template.format(ms=1, n=12345, stream=7) for template in REPEATED]
    damaged = [f(line) for line in lines for f in (damage.ansi, damage.full_width, lambda t: t + " ",
                                                    lambda t: "  " + t, lambda t: t + "\t")]
    glued = [line + " " + other for line, other in zip(lines, reversed(lines))]
    # a ticket's auto-linked addresses: "[10.0.0.1](http://10.0.0.1/)" is cleaned up, "[10.0.0.1](http://10.0.0.2/)" not
    linked = [f"{line} [10.0.0.1](http://10.0.0.1/)" for line in lines]
    return lines + damaged + glued + linked


@pytest.mark.parametrize("seed", range(3))
def test_remembered_line_shapes_read_as_plain_plog_reads(seed):
    rng = random.Random(seed)
    plain_lines = plog.PlainLines()
    for line in _lines():
        # the same shape again with other digits: read from memory
        for variant in (line, re.sub(r"[0-9]", lambda _: str(rng.randrange(10)), line)):
            assert plain_lines(variant) == plog.plain_plog(variant), variant


@pytest.mark.skipif("hyperscan" not in available_engines(), reason="hyperscan is not installed")
def test_hyperscan_finds_a_glued_record_head_where_re_does():
    lines = _lines() + [line[:cut] + piece + line[cut:] for line in _lines()[:200] for cut in (1, 20, 60)
                        for piece in ("[ERROR] M(3,", "EI0001: [PID:", "Traceback (most recent call last):",
                                      "[WARN] 2025-01-01-00:00:00 (PID:", "[PID: 5] 2025-", *FULL_WIDTH_CHARACTERS[:3])]
    for line in lines:
        assert plog._has_glued_head(line) == (plog._ANY_HEAD.search(line, 1) is not None), line
