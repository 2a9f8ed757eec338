"""Which sentences of a passage answer a question: the question's own words decide, not the name
the whole article is about, and a sentence that introduces something comes with what it introduces."""

from __future__ import annotations

from faultbot.qa.answer import answer
from faultbot.qa.excerpt import best_sentence, passage_excerpt
from faultbot.qa.question import Question


def _excerpt(index, section: str, question: str) -> str:
    asked = Question.read(question, index)
    return passage_excerpt(index.hit(index.position[section], asked.query), asked, index)


def test_the_sentence_with_the_question_s_other_words_answers_not_the_one_naming_the_subject(index):
    said = _excerpt(index, "lccl-allreduce-flag-cleanup#background", "does the LcalAllReduce error happen on every run")
    assert "**probabilistic**" in said


def test_a_sentence_introducing_a_left_out_log_example_comes_with_the_paragraph_reading_it(index):
    said = _excerpt(index, "hccl-task-execution-faults#roce-cqe-resolution", "how to find the remote end of an ERROR CQE")
    assert said.startswith("First find the **remote end**")
    assert "`remoteIP`" in said


def test_a_section_titled_for_what_is_asked_opens_with_its_lead(index):
    said = _excerpt(index, "hccl-task-execution-faults#sdma-causes", "what goes wrong underneath an sdma error in plog")
    assert said.startswith("The SDMA memory copy task hit a **page-table translation failure**")


def test_a_name_the_title_writes_as_words_does_not_choose_the_sentence(index):
    # "Heartbeat abnormal events": every sentence is about HeartbeatAbnormal, the field asked about decides
    said = _excerpt(index, "hccl-task-execution-faults#heartbeat-abnormal-events",
                    "HeartbeatAbnormal line: who is the informerRank")
    assert "the rank that reported the fault" in said
    assert "marks a heartbeat exception event" not in said


def test_sentences_well_below_the_best_still_come_with_it(index):
    # the best sentence names the cluster heartbeat; why the ranks time out is said two sentences on
    said = _excerpt(index, "hccl-task-execution-faults#overview",
                    "timeouts on nearly every rank after one node's process crashed - expected? why does it spread")
    assert "spreads it over heartbeats" in said and "notify wait timeouts" in said


def test_a_point_that_says_its_command_follows_brings_that_command(index):
    # the point's words hold none of the command's; it says "(command and example output below)"
    said = _excerpt(index, "hccl-task-execution-faults#roce-cqe-resolution/1",
                    "how to see whether the roce port of one card flapped last night")
    assert "**port flapping**" in said and "hccn_tool -i 0 -link_stat -g" in said


def test_a_row_of_a_long_list_of_codes_comes_alone(index):
    # every row of the runtime's code list writes "error": that says nothing about which answers
    said = _excerpt(index, "cann-acl-error-codes#runtime-code-list", "507008 soc version error 怎么回事")
    assert "ACL_ERROR_RT_SOC_VERSION" in said and "107000" not in said and "507009" not in said


def test_a_run_in_head_comes_with_the_sentence_it_heads(index):
    # "**A timeout with no heartbeat events.**" alone says nothing; the next sentence gives the cause
    said = _excerpt(index, "hccl-task-execution-faults#heartbeat-caveats", "超时了但是没有任何心跳异常事件，是什么问题？")
    assert "**A timeout with no heartbeat events.** The cause is probably **inconsistent behaviour" in said


def test_a_sentence_introducing_a_left_out_log_example_does_not_dangle_as_context(index):
    # "The documented format:" and "Example:" come along with their paragraphs, but their examples do not
    said = _excerpt(index, "hccl-task-execution-faults#heartbeat-abnormal-events", "心跳异常事件在日志里搜什么关键字")
    assert "Search for the keyword `HeartbeatAbnormal`" in said
    assert "The documented format:" not in said and "Example:" not in said


def test_a_sentence_saying_only_how_a_left_out_example_is_laid_out_is_not_shown(index):
    # "rank0, one record per line:" holds the question's "rank0" but says nothing without its records
    said = _excerpt(index, "hccl-task-execution-faults#exec-timeout-gap",
                    "rank0 & rank1 timeout ~5min apart, exec timeout 300s, related?")
    assert "**5 minutes 40 seconds apart**" in said
    assert "one record per line" not in said and "glued onto one line" not in said


def test_a_sentence_pointing_back_at_commands_comes_with_them(index):
    # "The first shows whether the optical module is in place, ...": of the three commands above it
    asked = Question.read("what commands show whether a device network port is down", index)
    hit = index.hit(index.position["hccl-error-code-ei0009#port-down"], asked.query)
    said = best_sentence(hit, asked, index)
    assert said.startswith("The 9.0.0 solution is to check with hccn_tool")
    assert "hccn_tool -i $i -lldp -g" in said and "The first shows whether" in said


def test_a_sentence_whose_log_example_is_left_out_ends_as_a_sentence(index):
    # "In this case a process is stuck (进程卡死):" introduces a log line excerpts leave out
    said = _excerpt(index, "hccl-task-execution-faults#example-process-stuck", "why is there no Cluster Exception Location line in my logs")
    assert "In this case a process is stuck (进程卡死)." in said
    assert not any(line.endswith(":") for line in said.splitlines())


def test_a_pasted_line_asked_what_it_is_gets_its_article_s_definition_and_no_label_of_its_example(index):
    # the section shows the line under "The guide's screen example:", a label with nothing after it here
    said = answer(index, "Failed to allocate [size: [0.25MB, 3MB], Affected by QP depth configuration.] bytes — what's this")
    assert said.text.startswith("**EI0011 (Resource_Error_Insufficient_Device_Memory) — not enough NPU memory for HCCL.**")
    assert "screen example" not in said.text
