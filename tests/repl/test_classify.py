"""What an input is: command, log paste, answer, failure in words, or a question."""

from __future__ import annotations

import pytest

from faultbot.engine.questions import Question
from faultbot.repl.classify import InputKind, classify

CANN = Question("cann_version", "Which CANN version?", "why", (), (), "8.0.RC2", (), 1.0)
PRODUCT = Question("product", "Which product?", "why", (), ("Atlas A2", "Atlas A3"), "Atlas A2", (), 1.0)


def holds_log(text: str) -> bool:
    return text.startswith("[ERROR]")


@pytest.mark.parametrize("text, pending, kind", [
    ("", None, InputKind.EMPTY),
    ("/why", CANN, InputKind.COMMAND),
    ("/export report.md --redact", None, InputKind.COMMAND),
    ("[ERROR] RUNTIME(1,python):...", None, InputKind.PASTE),
    ("[ERROR] RUNTIME(1,python):...", CANN, InputKind.PASTE),          # another rank's log while asked
    ("8.0.RC2", CANN, InputKind.ANSWER),
    ("8.0.x", CANN, InputKind.ANSWER),                                # answer-shaped: checked, then asked again
    ("unknown", CANN, InputKind.ANSWER),
    ("不知道", CANN, InputKind.ANSWER),
    ("atlas a3", PRODUCT, InputKind.ANSWER),
    ("HcclAllreduce hangs after I set HCCL_OP_EXPANSION_MODE=AIV", None, InputKind.DESCRIPTION),
    ("多卡训练时报 sdma 错误", None, InputKind.DESCRIPTION),
    ("fault kernel_name=LcalAllReduce errcode=0 vector core timeout", PRODUCT, InputKind.DESCRIPTION),
    ("why does my job hang", None, InputKind.DESCRIPTION),
    ("EI0002", None, InputKind.DESCRIPTION),
    ("what is the default HCCL_EXEC_TIMEOUT", None, InputKind.QUESTION),
    ("what is the default HCCL_EXEC_TIMEOUT", CANN, InputKind.QUESTION),
    ("怎么开启确定性计算", None, InputKind.QUESTION),
    ("what does EI0013 mean", None, InputKind.QUESTION),
    ("/usr/local/Ascend/log", None, InputKind.QUESTION),               # a path is not a command
])
def test_classify(text, pending, kind):
    assert classify(text, pending, holds_log).kind is kind


def test_bare_why_while_asked_is_the_why_command():
    assert classify("why", CANN, holds_log).text == "/why"
    assert classify("why", None, holds_log).kind is InputKind.QUESTION
