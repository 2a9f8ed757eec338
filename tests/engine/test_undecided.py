"""Rivals that one unknown fact decides between are shown as possible, not probable: the same log
lines match both, and naming one before the fact is known would be a guess."""

from __future__ import annotations

from pathlib import Path

import yaml

from faultbot.engine.candidates import Status
from faultbot.session import DiagnosisSession

# a real paste (tests/corpus): the runtime's line names the kernel, not whether it was an exception or a timeout
_PASTE = yaml.safe_load((Path(__file__).parents[1] / "corpus" / "other-hiascend-doc-aicore-realdiv-host-address-args.yaml")
                        .read_text(encoding="utf-8"))["log"]


def _standing(kb, answers=()):
    session = DiagnosisSession(kb)
    session.add_paste(_PASTE)
    for fact, value in answers:
        session.answer(fact, value)
    return {c.id: c.status for c in session.diagnose().conclusions}


def test_an_exception_and_a_timeout_matched_by_the_same_line_wait_on_the_fault_class(kb):
    standing = _standing(kb)
    assert standing["aicore.timeout"] is Status.POSSIBLE and standing["aicore.exception"] is Status.POSSIBLE


def test_once_the_fault_class_is_known_the_one_it_names_is_probable_again(kb):
    standing = _standing(kb, [("core_fault_class", "exception")])
    assert "aicore.timeout" not in standing
    assert standing["aicore.exception"] in (Status.PROBABLE, Status.CONFIRMED)
