"""Directories, archives and odd files: what is read, what is skipped and why."""

from __future__ import annotations

import gzip
import io
import os
import tarfile
import zipfile
from pathlib import Path

from faultbot.ingest import LogPath, Paste, RecordKind, Stdin
from tests.ingest.helpers import read_all, seed_text

PLOG = seed_text("heartbeat_lost.log")
ROCE = seed_text("roce_error_cqe_glued.log")


def _tar(members: dict[str, bytes], mode: str = "w:gz") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    return root


def test_cann_log_tree_with_node_directories(tmp_path: Path) -> None:
    root = _tree(tmp_path / "logs", {
        "node-1/log/run/plog/plog-835695_20251023172806.log": PLOG.encode(),
        "node-1/log/debug/plog/plog-835695_20251023172806.log": ROCE.encode(),
        "node-2/log/debug/device-3/device-835695_20251023172806.log": PLOG.encode(),
        "rank_5.log": b"plain text from rank five\n",
    })
    records, reader = read_all(LogPath(root))
    by_source = {}
    for record in records:
        by_source.setdefault(record.origin.source, []).append(record)
    assert list(by_source) == [
        str(root / "rank_5.log"),
        str(root / "node-1/log/debug/plog/plog-835695_20251023172806.log"),
        str(root / "node-1/log/run/plog/plog-835695_20251023172806.log"),
        str(root / "node-2/log/debug/device-3/device-835695_20251023172806.log"),
    ]
    assert len(by_source[str(root / "node-1/log/debug/plog/plog-835695_20251023172806.log")]) == 11
    origins = {(r.origin.node, r.origin.rank, r.origin.device) for r in records}
    assert origins == {(None, 5, None), ("node-1", None, None), ("node-2", None, 3)}
    stats = reader.stats
    assert (stats.files, stats.records, stats.skipped) == (4, len(records), ())
    assert stats.bytes_read == 2 * len(PLOG.encode()) + len(ROCE.encode()) + 26


def test_nested_archives_are_streamed(tmp_path: Path) -> None:
    inner = _tar({"log/run/plog/plog-1.log": PLOG.encode()})
    zipped = io.BytesIO()
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("node-4/log/run/plog/plog-2.log", ROCE)
    outer = _tar({"node-3.tar.gz": inner, "more.zip": zipped.getvalue(), "notes.txt.gz": gzip.compress(b"hello\n")})
    path = tmp_path / "bundle.tgz"
    path.write_bytes(outer)
    records, reader = read_all(LogPath(path))
    sources = sorted({(r.origin.source, r.origin.node) for r in records})
    assert sources == [
        (f"{path}!more.zip!node-4/log/run/plog/plog-2.log", "node-4"),
        (f"{path}!node-3.tar.gz!log/run/plog/plog-1.log", "node-3"),
        (f"{path}!notes.txt.gz", None),
    ]
    assert reader.stats.files == 3 and len(records) == 13


def test_archive_on_stdin(tmp_path: Path) -> None:
    data = _tar({"a/plog-1.log": PLOG.encode()})
    records, reader = read_all(Stdin(io.BytesIO(data)))
    assert [r.origin.source for r in records] == ["<stdin>!a/plog-1.log"]
    assert records[0].kind is RecordKind.PLOG


def test_binary_files_are_skipped_with_a_reason(tmp_path: Path) -> None:
    root = _tree(tmp_path / "t", {
        "core.bin": b"\x7fELF\x00\x00",
        "weights.pt": b"anything",
        "dump.dat": b"abc\x00def" * 10,
        "utf16.log": "日志\n".encode("utf-16"),
        "ok.log": b"fine\n",
    })
    records, reader = read_all(LogPath(root))
    assert [r.message for r in records] == ["fine", "日志"]
    reasons = {Path(s.name).name: s.reason for s in reader.stats.skipped}
    assert reasons == {
        "core.bin": "binary file type (.bin)",
        "dump.dat": "binary: NUL bytes in the first 8192 bytes",
        "weights.pt": "binary file type (.pt)",
    }


def test_symlink_loops_and_duplicate_links_terminate(tmp_path: Path) -> None:
    root = _tree(tmp_path / "t", {"a/plog.log": PLOG.encode()})
    os.symlink(root, root / "a" / "loop")
    os.symlink(root / "a" / "plog.log", root / "same.log")
    os.symlink(root / "missing", root / "broken.log")
    records, reader = read_all(LogPath(root))
    assert len(records) == 1
    reasons = sorted(s.reason for s in reader.stats.skipped)
    assert reasons[0] == "broken symlink"
    assert reasons[1] == "directory already read (symlink loop or second link)"
    assert reasons[2].startswith("same file as ")


def test_undecodable_bytes_are_counted(tmp_path: Path) -> None:
    path = tmp_path / "bad.log"
    path.write_bytes(PLOG.encode() + b"tail \xff\x80\xff end\n")
    records, reader = read_all(LogPath(path))
    assert reader.stats.replaced_bytes == 3
    assert records[-1].message == "tail \ufffd\ufffd\ufffd end"


def test_corrupt_gzip_keeps_what_was_read(tmp_path: Path) -> None:
    data = gzip.compress((PLOG * 200).encode())
    path = tmp_path / "cut.log.gz"
    path.write_bytes(data[: len(data) // 2])
    records, reader = read_all(LogPath(path))
    assert records and all(r.kind is RecordKind.PLOG for r in records)
    (problem,) = reader.stats.skipped
    assert problem.name == str(path) and problem.reason.startswith("partly read: ")


def test_missing_path_and_unreadable_archive(tmp_path: Path) -> None:
    broken = tmp_path / "broken.tar"
    broken.write_bytes(_tar({"x.log": b"x\n"}, mode="w")[:700])
    _, reader = read_all(LogPath(tmp_path / "nope.log"), LogPath(broken))
    reasons = [s.reason for s in reader.stats.skipped]
    assert reasons[0].startswith("cannot open")
    assert any(reason.startswith(("archive read stopped", "partly read")) for reason in reasons[1:])


def test_stats_snapshot_is_immutable_and_rereading_restarts(tmp_path: Path) -> None:
    records, reader = read_all(Paste(PLOG), Paste("x\ny\n", name="<second>"))
    stats = reader.stats
    assert (stats.records, stats.files) == (3, 2)
    assert list(reader.records()) == records
    assert reader.stats == stats
