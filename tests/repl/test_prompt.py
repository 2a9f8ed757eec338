"""The prompt itself, driven through a pipe: a bracketed paste of many lines is one input sent with
Enter, Esc-Enter starts a new line, pastes stay out of the history file; and what Tab completes."""

from __future__ import annotations

import io

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from faultbot.repl.app import loop, prompt_session
from faultbot.repl.toolbar import toolbar

from .conftest import EXAMPLE_LOG

PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"


@pytest.fixture
def drive(chat, tmp_path):
    """Feed keys to the chat's prompt, then end the input; returns what the chat printed."""
    def run(keys: str) -> str:
        out = io.StringIO()
        with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
            pipe.send_text(keys)
            pipe.close()      # the end of input reads as Ctrl-D: the loop ends instead of waiting
            loop(chat, prompt_session(chat, tmp_path / "history", input=pipe, output=DummyOutput()), out)
        return out.getvalue()
    return run


def test_a_bracketed_paste_is_one_input_sent_with_enter(chat, drive):
    out = drive(PASTE_START + EXAMPLE_LOG + PASTE_END + "\r")
    assert [c.kind.value for c in chat.session.steps] == ["paste"]
    assert chat.session.steps[0].text.strip() == EXAMPLE_LOG.strip()
    assert "Which CANN version" in out


def test_escape_enter_starts_a_new_line(chat, drive):
    drive("what is\x1b\rLCCL\r")
    said = [c for c in chat.transcript.path.read_text(encoding="utf-8").splitlines() if '"said"' in c]
    assert "what is\\nLCCL" in said[0]


def test_pastes_stay_out_of_the_history_file(chat, drive, tmp_path):
    drive(PASTE_START + EXAMPLE_LOG + PASTE_END + "\r" + "/facts\r")
    history = (tmp_path / "history").read_text(encoding="utf-8")
    assert "/facts" in history and "LcalAllReduce" not in history


def completions(chat, tmp_path, text: str) -> list[str]:
    completer = prompt_session(chat, tmp_path / "history", output=DummyOutput()).completer
    return [c.text for c in completer.get_completions(Document(text, len(text)), CompleteEvent(completion_requested=True))]


def test_tab_completes_commands_their_arguments_and_the_pending_choices(chat, tmp_path):
    assert completions(chat, tmp_path, "/he") == ["/help"]
    assert set(completions(chat, tmp_path, "/h")) == {"/help", "/how"}
    assert "hccl.sdma-error.link-fault" in completions(chat, tmp_path, "/show hccl.sdma")
    assert completions(chat, tmp_path, "/export r.md --re") == ["--redact"]
    assert "EI0013" in completions(chat, tmp_path, "is EI00")
    assert "cann_version" in completions(chat, tmp_path, "cann_v")
    chat.respond("多卡训练时报 sdma 错误")
    assert chat.pending.fact == "product"
    assert completions(chat, tmp_path, "atlas a") == ["Atlas A2", "Atlas A3"]
    assert completions(chat, tmp_path, "unk") == ["unknown"]
    assert completions(chat, tmp_path, "line one\nline") == []


def test_toolbar_shows_the_top_candidates_and_the_question(chat):
    chat.respond(EXAMPLE_LOG)
    text = "".join(part[1] for part in toolbar(chat.diagnosis, chat.pending))
    assert "lccl.allreduce-flag-cleanup probable 0.60" in text and "asking: cann_version" in text


def test_ctrl_d_leaves(kb, drive):
    assert drive("\x04") == ""


def test_ctrl_r_finds_an_earlier_input_in_the_history(chat, drive, tmp_path):
    drive("what does LCCL stand for\r")
    drive("\x12LCCL\r\r")            # Ctrl-R, search, Enter takes the match, Enter sends it
    said = [line for line in chat.transcript.path.read_text(encoding="utf-8").splitlines() if '"said"' in line]
    assert len(said) == 2 and "what does LCCL stand for" in said[1]
