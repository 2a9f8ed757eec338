"""A question in the articles' words: synonyms and the glossary (kb/vocabulary.yaml), typos in the
names the KB knows, full-width punctuation; and what the question asks for."""

from __future__ import annotations

from faultbot.kb.model import Intent
from faultbot.qa.answer import answer
from faultbot.qa.index import ENTITY
from faultbot.qa.rewording import NAME


def test_synonyms_and_inflections_become_the_articles_word(index):
    reword = index.rewording.reword
    assert "workaround" in reword("how do I work around the LCCL hang").split()
    assert "workaround" in reword("is there a worked around for it").split()
    assert reword("hccl is stuck") == reword("hccl is frozen") == "hccl is hang"
    assert "heartbeat" in reword("how often are heartbeats sent").split()


def test_chinese_question_words_become_the_articles_words(index):
    assert "enable" in index.rewording.reword("AIV模式怎么开启")
    assert "default" in index.rewording.reword("HCCL_EXEC_TIMEOUT 默认是多少")
    assert "communicator" in index.rewording.reword("通信域里有哪些rank")


def test_an_error_code_written_after_the_word_for_reporting_one_stays_an_error_code(index):
    """"报错误码 507033" is 报 (reports) and 错误码 (error code), not 报错 (error) and a stray 误码."""
    assert "error code 507033" in index.rewording.reword("跑检查程序报错误码 507033")
    assert "error code" in index.rewording.reword("报错码0xa8028802")
    assert Intent.MEANING in index.rewording.intents(index.rewording.reword("Arrival Time 到底指啥"))
    assert Intent.MEANING in index.rewording.intents(index.rewording.reword("what kind of error is EI0002"))


def test_a_name_typed_with_a_typo_is_the_name_the_kb_knows(index):
    assert "HCCL_EXEC_TIMEOUT" in index.rewording.reword("default HCCL_EXEC_TIMOUT?")
    # short names differ by design, not by typos: EI0012 is not EI0002
    assert "EI0012" in index.rewording.reword("what is EI0012")
    assert "NCCL_TIMEOUT" in index.rewording.reword("what is the default NCCL_TIMEOUT")


def test_full_width_punctuation_is_read_as_ascii(index):
    assert index.rewording.reword("HCCL_EXEC_TIMEOUT默认值？") == "HCCL_EXEC_TIMEOUT default ?"


def test_what_a_question_asks_for(index):
    intents = lambda q: index.rewording.intents(index.rewording.reword(q))  # noqa: E731
    assert Intent.DEFAULT in intents("what is the default HCCL_EXEC_TIMEOUT")
    assert Intent.CAUSE in intents("why does LcalAllReduce hang")
    assert Intent.WORKAROUND in intents("LCCL 卡住怎么规避")
    assert Intent.FIXED_VERSION in intents("which CANN version fixes the LCCL defect")


def test_two_swapped_letters_are_read_as_the_known_word_but_short_words_stay(index):
    reword = index.rewording.reword
    assert "default" in reword("defualt value of HCCL_EXEC_TIMEOUT").split()
    assert "cause" in reword("EI0012 root casue").split()    # five letters: only a swap is read as a typo
    assert "eror" in reword("user eror vs system error").split()    # four letters: left as typed


def test_a_word_one_letter_off_at_its_start_is_another_word_not_a_typo(index):
    reword = index.rewording.reword
    folder = reword("feed the aic_err_info folder to the tool").split()
    assert "older" not in folder and "directory" in folder     # the articles' word for it, not a typo of "older"
    assert "heartbeat" in reword("hccl heartbeart events").split()


def test_another_form_of_a_known_word_is_not_read_as_a_typo_of_another(index):
    reword = index.rewording.reword
    said = reword("bucket aclError ints by their leading digit").split()
    assert "leading" in said and "loading" not in said     # lead is a known word: not a typo of "loading"
    assert "showed" in reword("the plog showed EI0006").split()
    # a known word with an ending is a word of its own, not a typo of another form one letter away
    assert "worker" in reword("the vllm worker process died").split()
    assert "compiler" in reword("the graph compiler failed").split()
    # a known word that is a form of the same word is still read for the misspelling
    assert reword("cluster exception says stuck occured") == reword("cluster exception says stuck occurred")


def test_another_vendor_s_stack_is_seen_alone_and_opening_a_name_of_its_own(index):
    foreign = index.rewording.foreign
    assert foreign("NCCL_SOCKET_FAMILY=AF_INET6 怎么配置？") == {"nccl"}
    assert foreign("CUDA_LAUNCH_BLOCKING=1 and ProcessGroupNCCL") == {"cuda", "processgroupnccl"}
    assert not foreign("HCCL_SOCKET_FAMILY=AF_INET6")


def test_another_vendor_s_name_is_never_read_as_a_typo_of_ours(index):
    # WorkNCCL is one letter from WorkHCCL, which the articles write: it stays NVIDIA's, and so
    # does a question quoting PyTorch's NCCL watchdog
    reworded = index.rewording.reword("Watchdog caught collective operation timeout: WorkNCCL(SeqNum=2665572)")
    assert "WorkNCCL" in reworded and index.rewording.foreign(reworded) == {"worknccl"}
    assert index.rewording.reword("HCCL_BUFSIZE") == "HCCL_BUFFSIZE"      # our own names are still corrected


