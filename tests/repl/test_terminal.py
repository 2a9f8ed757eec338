"""The real `python -m faultbot` in a pseudo-terminal, as an engineer uses it: paste, question, /why,
answer, conclusion, /how, /export; killed mid-session and resumed; fed by a pipe."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys

import pexpect
import pytest

from ..conftest import REPO_DIR
from .conftest import EXAMPLE_LOG

TIMEOUT = 30
PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


@pytest.fixture
def environment(data_home) -> dict[str, str]:
    # No cursor-position requests (nobody answers them in a pty) and no colour codes inside words.
    return {**os.environ, "XDG_DATA_HOME": str(data_home), "PROMPT_TOOLKIT_NO_CPR": "1", "TERM": "xterm",
            "NO_COLOR": "1", "COLUMNS": "200"}


def spawn(environment: dict[str, str], cwd, *args: str) -> pexpect.spawn:
    child = pexpect.spawn(sys.executable, ["-m", "faultbot", *args], env=environment, cwd=str(cwd),
                          encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 200))
    child.expect("faultbot>")
    return child


def paste(child: pexpect.spawn, text: str) -> None:
    child.send(PASTE_START + text + PASTE_END)
    child.send("\r")


def test_paste_question_why_answer_how_export(environment, tmp_path):
    child = spawn(environment, tmp_path)
    paste(child, EXAMPLE_LOG)
    child.expect("Which CANN version runs on the failing node")
    child.expect("cann_version>")
    child.send("/why\r")
    child.expect("Needed by: lccl.allreduce-flag-cleanup")
    child.expect("cann_version>")
    child.send("8.0.RC2\r")
    child.expect("confirmed 0.93")
    child.expect("LCCL_DETERMINISTIC=1")
    child.expect("faultbot>")
    child.send("/how\r")
    child.expect("How faultbot concluded")
    child.expect("faultbot>")
    child.send("/export report.md\r")
    child.expect("Wrote the incident report")
    child.expect("faultbot>")
    child.send("/quit\r")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "`lccl.allreduce-flag-cleanup`" in report
    assert "LcalAllReduce hangs or fails (vector core timeout, errcode 0)" in report
    assert "Workaround (short term) — https://www.hiascend.com/developer/techArticles/20260604-10" in report


def test_a_killed_session_is_resumed_with_its_turns(environment, tmp_path):
    child = spawn(environment, tmp_path)
    paste(child, EXAMPLE_LOG)
    child.expect("cann_version>")
    child.send("what does LCCL stand for\r")
    child.expect("Low-latency Collective Communication Library")
    child.expect("cann_version>")
    child.kill(signal.SIGKILL)
    child.close()
    resumed = pexpect.spawn(sys.executable, ["-m", "faultbot", "--resume"], env=environment, cwd=str(tmp_path),
                            encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 200))
    resumed.expect("Continuing session")
    resumed.expect("what does LCCL stand for")
    resumed.expect("Which CANN version runs on the failing node")
    resumed.expect("cann_version>")        # the question is still pending
    resumed.send("8.0.RC2\r")
    resumed.expect("confirmed 0.93")
    resumed.send("/quit\r")
    resumed.expect(pexpect.EOF)


def test_resume_with_no_session_is_a_one_line_error(environment, tmp_path):
    child = pexpect.spawn(sys.executable, ["-m", "faultbot", "--resume"], env=environment, cwd=str(tmp_path),
                          encoding="utf-8", timeout=TIMEOUT)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 2
    assert "faultbot: error: no earlier session to resume" in child.before
    assert "Traceback" not in child.before


def test_piped_input_is_diagnose_from_standard_input(environment, tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "faultbot", *args], input=EXAMPLE_LOG, capture_output=True,
                              text=True, env=environment, cwd=REPO_DIR, timeout=TIMEOUT * 2)

    chat, diagnose = run(), run("diagnose", "-")
    assert (chat.returncode, chat.stdout, chat.stderr) == (diagnose.returncode, diagnose.stdout, diagnose.stderr)
    assert "lccl.allreduce-flag-cleanup" in chat.stdout


def test_a_paste_of_hundreds_of_lines_is_one_input(environment, tmp_path):
    noise = "\n".join(f"[INFO] HCCL(7,python):2025-06-02-03:14:07.{i % 1000:03d}.000 [op_base.cc:1]7 step {i} done"
                      for i in range(600))
    child = spawn(environment, tmp_path)
    paste(child, noise + "\n" + EXAMPLE_LOG)
    child.expect("Read 604 records")
    child.expect("cann_version>")
    child.sendcontrol("d")
    child.expect(pexpect.EOF)


def _long_log(lines: int) -> str:
    """A job log long enough that reading it takes a while: INFO noise, then the example's error."""
    noise = "".join(f"[INFO] RUNTIME(2291046,python):2025-06-02-03:14:{i % 60:02d}.331.{i % 1000:03d} "
                    f"[task.cc:{i % 900}]2291046 LaunchKernel: stream {i % 16}, task {i}\n" for i in range(lines))
    return noise + EXAMPLE_LOG


def test_a_paste_while_busy_stays_one_input_and_ctrl_c_cancels(environment, tmp_path):
    """While faultbot works, the terminal keeps bracketing pastes (so the next paste arrives whole)
    and Ctrl-C cancels the work and what was typed meanwhile, leaving the session as it was."""
    child = spawn(environment, tmp_path)
    paste(child, _long_log(15_000))
    child.expect_exact("\x1b[?2004h")          # bracketed paste back on while it works
    child.sendintr()
    child.expect("cancelled")
    child.expect("faultbot>")
    paste(child, EXAMPLE_LOG)
    child.expect("cann_version>")
    child.sendline("/quit")
    child.expect(pexpect.EOF)


def test_a_second_resume_of_an_open_session_is_refused_in_one_line(environment, tmp_path):
    first = spawn(environment, tmp_path)
    paste(first, EXAMPLE_LOG)
    first.expect("cann_version>")
    second = pexpect.spawn(sys.executable, ["-m", "faultbot", "--resume"], env=environment, cwd=str(tmp_path),
                           encoding="utf-8", timeout=TIMEOUT)
    second.expect(pexpect.EOF)
    second.close()
    assert second.exitstatus == 2
    assert "faultbot: error: session " in second.before and "is open in another faultbot chat" in second.before
    assert "Traceback" not in second.before
    first.send("8.0.RC2\r")                      # the first chat goes on, and its transcript is whole
    first.expect("confirmed 0.93")
    first.sendline("/quit")
    first.expect(pexpect.EOF)


def test_a_history_path_that_cannot_be_used_is_one_message_and_the_chat_goes_on(environment, tmp_path, data_home):
    (data_home / "faultbot" / "history").mkdir(parents=True)     # a folder where the history file goes
    child = pexpect.spawn(sys.executable, ["-m", "faultbot"], env=environment, cwd=str(tmp_path), encoding="utf-8",
                          timeout=TIMEOUT, dimensions=(50, 200))
    child.logfile_read = seen = io.StringIO()
    child.expect("history not kept: cannot use .*history: Is a directory")
    child.expect("faultbot>")
    child.send("what does LCCL stand for\r")
    child.expect("Low-latency Collective Communication Library")
    child.expect("faultbot>")
    child.sendline("/quit")
    child.expect(pexpect.EOF)
    assert "Traceback" not in seen.getvalue() and "Unhandled exception" not in seen.getvalue()
