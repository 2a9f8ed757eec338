"""Answering from what the knowledge base states about a named thing: headings and definitions read
into things, names found in questions, and the statement that answers what is asked."""

from __future__ import annotations

import shutil

import pytest

from faultbot.kb.loader import load_kb
from faultbot.kb.model import Intent
from faultbot.qa.answer import answer
from faultbot.qa.definitions import definitions
from faultbot.qa.excerpt import passage_excerpt
from faultbot.qa.headings import article_definition, article_subject, read_heading
from faultbot.qa.index import KnowledgeIndex
from faultbot.qa.question import Question, without_absent_names
from faultbot.qa.stated import is_about
from faultbot.qa.structured import asked_last, choose, last_clause

from ..conftest import REPO_DIR

SECTION = """The fields:

- `crimer rank`: the **root node**, i.e. the rank where the fault happened.
- `AI_CPU` / `AICPU_TS`: expanded on the device AI CPU.
- **Notify**: usually a timeout while waiting
  for the remote end.

| Error code / keyword | Meaning |
|---|---|
| EI0012, `Execution_Error_SDMA` | SDMA copy failed |
| 42 | a number names nothing |

HCCL (Huawei Collective Communication Library, 集合通信库) is the collective library.
A DFX (diagnosability) mechanism is no acronym spelled out.
"""


def test_a_section_defines_list_item_names_row_names_and_spelled_out_acronyms():
    found = {d.names: d.text for d in definitions(SECTION)}
    assert found[("crimer rank",)].startswith("`crimer rank`: the **root node**")
    assert ("AI_CPU", "AICPU_TS") in found
    assert found[("Notify",)].endswith("waiting for the remote end.")
    assert found[("Execution_Error_SDMA", "EI0012")] == \
        "Error code / keyword: EI0012, `Execution_Error_SDMA`; Meaning: SDMA copy failed"
    assert found[("HCCL",)].startswith("HCCL (Huawei Collective Communication Library")
    assert not [names for names in found if "42" in names or "DFX" in names]


@pytest.mark.parametrize("title, names, intents", [
    ("Causes of SDMA ERROR", ("SDMA ERROR",), {Intent.CAUSE}),
    ("SDMA ERROR (EI0012)", ("SDMA ERROR", "EI0012"), {Intent.MEANING}),
    ("What EI0002 means", ("EI0002",), {Intent.MEANING}),
    ("Root cause", (), {Intent.CAUSE}),
    ("Range and default", (), {Intent.DEFAULT, Intent.RANGE}),
    ("EL0001 — device absent or abnormal", ("EL0001",), {Intent.MEANING}),
    ("Notify wait timeout (EI0002)", ("Notify wait timeout", "EI0002"), {Intent.MEANING}),
])
def test_a_heading_names_a_thing_and_says_what_its_section_answers_about_it(index, title, names, intents):
    heading = read_heading(title, index.rewording)
    assert heading.usable and heading.names == names and heading.intents == intents


@pytest.mark.parametrize("title", ["Heartbeat abnormal events in the run log", "Overview", "How codes are printed",
                                   "Step 1: find every rank of the communicator"])
def test_a_heading_that_describes_rather_than_names_is_not_used(index, title):
    assert not read_heading(title, index.rewording).usable


def test_an_article_titled_by_one_name_is_about_it():
    assert article_subject("EI0002 (Communication_Error_Timeout) — every wording") == \
        ("EI0002", "Communication_Error_Timeout")
    assert article_subject("EI0019 / EI0020 (Communication_Error_Bind_IP_Port) — ports") == ()
    assert article_subject("HCCL task execution faults — locating the failing rank") == ()


def test_what_an_article_title_says_its_subject_is_stops_at_the_first_clause():
    assert article_definition("EI0006 (Communication_Error_Get_Socket) — HCCL link-setup socket timeout, the peer "
                              "checks, TLS mismatch") == "EI0006 (Communication_Error_Get_Socket) — HCCL link-setup socket timeout"
    # a comma inside parentheses is part of the clause
    assert article_definition("HCCL_BUFFSIZE — the per-communicator HCCL buffer (default 200 MB, twice per "
                              "communicator), sizing it") == "HCCL_BUFFSIZE — the per-communicator HCCL buffer (default 200 MB, twice per communicator)"
    # a title that does not open with its subject alone says what the article covers, not what the subject is
    assert article_definition("LcalAllReduce errors (vector core timeout) that hang jobs — root cause and fixes") == ""


