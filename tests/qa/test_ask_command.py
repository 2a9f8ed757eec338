"""`faultbot ask` as engineers and scripts call it: answers with sources, JSON, exit codes."""

from __future__ import annotations

import json

from faultbot.cli.main import main


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_default_exec_timeout_is_answered_from_the_settings_with_its_source(capsys):
    code, out, _ = run(capsys, "ask", "what is the default HCCL_EXEC_TIMEOUT")
    assert code == 0
    assert "default 1836: Atlas training series (910)" in out and "default 1091: AIV mode" in out
    assert "Range and default per product and mode — https://" in out


def test_chinese_question_is_answered_in_json(capsys):
    code, out, _ = run(capsys, "ask", "怎么开启确定性计算", "--format", "json")
    payload = json.loads(out)
    assert code == 0
    assert payload["schema"] == 1
    assert "LCCL_DETERMINISTIC=1" in payload["answer"]
    assert payload["citations"][0]["ref"] == "lccl-allreduce-flag-cleanup#workaround"
    assert payload["citations"][0]["url"].startswith("https://")
    assert 0 < payload["score"] <= 1 and payload["direct"] is True


def test_a_name_the_kb_holds_only_in_passing_gets_what_it_holds_said_as_not_a_direct_answer(capsys):
    code, out, _ = run(capsys, "ask", "how do I quantize a model to int8 with the AMCT tool", "--format", "json")
    payload = json.loads(out)
    assert payload["direct"] is False and payload["answer"].startswith("Nothing in the knowledge base answers this")
    assert any(c["ref"] == "cann-error-code-structure#module-letters" for c in payload["citations"])


def test_a_question_about_another_vendor_s_stack_gets_what_the_kb_holds_about_the_ascend_name_it_asks_about(capsys):
    code, out, _ = run(capsys, "ask", "is HCCL_BUFFSIZE related to GPU memory in pytorch", "--format", "json")
    payload = json.loads(out)
    assert payload["direct"] is False and "What it says about `HCCL_BUFFSIZE`" in payload["answer"]
    code, out, _ = run(capsys, "ask", "what is the default NCCL_TIMEOUT", "--format", "json")
    assert (code, json.loads(out)["answer"]) == (1, None)


def test_nothing_relevant_exits_1_and_suggests_search_terms(capsys):
    code, out, _ = run(capsys, "ask", "how do I plot heartbeat latency in grafana")
    assert code == 1
    assert "Not in my knowledge base" in out and "`heartbeat`" in out and "/search" in out
    code, out, _ = run(capsys, "ask", "how do I bake sourdough bread", "--format", "json")
    assert (code, json.loads(out)["answer"], json.loads(out)["citations"]) == (1, None, [])


def test_no_question_is_a_usage_error(capsys):
    code, _, err = run(capsys, "ask", " ")
    assert code == 2
    assert err.startswith("faultbot: error: give a question")
