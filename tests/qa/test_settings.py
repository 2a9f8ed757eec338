"""kb/settings.yaml: every value is checked against the article section it cites, and `faultbot ask`
answers a setting's default, range and meaning from it, the products the question names first."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from faultbot.kb.model import Intent
from faultbot.qa.answer import answer
from faultbot.qa.setting_answers import setting_answer

from ..conftest import REPO_DIR

BROKEN_SETTINGS = """settings:
  - name: HCCL_CONNECT_TIMEOUT
    default:
      - {value: "130", citation: hccl-env-hccl-connect-timeout#range-and-default}
      - {value: "120", when: [Atlas Z9], citation: hccl-env-hccl-connect-timeout#range-and-default}
      - {value: "120", citation: hccl-env-hccl-connect-timeout#no-such-section}
  - name: lowercase_name
    range: ["[1, 2]"]
  - name: HCCL_BUFFSIZE
    colour: blue
"""


GOOD_SETTINGS = """settings:
  - name: HCCL_CONNECT_TIMEOUT
    called: [connect timeout]
    default:
      - {value: "120", citation: hccl-env-hccl-connect-timeout#range-and-default}
    range:
      - {value: "[120, 7200]", citation: hccl-env-hccl-connect-timeout#range-and-default}
"""


def _lint(tmp_path, settings: str) -> subprocess.CompletedProcess:
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    (tmp_path / "kb" / "settings.yaml").write_text(settings, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "faultbot", "kb", "lint", "--kb", str(tmp_path / "kb"),
                           "--articles", str(REPO_DIR / "articles")], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")})


@pytest.fixture(scope="module")
def broken_lint(tmp_path_factory) -> list[str]:
    done = _lint(tmp_path_factory.mktemp("broken"), BROKEN_SETTINGS)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    return done.stderr.splitlines()


@pytest.mark.parametrize("where, message, hint", [
    ("kb/settings.yaml:4:", "HCCL_CONNECT_TIMEOUT default '130': '130' is not written in",
     "quote the section's own words"),
    ("kb/settings.yaml:5:", "'Atlas Z9' is not written in hccl-env-hccl-connect-timeout#range-and-default", ""),
    ("kb/settings.yaml:6:", "cites 'hccl-env-hccl-connect-timeout#no-such-section', which is not an article section",
     "cite an existing"),
    ("kb/settings.yaml:7:", "setting name 'lowercase_name' is not an environment variable", "HCCL_EXEC_TIMEOUT"),
    ("kb/settings.yaml:8:", "must be a mapping with 'value' and 'citation'", ""),
    ("kb/settings.yaml:10:", "unknown field 'colour' in a setting", ""),
])
def test_a_value_the_cited_section_does_not_write_is_reported_with_its_line(broken_lint, where, message, hint):
    matching = [line for line in broken_lint if line.startswith(where) and message in line]
    assert matching, "\n".join(broken_lint)
    assert hint in matching[0]


def test_values_quoted_from_their_sections_pass_lint(tmp_path):
    done = _lint(tmp_path, GOOD_SETTINGS)
    assert done.returncode == 0, done.stderr


def test_default_is_answered_per_product_with_the_asked_product_first(index):
    found = answer(index, "what is the default HCCL_OP_EXPANSION_MODE on Atlas A3")
    lines = (found.text or "").splitlines()
    assert lines[1] == "- default AI_CPU: Atlas A3 training / inference series"
    assert "- default HOST: Atlas A2 training / inference series; Atlas 300I Duo inference card" in lines
    assert found.citations == ("hccl-env-hccl-op-expansion-mode#per-product",)


def test_a_mode_the_values_depend_on_qualifies_the_setting_and_comes_first(index):
    found = answer(index, "what is the maximum HCCL_EXEC_TIMEOUT in AIV mode")
    assert (found.text or "").splitlines()[1] == "- range [0, 1091]: AIV mode"
    assert "hccl-env-hccl-exec-timeout#aiv-cap" in found.citations


def test_earlier_releases_are_said_as_such(kb, index):
    setting = index.catalogue.settings["HCCL_EXEC_TIMEOUT"]
    text, cited = setting_answer(setting, frozenset({Intent.DEFAULT}), "default in 6.0")
    assert "- default 1800 in 6.0.1 and 6.3.RC2 (an earlier release)" in text
    assert "hccl-env-hccl-exec-timeout#history" in cited


def test_a_setting_named_without_a_question_gets_what_is_documented_about_it(index):
    found = answer(index, "HCCL_RDMA_TIMEOUT value, how does it convert to an actual time")
    assert found.found and "What it says about `HCCL_RDMA_TIMEOUT`" in found.text
    assert "4.096 µs × 2^value" in found.text and "- default 20" in found.text


def test_ask_prints_the_setting_value_with_its_source():
    done = subprocess.run([sys.executable, "-m", "faultbot", "ask", "HCCL_CONNECT_TIMEOUT 默认多少秒？"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "- default 120" in done.stdout and "unit: seconds" in done.stdout
    assert "Range and default — https://" in done.stdout


def test_what_a_timeout_bounds_is_part_of_what_it_does(index):
    found = answer(index, "what does HCCL_CONNECT_TIMEOUT actually control")
    assert "rootInfo negotiation during communicator creation" in found.text
    assert "hccl-env-hccl-connect-timeout#where-it-applies" in found.citations


def test_the_68_second_rounding_is_part_of_what_the_exec_timeout_does_on_the_products_it_applies_to(index):
    found = answer(index, "exec timeout 在 Atlas 训练卡上要按68秒取整吗，600会变成多少")
    assert "divided by 68 with the remainder dropped, times 68: Atlas training series" in found.text
    assert "hccl-env-hccl-exec-timeout#rounding-68" in found.citations


def test_the_port_variables_are_settings_with_their_range_and_special_values(index):
    found = answer(index, "HCCL_IF_BASE_PORT range")
    assert "[1024, 65520]" in found.text and found.citations[0] == "hccl-error-code-ei0019#host-port"
    assert "HCCL_HOST_SOCKET_PORT_RANGE" in answer(index, "what is HCCL_HOST_SOCKET_PORT_RANGE for").text


@pytest.mark.parametrize("question, line, citation", [
    ("what does HCCL_SOCKET_IFNAME do", "- =eth0 — exact name", "hccl-error-code-ei0001#socket-ifname-not-found"),
    ("what does HCCL_IF_IP do", "- HCCL_IF_IP takes priority over HCCL_SOCKET_IFNAME",
     "hccl-error-code-ei0001#socket-ifname-not-found"),
    ("HCCL_RDMA_SL range", "- range [0, 7]", "hccl-error-code-ei0001#plog"),
    ("HCCL_RDMA_TC range", "- range [0, 255], Must be a multiple of 4 in Community 8.0.RC3 (an earlier release)",
     "hccl-error-code-ei0001#keyword-table"),
    ("ASCEND_PROCESS_LOG_PATH 默认值是多少", "- default $HOME/ascend/log", "cann-aicore-error#collect-info"),
    ("what does HCCL_DIAGNOSE_ENABLE do", "- this task-level tracking must be switched on by hand: "
     "Atlas A3 training/inference series; Atlas A2 training/inference series", "hccl-task-execution-faults#task-exception"),
])
def test_a_question_naming_an_hccl_or_cann_variable_gets_its_sections_value(index, question, line, citation):
    found = answer(index, question)
    assert line in (found.text or "").splitlines(), found.text
    assert citation in found.citations


def test_a_default_no_article_states_is_not_made_up_but_what_is_documented_is_said(index):
    found = answer(index, "LCCL_DETERMINISTIC 默认值是多少")
    assert found.found and "- 1 — enable deterministic computing" in found.text
    assert "default" not in found.text.casefold()
    assert "lccl-allreduce-flag-cleanup#workaround" in found.citations


def test_how_large_a_setting_may_be_asks_its_range(index):
    for asked in ("HCCL_RDMA_SL 能设多大", "valid values for HCCL_RDMA_SL"):
        assert "range [0, 7]" in answer(index, asked).text