def test_what_a_code_is_opens_with_what_the_article_about_it_says_it_is(index):
    found = answer(index, "what is EI0011")
    assert found.citations[0].startswith("hccl-error-code-ei0011#")
    assert found.text.startswith("**EI0011 (Resource_Error_Insufficient_Device_Memory) — not enough NPU memory for HCCL.**")
    # asked how to fix it, not what it is: the particulars answer
    assert not answer(index, "how do I fix EI0011").text.startswith("**EI0011")


def _linked(index, question: str) -> list[tuple[str, ...]]:
    asked = Question.read(question, index)
    return [index.catalogue.things[n].names for n in index.linker.linked(asked.text, index.catalogue)]


def test_a_name_is_found_by_its_words_in_any_order_close_together(index):
    assert any("EI0013" in names for names in _linked(index, "why did I get a roce cqe error"))
    # "event ... timeout" far apart in another order, stop words between: not HCCL_EVENT_TIMEOUT
    assert not any("HCCL_EVENT_TIMEOUT" in names
                   for names in _linked(index, "timed out but there are no heartbeat events"))


def test_a_name_of_words_run_together_is_also_found_written_apart(index):
    assert any("HeartbeatAbnormal" in names for names in _linked(index, "what does a heartbeat abnormal line say"))
    assert not any("HeartbeatAbnormal" in names for names in _linked(index, "an abnormal exit, no heartbeat"))


def test_a_plain_one_word_name_counts_only_beside_a_word_of_where_it_is_defined(index):
    assert any("status" in names for names in _linked(index, "possible status values of a heartbeat abnormal line"))
    assert not any("status" in names for names in _linked(index, "what is the status of my order"))


def _chosen(index, question: str):
    asked = Question.read(question, index)
    return choose(index, asked.text, asked.intents)


def test_what_is_asked_about_what_is_named_picks_the_section_titled_for_it(index):
    choice = _chosen(index, "why does LcalAllReduce hang")
    assert choice.statements[0].citation == "lccl-allreduce-flag-cleanup#root-cause"
    choice = _chosen(index, "how can I work around the LcalAllReduce hang without upgrading CANN")
    assert choice.statements[0].citation == "lccl-allreduce-flag-cleanup#workaround"


def test_the_question_s_other_words_pick_the_particular_fault_among_entries(index):
    choice = _chosen(index, "how do I check whether the communicator was destroyed before the SDMA error")
    assert choice.intents == {Intent.CHECK}
    assert index.passages[choice.statements[0].passage].ref == "hccl.sdma-error.comm-destroyed next_checks"


def test_a_question_naming_nothing_or_asking_nothing_is_left_to_the_passages(index):
    assert _chosen(index, "how do I plot heartbeat latency in grafana") is None
    assert _chosen(index, "LcalAllReduce") is None


def test_codes_an_entry_lists_stay_things_of_their_own(index):
    found = answer(index, "what is ACL error 507034")
    assert "vector core execution timed out" in found.text and "AI Core execution timed out" not in found.text
    assert found.citations[0] == "cann-acl-error-codes#device-execution-codes"


def test_a_short_definition_is_followed_by_the_section_that_says_more(index):
    found = answer(index, "what is error 507010")
    assert found.citations[:2] == ("cann-acl-error-codes#device-execution-codes",
                                   "cann-acl-error-codes#task-scheduler-heartbeat")
    assert "**Task scheduler heartbeat lost (507010):**" in found.text


def test_a_word_most_passages_write_answers_only_a_question_about_it_alone(index):
    assert "Huawei Collective Communication Library" in answer(index, "what does HCCL stand for").text
    assert answer(index, "HCCL 日志里 ret[9] 是什么错误？").citations[0].startswith("hccl-error-code-hcclresult")


