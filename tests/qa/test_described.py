"""Tickets in words as evidence (faultbot/qa/described.py), on real tickets from the corpus: a long
Ascend ticket is matched on the words the KB knows, a CUDA/NCCL one is not matched at all, and a
conclusion from words is never more than possible and says it rests on a description."""

from __future__ import annotations

import pytest

from faultbot.engine.candidates import Status
from faultbot.kb.yaml_source import load_yaml
from faultbot.session import DiagnosisSession

from ..conftest import TESTS_DIR

CORPUS = TESTS_DIR / "corpus"


def _diagnose(kb, case: str):
    path = CORPUS / f"{case}.yaml"
    session = DiagnosisSession(kb)
    session.add_paste(load_yaml(path, str(path))["log"])
    return session.diagnose()


def test_a_long_ascend_ticket_in_words_finds_its_fault_at_possible(kb):
    diagnosis = _diagnose(kb, "other-w2-vllm-ascend-8427-pd-hccl-link-mooncake-prose")
    assert diagnosis.top.id == "hccl.socket-timeout"
    assert diagnosis.top.status is Status.POSSIBLE
    assert [m.symptom.id for m in diagnosis.top.evidence] == ["described-in-words"]


@pytest.mark.parametrize("case", ["negative-nccl-bootstrap-cuda-oom-azure-nccl-844",
                                  "nearmiss-nccl-ib-completion-status12-nccl-1405"])
def test_a_cuda_ticket_with_the_same_words_is_not_in_the_kb(kb, case):
    assert _diagnose(kb, case).top is None
