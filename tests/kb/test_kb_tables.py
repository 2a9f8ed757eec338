"""The tables that used to be code are KB data: the masks (kb/masks.yaml), the heartbeat priority and
the HCCL_EXEC_TIMEOUT profiles (kb/aggregations.yaml). Lint checks them like every KB file, with the
file and line of each problem, and the code reads them from the compiled KB."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from types import SimpleNamespace

from faultbot.engine.aggregates import HeartbeatEvidence, crimer
from faultbot.engine.facts import Fact, Provenance, ProvenanceSource
from faultbot.match.masking import Masker
from faultbot.repl.redact import redact

from ..conftest import REPO_DIR


def _lint(root: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "FAULTBOT_CACHE": str(root / "cache")}
    return subprocess.run([sys.executable, "-m", "faultbot", "kb", "lint", "--kb", str(root / "kb")],
                          capture_output=True, text=True, timeout=120, env=env, check=False)


def _edit(path: Path, old: str, new: str) -> int:
    """Replace ``old`` (once) in the file; the line it was on."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[:text.index(old)].count("\n") + 1


def test_lint_checks_the_masks_and_the_aggregation_tables_at_their_lines(tmp_path):
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    shutil.copytree(REPO_DIR / "articles", tmp_path / "articles")
    masks, tables = tmp_path / "kb" / "masks.yaml", tmp_path / "kb" / "aggregations.yaml"
    unsafe = _edit(masks, r"regex: '\b0x[0-9a-fA-F]+\b'", r"regex: '(?:0x[0-9a-f]+)+\b'")
    unknown_shape = _edit(masks, "regex: '{ipv4}(?:%\\w+)?'", "regex: '{ipv6}(?:%\\w+)?'")
    wrong_example = _edit(masks, "masked: 'HCCL(<PID>,python)'", "masked: 'HCCL(<NUM>,python)'") - 1
    reordered = _edit(tables, "order: [ERROR CQE, STUCK, LOST]", "order: [STUCK, ERROR CQE, LOST]")
    unstated = _edit(tables, "    modes: [AI_CPU, AICPU_CacheDisable]\n    default: 1836",
                     "    modes: [AI_CPU, AICPU_CacheDisable]\n    default: 1800") - 1
    not_a_product = _edit(tables, "  - products: [Atlas A2]\n", "  - products: [Atlas A9]\n")
    linted = _lint(tmp_path)
    assert linted.returncode == 1 and "Traceback" not in linted.stderr
    said = linted.stderr.splitlines()
    expected = [(f"kb/masks.yaml:{unsafe}:", "regex of mask 'hex'"),
                (f"kb/masks.yaml:{unknown_shape}:", "names the shape '{ipv6}', which does not exist"),
                (f"kb/masks.yaml:{wrong_example}:", "mask 'pid' makes 'HCCL(<PID>,python)' of its example"),
                (f"kb/aggregations.yaml:{reordered}:", "'STUCK > ERROR CQE > LOST' is not written"),
                (f"kb/aggregations.yaml:{unstated}:", "'1800' is not written in the sections it cites"),
                (f"kb/aggregations.yaml:{not_a_product}:", "'Atlas A9' is not a value of the fact 'product'")]
    for where, message in expected:
        assert any(line.startswith(where) and message in line for line in said), (where, message, linted.stderr)


def test_the_compiled_kb_carries_the_tables(kb):
    assert [mask.token for mask in kb.masks][:3] == ["<TS>", "<TS>", "<IP>"]
    assert kb.heartbeat_priority == ("ERROR CQE", "STUCK", "LOST")
    assert {"Atlas A2", "Atlas A3", "Atlas training series"} <= {p for profile in kb.exec_timeout_profiles
                                                                 for p in profile.products}


def test_masking_and_redaction_read_addresses_and_times_alike(kb):
    """One set of shapes: what the masks call an address /export --redact hides as one, and a
    five-part version is an address to neither."""
    masker = Masker(kb.masks)
    assert masker.mask("peer 10.0.0.1%eth0_60000 lost") == "peer <IP> lost"
    assert redact("peer 10.0.0.1 lost", hosts=set()) == "peer <ip-1> lost"
    assert "<IP>" not in masker.mask("hccl_running_version=[8.3.0.1.200:8.3.RC1]")
    assert "<ip-" not in redact("hccl_running_version=[8.3.0.1.200:8.3.RC1]", hosts=set())
    assert masker.mask("at 2026-03-25 16:51:12:651 rank 3") == "at <TS> rank <NUM>"
    assert redact("at 2026-03-25 16:51:12:651", hosts=set()) == "at 2026-03-25 16:51:12:651"


def _heartbeat(status: str, second: int) -> HeartbeatEvidence:
    fact = Fact("heartbeat_status", status, Provenance(ProvenanceSource.LOG))
    record = SimpleNamespace(timestamp=datetime(2025, 10, 23, 7, 52, second))
    return HeartbeatEvidence(fact, Fact("heartbeat_crimer_rank", status.lower(), fact.provenance), record)  # type: ignore[arg-type]


def test_the_crimer_is_chosen_by_the_kb_order():
    lost, stuck, cqe = _heartbeat("LOST", 1), _heartbeat("STUCK", 2), _heartbeat("ERROR CQE", 3)
    assert crimer([lost, stuck, cqe], ("ERROR CQE", "STUCK", "LOST")) is cqe
    assert crimer([lost, stuck, cqe], ("LOST", "STUCK", "ERROR CQE")) is lost
    assert crimer([stuck, _heartbeat("STUCK", 0)], ("ERROR CQE", "STUCK", "LOST")).record.timestamp.second == 0
