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


SDMA_CLASSIC = ("EI9999: Inner Error!\n        The error from device(1), serial number is 13. there is a sdma error, sdma "
                "channel is 0, the channel exist the following problems: The SMMU returns a Terminate error during page "
                "table translation.. the value of CQE status is 2. the description of CQE status: When the SQE translates "
                "a page table, the SMMU returns a Terminate error.it's config include: setting1=0xc000080880e0000, "
                "setting2=0xff009000ff004c, setting3=0, sq base addr=0x800d00801003d000[FUNC:ProcessSdmaErrorInfo]"
                "[FILE:device_error_proc.cc][LINE:704]\n")
SDMA_STARS = ("EI9999: Inner Error!\n        The error from device(chipId:0, dieId:0), serial number is 9. there is a sdma "
              "error, sdma channel is 2, sdmaBlkFsmState=0x7, dfxSdmaBlkFsmOstCnt=0x0, sdmaChFree=0x0, irqStatus=0x220000, "
              "cqeStatus=0x3 [FUNC:ProcessStarsSdmaErrorInfo][FILE:device_error_proc.cc][LINE:1521]\n")
ROCE_CHAIN = (
    "[ERROR] ROCE(2040034,alltoall_test):2025-09-15-08:38:12.776.612 [hns_roce_lite.c:630]"
    "hns_roce_lite_handle_error_cqe(630) : error cqe status: 0x15\n"
    "[ERROR] HCCP(2040034,alltoall_test):2025-09-15-08:38:12.776.650 [ra_hdc_lite.c:794]tid:2040458,"
    "ra_hdc_lite_period_poll_cqe : [create][ra_hdc_period_poll]failed CQE status[12], wr[0]\n")


def test_the_classic_sdma_cqe_status_is_read_from_the_runtime_table(kb):
    decoded = _by_field(_diagnose(kb, SDMA_CLASSIC))[("sdma_cqe_status", "2")]
    assert "page-table translation with a Terminate error" in decoded.meaning
    assert decoded.citation == "cann-runtime-sdma-errors#cqe-status-table"


def test_a_stars_cqe_status_the_runtime_does_not_name_is_not_read_with_the_classic_table(kb):
    decoded = _by_field(_diagnose(kb, SDMA_STARS))[("stars_sdma_cqe_status", "0x3")]
    assert not decoded.known and "not named in the runtime source" in decoded.meaning
    linked = _by_field(_diagnose(kb, SDMA_STARS.replace("cqeStatus=0x3", "cqeStatus=0x9")))
    assert linked[("stars_sdma_cqe_status", "0x9")].meaning.startswith("link error")


def test_both_numberings_of_one_roce_error_cqe_say_retransmission_timeout(kb):
    decoded = _by_field(_diagnose(kb, ROCE_CHAIN))
    assert "IBV_WC_RETRY_EXC_ERR" in decoded[("cqe_status", "12")].meaning
    assert decoded[("cqe_status", "12")].citation == "roce-cqe-status-codes#reading-ascend-logs"
    assert "work-completion status 12" in decoded[("roce_driver_cqe_status", "0x15")].meaning


def test_the_ai_cpu_errcode_is_not_read_as_an_ai_core_errcode(kb):
    line = ("E39999: [PID: 20334] 2025-02-27-15:20:08.441.577 An exception occurred during AICPU execution, "
            "stream_id:7, task_id:2, errcode:5, msg:aicpu execute failed.\n")
    diagnosis = _diagnose(kb, line)
    assert diagnosis.memory.values("errcode") == []
    assert not [d for d in diagnosis.decoded if d.decoder == "aicore-errcode"]


def test_a_failed_hccl_call_gives_its_hccl_result_too(kb):
    line = ("[ERROR] HCCL(3626636,all_reduce_test):2025-11-21-13:18:47.639.874 [topoinfo_detect.cc:233] [3626636]"
            "[InitGroupStage][RanktableDetect]SetupServer failed, hostIP[192.168.1.100%enp53s0f2] and hostPort[60000] ret[7]\n")
    assert _by_field(_diagnose(kb, line))[("hccl_ret", "7")].meaning == "HCCL_E_UNAVAIL: resource unavailable"


def test_torch_npu_s_failed_hccl_call_gives_its_hccl_result(kb):
    """torch_npu's HCCL_CHECK_ERROR: "HCCL function error: <call>, error code is <HcclResult>"."""
    line = ("RuntimeError: create_config:torch_npu/csrc/distributed/ProcessGroupHCCL.cpp:2314 HCCL function error: "
            "hcclCommInitRootInfoConfig(numRanks, &rootInfo, rank, config, &(comm->hcclComm_)), error code is 5\n")
    assert _by_field(_diagnose(kb, line))[("hccl_ret", "5")].meaning.startswith("HCCL_E_NOT_SUPPORT")
    # an NPU (ACL) function's error code is not an HcclResult
    acl = "RuntimeError: NPU function error: aclrtSynchronizeDevice, error code is 507046\n"
    assert not [d for d in _diagnose(kb, acl).decoded if d.decoder == "hccl-ret"]


def test_a_fused_operator_s_failed_hccl_call_gives_its_hccl_result(kb):
    """nnopbase under EZ9999: "... fails to invoke the <call> function of the hccl module. ret = 4"."""
    for line in ("AclNN_Inner_Error(EZ9999):  Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the "
                 "hccl module. ret = 4, comm = 0xfffeb02eb000.\n",
                 "EZ9999: Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module，ret=4\n"):
        assert _by_field(_diagnose(kb, line))[("hccl_ret", "4")].meaning == "HCCL_E_INTERNAL: internal error"
    # the success value is no failure
    ok = "Nnopbase fails to invoke the HcclAllocComResourceByTiling function of the hccl module. ret = 0\n"
    assert ("hccl_ret", "0") not in _by_field(_diagnose(kb, ok))
