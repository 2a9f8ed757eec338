"""One rank's task exception (base, groupRank and opData lines) split across rotated plog files or
pastes is joined by process and time before the ranks are compared (issue 14); lines of another
process, or too far apart in time, never join, and what is missing stays unknown."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

from faultbot.engine.aggregates import SPLIT_JOIN_WINDOW, TaskExceptionReport, facts_by_record, task_exceptions
from faultbot.ingest.inputs import LogPath
from faultbot.kb.loader import KnowledgeBase
from faultbot.session import DiagnosisSession

from ..conftest import REPO_DIR

GROUP = "127.10.0.1%enp_60000_0_1761275812718970"
AT = datetime(2025, 10, 24, 11, 18, 29, 499235)
RANK0, RANK1 = 2111665, 2111666
MISMATCH = "hccl.notify-timeout.op-mismatch"


def _plog(pid: int, moment: datetime, where: str, text: str) -> str:
    stamp = moment.strftime("%Y-%m-%d-%H:%M:%S.") + f"{moment.microsecond // 1000:03d}.{moment.microsecond % 1000:03d}"
    return (f"[ERROR] HCCL({pid},all_reduce_test):{stamp} [task_exception_handler.cc:{where}] [{pid}]"
            f"[TaskExecStage][Timeout][Host]Task run failed, {text}\n")


def base(pid: int, moment: datetime, op: str = "AllReduce") -> str:
    return _plog(pid, moment, "908", f"base information is streamID:[2], taskID[21], tag[{op}_{GROUP}], "
                                     "AlgType(level 0-1-2):[fullmesh-ring-NHR].")


def continuation(pid: int, moment: datetime, rank_id: int, count: int, group: str = GROUP) -> str:
    """The groupRank and opData lines HCCL prints right after the base line."""
    return (_plog(pid, moment + timedelta(microseconds=12), "771",
                  f"groupRank information is group:[{group}], user define information[], rankSize[2], "
                  f"rankId[{rank_id}].")
            + _plog(pid, moment + timedelta(microseconds=48), "704",
                    f"opData information is timeStamp:[2025-10-24-11:16:55.493.816], deviceId[{rank_id}], "
                    f"index[21], count[{count}], reduceType[sum], src[0x12c0c0013000], dst[0x12c0c0014000], "
                    "dataType[float32]."))


def whole(pid: int, moment: datetime, rank_id: int, count: int) -> str:
    return base(pid, moment) + continuation(pid, moment, rank_id, count)


# Rank 1 failed in AllReduce of 1024 elements; rank 0, whose lines are split, in AllReduce of 256.
RANK1_WHOLE = whole(RANK1, AT + timedelta(milliseconds=14), 1, 1024)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def diagnose_json(*paths: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "faultbot", "diagnose", *map(str, paths), "--no-ask",
                           "--format", "json"], capture_output=True, text=True, timeout=120, cwd=REPO_DIR)
    assert done.stdout and "Traceback" not in done.stderr, (done.returncode, done.stderr)
    return json.loads(done.stdout)


def op_mismatch_reasons(report: dict) -> list[str]:
    return [f["reason"] for f in report.get("cluster", {}).get("findings", []) if f["kind"] == "op-mismatch"]


def test_a_task_exception_split_by_log_rotation_is_joined_and_the_count_mismatch_concluded(tmp_path: Path) -> None:
    plog = tmp_path / "node-1" / "log" / "run" / "plog"
    write(plog / f"plog-{RANK0}_20251024111652405.log", base(RANK0, AT))
    rotated = write(plog / f"plog-{RANK0}_20251024111829499.log", continuation(RANK0, AT, 0, 256))
    write(plog / f"plog-{RANK1}_20251024111652405.log", RANK1_WHOLE)

    report = diagnose_json(tmp_path)
    assert report["conclusions"][0]["id"] == MISMATCH
    assert report["facts"]["ops_differ_in_group"]["value"] is True
    # Rank 0's op, count and data type are all known: its rank id and opData came from the rotated file.
    assert any(r.startswith("it failed in AllReduce (count 256, float32) while") for r in op_mismatch_reasons(report))

    rotated.unlink()
    without = diagnose_json(tmp_path)
    assert "ops_differ_in_group" not in without["facts"]          # missing is unknown, never different
    assert without["conclusions"][0]["id"] != MISMATCH


def test_files_given_on_the_command_line_in_any_order_are_joined(tmp_path: Path) -> None:
    first = write(tmp_path / "a" / "before-rotation.log", base(RANK0, AT) + RANK1_WHOLE)
    second = write(tmp_path / "b" / "after-rotation.log", continuation(RANK0, AT, 0, 256))
    report = diagnose_json(second, first)
    assert report["conclusions"][0]["id"] == MISMATCH
    assert report["facts"]["ops_differ_in_group"]["value"] is True


def events_of(kb: KnowledgeBase, *texts: str) -> list[TaskExceptionReport]:
    """The task exceptions of ``texts`` pasted one after another, as the chat names its pastes."""
    session = DiagnosisSession(kb)
    for number, text in enumerate(texts, 1):
        session.add_paste(text, name=f"<paste {number}>")
    return task_exceptions(facts_by_record(session.diagnose().memory))


def shapes(events: list[TaskExceptionReport]) -> dict[int, tuple[object, ...]]:
    return {e.record.pid: (e.value("rank_id"), e.value("op_count"), e.value("data_type")) for e in events}


def test_two_pastes_of_one_session_are_joined(kb: KnowledgeBase) -> None:
    events = events_of(kb, base(RANK0, AT) + RANK1_WHOLE, continuation(RANK0, AT, 0, 256))
    assert shapes(events) == {RANK0: (0, 256, "float32"), RANK1: (1, 1024, "float32")}
    session = DiagnosisSession(kb)
    session.add_paste(base(RANK0, AT) + RANK1_WHOLE, name="<paste 1>")
    session.add_paste(continuation(RANK0, AT, 0, 256), name="<paste 2>")
    diagnosis = session.diagnose()
    assert diagnosis.memory.values("ops_differ_in_group") == [True]
    assert diagnosis.top.id == MISMATCH


def test_another_process_lines_never_join(kb: KnowledgeBase, tmp_path: Path) -> None:
    other = RANK0 + 2
    events = events_of(kb, base(RANK0, AT) + RANK1_WHOLE, continuation(other, AT, 0, 256))
    assert shapes(events)[RANK0] == (None, None, None)
    # Nor across nodes: the same pid in another node's folder is another process.
    write(tmp_path / "node-1" / f"plog-{RANK0}_1.log", base(RANK0, AT) + RANK1_WHOLE)
    write(tmp_path / "node-2" / f"plog-{RANK0}_2.log", continuation(RANK0, AT, 0, 256))
    session = DiagnosisSession(kb)
    session.add_inputs([LogPath(tmp_path)])
    assert shapes(task_exceptions(facts_by_record(session.diagnose().memory)))[RANK0] == (None, None, None)


def test_a_continuation_beyond_the_window_does_not_join(kb: KnowledgeBase) -> None:
    late = AT + SPLIT_JOIN_WINDOW + timedelta(seconds=1)
    events = events_of(kb, base(RANK0, AT) + RANK1_WHOLE, continuation(RANK0, late, 0, 256))
    assert shapes(events)[RANK0] == (None, None, None)
    session = DiagnosisSession(kb)
    session.add_paste(base(RANK0, AT) + RANK1_WHOLE, name="<paste 1>")
    session.add_paste(continuation(RANK0, late, 0, 256), name="<paste 2>")
    assert session.diagnose().memory.values("ops_differ_in_group") == []


def test_a_continuation_joins_the_latest_base_line_of_its_process_only(kb: KnowledgeBase) -> None:
    """Two task exceptions of one process a second apart, each base line in its own paste: the
    continuation joins the later one."""
    later = AT + timedelta(seconds=1)
    events = events_of(kb, base(RANK0, AT), base(RANK0, later, "AllGather"), continuation(RANK0, later, 0, 256))
    assert [shapes([e])[RANK0] for e in events] == [(None, None, None), (0, 256, "float32")]


def test_a_group_rank_line_of_another_communicator_does_not_join(kb: KnowledgeBase) -> None:
    other = "127.10.0.1%enp_60001_0_1761275812718971"
    [event] = events_of(kb, base(RANK0, AT), continuation(RANK0, AT, 0, 256, group=other).splitlines(True)[0])
    assert (event.group, event.value("rank_id")) == (GROUP, None)


def test_lines_without_a_time_join_only_within_their_own_paste(kb: KnowledgeBase) -> None:
    """Message bodies pasted without their plog headers: no time and no pid to join by across pastes."""
    def bare(text: str) -> str:
        return "".join(line[line.index("[TaskExecStage]"):] for line in text.splitlines(True))

    [event] = events_of(kb, bare(base(RANK0, AT) + continuation(RANK0, AT, 0, 256)))
    assert (event.value("rank_id"), event.value("op_count")) == (0, 256)
    [event] = events_of(kb, bare(base(RANK0, AT)), bare(continuation(RANK0, AT, 0, 256)))
    assert (event.value("rank_id"), event.value("op_count")) == (None, None)