@pytest.mark.parametrize("question, named, said", [
    ("crimer rank grafana panel colours", "crimer rank", "the **root node**"),
    # the statement about HeartbeatAbnormal comes from the section that also says who the crimer is
    ("HeartbeatAbnormal dashboard colours for the crimerRank column", "HeartbeatAbnormal",
     "the **root node**, i.e. the rank where the fault happened"),
])
def test_a_thing_named_without_a_question_gets_what_the_kb_says_it_is_and_its_section(index, question, named, said):
    found = answer(index, question)
    assert found.text.startswith(f"Nothing in the knowledge base answers this directly. What it says about `{named}`")
    assert said in found.text
    assert found.citations == ("hccl-task-execution-faults#heartbeat-abnormal-events",)


def test_a_name_only_the_synonyms_wrote_is_not_a_thing_the_question_names(index):
    """接口 is read as API, a name the KB writes; the asker never named it, so nothing is said about it."""
    asked = "这个接口线程安全吗"
    assert "API" in index.rewording.reword(asked)
    assert "What it holds about `API`" not in (answer(index, asked).text or "")
    assert "What it holds about `API`" in (answer(index, asked.replace("接口", "API")).text or "")


def test_things_compared_are_each_said_and_a_shared_section_once(index):
    found = answer(index, "socket type[2] versus socket type[0] in hccl_socket.cc, which is which")
    assert "What it says about `socket type[2]` and `socket type[0]`" in found.text
    assert "the **host** NIC port" in found.text and "the **device** NIC port" in found.text
    assert found.text.count("the **device** NIC port") == 1
    # naming two things without comparing them is not a question about both
    assert "What it says about `socket type[2]` and" not in (answer(index, "socket type[2] and socket type[0] grafana "
                                                                    "panel colours").text or "")

def test_a_weakly_asked_statement_holding_little_of_the_question_does_not_answer_it(index):
    # "what do I check" of acldvppMalloc (a name the KB never writes): the device-OOM checks hold a
    # quarter of the question; 207018 is what it is about, and what the KB says 207018 is answers
    found = answer(index, "acldvppMalloc returns 207018 on one card, what do I check")
    assert found.citations[0] == "cann-acl-error-codes#resource-codes"

def test_a_table_row_of_values_defines_nothing(index):
    found = answer(index, "what is PyTorch")
    assert "Component: PyTorch" not in (found.text or "")


def test_a_name_of_several_words_is_also_named_by_its_one_distinctive_word(index):
    assert ("by by informer rank",) in _linked(index, "what does the informer of a heartbeat event do")
    assert _linked(index, "what is the informer") == []       # a plain word: only beside a word of its titles
    # a name holding a value (errNo[0x05010009]) is that value's, not what its label names
    assert not any(name.startswith("errNo[") for names in _linked(index, "what does errNo mean in the hccl log")
                   for name in names)


def test_a_name_the_kb_writes_only_in_passing_does_not_make_a_passage_an_answer(index):
    for question in ("how do I install PyTorch", "vLLM 怎么部署", "MindSpore 怎么安装？"):
        assert not answer(index, question).found, question
    assert answer(index, "how do I install msaicerr").found      # a tool a section is titled by


def test_a_question_about_parts_gets_the_list_a_sentence_introduces(index):
    section = index.position["hccl-task-execution-faults#task-exception"]
    said = {}
    for question in ("what are the parts of a Task run failed record", "what is a Task run failed record"):
        asked = Question.read(question, index)
        said[question] = passage_excerpt(index.hit(section, asked.query), asked, index)
    assert "**groupRank information**" in said["what are the parts of a Task run failed record"]
    assert "**groupRank information**" not in said["what is a Task run failed record"]


def test_a_how_to_gets_the_sentence_that_says_which_variable_to_set(index):
    section = index.position["hccl-task-execution-faults#exec-timeout-gap"]
    asked = Question.read("two ranks failed 6 minutes apart with a 300 s timeout, what should I do", index)
    said = passage_excerpt(index.hit(section, asked.query), asked, index)
    assert "set `HCCL_EXEC_TIMEOUT` to a suitable larger value" in said
    assert 'grep -r "HCCL_EXEC_TIMEOUT" run/plog' in said        # and a command still comes along


