"""A chat turn by turn, as an engineer has it: paste, questions, answers, words, questions, exports."""

from __future__ import annotations

import yaml

from faultbot.cases import load_cases, run_case

from .conftest import EXAMPLE_LOG


def test_paste_asks_for_the_cann_version_and_the_answer_concludes(chat):
    reply = chat.respond(EXAMPLE_LOG)
    assert chat.pending is not None and chat.pending.fact == "cann_version"
    assert "Which CANN version" in reply.markdown and reply.conclusion is None
    reply = chat.respond("8.0.RC2")
    assert chat.pending is None
    assert reply.conclusion is not None and reply.conclusion.id == "lccl.allreduce-flag-cleanup"
    assert "export LCCL_DETERMINISTIC=1" in reply.markdown


def test_an_invalid_answer_is_asked_again_with_the_reason(chat):
    chat.respond(EXAMPLE_LOG)
    reply = chat.respond("8.0.x")
    assert "not a CANN version" in reply.error and "try again" in reply.error
    assert chat.pending.fact == "cann_version"
    assert chat.respond("unknown").markdown


def test_back_takes_the_last_answer_back(chat):
    chat.respond(EXAMPLE_LOG)
    chat.respond("8.0.RC2")
    reply = chat.respond("/back")
    assert "Took back the answer `cann_version` = 8.0.RC2" in reply.markdown
    assert chat.pending.fact == "cann_version"


def test_a_failure_in_words_gives_candidates_and_the_question_between_them(chat):
    reply = chat.respond("HcclAllreduce hangs after I set HCCL_OP_EXPANSION_MODE=AIV")
    assert "`hccl.aiv-kernel-failure`" in reply.markdown
    assert "`hccl_op_expansion_mode` = AIV" in reply.markdown     # what the words said is noted
    assert chat.pending is not None and chat.pending.fact == "kernel_name"
    assert chat.session.answers["hccl_op_expansion_mode"] == "AIV"


def test_words_that_quote_a_log_signature_are_evidence(chat):
    chat.respond("fault kernel_name=LcalAllReduce errcode=0 vector core timeout")
    assert chat.diagnosis.top.id == "lccl.allreduce-flag-cleanup"
    assert chat.pending.fact == "cann_version"


def test_a_question_is_answered_with_its_source_and_cite_repeats_it(chat):
    reply = chat.respond("what is the default HCCL_EXEC_TIMEOUT")
    assert "1836" in reply.markdown and "https://" in reply.markdown
    cited = chat.respond("/cite").markdown
    assert "Sources of the last answer" in cited and "HCCL_EXEC_TIMEOUT" in cited and "https://" in cited


def test_a_question_while_asked_keeps_the_question_pending(chat):
    chat.respond(EXAMPLE_LOG)
    reply = chat.respond("怎么开启确定性计算")
    assert "LCCL_DETERMINISTIC=1" in reply.markdown
    assert chat.pending.fact == "cann_version"


def test_export_writes_the_incident_report(chat, tmp_path):
    chat.respond(EXAMPLE_LOG)
    chat.respond("8.0.RC2")
    reply = chat.respond(f"/export {tmp_path / 'report.md'}")
    assert "Wrote the incident report" in reply.markdown
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    for part in ("lccl.allreduce-flag-cleanup", "## Cause", "export LCCL_DETERMINISTIC=1", "## Next checks",
                 "## Sources", "https://www.hiascend.com/", "How faultbot concluded", "## Questions and answers",
                 "Which CANN version runs on the failing node?", "8.0.RC2", "Why it was asked", "## Facts",
                 "## Input evidence", "fault kernel_name=LcalAllReduce"):
        assert part in report, part


def test_redacted_export_masks_the_site(chat, tmp_path):
    chat.respond(EXAMPLE_LOG.replace("python", "python /home/alice/train.py on 10.1.2.3"))
    chat.respond(f"/export {tmp_path / 'r.md'} --redact")
    report = (tmp_path / "r.md").read_text(encoding="utf-8")
    assert "10.1.2.3" not in report and "/home/alice" not in report
    assert "<ip-1>" in report and "https://www.hiascend.com/" in report


def test_export_as_case_writes_an_eval_case_that_passes(chat, kb, tmp_path):
    chat.respond(EXAMPLE_LOG)
    assert "not confirmed" in chat.respond(f"/export --as-case {tmp_path}").error
    chat.respond("8.0.RC2")
    reply = chat.respond(f"/export --as-case {tmp_path}")
    assert "Wrote the eval case" in reply.markdown
    written = next(tmp_path.glob("*.yaml"))
    case_data = yaml.safe_load(written.read_text(encoding="utf-8"))
    assert case_data["expect"] == "lccl.allreduce-flag-cleanup"
    assert case_data["answers"] == {"cann_version": "8.0.RC2"}
    (case,) = load_cases(tmp_path)
    assert run_case(case, kb).passed


def test_export_with_bad_options_is_one_line_error(chat):
    assert chat.respond("/export a.md b.md").error.startswith("/export takes")
    assert chat.respond("/export --as-case").error.startswith("/export --as-case needs a folder")


def test_unwritable_export_is_one_line_error(chat, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    reply = chat.respond(f"/export {blocker / 'report.md'}")
    assert reply.error.startswith("cannot write")


def test_a_paste_says_what_its_fields_mean_while_the_question_is_pending(chat):
    reply = chat.respond(EXAMPLE_LOG)
    assert chat.pending is not None
    fields = reply.markdown.split("## What the log's fields say", 1)[1].split("## Question", 1)[0]
    assert "errcode `0`" in fields and "timed out or executed a trap" in fields


def test_a_typed_path_is_read_as_a_log_and_comes_back_on_resume(chat, kb, tmp_path):
    from faultbot.repl.chat import Chat
    from faultbot.repl.replay import replay
    from faultbot.repl.transcript import read_transcript

    folder = tmp_path / "node-0" / "plog"
    folder.mkdir(parents=True)
    (folder / "plog-1.log").write_text(EXAMPLE_LOG)
    reply = chat.respond(f"'{folder.parent}'")
    assert not reply.error
    assert chat.pending is not None and chat.pending.fact == "cann_version"
    assert [c.kind.value for c in chat.session.steps] == ["read"]
    resumed = Chat(kb)
    assert replay(resumed, read_transcript(chat.transcript.path)) == []
    assert resumed.pending.fact == "cann_version"
    assert chat.respond("/back").markdown.startswith(f"Took back {folder.parent}")


def test_a_path_that_does_not_exist_is_words_not_a_read(chat):
    reply = chat.respond("/no/such/folder/plog")
    assert not reply.error and not chat.session.steps
