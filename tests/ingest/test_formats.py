"""Record formats beyond the seed articles: error-code headers, tracebacks, other loggers."""

from __future__ import annotations

from datetime import datetime

import pytest

from faultbot.ingest import RecordKind
from tests.ingest.helpers import parse

TORCH_NPU_OUTPUT = """\
Traceback (most recent call last):
  File "train.py", line 12, in <module>
    dist.all_reduce(x)
  File "/usr/lib/python3.10/site-packages/torch/distributed/distributed_c10d.py", line 1536, in all_reduce
    work = group.allreduce([tensor], opts)
RuntimeError: [ERROR] 2024-08-29-03:16:34 (PID:2111667, Device:2, RankID:3) ERR02200 DIST call hccl api failed.
[ERROR] 2024-08-29-03:16:34 (PID:2111667, Device:2, RankID:3) ERR02200 DIST call hccl api failed.
EZ9999: Inner Error!
EZ9999: [PID: 4117] 2025-01-10-14:27:05.567.962 The error from device(chipId:4, dieId:0), serial number is 12, there is an aivec error exception, core id is 24, error code = 0.[FUNC:ProcessStarsCoreErrorInfo][FILE:device_error_proc.cc][LINE:1438]
        TraceBack (most recent call last):
        The extend info: errcode:(0, 0x8000, 0) errorStr: timeout or trap error.[FUNC:ProcessStarsCoreErrorInfo][FILE:device_error_proc.cc][LINE:1450]
        Kernel task happen error, retCode=0x31, [vector core timeout].[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1374]
EI0002: [PID: 12345] 2025-03-07-11:43:32.305.623 The wait execution of the Notify register times out. Reason: The Notify register has not received the Notify record from remote rank [unknown].
        Possible Cause: 1. An exception occurs during the execution on some NPUs in the cluster.
        Solution: 1. Look up the error code.
        TraceBack (most recent call last):
        Notify wait execute failed, device_id=0, stream_id=41[FUNC:GetError][FILE:stream.cc][LINE:1191]
"""


def test_torch_npu_failure_output() -> None:
    records = parse(TORCH_NPU_OUTPUT)
    assert [(r.kind, r.origin.line) for r in records] == [
        (RecordKind.PYTHON_TRACEBACK, 1),
        (RecordKind.ERROR_CODE_HEADER, 7),
        (RecordKind.ERROR_CODE_HEADER, 8),
        (RecordKind.ERROR_CODE_HEADER, 9),
        (RecordKind.TRACEBACK, 10),
        (RecordKind.ERROR_CODE_HEADER, 13),
        (RecordKind.TRACEBACK, 16),
    ]
    traceback, torch_npu, inner, device, cann_tb, notify, notify_tb = records
    assert traceback.message.startswith("RuntimeError: [ERROR] 2024-08-29-03:16:34")
    assert traceback.error_code == "ERR02200"
    assert traceback.raw.count("\n") == 5 and 'File "train.py"' in traceback.raw

    assert (torch_npu.level, torch_npu.pid, torch_npu.error_code) == ("ERROR", 2111667, "ERR02200")
    assert torch_npu.timestamp == datetime(2024, 8, 29, 3, 16, 34)
    assert (torch_npu.origin.device, torch_npu.origin.rank) == (2, 3)
    assert torch_npu.message == "DIST call hccl api failed."

    assert (inner.error_code, inner.message, inner.pid) == ("EZ9999", "Inner Error!", None)
    assert (device.error_code, device.pid) == ("EZ9999", 4117)
    assert device.timestamp == datetime(2025, 1, 10, 14, 27, 5, 567962)
    assert device.message.startswith("The error from device(chipId:4, dieId:0)")

    assert cann_tb.message.splitlines() == [
        "The extend info: errcode:(0, 0x8000, 0) errorStr: timeout or trap error."
        "[FUNC:ProcessStarsCoreErrorInfo][FILE:device_error_proc.cc][LINE:1450]",
        "Kernel task happen error, retCode=0x31, [vector core timeout]."
        "[FUNC:PreCheckTaskErr][FILE:davinci_kernel_task.cc][LINE:1374]",
    ]
    assert notify.error_code == "EI0002"
    assert notify.message.splitlines() == [
        "The wait execution of the Notify register times out. Reason: The Notify register has not "
        "received the Notify record from remote rank [unknown].",
        "Possible Cause: 1. An exception occurs during the execution on some NPUs in the cluster.",
        "Solution: 1. Look up the error code.",
    ]
    assert notify_tb.message.startswith("Notify wait execute failed")


