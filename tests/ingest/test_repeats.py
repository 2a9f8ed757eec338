"""The repeat gate changes speed, not results: with it or without it, a large log yields the same
kept records, with the same facts, symptoms and counts of repeats."""

from __future__ import annotations

import random
import re

import pytest

from faultbot.evidence import EvidenceCollector
from faultbot.extract.repeat_keys import RepeatKeys
from faultbot.ingest.grammar import PLOG_TIME
from faultbot.ingest.inputs import LogPath
from faultbot.ingest.lines import PhysicalLine
from faultbot.ingest.plog import plain_plog, timeless
from faultbot.ingest.reader import LogReader

from . import damage
from .helpers import DATA

SEEDS = sorted((DATA / "seed").glob("*.log"))
PLOG_TIME_EXAMPLE = "2025-06-02-03:14:07.001.912"
GROUP = "10.0.0.1%enp_60000_0_1761275812718970"
REPEATED = (
    "[INFO] HCCL(2291,python):2025-06-02-03:14:07.{ms:03d}.912 [hccl_opbase_atrace_info.cc:56][2291]Entry-HcclAllReduce: "
    "tag[AllReduce_" + GROUP + "], sendBuf[0x12{n:08x}], recvBuf[0x12{n:08x}], count[{n}], dataType[float32], "
    "op[sum], localRank[0], streamId[{stream}],comm[0xfffe380078d0], deviceLogicId[0]",
    "[INFO] HCCL(2291,python):2025-06-02-03:14:07.{ms:03d}.001 [externalinput.cc:12] [2291][HCCL_ENV] environmental "
    "variable HCCL_OP_EXPANSION_MODE is [HOST], aicpuUnfold[0]",
    "[INFO] HCCL(2291,python):2025-06-02-03:14:07.{ms:03d}.002 [mem_pool.cc:88][2291]Alloc block size[{n}] ret[0]",
    "[INFO] RUNTIME(2291,python):2025-06-02-03:14:07.{ms:03d}.912 [stream.cc:{n}]2291 Synchronize:stream_id=2, "
    "task_id={n}, wait finished.",
)


def kept(collector: EvidenceCollector, path, gate: bool) -> list[tuple]:
    reader = LogReader([LogPath(path)], line_filter=collector.line_filter,
                       repeat_key=collector.line_key if gate else None)
    return [(found.record.origin.line, found.record.repeats, found.record.message,
             sorted((o.fact, str(o.value)) for o in found.observations),
             sorted((m.entry_id, m.symptom.id, round(m.score, 4)) for m in found.matches))
            for found in collector.found_in(reader.records())]


@pytest.fixture(scope="module")
def repetitive_log(tmp_path_factory):
    """Runs of repeated lines around every seed example, damaged in turn."""
    rng = random.Random(11)
    damages = (lambda t: t, damage.glue, lambda t: damage.wrap(t, 100), damage.crlf, damage.ansi, damage.full_width)
    parts = []
    for index, seed in enumerate(SEEDS * 2):
        for _ in range(rng.randrange(100, 600)):
            parts.append(rng.choice(REPEATED).format(ms=rng.randrange(1000), n=rng.randrange(1, 99999),
                                                     stream=rng.choice((2, 2, 2, 7))))
        parts.append(damages[index % len(damages)](seed.read_text(encoding="utf-8")).rstrip("\n"))
    path = tmp_path_factory.mktemp("repeats") / "plog-2291_20250602031407000.log"
    path.write_text("\n".join(parts) + "\n", encoding="utf-8", newline="")
    return path


def test_the_gate_keeps_what_reading_every_line_keeps(kb, repetitive_log):
    collector = EvidenceCollector(kb)
    with_gate = kept(collector, repetitive_log, gate=True)
    assert with_gate == kept(collector, repetitive_log, gate=False)
    assert any(repeats > 100 for _, repeats, *_ in with_gate)


def test_a_plain_line_is_one_whole_clean_plog_record():
    line = REPEATED[0].format(ms=1, n=5, stream=2)
    assert plain_plog(line).message.startswith("Entry-HcclAllReduce")
    # full-width punctuation is read as ASCII, as records are read
    assert plain_plog(damage.full_width(line)) == plain_plog(line)
    for damaged in (damage.ansi(line), "rank1: " + line, line + " " + line, "> " + line,
                    line.replace("count", "co\\_unt"), "  " + line):
        assert plain_plog(damaged) is None, damaged


