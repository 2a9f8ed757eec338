"""A section's "Asked as" line: the questions engineers type for what it says, matched phrase by
phrase for finding and ranking the section, never quoted, never one of its sentences."""

from __future__ import annotations

import re
import shutil

from faultbot.kb.loader import load_kb
from faultbot.kb.model import Section
from faultbot.qa.answer import answer
from faultbot.qa.index import KnowledgeIndex
from faultbot.qa.passages import asked_as, own_text

from ..conftest import REPO_DIR

TEXT = """The communicator could not be built.

**Key terms (zh):** 建链

**Asked as:** why does comm init die; 建链失败怎么办 ;  ; rank table wrong?

### A subsection {#sub}

**Asked as:** the subsection's own question
"""


def test_the_line_is_read_as_its_questions_and_is_not_the_section_s_text():
    section = Section("demo", "Demo", 2, 1, TEXT, ("建链",))
    assert asked_as(section) == ("why does comm init die", "建链失败怎么办", "rank table wrong?")
    assert "Asked as" not in own_text(section) and "**Key terms (zh):** 建链" in own_text(section)


def test_a_question_asked_as_a_section_says_is_answered_from_it_and_the_line_is_never_quoted(tmp_path):
    # no passage's text holds a word of it: only the line the test adds finds the section
    question = "my zorblax keeps quuxifying"
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    shutil.copytree(REPO_DIR / "articles", tmp_path / "articles")
    assert not answer(KnowledgeIndex.of(load_kb(tmp_path / "kb", tmp_path / "articles")), question).found
    article = tmp_path / "articles" / "hccl-error-code-ei0011.md"
    text = article.read_text(encoding="utf-8")
    article.write_text(re.sub(r"^(\*\*Asked as:\*\*.*)$", r"\1; zorblax quuxifying", text, count=1, flags=re.M),
                       encoding="utf-8")
    found = answer(KnowledgeIndex.of(load_kb(tmp_path / "kb", tmp_path / "articles")), question)
    assert found.found and found.citations[0] == "hccl-error-code-ei0011#templates"
    assert "zorblax" not in found.text and "Asked as" not in found.text



def _with_asked_as(tmp_path, phrase: str) -> KnowledgeIndex:
    """The shipped KB with ``phrase`` added to the first "Asked as" line of the EI0011 article."""
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    shutil.copytree(REPO_DIR / "articles", tmp_path / "articles")
    article = tmp_path / "articles" / "hccl-error-code-ei0011.md"
    text = article.read_text(encoding="utf-8")
    article.write_text(re.sub(r"^(\*\*Asked as:\*\*.*)$", lambda m: f"{m.group(1)}; {phrase}", text, count=1,
                              flags=re.M), encoding="utf-8")
    return KnowledgeIndex.of(load_kb(tmp_path / "kb", tmp_path / "articles"))


def test_where_a_ticket_style_way_of_asking_ran_is_not_what_it_asks(tmp_path):
    # the vocabulary's `context` (MindIE, k8s, pods): a question sharing only those is another question
    index = _with_asked_as(tmp_path, "on our MindIE k8s pods the zorblax keeps quuxifying, what now")
    assert answer(index, "zorblax quuxifying on k8s").citations[:1] == ("hccl-error-code-ei0011#templates",)
    assert not answer(index, "how do I deploy MindIE pods on k8s").found


def test_a_long_way_of_asking_that_shares_one_word_with_a_question_is_not_that_question(tmp_path):
    index = _with_asked_as(tmp_path, "zorblax flimflam grommet snorkel plinth wobbler dongle gizmo sprocket doohickey whatsit thingamajig")
    assert answer(index, "zorblax flimflam grommet snorkel plinth").citations[:1] == ("hccl-error-code-ei0011#templates",)
    assert not answer(index, "flimflam?").found



def test_a_question_sharing_only_the_names_a_way_of_asking_pastes_is_another_question(index):
    # an EI0005 way of asking names two data types; a question about accuracy names them too
    assert not answer(index, "loss diverges after switching from fp16 to bf16 on 910B, how do I tune model accuracy?").found
    assert answer(index, "EI0005: rank0 sends fp16 and rank1 bf16, what does it mean").citations[0].startswith(
        "hccl-error-code-ei0005#")
