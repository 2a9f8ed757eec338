"""The session's files under hostile conditions: a kill mid-turn, two chats on one transcript, a full
disk, other users, years of sessions, a history file that cannot be used, and escape sequences in
what is replayed."""

from __future__ import annotations

import errno
import io
import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from faultbot.repl import app
from faultbot.repl.chat import Chat
from faultbot.repl.history import ChatHistory
from faultbot.repl.locations import sessions_dir
from faultbot.repl.replay import replay
from faultbot.repl.transcript import SessionInUse, Transcript, prune, read_transcript

from ..conftest import REPO_DIR
from .conftest import EXAMPLE_LOG

# A chat that is killed (SIGKILL, as kill -9) while its paste is being read: after the input is on
# disk, before the chat has answered it.
KILLED_MID_PASTE = """
import os, signal, sys
from faultbot.kb.loader import load_kb
from faultbot.paths import default_articles_dir, default_kb_dir
from faultbot.repl.chat import Chat
from faultbot.repl.locations import sessions_dir
from faultbot.repl.transcript import Transcript

kb = load_kb(default_kb_dir(), default_articles_dir())
chat = Chat(kb, Transcript.create(sessions_dir(), kb.kb_dir))
chat.session.add_paste = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
chat.respond(sys.stdin.read())
"""


def test_a_chat_killed_mid_paste_has_the_paste_on_resume(kb, data_home):
    killed = subprocess.run([sys.executable, "-c", KILLED_MID_PASTE], input=EXAMPLE_LOG, text=True, cwd=REPO_DIR,
                            env={**os.environ, "XDG_DATA_HOME": str(data_home)}, capture_output=True, timeout=120)
    assert killed.returncode == -9, killed.stderr
    (path,) = sessions_dir().glob("*.jsonl")
    resumed = Chat(kb)
    assert replay(resumed, read_transcript(path)) == []
    assert [c.kind.value for c in resumed.session.steps] == ["paste"]
    assert resumed.pending is not None and resumed.pending.fact == "cann_version"


def test_a_format_1_transcript_still_replays_its_separate_paste_record(kb, tmp_path):
    path = tmp_path / "old.jsonl"
    path.write_text('{"seq": 0, "kind": "start", "version": 1}\n'
                    f'{{"seq": 1, "kind": "said", "text": {json.dumps(EXAMPLE_LOG)}}}\n'
                    '{"seq": 2, "kind": "paste", "of": 1, "label": "<paste 1>"}\n', encoding="utf-8")
    resumed = Chat(kb)
    assert replay(resumed, read_transcript(path)) == []
    assert [c.label for c in resumed.session.steps] == ["<paste 1>"]


def test_an_unreadable_path_and_a_wrong_answer_are_not_replayed(chat, kb, tmp_path):
    chat.respond(EXAMPLE_LOG)
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "plog.log").write_text(EXAMPLE_LOG)
    chat.respond(str(folder))
    assert "not a CANN version" in chat.respond("8.0.x").error
    records = read_transcript(chat.transcript.path)
    assert [r.kind for r in records].count("refused") == 1
    (folder / "plog.log").unlink()
    folder.rmdir()
    resumed = Chat(kb)
    skipped = replay(resumed, records)
    assert skipped == [f"cannot read {folder} again: No such file or directory"]     # the read worked live
    assert [c.kind.value for c in resumed.session.steps] == ["paste"] and resumed.pending.fact == "cann_version"


def test_a_second_chat_on_one_transcript_is_refused(chat, kb):
    chat.respond(EXAMPLE_LOG)
    with pytest.raises(SessionInUse):
        Transcript.reopen(chat.transcript.path)
    with pytest.raises(app.NoSessionToResume, match="is open in another faultbot chat"):
        app.start(kb, True, io.StringIO())
    chat.transcript.close()
    resumed = app.start(kb, True, io.StringIO())      # once the first has left, --resume continues it
    assert resumed.pending.fact == "cann_version"
    resumed.transcript.close()


