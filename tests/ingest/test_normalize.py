"""Per-line clean-up and launcher prefixes."""

from __future__ import annotations

import pytest

from faultbot.ingest.lines import PhysicalLine
from faultbot.ingest.normalize import NO_LABELS, Labels, clean_line, clean_text, read_labels


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("\x1b[31m[ERROR]\x1b[0m HCCL\x1b[K", "[ERROR] HCCL"),
        ("\x1b]0;title\x07text", "text"),
        ("bell\x07 and nul\x00", "bell and nul"),
        ("报错如下：【ERROR】（１２３）；ｘ＝１｛ｙ｝", "报错如下:[ERROR](123);x=1{y}"),
        ("> quoted line", "quoted line"),
        ("> > nested", "nested"),
        (">>> import torch", ">>> import torch"),
        ("dst\\_addr \\[0x1\\] 2025\\-10 \\*", "dst_addr [0x1] 2025-10 *"),
        ("peer [10.0.0.1](http://10.0.0.1/) down", "peer 10.0.0.1 down"),
        ("peer [xx.xx.xx.199](https://xx.xx.xx.199) down", "peer xx.xx.xx.199 down"),
        ("see [docs](http://example.com/)", "see [docs](http://example.com/)"),
        ("```[ERROR] glued to a fence", "[ERROR] glued to a fence"),
        ("masked xx.xx.xx.199 and 10.*.*.*", "masked xx.xx.xx.199 and 10.*.*.*"),
    ],
)
def test_clean_text(raw: str, clean: str) -> None:
    assert clean_text(raw) == clean


@pytest.mark.parametrize("raw", ["", "   ", "```", "```bash", "  ~~~ ", "> ```text"])
def test_lines_with_nothing_left_are_dropped(raw: str) -> None:
    assert clean_line(PhysicalLine(1, raw)) is None


@pytest.mark.parametrize(
    ("raw", "labels", "body"),
    [
        ("[rank1]: x", Labels(rank=1), "x"),
        ("rank 12: x", Labels(rank=12), "x"),
        ("[3,7]<stdout>: x", Labels(rank=7), "x"),
        ("[default0]: x", Labels(worker="default0"), "x"),
        ("node-3: [rank5]: x", Labels(rank=5, node="node-3"), "x"),
        ("host-10-0-0-1: x", Labels(node="host-10-0-0-1"), "x"),
        ("(EngineCore_DP0 pid=88) INFO 07-21 06:27:44 [core.py:70] x", Labels(worker="EngineCore_DP0"), "x"),
        ("log/run/plog/plog-1_2.log:12:x", Labels(named_file="log/run/plog/plog-1_2.log"), "x"),
        ("RuntimeError: x", NO_LABELS, "RuntimeError: x"),
        ("master_addr: 10.0.0.1", NO_LABELS, "master_addr: 10.0.0.1"),
    ],
)
def test_prefix_labels(raw: str, labels: Labels, body: str) -> None:
    found, end = read_labels(raw)
    assert found == labels
    assert raw[end:].lstrip() == body


def test_indentation_is_measured_after_prefixes() -> None:
    line = clean_line(PhysicalLine(4, '    [rank1]:   File "a.py", line 1'))
    assert line is not None
    assert (line.lead, line.indent, line.body, line.labels.rank) == (4, 6, 'File "a.py", line 1', 1)


def test_labels_fall_back() -> None:
    assert Labels(rank=1).over(Labels(rank=2, node="n")) == Labels(rank=1, node="n")
