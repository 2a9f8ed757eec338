"""A question that quotes a log line an article shows (pasted from the asker's log, with other ids,
numbers and times) is answered by the section that shows and explains that line."""

from __future__ import annotations

from faultbot.qa.answer import answer
from faultbot.qa.log_examples import runs

# as a real ticket pastes it: other chip, stream and task numbers than the article's example
PASTED = ("GLM-5 两机混部跑了几个小时 EngineCore 退出，报 The error from device(chipId:3, dieId:0), serial number is 9, "
          "hccl fftsplus task timeout occurred during task execution, stream_id:9, sq_id:9, task_id:51052, "
          "stuck notify num:1, timeout=1836s. 这是什么")


def test_runs_leave_numbers_out():
    assert runs("stream_id:7, sq_id:7, task_id:9865 timeout") == runs("stream_id:9, sq_id:9, task_id:1 timeout")


def test_a_quoted_line_is_found_in_the_section_that_shows_it(index):
    quote = index.log_examples.quote(PASTED)
    assert quote.sections == {"hccl-error-code-ei0002#device-side"}
    assert not index.log_examples.quote("what is the default HCCL_EXEC_TIMEOUT").sections
    # words every plog header holds quote no section
    assert not index.log_examples.quote("[ERROR] HCCL(123,python3):2025-01-01-00:00:00.000.000 [a.cc:1] [1] x").sections


def test_the_section_showing_a_quoted_line_is_shown_and_cited(index):
    found = answer(index, PASTED)
    assert "hccl-error-code-ei0002#device-side" in found.citations
    assert "507048" in found.text



def test_a_field_of_the_pasted_line_is_not_what_is_asked_about(index):
    # chipId:3 is a field of the line, not a thing to define instead of the line
    assert "chipId" not in answer(index, PASTED).text.split("\n")[0]


def test_what_a_quoted_line_is_comes_first_from_the_article_that_explains_it(index):
    """Asked only what the line is, the section showing it leads when the best passage is another
    article's (the AI CPU article shares the device-error prefix of the line, not the line)."""
    asked = ("EngineCore exited: The error from device(chipId:3, dieId:0), serial number is 9, hccl fftsplus task "
             "timeout occurred during task execution, stream_id:9, sq_id:9, task_id:51052, stuck notify num:1, "
             "timeout=1836s. 这是什么")
    found = answer(index, asked)
    assert found.citations[0] == "hccl-error-code-ei0002#device-side"
    assert found.text.startswith("**The line you quote")


def test_a_line_an_article_quotes_as_inline_code_is_found_but_not_another_vendor_s_like_it(index):
    """The driver article quotes torch_npu's out-of-memory message inline; CUDA's has the same words."""
    pasted = "RuntimeError: NPU out of memory. Tried to allocate 52.00 MiB (NPU 0; 60.96 GiB total capacity; what do I check"
    assert index.log_examples.quote(pasted).sections == {"cann-driver-errors#device-oom"}
    assert "cann-driver-errors#device-oom" in answer(index, pasted).citations
    assert not answer(index, "CUDA out of memory. Tried to allocate 2.00 GiB, how to fix").found


def test_a_wrapper_line_around_another_code_is_not_the_line_an_article_shows(index):
    """torch_npu wraps every failed call alike ("NPU function error: ..., error code is N"): the SDMA
    article's 507013 example shares its words with a 107027 paste, not its failure."""
    wrapped = ("RuntimeError：RunOpsApiV2:build/CMakeFiles/torch_npu_dir/compile_depend.ts:243 NPU function error:"
               "c10_npu::acl::AclrtSynchronizeStreamWithTimeOut(stream),error code is {code}, what is this")
    other = answer(index, wrapped.format(code="107027"))
    assert "cann-runtime-sdma-errors#report-forms" not in other.citations and "The line you quote" not in other.text
    # the same words around the example's own code are that line
    assert "cann-runtime-sdma-errors#report-forms" in answer(index, wrapped.format(code="507013")).citations


def test_a_kernel_s_index_assertion_is_answered_by_the_section_showing_it(index):
    # vllm-ascend issue 1038, as the thread pastes it: other index and range than the article's example
    asked = ("vllm benchmark fails after VLLM_USE_V1=1: gather_v3_base.h:137: Assertion `(0 <= val && val < "
             "this->gxSize_)' Index 12 out of range[0 9)! then aivec error exception. how to fix")
    found = answer(index, asked)
    assert found.direct and found.citations[0] == "cann-aicore-error#index-assertion"
    assert "trace where the index is computed" in found.text
