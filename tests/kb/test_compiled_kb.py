"""The compiled KB: built once per content, loaded from the cache afterwards, rebuilt after any edit,
and never the reason a command fails (an unusable cache means building in memory)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from faultbot import cache
from faultbot.kb.loader import load_kb

from ..conftest import REPO_DIR

ENTRY = "kb/entries/lccl/lccl.allreduce-flag-cleanup.yaml"


@pytest.fixture()
def kb_copy(tmp_path: Path) -> Path:
    shutil.copytree(REPO_DIR / "kb", tmp_path / "kb")
    shutil.copytree(REPO_DIR / "articles", tmp_path / "articles")
    return tmp_path


@pytest.fixture()
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("FAULTBOT_CACHE", str(folder))
    return folder


def _load(root: Path):
    return load_kb(root / "kb", root / "articles")


def _age(root: Path) -> None:
    """Make every file look settled, as files are on the second run after an edit."""
    old = 1_500_000_000
    for path in root.rglob("*"):
        os.utime(path, (old, old))


def test_a_second_process_loads_the_compiled_kb_without_parsing(kb_copy, cache_dir):
    _age(kb_copy)
    probe = ("import sys; from pathlib import Path; from faultbot.kb.loader import load_kb; "
             f"kb = load_kb(Path({str(kb_copy / 'kb')!r}), Path({str(kb_copy / 'articles')!r})); "
             "print(len(kb.index.ids), 'faultbot.kb.compiler' in sys.modules, 'yaml' in sys.modules)")
    env = {**os.environ, "FAULTBOT_CACHE": str(cache_dir)}
    first = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    second = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    entries = first.stdout.split()[0]
    assert first.stdout.split() == [entries, "True", "True"]
    assert second.stdout.split() == [entries, "False", "False"]


def test_an_edit_is_picked_up_on_the_next_run(kb_copy, cache_dir):
    _age(kb_copy)
    assert _load(kb_copy).entry("lccl.allreduce-flag-cleanup").title.startswith("LcalAllReduce")
    path = kb_copy / ENTRY
    path.write_text(path.read_text(encoding="utf-8").replace("title: LcalAllReduce", "title: EDITED LcalAllReduce", 1),
                    encoding="utf-8")
    assert _load(kb_copy).entry("lccl.allreduce-flag-cleanup").title.startswith("EDITED")
    _age(kb_copy)   # even an edit that kept the file's size and an old time: the content decides
    assert _load(kb_copy).entry("lccl.allreduce-flag-cleanup").title.startswith("EDITED")


def test_an_edit_that_breaks_the_kb_is_reported_not_masked_by_the_cache(kb_copy, cache_dir):
    from faultbot.kb.kb_error import KbError

    _load(kb_copy)
    (kb_copy / ENTRY).write_text("id: [unclosed\n", encoding="utf-8")
    with pytest.raises(KbError) as raised:
        _load(kb_copy)
    assert any(p.file.endswith("lccl.allreduce-flag-cleanup.yaml") for p in raised.value.problems)


def test_an_unwritable_cache_directory_means_building_in_memory(kb_copy, tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FAULTBOT_CACHE", str(blocker / "cache"))   # cannot be created, even as root
    assert _load(kb_copy).entry("lccl.allreduce-flag-cleanup") is not None
    assert blocker.read_text() == "not a folder"


def test_a_corrupt_artifact_is_rebuilt(kb_copy, cache_dir):
    _age(kb_copy)
    _load(kb_copy)
    for artifact in cache_dir.glob("kb-*.pickle"):
        artifact.write_bytes(b"\x80\x05garbage")
    assert _load(kb_copy).entry("lccl.allreduce-flag-cleanup") is not None


def test_caching_can_be_turned_off(kb_copy, tmp_path, monkeypatch):
    monkeypatch.setenv("FAULTBOT_CACHE", cache.OFF)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _load(kb_copy).entry("lccl.allreduce-flag-cleanup") is not None
    assert not (tmp_path / "xdg").exists()


def test_entries_are_read_only_when_used(kb_copy, cache_dir):
    _age(kb_copy)
    _load(kb_copy)
    kb = _load(kb_copy)   # from the cache
    assert not kb.entry_table._values
    assert kb.entry("lccl.allreduce-flag-cleanup").id == "lccl.allreduce-flag-cleanup"
    assert list(kb.entry_table._values) == ["lccl.allreduce-flag-cleanup"]
    assert [e.id for e in kb.entries] == list(kb.index.ids)
