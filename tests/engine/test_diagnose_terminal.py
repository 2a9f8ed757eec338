"""`faultbot diagnose` on a real terminal asks its questions, validates answers, and concludes."""

from __future__ import annotations

import os
import sys

import pytest

from ..conftest import REPO_DIR

pexpect = pytest.importorskip("pexpect")
EXAMPLE = str(REPO_DIR / "examples" / "lccl-allreduce-vector-core-timeout.log")


def spawn(*args: str):
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "200"}
    child = pexpect.spawn(sys.executable, ["-m", "faultbot", "diagnose", *args], cwd=str(REPO_DIR),
                          env=env, encoding="utf-8", timeout=120, dimensions=(50, 200))
    return child


def test_asks_for_the_cann_version_rejects_a_bad_one_and_concludes():
    child = spawn(EXAMPLE)
    child.expect("Which CANN version runs on the failing node")
    child.expect("cann_version>")
    child.sendline("8.x")
    child.expect("not a CANN version")
    child.expect("cann_version>")
    child.sendline("8.0.RC2")
    child.expect("confirmed")
    child.expect("LCCL_DETERMINISTIC=1")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_unknown_leaves_the_conclusion_probable():
    child = spawn(EXAMPLE)
    child.expect("cann_version>")
    child.sendline("unknown")
    child.expect("probable")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_no_ask_lists_the_question_instead():
    child = spawn(EXAMPLE, "--no-ask")
    child.expect("To narrow it down")
    child.expect("--answer cann_version=VALUE")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_question_can_be_answered_by_pasting_another_ranks_log(tmp_path, kb):
    two_ranks = kb.entry("hccl.notify-timeout.op-mismatch").tests[0].log
    rank0, rank1 = two_ranks.split("rank1:")
    log = tmp_path / "rank0.log"
    log.write_text(rank0.replace("rank0:", ""))
    child = spawn(str(log))
    child.expect(r"\w+>")
    child.sendline(" ".join(rank1.split()))       # the other rank's three records, glued on one line
    child.expect("Ranks of one communicator called different collectives")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_unknown_ends_the_questions_and_lists_the_rest_as_checks(tmp_path, kb):
    """A notify timeout has several refinements to ask about; one "unknown" shows the conclusion,
    with the refinements left under "To narrow it down" instead of a chain of questions."""
    log = tmp_path / "rank0.log"
    log.write_text(kb.entry("hccl.notify-timeout").tests[0].log)
    child = spawn(str(log))
    child.expect(r"\w+>")
    child.sendline("unknown")
    child.expect("To narrow it down")
    child.expect(pexpect.EOF)
    assert not any(line.rstrip().endswith(">") for line in child.before.splitlines()), child.before
    child.close()
    assert child.exitstatus == 0