def test_a_fix_that_only_one_fault_of_a_code_s_family_states_says_so(index):
    """EI0012 names a family of faults; only one of them has a permanent fix of its own: the answer
    says it is for that fault, by its title, instead of passing it off as the fix for EI0002."""
    said = answer(index, "how to fix EI0012").text
    assert said.startswith("The knowledge base states this for one particular fault behind `SDMA ERROR`")
    assert "**SDMA error from a network link fault between the two ends (Atlas A3) — permanent fix:**" in said


def test_the_family_s_own_statement_answers_without_the_caveat(index):
    said = answer(index, "EI0002 workaround").text
    assert "particular fault" not in said and "several faults" not in said


def test_when_several_faults_of_a_family_state_it_each_is_shown_under_its_title(tmp_path):
    """A KB where two faults of the EI0012 family have a permanent fix of their own (and the family
    none): the answer shows both, and says the log decides which applies."""
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    shutil.copytree(REPO_DIR / "articles", tmp_path / "articles")
    entry = tmp_path / "kb" / "entries" / "hccl" / "hccl.sdma-error.comm-destroyed.yaml"
    text = entry.read_text(encoding="utf-8")
    entry.write_text(text.replace("  next_checks:", "  permanent:\n    - text: Synchronise the stream before destroying the communicator.\n"
                                  "      citation: hccl-task-execution-faults#sdma-causes\n  next_checks:", 1),
                     encoding="utf-8")
    said = answer(KnowledgeIndex.of(load_kb(tmp_path / "kb", tmp_path / "articles")), "how to fix EI0012").text
    assert said.startswith("The knowledge base knows several faults behind `SDMA ERROR`")
    assert "(Atlas A3) — permanent fix:**" in said
    assert "Synchronise the stream before destroying the communicator." in said


def test_a_named_thing_no_passage_answers_gets_the_sentences_of_its_own_section_nearest_the_question(index):
    found = answer(index, "Execution_Error_AICPU_Operator_Timeout right when the dataset iterator op feeds the "
                          "graph, whats the root cause + can the limit be extended")
    assert not found.direct and found.citations[0] == "cann-aicpu-errors#e30008"
    assert "aclrtSetOpExecuteTimeOut" in found.text
    # a section naming it only in a table row is listed by its title, not quoted
    named_in_passing = answer(index, "how do I quantize a model to int8 with the Ascend AMCT tool")
    assert not named_in_passing.direct and "**" not in named_in_passing.text


def test_a_labelled_sentence_of_a_thing_s_section_states_what_its_label_asks_for(index):
    # "E39009 — device status abnormal": a code with a digit for its module letter names the section
    cause = answer(index, "E39009 Failed to connect the device — what causes it")
    assert cause.text.startswith("Possible causes: **the heartbeats of the device are missing**")
    assert cause.citations[0] == "cann-aicpu-errors#e39009"
    fix = answer(index, "how do I fix E30008")
    assert fix.text.startswith("Solutions:") and "aclrtSetOpExecuteTimeOut" in fix.text


def test_what_the_kb_says_of_a_named_thing_ends_with_its_section_nearest_the_question(index):
    found = answer(index, "EI0012 at the very end of the run, right after dist.destroy_process_group(). coincidence?")
    assert not found.direct and "hccl-task-execution-faults#sdma-causes" in found.citations
    assert "destroyed the communicator right after dispatching a collective" in found.text


def test_a_section_titled_by_a_named_thing_is_its_section_too(index):
    # AIV is a value of HCCL_OP_EXPANSION_MODE; "AIV mode constraints" is about it by its title
    found = answer(index, "TP和DP两个通信域都开了AIV，训练卡死在第一步，是不是抢核了？咋规避")
    assert found.citations[0] == "hccl-env-hccl-op-expansion-mode#aiv" and "deadlock" in found.text
    assert is_about(index.hit(index.position["hccl-env-hccl-op-expansion-mode#aiv"], {}), ("AIV",))
    assert not is_about(index.hit(index.position["hccl-error-code-ei0011#templates"], {}), ("AIV",))


