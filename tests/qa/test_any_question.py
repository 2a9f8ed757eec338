"""Any text typed as a question gets an answer or "not in my knowledge base", never an exception:
names glued from stop words (AnyOne), bare hyphens and underscores, amounts, Chinese and symbols."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from faultbot.qa.answer import answer

# pieces questions are typed from, the odd ones included, joined at random
PIECES = ["AnyOne", "SomeThing", "crimerRank", "HCCL_EXEC_TIMEOUT", "EI0002", "aiv_all_reduce_", "_", "-", "--",
          "w-prefixed", "0.25MB", "30s", "910B", "0x", "vs", "versus", "区别", "怎么", "的", "卡3", "？", "?", "`",
          "[", "]", "equivalent of", "CUDA_LAUNCH_BLOCKING", "NCCL", "timeout", "what is", "default", " ", "\t"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(PIECES) | st.text(max_size=6), max_size=8))
def test_any_question_is_answered_or_declined(index, pieces):
    found = answer(index, " ".join(pieces) if pieces else "?")
    assert found.text is None or isinstance(found.text, str)
