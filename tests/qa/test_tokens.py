"""Search tokens: English words with their parts, light stemming, Chinese character bigrams."""

from __future__ import annotations

from faultbot.qa.tokens import NAME_BOOST, query_terms, tokenize


def test_identifiers_keep_the_whole_name_and_its_parts():
    assert tokenize("HCCL_EXEC_TIMEOUT") == ["hccl_exec_timeout", "hccl", "exec", "timeout"]
    assert tokenize("LcalAllReduce")[:1] == ["lcalallreduce"]
    assert "reduce" in tokenize("LcalAllReduce")


def test_a_camel_case_name_is_also_the_name_after_its_prefix():
    assert "allreduce" in tokenize("LcalAllReduce")              # what "lccl allreduce" asks about
    assert tokenize("HeartbeatAbnormal") == ["heartbeatabnormal", "heartbeat", "abnormal"]


def test_a_searched_camel_case_name_also_stands_for_the_names_it_begins_with():
    logged = tokenize("grep Entry-HcclCommInitRootInfoInner")
    assert "hcclcomminitrootinfo" in logged and "hcclcomminit" in logged
    assert "hcclcomm" not in logged                     # two parts name nothing of their own
    assert "hcclcomminit" not in query_terms("HcclCommInitRootInfo")     # a question's name says what it means
    kernel = tokenize("fault kernel_name=aiv_all_reduce_***, fault kernel info ext=aiv_all_reduce_910b_bfloat16_t")
    assert "aiv_all_reduce" in kernel and "aiv_all" not in kernel


def test_stop_words_go_and_plurals_meet_their_singular():
    assert tokenize("what is the default of the timeouts") == ["default", "timeout"]
    assert tokenize("hangs") == tokenize("hanging") == ["hang"]


def test_chinese_becomes_character_bigrams_without_question_words():
    assert tokenize("怎么开启确定性计算") == ["开启", "启确", "确定", "定性", "性计", "计算"]
    assert tokenize("sdma 错误") == ["sdma", "错误"]


def test_names_count_double_in_a_question():
    terms = query_terms("what is the default HCCL_EXEC_TIMEOUT")
    assert terms["hccl_exec_timeout"] == NAME_BOOST
    assert terms["default"] == 1.0
    # which ranks, not a name: "0-6" of "rank 0-6 all time out" counts as a word
    assert query_terms("rank 0-6 all notify timeout")["0-6"] == 1.0


def test_stemming_keeps_words_without_a_vowel_left_and_undoes_a_doubled_consonant():
    assert tokenize("string") == ["string"]                    # not "str"
    assert tokenize("occurred") == tokenize("occur") == ["occur"]
    assert tokenize("stopped running") == ["stop", "run"]
    assert tokenize("add added") == ["add", "add"]             # a three-letter stem keeps its double
    assert tokenize("getting") == []                           # its stem is a stop word


def test_a_past_tense_in_ied_meets_its_base_word():
    assert tokenize("retried") == tokenize("retries") == tokenize("retry") == ["retry"]


def test_chinese_function_words_go_whole_the_longest_first():
    assert tokenize("怎么办") == []                              # not 怎么 and a stray 办
    assert tokenize("没有任何心跳") == ["心跳"]


def test_british_and_american_spellings_meet():
    assert len(set(tokenize("initialise initialized initialization synchronising synchronize"))) == 2
    assert tokenize("size raise noise buffsize") == ["size", "raise", "noise", "buffsize"]    # not a spelling of -ise


def test_words_joined_by_hyphens_are_not_a_name():
    assert query_terms("card-to-card reachability")["card-to-card"] == 1.0
    assert query_terms("a 6-digit code")["6-digit"] == 1.0        # a count of something, not a name
    assert query_terms("Entry-HcclAllReduce")["entry-hcclallreduce"] == NAME_BOOST


def test_an_unknown_camel_case_word_of_known_words_is_those_words_glued():
    known = {"crimer", "rank", "heartbeatabnormal", "heartbeat", "abnormal"}.__contains__
    assert query_terms("is crimerRank the culprit", known) == {"crimer": 1.0, "rank": 1.0, "culprit": 1.0}
    assert query_terms("HeartbeatAbnormal", known)["heartbeatabnormal"] == NAME_BOOST   # a name the index knows
    assert query_terms("ncclComm", known)["ncclcomm"] == NAME_BOOST                     # a part it does not know
    assert query_terms("crimerRank")["crimerrank"] == NAME_BOOST                        # nothing known: a name
    assert query_terms("is AnyOne here", known) == {}                                   # stop words glued


def test_an_amount_with_its_unit_is_not_a_name():
    said = query_terms("Failed to allocate [size: [0.25MB, 3MB]] after 30s")
    assert said["0.25mb"] == said["3mb"] == said["30s"] == 1.0
    assert query_terms("910B card")["910b"] == NAME_BOOST      # a chip, not 910 bytes
