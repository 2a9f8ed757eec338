"""Generate a realistic CANN log tree for benchmarks: INFO/DEBUG noise of a healthy job, a few planted faults.

    python benchmarks/generate_tree.py [OUT_DIR] --size-mb 512 --kind healthy|entry|gbk [--seed 1]

Layout per node: node-<n>/log/run/plog/plog-<pid>_<stamp>.log (INFO, one per rank) and
node-<n>/log/debug/plog/plog-<pid>_<stamp>.log (DEBUG and INFO). OUT_DIR defaults to
benchmarks/out/tree-<size>mb-<kind>. Kinds:

- healthy: noise whose line shapes are copied from real CANN plogs (sources below, numbers varied),
  including lines that share words with the KB's fact extractors without being failures.
- entry: healthy plus the traffic of HCCL_ENTRY_LOG_ENABLE=1: Entry-Hccl* lines of collectives on
  three communicators per rank, about a quarter of all lines (65% of the run/plog lines).
- gbk: healthy with about one line in ten carrying Chinese text (paths, user prints, full-width
  punctuation), every file GBK-encoded as a Chinese-locale machine writes it.

One rank of the last node carries a planted task-exception timeout and a heartbeat event, rank 1 of
node 0 an SDMA error. Lines are drawn from a few thousand pre-formatted variants per file and
written in large blocks, so 512 MB takes seconds, not minutes. Deterministic for a given --seed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import cache
from itertools import accumulate
from pathlib import Path
from string import Formatter

KINDS = ("healthy", "entry", "gbk")
OUT_ROOT = Path(__file__).resolve().parent / "out"
GROUP = "10.0.0.1%enp_60000_0_1761275812718970"
START = datetime(2025, 10, 24, 11, 0, 0)
VARIANTS = 2048                 # pre-formatted lines per file and log channel
BLOCK = 8192                    # lines joined per write
ENTRY_SHARE_OF_RUN_LOG = 0.65   # Entry lines are long: 65% of run/plog lines make ~25% of all lines
CHINESE_SHARE = 0.1

# Sources of the line shapes (the log text is copied, the numbers are varied):
VLLM_248 = "https://github.com/vllm-project/vllm-ascend/issues/248"
VLLM_632 = "https://github.com/vllm-project/vllm-ascend/issues/632"
VLLM_2238 = "https://github.com/vllm-project/vllm-ascend/issues/2238"
VLLM_2542 = "https://github.com/vllm-project/vllm-ascend/issues/2542"
CANN_FAQ_0065 = ("https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/850/maintenref/"
                 "troubleshooting/troubleshooting_0065.html")
MS_CUSTOM_OP = ("https://gitee.com/mindspore/docs/blob/master/tutorials/source_zh_cn/custom_program/"
                "operation/op_custom_ascendc.md")
HCCL_DEBUG_DOC = ("https://github.com/hicann/hccl/blob/7076f76a733493cd2fc8b5521aad8703f2488f19/"
                  "docs/en/user_guide/fault_diagnosis/debug_thinking.md")
HCCL_LINK_DOC = ("https://github.com/hicann/hccl/blob/7076f76a733493cd2fc8b5521aad8703f2488f19/"
                 "docs/en/user_guide/fault_diagnosis/param_link_stage.md")
HCOMM_HEARTBEAT = ("https://github.com/libochao-huawei/hcomm/blob/8450be904135de1bfcafce5faf3826daa658061c/"
                   "src/framework/cluster_maintenance/health/heartbeat/heartbeat.cc")
HCOMM = "https://github.com/libochao-huawei/hcomm"   # HCCL_RUN_INFO / HCCL_DEBUG format strings

# Run-log noise. {ts} splits a shape into the record header and the message; other fields are
# filled per variant (_fields). Source line numbers stay as the sources print them.
_RUN_NOISE: tuple[tuple[str, str], ...] = (
    ("[EVENT] PROFILING({pid},python3):{ts} [msprof_callback_impl.cpp:336] >>> (tid:{pid}) "
     "Started to register profiling ctrl callback.", VLLM_248),
    ("[EVENT] PROFILING({pid},python3):{ts} [msprof_callback_impl.cpp:343] >>> (tid:{pid}) "
     "Started to register profiling hash id callback.", VLLM_248),
    ("[INFO] PROFILING({pid},python3):{ts} [prof_atls_plugin.cpp:117] (tid:{pid}) RegisterProfileCallback, "
     "callback type is {k}", VLLM_248),
    ("[INFO] RUNTIME({pid},python3):{ts} [task_fail_callback_manager.cc:52] {pid} TaskFailCallBackManager: "
     "Constructor.", VLLM_248),
    ("[INFO] HCCL({pid},python3):{ts} [adapter_rts.cc:2646][{pid}][adapter_rts.cc][CallBackInitRts] "
     "g_deviceType [6] g_deviceLogicId [{dev}] g_devicePhyId [{dev}]", VLLM_248),
    ("[INFO] PROFILING({pid},python3):{ts} [prof_atls_plugin.cpp:210] (tid:{pid}) Module[{module}] register "
     "callback of ctrl handle.", VLLM_2542),
    ("[INFO] RUNTIME({pid},python3):{ts} [runtime_keeper.cc:149] {pid} CreateRuntimeImpl: Open "
     "libruntime_v100.so success", VLLM_2542),
    ("[INFO] GE({pid},python3):{ts} [op_tiling_manager.cc:109]{pid} ~FuncPerfScope:[GEPERFTRACE] The time cost "
     "of OpTilingManager::LoadSo is [{cost}] micro seconds.", VLLM_2542),
    ("[INFO] IDEDD({pid},python3):{ts} [adx_dump_record.cpp:629][tid:{tid}] start dump thread, remote dump "
     "record temp path : /workspace/.", VLLM_2542),
    ("[INFO] IDEDD({pid},python3):{ts} [adx_server_manager.cpp:203][tid:{tid}] Run Server({dev}) Process",
     VLLM_2542),
    ("[EVENT] PROFILING({pid},python3):{ts} [msprof_callback_impl.cpp:110] >>> (tid:{pid}) MsprofCtrlCallback "
     "called, type: 255", VLLM_2542),
    ("[EVENT] PROFILING({pid},python3):{ts} [ai_drv_dev_api.cpp:333] >>> (tid:{pid}) Succeeded to "
     "DrvGetApiVersion version: 0x72318", VLLM_2542),
    ("[INFO] RUNTIME({pid},python3):{ts} [runtime.cc:2033] {pid} ~Runtime: deconstruct runtime", VLLM_632),
    ("[INFO] RUNTIME({pid},python3):{ts} [runtime.cc:2040] {pid} ~Runtime: wait monitor success, use=0.",
     VLLM_632),
    ("[INFO] RUNTIME({pid},python3):{ts} [task_fail_callback_manager.cc:57] {pid} ~TaskFailCallBackManager: "
     "Destructor.", VLLM_632),
    ("[INFO] IDEDD({pid},python3):{ts} [adx_server_manager.cpp:236][tid:{tid}] server manager stop", VLLM_2238),
    ("[INFO] ASCENDCL({pid},python3):{ts} [device.cpp:148]{tid} aclrtSetDevice: start to execute "
     "aclrtSetDevice, deviceId = {dev}", CANN_FAQ_0065),
    ("[INFO] ASCENDCL({pid},python3):{ts} [device.cpp:160]{tid} aclrtSetDevice: successfully execute "
     "aclrtSetDevice, deviceId = {dev}", CANN_FAQ_0065),
    ("[INFO] RUNTIME({pid},python3):{ts} [api_c.cc:1798] {tid} rtSetDevice: There is no devId, do nothing.",
     CANN_FAQ_0065),
    ("[INFO] HCCL({pid},python3):{ts} [hccl_impl_base.cc:2644] [{pid}][SetDevice] entry", CANN_FAQ_0065),
    ("[INFO] HCCL({pid},python3):{ts} [hccl_impl_base.cc:2622] [{tid}][SetDeviceThread]ctx[(nil)]",
     CANN_FAQ_0065),
    ("[INFO] HCCL({pid},python3):{ts} [hccl_impl_base.cc:2637] [{tid}][SetDeviceThread]exit", CANN_FAQ_0065),
    ("[INFO] GE({pid},python3):{ts} [rt_context_util.cc:92]{pid} DestroyRtContexts:Destroy {k} rts contexts for "
     "graph {graph} of session 0.", MS_CUSTOM_OP),
    ("[INFO] RUNTIME({pid},python3):{ts} [stream.cc:436] {pid} FreeLogicCq: Return(0), "
     "threadIdentifier(281473877712448), devId({dev}), tsId(0), cqId({cq}), isFastCq(0).", MS_CUSTOM_OP),
    ("[INFO] RUNTIME({pid},python3):{ts} [stream.cc:682] {pid} FreeStreamId: Free stream_id={stream}.",
     MS_CUSTOM_OP),
    ("[INFO] GE({pid},python3):{ts} [graph_manager.cc:1083][EVENT]{pid} PreRunOptimizeOriginalGraph:"
     "[GEPERFTRACE] The time cost of GraphManager::stages.preparer.PrepareDynShape is [{cost}] micro second.",
     MS_CUSTOM_OP),
    ("[INFO] HCCL({pid},python3):{ts} [hccl_communicator_attrs.cc:327] [{pid}][Communicator Key Info]"
     "identifier[{group}] rankSize[{size}] serverNum[{nodes}] moduleNum[{nodes}] superPodNum[0] "
     "multiModuleDiffDeviceNumMode[0] multiSuperPodDiffServerNumMode[0]", HCCL_DEBUG_DOC),
    ("[INFO] HCCL({pid},python3):{ts} [hccl_communicator_attrs.cc:330] [{pid}][LocalRank Key Info]"
     "userRank[{rank}] hostIp[{host_ip}] devicePhyId[{dev}] server[{host_ip}] deviceIp[{device_ip}] "
     "superPodId[0] useSuperPodMode[0] isStandardCard[0]", HCCL_DEBUG_DOC),
    # Shares words with the KB's EI0001 'Env config ... is invalid' signature without being one.
    ("[INFO] HCCL({pid},python3):{ts} [base_config.cc:33][{pid}][Init][EnvVarParam]Env config "
     "\"HCCL_SOCKET_IFNAME\" is not set. Default value is used.", HCCL_DEBUG_DOC),
    ("[INFO] HCCL({pid},python3):{ts} [externalinput.cc:1569] [{pid}][HCCL_ENV] environmental variable "
     "HCCL_OP_EXPANSION_MODE is [HOST], aicpuUnfold[0], aivMode[0], enableFfts[1]", HCCL_DEBUG_DOC),
    # heartbeat.cc lines that are not heartbeat events
    ("[INFO] HCCL({pid},python3):{ts} [heartbeat.cc:212] [{pid}][Heartbeat][InitNic]NicType[1], "
     "devicePhyId[{dev}], deviceLogicId[{dev}], ip[{device_ip}], port[16666], isBackUp[0].", HCOMM_HEARTBEAT),
    ("[INFO] HCCL({pid},python3):{ts} [heartbeat.cc:488] [{tid}][Heartbeat][CreateLinkWithRemote] "
     "Group[{group}], thread[hb{peer}] start...", HCOMM_HEARTBEAT),
    ("[INFO] HCCL({pid},python3):{ts} [topoinfo_detect.cc:208][{pid}][HCCL_TRACE]SetupAgent rankNum[{size}], "
     "rank[{rank}], rootInfo identifier[{group}], server[{host_ip}], logicDevId[{dev}], phydevId[{dev}], "
     "deviceIp[{device_ip}]", HCOMM),
    ("[INFO] HCCL({pid},python3):{ts} [aicpu_launch_mgr.cc:88] [{pid}][AicpuLaunchMgr][InitAicpuStream] alloc "
     "success, stream id:{stream}, aicpuStreamMode:1", HCOMM),
    # A successful call whose message ends in ret[0], which the KB's HcclResult extractor reads.
    # No public sample was found; the shape follows the HCCL 'ret[%d]' call-trace messages.
    ("[INFO] HCCL({pid},python3):{ts} [hccl_mem_pool.cc:141] [{pid}][MemPool][Alloc]group[{group}] "
     "size[{n}] ptr[0x12{hex:010x}] ret[0]", HCOMM),
    # Transport / link set-up
    ("[INFO] HCCP({pid},hccp_service.bin):{ts} [rs_ssl.c:1529]tid:{pid},rs_ssl_init(1529) : TLS SWITCH (0)",
     HCCL_LINK_DOC),
)

# Debug-log noise: the DEBUG channel of the same components.
_DEBUG_NOISE: tuple[tuple[str, str], ...] = (
    ("[DEBUG] HCCL({pid},python3):{ts} [transport_ibverbs.cc:412] [{tid}][TransportIbverbs]"
     "[FillExchangeDataTotalSize] exchangeDataTotalSize[{n}]", HCOMM),
    ("[DEBUG] HCCL({pid},python3):{ts} [transport_p2p.cc:233] [{tid}][TransportP2p][Init] Socket Data Received",
     HCOMM),
    ("[DEBUG] HCCL({pid},python3):{ts} [transport_mem.cc:151] [{tid}][TransportMem][ExchangeMemDesc]"
     "tempRankId:{peer}, userRank:{rank}", HCOMM),
    ("[DEBUG] HCCL({pid},python3):{ts} [transport_manager.cc:1630] [{tid}][TransportManager]"
     "[LoadMultiQpSrcPortFromFile] file has been read.", HCOMM),
    ("[INFO] GE({pid},python3):{ts} [graph_manager.cc:1083]{pid} PreRunOptimizeOriginalGraph:[GEPERFTRACE] "
     "The time cost of GraphManager::stages.preparer.PrepareDynShape is [{cost}] micro second.", MS_CUSTOM_OP),
    ("[INFO] RUNTIME({pid},python3):{ts} [stream.cc:682] {pid} FreeStreamId: Free stream_id={stream}.",
     MS_CUSTOM_OP),
    ("[INFO] RUNTIME({pid},python3):{ts} [api_c.cc:1798] {tid} rtSetDevice: There is no devId, do nothing.",
     CANN_FAQ_0065),
    ("[INFO] PROFILING({pid},python3):{ts} [prof_atls_plugin.cpp:210] (tid:{pid}) Module[{module}] register "
     "callback of ctrl handle.", VLLM_2542),
)

# Chinese-locale text. The record shapes come from the sources given; the Chinese paths and user
# prints (relayed by the framework's APP log, with full-width punctuation) are ours.
_CHINESE: tuple[tuple[str, str], ...] = (
    ("[INFO] IDEDD({pid},python3):{ts} [adx_dump_record.cpp:629][tid:{tid}] start dump thread, remote dump "
     "record temp path : /home/训练用户/任务_{graph}/转储数据/.", VLLM_2542),
    ("[INFO] APP({pid},python3):{ts} [log_inner.cpp:76]{pid} 第{graph}轮训练：step {n}，loss（损失）：0.{k}{cost}，"
     "耗时：{ms} ms", VLLM_248),
    ("[INFO] APP({pid},python3):{ts} [log_inner.cpp:76]{pid} 正在加载模型权重：/data/模型/Qwen2.5-7B-指令版/"
     "model-0000{k}-of-00008.safetensors（共 8 个分片）", VLLM_248),
    ("[INFO] GE({pid},python3):{ts} [ge_api.cc:523][status:INIT]{pid} AddGraph:Start to add graph in Session. "
     "graph_id: {graph}, graph_name: 图_{graph}, session_id: 0.", MS_CUSTOM_OP),
    ("[INFO] APP({pid},python3):{ts} [log_inner.cpp:76]{pid} 检查点已保存：/mnt/共享存储/检查点/iter_{n}。",
     VLLM_248),
)

# The collectives a rank issues when HCCL_ENTRY_LOG_ENABLE=1 (the AllReduce line as the HCCL docs
# print it; the others in the same form, so the KB's op-entry extractors read them).
_ENTRY_HEAD = "[INFO] HCCL({pid},python3):{ts} [hccl_opbase_atrace_info.cc:56][{tid}]"
_ENTRY_OPS: dict[str, str] = {
    "AllReduce": ("Entry-HcclAllReduce: tag[AllReduce_{ident}], sendBuf[0x12{hex:010x}], recvBuf[0x12{hex:010x}], "
                  "count[{n}], dataType[{dtype}], op[sum], localRank[{crank}], streamId[{csid}],comm[0x{comm:08x}], "
                  "deviceLogicId[{dev}]"),
    "AllGather": ("Entry-HcclAllGather: tag[AllGather_{ident}], sendBuf[0x12{hex:010x}], recvBuf[0x12{hex:010x}], "
                  "count[{n}], dataType[{dtype}], streamId[{csid}],deviceLogicId[{dev}]"),
    "ReduceScatter": ("Entry-HcclReduceScatter: tag[ReduceScatter_{ident}], sendBuf[0x12{hex:010x}], "
                      "recvBuf[0x12{hex:010x}], count[{n}], dataType[{dtype}], op[sum], streamId[{csid}],"
                      "deviceLogicId[{dev}]"),
    "Broadcast": ("Entry-HcclBroadcast: tag[Broadcast_{ident}], buf[0x12{hex:010x}], count[{n}], "
                  "dataType[{dtype}], root[0], streamId[{csid}],deviceLogicId[{dev}]"),
}
_DTYPES = ("float32", "float16", "bfloat16", "int32")

_STARTUP = (
    "[INFO] HCCL({pid},python3):{ts} [externalinput.cc:598] [{pid}][HCCL_ENV] HCCL_CONNECT_TIMEOUT set by "
    "default to [120]s",
    "[INFO] HCCL({pid},python3):{ts} [externalinput.cc:558] [{pid}][HCCL_ENV] HCCL_EXEC_TIMEOUT set by default "
    "to [1836]s",
    "[INFO] HCCL({pid},python3):{ts} [externalinput.cc:1484] [{pid}][HCCL_ENV] HCCL_ENTRY_LOG_ENABLE set by "
    "{entry_source} to [{entry_flag}]",
)
_COMM_INIT = (
    "[INFO] HCCL({pid},python3):{ts} [op_base.cc:1292] [{pid}]Entry-HcclCommInitRootInfoInner:ranks[{cranks}], "
    "rank[{crank}], rootinfo: host ip[10.0.0.1] port[60000] nicDeploy[1] identifier[{ident}], deviceLogicId[{dev}]"
)
_FAULT_TIMEOUT = (
    "[ERROR] HCCL({pid},python3):{ts} [task_exception_handler.cc:908] [{tid}][TaskExecStage][Timeout][Host]Task run "
    "failed, base information is streamID:[2], taskID[21], tag[AllReduce_{group}], AlgType(level 0-1-2):"
    "[fullmesh-ring-NHR].\n"
    "[ERROR] HCCL({pid},python3):{ts} [task_exception_handler.cc:771] [{tid}][TaskExecStage][Timeout][Host]Task run "
    "failed, groupRank information is group:[{group}], user define information[], rankSize[{size}], rankId[{rank}].\n"
    "[ERROR] HCCL({pid},python3):{ts} [task_exception_handler.cc:704] [{tid}][TaskExecStage][Timeout][Host]Task run "
    "failed, opData information is timeStamp:[2025-10-24-11:16:55.493.816], deviceId[{dev}], index[21], count[256], "
    "reduceType[sum], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32].\n"
    "[INFO] HCCL({pid},python3):{ts} [heartbeat.cc:951] [{tid}][TaskExecStage][HeartbeatAbnormal]local rank "
    "[10.0.0.{node}/{rank}]: crimer rank [10.0.0.9/13] status[LOST] by informer rank [10.0.0.{node}/{rank}]\n"
)
_FAULT_SDMA = (
    "[ERROR] RUNTIME({pid},python3.10):{ts} [task_info.cc:1170]{tid} PrintSdmaErrorInfoForFftsPlusTask:fftsplus task "
    "execute failed, dev_id={dev}, stream_id=50, task_id=21, context_id=18, thread_id=0, err_type=4[fftsplus sdma "
    "error]\n"
)

# The millisecond and microsecond fields of a CANN timestamp, formatted once.
_D3 = tuple(f"{i:03d}" for i in range(1000))
_GAPS_US = tuple(range(50, 5000, 7))


@dataclass(frozen=True)
class Comm:
    ident: str
    ranks: int
    rank: int
    stream: int          # one stream per communicator: the KB reads several as a multi-stream fault
    ops: tuple[str, ...]


def tree_dir(size_mb: int, kind: str, root: Path = OUT_ROOT) -> Path:
    return root / f"tree-{size_mb}mb-{kind}"


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d-%H:%M:%S.") + f"{moment.microsecond // 1000:03d}.{moment.microsecond % 1000:03d}"


class _Clock:
    """CANN timestamps of one file, advancing a few hundred microseconds to a few ms per line."""

    def __init__(self, rng: random.Random, start: datetime):
        self._rng = rng
        self._start = start
        self.us = 0
        self._second = -1
        self._prefix = ""

    def now(self) -> str:
        return _stamp(self._start + timedelta(microseconds=self.us))

    def block(self, count: int) -> list[str]:
        """Timestamps of the next ``count`` lines."""
        stamps = []
        for us in accumulate(self._rng.choices(_GAPS_US, k=count), initial=self.us + _GAPS_US[0]):
            second, fraction = divmod(us, 1_000_000)
            if second != self._second:
                self._second = second
                self._prefix = (self._start + timedelta(seconds=second)).strftime("%Y-%m-%d-%H:%M:%S.")
            stamps.append(self._prefix + _D3[fraction // 1000] + "." + _D3[fraction % 1000])
        self.us = us
        return stamps[:count]


def _uniform(low: int, high: int) -> Callable[[random.Random], int]:
    return lambda rng: low + int(rng.random() * (high - low))   # randrange is several times slower


# How each varied field is drawn.
_RANDOM: dict[str, Callable[[random.Random], object]] = {
    "n": _uniform(1, 1 << 28), "k": _uniform(1, 9), "cost": _uniform(80, 200_000), "graph": _uniform(1, 40),
    "stream": _uniform(2, 2048), "cq": _uniform(0, 1024), "hex": _uniform(0, 1 << 36), "peer": _uniform(0, 64),
    "ms": _uniform(40, 900), "comm": _uniform(0, 1 << 32),
    "module": lambda rng: rng.choice((6, 7, 45, 48)), "dtype": lambda rng: rng.choice(_DTYPES),
}


@cache
def _split(template: str) -> tuple[str, str, tuple[str, ...]]:
    """Header, message, and the varied fields the message names."""
    head, body = template.split("{ts}")
    names = tuple(dict.fromkeys(name for _, name, _, _ in Formatter().parse(body) if name in _RANDOM))
    return head, body, names


def _variant(rng: random.Random, template: str, ids: dict[str, object], **extra: object) -> tuple[str, str]:
    head, body, names = _split(template)
    values = {**ids, **extra, **{name: _RANDOM[name](rng) for name in names}}
    return head.format(**values), body.format(**values) + "\n"


def _pool(rng: random.Random, shapes: tuple[tuple[str, str], ...], count: int,
          ids: dict[str, object]) -> list[tuple[str, str]]:
    return [_variant(rng, template, ids) for template, _ in rng.choices(shapes, k=count)]


def _entry_pool(rng: random.Random, comms: tuple[Comm, ...], count: int,
                ids: dict[str, object]) -> list[tuple[str, str]]:
    pool = []
    for _ in range(count):
        comm = rng.choice(comms)
        op = rng.choice(comm.ops)
        pool.append(_variant(rng, _ENTRY_HEAD + _ENTRY_OPS[op], ids, ident=comm.ident, crank=comm.rank,
                             csid=comm.stream))
    return pool


def _communicators(node: int, local: int, nodes: int, ranks_per_node: int) -> tuple[Comm, ...]:
    """The world group, a tensor-parallel group within the node, a data-parallel group across nodes."""
    return (
        Comm(GROUP, nodes * ranks_per_node, node * ranks_per_node + local, 2, ("AllReduce", "Broadcast")),
        Comm(f"group_name_{node}", ranks_per_node, local, 5, ("AllGather", "ReduceScatter")),
        Comm(f"group_name_{nodes + local}", nodes, node, 7, ("AllReduce",)),
    )


def _block(clock: _Clock, rng: random.Random, pool: list[tuple[str, str]], count: int) -> str:
    """``count`` lines drawn from the pool, with increasing timestamps."""
    stamps = clock.block(count)
    lines = zip(rng.choices(pool, k=count), stamps, strict=True)
    return "".join([head + stamp + body for (head, body), stamp in lines])


def _write(path: Path, header: str, pool: list[tuple[str, str]], size: int, planted: str, clock: _Clock,
           rng: random.Random, encoding: str) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    line_chars = sum(len(head) + len(body) for head, body in pool) / len(pool) + len(clock.now())
    written = len(header)
    with path.open("w", encoding=encoding) as out:
        out.write(header)
        while written < size:
            block = _block(clock, rng, pool, min(BLOCK, int((size - written) / line_chars) + 1))
            if planted and written + len(block) >= size // 2:
                block += planted.replace("{ts}", clock.now())
                planted = ""
            out.write(block)
            written += len(block)   # characters, not bytes: close enough for the GBK tree's size
    return written


def _startup(clock: _Clock, ids: dict[str, object], comms: tuple[Comm, ...], kind: str) -> str:
    """The run log's first lines: effective HCCL settings, then the communicators' creation."""
    entry = {"entry_source": "environment", "entry_flag": 1} if kind == "entry" else \
        {"entry_source": "default", "entry_flag": 0}
    lines = [line.format(ts=clock.now(), **ids, **entry) for line in _STARTUP]
    lines += [_COMM_INIT.format(ts=clock.now(), ident=c.ident, cranks=c.ranks, crank=c.rank, **ids) for c in comms]
    return "\n".join(lines) + "\n"


def _planted(node: int, local: int, nodes: int, ids: dict[str, object]) -> str:
    """The fault this rank's run log carries, if any, with {ts} left to fill when it is written."""
    if node == nodes - 1 and local == 0:
        return _FAULT_TIMEOUT.format(ts="{ts}", **ids)
    if node == 0 and local == 1:
        return _FAULT_SDMA.format(ts="{ts}", **ids)
    return ""