def test_an_english_word_written_against_chinese_is_still_a_word(index):
    assert "communicator" in index.rewording.reword("同一个comm的allreduce").split()
    assert index.rewording.foreign("NCCL_DEBUG怎么开") == {"nccl"}


def test_a_name_written_against_chinese_is_still_a_name():
    assert NAME.findall("HCCL_EXEC_TIMEOUT在哪里配，LcalAllReduce报错") == ["HCCL_EXEC_TIMEOUT", "LcalAllReduce"]
    assert ENTITY.findall("EI0002报错了") == ["EI0002"]


def test_an_ordinal_second_asks_for_no_unit(index):
    intents = lambda q: index.rewording.intents(index.rewording.reword(q))  # noqa: E731
    assert Intent.UNIT not in intents("the second job on the card fails at link setup")
    assert Intent.UNIT in intents("HCCL_CONNECT_TIMEOUT is in seconds?")


def test_words_of_the_vocabulary_phrases_are_known_words_not_typos(index):
    # "damage" is in the phrase "collateral damage": not a typo of the articles' "damaged"
    assert "consequence" in index.rewording.reword("is that collateral damage?").split()


def test_the_knowledge_s_own_text_is_said_in_the_same_words_as_questions(index):
    said = index.rewording.said_canonically
    assert said("Why most ranks time out") == index.rewording.reword("why do most ranks time out").replace("do ", "")
    assert said("the peer's heartbeat packets") == "the remote end heartbeat"


def test_asking_what_to_do_how_to_read_and_which_version_fixes(index):
    intents = lambda q: index.rewording.intents(index.rewording.reword(q))  # noqa: E731
    assert Intent.WORKAROUND in intents("two ranks timed out 6 minutes apart, what should I do")
    assert Intent.MEANING in intents("how should I read the cluster exception location line")
    assert Intent.FIXED_VERSION in intents("LcalAllReduce 的问题在哪个CANN版本修复的？")
    assert Intent.FIXED_VERSION not in intents("which CANN and HDK versions was the problem seen on")
    assert Intent.RANGE in intents("what is the max value of HCCL_CONNECT_TIMEOUT")


def test_the_longest_phrase_wins_english_as_whole_words_chinese_anywhere(index):
    reword = index.rewording.reword
    assert reword("what does it stand for meaning") == "what does it mean"     # not "acronym meaning"
    assert reword("stand for") == "acronym"
    assert reword("unstuck timeouts") == "unstuck timeout"                      # "stuck" inside a word stays
    assert reword("卡住了吗") == "hang 了吗"


def test_a_duration_written_with_its_unit_symbol_is_read_in_words(index):
    said = index.rewording.said_canonically
    assert said("No heartbeat packet for 30 s.") == said("no heartbeat packet for 30 seconds.")
    assert "10 seconds" in said("wait 10s and retry")
    assert "2 milliseconds" in said("every 2 ms")
    assert said("what's the status") == "what's the status"       # an "s" after no number stays
    assert "seconds" in index.rewording.reword("how long before a peer is marked LOST").split()


def test_a_question_of_could_it_be_asks_for_the_cause(index):
    intents = lambda q: index.rewording.intents(index.rewording.reword(q))  # noqa: E731
    assert Intent.CAUSE in intents("SDMA 任务失败会不会是链路的问题？")
    assert Intent.CHECK in intents("代码里怎么查询通信域的状态")               # 查询 whole, not 怎么查 + 询
    assert "询" not in index.rewording.reword("代码里怎么查询通信域的状态")


def test_words_engineers_type_for_what_the_articles_say_otherwise(index):
    reword = index.rewording.reword
    assert "information" in reword("Task run failed 的每条日志有哪些信息").split()
    assert "poor link quality" in reword("retransmission on a lossy network")
    assert "poor link quality" in reword("ERROR CQE appears easily when link quality is poor")
    assert "one" in reword("is a single node enough").split()


def test_a_question_in_other_words_than_the_article_s_is_answered_by_its_section(index):
    found = answer(index, "which env vars stop ERROR CQE on a lossy link")    # the article: "link quality is poor"
    assert found.citations[0] == "hccl-task-execution-faults#roce-cqe-resolution"
    assert "HCCL_RDMA_RETRY_CNT" in (found.text or "")


def test_a_chinese_switch_to_asks_how_to_enable(index):
    intents = index.rewording.intents(index.rewording.reword("HCCL 怎么切换到 AIV 模式"))
    assert Intent.ENABLE in intents



def test_chinese_words_of_dispatch_arguments_and_superpods_become_the_articles_words(index):
    reworded = index.rewording.reword("A3 超节点上每个rank下发了哪些算子和参数")
    assert {"superpod", "dispatch", "argument"} <= set(reworded.split())
    assert {"device", "initialisation", "start", "directory"} <= set(
        index.rewording.reword("设备 初始化 启动 目录").split())
    assert Intent.ENABLE in index.rewording.intents(index.rewording.reword("开哪个开关"))


def test_a_solution_asks_for_the_fix(index):
    assert Intent.PERMANENT_FIX in index.rewording.intents(index.rewording.reword("what's the solution for EI0006"))
    assert answer(index, "how to fix EI0002").citations[0] == "hccl-error-code-ei0002#solution"
