"""Damaged copies of the seed examples give the same records as the originals."""

from __future__ import annotations

import codecs
import gzip
import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from faultbot.ingest import LogPath, RecordKind
from tests.ingest import damage
from tests.ingest.helpers import parse, read_all, seed_names, seed_text, signature

ALL_EXAMPLES = "\n".join(seed_text(name).strip() for name in seed_names())
LEAD_IN = "报错如下：请帮忙看下【紧急】"


def signatures(text: str) -> list[tuple]:
    return [signature(record) for record in parse(text)]


@pytest.mark.parametrize("kind", sorted(damage.TEXT_DAMAGE))
@pytest.mark.parametrize("name", seed_names())
def test_damaged_example_gives_same_records(name: str, kind: str) -> None:
    text = seed_text(name)
    assert signatures(damage.TEXT_DAMAGE[kind](text)) == signatures(text)


@pytest.mark.parametrize("kind", sorted(damage.TEXT_DAMAGE))
def test_damaged_collection_gives_same_records(kind: str) -> None:
    assert signatures(damage.TEXT_DAMAGE[kind](ALL_EXAMPLES)) == signatures(ALL_EXAMPLES)


@pytest.mark.parametrize("width", [60, 64, 72, 79, 80, 81, 100, 120, 132, 160, 200, 237, 1000])
def test_any_terminal_width_is_unwrapped(width: int) -> None:
    wrapped = parse(damage.wrap(ALL_EXAMPLES, width))
    original = parse(ALL_EXAMPLES)
    assert [signature(r) for r in wrapped] == [signature(r) for r in original]
    assert [(r.origin.rank, r.origin.named_file) for r in wrapped] == [
        (r.origin.rank, r.origin.named_file) for r in original
    ]


def test_wrapped_record_keeps_first_line_number_and_notes_it() -> None:
    records = parse("报错：\n" + damage.wrap(seed_text("heartbeat_lost.log"), 80))
    assert records[1].origin.line == 2
    assert "wrapped" in records[1].notes


@pytest.mark.parametrize(
    ("label", "rank", "node", "worker"),
    [
        ("[rank3]: ", 3, None, None),
        ("rank3: ", 3, None, None),
        ("[1,3]<stderr>:", 3, None, None),
        ("worker-1: ", None, "worker-1", None),
        ("worker-1: [rank3]: ", 3, "worker-1", None),
        ("(Worker_TP3 pid=1071) ERROR 07-21 06:27:44 [multiproc_executor.py:962] ", None, None, "Worker_TP3"),
        ("(RayWorkerWrapper pid=12, ip=10.0.0.7) ", None, "10.0.0.7", "RayWorkerWrapper"),
    ],
)
@pytest.mark.parametrize(
    "name", ["task_exception_glued.log", "roce_error_cqe_glued.log", "screen_sdma_ei0012.log"]
)
def test_launcher_prefixes_are_stripped_and_remembered(
    name: str, label: str, rank: int | None, node: str | None, worker: str | None
) -> None:
    text = seed_text(name)
    records = parse(damage.prefix(text, label))
    assert [signature(r) for r in records] == signatures(text)
    assert {(r.origin.rank, r.origin.node, r.origin.worker) for r in records} == {(rank, node, worker)}


def test_truncated_first_and_last_records_keep_what_is_known() -> None:
    text = seed_text("fftsplus_sdma_glued.log").strip()
    original = parse(text)
    last_start = text.rindex("[ERROR] HCCL(57096")
    cut = text[30:last_start + len("[ERROR] HCCL(57096,pyth")]
    records = parse(cut)
    assert [signature(r) for r in records[1:-1]] == [signature(r) for r in original[1:-1]]

    first, last = records[0], records[-1]
    assert first.kind is RecordKind.PLOG and "truncated" in first.notes
    assert (first.timestamp, first.src_file, first.src_line, first.tid, first.message) == (
        original[0].timestamp, "task_info.cc", 1170, 57288, original[0].message)
    assert first.pid is None and first.level is None

    assert last.kind is RecordKind.PLOG and "truncated" in last.notes
    assert (last.level, last.module, last.pid, last.process, last.timestamp) == ("ERROR", "HCCL", 57096, None, None)
    assert last.message == ""


def test_header_cut_inside_the_level_still_yields_records() -> None:
    text = seed_text("task_exception_glued.log").strip()
    records = parse(text[3:])  # "OR] HCCL(2111667,all_reduce_test):2025-10-24-11:18:29.597.044 [task_..."
    assert len(records) == 3
    assert (records[0].module, records[0].pid, records[0].process) == ("HCCL", 2111667, "all_reduce_test")
    assert records[0].timestamp == parse(text)[0].timestamp
    assert "truncated" in records[0].notes


def test_lead_in_text_becomes_its_own_record() -> None:
    records = parse(LEAD_IN + seed_text("task_exception_glued.log"))
    assert records[0].kind is RecordKind.TEXT and records[0].message == "报错如下:请帮忙看下[紧急]"
    assert [signature(r) for r in records[1:]] == signatures(seed_text("task_exception_glued.log"))


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _tar_gz(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


FILE_DAMAGE = {
    "gbk": lambda text: (LEAD_IN + "\n" + text).encode("gbk"),
    "gb18030": lambda text: (LEAD_IN + "\n" + text).encode("gb18030"),
    "utf16_bom": lambda text: (LEAD_IN + "\n" + text).encode("utf-16"),
    "utf8_bom": lambda text: codecs.BOM_UTF8 + (LEAD_IN + "\n" + text).encode("utf-8"),
    "gzip": lambda text: gzip.compress((LEAD_IN + "\n" + text).encode("utf-8")),
    "tar_gz": lambda text: _tar_gz({"log/run/plog/plog-1.log": (LEAD_IN + "\n" + text).encode("utf-8")}),
    "zip": lambda text: _zip({"log/run/plog/plog-1.log": (LEAD_IN + "\n" + text).encode("utf-8")}),
    "gbk_in_zip": lambda text: _zip({"plog-1.log": (LEAD_IN + "\n" + text).encode("gbk")}),
}


@pytest.mark.parametrize("kind", sorted(FILE_DAMAGE))
def test_encoded_and_packed_files_give_same_records(tmp_path: Path, kind: str) -> None:
    path = _write(tmp_path / "bundle", FILE_DAMAGE[kind](ALL_EXAMPLES))
    records, reader = read_all(LogPath(path))
    assert records[0].message == "报错如下:请帮忙看下[紧急]"
    assert [signature(r) for r in records[1:]] == signatures(ALL_EXAMPLES)
    assert reader.stats.replaced_bytes == 0
    assert reader.stats.skipped == ()
    encodings = {"gbk": "gb18030", "gb18030": "gb18030", "gbk_in_zip": "gb18030", "utf16_bom": "utf-16-le"}
    assert [encoding for _, encoding in reader.stats.decoded_as] == (
        [encodings[kind]] if kind in encodings else [])
