"""Field decoders: the diagnosis says in words what each retCode, errcode, HcclResult ... value means,
where it was read, and the facts the decoded value implies reach the engine."""

from __future__ import annotations

import json
import subprocess
import sys

from faultbot.session import DiagnosisSession

RETCODE_26 = ("[ERROR] RUNTIME(2856615,xaclfk):2024-05-10-10:11:12.123.456 [task.cc:1058]2856939 PreCheckTaskErr:"
              "[EXEC][DEFAULT]Kernel task happen error, retCode=0x26, [aicore exception].\n")
ERRCODE_GM = ("[ERROR] RUNTIME(2856615,xaclfk):2024-05-10-10:11:12.123.460 [device_error_proc.cc:1200]2856939 "
              "The extend info: errcode:(0x800000, 0, 0) errorStr: MTE accesses an invalid GM address or the "
              "cross-device memory access times out. fixp_error0 info: 0x0\n")
ERRCODE_ZERO = ("[ERROR] RUNTIME(2856615,xaclfk):2024-05-10-10:11:12.123.460 [device_error_proc.cc:1200]2856939 "
                "The extend info: errcode:(0, 0, 0) errorStr: timeout or trap error. fixp_error0 info: 0x0\n")
HCCL_RET_9 = ("[ERROR] HCCL(3480365,python):2025-12-24-14:10:31.094.189 [hccl_communicator.cc:512][3480365]"
              "call trace: hcclRet -> 9\n")


def _diagnose(kb, text, answers=None):
    session = DiagnosisSession(kb)
    session.add_paste(text)
    for fact, value in (answers or {}).items():
        session.answer(fact, value)
    return session.diagnose()


def _diagnose_file(log, output_format):
    """``faultbot diagnose`` as a script runs it; exit 1 (no conclusion) is a valid outcome here."""
    completed = subprocess.run([sys.executable, "-m", "faultbot", "diagnose", str(log), "--no-ask", "--format",
                                output_format], check=False, capture_output=True, text=True, timeout=120)
    assert completed.returncode in (0, 1), completed.stderr
    return completed.stdout


def _by_field(diagnosis):
    return {(d.fact.name, str(d.fact.value)): d for d in diagnosis.decoded}


def test_retcode_is_said_in_words_and_its_acl_code_is_derived_by_the_decoder(kb):
    diagnosis = _diagnose(kb, RETCODE_26)
    decoded = _by_field(diagnosis)[("ts_ret_code", "0x26")]
    assert "AI Core execution exception" in decoded.meaning and "507015" in decoded.meaning
    assert decoded.known and decoded.citation == "cann-acl-error-codes#retcode-mapping"
    assert decoded.fact.provenance.record.origin.line == 1
    acl = diagnosis.memory.facts("acl_error_code")
    assert [f.value for f in acl] == [507015]
    assert acl[0].provenance.rule == "ts-ret-code=0x26"


def test_hex_cases_match_however_the_log_pads_or_cases_the_value(kb):
    diagnosis = _diagnose(kb, RETCODE_26.replace("retCode=0x26", "retCode=0x026"))
    assert diagnosis.memory.values("acl_error_code") == [507015]
    assert "AI Core execution exception" in diagnosis.decoded[0].meaning


def test_a_value_no_case_covers_is_said_to_be_unknown_not_guessed(kb):
    diagnosis = _diagnose(kb, RETCODE_26.replace("retCode=0x26", "retCode=0x99"))
    decoded = _by_field(diagnosis)[("ts_ret_code", "0x99")]
    assert not decoded.known and "not in the runtime's retCode table" in decoded.meaning
    assert diagnosis.memory.values("acl_error_code") == []


def test_the_first_case_gives_the_words_and_every_case_that_holds_asserts_its_facts(kb):
    diagnosis = _diagnose(kb, ERRCODE_GM)
    decoded = _by_field(diagnosis)[("errcode", "(0x800000, 0, 0)")]
    assert "global-memory address" in decoded.meaning
    assert diagnosis.memory.values("errcode_invalid_gm_access") == [True]
    assert diagnosis.memory.values("core_fault_class") == ["exception"]
    assert {f.provenance.rule for f in diagnosis.memory.facts("errcode_invalid_gm_access")} == {
        "aicore-errcode=invalid-gm-access"}


def test_an_all_zero_errcode_says_timeout_or_trap_and_decides_neither(kb):
    diagnosis = _diagnose(kb, ERRCODE_ZERO)
    decoded = _by_field(diagnosis)[("errcode", "(0, 0, 0)")]
    assert "timed out or executed a trap" in decoded.meaning
    assert diagnosis.memory.values("core_fault_class") == []


def test_an_answered_value_is_decoded_too(kb):
    diagnosis = _diagnose(kb, RETCODE_26, {"errcode": "0"})
    decoded = _by_field(diagnosis)[("errcode", "0")]
    assert decoded.fact.provenance.describe() == "your answer"


def test_hccl_return_code_is_named(kb):
    diagnosis = _diagnose(kb, HCCL_RET_9)
    assert _by_field(diagnosis)[("hccl_ret", "9")].meaning == "HCCL_E_TIMEOUT: timeout"
    assert diagnosis.memory.values("hccl_ret_name") == ["HCCL_E_TIMEOUT"]


def test_internal_code_module_comes_from_the_code_structure(kb):
    diagnosis = _diagnose(kb, "EE9999: Inner Error!\n        rtStreamSynchronize execution failed\n")
    module = diagnosis.memory.facts("internal_error_module")
    assert [f.value for f in module] == ["Runtime"]
    assert module[0].provenance.rule == "error-code-module-letter"


def test_markdown_and_json_carry_the_decoded_fields(tmp_path):
    log = tmp_path / "plog.log"
    log.write_text(RETCODE_26 + ERRCODE_GM)
    markdown = _diagnose_file(log, "markdown")
    section = markdown.split("## What the log's fields say", 1)[1].split("\n## ", 1)[0]
    assert f"retCode) `0x26` (log {log}:1): AI Core execution exception" in section
    assert "errcode `(0x800000, 0, 0)`" in section
    assert "Source: aclError return codes" in section
    out = json.loads(_diagnose_file(log, "json"))
    assert out["schema"] == 1
    first = out["decoded"][0]
    assert (first["field"], first["value"], first["known"]) == ("ts_ret_code", "0x26", True)
    assert first["source"]["line"] == 1 and first["citation"]["section"] == "Runtime retCode to aclError"


def test_a_paste_nothing_matches_still_explains_its_fields(tmp_path):
    log = tmp_path / "odd.log"
    log.write_text("[ERROR] HCCL(1,python):2025-12-24-14:10:31.094.189 [x.cc:1][1]some new failure hcclRet -> 21\n")
    out = _diagnose_file(log, "markdown")
    assert "Not in my knowledge base" in out
    assert "HCCL_E_REMOTE: error CQE" in out

