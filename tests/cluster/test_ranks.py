"""Rank identity and localisation on small hand-made logs: where each rank's identity comes from, and
the verdicts the scenario trees do not reach (mutual LOST, ranks in step, a tie, missing logs)."""

from __future__ import annotations

from datetime import datetime, timedelta

from faultbot.cluster.table import RowStatus
from faultbot.cluster.view import ClusterView, cluster_view
from faultbot.ingest.inputs import Paste
from faultbot.kb.loader import KnowledgeBase
from faultbot.session import DiagnosisSession

from .conftest import cluster_tree as tree

AT = datetime(2025, 10, 24, 11, 20, 0)
GROUP = "10.0.0.1%enp_60000_0_1761275812718970"


def rank(world: int, size: int = 4) -> tree.Rank:
    return tree.Rank(world // 2, world % 2, world, size, 2)


def plog(r: tree.Rank, *lines: tree.Line, size: int = 4) -> tuple[str, str]:
    init = tree.comm_init(r, AT - timedelta(minutes=5), GROUP, size, r.world, "10.0.0.1", 60000)
    return f"node-{r.node}/log/run/plog/plog-{r.pid}_1.log", "\n".join(text for _, _, text in (init, *lines))


def view_of(kb: KnowledgeBase, *files: tuple[str, str]) -> ClusterView | None:
    session = DiagnosisSession(kb)
    session.add_inputs([Paste(text, name=name) for name, text in files])
    return cluster_view(session.diagnose(), kb, session.engine.echo_entries)


def timeouts(r: tree.Rank, delay_s: float = 0, op: str = "AllReduce", size: int = 4) -> list[tree.Line]:
    return tree.task_exception(r, AT + timedelta(seconds=delay_s), op, GROUP, r.world, size)


def test_a_process_takes_its_rank_from_its_entry_line_and_screen_output_joins_it(kb: KnowledgeBase) -> None:
    ranks = [rank(n) for n in range(4)]
    output = ("[rank3]: step 10 loss 6.1\n[rank3]: Traceback (most recent call last):\n"
              "[rank3]: RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (EL0004)")
    screen = ("node-1/train_rank3.log", output)
    view = view_of(kb, *(plog(r, *timeouts(r)) for r in ranks), screen)
    assert view is not None and view.identities.world == GROUP
    by_rank = {info.world_rank: info for info in view.identities.ranks.values()}
    assert sorted(by_rank) == [0, 1, 2, 3]
    assert (by_rank[3].node, by_rank[3].pid) == ("node-1", ranks[3].pid)
    assert len(view.identities.ranks) == 4          # the screen log is rank 3's process, not a fifth rank


def test_task_exceptions_alone_give_the_rank(kb: KnowledgeBase) -> None:
    files = [(f"node-{r.node}/plog-{r.pid}.log", "\n".join(t for _, _, t in timeouts(r))) for r in map(rank, range(2))]
    view = view_of(kb, *files)
    assert view is not None
    assert sorted(i.world_rank for i in view.identities.ranks.values()) == [0, 1]


def test_mutual_lost_reports_point_at_the_link(kb: KnowledgeBase) -> None:
    a, b, c = rank(0), rank(2), rank(1)
    view = view_of(kb, plog(a, tree.heartbeat_event(a, AT, b, "LOST", a), *timeouts(a, 30)),
                   plog(b, tree.heartbeat_event(b, AT, a, "LOST", b), *timeouts(b, 30.2)),
                   plog(c, tree.heartbeat_event(c, AT, b, "LOST", a), *timeouts(c, 30.1)))
    assert view is not None
    link = next(f for f in view.findings if f.kind.value == "link")
    assert {view.identities.info(k).world_rank for k in link.ranks} == {0, 2}


def test_ranks_that_time_out_together_have_no_single_suspect(kb: KnowledgeBase) -> None:
    view = view_of(kb, *(plog(r, *timeouts(r, r.world * 0.1)) for r in map(rank, range(4))))
    assert view is not None and view.suspects == ()
    [finding] = view.findings
    assert finding.kind.value == "inconsistent" and "HCCL_ENTRY_LOG_ENABLE" in finding.reason


def test_two_ranks_in_different_ops_are_both_suspects(kb: KnowledgeBase) -> None:
    a, b = rank(0, 2), rank(1, 2)
    view = view_of(kb, plog(a, *timeouts(a, size=2), size=2), plog(b, *timeouts(b, 1, "AllGather", size=2), size=2))
    assert view is not None
    assert {view.identities.info(s.process).world_rank for s in view.suspects} == {0, 1}
    assert all(s.findings[0].kind.value == "op-mismatch" for s in view.suspects)


def test_a_rank_without_logs_is_listed_and_a_silent_one_is_suspected(kb: KnowledgeBase) -> None:
    """Of 4 ranks, rank 3 left no logs and rank 2 logged only its start: the other two timed out."""
    ranks = [rank(n) for n in range(3)]
    view = view_of(kb, plog(ranks[0], *timeouts(ranks[0])), plog(ranks[1], *timeouts(ranks[1], 0.5)),
                   plog(ranks[2]))
    assert view is not None
    statuses = {row.rank: row.status for row in view.rows if row.group == GROUP}
    assert statuses == {0: RowStatus.TIMEOUT, 1: RowStatus.TIMEOUT, 2: RowStatus.SILENT, 3: RowStatus.NO_LOGS}
    assert [view.identities.info(s.process).world_rank for s in view.suspects] == [2]


def test_one_rank_alone_is_not_a_cluster(kb: KnowledgeBase) -> None:
    assert view_of(kb, plog(rank(0), *timeouts(rank(0)))) is None