def test_a_code_the_question_says_is_absent_is_not_what_it_asks_about(index):
    for absent in ("torch_npu watchdog caught collective operation timeout, no EI0002 anywhere, why",
                   "torch_npu 看门狗报 collective operation timeout，日志里没有 EI0002，怎么回事"):
        reworded = index.rewording.reword(absent)
        assert not [n for n in index.linker.linked(reworded, index.catalogue)
                    if "EI0002" in index.catalogue.things[n].names], absent
    present = index.rewording.reword("torch_npu 报 EI0002，怎么回事")
    assert any("EI0002" in index.catalogue.things[n].names for n in index.linker.linked(present, index.catalogue))
    assert without_absent_names("no such file, not found, without HCCL_BUFFSIZE") == "no such file, not found,  "


def test_what_a_name_means_is_asked_as_what_it_is(index):
    # ERR02200 is written in passing (no section is titled by it); "what does it mean" asks what "what is" asks
    for question in ("what is ERR02200", "ERR02200 是什么意思？"):
        assert "DIST call hccl api failed" in (answer(index, question).text or ""), question


def test_a_cause_and_a_fix_asked_together_are_both_answered(index):
    said = answer(index, "what causes E39009 and how do I fix it").text
    assert "Solutions:" in said and "Possible causes:" in said
    assert "Possible causes:" not in answer(index, "how do I fix E39009").text


def test_a_question_that_gives_its_context_first_asks_about_what_its_last_clause_names(index):
    """Engineers paste what they set and what the log said, then ask: the thing the last clause names
    is the one asked about; a question asking in an earlier clause too asks about all it names."""
    asked = ("already export HCCL_EXEC_TIMEOUT=3600, still NPU function error: aclrtSynchronizeDevice, "
             "error code is 507046，507046 是什么")
    assert answer(index, asked).citations[0] == "cann-acl-error-codes#device-execution-codes"
    asks = "fails at socket setup with EI0006. what does HCCL_CONNECT_TIMEOUT control, and when should I raise it?"
    assert last_clause(asks) == "what does HCCL_CONNECT_TIMEOUT control, and when should I raise it?"
    # "what's" asks, as "what" does; "can't" does not
    assert last_clause("Failed to allocate [size: [0.25MB, 3MB]] bytes — what's this") == "what's this"
    assert last_clause("can't connect to the root, HCCL_CONNECT_TIMEOUT 要调多大") == "HCCL_CONNECT_TIMEOUT 要调多大"
    # how large, how long: Chinese asks with them anywhere in a clause
    for pasted, asking in (("ret[9].", "HCCL_CONNECT_TIMEOUT 要调多大"), ("卡了半小时，", "HCCL_EXEC_TIMEOUT 默认多久")):
        assert last_clause(f"plog 里 [Wait][LinksEstablishCompleted] failed. {pasted} {asking}") == asking
    # of the things an asking clause names, the one written at its question word is asked about
    pasted = ("plog: ProcLogicCqReport:Task run failed, device_id=5, sqe_type=7(notify wait), "
              "errType=0x20(sq sw status error) 507011 是什么含义")
    reworded = index.rewording.reword(pasted)
    named = index.linker.linked(reworded, index.catalogue)
    assert [index.catalogue.things[n].names[0] for n in asked_last(index, reworded, named)] == ["507011"]
    assert "ACL_ERROR_RT_MODEL_EXECUTE" in answer(index, pasted).text
    # 是什么意思 and 代表什么 are said as "mean" and "acronym": they still ask
    assert last_clause(index.rewording.reword("error code is 207005 [Error]: Failed to apply for memory. 这个207005代表什么")
                       ) == index.rewording.reword("这个207005代表什么")
    # "跑了几个小时" tells how long it ran; "几" asks elsewhere
    assert last_clause("训练跑了几个小时后报 EI0002，怎么处理") == "怎么处理"
    for both in ("HCCL_EVENT_TIMEOUT 默认值多少？要比 HCCL_EXEC_TIMEOUT 大吗",
                 "HCCL_EVENT_TIMEOUT 不配默认值多少，要不要比 HCCL_EXEC_TIMEOUT 大"):
        reworded = index.rewording.reword(both)
        named = index.linker.linked(reworded, index.catalogue)
        assert len(named) == 2 and asked_last(index, reworded, named) == named


