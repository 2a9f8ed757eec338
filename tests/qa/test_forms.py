"""Question forms the words alone do not carry: a log field stated with its value is a question
about the value; a field said not to hold a value asks about its other values; "what log lines /
what string identifies X" asks for the log text that shows X."""

from __future__ import annotations

from faultbot.kb.model import Intent
from faultbot.qa.answer import answer
from faultbot.qa.field_values import FieldQuestions
from faultbot.qa.forms import stated_value
from faultbot.qa.question import Question


def _value(index, question):
    found = stated_value(index, index.rewording.reword(question))
    return None if found is None else (found.field, index.catalogue.things[found.value].names[0])


def test_a_field_stated_with_its_value_names_the_value(index):
    assert _value(index, "ExceptionType is Heartbeat Lost Occurred. What happened to that rank?") == \
        ("ExceptionType", "Heartbeat Lost Occurred")
    assert _value(index, "my summary line says ExceptionType:[Stuck Occurred], now what") == \
        ("ExceptionType", "Stuck Occurred")


def test_a_value_that_is_no_known_thing_or_a_what_is_is_no_stated_value(index):
    assert _value(index, "HCCL_EXEC_TIMEOUT is set to 0, what happens") is None
    assert _value(index, "what is the crimer rank") is None


def test_an_error_code_with_its_message_is_no_field_with_a_value(index):
    assert _value(index, "EI0002: The wait execution of the Notify register times out, why") is None


def test_the_labels_of_a_pasted_line_do_not_say_what_is_asked(index):
    """ "Reason:" in a pasted EI0002 line, or "reason=" in a runtime one, is the line's, not a question
    for causes."""
    pasted = "EI0002: The wait execution of the Notify register times out. Reason: The Notify register has not received"
    assert Intent.CAUSE not in Question.read(f"{pasted} the record. what does this error mean", index).intents
    assert Intent.CAUSE in Question.read(f"{pasted} the record. 一般都是啥原因", index).intents
    field = "rtDeviceSynchronizeWithTimeout execution failed, reason=vector core timeout"
    assert Question.read(f"{field} 507034 是啥", index).intents == {Intent.MEANING}


def test_a_stated_value_is_answered_by_what_the_value_means(index):
    found = answer(index, "ExceptionType is Heartbeat Lost Occurred. What happened to that rank?")
    assert found.citations[0] == "hccl-task-execution-faults#heartbeat-reading-guide"
    assert "exited" in found.text and "network" in found.text


def _others(kb, question):
    return [(d.decoder, str(d.fact.value), d.known) for d in FieldQuestions(kb).decode_others(question)]


def test_a_value_said_not_to_be_one_gives_what_the_decoders_say_of_other_values(kb):
    expected = [("roce-cqe-status", "12", False), ("sdma-cqe-status", "12", False)]
    assert _others(kb, "I got a cqe status that is not 12, what should I do") == expected
    assert _others(kb, "CQE status 不是12怎么办") == expected
    assert _others(kb, "HCCP failed CQE status other than 12") == [("roce-cqe-status", "12", False)]


def test_a_negated_value_the_table_does_not_name_or_a_plain_value_has_no_other_values(kb):
    assert _others(kb, "cqe status that is not 99") == []
    assert _others(kb, "what does cqe status 12 mean") == []
    assert FieldQuestions(kb).decode("I got a cqe status that is not 12") == ()


def test_a_value_glued_to_chinese_words_is_read(kb):
    assert [d.decoder for d in FieldQuestions(kb).decode("HCCP failed CQE status 12怎么办")] == ["roce-cqe-status"]


def test_a_negated_value_is_answered_with_the_other_values_row(index):
    found = answer(index, "I got a cqe status that is not 12, what should I do")
    assert "other than `12`" in found.text and "support" in found.text
    assert found.citations[0] == "roce-cqe-status-codes#verbs-status"


def test_what_log_lines_identify_asks_for_the_signature(index):
    assert Intent.SIGNATURE in index.rewording.intents(index.rewording.reword("what log lines identify this bug"))
    assert Intent.SIGNATURE in index.rewording.intents(index.rewording.reword("what string marks it in the plog"))
    found = answer(index, "what log lines identify the LcalAllReduce flag cleanup bug")
    assert found.citations[0] == "lccl-allreduce-flag-cleanup#symptoms"
    assert "EZ9999" in found.text


def test_what_a_context_first_question_asks_for_is_read_from_where_it_asks(index):
    """"ran it for hours, the default timeout was left" is context; "what does 507048 mean" asks."""
    asked = Question.read("we left the default exec timeout, it ran for 30 min then: error code is 507048. "
                          "what does 507048 mean", index)
    assert asked.intents == {Intent.MEANING}
    # "can't upgrade yet" says why, it does not ask
    assert Intent.WORKAROUND in Question.read("workaround for the LcalAllReduce hang, can't upgrade yet", index).intents


def test_what_to_search_for_is_answered_with_the_quoted_keyword_not_a_quoted_identifier(index):
    assert Intent.SIGNATURE in index.rewording.intents(index.rewording.reword("what do i grep for"))
    said = answer(index, "notify timeout on 16 ranks, want the stream/taskID/tag of the failing hccl task — "
                         "what do i search for")
    assert said.citations[0] == "hccl-task-execution-faults#task-exception" and "Task run failed" in (said.text or "")
