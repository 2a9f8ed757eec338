"""What log paths say about node, rank and device."""

from __future__ import annotations

import pytest

from faultbot.ingest.pathinfo import PathHints, hints_from_path


@pytest.mark.parametrize(
    ("path", "hints"),
    [
        ("logs/node-3/log/run/plog/plog-1071_20251024.log", PathHints(node="node-3")),
        ("logs/node3/ascend/log/debug/plog/plog-1_2.log", PathHints(node="node3")),
        ("worker-1/log/run/plog/plog-1.log", PathHints(node="worker-1")),
        ("host-10-0-0-1/plog.log", PathHints(node="host-10-0-0-1")),
        ("10.0.0.7/log/plog.log", PathHints(node="10.0.0.7")),
        ("job/rank-5.txt", PathHints(rank=5)),
        ("job/rank_5.log", PathHints(rank=5)),
        ("job/rank5/stdout.log", PathHints(rank=5)),
        ("job/train_rank3.log", PathHints(rank=3)),
        ("job/ranktable.json", PathHints()),
        ("log/debug/device-2/device-2111668_20251024111652406.log", PathHints(device=2)),
        ("node-1.tar.gz!log/debug/device-3/device-1_2.log", PathHints(node="node-1", device=3)),
        ("<paste>", PathHints()),
        ("", PathHints()),
    ],
)
def test_hints_from_path(path: str, hints: PathHints) -> None:
    assert hints_from_path(path) == hints
