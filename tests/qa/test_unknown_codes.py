"""A code the knowledge base does not describe is read by its structure (kb/codes.yaml) when a
question asks about it, with the section that mentions it, never "not in my knowledge base" and
never a cause; a code a question only tells in passing is left alone."""

from __future__ import annotations

from faultbot.qa.answer import answer


def test_a_cann_code_no_entry_describes_is_read_by_level_module_and_class(index):
    found = answer(index, "what does EH0004 mean")
    assert found.text.startswith("`EH0004` is not described in the knowledge base. By its structure, EH0004 is an "
                                 "error reported by ACL (AscendCL), in the user class range")
    assert found.citations[0].startswith("cann-error-code-structure#")
    assert not found.direct, "what the KB holds about the code, not an answer to what caused it"


def test_an_acl_code_no_table_lists_is_read_by_its_class(index):
    found = answer(index, "aclnnMoeDistributeDispatchV4 failed 561000 是啥")
    assert "`561000` is a class-5 code: internal software or hardware errors" in found.text
    assert found.citations == ("cann-error-code-structure#acl-return-codes",)


def test_this_code_after_a_paste_is_the_code_the_paste_wrote_and_the_section_mentioning_it_follows(index):
    found = answer(index, "跑检查程序报错误码 507033，plog: PrimaryContextRetain:Check param failed, dev can not be NULL! "
                          "这个码说明啥")
    assert "`507033` is a class-5 code" in found.text and "(device start failed)" in found.text
    assert "cann-driver-errors#el0001" in found.citations


def test_a_code_the_question_only_tells_is_not_what_it_asks_about(index):
    found = answer(index, "Can 310p start two vLLM services on one card? the second one fails with "
                          "[Init][Version]init soc version failed, ret = 507008")
    assert not (found.text or "").startswith("`507008` is not described")


def test_a_code_the_kb_describes_is_answered_from_what_it_says(index):
    assert "ACL_ERROR_RT_MODEL_EXECUTE" in answer(index, "runtime result = 507011，507011 是什么意思").text
