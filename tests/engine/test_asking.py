"""Which question faultbot puts to the engineer, and how many: one before the conclusion, another
only when an answer changed the candidates; facts derived from other ranks' logs asked as one
request for those logs."""

from __future__ import annotations

from faultbot.engine.asking import question_to_ask
from faultbot.session import DiagnosisSession


def _notify_timeout(kb) -> DiagnosisSession:
    session = DiagnosisSession(kb)
    session.add_paste(kb.entry("hccl.notify-timeout").tests[0].log)
    return session


def test_one_rank_of_a_timeout_asks_once_for_the_other_ranks_logs(kb):
    diagnosis = _notify_timeout(kb).diagnose()
    first = question_to_ask(diagnosis)
    assert first is not None
    assert first.text.startswith("Paste the errors of the other ranks of communicator 127.10.0.1%enp_60000")
    assert 'grep -rn "ERROR"' in first.how_to_find[0]
    needed = {entry for entry, _ in first.needed_by}
    assert {"hccl.notify-timeout.op-mismatch", "hccl.notify-timeout.peer-failed-first"} <= needed


def test_unknown_leaves_the_standing_as_it_was_so_nothing_more_is_asked(kb):
    session = _notify_timeout(kb)
    before = session.diagnose()
    session.answer(question_to_ask(before).fact, "unknown")
    after = session.diagnose()
    assert after.questions, "refinements are still open: they are listed, not asked"
    assert question_to_ask(after, asked_at=before) is None


def test_an_answer_that_rules_out_a_candidate_earns_the_next_question(kb):
    session = _notify_timeout(kb)
    before = session.diagnose()
    session.answer("other_rank_error_first", "no")
    after = session.diagnose()
    assert {c.id for c in after.excluded} - {c.id for c in before.excluded}
    assert question_to_ask(after, asked_at=before) is not None


def test_pasting_the_other_ranks_settles_what_the_request_was_for(kb):
    session = DiagnosisSession(kb)
    both = kb.entry("hccl.notify-timeout.op-mismatch").tests[0].log
    session.add_paste(both)
    diagnosis = session.diagnose()
    assert diagnosis.memory.values("ops_differ_in_group") == [True]
    assert all(not q.text.startswith("Paste the errors of the other ranks") or q.fact != "ops_differ_in_group"
               for q in diagnosis.questions)
