"""`faultbot kb list | show | test | stats` as engineers and scripts call them."""

from __future__ import annotations

import json
import shutil

from faultbot.cli.main import main

from ..conftest import REPO_DIR


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_show_lccl_gives_workaround_fix_and_source_url(capsys):
    code, out, _ = run(capsys, "kb", "show", "lccl.allreduce-flag-cleanup", "--format", "markdown")
    assert code == 0
    assert "export LCCL_DETERMINISTIC=1" in out
    assert "CANN 8.2.RC1 or later" in out
    assert "https://www.hiascend.com/developer/techArticles/20260604-10?envFlag=1" in out
    assert out.index("Immediate workaround") < out.index("Permanent fix") < out.index("Sources")


def test_show_json_is_versioned(capsys):
    code, out, _ = run(capsys, "kb", "show", "hccl.notify-timeout.op-mismatch", "--format", "json")
    entry = json.loads(out)["entry"]
    assert json.loads(out)["schema"] == 1
    assert entry["parent"] == "hccl.notify-timeout"
    assert entry["citations"][0]["section"]


def test_show_unknown_id_suggests_close_ids(capsys):
    code, _, err = run(capsys, "kb", "show", "hccl.notify-timeout.op-mismach")
    assert code == 2
    assert "did you mean: hccl.notify-timeout.op-mismatch" in err


def test_list_names_every_required_fault(capsys):
    code, out, _ = run(capsys, "kb", "list", "--format", "json")
    ids = {e["id"] for e in json.loads(out)["entries"]}
    required = {"lccl.allreduce-flag-cleanup", "hccl.heartbeat.lost", "hccl.heartbeat.stuck", "hccl.roce-cqe",
                "hccl.roce-cqe.link-flap", "hccl.roce-cqe.peer-exited", "hccl.roce-cqe.retry-too-small",
                "hccl.notify-timeout", "hccl.notify-timeout.peer-failed-first", "hccl.notify-timeout.op-mismatch",
                "hccl.notify-timeout.exec-timeout-gap", "hccl.notify-timeout.multi-stream",
                "hccl.notify-timeout.inconsistent-behaviour", "hccl.sdma-error", "hccl.sdma-error.comm-destroyed",
                "hccl.sdma-error.link-fault", "hccl.sdma-error.buffer-too-small", "hccl.aiv-kernel-failure"}
    assert required <= ids


def test_kb_test_passes_on_the_shipped_kb(capsys):
    code, out, _ = run(capsys, "kb", "test")
    assert code == 0
    assert out.strip().endswith("0 failed")


def test_kb_test_shows_what_matched_instead_and_how(tmp_path, capsys):
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    entry = tmp_path / "kb" / "entries" / "lccl" / "lccl.allreduce-flag-cleanup.yaml"
    entry.write_text(entry.read_text().replace("answers: {cann_version: 8.0.RC2}\n    expect:",
                                               "answers: {cann_version: 8.3.RC1}\n    expect:", 1))
    code, out, _ = run(capsys, "kb", "test", "lccl.allreduce-flag-cleanup", "--kb", str(tmp_path / "kb"),
                       "--articles", str(REPO_DIR / "articles"))
    assert code == 1
    assert "FAIL lccl.allreduce-flag-cleanup: article case on CANN 8.0.RC2" in out
    assert "expected lccl.allreduce-flag-cleanup, concluded none" in out
    assert "excluded lccl.allreduce-flag-cleanup: cann_version version in <8.2.RC1" in out


def test_stats_json(capsys):
    code, out, _ = run(capsys, "kb", "stats", "--format", "json")
    stats = json.loads(out)
    assert stats["entries"] >= 19 and "EI0002" in stats["error_codes"]
    assert stats["without_negative_test"] == []
    assert "exec-timeout-gap" in stats["articles"]["hccl-task-execution-faults"]
