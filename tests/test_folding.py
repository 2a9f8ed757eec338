"""Repeated evidence is folded as it is read: the first and last of each run are kept with a count,
what the engine and the cluster view conclude does not change, and neither memory nor output
grows with the number of repeats."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import pytest

from faultbot.evidence import EvidenceCollector
from faultbot.facts_file import read_facts
from faultbot.ingest.inputs import LogPath, Paste
from faultbot.session import DiagnosisSession

GROUP = "10.0.0.1%enp_60000_0_1761275812718970"
ENTRY = ("[INFO] HCCL({pid},python):2025-10-24-11:16:{s:02d}.{ms:03d}.000 [hccl_opbase_atrace_info.cc:56][{pid}]"
         "Entry-HcclAllReduce: tag[AllReduce_{group}], sendBuf[0x12{n:010x}], recvBuf[0x12{n:010x}], count[{n}], "
         "dataType[float32], op[sum], localRank[0], streamId[{stream}],comm[0xfffe380078d0], deviceLogicId[0]")
NOISE = "[INFO] RUNTIME({pid},python):2025-10-24-11:16:00.000.000 [stream.cc:12]{pid} Synchronize: wait finished."


def entry_log(repeats: int, pid: int = 2100, streams: tuple[int, ...] = (2,), noise: int = 0) -> str:
    lines = []
    for n in range(repeats):
        stream = streams[n * len(streams) // repeats]
        lines.append(ENTRY.format(pid=pid, s=n // 1000 % 60, ms=n % 1000, group=GROUP, n=n + 1, stream=stream))
        lines += [NOISE.format(pid=pid)] * noise
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def collector(kb) -> EvidenceCollector:
    return EvidenceCollector(kb)


def test_a_run_keeps_its_first_and_last_record_and_counts_the_rest(collector):
    evidence = collector.from_inputs([Paste(entry_log(500))])
    records = {id(o.record): o.record for o in evidence.observations}
    kept = sorted(records.values(), key=lambda r: r.origin.line)
    assert [r.origin.line for r in kept] == [1, 500]
    assert [r.repeats for r in kept] == [0, 498]
    assert [o.value for o in evidence.observations if o.fact == "entry_count"] == [1, 500]


def test_a_value_that_matters_ends_the_run(collector):
    evidence = collector.from_inputs([Paste(entry_log(300, streams=(2, 3, 2)))])
    lines = sorted({o.record.origin.line for o in evidence.observations})
    # stream 2 (lines 1-100, 201-300) is one run; stream 3 (101-200) another
    assert lines == [1, 101, 200, 300]


def test_conclusions_and_the_cluster_view_are_what_every_line_gives(kb, tmp_path):
    def diagnose(log: str) -> dict:
        path = tmp_path / "plog-2100_20251024111600000.log"
        path.write_text(log + "[ERROR] HCCL(2100,python):2025-10-24-11:17:00.000.000 [task_exception_handler.cc:908]"
                        "[2100][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], "
                        f"taskID[21], tag[AllReduce_{GROUP}], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n")
        session = DiagnosisSession(kb)
        session.add_inputs([LogPath(path)])
        diagnosis = session.diagnose()
        return {"top": [c.id for c in diagnosis.conclusions],
                "multi_stream": diagnosis.memory.values("multi_stream_in_group")}

    few = diagnose(entry_log(3, streams=(2, 7, 2)))
    many = diagnose(entry_log(3000, streams=(2, 7, 2)))
    assert many == few
    assert few["multi_stream"] == [True]


def test_memory_does_not_grow_with_repeats(collector):
    small = collector.from_inputs([Paste(entry_log(100, noise=1))])
    large = collector.from_inputs([Paste(entry_log(5000, noise=1))])
    assert len(large.observations) == len(small.observations)
    assert len(large.matches) == len(small.matches)


def test_json_output_size_does_not_grow_with_repeats(tmp_path):
    sizes = []
    for repeats in (200, 20000):
        path = tmp_path / f"plog-2100_2025102411160{repeats}.log"
        path.write_text(entry_log(repeats, streams=(2, 7)))
        done = subprocess.run([sys.executable, "-m", "faultbot", "diagnose", str(path), "--format", "json"],
                              capture_output=True, text=True, timeout=300)
        payload = json.loads(done.stdout)
        more = payload["conclusions"][0]["evidence"][0]["more"] if payload["conclusions"] else None
        sizes.append((len(done.stdout), more))
    (small, _), (large, more) = sizes
    assert large < small * 1.2
    assert more is not None and more["lines"] >= 19000


def test_facts_files_carry_the_repeats(kb, tmp_path):
    log = tmp_path / "plog-2100_20251024111600000.log"
    log.write_text(entry_log(400))
    out = tmp_path / "node.facts.jsonl.gz"
    subprocess.run([sys.executable, "-m", "faultbot", "extract", str(log), "-o", str(out), "--node", "n1"],
                   check=True, capture_output=True, timeout=300)
    lines = [json.loads(line) for line in gzip.open(out, "rt")]
    assert sum(1 for line in lines if "record" in line) == 2
    assert [line.get("repeats", 0) for line in lines if "record" in line] == [0, 398]
    records = read_facts(out).records
    assert [r.repeats for r in records] == [0, 398]
    evidence = EvidenceCollector(kb).from_records(records)
    assert sorted({o.record.repeats for o in evidence.observations}) == [0, 398]


def test_folding_again_adds_up(collector):
    """A run read from a facts file (already folded) folds with more of the same."""
    first = list(collector.found_in(r for r in _records(entry_log(50))))
    again = list(collector.found_in(r for f in (first, first) for r in (found.record for found in f)))
    assert [f.record.repeats for f in again] == [0, (50 * 2) - 2]


def _records(text: str):
    from faultbot.ingest.reader import LogReader
    return LogReader([Paste(text)]).records()


def test_an_info_lines_ret_0_is_not_a_failed_call(kb):
    session = DiagnosisSession(kb)
    session.add_paste("[INFO] HCCL(2100,python):2025-10-24-11:16:00.000.000 [mem_pool.cc:88][2100]"
                      "Alloc memory pool block size[4096] ret[0]\n")
    assert session.diagnose().memory.values("hccl_ret") == []
    session.add_paste("[ERROR] HCCL(2100,python):2025-10-24-11:16:00.000.000 [op_base.cc:88][2100]"
                      "call HcclAllReduce is failed. ret[9]\n")
    assert session.diagnose().memory.values("hccl_ret") == [9]
