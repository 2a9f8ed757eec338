"""`faultbot diagnose TREE` on generated clusters (4 nodes x 8 ranks, INFO noise): each fault names the
rank the generator planted it on and the KB's conclusion, in JSON and in text, and the two agree."""

from __future__ import annotations

import pytest

from .conftest import Scenarios, cluster_tree

# scenario -> (the engine's conclusion, the kinds of reason the first suspect must carry)
EXPECTED = {
    "process-exit": ("hccl.heartbeat.lost", {"heartbeat", "silent"}),
    "stuck": ("hccl.heartbeat.stuck", {"heartbeat", "silent"}),
    "network-flap": ("hccl.roce-cqe.link-flap", {"heartbeat", "link"}),
    "op-mismatch": ("hccl.notify-timeout.op-mismatch", {"op-mismatch"}),
    "slow-rank": ("hccl.notify-timeout.exec-timeout-gap", {"late-rank"}),
    "comm-destroyed": ("hccl.sdma-error.comm-destroyed", {"earliest-error", "destroyed-early"}),
}


@pytest.mark.parametrize("name", EXPECTED)
def test_json_names_the_planted_rank_and_the_conclusion(scenarios: Scenarios, name: str) -> None:
    done = scenarios.diagnosed(name)
    conclusion, kinds = EXPECTED[name]
    assert done.code == 0
    assert done.report["conclusions"][0]["id"] == conclusion
    cluster = done.report["cluster"]
    assert (cluster["ranks"], len(cluster["nodes"])) == (32, 4)
    assert tuple(s["rank"] for s in cluster["suspects"]) == done.suspects
    first = cluster["suspects"][0]
    assert first["node"] == f"node-{done.suspects[0] // 8}"
    assert kinds <= {reason["kind"] for reason in first["reasons"]}
    assert all(reason["text"] for reason in first["reasons"])


@pytest.mark.parametrize("name", EXPECTED)
def test_text_shows_the_suspect_then_the_conclusion_then_the_table_and_timeline(scenarios: Scenarios,
                                                                                name: str) -> None:
    """Answer first (issue 14): the suspect and the conclusion with its workaround on the first
    screen, the table of ranks, the timeline and every suspect's reasons after."""
    done = scenarios.diagnosed(name)
    suspect = done.suspects[0]
    text = done.text
    headline = f"**Suspect: rank {suspect} (node-{suspect // 8})**"
    assert text.startswith("# Cluster: 32 ranks on 4 node(s)")
    assert headline in text
    assert f"**{suspect % 8 if name == 'comm-destroyed' else suspect}** ◀ suspect" in text
    assert "## Timeline of first errors" in text
    assert text.index(headline) < text.index(f"`{EXPECTED[name][0]}`") < text.index("## Suspect ranks")
    first_screen = "\n".join(text.splitlines()[:25])
    assert headline in first_screen and f"`{EXPECTED[name][0]}`" in first_screen


@pytest.mark.parametrize("name", EXPECTED)
def test_the_suspect_agrees_with_the_engine(scenarios: Scenarios, name: str) -> None:
    """The heartbeat's crimer is the first suspect; without one, the rank behind the engine's
    derived fact is: the latest reporter for a timeout gap, the odd op for a mismatch."""
    done = scenarios.diagnosed(name)
    facts, cluster = done.report["facts"], done.report["cluster"]
    first = cluster["suspects"][0]
    if "crimer_rank" in facts:
        planted = cluster_tree.Rank(first["rank"] // 8, first["rank"] % 8, first["rank"], 32, 8)
        assert facts["crimer_rank"]["value"] in (planted.heartbeat_id, planted.device_ip)
    if name == "slow-rank":
        assert facts["error_time_spread_s"]["value"] > facts["exec_timeout_max_s"]["value"] == 300
        assert cluster["timeline"][-1]["rank"] == first["rank"]
    if name == "op-mismatch":
        assert facts["ops_differ_in_group"]["value"] is True
        assert first["first_error"]["op"] == "AllGather"


def test_a_healthy_run_has_no_conclusion_and_no_suspect(scenarios: Scenarios) -> None:
    done = scenarios.diagnosed("healthy")
    assert done.code == 1
    assert done.report["conclusions"] == []
    cluster = done.report["cluster"]
    assert cluster["suspects"] == [] and cluster["findings"] == [] and cluster["timeline"] == []
    assert {r["status"] for c in cluster["communicators"] for r in c["ranks"]} == {"ok"}
    assert all(r["last_op"] for c in cluster["communicators"] for r in c["ranks"])
    assert "**No rank reported an error.**" in done.text
    assert "Not in my knowledge base" in done.text


def test_network_flap_names_both_ends_of_the_link(scenarios: Scenarios) -> None:
    cluster = scenarios.diagnosed("network-flap").report["cluster"]
    link = next(f for f in cluster["findings"] if f["kind"] == "link")
    assert {r["rank"] for r in link["ranks"]} == {19, 11}
    assert {r["node"] for r in link["ranks"]} == {"node-1", "node-2"}


def test_the_exited_rank_is_silent_in_its_communicators_and_the_others_time_out(scenarios: Scenarios) -> None:
    cluster = scenarios.diagnosed("process-exit").report["cluster"]
    world = next(c for c in cluster["communicators"] if c["name"] == cluster["world"])
    statuses = {r["rank"]: r["status"] for r in world["ranks"]}
    assert statuses.pop(21) == "silent"
    assert set(statuses.values()) == {"timeout"}
    assert world["size"] == 32 and world["missing_ranks"] == []
    events = next(r for r in world["ranks"] if r["rank"] == 0)["heartbeat_events"]
    assert events[0]["status"] == "LOST" and events[0]["blames"] == "10.0.0.3/21"


def test_comm_destroyed_early_shows_the_destroy_before_the_sdma_error(scenarios: Scenarios) -> None:
    done = scenarios.diagnosed("comm-destroyed")
    reason = next(r for r in done.report["cluster"]["suspects"][0]["reasons"] if r["kind"] == "destroyed-early")
    assert "AllGather_group_name_1" in reason["text"] and "before its last op completed" in reason["text"]
    assert done.report["facts"]["comm_destroyed_before_sync"]["value"] is True


def test_the_heartbeat_reason_says_the_kb_s_priority(scenarios: Scenarios) -> None:
    first = scenarios.diagnosed("stuck").report["cluster"]["suspects"][0]
    heartbeat = [reason["text"] for reason in first["reasons"] if reason["kind"] == "heartbeat"]
    assert heartbeat and "by priority ERROR CQE > STUCK > LOST" in heartbeat[0]
