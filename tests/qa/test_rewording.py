"""A question in the articles' words: synonyms and the glossary (kb/vocabulary.yaml), typos in the
names the KB knows, full-width punctuation; and what the question asks for."""

from __future__ import annotations

from faultbot.kb.model import Intent


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
