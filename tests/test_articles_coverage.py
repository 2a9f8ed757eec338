"""Coverage and format checks for the source-digest articles in ``articles/``.

Plain text/regex only (no faultbot imports). Checks, per article:
(a) the front matter carries the contract keys with the expected values;
(b) every ``##``/``###`` heading ends with a ``{#slug}`` anchor, slugs are unique and well formed,
    and the required slugs are present;
(c) every section ends with a ``**Key terms (zh):**`` line (with the Chinese terms we rely on);
(d) the concrete facts of the Chinese seed texts (env vars, numbers, commands, API names, log
    strings, versions) are present in the section that digests them, and the seed's log lines,
    commands and log formats are reproduced byte-exactly inside fenced code blocks.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ARTICLES = Path(__file__).resolve().parent.parent / "articles"
LCCL = "lccl-allreduce-flag-cleanup"
HCCL = "hccl-task-execution-faults"

SLUG_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
HEADING_RE = re.compile(r"^(#{1,6})\s+(.*?)\s*$")
ANCHOR_RE = re.compile(r"^(?P<title>.+?) \{#(?P<slug>[^}\s]+)\}$")
FENCE_RE = re.compile(r"^```(\w*)\s*$")
KEY_TERMS = "**Key terms (zh):**"
CJK_RE = re.compile(r"[\u4e00-\u9fff]")

REQUIRED_KEYS = ["id", "title", "original_title", "source_url", "published", "language_of_source"]

FRONT_MATTER = {
    LCCL: {
        "id": LCCL,
        "original_title": "LcalAllReduce 算子报错导致训练作业异常的根因分析与解决方案",
        "source_url": "https://www.hiascend.com/developer/techArticles/20260604-10?envFlag=1",
        "published": "2026-06-05",
        "language_of_source": "zh",
    },
    HCCL: {
        "id": HCCL,
        "original_title": "HCCL任务执行故障诊断",
        "source_url": "https://gitcode.com/cann/hccl",
        "published": "2026-05-09",
        "language_of_source": "zh",
    },
}

SOURCE_NOTE_FACTS = {
    LCCL: ["开启性计算模式", "确定性计算", "envref_07_0099"],
    HCCL: ["repost", "2026/5/9", "张小明", "no page URL", "HCCL troubleshooting guide",
           "https://gitcode.com/cann/hccl",
           "https://www.hiascend.com/document/detail/zh/CANNCommunityEdition/850alpha002/hccl/hcclug/hcclug_000055.html"],
}

REQUIRED_SLUGS = {
    LCCL: ["background", "symptoms", "root-cause", "workaround", "permanent-fix", "summary",
           "terminology", "references"],
    HCCL: ["overview", "heartbeat-mechanism", "heartbeat-exception-types", "heartbeat-abnormal-events",
           "cluster-exception-summary", "heartbeat-caveats", "example-heartbeat-lost",
           "example-process-stuck", "heartbeat-reading-guide", "task-exception", "notify-wait-timeout",
           "find-group-ranks", "peer-failed-first", "op-mismatch", "exec-timeout-gap", "entry-log",
           "multi-stream", "sdma-error", "sdma-causes", "roce-cqe", "roce-cqe-causes",
           "roce-cqe-resolution", "aiv-failure"],
}

# Chinese terms that must appear in the Key terms line of a section (so Chinese questions land there).
KEY_TERMS_ZH = {
    LCCL: {
        "background": ["概率性复现", "通信算子异常", "昇腾社区"],
        "symptoms": ["版本信息", "卡死", "异常退出", "LCCL的通信算子"],
        "root-cause": ["flag 状态清理逻辑", "时序控制不当", "通信上下文状态不一致", "magic机制", "冗余逻辑"],
        "workaround": ["确定性计算", "开启性计算模式", "短期规避方案"],
        "permanent-fix": ["长期解决方案", "升级"],
        "summary": ["问题识别"],
        "terminology": ["低时延集合加速库", "低时延集合通信库", "通算融合"],
        "references": ["相关参考"],
    },
    HCCL: {
        "overview": ["任务下发执行阶段", "通信域", "参数面建链", "notify同步机制", "故障点", "集群心跳机制"],
        "heartbeat-mechanism": ["维测链路", "根节点", "单点故障"],
        "heartbeat-exception-types": ["优先级", "重传超次", "心跳报文", "进程卡死", "进程退出"],
        "heartbeat-abnormal-events": ["心跳异常事件", "根节点"],
        "cluster-exception-summary": ["task exception回调函数", "单点故障原因"],
        "heartbeat-caveats": ["集群行为一致性问题", "HCCL_ENTRY_LOG_ENABLE", "STUCK检测时间", "互报对端LOST"],
        "example-heartbeat-lost": ["对端心跳丢失"],
        "example-process-stuck": ["进程卡死"],
        "heartbeat-reading-guide": ["心跳丢失", "网络丢包", "死锁"],
        "task-exception": ["回调函数", "HCCL_DIAGNOSE_ENABLE", "多bit ecc", "远端core dump"],
        "notify-wait-timeout": ["notify wait超时", "EI0002", "任务不匹配"],
        "find-group-ranks": ["通信域名", "默认日志打印"],
        "peer-failed-first": ["全量超时"],
        "op-mismatch": ["下发算子不一致", "数据类型"],
        "exec-timeout-gap": ["HCCL_EXEC_TIMEOUT", "1836", "算子下发时间间隔"],
        "entry-log": ["算子下发", "HCCL_ENTRY_LOG_ENABLE"],
        "multi-stream": ["流同步", "多流并发", "资源复用", "精度异常"],
        "sdma-error": ["EI0012", "打屏日志"],
        "sdma-causes": ["页表转换失败", "流同步", "析构通信域", "HCCL Buffer"],
        "roce-cqe": ["EI0013", "重传超时", "HcclGetCommAsyncError"],
        "roce-cqe-causes": ["网口闪断", "异常退出"],
        "roce-cqe-resolution": ["网口闪断", "重传超时", "重传次数", "联系技术支持"],
        "aiv-failure": ["AIV模式", "HCCL_OP_EXPANSION_MODE"],
    },
}

# Concrete facts of the seeds, each required (as a plain substring) in the section that digests it.
FACTS = {
    LCCL: {
        "background": ["Atlas 900 A2 PoD", "LcalAllReduce", "vector core timeout", "errcode", "HCCL",
                       "probabilistic", "specific CANN versions", "hung", "2026/06/05", "官方技术文章",
                       "昇腾社区", "训练", "inference or training job"],
        "symptoms": ["HDK", "24.1.0.3", "CANN", "8.0.RC2", "PyTorch", "2.1.0.post11",
                     "pytorch2.1.0.post11", "AllReduce communication phase", "hangs or exits abnormally",
                     "EZ9999", "fault kernel_name=LcalAllReduce", "errcode=0", "vector core timeout",
                     "LCCL, not of HCCL", "Plog"],
        "root-cause": ["LcalAllReduce", "LCCL", "low-latency", "AllReduce", "flag-state cleanup",
                       "round after round", "timing", "communication context state inconsistent",
                       "hangs", "`magic` mechanism", "redundant"],
        "workaround": ["export LCCL_DETERMINISTIC=1", "deterministic computing", "确定性计算",
                       "开启性计算模式", "typo", "开启确定性计算模式", "different communication implementation path",
                       "https://www.hiascend.com/document/detail/zh/canncommercial/83RC1/maintenref/envvar/envref_07_0099.html"],
        "permanent-fix": ["CANN 8.2.RC1 or later", "officially released", "CANN 8.2 or newer",
                          "new deployments"],
        "summary": ["LcalAllReduce", "errcode=0", "vector core timeout", "known fix", "8.2.RC1",
                    "LCCL_DETERMINISTIC=1"],
        "terminology": ["LCAL", "Low-latency Collective Acceleration Library", "低时延集合加速库",
                        "LCCL", "Low-latency Collective Communication Library", "低时延集合通信库",
                        "LCOC", "Low-latency compute over comm lib", "通算融合", "LCAL = LCCL + LCOC",
                        "https://3ms.huawei.com/next/groups/index.html#/wiki/detail?groupId=1504883&wikiId=7995645&",
                        "Huawei-internal"],
        "references": ["https://www.hiascend.com/developer/techArticles/20260604-10?envFlag=1",
                       "https://www.hiascend.com/zh/developer/techArticles",
                       "https://www.hiascend.com/document/detail/zh/canncommercial/83RC1/maintenref/envvar/envref_07_0099.html",
                       "性计算", "3ms.huawei.com"],
    },
    HCCL: {
        "overview": ["Huawei Collective Communication Library", "https://gitcode.com/cann/hccl",
                     "2026/5/9", "task dispatch and execution stage", "parameter-plane links",
                     "notify", "most ranks", "hung or exited", "network fault",
                     "inconsistent communication operators", "fault point", "flowchart", "DFX",
                     "Cluster heartbeat", "any one node", "HeartbeatAbnormal", "Cluster Exception Location",
                     "Task run failed", "TaskExecStage", "inconsistently"],
        "heartbeat-mechanism": ["maintenance and diagnostic links", "neighbouring ranks", "single-point failure",
                                "root node", "number of these links", "amount of data",
                                "hcclug_000055.html"],
        "heartbeat-exception-types": ["Network problem", "`ERROR CQE`", "`Error cqe Occurred`",
                                      "Process stuck", "`STUCK`", "`Stuck Occurred`",
                                      "Process exited", "`LOST`", "`Heartbeat Lost Occurred`",
                                      "run/plog", "debug/plog", "RoCE driver",
                                      "retransmission count exceeded", "QPN", "remote IP",
                                      "Every 1/3 of `HCCL_EXEC_TIMEOUT`", "entry and exit counts",
                                      "30 s", "first three valid events", "ERROR CQE > STUCK > LOST",
                                      "`run` directory"],
        "heartbeat-abnormal-events": ["run log", "`HeartbeatAbnormal`", "`local rank`", "`crimer rank`",
                                      "**root node**", "`status`", "`by by informer rank`", "informer",
                                      "stray `4`", "127.10.0.2/2"],
        "cluster-exception-summary": ["task exception callback", "HCCL_EXEC_TIMEOUT",
                                      "most likely single-point cause", "**ERROR** log",
                                      "`[TaskExecStage][HeartbeatAbnormal]`", "`Cluster Exception Location`",
                                      "`Arrival Time`", "`Discoverer`", "`ExceptionType`", "`Possible Reason`",
                                      "Thu Oct 23 17:25:58 2025", "weekday"],
        "heartbeat-caveats": ["no heartbeat events", "inconsistent behaviour across the", "scripts",
                              "versions", "datasets", "`HCCL_ENTRY_LOG_ENABLE`",
                              "killed before the notify timeout", "callback", "run log",
                              "close to the moment the system hung", "LOST / ERROR CQE",
                              "(1/3~2/3) * `HCCL_EXEC_TIMEOUT`", "1836 s", "612", "1224",
                              "both LOST and ERROR CQE", "network anomaly", "process exit",
                              "reporting each other as"],
        "example-heartbeat-lost": ["Cluster Exception Location", "Heartbeat Lost Occurred", "17:25:58",
                                   "17:28:06", "127.10.0.1/1", "127.10.0.1/2", "exited",
                                   "network is disconnected"],
        "example-process-stuck": ["Stuck Occurred", "host process", "device task", "no `Discoverer`",
                                  "127.10.0.1/1"],
        "heartbeat-reading-guide": ["`Cluster Exception Location`", "`Arrival Time`", "broadcast to this rank",
                                    "`ExceptionType`", "`Heartbeat Lost Occurred`", "`Stuck Occurred`",
                                    "`Error CQE Occurred`", "`Error cqe Occurred`", "network packet loss",
                                    "`Possible Reason`", "already exited", "deadlocked", "CQE error"],
        "task-exception": ["device", "asynchronously", "callback", "stream", "taskId",
                           "Atlas A3 training/inference series", "Atlas A2 training/inference series",
                           "`HCCL_DIAGNOSE_ENABLE`", "“Task run failed”", "“TaskExecStage”",
                           "base information", "tag", "groupRank information", "`group`", "`rankSize`",
                           "`rankId`", "opData information", "`deviceId`", "`index`", "`count`",
                           "`reduceType`", "`src`", "`dst`", "AlgType(level 0-1-2)", "fullmesh-ring-NHR",
                           "only two kinds of task", "**Notify**", "**SDMA**", "HCCS link anomalies",
                           "multi-bit ECC", "core-dumps", "one record per line"],
        "notify-wait-timeout": ["EI0002", "global, coordinated action", "different operators",
                                "different data amounts", "some other error", "HCCL_EXEC_TIMEOUT"],
        "find-group-ranks": ['grep -r "Entry-" run/plog/ | grep "<communicator name>"',
                             "every node of the job", "127.10.0.1%enp_60000_0_1761275812718970",
                             "Entry-HcclCommInitRootInfoInner", "ranks[4]", "2111665", "2111668",
                             "`60000`", "`nicDeploy[1]`", "one record per line"],
        "peer-failed-first": ["different error", "that rank's error first", "waiting"],
        "op-mismatch": ["operators, data amounts (count) and data types", "rank0 failed in an AllReduce",
                        "rank1 failed in an AllGather", "index[21]", "rank0, one record per line",
                        "rank1, one record per line"],
        "exec-timeout-gap": ["`HCCL_EXEC_TIMEOUT`", "1836 seconds", "5 minutes 40 seconds", "300 seconds",
                             "5 min 44 s", "expected", "larger value", 'grep -r "HCCL_EXEC_TIMEOUT" run/plog'],
        "entry-log": ["`HCCL_ENTRY_LOG_ENABLE`", "reproduce the case again", "`log/run/plog`",
                      "Entry-HcclAllReduce", "`sendBuf`", "`recvBuf`", "`localRank`", "`streamId`", "`comm`",
                      "`deviceLogicId`", "one record per line"],
        "multi-stream": ["two AllReduce operators in the same communicator",
                         "127.10.0.1%eth_60000_0_1741318944927847", "`streamId[7]`", "`streamId[2]`",
                         "run concurrently", "synchronises the streams", "reuses resources",
                         "notifies", "execution timeouts", "accuracy (precision) problems"],
        "sdma-error": ["**EI0012**", "`Execution_Error_SDMA`", "`fftsplus sdma error`", "screen log",
                       "`Memcpy`", "`HCCS`", "err_type=4[fftsplus sdma error]", "rtCode=0x715006c",
                       "AllGather_group_name_0", "one record per line"],
        "sdma-causes": ["page-table translation failure", "页表转换失败", "no memory allocated",
                        "less memory allocated than the copy size", "already been freed",
                        "synchronising the stream", "**HCCL Buffer**", 'grep -r "Entry-HcclCommDestroy" log/run/plog',
                        "Atlas A3 training/inference series", "network link fault", "link between the two ends",
                        "smaller than the data amount `count`", "multi-bit ECC"],
        "roce-cqe": ["**ERROR CQE**", "RoCE packet retransmission timeout", "always hangs afterwards",
                     "polls the RoCE driver", "**`HcclGetCommAsyncError`**", "**EI0013**", "**`Error ROCE CQE`**",
                     "Execution Error ROCE CQE(EI0013)", "**`error cqe status`**", "hns_roce_lite",
                     "`error cqe status: 0x15`", "`failed CQE status[12]`", "`[ROCE CQE ERROR]cqe error status[12]`",
                     "one record per line"],
        "roce-cqe-causes": ["no acknowledgement within the allowed time", "network path", "has disconnected",
                            "cannot answer", "abnormal exit of the peer process", "intermittently disconnected",
                            "link flapping", "exited abnormally early", "check the network devices",
                            "peer process exited first"],
        "roce-cqe-resolution": ["**remote end**", "`localIP`", "`remoteIP`", "`localInfo{...}`", "`remoteIP{...}`",
                                "device IPs", "hardware inventory", "`hccn_tool`", "port flapping", "网口闪断",
                                "down at 10:13:50 2025", "Sun Oct 5 10:13:50 2025", "Link up count 2",
                                "link down count 1", "already exited abnormally", "destroying its resources",
                                "**`HCCL_RDMA_TIMEOUT`**", "**`HCCL_RDMA_RETRY_CNT`**", "Raise both",
                                "**`status[12]`**", "RoCE packet retransmission timeout", "very rare",
                                "**contact technical support**", "one record per line"],
        "aiv-failure": ["Atlas A2 training/inference series", 'export HCCL_OP_EXPANSION_MODE="AIV"',
                        "as a kernel", "`fault kernel_name=aiv_all_reduce_***`", "HCCL AIV operator failed",
                        "task exception information", "notify wait timeout (EI0002)", "every rank time out",
                        "fail first", "aiv_all_reduce_910b_bfloat16_t"],
        "references": ["https://gitcode.com/cann/hccl", "hcclug_000055.html", "AIGC"],
    },
}

# Facts that must appear somewhere in the article (any section).
ANYWHERE = {
    LCCL: ["LCCL_DETERMINISTIC", "24.1.0.3", "8.0.RC2", "2.1.0.post11", "8.2.RC1", "EZ9999", "errcode=0",
           "vector core timeout", "fault kernel_name=LcalAllReduce", "Atlas 900 A2 PoD", "magic"],
    HCCL: ["HCCL_EXEC_TIMEOUT", "HCCL_ENTRY_LOG_ENABLE", "HCCL_DIAGNOSE_ENABLE", "HCCL_OP_EXPANSION_MODE",
           "HCCL_RDMA_TIMEOUT", "HCCL_RDMA_RETRY_CNT", "HcclGetCommAsyncError", "1836", "30 s", "1/3", "2/3",
           "status[12]", "0x15", "5 minutes 40 seconds", "300 seconds", "EI0002", "EI0012", "EI0013",
           "HeartbeatAbnormal", "Cluster Exception Location", "Task run failed", "TaskExecStage",
           "Execution_Error_SDMA", "fftsplus sdma error", "error cqe status", "Error ROCE CQE",
           "fault kernel_name=aiv_all_reduce_", "Entry-HcclCommInitRootInfoInner", "Entry-HcclAllReduce",
           "Entry-HcclCommDestroy", "crimer rank", "informer rank", "Heartbeat Lost Occurred", "Stuck Occurred",
           "Error cqe Occurred", "ERROR CQE > STUCK > LOST", 'grep -r "Entry-" run/plog/ | grep',
           'grep -r "HCCL_EXEC_TIMEOUT" run/plog', 'grep -r "Entry-HcclCommDestroy" log/run/plog',
           "hccn_tool -i 0 -link_stat -g", 'export HCCL_OP_EXPANSION_MODE="AIV"',
           # byte-exact quirks of the seed logs
           "HCCL(835695,all_reduce_test):2025-10-23-17:28:06.049.385[task_exception_handler.cc:610][835695]",
           "[task_exception_handler.cc:610] [1219039]",
           "localInfo{server[127.10.0.1],deviceId[127.10.0.1],deviceIp[127.11.0.1]}",
           "streamId[7],comm[0xfffe380078d0]", "Remote rank: [4800]"],
}

# Sections whose text must NOT leak into the HCCL article (the repost's unrelated trailing content).
FOREIGN = ["catlass", "site-navigator", "openX", "PowerShell", "809451989", "版权声明"]

# Generated from the seed text: each entry must be a whole line of a fenced block of that
# language inside the named section (byte-exact, including the seed's odd spacing/typos).
HCCL_VERBATIM = {
    'heartbeat-abnormal-events': [
        ('text', '[HeartbeatAbnormal]local rank[IP/ID]：crimer rank[IP/ID] status[4异常事件类型] by by informer rank[IP/ID]'),
        ('text', '[INFO] HCCL(686,python):2025-10-23-07:52:59.191.363 [heartbeat.cc:951] [8970][TaskExecStage][HeartbeatAbnormal]local rank [127.10.0.1/1]: crimer rank [127.10.0.2/2] status[LOST] by informer rank [127.10.0.3/3]'),
    ],
    'cluster-exception-summary': [
        ('text', '[TaskExecStage][HeartbeatAbnormal]Cluster Exception Location[IP/ID], Arrival Time:[星期 月 日 时:分:秒 年], Discoverer:[IP/ID], ExceptionType:[异常类型], Possible Reason:可能原因'),
        ('text', '[ERROR]HCCL(835695,all_reduce_test):2025-10-23-17:28:06.049.385[task_exception_handler.cc:610][835695][TaskExecStage][HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[127.10.0.1/1], Arrival Time:[Thu Oct 23 17:25:58 2025], Discoverer:[127.10.0.1/2], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected'),
    ],
    'example-heartbeat-lost': [
        ('text', '[ERROR]HCCL(835695,all_reduce_test):2025-10-23-17:28:06.049.385[task_exception_handler.cc:610][835695][TaskExecStage][HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[127.10.0.1/1], Arrival Time:[Thu Oct 23 17:25:58 2025], Discoverer:[127.10.0.1/2], ExceptionType:[Heartbeat Lost Occurred], Possible Reason:1. Process has exited, 2. Network Disconnected'),
    ],
    'example-process-stuck': [
        ('text', '[ERROR]HCCL(1219039,all_reduce_test):2025-10-23-21:05:09.859.568[task_exception_handler.cc:610] [1219039][TaskExecStage][HeartbeatAbnormal]Cluster Exception Location[IP/ID]:[127.10.0.1/1], Arrival Time:[Thu Oct 23 21:03:19 2025], ExceptionType:[Stuck Occurred], Possible Reason:1.Host process is stuck, 2.Device task is stuck'),
    ],
    'task-exception': [
        ('text', '[ERROR] HCCL(2111667,all_reduce_test):2025-10-24-11:18:29.597.044 [task_exception_handler.cc:908] [2111667][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[AllReduce_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR]. [ERROR] HCCL(2111667,all_reduce_test):2025-10-24-11:18:29.597.054 [task_exception_handler.cc:771] [2111667][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[127.10.0.1%enp_60000_0_1761275812718970], user define information[], rankSize[4], rankId[2]. [ERROR] HCCL(2111667,all_reduce_test):2025-10-24-11:18:29.597.083 [task_exception_handler.cc:704] [2111667][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.490.253], deviceId[2], index[21], count[256], reduceType[sum], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32].'),
        ('text', '[ERROR] HCCL(2111667,all_reduce_test):2025-10-24-11:18:29.597.044 [task_exception_handler.cc:908] [2111667][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[AllReduce_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR].'),
        ('text', '[ERROR] HCCL(2111667,all_reduce_test):2025-10-24-11:18:29.597.054 [task_exception_handler.cc:771] [2111667][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[127.10.0.1%enp_60000_0_1761275812718970], user define information[], rankSize[4], rankId[2].'),
        ('text', '[ERROR] HCCL(2111667,all_reduce_test):2025-10-24-11:18:29.597.083 [task_exception_handler.cc:704] [2111667][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.490.253], deviceId[2], index[21], count[256], reduceType[sum], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32].'),
    ],
    'find-group-ranks': [
        ('bash', 'grep -r "Entry-" run/plog/ | grep "127.10.0.1%enp_60000_0_1761275812718970"'),
        ('text', 'run/plog/plog-2111667_20251024111652406.log:[INFO] HCCL(2111667,all_reduce_test):2025-10-24-11:16:52.724.374 [op_base.cc:1292] [2111667]Entry-HcclCommInitRootInfoInner:ranks[4], rank[2], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[127.10.0.1%enp_60000_0_1761275812718970], deviceLogicId[2] run/plog/plog-2111668_20251024111652406.log:[INFO] HCCL(2111668,all_reduce_test):2025-10-24-11:16:52.725.226 [op_base.cc:1292] [2111668]Entry-HcclCommInitRootInfoInner:ranks[4], rank[3], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[127.10.0.1%enp_60000_0_1761275812718970], deviceLogicId[3] run/plog/plog-2111665_20251024111652405.log:[INFO] HCCL(2111665,all_reduce_test):2025-10-24-11:16:52.719.213 [op_base.cc:1292] [2111665]Entry-HcclCommInitRootInfoInner:ranks[4], rank[0], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[127.10.0.1%enp_60000_0_1761275812718970], deviceLogicId[0] run/plog/plog-2111666_20251024111652405.log:[INFO] HCCL(2111666,all_reduce_test):2025-10-24-11:16:52.719.502 [op_base.cc:1292] [2111666]Entry-HcclCommInitRootInfoInner:ranks[4], rank[1], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[127.10.0.1%enp_60000_0_1761275812718970], deviceLogicId[1]'),
        ('text', 'run/plog/plog-2111667_20251024111652406.log:[INFO] HCCL(2111667,all_reduce_test):2025-10-24-11:16:52.724.374 [op_base.cc:1292] [2111667]Entry-HcclCommInitRootInfoInner:ranks[4], rank[2], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[127.10.0.1%enp_60000_0_1761275812718970], deviceLogicId[2]'),
        ('text', 'run/plog/plog-2111668_20251024111652406.log:[INFO] HCCL(2111668,all_reduce_test):2025-10-24-11:16:52.725.226 [op_base.cc:1292] [2111668]Entry-HcclCommInitRootInfoInner:ranks[4], rank[3], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[127.10.0.1%enp_60000_0_1761275812718970], deviceLogicId[3]'),
        ('text', 'run/plog/plog-2111665_20251024111652405.log:[INFO] HCCL(2111665,all_reduce_test):2025-10-24-11:16:52.719.213 [op_base.cc:1292] [2111665]Entry-HcclCommInitRootInfoInner:ranks[4], rank[0], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[127.10.0.1%enp_60000_0_1761275812718970], deviceLogicId[0]'),
        ('text', 'run/plog/plog-2111666_20251024111652405.log:[INFO] HCCL(2111666,all_reduce_test):2025-10-24-11:16:52.719.502 [op_base.cc:1292] [2111666]Entry-HcclCommInitRootInfoInner:ranks[4], rank[1], rootinfo: host ip[127.10.0.1] port[60000] nicDeploy[1] identifier[127.10.0.1%enp_60000_0_1761275812718970], deviceLogicId[1]'),
    ],
    'op-mismatch': [
        ('text', 'rank0: [ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:908] [2111665][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[AllReduce_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR]. [ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.247 [task_exception_handler.cc:771] [2111665][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[127.10.0.1%enp_60000_0_1761275812718970], user define information[], rankSize[4], rankId[0]. [ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.283 [task_exception_handler.cc:704] [2111665][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.493.816], deviceId[0], index[21], count[256], reduceType[sum], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32]. rank1: [ERROR] HCCL(2111666,all_reduce_test):2025-10-24-11:18:29.513.755 [task_exception_handler.cc:908] [2111666][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[AllGather_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR]. [ERROR] HCCL(2111666,all_reduce_test):2025-10-24-11:18:29.513.764 [task_exception_handler.cc:771] [2111666][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[127.10.0.1%enp_60000_0_1761275812718970], user define information[], rankSize[4], rankId[1]. [ERROR] HCCL(2111666,all_reduce_test):2025-10-24-11:18:29.513.787 [task_exception_handler.cc:704] [2111666][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.489.331], deviceId[1], index[21], count[256], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32].'),
        ('text', '[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.235 [task_exception_handler.cc:908] [2111665][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[AllReduce_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR].'),
        ('text', '[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.247 [task_exception_handler.cc:771] [2111665][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[127.10.0.1%enp_60000_0_1761275812718970], user define information[], rankSize[4], rankId[0].'),
        ('text', '[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-11:18:29.499.283 [task_exception_handler.cc:704] [2111665][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.493.816], deviceId[0], index[21], count[256], reduceType[sum], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32].'),
        ('text', '[ERROR] HCCL(2111666,all_reduce_test):2025-10-24-11:18:29.513.755 [task_exception_handler.cc:908] [2111666][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[AllGather_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR].'),
        ('text', '[ERROR] HCCL(2111666,all_reduce_test):2025-10-24-11:18:29.513.764 [task_exception_handler.cc:771] [2111666][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[127.10.0.1%enp_60000_0_1761275812718970], user define information[], rankSize[4], rankId[1].'),
        ('text', '[ERROR] HCCL(2111666,all_reduce_test):2025-10-24-11:18:29.513.787 [task_exception_handler.cc:704] [2111666][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.489.331], deviceId[1], index[21], count[256], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32].'),
    ],
    'exec-timeout-gap': [
        ('text', 'rank0: [ERROR] HCCL(2111665,all_reduce_test):2025-10-24-22:03:14.946.261 [task_exception_handler.cc:908] [2111665][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[AllReduce_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR]. [ERROR] HCCL(2111665,all_reduce_test):2025-10-24-22:03:14.946.269 [task_exception_handler.cc:771] [2111665][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[127.10.0.1%enp_60000_0_1761275812718970], user define information[], rankSize[4], rankId[0]. [ERROR] HCCL(2111665,all_reduce_test):2025-10-24-22:03:14.946.310 [task_exception_handler.cc:704] [2111665][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.493.816], deviceId[0], index[21], count[256], reduceType[sum], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32]. rank1: [ERROR] HCCL(2111666,all_reduce_test):2025-10-24-22:08:58.890.365 [task_exception_handler.cc:908] [2111666][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[AllReduce_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR]. [ERROR] HCCL(2111666,all_reduce_test):2025-10-24-22:08:58.890.383 [task_exception_handler.cc:771] [2111666][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[127.10.0.1%enp_60000_0_1761275812718970], user define information[], rankSize[4], rankId[1]. [ERROR] HCCL(2111666,all_reduce_test):2025-10-24-22:08:58.890.392 [task_exception_handler.cc:704] [2111666][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.489.331], deviceId[1], index[21], count[256], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32].'),
        ('text', '[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-22:03:14.946.261 [task_exception_handler.cc:908] [2111665][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[AllReduce_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR].'),
        ('text', '[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-22:03:14.946.269 [task_exception_handler.cc:771] [2111665][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[127.10.0.1%enp_60000_0_1761275812718970], user define information[], rankSize[4], rankId[0].'),
        ('text', '[ERROR] HCCL(2111665,all_reduce_test):2025-10-24-22:03:14.946.310 [task_exception_handler.cc:704] [2111665][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.493.816], deviceId[0], index[21], count[256], reduceType[sum], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32].'),
        ('text', '[ERROR] HCCL(2111666,all_reduce_test):2025-10-24-22:08:58.890.365 [task_exception_handler.cc:908] [2111666][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21], tag[AllReduce_127.10.0.1%enp_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR].'),
        ('text', '[ERROR] HCCL(2111666,all_reduce_test):2025-10-24-22:08:58.890.383 [task_exception_handler.cc:771] [2111666][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[127.10.0.1%enp_60000_0_1761275812718970], user define information[], rankSize[4], rankId[1].'),
        ('text', '[ERROR] HCCL(2111666,all_reduce_test):2025-10-24-22:08:58.890.392 [task_exception_handler.cc:704] [2111666][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-10-24-11:16:55.489.331], deviceId[1], index[21], count[256], src[0x12c0c0013000], dst[0x12c0c0014000], dataType[float32].'),
        ('bash', 'grep -r "HCCL_EXEC_TIMEOUT" run/plog'),
    ],
    'entry-log': [
        ('text', '[INFO] HCCL(3015875,python):2025-03-07-11:43:32.305.623 [hccl_opbase_atrace_info.cc:56][3017221]Entry-HcclAllReduce: tag[AllReduce_127.10.0.1%eth_60000_0_1741318944927847], sendBuf[0x1241d3dcdc00], recvBuf[0x124702f40200], count[10746295], dataType[float32], op[sum], localRank[0], streamId[7],comm[0xfffe380078d0], deviceLogicId[0] [INFO] HCCL(3015875,python):2025-03-07-11:43:32.306.413 [hccl_opbase_atrace_info.cc:56][3017183]Entry-HcclAllReduce: tag[AllReduce_127.10.0.1%eth_60000_0_1741318944927847], sendBuf[0x1244bfffe000], recvBuf[0x1244bfffb400], count[1024], dataType[float32], op[sum], localRank[0], streamId[2],comm[0xfffe380078d0], deviceLogicId[0]'),
        ('text', '[INFO] HCCL(3015875,python):2025-03-07-11:43:32.305.623 [hccl_opbase_atrace_info.cc:56][3017221]Entry-HcclAllReduce: tag[AllReduce_127.10.0.1%eth_60000_0_1741318944927847], sendBuf[0x1241d3dcdc00], recvBuf[0x124702f40200], count[10746295], dataType[float32], op[sum], localRank[0], streamId[7],comm[0xfffe380078d0], deviceLogicId[0]'),
        ('text', '[INFO] HCCL(3015875,python):2025-03-07-11:43:32.306.413 [hccl_opbase_atrace_info.cc:56][3017183]Entry-HcclAllReduce: tag[AllReduce_127.10.0.1%eth_60000_0_1741318944927847], sendBuf[0x1244bfffe000], recvBuf[0x1244bfffb400], count[1024], dataType[float32], op[sum], localRank[0], streamId[2],comm[0xfffe380078d0], deviceLogicId[0]'),
    ],
    'sdma-error': [
        ('text', '[PID: 3480365] 2025-12-24-14:10:31.094.189 Execution_Error_SDMA(EI0012): SDMA memory copy task exception occurred. Remote rank: [4800]. Base information: [streamID:[351], taskID[5], taskType[Memcpy], tag[], AlgType(level 0-1-2):[null-null-null].]. Task information: [src:[0x12c180000000], dst:[0x12c041800000], size:[0x80], notify id:[0xffffffffffffffff], link type:[HCCS], remote rank:[0]]. Communicator information: [group:[], user define information[], rankSize[0], rankId[0]].'),
        ('text', '[ERROR] RUNTIME(57096,python3.10):2025-05-12-20:55:44.705.025 [task_info.cc:1170]57288 PrintSdmaErrorInfoForFftsPlusTask:fftsplus task execute failed, dev_id=0, stream_id=50, task_id=21, context_id=18, thread_id=0, err_type=4[fftsplus sdma error] [ERROR] RUNTIME(57096,python3.10):2025-05-12-20:55:44.705.031 [task_info.cc:1270]57288 TaskFailCallBackForFftsPlusTask:fftsplus streamId=50, taskId=21, context_id=18, expandtype=1, rtCode=0x715006c,[fftsplus task exception], psStart=0x0, kernel_name=not found kernel name, binHandle=(nil), binSize=0. [ERROR] HCCL(57096,python3.10):2025-05-12-20:55:44.706.132 [task_exception_handler.cc:947] [57288][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[32], taskID[21], tag[AllGather_group_name_0], AlgType(level 0-1-2):[fullmesh-ring-H-D]. [ERROR] HCCL(57096,python3.10):2025-05-12-20:55:44.706.140 [task_exception_handler.cc:810] [57288][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[group_name_0], user define information[Unspecified], rankSize[8], rankId[0]. [ERROR] HCCL(57096,python3.10):2025-05-12-20:55:44.706.163 [task_exception_handler.cc:737] [57288][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-05-12-20:54:51.268.778], deviceId[0], index[4], count[3397632], src[0x12c25487ac00], dst[0x12c255000000], dataType[uint8].'),
        ('text', '[ERROR] RUNTIME(57096,python3.10):2025-05-12-20:55:44.705.025 [task_info.cc:1170]57288 PrintSdmaErrorInfoForFftsPlusTask:fftsplus task execute failed, dev_id=0, stream_id=50, task_id=21, context_id=18, thread_id=0, err_type=4[fftsplus sdma error]'),
        ('text', '[ERROR] RUNTIME(57096,python3.10):2025-05-12-20:55:44.705.031 [task_info.cc:1270]57288 TaskFailCallBackForFftsPlusTask:fftsplus streamId=50, taskId=21, context_id=18, expandtype=1, rtCode=0x715006c,[fftsplus task exception], psStart=0x0, kernel_name=not found kernel name, binHandle=(nil), binSize=0.'),
        ('text', '[ERROR] HCCL(57096,python3.10):2025-05-12-20:55:44.706.132 [task_exception_handler.cc:947] [57288][TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[32], taskID[21], tag[AllGather_group_name_0], AlgType(level 0-1-2):[fullmesh-ring-H-D].'),
        ('text', '[ERROR] HCCL(57096,python3.10):2025-05-12-20:55:44.706.140 [task_exception_handler.cc:810] [57288][TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[group_name_0], user define information[Unspecified], rankSize[8], rankId[0].'),
        ('text', '[ERROR] HCCL(57096,python3.10):2025-05-12-20:55:44.706.163 [task_exception_handler.cc:737] [57288][TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[2025-05-12-20:54:51.268.778], deviceId[0], index[4], count[3397632], src[0x12c25487ac00], dst[0x12c255000000], dataType[uint8].'),
    ],
    'sdma-causes': [
        ('bash', 'grep -r "Entry-HcclCommDestroy" log/run/plog'),
    ],
    'roce-cqe': [
        ('text', '[PID: 3448331] 2025-12-04-21:59:08.232.310 Execution Error ROCE CQE(EI0013): An error CQE occurred during operator execution. Local information: server 127.0.0.1, device ID 0, device IP 127.10.0.1. Peer information: server 127.0.0.2, device ID 1, device IP 127.10.0.2. Possible Cause: 1. The network between two devices is abnormal. For example, the network port is intermittently disconnected.2. The peer process exits abnormally in advance. As a result, the local end cannot receive the response from the peer end. Solution: 1. Check whether the network devices between the two ends are abnormal.2. Check whether the peer process exits first. If yes, check the cause of the process exit.'),
        ('text', '[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.612 [hns_roce_lite.c:630]hns_roce_lite_handle_error_cqe(630) : error cqe status: 0x15 [ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.622 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000000): 0x00041580 [ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.627 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000001): 0x00000000 [ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.630 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000002): 0x00000000 [ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.634 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000003): 0x1500047c [ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.637 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000004): 0x00000000 [ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.640 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000005): 0x00000000 [ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.644 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000006): 0x00000000 [ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.647 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000007): 0x00000000 [ERROR] HCCP(2040034,alltoall_test):2025-09-15-08:38:12.776.650 [ra_hdc_lite.c:794]tid:2040458,ra_hdc_lite_period_poll_cqe : [create][ra_hdc_period_poll]failed CQE status[12], wr[0] [ERROR] HCCL(2040034,alltoall_test):2025-09-15-08:38:13.607.432 [heartbeat.cc:1229] [2040666][TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], time:[2025-09-15 08:38:12.776654],localInfo{server[127.10.0.1],deviceId[127.10.0.1],deviceIp[127.11.0.1]}, remoteIP{server[127.10.0.2],deviceId[127.10.0.2],deviceIp[127.11.0.2]}'),
        ('text', '[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.612 [hns_roce_lite.c:630]hns_roce_lite_handle_error_cqe(630) : error cqe status: 0x15'),
        ('text', '[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.622 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000000): 0x00041580'),
        ('text', '[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.627 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000001): 0x00000000'),
        ('text', '[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.630 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000002): 0x00000000'),
        ('text', '[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.634 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000003): 0x1500047c'),
        ('text', '[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.637 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000004): 0x00000000'),
        ('text', '[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.640 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000005): 0x00000000'),
        ('text', '[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.644 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000006): 0x00000000'),
        ('text', '[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.647 [hns_roce_lite.c:747]dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000007): 0x00000000'),
        ('text', '[ERROR] HCCP(2040034,alltoall_test):2025-09-15-08:38:12.776.650 [ra_hdc_lite.c:794]tid:2040458,ra_hdc_lite_period_poll_cqe : [create][ra_hdc_period_poll]failed CQE status[12], wr[0]'),
        ('text', '[ERROR] HCCL(2040034,alltoall_test):2025-09-15-08:38:13.607.432 [heartbeat.cc:1229] [2040666][TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], time:[2025-09-15 08:38:12.776654],localInfo{server[127.10.0.1],deviceId[127.10.0.1],deviceIp[127.11.0.1]}, remoteIP{server[127.10.0.2],deviceId[127.10.0.2],deviceIp[127.11.0.2]}'),
    ],
    'roce-cqe-resolution': [
        ('text', '[ERROR] HCCL(2040034,alltoall_test):2025-09-15-08:38:13.607.432 [heartbeat.cc:1229] [2040666][TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12], time:[2025-09-15 08:38:12.776654],localInfo{server[127.10.0.1],deviceId[127.10.0.1],deviceIp[127.11.0.1]}, remoteIP{server[127.10.0.2],deviceId[127.10.0.2],deviceIp[127.11.0.2]}'),
        ('bash', 'hccn_tool -i 0 -link_stat -g'),
        ('text', '$ hccn_tool -i 0 -link_stat -g [devid 0]current time : Tue Oct 28 21:46:46 2025 [devid 0]link up count : 2 [devid 0]link down count : 1 [devid 0]link change records : [devid 0] Sun Oct 5 10:13:51 2025 LINK UP [devid 0] Sun Oct 5 10:13:50 2025 LINK DOWN [devid 0] Sun Oct 5 10:13:35 2025 LINK UP'),
        ('text', '$ hccn_tool -i 0 -link_stat -g'),
        ('text', '[devid 0]current time : Tue Oct 28 21:46:46 2025'),
        ('text', '[devid 0]link up count : 2'),
        ('text', '[devid 0]link down count : 1'),
        ('text', '[devid 0]link change records :'),
        ('text', '[devid 0] Sun Oct 5 10:13:51 2025 LINK UP'),
        ('text', '[devid 0] Sun Oct 5 10:13:50 2025 LINK DOWN'),
        ('text', '[devid 0] Sun Oct 5 10:13:35 2025 LINK UP'),
    ],
    'aiv-failure': [
        ('bash', 'export HCCL_OP_EXPANSION_MODE="AIV"'),
        ('text', '[ERROR] RUNTIME(699131,python):2025-04-24-21:54:17.707.236 [davinci_kernel_task.cc:1268]699131 PrintErrorInfoForDavinciTask:[INIT][DEFAULT]Aicore kernel execute failed, device_id=0, stream_id=2, report_stream_id=2, task_id=55873, flip_num=2073, fault kernel_name=aiv_all_reduce_***, fault kernel info ext=aiv_all_reduce_910b_bfloat16_t, program id=42, hash=9645272693770703471.'),
    ],
}


# --------------------------------------------------------------------------------------------- parsing

def _read(name: str) -> str:
    path = ARTICLES / f"{name}.md"
    assert path.is_file(), f"missing article {path}"
    return path.read_text(encoding="utf-8")


def _split_front_matter(text: str) -> tuple[dict[str, str], list[str]]:
    lines = text.split("\n")
    assert lines[0] == "---", "article must start with a front matter block"
    end = lines.index("---", 1)
    meta: dict[str, str] = {}
    for raw in lines[1:end]:
        m = re.match(r"^([a-z_]+): (.+)$", raw)
        assert m, f"bad front matter line: {raw!r}"
        assert m.group(1) not in meta, f"duplicate front matter key {m.group(1)}"
        meta[m.group(1)] = m.group(2).strip()
    return meta, lines[end + 1:]


def _sections(body: list[str]):
    """Yield (level, title, slug, lines, blocks) for every heading of level >= 2, outside code fences.

    ``blocks`` is a list of (language, [lines]) for the fenced blocks of the section."""
    sections = []
    current = None
    in_fence = False
    lang = ""
    block: list[str] = []
    for raw in body:
        fm = FENCE_RE.match(raw)
        if fm and not in_fence:
            in_fence, lang, block = True, fm.group(1), []
            if current is not None:
                current["lines"].append(raw)
            continue
        if in_fence:
            if raw.strip() == "```":
                in_fence = False
                if current is not None:
                    current["blocks"].append((lang, block))
            else:
                block.append(raw)
            if current is not None:
                current["lines"].append(raw)
            continue
        hm = HEADING_RE.match(raw)
        if hm and len(hm.group(1)) >= 2:
            current = {"level": len(hm.group(1)), "heading": hm.group(2), "lines": [], "blocks": []}
            sections.append(current)
            continue
        if current is not None:
            current["lines"].append(raw)
    assert not in_fence, "unterminated code fence"
    return sections


def _parsed(name: str):
    meta, body = _split_front_matter(_read(name))
    return meta, body, _sections(body)


def _by_slug(name: str) -> dict[str, dict]:
    out = {}
    for sec in _parsed(name)[2]:
        m = ANCHOR_RE.match(sec["heading"])
        if m:
            out[m.group("slug")] = sec
    return out


ARTICLE_NAMES = [LCCL, HCCL]


# ------------------------------------------------------------------------------------------ (a) meta

@pytest.mark.parametrize("name", ARTICLE_NAMES)
def test_front_matter_keys_and_values(name):
    meta, body, _ = _parsed(name)
    for key in REQUIRED_KEYS:
        assert meta.get(key), f"{name}: front matter key {key!r} missing or empty"
    for key, value in FRONT_MATTER[name].items():
        assert meta[key] == value, f"{name}: {key} = {meta[key]!r}, expected {value!r}"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", meta["published"])
    assert not CJK_RE.search(meta["title"]), "title must be our English title"
    h1 = [l for l in body if l.startswith("# ")]
    assert h1 and h1[0] == f"# {meta['title']}", "the H1 must repeat the English title"


@pytest.mark.parametrize("name", ARTICLE_NAMES)
def test_source_note(name):
    meta, _, _ = _parsed(name)
    note = meta.get("source_note", "")
    assert note, f"{name}: source_note expected"
    for fact in SOURCE_NOTE_FACTS[name]:
        assert fact in note, f"{name}: source_note lacks {fact!r}"


# --------------------------------------------------------------------------------------- (b) anchors

@pytest.mark.parametrize("name", ARTICLE_NAMES)
def test_headings_have_unique_wellformed_anchors(name):
    _, _, sections = _parsed(name)
    assert sections, f"{name}: no sections"
    slugs = []
    for sec in sections:
        assert sec["level"] in (2, 3), f"{name}: only ## and ### headings allowed: {sec['heading']!r}"
        m = ANCHOR_RE.match(sec["heading"])
        assert m, f"{name}: heading without {{#slug}} anchor: {sec['heading']!r}"
        assert SLUG_RE.match(m.group("slug")), f"{name}: bad slug {m.group('slug')!r}"
        slugs.append(m.group("slug"))
    dupes = {s for s in slugs if slugs.count(s) > 1}
    assert not dupes, f"{name}: duplicate slugs {dupes}"
    missing = [s for s in REQUIRED_SLUGS[name] if s not in slugs]
    assert not missing, f"{name}: required slugs missing: {missing}"


@pytest.mark.parametrize("name", ARTICLE_NAMES)
def test_internal_links_resolve(name):
    slugs = set(_by_slug(name))
    text = _read(name)
    for target in re.findall(r"\]\(#([^)]+)\)", text):
        assert target in slugs, f"{name}: link to unknown anchor #{target}"


# ------------------------------------------------------------------------------------- (c) key terms

@pytest.mark.parametrize("name", ARTICLE_NAMES)
def test_every_section_ends_with_key_terms(name):
    for slug, sec in _by_slug(name).items():
        # how the section is asked for may follow its key terms (kb/README.md, Articles)
        content = [l for l in sec["lines"] if l.strip() and not l.startswith("**Asked as:**")]
        assert content, f"{name}#{slug}: empty section"
        last = content[-1]
        assert last.startswith(KEY_TERMS), f"{name}#{slug}: last line is not a Key terms line: {last!r}"
        assert sum(1 for l in content if l.startswith(KEY_TERMS)) == 1, f"{name}#{slug}: one Key terms line"
        assert CJK_RE.search(last), f"{name}#{slug}: Key terms line has no Chinese terms"


@pytest.mark.parametrize("name,slug,term", [
    (name, slug, term) for name, per in KEY_TERMS_ZH.items() for slug, terms in per.items() for term in terms
])
def test_key_terms_contain_source_terms(name, slug, term):
    sec = _by_slug(name)[slug]
    line = next(l for l in sec["lines"] if l.startswith(KEY_TERMS))
    assert term in line, f"{name}#{slug}: Key terms lack {term!r}"


@pytest.mark.parametrize("name", ARTICLE_NAMES)
def test_key_terms_split_cleanly(name):
    """Key terms are split on , ， 、 by the article loader, so no term may hide a comma inside brackets."""
    for slug, sec in _by_slug(name).items():
        line = next(l for l in sec["lines"] if l.startswith(KEY_TERMS))
        terms = [t.strip() for t in re.split(r"[,，、]", line[len(KEY_TERMS):])]
        assert all(terms), f"{name}#{slug}: empty key term"
        for term in terms:
            assert term.count("（") == term.count("）") and term.count("(") == term.count(")"), \
                f"{name}#{slug}: key term {term!r} was cut by a comma"


# ------------------------------------------------------------------------------------------ (d) facts

def _section_text(name: str, slug: str) -> str:
    return "\n".join(_by_slug(name)[slug]["lines"])


@pytest.mark.parametrize("name,slug,fact", [
    (name, slug, fact) for name, per in FACTS.items() for slug, facts in per.items() for fact in facts
])
def test_fact_in_section(name, slug, fact):
    # Prose may be re-wrapped freely: compare with whitespace runs collapsed.
    text = " ".join(_section_text(name, slug).split())
    assert " ".join(fact.split()) in text, f"{name}#{slug}: missing fact {fact!r}"


@pytest.mark.parametrize("name,fact", [(n, f) for n, facts in ANYWHERE.items() for f in facts])
def test_fact_anywhere(name, fact):
    assert fact in _read(name), f"{name}: missing fact {fact!r}"


@pytest.mark.parametrize("slug,lang,line", [
    (slug, lang, line) for slug, items in HCCL_VERBATIM.items() for lang, line in items
])
def test_hccl_verbatim_lines_in_code_blocks(slug, lang, line):
    blocks = _by_slug(HCCL)[slug]["blocks"]
    hits = [b for b in blocks if line in b[1]]
    assert hits, f"{HCCL}#{slug}: verbatim line not found as a whole line of a code block: {line[:120]!r}"
    assert any(b[0] == lang for b in hits), f"{HCCL}#{slug}: line should be in a ```{lang} block"


def test_lccl_command_and_fragments_in_code_blocks():
    sections = _by_slug(LCCL)
    assert ("bash", ["export LCCL_DETERMINISTIC=1"]) in sections["workaround"]["blocks"]
    fragments = [l for lang, b in sections["symptoms"]["blocks"] if lang == "text" for l in b]
    for frag in ["EZ9999", "fault kernel_name=LcalAllReduce", "errcode=0", "vector core timeout"]:
        assert frag in fragments


@pytest.mark.parametrize("name", ARTICLE_NAMES)
def test_code_blocks_are_text_or_bash(name):
    for slug, sec in _by_slug(name).items():
        for lang, _ in sec["blocks"]:
            assert lang in ("text", "bash"), f"{name}#{slug}: code block language {lang!r}"


def test_glued_forms_are_followed_by_one_record_per_line():
    """Where the seed glues records onto one line, the article keeps that line and also gives the
    records one per line in a later block of the same section."""
    for slug, items in HCCL_VERBATIM.items():
        blocks = _by_slug(HCCL)[slug]["blocks"]
        for lang, line in items:
            if lang != "text":
                continue
            others = [l for lg, l in items if lg == "text" and l != line and l in line]
            if len(others) < 2:
                continue  # not a glued line
            glued_idx = next(i for i, b in enumerate(blocks) if line in b[1])
            later = [l for b in blocks[glued_idx + 1:] for l in b[1]]
            for rec in others:
                assert rec in later, f"{slug}: record not repeated one per line after the glued form"


def test_hccl_article_excludes_unrelated_blog_content():
    text = _read(HCCL)
    for word in FOREIGN:
        assert word not in text, f"unrelated repost content leaked into the article: {word!r}"
