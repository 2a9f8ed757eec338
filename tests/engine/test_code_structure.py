"""A well-formed code no entry describes is explained by its structure, with no invented cause."""

from __future__ import annotations

import json
import subprocess
import sys

from ..conftest import REPO_DIR


def diagnose(text: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "faultbot", "diagnose", "-", "--no-ask", *args], input=text,
                          capture_output=True, text=True, timeout=120, cwd=REPO_DIR)


UNKNOWN = "EK1234: [PID: 4242] 2025-11-03-10:00:00.000.000 Profiling data could not be flushed.\n"


def test_unknown_code_is_read_by_level_module_and_class():
    done = diagnose(UNKNOWN, "--format", "markdown")
    assert done.returncode == 1
    assert "Not in my knowledge base" in done.stdout
    assert "EK1234 is an error reported by Profiling, in the user class range" in done.stdout
    assert "Reading an unknown code" in done.stdout


def test_code_explanations_in_json():
    out = json.loads(diagnose(UNKNOWN, "--format", "json").stdout)
    (code,) = out["codes"]
    assert (code["code"], code["level"], code["module"], code["class"]) == ("EK1234", "error", "Profiling", "user class")
    assert out["conclusions"] == [] and code["entries"] == []
    assert code["citations"][0]["ref"].startswith("cann-error-code-structure#")


def test_internal_codes_and_unnamed_modules():
    out = json.loads(diagnose("EQ9123: [PID: 1] 2025-11-03-10:00:00.000.000 boom\n", "--format", "json").stdout)
    (code,) = out["codes"]
    assert code["class"] == "internal" and "contact technical support" in code["meaning"]
    assert "does not name" in code["module"]


def test_a_wrapper_with_nothing_known_inside_is_at_most_possible_and_says_what_to_collect():
    """EE9999 around a message no entry knows: the internal-error entry answers, as a place to start
    (collect the logs), never as a confirmed cause."""
    text = ("EE9999: Inner Error!\n"
            "EE9999: [PID: 540989] 2025-04-27-03:11:08.269.791 get error: phyid:0 realDeviceId:0 is err:0x7010003"
            "[FUNC:GetDeviceIndexByPhyId][FILE:api_error.cc][LINE:1918]\n")
    report = json.loads(diagnose(text, "--format", "json").stdout)
    top = report["conclusions"][0]
    assert (top["id"], top["status"]) == ("cann.internal-error", "possible")
    assert any("msnpureport" in " ".join(step["commands"]) for step in top["fixes"]["permanent"])


# a real paste's form (vllm-ascend): torch_npu's wrapper around an aclnn return code no table lists
ACL_CODE = ("RuntimeError: create_config:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:102 NPU function error: "
            "aclnnMoeDistributeDispatchV4, error code is 561000\n")


def test_an_acl_return_code_is_read_by_its_class_digit():
    done = diagnose(ACL_CODE, "--format", "markdown")
    assert "561000 is a class-5 aclError: internal software or hardware errors" in done.stdout
    out = json.loads(diagnose(ACL_CODE, "--format", "json").stdout)
    (code,) = out["return_codes"]
    assert (code["code"], code["class"], code["entries"]) == ("561000", "5", [])
    assert code["citations"][0]["ref"] == "cann-error-code-structure#acl-return-codes"
    assert "name" not in code    # no table names 561000


def test_an_acl_return_code_an_article_table_names_is_read_by_that_name():
    text = ACL_CODE.replace("aclnnMoeDistributeDispatchV4, error code is 561000", "aclmdlRICaptureBegin, error code is 107027")
    assert "107027 (`ACL_ERROR_RT_STREAM_CAPTURED`: the stream is being captured) is a class-1 aclError" in \
        diagnose(text, "--format", "markdown").stdout
    (code,) = json.loads(diagnose(text, "--format", "json").stdout)["return_codes"]
    assert (code["name"], code["says"]) == ("ACL_ERROR_RT_STREAM_CAPTURED", "the stream is being captured")
    assert [c["ref"] for c in code["citations"]] == ["cann-acl-error-codes#runtime-code-list",
                                                     "cann-error-code-structure#acl-return-codes"]
