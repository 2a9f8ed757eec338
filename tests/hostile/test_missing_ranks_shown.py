"""Ranks that left no logs past the listing's bound are not dropped from the output: comm-init lines
claiming 131,072 ranks in each of 20 communicators list the first ranks without logs, and both the
text and the JSON of ``diagnose`` say how many more there are. A claim of more ranks than that (a
corrupt size, or 2**40) is listed as far and counted exactly, in the same time and memory."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from faultbot.cluster.communicators import MAX_MISSING_LISTED
from tests.hostile import generate as g

RANKS, GROUPS = 131072, 20
MISSING = RANKS - 2            # two processes, each one rank of every communicator


def _diagnose(tmp_path: Path, output: str, ranks: int = RANKS) -> g.Run:
    log = g.comm_init_claims(tmp_path, ranks=ranks, groups=GROUPS)
    run = g.run_faultbot("diagnose", "--no-ask", "--format", output, "--full", log, peak_file=tmp_path / "peak")
    g.assert_bounded(run)
    return run


@pytest.mark.parametrize("ranks", [RANKS, RANKS + 1, 1 << 40])
def test_json_counts_the_missing_ranks_it_does_not_list(tmp_path: Path, ranks: int) -> None:
    comms = _diagnose(tmp_path, "json", ranks).json()["cluster"]["communicators"]
    assert len(comms) == GROUPS
    assert all(c["size"] == ranks and len(c["missing_ranks"]) + c["missing_unlisted"] == ranks - 2 for c in comms)
    assert sum(len(c["missing_ranks"]) for c in comms) == MAX_MISSING_LISTED
    assert comms[0]["missing_ranks"][:3] == [2, 3, 4]


def test_text_says_how_many_more_ranks_are_missing(tmp_path: Path) -> None:
    text = _diagnose(tmp_path, "markdown").stdout
    # the world, whose first missing ranks are listed as a row of the table, then communicators listing none
    assert f"*… and {MISSING - MAX_MISSING_LISTED:,} more ranks missing (no logs), not listed.*" in text
    assert f"| 2–{MAX_MISSING_LISTED + 1} | — | no logs | — | — |" in text
    assert len(re.findall(rf"^\*{MISSING:,} ranks missing \(no logs\), not listed\.\*$", text, re.M)) == 5
    assert "*14 other communicator(s) not shown (see `--format json`).*" in text
