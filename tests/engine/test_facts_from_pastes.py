"""Facts pulled from what engineers paste besides plogs: versions, environment, pip show."""

from __future__ import annotations

import pytest

from faultbot.session import DiagnosisSession


@pytest.fixture(scope="module")
def session(kb):
    return DiagnosisSession(kb)


def facts_of(session, text: str) -> dict[str, list[str]]:
    session.steps.clear()
    session.add_paste(text)
    memory = session.diagnose().memory
    return {name: [str(v) for v in memory.values(name)] for name in memory.names()}


@pytest.mark.parametrize("text, fact, value", [
    ("版本信息：HDK 24.1.0.3   CANN 8.0.RC2   pytorch2.1.0.post11", "cann_version", "8.0.RC2"),
    ("版本信息：HDK 24.1.0.3   CANN 8.0.RC2   pytorch2.1.0.post11", "hdk_version", "24.1.0.3"),
    ("版本信息：HDK 24.1.0.3   CANN 8.0.RC2   pytorch2.1.0.post11", "torch_npu_version", "2.1.0.post11"),
    ("$ pip show torch_npu\nName: torch-npu\nVersion: 2.1.0.post11\nSummary: x", "torch_npu_version", "2.1.0.post11"),
    ("runtime_running_version=[7.3.0.1.231:8.0.RC3.alpha003]", "cann_version", "8.0.RC3.alpha003"),
    ("version=8.1.RC1", "cann_version", "8.1.RC1"),
    ("| npu-smi 24.1.rc2                 Version: 24.1.rc2                              |", "hdk_version", "24.1.RC2"),
    ("[INFO] HCCL(2111665,python):2025-10-24-11:16:52.100.000 [env_config.cc:210] [2111665]"
     "HCCL_EXEC_TIMEOUT set by default to [1836]s", "hccl_exec_timeout", "1836"),
    ("export HCCL_EXEC_TIMEOUT=300", "hccl_exec_timeout", "300"),
    ('export HCCL_OP_EXPANSION_MODE="AIV"', "hccl_op_expansion_mode", "AIV"),
    ("[INFO] HCCL(1,python):2025-10-24-11:16:52.100.000 [env_config.cc:221] [1]HCCL_OP_EXPANSION_MODE is [HOST]",
     "hccl_op_expansion_mode", "HOST"),
    ("export LCCL_DETERMINISTIC=1", "lccl_deterministic", "True"),
])
def test_fact_is_extracted(session, text, fact, value):
    assert value in facts_of(session, text).get(fact, []), facts_of(session, text)


def test_pip_show_of_another_package_is_not_torch_npu(session):
    facts = facts_of(session, "Name: numpy\nVersion: 1.26.4\n")
    assert "torch_npu_version" not in facts
