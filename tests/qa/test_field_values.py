"""Questions about one field value are answered by the KB's decoders, word for word, and a value
is never read with a decoder whose field the logs print another way."""

from __future__ import annotations

from faultbot.qa.answer import answer
from faultbot.qa.field_values import FieldQuestions
from faultbot.qa.index import KnowledgeIndex


def _readings(kb, question):
    return [(d.decoder, str(d.fact.value)) for d in FieldQuestions(kb).decode(question)]


def test_a_name_two_fields_share_gives_both_readings_without_context(kb):
    assert _readings(kb, "what does cqe status 12 mean") == [("roce-cqe-status", "12"), ("sdma-cqe-status", "12")]
    found = answer(KnowledgeIndex.from_kb(kb), "what does cqe status 12 mean")
    assert "Several fields go by that name" in found.text


def test_context_words_pick_the_field(kb):
    assert _readings(kb, "HCCP says failed CQE status[12]") == [("roce-cqe-status", "12")]
    assert _readings(kb, "the sdma error says the value of CQE status is 2") == [("sdma-cqe-status", "2")]


def test_a_hex_value_is_not_read_as_a_decimal_field_nor_the_reverse(kb):
    assert _readings(kb, "roce error cqe status 0x15") == [("roce-hw-cqe-status", "0x15")]
    assert _readings(kb, "roce error cqe status 21") == [("roce-cqe-status", "21")]


def test_a_tuple_value_is_read_whole(kb):
    assert _readings(kb, "errcode:(0x800000, 0, 0)") == [("aicore-errcode", "(0x800000, 0, 0)")]


def test_a_question_without_a_field_value_is_left_to_the_passages(kb):
    assert _readings(kb, "what is the default HCCL_EXEC_TIMEOUT") == []
    assert _readings(kb, "what does retCode mean") == []


def test_a_log_line_pasted_into_a_question_is_read_as_diagnose_reads_it(kb):
    """The KB's extractors read the field from the line as pasted (not as the question is reworded:
    "aicore" would become "AI Core"), and the decoder says what the value means."""
    index = KnowledgeIndex.from_kb(kb)
    asked = ("verl on A2: HCCL function error: hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, "
             "&(comm->hcclComm_)), error code is 5 — what does 5 mean")
    found = answer(index, asked)
    assert "HCCL_E_NOT_SUPPORT" in found.text and found.citations[0] == "hccl-error-code-hcclresult#codes"
    pasted = "Decode died: there is an exception of fftsplus aicore error, core id is 14, error code = 0, dump info: ..."
    assert answer(index, pasted).citations[0] == "cann-aicore-error#errcode"


def test_an_hccl_error_code_as_engineers_call_it_is_an_hccl_result(kb):
    assert _readings(kb, "what is hccl error 6") == [("hccl-ret", "6")]
    assert _readings(kb, "HCCL error code 5 代表什么") == [("hccl-ret", "5")]


def test_a_value_the_log_extractors_read_as_another_field_is_not_decoded_by_a_name_match(kb):
    """ "ErrCode=507899" of a runtime line is its ACL code (the KB's extractors read it so), not the
    AI Core errcode the name "errcode" asks about."""
    line = "rtGetDeviceCount:ErrCode=507899, desc=[driver error:internal error], InnerCode=0x7020010"
    assert ("aicore-errcode", "507899") not in _readings(kb, f"{line} 507899 是什么错误")
    assert _readings(kb, "errcode:(0x800000, 0, 0) meaning") == [("aicore-errcode", "(0x800000, 0, 0)")]


def test_a_field_diagnose_reads_on_some_modules_only_is_read_where_the_question_asks_about_it(kb):
    """``ret[9]`` is an HcclResult on HCCL's error lines; a pasted line has no header to say so, so it
    is decoded where the question asks about it, not where it only sits in the pasted context."""
    context = "plog 里看到 [Wait][LinksEstablishCompleted] is failed. ret[9]."
    assert _readings(kb, f"{context} 这个 ret[9] 指什么") == [("hccl-ret", "9")]
    assert _readings(kb, f"{context} HCCL_CONNECT_TIMEOUT 要调多大") == []


def test_a_reading_that_names_a_code_is_followed_by_what_the_kb_says_the_code_is(kb):
    """retCode 0x2a reads "the API returns aclError 507018": what 507018 is comes next, from its table."""
    found = answer(KnowledgeIndex.from_kb(kb), "EZ9999 Kernel task happen error, retCode=0x2a, [aicpu exception]. 这是哪里的问题")
    assert found.text.index("`0x2a`") < found.text.index("ACL_ERROR_RT_AICPU_EXCEPTION")
    assert found.citations[:2] == ("cann-acl-error-codes#retcode-mapping", "cann-acl-error-codes#device-execution-codes")


def test_two_fields_of_a_pasted_line_are_not_one_name_several_fields_share(kb):
    found = answer(KnowledgeIndex.from_kb(kb), "EZ9999 Kernel task happen error, retCode=0x26, [aicore exception]. "
                                               "there is an aicore error, core id is 0, error code = 0x10. what does 0x10 mean?")
    assert "`0x26`" in found.text and "`0x10`" in found.text
    assert "Several fields go by that name" not in found.text


def test_the_fields_a_pasted_line_gives_come_in_the_same_order_in_every_process(kb, tmp_path):
    """Two fields of one pasted line (retCode and errcode): their readings, and so the answer's
    first source, must not follow the hash order of a set, which changes from process to process."""
    import os
    import subprocess
    import sys

    script = ("import sys; from faultbot.kb.loader import load_kb; from faultbot.qa.field_values import FieldQuestions;"
              "kb = load_kb(*map(__import__('pathlib').Path, sys.argv[1:3]));"
              "print([d.decoder for d in FieldQuestions(kb).decode(sys.argv[3])])")
    line = ("EZ9999  Kernel task happen error, retCode=0x26, [aicore exception]. errcode:(0x10, 0, 0) "
            "what does this mean")
    orders = {subprocess.run([sys.executable, "-c", script, str(kb.kb_dir), str(kb.kb_dir.parent / "articles"), line],
                             capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed, "FAULTBOT_CACHE": str(tmp_path)}).stdout
              for seed in ("1", "2", "3")}
    assert len(orders) == 1 and "ts-ret-code" in orders.pop()


def test_what_to_do_about_a_named_fault_comes_from_it_whatever_field_the_paste_gives(index):
    # errcode=0 is context: the LcalAllReduce fault's workaround answers, the reading follows it
    said = answer(index, "LcalAllReduce 算子报错，日志里 errcode=0、vector core timeout。没法升级 CANN，有没有临时规避办法？")
    assert said.citations[0] == "lccl-allreduce-flag-cleanup#workaround"
    assert "LCCL_DETERMINISTIC=1" in (said.text or "") and "errcode** `0`" in (said.text or "")
    assert "cann-aicore-error#errcode" in said.citations


def test_a_value_pasted_before_a_clause_asking_something_else_leaves_the_answer_to_that(index):
    # status[12] is context: which node is the other end is what is asked, and the ERROR CQE procedure says
    said = answer(index, "On a 64-node A2 cluster one rank logs [HeartbeatAbnormal][ROCE CQE ERROR]cqe error status[12] "
                         "with localInfo and remoteIP blocks after it. How do I work out which remote node and NPU "
                         "the failing link goes to?")
    assert said.citations[0] == "hccl-task-execution-faults#roce-cqe-resolution" and "device IP" in (said.text or "")
    # asked what it is, the same paste is read
    assert "retry counter exceeded" in (answer(index, "cqe error status[12] on one rank, what does it mean").text or "")
