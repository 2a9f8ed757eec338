"""Hostile log inputs, made on demand in a test's tmp_path: archives that lie about their sizes or
nest without end, lines without end, floods of evidence, files that are not files, encodings and
file names that are not UTF-8. Nothing big is committed; each maker writes its input and returns
its path. ``run_faultbot`` runs ``python -m faultbot`` on one as a user would, and measures it.

    python -m tests.hostile.generate DIR    # every input, at its test size, into DIR (to try by hand)
"""

from __future__ import annotations

import gzip
import io
import json
import os
import struct
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]

# An error a KB entry knows (hccl.notify-timeout), as a CANN plog prints it.
NOTIFY_TIMEOUT = (
    "[ERROR] HCCL({pid},python):2025-10-24-11:18:29.{ms:03d}.902 [task_exception_handler.cc:908] [{pid}]"
    "[TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[{stream}], taskID[{task}], "
    "tag[AllReduce_10.0.0.1%eth0_60000_0_1761275812718970], AlgType(level 0-1-2):[fullmesh-ring-NHR]."
)
SCREEN_EI0002 = (
    "EI0002: [PID: 2111665] 2025-10-24-11:18:29.511.902 The wait execution of the Notify register times out. "
    "Reason: The Notify register has not received the Notify record from remote rank: [1]."
)
COMM_INIT = (
    "[INFO] HCCL({pid},python):2025-10-24-11:16:52.721.510 [op_base.cc:1292] [{pid}]Entry-HcclCommInitRootInfoInner:"
    "ranks[{ranks}], rank[{rank}], rootinfo: host ip[10.0.0.1] port[60000] nicDeploy[1] identifier[{group}], "
    "deviceLogicId[0]"
)


def notify_timeout(pid: int = 2111665, stream: int = 2, task: int = 21, ms: int = 0) -> str:
    return NOTIFY_TIMEOUT.format(pid=pid, stream=stream, task=task, ms=ms % 1000)


def _write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _tar_end(data: bytes) -> bytes:
    """``data`` padded to a tar block, then the two zero blocks that end an archive."""
    return data + b"\0" * (-len(data) % 512) + b"\0" * 1024


def tar_claiming_huge_member(directory: Path) -> Path:
    """A tar of a few hundred bytes whose one member's header claims 2**62 bytes (GNU base-256 size)."""
    info = tarfile.TarInfo("log/plog-1.log")
    info.size = 2 ** 62
    body = (notify_timeout() + "\n").encode()
    return _write(directory / "huge-claim.tar", _tar_end(info.tobuf(format=tarfile.GNU_FORMAT) + body))


def _tar_bytes(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.GNU_FORMAT) as archive:
        for name, content in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(content)
            archive.addfile(info, io.BytesIO(content))
    return buffer.getvalue()


def tar_with_corrupt_header(directory: Path) -> Path:
    """Three members; the second one's header is damaged (its checksum no longer adds up)."""
    first = (notify_timeout() + "\n").encode()
    data = bytearray(_tar_bytes({"a.log": first, "b.log": b"second\n", "c.log": b"third\n"}))
    second_header = 512 + len(first) + (-len(first) % 512)
    data[second_header:second_header + 8] = b"garbage!"
    return _write(directory / "corrupt-header.tar", bytes(data))


