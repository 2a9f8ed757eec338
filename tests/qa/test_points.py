"""A section that makes several points under run-in heads is also searched point by point, each
point cited as its section; a question about one point is answered by it."""

from __future__ import annotations

import pytest

from faultbot.qa.answer import answer


@pytest.fixture(scope="module")
def points(index):
    return {p.ref: p for p in index.passages if "/" in p.ref}


def test_a_paragraph_s_point_holds_the_list_it_introduces_heads_included(points):
    dfx = points["hccl-task-execution-faults#overview/3"]
    assert dfx.title.endswith(": Two DFX (diagnosability) mechanisms")
    assert dfx.citation == "hccl-task-execution-faults#overview"
    assert "**Cluster heartbeat**" in dfx.text and "**Task exception information**" in dfx.text
    assert "**Cluster heartbeat**" in points["hccl-task-execution-faults#overview/4"].text


def test_a_list_item_s_point_ends_with_its_list(points):
    last_cause = points["hccl-task-execution-faults#sdma-causes/3"]
    assert last_cause.title.endswith(": Buffers too small for the count")
    assert "Command for cause 1" not in last_cause.text


def test_a_point_that_only_points_elsewhere_is_left_out(points):
    assert not [p for p in points.values() if p.text.endswith("See [find-group-ranks](#find-group-ranks).")]


def test_a_how_to_answered_by_a_point_brings_its_section_s_command(index):
    found = answer(index, "how do I find when the communicator was destroyed")
    assert found.text.startswith("- **The communicator was destroyed before the operator finished.**")
    assert 'grep -r "Entry-HcclCommDestroy" log/run/plog' in found.text
