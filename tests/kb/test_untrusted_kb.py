"""The KB is untrusted input: a hostile or odd pull request gets a file:line problem from lint,
never a hang, a traceback or a blow-up; and a KB in Chinese works like one in English."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ..conftest import REPO_DIR

ENTRY = "kb/entries/lccl/lccl.allreduce-flag-cleanup.yaml"
CHINESE_ENTRY = """\
id: demo.chinese-signature
title: 一个中文签名的故障
status: experimental
component: demo
severity: low
symptoms:
  - id: chinese-line
    form: any
    signature: '集合通信初始化失败，请检查网卡配置'
    weight: 0.9
cause: >
  A demo fault whose log line is Chinese.
fixes:
  workaround:
    - text: Check the NIC configuration.
      citation: hccl-task-execution-faults#multi-stream
citations:
  - hccl-task-execution-faults#multi-stream
tests:
  - name: the Chinese line
    log: |
      [ERROR] HCCL(1234,python):2025-03-07-11:43:32.305.623 [init.cc:56][1234]集合通信初始化失败，请检查网卡配置
    expect: demo.chinese-signature
  - name: another Chinese line
    log: |
      [ERROR] HCCL(1234,python):2025-03-07-11:43:32.305.623 [init.cc:56][1234]训练结束
    expect_not: demo.chinese-signature
"""


@pytest.fixture()
def kb_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FAULTBOT_CACHE", str(tmp_path / "cache"))
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    shutil.copytree(REPO_DIR / "articles", tmp_path / "articles")
    return tmp_path


def faultbot(root: Path, *args: str, stdin: str | None = None, timeout: int = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "FAULTBOT_CACHE": str(root / "cache")}
    return subprocess.run([sys.executable, "-m", "faultbot", *args, "--kb", str(root / "kb")], input=stdin,
                          capture_output=True, text=True, timeout=timeout, env=env)


def lint_problems(root: Path) -> list[str]:
    done = faultbot(root, "kb", "lint")
    assert "Traceback" not in done.stderr
    assert done.returncode == 1, done.stdout
    return done.stderr.splitlines()


def test_an_alias_is_refused_at_its_anchor(kb_copy):
    path = kb_copy / ENTRY
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("severity:", "x-anchor: &a [1, 2]\nx-alias: *a\nseverity:", 1), encoding="utf-8")
    anchor_line = text[: text.index("severity:")].count("\n") + 1
    assert any(p.startswith(f"kb/{ENTRY[3:]}:{anchor_line}:") and "aliases are not allowed" in p
               for p in lint_problems(kb_copy))


def test_an_alias_bomb_in_an_article_front_matter_is_refused_quickly(kb_copy):
    path = kb_copy / "articles" / "hccl-task-execution-faults.md"
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(20))
    path.write_text(path.read_text(encoding="utf-8").replace("---\n", "---\n" + bomb, 1), encoding="utf-8")
    problems = lint_problems(kb_copy)
    assert any(p.startswith("articles/hccl-task-execution-faults.md:") and "aliases" in p for p in problems)


def test_deep_nesting_is_refused_with_its_line(kb_copy):
    for depth in (100, 5000):
        (kb_copy / f"kb/entries/lccl/demo.deep{depth}.yaml").write_text(
            "x: " + "[" * depth + "]" * depth + "\n", encoding="utf-8")
    problems = lint_problems(kb_copy)
    for depth in (100, 5000):
        assert any(p.startswith(f"kb/entries/lccl/demo.deep{depth}.yaml:1:") and "nest" in p for p in problems)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_or_a_device_in_the_kb_is_refused_without_reading_it(kb_copy):
    os.mkfifo(kb_copy / "kb/entries/lccl/demo.fifo.yaml")
    (kb_copy / "kb/entries/lccl/demo.zero.yaml").symlink_to("/dev/zero")
    problems = lint_problems(kb_copy)
    for name in ("demo.fifo.yaml", "demo.zero.yaml"):
        assert any(p.startswith(f"kb/entries/lccl/{name}:1:") and "not a regular file" in p for p in problems)


def test_a_chinese_signature_lints_clean_and_diagnoses(kb_copy):
    folder = kb_copy / "kb/entries/demo"
    folder.mkdir()
    (folder / "demo.chinese-signature.yaml").write_text(CHINESE_ENTRY, encoding="utf-8")
    done = faultbot(kb_copy, "kb", "lint")
    assert done.returncode == 0, done.stderr
    log = "\n".join(["noise line without anything"] * 3 + [
        "[ERROR] HCCL(1234,python):2025-03-07-11:43:32.305.623 [init.cc:56][1234]集合通信初始化失败，请检查网卡配置"])
    done = faultbot(kb_copy, "diagnose", "-", "--no-ask", "--format", "json", stdin=log)
    assert done.returncode == 0, done.stderr
    assert '"id": "demo.chinese-signature"' in done.stdout


def test_a_non_ascii_prefilter_is_refused_with_its_line(kb_copy):
    path = kb_copy / "kb/facts.yaml"
    text = path.read_text(encoding="utf-8")
    old = "    prefilter: 'E[A-Z0-9][0-9]{4}'\n"
    assert old in text
    path.write_text(text.replace(old, "    prefilter: '错误E[A-Z0-9][0-9]{4}'\n"), encoding="utf-8")
    line = text[: text.index(old)].count("\n") + 1
    assert any(p.startswith(f"kb/facts.yaml:{line}:") and "ASCII" in p for p in lint_problems(kb_copy))
