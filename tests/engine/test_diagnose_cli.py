"""`faultbot diagnose` end to end: pasted logs in, JSON and text out, as scripts and engineers use it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from faultbot.kb.loader import load_kb
from faultbot.paths import default_articles_dir, default_kb_dir

from ..conftest import REPO_DIR

KB = load_kb(default_kb_dir(), default_articles_dir())
EXAMPLE = REPO_DIR / "examples" / "lccl-allreduce-vector-core-timeout.log"


def diagnose(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "faultbot", "diagnose", *args], input=stdin,
                          capture_output=True, text=True, timeout=120, cwd=REPO_DIR)


def diagnose_json(*args: str, stdin: str | None = None) -> tuple[int, dict]:
    done = diagnose(*args, "--format", "json", stdin=stdin)
    assert "Traceback" not in done.stderr
    return done.returncode, json.loads(done.stdout)


POSITIVE = [(entry, test) for entry in KB.entries for test in entry.tests if test.expect == entry.id]


@pytest.mark.parametrize("entry, test", POSITIVE, ids=[f"{e.id}: {t.name}" for e, t in POSITIVE])
def test_every_fault_is_diagnosed_end_to_end_from_a_paste(entry, test):
    answers = [f"--answer={fact}={value}" for fact, value in test.answers]
    code, out = diagnose_json("-", "--no-ask", *answers, stdin=test.log)
    assert code == 0
    assert out["schema"] == 1
    assert out["conclusions"][0]["id"] == entry.id
    assert out["conclusions"][0]["citations"][0]["url"].startswith("https://")


def test_lccl_without_a_version_asks_for_cann_version_first():
    code, out = diagnose_json(str(EXAMPLE), "--no-ask")
    assert code == 0
    assert out["questions"][0]["fact"] == "cann_version"
    assert "version.cfg" in " ".join(out["questions"][0]["how_to_find"])
    assert out["conclusions"][0]["status"] == "probable"


def test_lccl_on_8_0_rc2_concludes_the_known_defect_with_workaround_and_fix():
    code, out = diagnose_json(str(EXAMPLE), "--answer", "cann_version=8.0.RC2")
    top = out["conclusions"][0]
    assert (code, top["id"], top["status"]) == (0, "lccl.allreduce-flag-cleanup", "confirmed")
    assert top["fixes"]["workaround"][0]["commands"] == ["export LCCL_DETERMINISTIC=1"]
    assert "8.2.RC1" in top["fixes"]["permanent"][0]["text"]
    assert out["questions"] == []


def test_lccl_on_8_2_rc1_is_not_the_known_defect():
    code, out = diagnose_json(str(EXAMPLE), "--answer", "cann_version=8.2.RC1")
    assert code == 1
    assert out["conclusions"] == []
    assert "lccl.allreduce-flag-cleanup" in [e["id"] for e in out["excluded"]]


RANK0_ALLREDUCE = KB.entry("hccl.notify-timeout.op-mismatch").tests[0].log


def test_two_ranks_with_different_collectives_conclude_op_mismatch_without_a_question():
    code, out = diagnose_json("-", stdin=RANK0_ALLREDUCE)
    assert out["conclusions"][0]["id"] == "hccl.notify-timeout.op-mismatch"
    assert out["conclusions"][0]["status"] == "confirmed"
    assert out["questions"] == []
    assert out["facts"]["ops_differ_in_group"]["value"] is True


GAP_LOG = KB.entry("hccl.notify-timeout.exec-timeout-gap").tests[0].log


def test_same_op_340_s_apart_with_exec_timeout_300_is_the_timeout_gap():
    code, out = diagnose_json("-", "--answer", "hccl_exec_timeout=300", stdin=GAP_LOG)
    assert out["conclusions"][0]["id"] == "hccl.notify-timeout.exec-timeout-gap"
    assert out["facts"]["error_time_spread_s"]["value"] == pytest.approx(343.944, abs=0.01)


def test_exec_timeout_printed_in_the_log_is_used_without_asking():
    env_line = ("[INFO] HCCL(2111665,all_reduce_test):2025-10-24-11:16:52.100.000 [env_config.cc:210] "
                "[2111665]HCCL_EXEC_TIMEOUT set by default to [300]s\n")
    code, out = diagnose_json("-", stdin=env_line + GAP_LOG)
    assert out["conclusions"][0]["id"] == "hccl.notify-timeout.exec-timeout-gap"
    assert all(q["fact"] != "hccl_exec_timeout" for q in out["questions"])


def test_gap_within_the_timeout_asks_for_the_timeout_before_concluding():
    code, out = diagnose_json("-", "--no-ask", stdin=GAP_LOG)
    assert out["questions"][0]["fact"] == "hccl_exec_timeout"
    assert out["conclusions"][0]["id"] == "hccl.notify-timeout"


HEARTBEAT = ("[INFO] HCCL(686,python):2025-10-23-07:52:59.191.363 [heartbeat.cc:951] [8970][TaskExecStage]"
             "[HeartbeatAbnormal]local rank [10.0.0.1/1]: crimer rank [10.0.0.7/5] status[LOST] by informer rank [10.0.0.3/3]\n")


def test_a_heartbeat_line_puts_the_crimer_rank_in_the_conclusion():
    code, out = diagnose_json("-", stdin=HEARTBEAT)
    assert out["conclusions"][0]["id"] == "hccl.heartbeat.lost"
    assert out["facts"]["crimer_rank"]["value"] == "10.0.0.7/5"
    assert "10.0.0.7/5" in out["conclusions"][0]["fixes"]["workaround"][0]["text"]
    text = diagnose("-", "--format", "markdown", stdin=HEARTBEAT).stdout
    assert "Rank to look at: 10.0.0.7/5" in text


def test_next_checks_are_filled_with_the_real_group_name():
    single_rank = RANK0_ALLREDUCE.split("rank1:")[0]
    code, out = diagnose_json("-", "--no-ask", stdin=single_rank)
    commands = [c for step in out["conclusions"][0]["fixes"]["workaround"] for c in step["commands"]]
    assert 'grep -r "Entry-" run/plog/ | grep "127.10.0.1%enp_60000_0_1761275812718970"' in commands


def test_an_earlier_sdma_error_is_the_root_and_the_timeouts_its_echo():
    log = KB.entry("hccl.sdma-error").tests[1].log
    code, out = diagnose_json("-", "--no-ask", stdin=log)
    ids = [c["id"] for c in out["conclusions"]]
    assert ids[0] == "hccl.sdma-error"
    echoes = [c for c in out["conclusions"] if c["id"].startswith("hccl.notify-timeout")]
    assert echoes and all(c["echo_of"] == "hccl.sdma-error" for c in echoes)


def test_why_and_how_in_every_format():
    code, out = diagnose_json(str(EXAMPLE), "--no-ask", "--explain")
    assert any("cann_version version in <8.2.RC1" in line for line in out["questions"][0]["needed_by"])
    how = out["conclusions"][0]["how"]
    assert how[0]["kind"] == "evidence" and how[0]["origin"].endswith("lccl-allreduce-vector-core-timeout.log:1")
    assert any(step["kind"] == "condition" for step in how)
    text = diagnose(str(EXAMPLE), "--no-ask", "--explain", "--format", "markdown").stdout
    assert "How faultbot concluded `lccl.allreduce-flag-cleanup`" in text
    assert "Why:" in text


def test_nothing_in_the_kb_exits_1_and_says_so():
    done = diagnose("-", "--format", "markdown", stdin="RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
    assert done.returncode == 1
    assert "Not in my knowledge base" in done.stdout


@pytest.mark.parametrize("args, message", [
    (["/no/such/file.log"], "no such file or folder: /no/such/file.log"),
    (["-", "--answer", "cann_version=8.x"], "not a CANN version"),
    (["-", "--answer", "no_such_fact=1"], "'no_such_fact' is not a fact"),
    (["-", "--answer", "cann_version"], "--answer takes FACT=VALUE"),
    (["-", "--format", "yaml"], "invalid choice"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    done = diagnose(*args, stdin="")
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert message in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_conditions_that_decided_are_said_with_their_sources():
    text = diagnose(str(EXAMPLE), "--answer", "cann_version=8.0.RC2", "--format", "markdown").stdout
    decided = text.split("## What decided it")[1].split("## Cause")[0]
    assert "`cann_version version in <8.2.RC1`: 8.0.RC2 (your answer)" in decided
    assert "LcalAllReduce (log " in decided and "lccl-allreduce-vector-core-timeout.log:1)" in decided


def test_brief_prints_only_the_answer_and_full_adds_how(tmp_path, kb):
    log = tmp_path / "rank0.log"
    log.write_text(kb.entry("hccl.notify-timeout").tests[0].log)

    def run(*args):
        return subprocess.run([sys.executable, "-m", "faultbot", "diagnose", "--no-ask", *args, str(log)],
                              capture_output=True, text=True, cwd=REPO_DIR, timeout=120).stdout

    brief, default, full = run("--brief"), run(), run("--full")
    assert "## Immediate workaround" in brief and "Could change this" in brief and 'grep -rn "ERROR"' in brief
    assert "## Evidence" not in brief and "## Evidence" in default
    assert "How faultbot concluded" in full and "How faultbot concluded" not in default


def test_a_question_names_the_file_rank_and_device_it_is_about(tmp_path):
    plog = tmp_path / "node-3" / "log" / "debug" / "device-5" / "device-5_20250602.log"
    plog.parent.mkdir(parents=True)
    plog.write_text((REPO_DIR / "examples" / "lccl-allreduce-vector-core-timeout.log").read_text())
    out = subprocess.run([sys.executable, "-m", "faultbot", "diagnose", "--no-ask", "--brief", str(plog)],
                         capture_output=True, text=True, cwd=REPO_DIR, timeout=120).stdout
    line = next(line for line in out.splitlines() if line.startswith("**Could change this:**"))
    assert f"about `{plog}:" in line and "node node-3" in line and "device 5" in line


def test_a_condition_a_child_restates_from_its_parent_is_said_once():
    # both aicore.exception and its index-out-of-bounds child test kernel_family; the reader sees it once
    log = (REPO_DIR / "tests" / "corpus" / "other-vllm-ascend-1682-gather-v3-index-assertion.yaml").read_text()
    text = diagnose("-", "--no-ask", "--format", "markdown", stdin=log).stdout
    decided = text.split("## What decided it")[1].split("\n## ")[0]
    assert text.startswith("# Index operator read out of bounds")
    assert decided.count("`kernel_family equals compute`") == 1
    assert "`kernel_index_out_of_range equals yes`" in decided