def test_this_error_code_is_the_code_the_question_writes(index):
    """"这个错误码是啥" after a pasted line naming a code and a fault: the code is asked about."""
    reworded = index.rewording.reword("inference copy 报 NPU warning, error code is 507013，device 日志 hwts sdma error，"
                                      "这个错误码是啥")
    named = index.linker.linked(reworded, index.catalogue)
    assert len(named) == 2
    assert [index.catalogue.things[n].names[0] for n in asked_last(index, reworded, named)] == ["507013"]
    # and what the KB states of the code answers it directly, the pasted line notwithstanding
    found = answer(index, "inference copy 报 NPU warning, error code is 507013，device 日志 hwts sdma error，这个错误码是啥")
    assert found.direct and "ACL_ERROR_RT_SYS_DMA" in found.text


def test_a_last_clause_asking_about_it_is_about_the_code_the_paste_reports(index):
    """"..., error code is 107027 . how can I solve it?" after a run that set a variable: the code
    the failure reports is what "it" is, not the variable set to run it."""
    pasted = ("export ASCEND_LAUNCH_BLOCKING=1 and vllm serve, then NPU function error: "
              "c10_npu::acl::AclrtSynchronizeStreamWithTimeOut(stream),error code is 107027 . how can I solve it?")
    reworded = index.rewording.reword(pasted)
    named = index.linker.linked(reworded, index.catalogue)
    assert len(named) == 2
    assert [index.catalogue.things[n].names[0] for n in asked_last(index, reworded, named)] == ["107027"]
    assert "ACL_ERROR_RT_STREAM_CAPTURED" in answer(index, pasted).text
    # a clause naming nothing that does not refer back asks about them all
    plain = index.rewording.reword("export ASCEND_LAUNCH_BLOCKING=1, error code is 107027, how do I set up logging")
    assert len(asked_last(index, plain, index.linker.linked(plain, index.catalogue))) == 2


def test_a_thing_asked_about_after_a_paste_is_answered_from_what_the_kb_states(index):
    """The pasted line makes the question long; what it asks is its last clause, which the
    statement about the named code holds, so the statement answers directly."""
    asked = ("A2 box after a long run: NPU function error: aclrtSynchronizeDevice, error code is 507014 [Error]: "
             "The aicore execution times out. what does 507014 indicate?")
    found = answer(index, asked)
    assert found.direct and found.citations[0] == "cann-acl-error-codes#device-execution-codes"


def test_a_field_named_with_underscores_is_found_in_a_title_that_writes_it_in_words(index):
    """device_ip of a pasted message is the "Device IP" a section is titled by: that section is shown."""
    found = answer(index, "MindIE 报 device_ip is invalid in ranktable file，怎么解决")
    assert "hccn_tool -i <device_id> -ip -g" in found.text
    assert found.citations[0] == "hccl-error-code-ei0014#device-ip"


def test_a_second_thing_asked_about_beside_a_setting_sends_the_question_to_the_section_about_both(index):
    # the setting's own range is not what it has to be for the MC2 operators the question names
    said = answer(index, "MoeDistributeDispatch HCCL_BUFFSIZE minimum")
    assert said.citations[0] == "hccl-env-hccl-buffsize#mc2" and "EP communicator" in said.text
    # typed in lower case, as people type it, it is still the operator the section names
    typed = answer(index, "moedistributedispatch min HCCL_BUFFSIZE formula")
    assert typed.citations[0] == "hccl-env-hccl-buffsize#mc2" and "EP communicator" in typed.text
    # a name pasted before the clause that asks about the code does not: the code's own section answers
    asked = "the log has rtKernelLaunchWithHandleV2 failed: 507014 [Error]: The aicore execution times out. what is 507014"
    assert answer(index, asked).citations[0] == "cann-acl-error-codes#device-execution-codes"


def test_a_limit_of_one_mode_of_a_setting_is_answered_by_the_passage_saying_it_not_the_setting_s_values(index):
    said = answer(index, "AI_CPU expansion mode max concurrent graphs per card")
    assert said.citations[0] == "hccl-env-hccl-op-expansion-mode#per-product" and "6 graphs" in said.text
