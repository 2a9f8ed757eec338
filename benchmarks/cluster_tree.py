"""Generate one cluster fault scenario as the CANN log tree a collection script gathers from every node.

    python benchmarks/cluster_tree.py OUT_DIR --scenario process-exit --nodes 4 --ranks-per-node 8

Per node: node-<n>/log/run/plog/plog-<pid>_<stamp>.log (INFO noise, communicator set-up, the
fault's records), node-<n>/log/debug/plog/... (DEBUG noise) and node-<n>/train_rank<r>.log (the
rank's screen output) for each rank. Ranks belong to the world communicator and to their node's
tensor-parallel communicator. Deterministic for given arguments; the tests and
benchmarks/cluster_benchmark.py build their trees with ``generate``.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

START = datetime(2025, 10, 24, 11, 16, 52)
STEP = timedelta(milliseconds=400)
WORLD = "10.0.0.1%enp_60000_0_1761275812718970"
DEFAULT_TIMEOUT = 1836


@dataclass(frozen=True)
class Rank:
    node: int
    local: int
    world: int
    world_size: int
    ranks_per_node: int

    @property
    def pid(self) -> int:
        return 2_100_000 + self.node * 1000 + self.local * 7

    @property
    def host_ip(self) -> str:
        return f"10.0.{self.node // 250}.{self.node % 250 + 1}"

    @property
    def device_ip(self) -> str:
        return f"10.{20 + self.local}.{self.node // 250}.{self.node % 250 + 1}"

    @property
    def heartbeat_id(self) -> str:
        return f"{self.host_ip}/{self.world}"

    @property
    def tp_group(self) -> str:
        return f"group_name_{self.node + 1}"


Line = tuple[datetime, str, str]      # when, which log ("run", "screen"), the text


def _ts(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d-%H:%M:%S.") + f"{moment.microsecond // 1000:03d}.{moment.microsecond % 1000:03d}"


def _plog(rank: Rank, moment: datetime, level: str, module: str, where: str, text: str) -> Line:
    return moment, "run", f"[{level}] {module}({rank.pid},python):{_ts(moment)} [{where}] [{rank.pid}]{text}"


def task_exception(rank: Rank, moment: datetime, op: str, group: str, rank_id: int, size: int,
                   index: int = 88, count: int = 524288, dtype: str = "bfloat16", stream: int = 2) -> list[Line]:
    """The three task-exception records HCCL prints for a failed task (base, groupRank, opData)."""
    head = "[TaskExecStage][Timeout][Host]Task run failed, "
    reduce = "reduceType[sum], " if op == "AllReduce" else ""
    step = timedelta(microseconds=9)
    return [
        _plog(rank, moment, "ERROR", "HCCL", "task_exception_handler.cc:947",
              f"{head}base information is streamID:[{stream}], taskID[{index * 21}], tag[{op}_{group}], "
              f"AlgType(level 0-1-2):[fullmesh-ring-NHR]."),
        _plog(rank, moment + step, "ERROR", "HCCL", "task_exception_handler.cc:810",
              f"{head}groupRank information is group:[{group}], user define information[Unspecified], "
              f"rankSize[{size}], rankId[{rank_id}]."),
        _plog(rank, moment + 2 * step, "ERROR", "HCCL", "task_exception_handler.cc:737",
              f"{head}opData information is timeStamp:[{_ts(moment - timedelta(seconds=DEFAULT_TIMEOUT))}], "
              f"deviceId[{rank.local}], index[{index}], count[{count}], {reduce}src[0x12c0c0013000], "
              f"dst[0x12c0c0014000], dataType[{dtype}]."),
    ]


def notify_timeout_screen(rank: Rank, moment: datetime, group: str, rank_id: int, size: int, op: str) -> Line:
    return moment, "screen", (
        f"[rank{rank.world}]: EI0002: [PID: {rank.pid}] {_ts(moment)} The wait execution of the Notify register "
        f"times out. Reason: The Notify register has not received the Notify record from remote rank: "
        f"[{(rank_id + 1) % size}]. base information: [streamID:[2], taskID[1848], taskType[Notify Wait], "
        f"tag[{op}_{group}]]. task information: [notify id:[0x0000000100000058], stage:[0], remote rank:"
        f"[{(rank_id + 1) % size}]]. group information: [group:[{group}], user define information[], "
        f"rankSize[{size}], rankId[{rank_id}]]")


def heartbeat_event(rank: Rank, moment: datetime, crimer: Rank, status: str, informer: Rank) -> Line:
    return _plog(rank, moment, "INFO", "HCCL", "heartbeat.cc:951",
                 f"[TaskExecStage][HeartbeatAbnormal]local rank [{rank.heartbeat_id}]: crimer rank "
                 f"[{crimer.heartbeat_id}] status[{status}] by informer rank [{informer.heartbeat_id}]")


def cluster_exception(rank: Rank, moment: datetime, crimer: Rank, arrival: datetime, kind: str,
                      discoverer: Rank | None) -> Line:
    reasons = {"Heartbeat Lost Occurred": "1. Process has exited, 2. Network Disconnected",
               "Stuck Occurred": "1.Host process is stuck, 2.Device task is stuck",
               "Error cqe Occurred": "1. Network is abnormal, 2. Peer process has exited"}
    found = f", Discoverer:[{discoverer.heartbeat_id}]" if discoverer else ""
    return _plog(rank, moment, "ERROR", "HCCL", "task_exception_handler.cc:610",
                 f"[TaskExecStage][HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[{crimer.heartbeat_id}], "
                 f"Arrival Time:[{arrival.strftime('%a %b %d %H:%M:%S %Y')}]{found}, ExceptionType:[{kind}], "
                 f"Possible Reason:{reasons[kind]}")


def roce_cqe(rank: Rank, moment: datetime, remote: Rank) -> list[Line]:
    """The ROCE driver, HCCP poll and HCCL heartbeat records of an error CQE on ``rank``."""
    def line(delay_us: int, level_module: tuple[str, str], where: str, text: str) -> Line:
        when = moment + timedelta(microseconds=delay_us)
        return when, "run", f"[{level_module[0]}] {level_module[1]}({rank.pid},python):{_ts(when)} [{where}]{text}"
    return [
        line(0, ("ERROR", "ROCE"), "hns_roce_lite.c:630",
             "hns_roce_lite_handle_error_cqe(630) : error cqe status: 0x15"),
        line(38, ("ERROR", "HCCP"), "ra_hdc_lite.c:794", f"tid:{rank.pid + 424},ra_hdc_lite_period_poll_cqe : "
             "[create][ra_hdc_period_poll]failed CQE status[12], wr[0]"),
        line(830_820, ("ERROR", "HCCL"), "heartbeat.cc:1229",
             f" [{rank.pid + 632}][TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], "
             f"time:[{moment.strftime('%Y-%m-%d %H:%M:%S.%f')}],localInfo{{server[{rank.host_ip}],deviceId"
             f"[{rank.local}],deviceIp[{rank.device_ip}]}}, remoteIP{{server[{remote.host_ip}],deviceId"
             f"[{remote.local}],deviceIp[{remote.device_ip}]}}"),
    ]


def sdma_error(rank: Rank, moment: datetime) -> list[Line]:
    def runtime(delay_us: int, where: str, text: str) -> Line:
        when = moment + timedelta(microseconds=delay_us)
        return when, "run", f"[ERROR] RUNTIME({rank.pid},python):{_ts(when)} [{where}]{rank.pid + 191} {text}"
    return [
        runtime(0, "task_info.cc:1170", f"PrintSdmaErrorInfoForFftsPlusTask:fftsplus task execute failed, "
                f"dev_id={rank.local}, stream_id=50, task_id=21, context_id=18, thread_id=0, "
                "err_type=4[fftsplus sdma error]"),
        runtime(6, "task_info.cc:1270", "TaskFailCallBackForFftsPlusTask:fftsplus streamId=50, taskId=21, "
                "context_id=18, expandtype=1, rtCode=0x715006c,[fftsplus task exception], psStart=0x0, "
                "kernel_name=not found kernel name, binHandle=(nil), binSize=0."),
    ]


def entry_op(rank: Rank, moment: datetime, op: str, group: str, rank_id: int, stream: int, serial: int) -> Line:
    count, dtype, reduce = (10746295, "float32", "sum") if op == "AllReduce" else (524288, "bfloat16", "")
    return moment, "run", (
        f"[INFO] HCCL({rank.pid},python):{_ts(moment)} [hccl_opbase_atrace_info.cc:56][{rank.pid + 1556}]"
        f"Entry-Hccl{op}: tag[{op}_{group}], sendBuf[0x12c04a{serial:06x}], recvBuf[0x12c04c{serial:06x}], "
        f"count[{count}], dataType[{dtype}], op[{reduce}], localRank[{rank_id}], streamId[{stream}],"
        f"comm[0xfffe2c00a1d0], deviceLogicId[{rank.local}]")


def comm_init(rank: Rank, moment: datetime, group: str, size: int, rank_id: int, root_ip: str, port: int) -> Line:
    return _plog(rank, moment, "INFO", "HCCL", "op_base.cc:1292",
                 f"Entry-HcclCommInitRootInfoInner:ranks[{size}], rank[{rank_id}], rootinfo: host ip[{root_ip}] "
                 f"port[{port}] nicDeploy[1] identifier[{group}], deviceLogicId[{rank.local}]")


def comm_destroy(rank: Rank, moment: datetime, group: str) -> list[Line]:
    return [_plog(rank, moment, "INFO", "HCCL", "op_base.cc:2010", "Entry-HcclCommDestroy: op_base comm destroy begin"),
            _plog(rank, moment + timedelta(milliseconds=2), "INFO", "HCCL", "op_base.cc:2061",
                  f"hcclCommDestroy success, identifier[{group}]")]


# --- the healthy job around every fault ------------------------------------------------------

_NOISE = (
    "[INFO] RUNTIME({pid},python):{ts} [stream.cc:{line}]{pid} Synchronize:stream_id={sid}, task_id={n}, wait finished.",
    "[INFO] GE({pid},python):{ts} [graph_manager.cc:{line}]{pid} RunGraph:graph_id {sid} run success, session_id {n}.",
    "[INFO] ASCENDCL({pid},python):{ts} [memory.cc:{line}]{pid} aclrtMalloc: size = {n}, policy = 0, ptr = 0x12{a:010x}",
    "[INFO] HCCL({pid},python):{ts} [op_base.cc:{line}] [{pid}]AllGather ok: tag[AllGather_{tp}] count[{n}] time[{line}]us",
    "[INFO] RUNTIME({pid},python):{ts} [event.cc:{line}]{pid} Record: event_id={sid}, stream_id=2, task_id={n}.",
)
_DEBUG = (
    ("[DEBUG] HCCL({pid},python):{ts} [dispatcher.cc:412] [{tid}]SignalRecord: notify[0x00000001{a:08x}], stream[2], "
     "taskId[{n}], remote rank[{peer}]"),
    ("[DEBUG] HCCL({pid},python):{ts} [dispatcher.cc:398] [{tid}]SignalWait: notify[0x00000001{a:08x}], stream[2], "
     "taskId[{n}], taskType[Notify Wait], timeout[{timeout}]s"),
    "[DEBUG] RUNTIME({pid},python):{ts} [stream.cc:1022]{tid} AddTaskToStream: stream_id=2, task_id={n}, task_type=23(NOTIFY_WAIT).",
    "[DEBUG] HCCP({pid},python):{ts} [ra_hdc_lite.c:781]tid:{tid},ra_hdc_lite_period_poll_cqe : poll cq success, cqe num[0]",
    "[DEBUG] HCCL({pid},python):{ts} [heartbeat.cc:612] [{tid}]send heartbeat to rank [{peer_id}] success, status[OK]",
)


def _startup(rank: Rank, timeout: int) -> list[Line]:
    at = START + timedelta(milliseconds=rank.local * 7)
    env = "set by default to" if timeout == DEFAULT_TIMEOUT else "set by environment to"
    lines = [
        (at, "run", (f"[INFO] RUNTIME({rank.pid},python):{_ts(at)} [runtime.cc:1593]{rank.pid} Init: runtime init "
                     f"success, deviceId={rank.local}, chipType=5")),
        _plog(rank, at + timedelta(milliseconds=40), "INFO", "HCCL", "externalinput.cc:1027",
              "HCCL_CONNECT_TIMEOUT set by default to [120]s"),
        _plog(rank, at + timedelta(milliseconds=41), "INFO", "HCCL", "externalinput.cc:1041",
              f"HCCL_EXEC_TIMEOUT {env} [{timeout}]s"),
        _plog(rank, at + timedelta(milliseconds=42), "INFO", "HCCL", "externalinput.cc:1180",
              "HCCL_OP_EXPANSION_MODE is [HOST]"),
    ]
    for offset, (group, size, rank_id, port) in enumerate(((WORLD, rank.world_size, rank.world, 60000),
                                                            (rank.tp_group, rank.ranks_per_node, rank.local, 60001))):
        moment = at + timedelta(milliseconds=300 + 60 * offset)
        root = WORLD.split("%")[0] if offset == 0 else rank.host_ip
        lines.append(comm_init(rank, moment, group, size, rank_id, root, port))
        if offset == 0:
            lines.append(_plog(rank, moment + timedelta(milliseconds=10), "INFO", "HCCL", "heartbeat.cc:231",
                               f"Heartbeat init success, local rank [{rank.heartbeat_id}], neighbour num[2]"))
        lines.append(_plog(rank, moment + timedelta(milliseconds=20), "INFO", "HCCL", "op_base.cc:1401",
                           f"hcclCommInitRootInfoInner success, take time [1146]us, rankNum[{size}], "
                           f"rank[{rank_id}], identifier[{group}]"))
    return lines


def _steps(rank: Rank, rng: random.Random, until: datetime, entry_log: bool) -> Iterator[Line]:
    """A training step every STEP: compute noise, and with HCCL_ENTRY_LOG_ENABLE the TP AllGather
    (stream 3) and the world AllReduce (stream 2) it dispatches."""
    moment, step = START + timedelta(seconds=1), 0
    while moment < until:
        if entry_log:
            yield entry_op(rank, moment, "AllGather", rank.tp_group, rank.local, 3, 2 * step)
            yield entry_op(rank, moment + timedelta(milliseconds=190), "AllReduce", WORLD, rank.world, 2, 2 * step + 1)
        for _ in range(4):
            moment += timedelta(microseconds=rng.randrange(200, 90_000))
            yield moment, "run", rng.choice(_NOISE).format(
                pid=rank.pid, ts=_ts(moment), line=rng.randrange(100, 2000), sid=rng.randrange(1, 64),
                n=rng.randrange(1, 1 << 24), a=rng.randrange(1 << 36), tp=rank.tp_group)
        if step % 10 == 0:
            yield moment, "screen", (f"[rank{rank.world}]: step {step} loss {6.5 - step * 0.01:.2f} lr 3.00e-04 "
                                     f"grad_norm 1.0{step % 7} tokens/s {41000 + rng.randrange(900)}")
        step += 1
        moment = START + timedelta(seconds=1) + step * STEP


def _debug(rank: Rank, rng: random.Random, until: datetime, timeout: int, lines: int) -> Iterator[str]:
    moment = START + timedelta(seconds=1)
    span = max((until - moment).total_seconds(), 1.0) / max(lines, 1)
    peer = (rank.local + 1) % rank.ranks_per_node
    peer_id = f"{rank.host_ip}/{rank.world - rank.local + peer}"
    for _ in range(lines):
        moment += timedelta(seconds=span * rng.uniform(0.5, 1.5))
        yield rng.choice(_DEBUG).format(pid=rank.pid, tid=rank.pid + 1554, ts=_ts(moment), a=rng.randrange(1 << 32),
                                        n=rng.randrange(1, 1 << 16), peer=peer, peer_id=peer_id, timeout=timeout)


# --- scenarios -------------------------------------------------------------------------------

@dataclass
class Scenario:
    """What happens in one run: every rank's noise stops at the fault (the job hangs), then each
    rank prints its own records of it."""

    name: str
    suspects: tuple[int, ...]                       # world ranks the diagnosis must name
    events: Callable[[Rank], list[Line]]            # a rank's records of the fault
    timeout: int = DEFAULT_TIMEOUT
    entry_log: bool = False
    extra_files: dict[str, str] = field(default_factory=dict)   # path under the tree -> text
    healthy: bool = False


def _ranks(nodes: int, per_node: int) -> list[Rank]:
    size = nodes * per_node
    return [Rank(n, local, n * per_node + local, size, per_node) for n in range(nodes) for local in range(per_node)]


def _world_timeouts(rank: Rank, at: datetime, op: str = "AllReduce", count: int = 10746295,
                    dtype: str = "float32") -> list[Line]:
    return [*task_exception(rank, at, op, WORLD, rank.world, rank.world_size, count=count, dtype=dtype),
            notify_timeout_screen(rank, at + timedelta(milliseconds=2), WORLD, rank.world, rank.world_size, op)]


def _jitter(rank: Rank, ms: int = 900) -> timedelta:
    return timedelta(milliseconds=(rank.world * 37) % ms)


def scenario(name: str, ranks: list[Rank], fault_at: datetime) -> Scenario:
    by_world = {r.world: r for r in ranks}
    last = ranks[-1]

    def neighbour(rank: Rank) -> Rank:
        return by_world[(rank.world + 1) % len(ranks)]

    if name == "healthy":
        return Scenario(name, (), lambda rank: [], entry_log=True, healthy=True)

    if name in ("process-exit", "stuck"):
        victim = by_world[min(len(ranks) - 1, 2 * last.ranks_per_node + 5)]
        status, kind = ("LOST", "Heartbeat Lost Occurred") if name == "process-exit" else ("STUCK", "Stuck Occurred")
        detected = fault_at + timedelta(seconds=30 if status == "LOST" else 700)
        informer = neighbour(victim)

        def heartbeat_fault(rank: Rank) -> list[Line]:
            if rank is victim:
                return []
            seen = detected + timedelta(milliseconds=(rank.world * 13) % 500)
            failed = fault_at + timedelta(seconds=DEFAULT_TIMEOUT) + _jitter(rank)
            return [heartbeat_event(rank, seen, victim, status, informer), *_world_timeouts(rank, failed),
                    cluster_exception(rank, failed + timedelta(microseconds=400), victim, detected, kind,
                                      informer if status == "LOST" else None)]
        return Scenario(name, (victim.world,), heartbeat_fault)

    if name == "network-flap":
        a = by_world[min(len(ranks) - 1, last.ranks_per_node + 3)]
        b = by_world[min(len(ranks) - 1, 2 * last.ranks_per_node + 3)]

        def flap(rank: Rank) -> list[Line]:
            failed = fault_at + timedelta(seconds=DEFAULT_TIMEOUT) + _jitter(rank)
            lines = _world_timeouts(rank, failed)
            lines.append(cluster_exception(rank, failed + timedelta(microseconds=400), b, fault_at,
                                           "Error cqe Occurred", a))
            if rank is a:
                return [*roce_cqe(rank, fault_at, b), *lines]
            if rank is b:
                return [*roce_cqe(rank, fault_at + timedelta(milliseconds=180), a), *lines]
            seen = fault_at + timedelta(seconds=1, milliseconds=(rank.world * 13) % 500)
            return [heartbeat_event(rank, seen, b, "ERROR CQE", a),
                    heartbeat_event(rank, seen + timedelta(milliseconds=3), a, "ERROR CQE", b), *lines]
        stat = (f"$ hccn_tool -i {a.local} -link_stat -g\n[devid {a.local}]current time : Fri Oct 24 12:20:02 2025\n"
                f"[devid {a.local}]link up count : 2\n[devid {a.local}]link down count : 1\n"
                f"[devid {a.local}]link change records :\n"
                f"[devid {a.local}] {fault_at.strftime('%a %b %d %H:%M:%S %Y')} LINK UP\n"
                f"[devid {a.local}] {(fault_at - timedelta(seconds=1)).strftime('%a %b %d %H:%M:%S %Y')} LINK DOWN\n"
                f"[devid {a.local}] {START.strftime('%a %b %d %H:%M:%S %Y')} LINK UP\n")
        return Scenario(name, (b.world, a.world), flap,
                        extra_files={f"node-{a.node}/hccn_tool_link_stat_dev{a.local}.txt": stat})

    if name == "op-mismatch":
        odd = by_world[min(len(ranks) - 1, 3 * last.ranks_per_node + 2)]

        def mismatch(rank: Rank) -> list[Line]:
            failed = fault_at + timedelta(seconds=DEFAULT_TIMEOUT) + _jitter(rank)
            if rank is odd:
                return _world_timeouts(rank, failed, "AllGather", 524288, "bfloat16")
            return _world_timeouts(rank, failed)
        return Scenario(name, (odd.world,), mismatch)

    if name == "slow-rank":
        slow, timeout, late = by_world[min(len(ranks) - 1, last.ranks_per_node + 6)], 300, 340

        def slow_rank(rank: Rank) -> list[Line]:
            arrived = fault_at + timedelta(seconds=late if rank is slow else 0)
            return _world_timeouts(rank, arrived + timedelta(seconds=timeout) + _jitter(rank))
        return Scenario(name, (slow.world,), slow_rank, timeout=timeout)

    if name == "comm-destroyed":
        early = by_world[min(len(ranks) - 1, 4)]

        def destroyed(rank: Rank) -> list[Line]:
            if rank is early:
                last_op = entry_op(rank, fault_at, "AllGather", rank.tp_group, rank.local, 3, 999)
                destroy = comm_destroy(rank, fault_at + timedelta(milliseconds=2), rank.tp_group)
                failed = fault_at + timedelta(milliseconds=5)
                return [last_op, *destroy, *sdma_error(rank, failed),
                        *task_exception(rank, failed + timedelta(milliseconds=1), "AllGather", rank.tp_group,
                                        rank.local, rank.ranks_per_node, count=524288, stream=3)]
            if rank.node != early.node:
                return []
            waited = fault_at + timedelta(seconds=DEFAULT_TIMEOUT - 6) + _jitter(rank)
            return [entry_op(rank, fault_at, "AllGather", rank.tp_group, rank.local, 3, 999),
                    *task_exception(rank, waited, "AllGather", rank.tp_group, rank.local, rank.ranks_per_node,
                                    count=524288, stream=3)]
        return Scenario(name, (early.world,), destroyed, entry_log=True)

    raise ValueError(f"unknown scenario {name!r}; one of: {', '.join(SCENARIOS)}")


SCENARIOS = ("healthy", "process-exit", "stuck", "network-flap", "op-mismatch", "slow-rank", "comm-destroyed")


def _write(path: Path, lines: list[str]) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = "\n".join(lines) + "\n"
    path.write_text(text, encoding="utf-8")
    return len(text.encode("utf-8"))


def generate(out: Path, name: str, nodes: int = 4, ranks_per_node: int = 8, steps: int = 40,
             debug_lines: int = 150, seed: int = 1) -> Scenario:
    """Write the tree of scenario ``name`` under ``out``; returns the scenario (its suspects)."""
    ranks = _ranks(nodes, ranks_per_node)
    fault_at = START + timedelta(seconds=1) + steps * STEP
    plan = scenario(name, ranks, fault_at)
    for rank in ranks:
        rng = random.Random(seed * 1_000_003 + rank.world)
        until = fault_at + STEP if plan.healthy else fault_at
        lines = [*_startup(rank, plan.timeout), *_steps(rank, rng, until, plan.entry_log), *plan.events(rank)]
        if plan.healthy:
            lines += comm_destroy(rank, until, rank.tp_group)
            lines += comm_destroy(rank, until + timedelta(milliseconds=4), WORLD)
        lines.sort(key=lambda line: line[0])
        stamp = START.strftime("%Y%m%d%H%M%S") + f"{rank.local:03d}"
        node = out / f"node-{rank.node}"
        _write(node / "log" / "run" / "plog" / f"plog-{rank.pid}_{stamp}.log",
               [t for _, kind, t in lines if kind == "run"])
        _write(node / "log" / "debug" / "plog" / f"plog-{rank.pid}_{stamp}.log",
               list(_debug(rank, rng, fault_at, plan.timeout, debug_lines)))
        _write(node / f"train_rank{rank.world}.log", [t for _, kind, t in lines if kind == "screen"])
    for relative, text in plan.extra_files.items():
        _write(out / relative, text.splitlines())
    return plan


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--scenario", choices=SCENARIOS, default="process-exit")
    parser.add_argument("--nodes", type=int, default=4)
    parser.add_argument("--ranks-per-node", type=int, default=8)
    parser.add_argument("--steps", type=int, default=40, help="training steps of INFO noise before the fault")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    plan = generate(args.out, args.scenario, args.nodes, args.ranks_per_node, args.steps, seed=args.seed)
    size = sum(path.stat().st_size for path in args.out.rglob("*") if path.is_file())
    print(f"{args.scenario}: {size / (1 << 20):.1f} MB under {args.out}; suspect rank(s) {list(plan.suspects)}")


if __name__ == "__main__":
    main()