def test_a_full_disk_keeps_the_chat_and_its_reply_and_says_where(chat, monkeypatch):
    chat.respond("what is LCCL")

    def no_space(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(Transcript, "_write", no_space)
    reply = chat.respond(EXAMPLE_LOG)
    assert reply.notice.startswith(f"cannot save the session to {chat.transcript.path}: No space left on device")
    assert "Which CANN version" in reply.markdown            # the reply is still there
    later = chat.respond("8.0.RC2")
    assert later.conclusion.id == "lccl.allreduce-flag-cleanup" and not later.notice    # said once
    out = io.StringIO()
    app.show(reply, out)
    assert out.getvalue().startswith("faultbot: cannot save the session to ")


@pytest.fixture
def full_disk(tmp_path):
    """A tiny file system of its own, filled up; skipped where this user cannot mount one."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(mount)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small file system here")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def test_a_transcript_on_a_file_system_that_fills_up(kb, full_disk):
    chat = Chat(kb, Transcript.create(full_disk, kb.kb_dir))
    filler = full_disk / "filler"
    with open(filler, "wb") as out:
        try:
            out.write(b"x" * (1 << 20))
        except OSError:
            pass
    # longer than what is left of the transcript's last page, which a full file system still holds
    noise = "".join(f"[INFO] HCCL(7,python):2025-06-02-03:14:07.{i:03d}.000 [op_base.cc:1]7 step {i} done\n"
                    for i in range(100))
    reply = chat.respond(noise + EXAMPLE_LOG)
    assert "No space left on device" in reply.notice and "Which CANN version" in reply.markdown
    filler.unlink()
    assert chat.respond("8.0.RC2").conclusion.id == "lccl.allreduce-flag-cleanup"     # not saved, but answered
    chat.transcript.close()
    assert [r.kind for r in read_transcript(chat.transcript.path)] == ["start"]         # what was saved still reads


def test_transcripts_are_for_their_owner_alone(kb, data_home):
    folder = sessions_dir()
    folder.mkdir(parents=True, mode=0o755)
    os.chmod(folder, 0o755)
    made = Transcript.create(folder, kb.kb_dir)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert stat.S_IMODE(made.path.stat().st_mode) == 0o600
    made.close()


def test_old_and_surplus_transcripts_are_pruned_but_never_one_in_use(kb, tmp_path):
    folder = tmp_path / "sessions"
    folder.mkdir()
    now = time.time()
    for age_days, name in ((40, "old"), (1, "a"), (2, "b"), (3, "c"), (50, "open")):
        (folder / f"{name}.jsonl").write_text("{}\n")
        os.utime(folder / f"{name}.jsonl", (now - age_days * 86400, now - age_days * 86400))
    still_open = Transcript(folder / "open.jsonl")
    removed = prune(folder, keep=folder / "a.jsonl", days=30, sessions=2, now=now)
    assert sorted(p.stem for p in removed) == ["c", "old"]
    assert sorted(p.stem for p in folder.glob("*.jsonl")) == ["a", "b", "open"]
    still_open.close()


def test_a_history_file_that_cannot_be_used_costs_only_the_history(tmp_path):
    blocked = tmp_path / "history"
    blocked.mkdir()                      # a folder where the history file should be
    history = ChatHistory(blocked)
    assert history.problem == f"history not kept: cannot use {blocked}: Is a directory"
    assert list(history.load_history_strings()) == []
    history.store_string("what is LCCL")          # no error: nothing kept
    usable = ChatHistory(tmp_path / "ok" / "history")
    usable.store_string("what is LCCL")
    assert not usable.problem and list(usable.load_history_strings()) == ["what is LCCL"]
    assert stat.S_IMODE((tmp_path / "ok" / "history").stat().st_mode) == 0o600


def test_escape_sequences_in_replayed_turns_are_shown_not_sent(chat, kb):
    chat.respond("what is \x1b]0;pwned\x07 LCCL \x1b[2J and \x9b31m")
    chat.transcript.close()
    out = io.StringIO()
    resumed = app.start(kb, True, out)
    shown = out.getvalue()
    assert not any(c in shown for c in "\x1b\x07\x9b")
    assert "\\x1b]0;pwned\\x07" in shown and "\\x1b[2J" in shown and "\\x9b31m" in shown
    resumed.transcript.close()


def test_a_file_name_with_escapes_and_a_newline_in_a_chat_reply(chat, tmp_path):
    folder = tmp_path / "node-0"
    folder.mkdir()
    (folder / "plog-\x1b[2J\n# injected.log").write_text(EXAMPLE_LOG)
    chat.respond(str(folder))
    out = io.StringIO()
    app.show(chat.respond("/evidence"), out)
    shown = out.getvalue()
    assert "\x1b" not in shown and "plog-\\x1b[2J\\n# injected.log" in shown
    assert not any(line.startswith("# injected") for line in shown.splitlines())


def test_the_transcript_keeps_a_typed_path_that_is_not_utf8(chat, kb, tmp_path):
    folder = os.path.join(os.fsencode(tmp_path), "日志".encode("gbk"))
    os.mkdir(folder)
    with open(os.path.join(folder, b"plog.log"), "w", encoding="utf-8") as out:
        out.write(EXAMPLE_LOG)
    typed = os.fsdecode(folder)
    chat.respond(typed)
    resumed = Chat(kb)
    assert replay(resumed, read_transcript(chat.transcript.path)) == []
    assert [c.label for c in resumed.session.steps] == [typed]
    assert Path(typed).exists()


@pytest.mark.parametrize("typed", ["~nosuchuser-faultbot/plog.log", "~nosuchuser-faultbot hangs", "/tmp/a\0b"])
def test_a_path_that_cannot_even_be_looked_up_is_words(chat, typed):
    reply = chat.respond(typed)
    assert not chat.session.steps and (reply.markdown or reply.error)
