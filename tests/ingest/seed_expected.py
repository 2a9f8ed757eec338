"""Every log example quoted in the seed articles, with the records it must parse into.

The examples live verbatim in data/seed/; field values here were checked against the article.
"""

from __future__ import annotations

from faultbot.ingest import RecordKind
from tests.ingest.helpers import Expected as E

PLOG, SCREEN = RecordKind.PLOG, RecordKind.SCREEN
HANDLER = "task_exception_handler.cc"
AR = "all_reduce_test"
BASE, GROUP, OPDATA = (
    "[TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21]",
    "[TaskExecStage][Timeout][Host]Task run failed, groupRank information is group:[",
    "[TaskExecStage][Timeout][Host]Task run failed, opData information is timeStamp:[",
)

EXPECTED: dict[str, tuple[E, ...]] = {
    "aiv_kernel_runtime.log": (
        E(PLOG, 'ERROR', 'RUNTIME', 699131, 'python', '2025-04-24 21:54:17.707236', 'davinci_kernel_task.cc', 1268, 699131,
          'PrintErrorInfoForDavinciTask:[INIT][DEFAULT]Aicore kernel ex'),
    ),
    "entry_allreduce_two_streams_glued.log": (
        E(PLOG, 'INFO', 'HCCL', 3015875, 'python', '2025-03-07 11:43:32.305623', 'hccl_opbase_atrace_info.cc', 56, 3017221,
          'Entry-HcclAllReduce: tag[AllReduce_127.10.0.1%eth_60000_0_17'),
        E(PLOG, 'INFO', 'HCCL', 3015875, 'python', '2025-03-07 11:43:32.306413', 'hccl_opbase_atrace_info.cc', 56, 3017183,
          'Entry-HcclAllReduce: tag[AllReduce_127.10.0.1%eth_60000_0_17'),
    ),
    "fftsplus_sdma_glued.log": (
        E(PLOG, 'ERROR', 'RUNTIME', 57096, 'python3.10', '2025-05-12 20:55:44.705025', 'task_info.cc', 1170, 57288,
          'PrintSdmaErrorInfoForFftsPlusTask:fftsplus task execute fail'),
        E(PLOG, 'ERROR', 'RUNTIME', 57096, 'python3.10', '2025-05-12 20:55:44.705031', 'task_info.cc', 1270, 57288,
          'TaskFailCallBackForFftsPlusTask:fftsplus streamId=50, taskId'),
        E(PLOG, 'ERROR', 'HCCL', 57096, 'python3.10', '2025-05-12 20:55:44.706132', HANDLER, 947, 57288,
          '[TaskExecStage][Timeout][Host]Task run failed, base informat'),
        E(PLOG, 'ERROR', 'HCCL', 57096, 'python3.10', '2025-05-12 20:55:44.706140', HANDLER, 810, 57288,
          GROUP),
        E(PLOG, 'ERROR', 'HCCL', 57096, 'python3.10', '2025-05-12 20:55:44.706163', HANDLER, 737, 57288,
          OPDATA),
    ),
    "grep_entry_comm_init_glued.log": (
        E(PLOG, 'INFO', 'HCCL', 2111667, AR, '2025-10-24 11:16:52.724374', 'op_base.cc', 1292, 2111667,
          'Entry-HcclCommInitRootInfoInner:ranks[4], rank[2], rootinfo:', named_file='run/plog/plog-2111667_20251024111652406.log'),
        E(PLOG, 'INFO', 'HCCL', 2111668, AR, '2025-10-24 11:16:52.725226', 'op_base.cc', 1292, 2111668,
          'Entry-HcclCommInitRootInfoInner:ranks[4], rank[3], rootinfo:', named_file='run/plog/plog-2111668_20251024111652406.log'),
        E(PLOG, 'INFO', 'HCCL', 2111665, AR, '2025-10-24 11:16:52.719213', 'op_base.cc', 1292, 2111665,
          'Entry-HcclCommInitRootInfoInner:ranks[4], rank[0], rootinfo:', named_file='run/plog/plog-2111665_20251024111652405.log'),
        E(PLOG, 'INFO', 'HCCL', 2111666, AR, '2025-10-24 11:16:52.719502', 'op_base.cc', 1292, 2111666,
          'Entry-HcclCommInitRootInfoInner:ranks[4], rank[1], rootinfo:', named_file='run/plog/plog-2111666_20251024111652405.log'),
    ),
    "heartbeat_abnormal_info.log": (
        E(PLOG, 'INFO', 'HCCL', 686, 'python', '2025-10-23 07:52:59.191363', 'heartbeat.cc', 951, 8970,
          '[TaskExecStage][HeartbeatAbnormal]local rank [127.10.0.1/1]:'),
    ),
    "heartbeat_lost.log": (
        E(PLOG, 'ERROR', 'HCCL', 835695, AR, '2025-10-23 17:28:06.049385', HANDLER, 610, 835695,
          '[TaskExecStage][HeartbeatAbnormal]Cluster Exception Location'),
    ),
    "heartbeat_roce_cqe.log": (
        E(PLOG, 'ERROR', 'HCCL', 2040034, 'alltoall_test', '2025-09-15 08:38:13.607432', 'heartbeat.cc', 1229, 2040666,
          '[TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error '),
    ),
    "heartbeat_stuck.log": (
        E(PLOG, 'ERROR', 'HCCL', 1219039, AR, '2025-10-23 21:05:09.859568', HANDLER, 610, 1219039,
          '[TaskExecStage][HeartbeatAbnormal]Cluster Exception Location'),
    ),
    "rank_labels_op_mismatch_glued.log": (
        E(PLOG, 'ERROR', 'HCCL', 2111665, AR, '2025-10-24 11:18:29.499235', HANDLER, 908, 2111665,
          BASE, rank=0),
        E(PLOG, 'ERROR', 'HCCL', 2111665, AR, '2025-10-24 11:18:29.499247', HANDLER, 771, 2111665,
          GROUP, rank=0),
        E(PLOG, 'ERROR', 'HCCL', 2111665, AR, '2025-10-24 11:18:29.499283', HANDLER, 704, 2111665,
          OPDATA, rank=0),
        E(PLOG, 'ERROR', 'HCCL', 2111666, AR, '2025-10-24 11:18:29.513755', HANDLER, 908, 2111666,
          BASE, rank=1),
        E(PLOG, 'ERROR', 'HCCL', 2111666, AR, '2025-10-24 11:18:29.513764', HANDLER, 771, 2111666,
          GROUP, rank=1),
        E(PLOG, 'ERROR', 'HCCL', 2111666, AR, '2025-10-24 11:18:29.513787', HANDLER, 704, 2111666,
          OPDATA, rank=1),
    ),
    "rank_labels_time_gap_glued.log": (
        E(PLOG, 'ERROR', 'HCCL', 2111665, AR, '2025-10-24 22:03:14.946261', HANDLER, 908, 2111665,
          BASE, rank=0),
        E(PLOG, 'ERROR', 'HCCL', 2111665, AR, '2025-10-24 22:03:14.946269', HANDLER, 771, 2111665,
          GROUP, rank=0),
        E(PLOG, 'ERROR', 'HCCL', 2111665, AR, '2025-10-24 22:03:14.946310', HANDLER, 704, 2111665,
          OPDATA, rank=0),
        E(PLOG, 'ERROR', 'HCCL', 2111666, AR, '2025-10-24 22:08:58.890365', HANDLER, 908, 2111666,
          BASE, rank=1),
        E(PLOG, 'ERROR', 'HCCL', 2111666, AR, '2025-10-24 22:08:58.890383', HANDLER, 771, 2111666,
          GROUP, rank=1),
        E(PLOG, 'ERROR', 'HCCL', 2111666, AR, '2025-10-24 22:08:58.890392', HANDLER, 704, 2111666,
          OPDATA, rank=1),
    ),
    "roce_error_cqe_glued.log": (
        E(PLOG, 'ERROR', 'ROCE', 2040034, 'alltoall_test', '2025-09-15 08:38:12.776612', 'hns_roce_lite.c', 630, None,
          'hns_roce_lite_handle_error_cqe(630) : error cqe status: 0x15'),
        E(PLOG, 'ERROR', 'ROCE', 2040034, 'alltoall_test', '2025-09-15 08:38:12.776622', 'hns_roce_lite.c', 747, None,
          'dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000000): 0x0'),
        E(PLOG, 'ERROR', 'ROCE', 2040034, 'alltoall_test', '2025-09-15 08:38:12.776627', 'hns_roce_lite.c', 747, None,
          'dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000001): 0x0'),
        E(PLOG, 'ERROR', 'ROCE', 2040034, 'alltoall_test', '2025-09-15 08:38:12.776630', 'hns_roce_lite.c', 747, None,
          'dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000002): 0x0'),
        E(PLOG, 'ERROR', 'ROCE', 2040034, 'alltoall_test', '2025-09-15 08:38:12.776634', 'hns_roce_lite.c', 747, None,
          'dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000003): 0x1'),
        E(PLOG, 'ERROR', 'ROCE', 2040034, 'alltoall_test', '2025-09-15 08:38:12.776637', 'hns_roce_lite.c', 747, None,
          'dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000004): 0x0'),
        E(PLOG, 'ERROR', 'ROCE', 2040034, 'alltoall_test', '2025-09-15 08:38:12.776640', 'hns_roce_lite.c', 747, None,
          'dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000005): 0x0'),
        E(PLOG, 'ERROR', 'ROCE', 2040034, 'alltoall_test', '2025-09-15 08:38:12.776644', 'hns_roce_lite.c', 747, None,
          'dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000006): 0x0'),
        E(PLOG, 'ERROR', 'ROCE', 2040034, 'alltoall_test', '2025-09-15 08:38:12.776647', 'hns_roce_lite.c', 747, None,
          'dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000007): 0x0'),
        E(PLOG, 'ERROR', 'HCCP', 2040034, 'alltoall_test', '2025-09-15 08:38:12.776650', 'ra_hdc_lite.c', 794, 2040458,
          'ra_hdc_lite_period_poll_cqe : [create][ra_hdc_period_poll]fa'),
        E(PLOG, 'ERROR', 'HCCL', 2040034, 'alltoall_test', '2025-09-15 08:38:13.607432', 'heartbeat.cc', 1229, 2040666,
          '[TaskExecStage][HeartbeatAbnormal][ROCE CQE ERROR]cqe error '),
    ),
    "screen_roce_cqe_ei0013.log": (
        E(SCREEN, None, None, 3448331, None, '2025-12-04 21:59:08.232310', None, None, None,
          'Execution Error ROCE CQE(EI0013): An error CQE occurred duri', code='EI0013'),
    ),
    "screen_sdma_ei0012.log": (
        E(SCREEN, None, None, 3480365, None, '2025-12-24 14:10:31.094189', None, None, None,
          'Execution_Error_SDMA(EI0012): SDMA memory copy task exceptio', code='EI0012'),
    ),
    "task_exception_glued.log": (
        E(PLOG, 'ERROR', 'HCCL', 2111667, AR, '2025-10-24 11:18:29.597044', HANDLER, 908, 2111667,
          BASE),
        E(PLOG, 'ERROR', 'HCCL', 2111667, AR, '2025-10-24 11:18:29.597054', HANDLER, 771, 2111667,
          GROUP),
        E(PLOG, 'ERROR', 'HCCL', 2111667, AR, '2025-10-24 11:18:29.597083', HANDLER, 704, 2111667,
          OPDATA),
    ),
}