def one_long_line(directory: Path, unit: str, size: int, name: str = "long-line.log") -> Path:
    """One line of ``size`` bytes made of ``unit`` over and over, no newline anywhere."""
    return _write(directory / name, (unit * (size // len(unit) + 1)).encode()[:size])


def codes_on_one_line(directory: Path, count: int, distinct: bool = True) -> Path:
    """An error record naming ``count`` error codes on its one line (distinct ones, or EI0002 again and again)."""
    codes = " ".join(f"E{letter}{number:04d}" for letter, number in
                     ((chr(ord("A") + n // 10000 % 26), n % 10000) for n in range(count))) if distinct \
        else " ".join(["EI0002"] * count)
    return _write(directory / "codes.log", f"{SCREEN_EI0002} {codes}\n".encode())


def fifo(directory: Path, name: str = "pipe.log") -> Path:
    path = directory / name
    os.mkfifo(path)
    return path


def gzip_flood(directory: Path, lines: int, near_identical: bool) -> Path:
    """A gzip of ``lines`` notify-timeout errors: the same line again and again, or lines that differ
    in the facts they give (stream, task id, pid), as a flood of near-identical errors does."""
    def line(n: int) -> str:
        if not near_identical:
            return notify_timeout()
        return notify_timeout(pid=1000 + n % 997, stream=n % 64, task=n, ms=n)
    with gzip.open(directory / "flood.log.gz", "wb", compresslevel=9) as out:
        block = 10_000
        for start in range(0, lines, block):
            out.write("".join(line(n) + "\n" for n in range(start, min(lines, start + block))).encode())
    return directory / "flood.log.gz"


def gzip_bomb(directory: Path, size: int) -> Path:
    """A gzip that decompresses to ``size`` bytes of the same error line (about 200 times its size):
    one member for each MiB, all the same bytes, so that gigabytes are written in a moment."""
    line = (notify_timeout() + "\n").encode()
    block = line * ((1 << 20) // len(line))
    member = gzip.compress(block, compresslevel=9, mtime=0)
    with (directory / "bomb.log.gz").open("wb") as out:
        for _ in range(size // len(block)):
            out.write(member)
    return directory / "bomb.log.gz"


def comm_init_claims(directory: Path, ranks: int = 131072, groups: int = 20) -> Path:
    """Two processes' comm-init lines claiming ``ranks`` ranks in each of ``groups`` communicators:
    a few KB that say almost every rank of every group left no logs."""
    lines = [COMM_INIT.format(pid=pid, ranks=ranks, rank=pid - 100, group=f"10.0.0.1%eth0_6{group:04d}_0_17612758")
             for group in range(groups) for pid in (100, 101)]
    return _write(directory / "comm-init.log", ("\n".join(lines) + "\n").encode())


def nested_zips(directory: Path, depth: int, copies: int, inner: bytes) -> Path:
    """A zip of ``copies`` zips of ... (``depth`` levels, stored) of ``inner`` as a log."""
    data, name = inner, "plog.log"
    for level in range(depth):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
            for copy in range(copies):
                archive.writestr(f"{copy}-{name}", data)
        data, name = buffer.getvalue(), f"level{level}.zip"
    return _write(directory / "nested.zip", data)


def overlapping_zip(directory: Path, entries: int, inner: bytes, name: str = "overlap.zip") -> Path:
    """A stored zip whose ``entries`` directory entries all point at the one copy of ``inner``
    (a zip bomb's trick: nested, each level multiplies what is read)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr("inner.zip" if inner.startswith(b"PK") else "plog.log", inner)
    data = buffer.getvalue()
    end = data.rindex(b"PK\x05\x06")
    directory_size, directory_at = struct.unpack("<II", data[end + 12:end + 20])
    central = data[directory_at:directory_at + directory_size] * entries
    end_record = data[end:end + 8] + struct.pack("<HHII", entries, entries, len(central), directory_at) + b"\0\0"
    return _write(directory / name, data[:directory_at] + central + end_record)


def overlapping_zip_bomb(directory: Path, levels: int, entries: int) -> Path:
    """``levels`` overlapping zips, each holding the next ``entries`` times: entries**levels logs read
    if every entry is believed, from a file of a few KB."""
    data = (notify_timeout() + "\n").encode()
    for level in range(levels):
        data = overlapping_zip(directory, entries, data, f"level{level}.zip").read_bytes()
    return directory / f"level{levels - 1}.zip"


def nul_padded_log(directory: Path) -> Path:
    """A log whose head holds a run of NUL bytes, as a file preallocated or cut by a crash leaves it."""
    return _write(directory / "nul-padded.log", b"\0" * 4096 + (notify_timeout() + "\n").encode() * 3)


def utf16_without_bom(directory: Path, byte_order: str) -> Path:
    """A log in UTF-16 (``le`` or ``be``) without a byte-order mark."""
    text = f"{notify_timeout()}\n{SCREEN_EI0002}\n"
    return _write(directory / f"utf16{byte_order}.log", text.encode(f"utf-16-{byte_order}"))


def mixed_encodings(directory: Path) -> Path:
    """UTF-8 and GBK lines in one file (two programs wrote it, in two locales), and a stray binary byte."""
    data = ("训练开始 " + notify_timeout() + "\n").encode("utf-8") + "通信超时\n".encode("gbk") \
        + b"\xff\xfe\x00\x01 junk\n" + (SCREEN_EI0002 + " 中文\n").encode("utf-8")
    return _write(directory / "mixed.log", data)


GBK_NAME = "日志-节点1.log".encode("gbk")


def gbk_named_log(directory: Path) -> Path:
    """A log whose file name is GBK bytes (not valid UTF-8), as a Chinese-locale machine names it."""
    path = os.path.join(os.fsencode(directory), GBK_NAME)
    with open(path, "wb") as out:
        out.write((notify_timeout() + "\n").encode())
    return Path(os.fsdecode(path))


@dataclass(frozen=True)
class Run:
    """One run of faultbot: its exit code, output, wall time and peak memory."""

    returncode: int
    stdout: str
    stderr: str
    seconds: float
    peak_mb: float

    def json(self) -> dict:
        return json.loads(self.stdout)

    def skipped(self) -> dict[str, str]:
        """The notes of ``diagnose --format json``: input name -> reason (the last, for a name noted twice)."""
        return {item["name"]: item["reason"] for item in self.json()["input"]["skipped_files"]}


# Runs faultbot as ``python -m faultbot`` does, then writes its own peak memory (KiB) to a file.
# The child's own peak: Linux carries the forking parent's peak into ru_maxrss across exec (a
# large pytest process would be charged to faultbot), so VmHWM of the new address space is read first.
_MEASURED = """
import atexit, os, resource, runpy, sys
def _peak():
    try:
        with open("/proc/self/status") as status:
            peak = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except (OSError, StopIteration, ValueError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open(os.environ["FAULTBOT_TEST_PEAK"], "w") as out:
        out.write(str(peak))
atexit.register(_peak)
sys.argv[0] = "faultbot"
runpy.run_module("faultbot", run_name="__main__", alter_sys=True)
"""


def run_faultbot(*args: str | Path, peak_file: Path, timeout: float = 60, env: dict[str, str] | None = None,
                 stdin: int | None = subprocess.DEVNULL) -> Run:
    """``python -m faultbot ARGS`` in a child process of this repository's code, timed and measured;
    a child that outlives ``timeout`` fails the test (subprocess.TimeoutExpired) rather than hanging it."""
    environment = {**os.environ, "PYTHONPATH": str(REPOSITORY), "FAULTBOT_TEST_PEAK": str(peak_file),
                   "FAULTBOT_PAGER": "off", **(env or {})}
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", _MEASURED, *map(os.fsdecode, args)], capture_output=True,
                          timeout=timeout, env=environment, stdin=stdin, cwd=REPOSITORY, check=False)
    seconds = time.monotonic() - started
    peak_kb = int(peak_file.read_text()) if peak_file.exists() else 0
    return Run(done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace"),
               seconds, peak_kb / 1024)


MAX_SECONDS = 20
MAX_MEGABYTES = 200

_BARE_READ = """
import gzip, sys
with gzip.open(sys.argv[1]) as lines:
    for _ in lines:
        pass
"""


def bare_read_seconds(path: Path) -> float:
    """How long the bare interpreter takes to start, decompress ``path`` and step through its lines:
    this machine's pace in this run, against which a bound on faultbot's time over the same input is set."""
    started = time.monotonic()
    subprocess.run([sys.executable, "-c", _BARE_READ, os.fsdecode(path)], check=True, stdin=subprocess.DEVNULL)
    return time.monotonic() - started


def assert_bounded(run: Run, seconds: float = MAX_SECONDS, megabytes: float = MAX_MEGABYTES) -> None:
    """A run that ended as faultbot's runs may end: an exit code it documents, no traceback, in
    bounded time and memory."""
    assert run.returncode in (0, 1, 2), (run.returncode, run.stderr[-2000:])
    assert "Traceback" not in run.stderr, run.stderr[-4000:]
    assert run.seconds < seconds, f"took {run.seconds:.1f} s"
    assert 0 < run.peak_mb < megabytes, f"peak memory {run.peak_mb:.0f} MB"


def main(directory: str) -> None:
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    tar_claiming_huge_member(target)
    tar_with_corrupt_header(target)
    one_long_line(target, "a\\", 4 << 20)
    codes_on_one_line(target, 100_000)
    gzip_flood(target, 200_000, near_identical=True)
    comm_init_claims(target)
    nested_zips(target, 6, 4, (notify_timeout() + "\n").encode())
    overlapping_zip_bomb(target, 3, 1000)
    nul_padded_log(target)
    utf16_without_bom(target, "le")
    mixed_encodings(target)
    gbk_named_log(target)


if __name__ == "__main__":
    main(sys.argv[1])
