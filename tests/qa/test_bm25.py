"""The BM25 index: rarer words weigh more, shorter documents win ties, coverage is a share."""

from __future__ import annotations

from faultbot.qa.bm25 import UNKNOWN_WEIGHT, build


def test_the_document_holding_the_rare_word_ranks_first():
    index = build([["hccl", "timeout"], ["hccl", "sdma", "error"], ["hccl", "error"]])
    ranked = index.ranked({"sdma": 1.0, "hccl": 1.0})
    assert ranked[0][0] == 1
    assert index.idf("sdma") > index.idf("hccl")


def test_documents_without_a_query_word_are_left_out():
    index = build([["a1"], ["b1"]])
    assert [i for i, _ in index.ranked({"a1": 1.0})] == [0]
    assert index.ranked({"zz": 1.0}) == []


def test_coverage_counts_unknown_words_against_the_query():
    index = build([["hccl", "timeout"], ["sdma"]])
    assert index.coverage({"hccl": 1.0, "timeout": 1.0}, 0) == 1.0
    assert 0 < index.coverage({"hccl": 1.0, "kubernetes": 1.0}, 0) < 0.5


def test_a_count_no_document_writes_weighs_little_but_an_unknown_word_or_code_in_full():
    index = build([["rank", "timeout"], ["sdma"]])
    for count in ("64", "300s", "32-node", "0x05000001"):
        assert index.weight(count) < 0.5 * index.weight("kubernetes")
    assert index.weight("ei0099") == index.weight("kubernetes")
    query = {"rank": 1.0, "timeout": 1.0}
    assert index.coverage({**query, "64": 1.0}, 0) > 1.5 * index.coverage({**query, "kubernetes": 1.0}, 0)


def test_a_lone_chinese_character_weighs_little_even_where_a_passage_writes_it():
    index = build([["不", "心跳"], ["hccl"], ["hccl"]])     # both written once
    assert index.knows("不")
    assert index.weight("不") == UNKNOWN_WEIGHT * index.weight("心跳")
