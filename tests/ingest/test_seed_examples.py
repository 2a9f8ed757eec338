"""Every log example from the seed articles parses into exactly the expected records."""

from __future__ import annotations

import pytest

from faultbot.ingest import LogPath, RecordKind
from tests.ingest.helpers import SEED, parse, read_all, seed_names, seed_text
from tests.ingest.seed_expected import EXPECTED


def test_every_seed_example_has_expectations() -> None:
    assert sorted(EXPECTED) == seed_names()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_seed_example_fields(name: str) -> None:
    records, _ = read_all(LogPath(SEED / name))
    expected = EXPECTED[name]
    assert len(records) == len(expected)
    for record, wanted in zip(records, expected):
        wanted.check(record)
        assert record.origin.source == str(SEED / name)
        assert record.origin.line == 1


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_splitting_glued_records_loses_no_text(name: str) -> None:
    line = seed_text(name).strip()
    records = parse(line)
    assert " ".join(record.raw for record in records) == line
    assert all(("glued" in record.notes) == (len(records) > 1) for record in records)


def test_glued_task_exception_is_three_records() -> None:
    records = parse(seed_text("task_exception_glued.log"))
    assert [r.src_line for r in records] == [908, 771, 704]
    assert records[0].message.endswith("AlgType(level 0-1-2):[fullmesh-ring-NHR].")
    assert records[1].message.endswith("user define information[], rankSize[4], rankId[2].")
    assert records[2].message.endswith("dst[0x12c0c0014000], dataType[float32].")


def test_roce_block_is_ten_roce_hccp_records_and_one_hccl() -> None:
    records = parse(seed_text("roce_error_cqe_glued.log"))
    assert [r.module for r in records] == ["ROCE"] * 9 + ["HCCP", "HCCL"]
    assert records[0].message == "hns_roce_lite_handle_error_cqe(630) : error cqe status: 0x15"
    assert records[8].message == "dump_err_cqe(747) : CQ(0x10) CQE(0x5) INDEX(0x00000007): 0x00000000"
    assert records[9].message == "ra_hdc_lite_period_poll_cqe : [create][ra_hdc_period_poll]failed CQE status[12], wr[0]"


def test_grep_output_keeps_plog_file_names() -> None:
    records = parse(seed_text("grep_entry_comm_init_glued.log"))
    assert [r.origin.named_file for r in records] == [
        "run/plog/plog-2111667_20251024111652406.log",
        "run/plog/plog-2111668_20251024111652406.log",
        "run/plog/plog-2111665_20251024111652405.log",
        "run/plog/plog-2111666_20251024111652405.log",
    ]
    assert records[0].message.endswith("deviceLogicId[2]")
    assert not any("run/plog" in r.message for r in records)


def test_rank_labels_name_each_records_rank() -> None:
    records = parse(seed_text("rank_labels_op_mismatch_glued.log"))
    assert [r.origin.rank for r in records] == [0, 0, 0, 1, 1, 1]
    assert "tag[AllGather_" in records[3].message


def test_screen_errors_keep_their_title_in_the_message() -> None:
    (sdma,) = parse(seed_text("screen_sdma_ei0012.log"))
    assert sdma.kind is RecordKind.SCREEN and sdma.error_code == "EI0012"
    assert sdma.message.endswith("Communicator information: [group:[], user define information[], rankSize[0], rankId[0]].")
    (roce,) = parse(seed_text("screen_roce_cqe_ei0013.log"))
    assert roce.message.startswith("Execution Error ROCE CQE(EI0013): An error CQE occurred")


def test_article_prose_around_the_logs_is_text() -> None:
    text = (
        "日志示例如下：\n\n"
        + seed_text("heartbeat_abnormal_info.log")
        + "\n检索结果如下所示：\n"
        + "grep -r \"Entry-\" run/plog/ | grep \"127.10.0.1%enp_60000_0_1761275812718970\"\n"
        + "$ hccn_tool -i 0 -link_stat -g [devid 0]current time : Tue Oct 28 21:46:46 2025\n"
        + "```bash\nexport LCCL_DETERMINISTIC=1\n```\n"
    )
    records = parse(text)
    assert [r.kind for r in records] == [RecordKind.TEXT, RecordKind.PLOG] + [RecordKind.TEXT] * 4
    assert records[0].message == "日志示例如下:"
    assert records[-1].message == "export LCCL_DETERMINISTIC=1"
    assert [r.origin.line for r in records] == [1, 3, 5, 6, 7, 9]
