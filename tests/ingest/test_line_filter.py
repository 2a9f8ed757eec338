"""The line prefilter changes speed, not results: same facts and matches, same line numbers."""

from __future__ import annotations

import random

import pytest

from faultbot.evidence import EvidenceCollector
from faultbot.ingest.inputs import LogPath
from faultbot.ingest.limits import ReadLimits
from faultbot.ingest.line_filter import LineFilter, select_lines
from faultbot.ingest.reader import LogReader
from faultbot.ingest.scanner import Scanner, available_engines

from . import damage
from .helpers import DATA

SEEDS = sorted((DATA / "seed").glob("*.log"))
NOISE = ("[INFO] RUNTIME(2291,python):2025-06-02-03:14:07.{ms:03d}.912 [stream.cc:{n}]2291 Synchronize:"
         "stream_id={n}, task_id={m}, wait finished.")
DAMAGES = (lambda t: t, damage.glue, lambda t: damage.wrap(t, 100), damage.crlf, damage.ansi, damage.full_width)


def evidence_key(evidence):
    facts = sorted((o.fact, str(o.value), o.record.origin.line) for o in evidence.observations)
    matches = sorted((m.entry_id, m.symptom.id, round(m.score, 4), m.record.origin.line) for m in evidence.matches)
    return facts, matches


@pytest.fixture(scope="module")
def big_log(tmp_path_factory):
    """Noise with every seed example planted in it, damaged in turn, well past the 64 KiB mark."""
    rng = random.Random(7)
    parts = []
    for index, seed in enumerate(SEEDS * 2):
        parts += [NOISE.format(ms=rng.randrange(1000), n=rng.randrange(9999), m=rng.randrange(99999))
                  for _ in range(rng.randrange(50, 400))]
        parts.append(DAMAGES[index % len(DAMAGES)](seed.read_text(encoding="utf-8")).rstrip("\n"))
    path = tmp_path_factory.mktemp("prefilter") / "plog-2291_20250602031407000.log"
    path.write_text("\n".join(parts) + "\n", encoding="utf-8", newline="")
    assert path.stat().st_size > 256 * 1024
    return path


@pytest.fixture(scope="module")
def collectors(kb):
    return {True: EvidenceCollector(kb, use_prefilter=True), False: EvidenceCollector(kb, use_prefilter=False)}


def test_same_facts_and_matches_with_and_without_the_prefilter(big_log, collectors):
    with_filter = collectors[True].from_inputs([LogPath(big_log)])
    without = collectors[False].from_inputs([LogPath(big_log)])
    assert with_filter.matches, "the planted faults must be found"
    assert evidence_key(with_filter) == evidence_key(without)
    assert with_filter.stats.records < without.stats.records / 3   # the noise was never parsed


@pytest.mark.parametrize("chunk_bytes", [4096, 65536])
def test_records_across_chunk_boundaries_are_kept_whole(big_log, collectors, chunk_bytes):
    limits = ReadLimits(chunk_bytes=chunk_bytes)
    full = list(LogReader([LogPath(big_log)], limits).records())
    filtered = list(LogReader([LogPath(big_log)], limits, collectors[True].line_filter).records())
    wanted = {(r.origin.line, r.message) for r in full if any(a in r.message for a in ("Task run failed", "crimer rank"))}
    got = {(r.origin.line, r.message) for r in filtered}
    assert wanted and wanted <= got


def test_small_inputs_are_read_whole(tmp_path, collectors):
    path = tmp_path / "small.log"
    path.write_text("\n".join(NOISE.format(ms=1, n=2, m=3) for _ in range(20)) + "\n")
    records = list(LogReader([LogPath(path)], line_filter=collectors[True].line_filter).records())
    assert len(records) == 20


@pytest.mark.parametrize("engine", available_engines())
def test_every_engine_finds_the_same_lines(engine, big_log, collectors):
    built = collectors[True].line_filter.scanner
    text = big_log.read_text(encoding="utf-8")
    reference = Scanner(built.literals, built.regexes, engine="re")
    scanner = Scanner(built.literals, built.regexes, engine=engine)
    lines_of = lambda ends: {text.count("\n", 0, end - 1) for end in ends}  # noqa: E731
    ascii_text = text.encode("ascii", "replace").decode("ascii")
    for sample in (text, ascii_text):
        assert lines_of(scanner.ends(sample)) == lines_of(reference.ends(sample))


HIT_HEAD = "[INFO] HCCL(7,python):2025-06-02-03:14:07.001.912 [op_base.cc:9] Entry-HcclAllReduce:tag[{n}]"
QUIET_HEAD = "[INFO] RUNTIME(7,python):2025-06-02-03:14:07.001.912 [stream.cc:{n}] 7 Synchronize: wait finished."
CONTINUATION = "    detail {n}"
HIT_CONTINUATION = "    Entry-HcclBroadcast detail {n}"


def _by_the_rule(lines: list[str], hits: set[int]) -> list[tuple[int, str]]:
    """The lines the filter gives out, from the rule itself: each hit line, the lines before it up to
    its record's start and those after it that continue its record, three at most each way, an empty
    line marking each gap; as (number, text)."""
    starts = [not line.startswith(" ") for line in lines]
    chosen = set(hits)
    for hit in hits:
        back = hit
        while hit - back < 3 and back > 0 and not starts[back]:
            back -= 1
            chosen.add(back)
        ahead = hit + 1
        while ahead - hit <= 3 and ahead < len(lines) and not starts[ahead]:
            chosen.add(ahead)
            ahead += 1
    given: list[tuple[int, str]] = []
    for index in sorted(chosen):
        if given and index + 1 > given[-1][0] + 1:
            given.append((index, ""))
        given.append((index + 1, lines[index]))
    return given


@pytest.mark.parametrize("seed", range(12))
def test_dense_hits_give_out_the_lines_the_rule_chooses(seed):
    """A quarter of the lines or more are hits (HCCL entry logging): every block holds hundreds."""
    rng = random.Random(seed)
    kinds = (HIT_HEAD, HIT_HEAD, QUIET_HEAD, QUIET_HEAD, QUIET_HEAD, CONTINUATION, HIT_CONTINUATION)
    lines = [rng.choice(kinds).format(n=n) for n in range(4000)]
    hits = {index for index, line in enumerate(lines) if "Entry-Hccl" in line}
    text = "\n".join(lines) + "\n"
    cuts = sorted(rng.sample(range(1, len(text)), 40))
    chunks = (text[start:end] for start, end in zip([0, *cuts], [*cuts, len(text)]))
    line_filter = LineFilter.build(["Entry-Hccl"])
    given = [(line.number, line.text) for line in select_lines(chunks, line_filter, max_chars=1 << 16)]
    assert given == _by_the_rule(lines, hits)
