"""What a knowledge base holds, as digests: the key its compiled form is cached under, and the
fingerprint facts files carry.

Reading every file to hash it costs more than loading the compiled KB, so the digests are
themselves cached under the files' names, sizes and modification times: a run that finds them
unchanged reads no KB file at all, and any edit (which changes a time) is hashed afresh.
"""

from __future__ import annotations

import hashlib
import os
import stat
import time
from functools import partial
from pathlib import Path

import msgspec

from .. import cache

KB_SUFFIXES = (".yaml", ".yml")
ARTICLE_SUFFIX = ".md"
# Larger files are refused by the loader; hashing their size and time is enough to notice edits.
MAX_HASHED_BYTES = 8 << 20
# A file changed this recently may change again within its time stamp's granularity (coarse on some
# file systems) without its time changing: such digests are not cached (git's "racily clean").
SETTLING_NS = 2_000_000_000


class KbDigest(msgspec.Struct, frozen=True):
    """Digests of a knowledge base's content."""

    content: str        # the KB's YAML files and the articles
    fingerprint: str    # "sha256:<16 hex>" of the KB's *.yaml files alone (see facts_file)


# One file as the listing sees it: (path, size, modification time in ns, a regular file).
_Listed = tuple[str, int, int, bool]


def list_files(folder: Path, suffixes: tuple[str, ...], recursive: bool) -> list[_Listed]:
    """Every file under ``folder`` (or in it) with one of ``suffixes``: a stat each, nothing read.
    Links to folders are not followed, and folders are walked without recursion, so neither a
    link loop nor folders nested thousands deep can stop it."""
    found: list[_Listed] = []
    pending = [str(folder)]
    while pending:
        try:
            with os.scandir(pending.pop()) as entries:
                listed = list(entries)
        except OSError:
            continue
        for item in listed:
            try:
                if item.is_dir(follow_symlinks=False):
                    if recursive:
                        pending.append(item.path)
                elif item.name.endswith(suffixes):
                    status = item.stat()
                    found.append((item.path, status.st_size, status.st_mtime_ns, stat.S_ISREG(status.st_mode)))
            except OSError:  # a broken link: the loader reports it
                found.append((item.path, -1, 0, False))
    return found


def _contents(listed: _Listed) -> bytes:
    path, size, mtime_ns, regular = listed
    if not regular or size > MAX_HASHED_BYTES:
        return f"<not hashed: {size} bytes, {mtime_ns}>".encode()
    try:
        with open(path, "rb") as handle:  # no more than the limit, whatever the size said (/proc files say 0)
            return handle.read(MAX_HASHED_BYTES + 1)
    except OSError as error:
        return f"<unreadable: {error.strerror}>".encode()


def _hashed(kb_dir: Path, kb_files: list[_Listed], articles_dir: Path, articles: list[_Listed]) -> KbDigest:
    content = hashlib.sha256()
    fingerprint = hashlib.sha256()
    for label, folder, files in (("kb", kb_dir, kb_files), ("articles", articles_dir, articles)):
        for listed in sorted(files, key=lambda item: Path(item[0])):
            shown = Path(listed[0]).relative_to(folder).as_posix().encode("utf-8", "surrogateescape")
            data = _contents(listed)
            content.update(f"{label}\0".encode() + shown + f"\0{len(data)}\0".encode() + data)
            if label == "kb" and listed[0].endswith(".yaml"):
                fingerprint.update(shown + b"\0" + data + b"\0")
    return KbDigest(content.hexdigest(), f"sha256:{fingerprint.hexdigest()[:16]}")


def kb_digest(kb_dir: Path, articles_dir: Path) -> KbDigest:
    """The digests of the KB in ``kb_dir`` with the articles in ``articles_dir``."""
    kb_files = list_files(kb_dir, KB_SUFFIXES, recursive=True)
    articles = list_files(articles_dir, (ARTICLE_SUFFIX,), recursive=False)
    listed = sorted(kb_files + articles)
    listing = hashlib.sha256(repr((str(kb_dir), str(articles_dir), listed)).encode("utf-8", "surrogateescape"))
    settled_before = time.time_ns() - SETTLING_NS
    digest = partial(_hashed, kb_dir, kb_files, articles_dir, articles)
    if any(mtime_ns > settled_before for _, _, mtime_ns, _ in listed):
        return digest()
    return cache.load_or_build("kb-digest", (listing.hexdigest(),), digest)
