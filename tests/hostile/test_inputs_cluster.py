"""Comm-init lines that claim huge communicators: a few KB saying that 131,072 ranks of each of 20
communicators left no logs. The ranks listed without logs are bounded over all communicators
together, the rest counted, and the run stays bounded in time and memory."""

from __future__ import annotations

from pathlib import Path

from faultbot.cluster.communicators import MAX_MISSING_LISTED, communicators
from faultbot.cluster.identity import Identities, Membership, ProcessKey, RankInfo
from tests.hostile import generate as g


def test_missing_ranks_of_claimed_communicators_stay_bounded(tmp_path: Path) -> None:
    log = g.comm_init_claims(tmp_path, ranks=131072, groups=20)
    assert log.stat().st_size < 16 << 10
    run = g.run_faultbot("diagnose", "--no-ask", "--format", "json", log, peak_file=tmp_path / "peak")
    g.assert_bounded(run)
    comms = run.json()["cluster"]["communicators"]
    assert len(comms) == 20 and all(comm["size"] == 131072 for comm in comms)
    assert sum(len(comm["missing_ranks"]) for comm in comms) == MAX_MISSING_LISTED


def test_missing_ranks_past_the_bound_are_counted() -> None:
    def process(pid: int, groups: int) -> RankInfo:
        memberships = tuple(Membership(f"group-{n}", pid, 100_000, 0) for n in range(groups))
        return RankInfo(ProcessKey("node", pid), memberships, pid, None, None)

    ranks = {info.key: info for info in (process(0, 3), process(1, 3))}
    comms = communicators(Identities.indexed(ranks, "group-0", {}))
    assert [len(comm.missing) for comm in comms] == [MAX_MISSING_LISTED, 0, 0]
    assert comms[0].missing[:2] == (2, 3)
    assert [comm.missing_unlisted for comm in comms] == [99_998 - MAX_MISSING_LISTED, 99_998, 99_998]
