"""The on-disk cache of things faultbot builds from its knowledge base: build once, load in
milliseconds afterwards.

Each artifact is a pickle under ``$XDG_CACHE_HOME/faultbot`` (default ``~/.cache/faultbot``, or
``$FAULTBOT_CACHE``), named by what it is and a key that changes whenever its inputs do (the KB's
content digest, faultbot's own code, the matching engine). The cache only ever holds what this
user's faultbot wrote there; a missing, unreadable or read-only cache directory, or an artifact
that does not load, means building in memory as if there were no cache. ``FAULTBOT_CACHE=off``
turns it off.
"""

from __future__ import annotations

import functools
import hashlib
import os
import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from . import __version__

T = TypeVar("T")
OFF = "off"
# Artifacts of an older KB are left behind by every edit; past this many of one kind the oldest go.
KEEP_PER_KIND = 8


def cache_dir() -> Path | None:
    """Where artifacts live, or None when caching is off."""
    override = os.environ.get("FAULTBOT_CACHE")
    if override == OFF:
        return None
    if override:
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "faultbot"


@functools.cache
def code_signature() -> str:
    """faultbot's version and the size and time of each of its modules: an edited checkout never
    loads what its earlier code built."""
    digest = hashlib.sha256(__version__.encode())
    for folder, subfolders, names in os.walk(Path(__file__).parent):
        subfolders[:] = sorted(name for name in subfolders if name != "__pycache__")
        for name in sorted(names):
            if name.endswith(".py"):
                status = os.stat(os.path.join(folder, name))
                digest.update(f"{folder}/{name}\0{status.st_size}\0{status.st_mtime_ns}\n".encode("utf-8", "surrogateescape"))
    return digest.hexdigest()


def artifact_name(kind: str, *key: str) -> str:
    """``kind-<digest>.pickle``: the digest covers the key and faultbot's code."""
    digest = hashlib.sha256("\0".join((code_signature(), kind, *key)).encode("utf-8", "surrogatepass"))
    return f"{kind}-{digest.hexdigest()[:24]}.pickle"


def load(kind: str, *key: str) -> object | None:
    """The artifact stored under ``kind`` and ``key``, or None when there is none that loads."""
    directory = cache_dir()
    if directory is None:
        return None
    try:
        data = (directory / artifact_name(kind, *key)).read_bytes()
        return pickle.loads(data)
    except Exception:
        return None


def store(kind: str, value: object, *key: str) -> None:
    """Write the artifact atomically (a reader never sees half of it); failures are ignored."""
    directory = cache_dir()
    if directory is None:
        return
    import tempfile  # only when writing, which most runs never do

    partial = None
    try:
        directory.mkdir(parents=True, exist_ok=True)
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        descriptor, partial = tempfile.mkstemp(dir=directory, prefix=f".{kind}-")
        with os.fdopen(descriptor, "wb") as handle:
            handle.write(data)
        os.replace(partial, directory / artifact_name(kind, *key))
        partial = None
        _prune(directory, kind)
    except Exception:
        pass
    finally:
        if partial is not None:
            Path(partial).unlink(missing_ok=True)


def load_or_build(kind: str, key: tuple[str, ...], build: Callable[[], T]) -> T:
    """The cached artifact, else ``build()``'s result, stored for next time."""
    found = load(kind, *key)
    if found is not None:
        return found  # type: ignore[return-value]
    built = build()
    store(kind, built, *key)
    return built


def _prune(directory: Path, kind: str) -> None:
    artifacts = sorted(directory.glob(f"{kind}-*.pickle"), key=lambda p: p.stat().st_mtime, reverse=True)
    for stale in artifacts[KEEP_PER_KIND:]:
        stale.unlink(missing_ok=True)