def test_blocks_survive_lost_indentation() -> None:
    flat = "\n".join(line.strip() for line in TORCH_NPU_OUTPUT.splitlines())
    kinds = [r.kind for r in parse(flat)]
    assert kinds == [r.kind for r in parse(TORCH_NPU_OUTPUT)]
    assert [r.message for r in parse(flat)] == [r.message for r in parse(TORCH_NPU_OUTPUT)]


@pytest.mark.parametrize(
    ("line", "code", "message"),
    [
        ("EZ9999: Internal error!", "EZ9999", "Internal error!"),
        ("EI0001: 2024-04-20-10:42:34.020.677 Environment variable [HCCL_EXEC_TIMEOUT] is invalid.",
         "EI0001", "Environment variable [HCCL_EXEC_TIMEOUT] is invalid."),
        ("Config_Error_Invalid_Environment_Variable(EI0001): Value 1000 for environment variable "
         "HCCL_RDMA_SL is invalid.", "EI0001", "Config_Error_Invalid_Environment_Variable(EI0001): Value"),
        ("RuntimeError: createHCCLComm ERR02200 DIST call hccl api failed.", "ERR02200", "RuntimeError:"),
    ],
)
def test_error_code_headers(line: str, code: str, message: str) -> None:
    (record,) = parse(line)
    assert record.kind is RecordKind.ERROR_CODE_HEADER
    assert record.error_code == code
    assert record.message.startswith(message)


def test_glued_error_code_headers_split() -> None:
    records = parse("dataType[float32]. EZ9999: Inner Error! EZ9999: [PID: 1] 2025-01-10-14:27:05.567.962 x")
    assert [r.kind for r in records] == [RecordKind.TEXT] + [RecordKind.ERROR_CODE_HEADER] * 2
    assert records[2].pid == 1


def test_python_traceback_with_launcher_prefixes() -> None:
    text = "\n".join(
        f"(Worker_TP3 pid=1071) ERROR 07-21 06:27:44 [multiproc_executor.py:962] {line}"
        for line in (
            "Traceback (most recent call last):",
            '  File "/opt/vllm/worker.py", line 88, in execute',
            "    output = self.model(x)",
            "torch.distributed.DistBackendError: HCCL error in: ProcessGroupHCCL.cpp:1012",
        )
    ) + "\n[rank1]: Traceback (most recent call last):\n[rank1]:   File \"a.py\", line 1, in f\n" \
        "[rank1]:     g()\n[rank1]: KeyboardInterrupt\n"
    vllm, torchrun = parse(text)
    assert vllm.kind is torchrun.kind is RecordKind.PYTHON_TRACEBACK
    assert vllm.message == "torch.distributed.DistBackendError: HCCL error in: ProcessGroupHCCL.cpp:1012"
    assert vllm.origin.worker == "Worker_TP3" and vllm.notes == ()
    assert (torchrun.message, torchrun.origin.rank, torchrun.origin.line) == ("KeyboardInterrupt", 1, 5)


def test_python_traceback_without_exception_is_truncated() -> None:
    (record,) = parse('Traceback (most recent call last):\n  File "a.py", line 1, in f\n    g()')
    assert record.kind is RecordKind.PYTHON_TRACEBACK and "truncated" in record.notes


def test_traceback_with_lost_indentation() -> None:
    text = 'Traceback (most recent call last):\nFile "a.py", line 3, in <module>\nmain()\nValueError: bad\nnext line'
    traceback, text_record = parse(text)
    assert traceback.message == "ValueError: bad"
    assert text_record.kind is RecordKind.TEXT and text_record.origin.line == 5


