"""What a log file's path says about where it was written: node (host directory), rank, and
NPU device (CANN's ``log/debug/device-<id>/``), by a table of path-component patterns."""

from __future__ import annotations

import re

import msgspec

# Archive members are named "bundle.tar.gz!node-3/log/run/plog/plog-1.log".
_SEPARATORS = re.compile(r"[/\\!]")
_ARCHIVE_SUFFIX = re.compile(r"(?:\.tar)?\.(?:gz|tgz|bz2|xz|zip|tar)$", re.IGNORECASE)

# Directory names that name a host: node-3, node3, worker-1, host-10-0-0-1, or a bare IP.
_NODE_DIR = re.compile(
    r"(?:node|worker|host|server|master)[-_.]?[A-Za-z0-9.-]*[0-9][\w.-]*|[0-9]{1,3}(?:[.-][0-9]{1,3}){3}",
    re.ASCII | re.IGNORECASE,
)
# rank-5.txt, rank_5.log, rank5/, train_rank3.log; not "ranktable".
_RANK = re.compile(r"(?:^|[^a-z])rank[-_]?(?P<rank>[0-9]{1,6})(?![0-9])", re.ASCII | re.IGNORECASE)
# CANN's debug log directory per device; device-<pid>_<time>.log files inside it carry a pid.
_DEVICE_DIR = re.compile(r"device[-_]?(?P<device>[0-9]{1,4})", re.ASCII)


class PathHints(msgspec.Struct, frozen=True):
    """What a file's path says about where its records come from: node, rank, device."""

    node: str | None = None
    rank: int | None = None
    device: int | None = None


NO_HINTS = PathHints()


def hints_from_path(path: str) -> PathHints:
    """The deepest component of each kind wins: it is closest to the file."""
    parts = [part for part in _SEPARATORS.split(path) if part]
    if not parts:
        return NO_HINTS
    directories, file_name = parts[:-1], parts[-1]
    node = rank = device = None
    for part in directories:
        name = _ARCHIVE_SUFFIX.sub("", part)
        if _NODE_DIR.fullmatch(name):
            node = name
        if match := _DEVICE_DIR.fullmatch(name):
            device = int(match.group("device"))
        if match := _RANK.search(name):
            rank = int(match.group("rank"))
    if match := _RANK.search(file_name):
        rank = int(match.group("rank"))
    return PathHints(node=node, rank=rank, device=device)