def generate(out: Path, size_mb: int, nodes: int, ranks_per_node: int, seed: int = 1, kind: str = "healthy") -> int:
    """Write the tree and return its size in characters."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}")
    encoding = "gbk" if kind == "gbk" else "utf-8"
    per_file = size_mb * (1 << 20) // (nodes * ranks_per_node * 2)
    total = 0
    for node in range(nodes):
        for local in range(ranks_per_node):
            rank = node * ranks_per_node + local
            pid = 2_100_000 + rank
            ids: dict[str, object] = {
                "pid": pid, "tid": pid + 7, "rank": rank, "dev": local, "node": node, "size": nodes * ranks_per_node, "nodes": nodes,
                "group": GROUP, "host_ip": f"10.0.0.{node + 1}", "device_ip": f"10.20.{node}.{local + 1}"}
            comms = _communicators(node, local, nodes, ranks_per_node)
            name = f"plog-{pid}_20251024110000{rank:03d}.log"
            for channel, shapes in (("run", _RUN_NOISE), ("debug", _DEBUG_NOISE)):
                rng = random.Random(f"{seed}/{node}/{local}/{channel}")
                clock = _Clock(rng, START + timedelta(milliseconds=rank * 37))
                pool = _pool(rng, shapes, VARIANTS, ids)
                if kind == "entry" and channel == "run":
                    entries = round(VARIANTS * ENTRY_SHARE_OF_RUN_LOG)
                    pool = pool[entries:] + _entry_pool(rng, comms, entries, ids)
                elif kind == "gbk":
                    chinese = round(VARIANTS * CHINESE_SHARE)
                    pool = pool[chinese:] + _pool(rng, _CHINESE, chinese, ids)
                run = channel == "run"
                total += _write(out / f"node-{node}" / "log" / channel / "plog" / name,
                                _startup(clock, ids, comms, kind) if run else "", pool, per_file,
                                _planted(node, local, nodes, ids) if run else "", clock, rng, encoding)
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, nargs="?", help="default: benchmarks/out/tree-<size>mb-<kind>")
    parser.add_argument("--size-mb", type=int, default=512)
    parser.add_argument("--kind", choices=KINDS, default="healthy")
    parser.add_argument("--nodes", type=int, default=8)
    parser.add_argument("--ranks-per-node", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = args.out or tree_dir(args.size_mb, args.kind)
    start = time.perf_counter()
    total = generate(out, args.size_mb, args.nodes, args.ranks_per_node, args.seed, kind=args.kind)
    print(f"wrote {total / (1 << 20):.0f} MB ({args.kind}) under {out} in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
