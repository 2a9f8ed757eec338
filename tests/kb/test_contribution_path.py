"""A contributor's whole path: unknown log -> kb new -> lint fails on TODOs -> filled -> lint, kb test
and diagnose all pass. Plus the overlap check that keeps two entries from claiming one example."""

from __future__ import annotations

import re
import shutil

from faultbot.cli.main import main

from ..conftest import REPO_DIR

UNKNOWN_LOG = (
    "[ERROR] TDT(41822,python):2025-11-03-09:12:44.120.331 [tdt_host_impl.cc:812]41822 "
    "TdtHostPushData: queue push timed out, channel[train_queue_1] full for 600 s\n"
    "[ERROR] TDT(41822,python):2025-11-03-09:12:44.120.402 [tdt_host_impl.cc:815]41822 "
    "TdtHostPushData: data sender stopped, channel[train_queue_1]\n"
)
ARTICLE = """---
id: tdt-queue-notes
title: TDT queue push timeouts
original_title: TDT 队列超时
source_url: https://example.invalid/tdt
published: 2026-01-01
language_of_source: zh
---

# TDT queue push timeouts

## When the queue is full {#queue-full}

The data queue to the device stays full when the training step stalls.

**Key terms (zh):** 队列, 超时
"""
FILLED = {
    "title: 'TODO: one line an engineer recognises the fault by'": "title: TDT queue push timed out (device queue full)",
    "cause: 'TODO: why it happens, in a few sentences, from the cited article'":
        "cause: The device-side queue stayed full because the training step stalled.",
    "- 'TODO: what to do now'": "- Find why the training step stalled on that device.",
    "- 'TODO: what fixes it for good'": "- Remove the stall.",
    "  - text: 'TODO: what to check next'": "  - text: Look at the device log around the timeout.",
    "    - 'TODO: the exact command'": "    - grep -r TdtHostPushData log/",
    "- 'TODO: article-id#section-slug (write or extend the article in articles/ first)'": "- tdt-queue-notes#queue-full",
    "- name: 'TODO: a near-miss log this entry must not conclude'": "- name: a healthy TDT line",
    "TODO: paste it here": "[INFO] TDT(41822,python):2025-11-03-09:12:44.120.331 [tdt_host_impl.cc:700]41822 TdtHostPushData: ok",
}


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def copy_kb(tmp_path):
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    shutil.copytree(REPO_DIR / "articles", tmp_path / "articles")
    return tmp_path / "kb"


def test_from_a_new_log_to_a_merged_entry(tmp_path, capsys):
    kb = copy_kb(tmp_path)
    log = tmp_path / "tdt.log"
    log.write_text(UNKNOWN_LOG)
    assert run(capsys, "diagnose", str(log), "--no-ask", "--kb", str(kb))[0] == 1

    code, out, _ = run(capsys, "kb", "new", "--from-log", str(log), "--id", "tdt.queue-push-timeout", "--kb", str(kb))
    assert code == 0
    draft = kb / "entries" / "tdt" / "tdt.queue-push-timeout.yaml"
    assert str(draft) in out
    assert run(capsys, "kb", "new", "--from-log", str(log), "--id", "tdt.queue-push-timeout", "--kb", str(kb))[0] == 2

    code, _, err = run(capsys, "kb", "lint", "--kb", str(kb))
    assert code == 1
    unfinished = [line for line in err.splitlines() if "unfinished draft" in line]
    assert len(unfinished) >= 8 and all(re.match(r"kb/entries/tdt/tdt.queue-push-timeout.yaml:\d+: ", u) for u in unfinished)

    text = draft.read_text()
    for todo, filled in FILLED.items():
        assert todo in text, todo
        text = text.replace(todo, filled)
    draft.write_text(text)
    (tmp_path / "articles" / "tdt-queue-notes.md").write_text(ARTICLE)

    code, _, err = run(capsys, "kb", "lint", "--kb", str(kb))
    assert code == 0, err
    assert run(capsys, "kb", "test", "tdt.queue-push-timeout", "--kb", str(kb))[0] == 0
    code, out, _ = run(capsys, "diagnose", str(log), "--no-ask", "--format", "json", "--kb", str(kb))
    assert code == 0 and '"id": "tdt.queue-push-timeout"' in out


def test_kb_new_refuses_an_existing_id(tmp_path, capsys):
    kb = copy_kb(tmp_path)
    log = tmp_path / "tdt.log"
    log.write_text(UNKNOWN_LOG)
    code, _, err = run(capsys, "kb", "new", "--from-log", str(log), "--id", "hccl.notify-timeout", "--kb", str(kb))
    assert code == 2 and "already exists" in err


def test_lint_reports_two_entries_that_claim_the_same_example(tmp_path, capsys):
    kb = copy_kb(tmp_path)
    original = kb / "entries" / "lccl" / "lccl.allreduce-flag-cleanup.yaml"
    twin = kb / "entries" / "lccl" / "lccl.allreduce-hang.yaml"
    twin.write_text(original.read_text().replace("lccl.allreduce-flag-cleanup", "lccl.allreduce-hang"))
    code, _, err = run(capsys, "kb", "lint", "--kb", str(kb))
    assert code == 1
    assert "also confirms lccl.allreduce-hang, which neither refines nor is refined by it" in err


def test_save_case_round_trips_through_eval(tmp_path, capsys):
    example = str(REPO_DIR / "examples" / "lccl-allreduce-vector-core-timeout.log")
    code, _, err = run(capsys, "diagnose", example, "--answer", "cann_version=8.0.RC2", "--format", "json",
                       "--save-case", str(tmp_path / "cases"))
    assert code == 0 and "saved the case as" in err
    saved = list((tmp_path / "cases").glob("lccl.allreduce-flag-cleanup-*.yaml"))
    assert len(saved) == 1 and "expect: lccl.allreduce-flag-cleanup" in saved[0].read_text()
    code, out, _ = run(capsys, "eval", str(tmp_path / "cases"))
    assert code == 0 and "1 passed, 0 failed" in out


def test_a_draft_keeps_neither_the_occurrence_nor_wrapper_codes():
    """Signatures leave out the process id and time of the occurrence; only CANN-shaped codes are
    listed (torch_npu's ERR01100 is not one, and lint would reject it)."""
    import yaml

    from faultbot.authoring.draft import draft_entry
    from faultbot.extract.facts import Observation
    from faultbot.ingest.inputs import Paste
    from faultbot.ingest.reader import LogReader

    text = ("[ERROR] 2024-08-13-16:40:02 (PID:48211, Device:3, RankID:11) ERR01100 OPS call acl api failed\n"
            "[PID: 9121] 2025-12-03-20:41:07.331.558 Some_New_Failure(EZ1234): Something new broke on device 3.\n")
    records = list(LogReader([Paste(text)]).records())
    observations = [Observation("error_code", code, code, records[0], "error-code") for code in ("ERR01100", "EZ1234")]
    draft = yaml.safe_load(draft_entry("demo.new", "x.log", records, observations))
    assert draft["error_codes"] == ["EZ1234"]
    signatures = [s["signature"] for s in draft["symptoms"]]
    assert not any("9121" in s or "2025-12-03" in s for s in signatures), signatures
