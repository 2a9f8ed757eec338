"""Every question in pairs.yaml gets the answer it must: the section cited first and a phrase of the
passage; every question the KB does not cover gets "not in my knowledge base"."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from faultbot.qa.answer import answer
from faultbot.qa.tokens import is_cjk

PAIRS = yaml.safe_load((Path(__file__).parent / "pairs.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("pair", PAIRS["pairs"], ids=[p["question"] for p in PAIRS["pairs"]])
def test_question_is_answered_from_its_section(index, pair):
    found = answer(index, pair["question"])
    assert found.found, f"no answer (score {found.score})"
    stating = pair["cites"] if isinstance(pair["cites"], list) else [pair["cites"]]
    assert found.citations[0] in stating, f"answered from {found.citations}: {found.text}"
    assert pair["contains"].lower() in found.text.lower(), found.text


@pytest.mark.parametrize("question", PAIRS["unanswered"])
def test_question_outside_the_knowledge_base_is_not_answered(index, question):
    found = answer(index, question)
    assert not found.found, f"answered from {found.citations}: {found.text}"
    assert not found.suggestions, "nothing of the question is a domain word to search for"


@pytest.mark.parametrize("question, terms", [
    ("what is the default NCCL_TIMEOUT on a DGX", set()),
    ("how do I plot heartbeat latency in grafana", {"heartbeat"}),
    # Chinese: the words left between the question's function words, not the run they stand in
    ("怎么安装 Windows 驱动程序", {"安装", "驱动", "code"}),
])
def test_search_terms_are_domain_words_the_kb_holds(index, question, terms):
    found = answer(index, question)
    assert not found.found and set(found.suggestions) == terms


def test_pairs_are_enough_and_in_both_languages():
    questions = [p["question"] for p in PAIRS["pairs"]]
    assert len(questions) >= 30
    assert sum(map(is_cjk, questions)) >= 10
    assert len(questions) - sum(map(is_cjk, questions)) >= 10