@pytest.mark.parametrize(
    ("line", "level", "timestamp", "src", "message"),
    [
        ("I20251111 12:28:58.490254  1234 hccl_comm.cc:42] glog line", "INFO",
         datetime(2025, 11, 11, 12, 28, 58, 490254), ("hccl_comm.cc", 42), "glog line"),
        ("W1111 12:28:58.490254 1234 x.cc:1] no year", "WARNING", None, ("x.cc", 1), "no year"),
        ("[W723 10:35:57.462083519 ProcessGroupNCCL.cpp:4115] Warning: x", "WARNING", None,
         ("ProcessGroupNCCL.cpp", 4115), "Warning: x"),
        ("[E ProcessGroupHCCL.cpp:563] [Rank 3] Watchdog caught collective operation timeout", "ERROR", None,
         ("ProcessGroupHCCL.cpp", 563), "[Rank 3] Watchdog"),
        ("Tue Aug  4 06:51:57 2026 job started", None, datetime(2026, 8, 4, 6, 51, 57), (None, None),
         "Tue Aug  4"),
        ("2025-10-24 11:18:29,123 - INFO - step 100", None, datetime(2025, 10, 24, 11, 18, 29, 123000),
         (None, None), "2025-10-24"),
        ("2025-10-24T11:18:29.5 iso", None, datetime(2025, 10, 24, 11, 18, 29, 500000), (None, None), "2025"),
        ("plain words 12:00", None, None, (None, None), "plain words"),
    ],
)
def test_other_timestamp_styles(line, level, timestamp, src, message) -> None:
    (record,) = parse(line)
    assert record.kind is RecordKind.TEXT
    assert (record.level, record.timestamp, (record.src_file, record.src_line)) == (level, timestamp, src)
    assert record.message.startswith(message)


@pytest.mark.parametrize(
    ("line", "tid", "message"),
    [
        ("[ERROR] RUNTIME(57096,python3.10):2025-05-12-20:55:44.705.025 [task_info.cc:1170]57288 Print x",
         57288, "Print x"),
        ("[ERROR] HCCP(2040034,alltoall_test):2025-09-15-08:38:12.776.650 [ra_hdc_lite.c:794]tid:2040458,"
         "ra_hdc_lite_period_poll_cqe : failed", 2040458, "ra_hdc_lite_period_poll_cqe : failed"),
        ("[WARN] GE(1,python):2025-05-12-20:55:44.705.025 [graph.cc:1][2]msg", 2, "msg"),
        ("[EVENT] PROFILING(1,my proc.py):2025-05-12-20:55:44.705.025 [a.cc:1] 3 items", 3, "items"),
    ],
)
def test_plog_variants(line: str, tid: int, message: str) -> None:
    (record,) = parse(line)
    assert record.kind is RecordKind.PLOG
    assert (record.tid, record.message) == (tid, message)
    assert record.level in {"ERROR", "WARNING", "EVENT"}


def test_impossible_timestamp_is_left_unset() -> None:
    (record,) = parse("[ERROR] HCCL(1,p):2025-13-45-11:18:29.597.044 [a.cc:1] [2]x")
    assert record.kind is RecordKind.PLOG and record.timestamp is None


def test_prose_mentioning_a_source_file_is_not_a_plog() -> None:
    (record,) = parse("see [foo.cc:12] for details")
    assert record.kind is RecordKind.TEXT


def test_masked_values_survive() -> None:
    (record,) = parse("[ERROR] HCCL(1,p):2025-10-24-11:18:29.597.044 [a.cc:1] [2]peer xx.xx.xx.199 and 10.*.*.* lost")
    assert record.message == "peer xx.xx.xx.199 and 10.*.*.* lost"


def test_prose_mentioning_rank_is_not_split() -> None:
    records = parse("[INFO] HCCL(686,python):2025-10-23-07:52:59.191.363 [heartbeat.cc:951] [8970]"
                    "local rank [127.10.0.1/1]: crimer rank 2: lost, xrank3: [ERROR] HCCL(1,p): no")
    assert len(records) == 1
