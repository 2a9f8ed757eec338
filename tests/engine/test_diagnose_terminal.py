"""`faultbot diagnose` on a real terminal asks its questions, validates answers, and concludes."""

from __future__ import annotations

import os
import re
import sys

import pytest

from ..conftest import REPO_DIR

pexpect = pytest.importorskip("pexpect")
EXAMPLE = str(REPO_DIR / "examples" / "lccl-allreduce-vector-core-timeout.log")


def spawn(*args: str):
    # The questions are under test here, not the pager (see _first_screen), so the whole output comes at once.
    env = {**os.environ, "NO_COLOR": "1", "TERM": "xterm", "COLUMNS": "200", "FAULTBOT_PAGER": "off"}
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


# less waits for a key after each screen at its ":" prompt (cleared to the end of the line).
LESS_PROMPT = "\n:\x1b\\[K"


def _first_screen(*args: str, rows: int = 25) -> str:
    """What a 100-column, ``rows``-line terminal shows of `diagnose --no-ask`: longer output stops in
    the pager (less) after its first screen, which is returned; q quits the pager."""
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "100", "LINES": str(rows)}
    for name in ("NO_COLOR", "PAGER", "FAULTBOT_PAGER", "LESS"):
        env.pop(name, None)
    child = pexpect.spawn(sys.executable, ["-m", "faultbot", "diagnose", "--no-ask", *args], cwd=str(REPO_DIR),
                          env=env, encoding="utf-8", timeout=120, dimensions=(rows, 100))
    child.expect(LESS_PROMPT)
    screen = child.before
    child.send("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    lines = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[=>]", "", screen).replace("\r", "").splitlines()
    assert len(lines) < rows, "the pager shows one screen"
    return "\n".join(lines)


def _four_rank_tree(tmp_path, kb) -> str:
    """The four ranks of one communicator, each in its own node's plog, as `tar -x` of a job leaves them."""
    from faultbot.cases import load_cases

    four = next(c for c in load_cases(REPO_DIR / "tests" / "cases") if c.name.startswith("All four ranks time out"))
    for rank, pid in enumerate(("31200", "31201", "31202", "31203")):
        plog = tmp_path / f"node-{rank}" / "log" / "run" / "plog" / f"plog-{pid}_20251205184400.log"
        plog.parent.mkdir(parents=True)
        plog.write_text("\n".join(line for line in four.log.splitlines() if f"HCCL({pid}," in line) + "\n")
    return str(tmp_path)


def test_the_answer_and_its_workaround_are_on_the_first_screen(tmp_path, kb):
    """Answer first: the conclusion and the workaround's command within 25 lines at 100 columns, for
    a one-rank EI0002 paste, the LCCL example and a tree of four ranks."""
    notify = tmp_path / "rank0.log"
    notify.write_text(kb.entry("hccl.notify-timeout").tests[0].log)
    for target, conclusion, command in (
            (str(notify), "HCCL notify wait timeout", 'grep -r "Entry-"'),
            (EXAMPLE, "LcalAllReduce hangs", "export LCCL_DETERMINISTIC=1"),
            (_four_rank_tree(tmp_path / "tree", kb), "Cluster: 4 ranks", "Immediate workaround")):
        screen = _first_screen(target)
        assert conclusion in screen and command in screen, screen