def test_lines_a_wrap_may_join_are_never_held(kb):
    collector = EvidenceCollector(kb)
    from faultbot.ingest.repeats import RepeatGate

    line = REPEATED[1].format(ms=1, n=5, stream=2)
    lines = [PhysicalLine(1, line), PhysicalLine(2, line), PhysicalLine(3, line + " "), PhysicalLine(4, line),
             PhysicalLine(5, line), PhysicalLine(6, "  continued text")]

    def stream():
        yield from lines

    given = [physical.number for physical in RepeatGate(collector.line_key).lines(stream()) if physical.text]
    # 2 repeats 1 and is held; 3 ends in a space (the next line may be its rest); 4 follows it;
    # 5 is followed by a line that is not plain
    assert given == [1, 3, 4, 5, 6]


def test_a_line_of_a_shape_met_before_has_the_key_it_has_read_in_full(kb):
    """faultbot/extract/repeat_keys.py learns what a shape of line gives from one line: every line
    then has the key reading it in full gives, though most are not read in full. Among them, lines
    whose numbers hold an error code the KB knows (count[507015]), which may match more, and lines
    a fuzzy symptom reads (the seed examples)."""
    collector = EvidenceCollector(kb)
    rng = random.Random(5)
    read_in_full = []
    keys = RepeatKeys(lambda plain: read_in_full.append(plain) or collector.repeat_key(plain), collector.extractor,
                      collector.matcher, collector.per_occurrence)
    seeds = [line for seed in SEEDS for line in seed.read_text(encoding="utf-8").splitlines()]

    def repeated(numbers: tuple[int, ...]) -> str:
        return rng.choice(REPEATED).format(ms=rng.randrange(1000), n=rng.choice(numbers), stream=rng.choice((2, 7)))

    lines = [line for _ in range(2000) for line in (repeated((rng.randrange(1, 99999), 507015, 207004)),
                                                   rng.choice(seeds))]
    for line in lines:
        plain = plain_plog(line)
        assert keys(line) == (None if plain is None else collector.repeat_key(plain)), line
    read_in_full.clear()
    for _ in range(2000):
        keys(repeated(tuple(range(10_000, 99_999, 7))))
    assert len(read_in_full) < 20


@pytest.mark.parametrize("place", range(3))
def test_an_error_code_in_any_number_of_a_learned_shape_has_the_line_read_in_full(kb, place):
    """An error code the KB knows may turn up in any number of a line of a shape learned without one,
    the first of its message or the last: the line then has the key reading it in full gives."""
    collector = EvidenceCollector(kb)
    keys = RepeatKeys(collector.repeat_key, collector.extractor, collector.matcher, collector.per_occurrence)
    line = ("[INFO] HCCL(2291,python):2025-06-02-03:14:07.{:03d}.912 [hccl_opbase_atrace_info.cc:56][2291]"
            "Entry-HcclAllReduce: tag[AllReduce_group], sendBuf[0x{}], recvBuf[0x12ab], count[{}], dataType[float32], "
            "op[sum], localRank[0], streamId[2],comm[0xfffe380078d0], deviceLogicId[{}]")
    rng = random.Random(place)
    for code in (None, None, 507015, 207004):
        numbers = [rng.randrange(100_000, 200_000) for _ in range(3)]     # as many digits: one shape
        if code is not None:
            numbers[place] = code
        text = line.format(rng.randrange(1000), *numbers)
        assert keys(text) == collector.repeat_key(plain_plog(text)), text


def test_a_line_met_before_but_for_its_time_is_not_read_again(kb):
    """A line alike but for its plog time (an op's Entry- line at every step) has the key of the first
    such line, which is read once: also a line whose shape is read afresh every time (a fuzzy symptom)."""
    collector = EvidenceCollector(kb)
    read_in_full = []
    keys = RepeatKeys(lambda plain: read_in_full.append(plain) or collector.repeat_key(plain), collector.extractor,
                      collector.matcher, collector.per_occurrence)
    lines = [line for seed in SEEDS for line in seed.read_text(encoding="utf-8").splitlines() if plain_plog(line)]
    rng = random.Random(3)
    for _ in range(20):
        for line in lines:
            at = re.sub(r"\d", lambda _: str(rng.randrange(10)), PLOG_TIME_EXAMPLE)
            timed = re.sub(PLOG_TIME, at, line, count=1)
            assert keys(timed) == collector.repeat_key(plain_plog(timed)), timed
    assert len(read_in_full) <= len(set(map(timeless, lines)))


def test_only_the_time_of_a_plog_header_is_left_out():
    line = REPEATED[1].format(ms=1, n=5, stream=2)
    assert timeless(line) == timeless(line.replace("03:14:07.001.001", "23:59:59.999.999"))
    # a time that is not where a plog header has it, or not a plog time, is kept
    for other in (line.replace("07.001.001", "07.001"), line.replace("):", ") :"), "note): " + line):
        assert timeless(other) != timeless(other.replace("03:14", "04:15")), other
