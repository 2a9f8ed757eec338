"""Sessions are never lost: each turn is on disk as it happens, a torn last line is survived, and a
replay brings back the diagnosis, the answers and the pending question."""

from __future__ import annotations

import json

from faultbot.repl.chat import Chat
from faultbot.repl.locations import sessions_dir
from faultbot.repl.replay import earlier_turns, replay
from faultbot.repl.transcript import Transcript, last_transcript, read_transcript

from .conftest import EXAMPLE_LOG


def test_every_turn_is_on_disk_before_the_next(chat):
    chat.respond(EXAMPLE_LOG)
    records = read_transcript(chat.transcript.path)
    assert [r.kind for r in records] == ["start", "said", "reply"]
    assert records[1].get("change") == {"kind": "paste", "label": "<paste 1>"}     # the input and its change: one record
    chat.respond("8.0.RC2")
    records = read_transcript(chat.transcript.path)
    assert [r.kind for r in records][-2:] == ["said", "reply"]
    assert records[-2].get("text") == "8.0.RC2" and records[-2].get("change")["fact"] == "cann_version"


def test_a_torn_last_line_is_skipped_and_the_next_record_starts_clean(chat, kb):
    chat.respond(EXAMPLE_LOG)
    chat.transcript.close()
    with open(chat.transcript.path, "a", encoding="utf-8") as stream:
        stream.write('{"seq": 99, "kind": "said", "te')          # killed mid-write
    reopened, _ = Transcript.reopen(chat.transcript.path)
    reopened.append("said", text="8.0.RC2")
    lines = chat.transcript.path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-1])["text"] == "8.0.RC2"
    assert [r.kind for r in read_transcript(chat.transcript.path)][-1] == "said"


def test_replay_restores_answers_undo_and_the_pending_question(chat, kb):
    chat.respond(EXAMPLE_LOG)
    chat.respond("8.0.RC2")
    chat.respond("/back")
    chat.respond("what is LCCL")
    resumed = Chat(kb)
    skipped = replay(resumed, read_transcript(chat.transcript.path))
    assert skipped == []
    assert [c.kind.value for c in resumed.session.steps] == ["paste"]
    assert resumed.pending.fact == "cann_version"
    assert resumed.diagnosis.top.id == "lccl.allreduce-flag-cleanup"


def test_earlier_turns_show_what_was_said_and_answered(chat):
    chat.respond(EXAMPLE_LOG)
    chat.respond("8.0.RC2")
    shown = earlier_turns(read_transcript(chat.transcript.path))
    assert "**you:** `8.0.RC2`" in shown
    assert "(+3 lines)" in shown and "**faultbot:**" in shown


def test_the_last_session_is_the_one_written_to_last(kb):
    first = Transcript.create(sessions_dir(), kb.kb_dir)
    second = Transcript.create(sessions_dir(), kb.kb_dir)
    first.append("said", text="later")
    assert last_transcript(sessions_dir()) == first.path
    second.close()
    first.close()


def test_replay_restores_the_question_a_description_left_pending(chat, kb):
    chat.respond("HcclAllreduce hangs after I set HCCL_OP_EXPANSION_MODE=AIV")
    assert chat.pending is not None
    resumed = Chat(kb)
    assert replay(resumed, read_transcript(chat.transcript.path)) == []
    assert resumed.pending is not None and resumed.pending.fact == chat.pending.fact
    assert resumed.session.answers == chat.session.answers


def test_a_cancelled_input_leaves_the_session_as_it_was_live_and_on_resume(chat, kb, monkeypatch):
    """Ctrl-C while an input is worked on: the chat goes back to its state before that input, and
    a resumed session does too, whatever the transcript had recorded of it."""
    chat.respond(EXAMPLE_LOG)
    before = ([c.kind.value for c in chat.session.steps], chat.pending.fact)

    def interrupted(*args, **kwargs):
        chat.record("answer", fact="cann_version", text="8.0.RC2")     # recorded, then cut short
        raise KeyboardInterrupt

    monkeypatch.setattr(chat, "answer_pending", interrupted)
    try:
        chat.respond("8.0.RC2")
    except KeyboardInterrupt:
        pass
    assert ([c.kind.value for c in chat.session.steps], chat.pending.fact) == before
    resumed = Chat(kb)
    replay(resumed, read_transcript(chat.transcript.path))
    assert ([c.kind.value for c in resumed.session.steps], resumed.pending.fact) == before
