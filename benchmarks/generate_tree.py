"""Generate a realistic CANN log tree for benchmarks: mostly INFO noise, a few planted faults.

    python benchmarks/generate_tree.py OUT_DIR --size-mb 512 --nodes 8 --ranks-per-node 8

Layout per node: node-<n>/log/run/plog/plog-<pid>_<stamp>.log (INFO/ERROR, one per rank) and
node-<n>/log/debug/plog/plog-<pid>_<stamp>.log (DEBUG noise). One rank of one node carries a
planted task-exception timeout and a heartbeat event, another node an SDMA error; the rest is the
traffic of a healthy job. Deterministic for a given --seed.
"""

from __future__ import annotations

import argparse
import random
from datetime import datetime, timedelta
from pathlib import Path

GROUP = "10.0.0.1%enp_60000_0_1761275812718970"

_ENTRY_OP = (
    "[INFO] HCCL({pid},python):{ts} [hccl_opbase_atrace_info.cc:56][{tid}]Entry-HcclAllReduce: tag[AllReduce_{group}], "
    "sendBuf[0x12{a:010x}], recvBuf[0x12{b:010x}], count[{n}], dataType[float32], op[sum], localRank[{rank}], "
    "streamId[2],comm[0xfffe380078d0], deviceLogicId[{dev}]"
)
_STARTUP = (
    "[INFO] HCCL({pid},python):{ts} [env_config.cc:210] [{tid}]HCCL_EXEC_TIMEOUT set by default to [1836]s",
    "[INFO] HCCL({pid},python):{ts} [env_config.cc:221] [{tid}]HCCL_OP_EXPANSION_MODE is [HOST]",
    "[INFO] HCCL({pid},python):{ts} [op_base.cc:1292] [{tid}]Entry-HcclCommInitRootInfoInner:ranks[{size}], "
    "rank[{rank}], rootinfo: host ip[10.0.0.1] port[60000] nicDeploy[1] identifier[{group}], deviceLogicId[{dev}]",
)
_NOISE = (
    "[INFO] RUNTIME({pid},python):{ts} [stream.cc:{line}]{tid} Synchronize:stream_id={sid}, task_id={n}, wait finished.",
    "[INFO] GE({pid},python):{ts} [graph_manager.cc:{line}]{tid} RunGraph:graph_id {sid} run success, session_id {n}.",
    "[INFO] HCCL({pid},python):{ts} [op_base.cc:{line}] [{tid}]AllGather ok: tag[AllGather_{group}] count[{n}] time[{line}]us",
    "[INFO] ASCENDCL({pid},python):{ts} [memory.cc:{line}]{tid} aclrtMalloc: size = {n}, policy = 0, ptr = 0x12{a:010x}",
)
_DEBUG = (
    "[DEBUG] RUNTIME({pid},python):{ts} [task_info.cc:{line}]{tid} ToCommand: stream_id={sid}, task_id={n}, type=0",
    "[DEBUG] HCCL({pid},python):{ts} [transport_roce.cc:{line}] [{tid}]TxAsync: rank[{rank}] len[{n}] qp[{sid}]",
)
_FAULT_TIMEOUT = (
    "[ERROR] HCCL({pid},python):{ts} [task_exception_handler.cc:908] [{tid}][TaskExecStage][Timeout][Host]Task run failed, "
    "base information is streamID:[2], taskID[21], tag[AllReduce_{group}], AlgType(level 0-1-2):[fullmesh-ring-NHR].\n"
    "[ERROR] HCCL({pid},python):{ts} [task_exception_handler.cc:771] [{tid}][TaskExecStage][Timeout][Host]Task run failed, "
    "groupRank information is group:[{group}], user define information[], rankSize[{size}], rankId[{rank}].\n"
    "[ERROR] HCCL({pid},python):{ts} [task_exception_handler.cc:704] [{tid}][TaskExecStage][Timeout][Host]Task run failed, "
    "opData information is timeStamp:[2025-10-24-11:16:55.493.816], deviceId[{dev}], index[21], count[256], "
    "reduceType[sum], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32].\n"
    "[INFO] HCCL({pid},python):{ts} [heartbeat.cc:951] [{tid}][TaskExecStage][HeartbeatAbnormal]local rank "
    "[10.0.0.{node}/{rank}]: crimer rank [10.0.0.9/13] status[LOST] by informer rank [10.0.0.{node}/{rank}]"
)
_FAULT_SDMA = (
    "[ERROR] RUNTIME({pid},python3.10):{ts} [task_info.cc:1170]{tid} PrintSdmaErrorInfoForFftsPlusTask:fftsplus task "
    "execute failed, dev_id={dev}, stream_id=50, task_id=21, context_id=18, thread_id=0, err_type=4[fftsplus sdma error]"
)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d-%H:%M:%S.") + f"{moment.microsecond // 1000:03d}.{moment.microsecond % 1000:03d}"


def _lines(rng: random.Random, templates: tuple[str, ...], start: datetime, entry_log: bool, **ids: object):
    """Startup lines, then noise; with ``entry_log`` (HCCL_ENTRY_LOG_ENABLE=1) one line in fifty is
    an Entry- line for a dispatched collective, which the KB reads."""
    moment = start
    for line in _STARTUP:
        yield line.format(ts=_stamp(moment), group=GROUP, **ids)
    mixed = (_ENTRY_OP, *templates * 49) if entry_log else templates
    while True:
        moment += timedelta(microseconds=rng.randrange(50, 5000))
        yield rng.choice(mixed).format(
            ts=_stamp(moment), line=rng.randrange(100, 2000), n=rng.randrange(1, 1 << 24),
            sid=rng.randrange(1, 64), a=rng.randrange(1 << 36), b=rng.randrange(1 << 36), group=GROUP, **ids)


def _write(path: Path, lines, size: int, planted: str = "") -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    written = 0
    with path.open("w", encoding="utf-8") as out:
        chunk: list[str] = []
        while written < size:
            line = next(lines) + "\n"
            chunk.append(line)
            written += len(line)
            if len(chunk) == 2000:
                out.write("".join(chunk))
                chunk = []
            if planted and written >= size // 2:
                chunk.append(planted + "\n")
                written += len(planted) + 1
                planted = ""
        out.write("".join(chunk))
    return written


def generate(out: Path, size_mb: int, nodes: int, ranks_per_node: int, seed: int = 1, entry_log: bool = False) -> int:
    rng = random.Random(seed)
    files = nodes * ranks_per_node * 2
    per_file = size_mb * (1 << 20) // files
    start = datetime(2025, 10, 24, 11, 0, 0)
    total = 0
    for node in range(nodes):
        for local in range(ranks_per_node):
            rank = node * ranks_per_node + local
            pid = 2_100_000 + rank
            ids = dict(pid=pid, tid=pid + 7, rank=rank, dev=local, node=node, size=nodes * ranks_per_node)
            planted = ""
            if node == nodes - 1 and local == 0:
                planted = _FAULT_TIMEOUT.format(ts=_stamp(start + timedelta(minutes=30)), group=GROUP, **ids)
            elif node == 0 and local == 1:
                planted = _FAULT_SDMA.format(ts=_stamp(start + timedelta(minutes=29)), **ids)
            name = f"plog-{pid}_20251024110000{rank:03d}.log"
            base = out / f"node-{node}" / "log"
            total += _write(base / "run" / "plog" / name, _lines(rng, _NOISE, start, entry_log, **ids), per_file, planted)
            total += _write(base / "debug" / "plog" / name, _lines(rng, _DEBUG, start, False, **ids), per_file)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--size-mb", type=int, default=512)
    parser.add_argument("--nodes", type=int, default=8)
    parser.add_argument("--ranks-per-node", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--entry-log", action="store_true", help="as with HCCL_ENTRY_LOG_ENABLE=1")
    args = parser.parse_args()
    total = generate(args.out, args.size_mb, args.nodes, args.ranks_per_node, args.seed, args.entry_log)
    print(f"wrote {total / (1 << 20):.0f} MB under {args.out}")


if __name__ == "__main__":
    main()
