"""How CANN error codes are built, answered from kb/codes.yaml: the module a module character names
(asked by the character, a prefix or a code), the parts of a code and its number classes, and the
class an aclError's first digit gives it."""

from __future__ import annotations

import pytest

from faultbot.qa.answer import answer


@pytest.mark.parametrize("question, module", [
    ("which module does the second letter I in an error code stand for", "`I` is HCCL"),
    ("错误码 EIxxxx 里的 I 代表哪个模块？", "`I` is HCCL"),
    ("EL error codes come from which component", "`L` is Driver"),
    ("which module reports EK1234", "`K` is Profiling"),
])
def test_the_module_a_code_s_second_character_names(index, question, module):
    found = answer(index, question)
    assert module in found.text
    assert "cann-error-code-structure#module-letters" in found.citations


def test_the_parts_of_an_error_code_and_its_number_classes(index):
    found = answer(index, "how is a CANN error code like EI0002 built")
    assert "- the level letter: `E` error, `W` warning, `I` information;" in found.text
    assert "9000–9999, internal" in found.text
    assert "9000–9999, internal" in answer(index, "user vs internal error code ranges").text


def test_each_character_of_a_code_written_is_asked_of_the_code_not_of_its_message(index):
    assert answer(index, "decode EL0004 for me — what does each char mean").text.startswith(
        "A CANN error code is a level letter, a module character and four digits:")
    # the parts of what a code prints are not the parts of the code
    assert "level letter" not in answer(index, "what does the EI0002 message consist of").text


def test_a_code_without_a_question_about_its_module_is_answered_about_the_code(index):
    found = answer(index, "what is EI0012")
    assert "module" not in found.text.split("\n")[0] and "SDMA copy failed" in found.text


def test_a_module_word_far_from_the_code_is_not_asking_which_module_reports_it(index):
    found = answer(index, "EI0009 on node 4, which hccn_tool cmds verify the fibre module, ip and switch link for all 8 npus?")
    assert not found.citations[0].startswith("cann-error-code-structure#")


def test_a_torch_npu_err_code_is_read_as_its_submodule_and_code(index):
    found = answer(index, "what does ERR02200 actually tell me")
    assert "DIST (distributed, HCCL)" in found.text and "call hccl api failed" in found.text
    assert found.citations == ("cann-error-code-structure#torch-npu-err-codes",)
    # older torch_npu prints the code with two digits
    assert "internal error" in answer(index, "ERR0105 是什么意思").text
    # the six digits of a pasted line's PID are not an ACL code the ERR code wraps
    pasted = "[ERROR] 2026-07-07-07:20:43 (PID:163686, Device:1, RankID:-1) ERR02005 DIST internal error, meaning?"
    assert "DIST internal error" in answer(index, pasted).text


def test_an_err_code_wrapping_a_cann_or_acl_code_leaves_the_answer_to_that_code(index):
    for asked in ("ERR02005 DIST internal error on every rank, error code is 507014. what is that",
                  "ERR02200 DIST call hccl api failed. EJ0001: Failed to initialize the HCCP process, what now"):
        assert "two-digit submodule" not in (answer(index, asked).text or "")


def test_codes_asked_about_by_how_their_digits_end_get_the_number_classes(index):
    found = answer(index, "retcode 507011 together with E39999: Inner Error — what do codes ending in 9999 mean")
    assert "9000–9999, internal" in found.text


@pytest.mark.parametrize("question", [
    "is a 5-prefixed aclError something i can fix myself or is it vendor-side",
    "acl ret 2XXXXX vs 5XXXXX",
    "aclrtMemGetAllocationGranularity 返回 error code 100000，这种1开头的码是哪一类",
])
def test_an_acl_code_asked_about_by_its_first_digit_gets_the_classes(index, question):
    found = answer(index, question)
    assert "- `5XXXXX`: internal software or hardware errors, including device execution failures" in found.text
    assert found.citations[0] == "cann-error-code-structure#acl-return-codes"


def test_the_class_of_a_written_acl_code_comes_first_and_a_cann_code_s_digits_are_not_an_acl_class(index):
    assert answer(index, "100000 开头是1，是哪一类").text.startswith("`100000` is a class-1 code: the developer's environment")
    assert "aclError" not in answer(index, "错误码后四位是9开头的代表什么").text


@pytest.mark.parametrize("question, told", [
    ("do W-prefixed cann codes ever kill a job or are they just noise", "`W` codes are **warnings**: worth reading"),
    ("W 开头的错误码会导致任务挂掉吗？", "`W` codes are **warnings**"),
    ("WE0001 'not supported' right before the failure, should i chase it", "`WE0001` is a **warning** (W) from **Runtime** (E)"),
])
def test_codes_asked_about_by_their_level_get_what_that_level_tells(index, question, told):
    found = answer(index, question)
    assert found.text.startswith(told) and "cann-error-code-structure#level-letter" in found.citations


def test_a_question_about_the_parts_of_a_warning_code_gets_the_parts(index):
    found = answer(index, "错误码 W40010 里的 W 和 4 分别表示啥？后面四位呢").text
    assert "9000–9999, internal" in found and "**warning**" not in found


def test_the_class_of_a_code_the_kb_describes_comes_with_what_it_describes_it_as(index):
    found = answer(index, "error code is 507015 [Error]: The aicore execution is abnormal. 507015 算哪一类错误")
    first, second = found.text.split("\n\n")[:2]
    assert first.startswith("`507015` is a class-5 code") and "ACL_ERROR_RT_AICORE_EXCEPTION" in second
    assert found.citations[:2] == ("cann-error-code-structure#acl-return-codes", "cann-acl-error-codes#device-execution-codes")


def test_every_runtime_code_of_the_header_is_described(index):
    for question, name in (("what is 107027", "ACL_ERROR_RT_STREAM_CAPTURED"),
                           ("error code 507905 是什么", "ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT")):
        found = answer(index, question)
        assert found.direct and name in found.text, question
        assert found.citations[0] == "cann-acl-error-codes#runtime-code-list"


def test_what_an_acl_code_is_comes_with_the_class_its_first_digit_gives_it(index):
    found = answer(index, "what does 107027 mean")
    assert "ACL_ERROR_RT_STREAM_CAPTURED" in found.text and "`107027` is a class-1 code" in found.text
    assert "cann-error-code-structure#acl-return-codes" in found.citations
    # asked what to do about it: the class is not what is asked
    assert "class-5" not in (answer(index, "how do I fix 507015").text or "")


def test_why_an_acl_code_happened_opens_with_what_the_code_is(index):
    # torch_npu's "error code:507015" writes the code after a colon
    for question in ("error code 507015, what causes it",
                     "RuntimeError: ACL stream synchronize failed, error code:507015，是什么原因"):
        found = answer(index, question)
        assert found.text.startswith("507015 (`ACL_ERROR_RT_AICORE_EXCEPTION`: AI Core execution exception) is a class-5"), question
        assert "cann-acl-error-codes#device-execution-codes" in found.citations
    # asked which field to read, the code's name is not the answer's first line
    assert not answer(index, "which field names the failing operator for an aicpu exception (507018)?").text.startswith("507018")
