"""Cluster scenario trees (benchmarks/cluster_tree.py), each generated and diagnosed once per session."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from unittest import mock

import pytest

from faultbot.cli import diagnose_command, extract_command
from faultbot.cli.main import main
from faultbot.kb.loader import KnowledgeBase, load_kb

from ..conftest import REPO_DIR


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cluster_tree", REPO_DIR / "benchmarks" / "cluster_tree.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module      # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


cluster_tree = _load_generator()


_loaded: dict[tuple[Path, Path], KnowledgeBase] = {}


def _load_kb_once(kb_dir: Path, articles_dir: Path) -> KnowledgeBase:
    key = (Path(kb_dir).resolve(), Path(articles_dir).resolve())
    if key not in _loaded:
        _loaded[key] = load_kb(kb_dir, articles_dir)
    return _loaded[key]


def run(*args: str) -> tuple[int, str, str]:
    """``faultbot ARGS`` in this process, the KB loaded once for all calls (a subprocess, or a KB
    load, per call would triple the suite's time)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            mock.patch.object(diagnose_command, "load_kb", _load_kb_once), \
            mock.patch.object(extract_command, "load_kb", _load_kb_once):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@dataclass(frozen=True)
class Diagnosed:
    tree: Path
    suspects: tuple[int, ...]       # the ranks the generator planted the fault on
    code: int
    report: dict
    text: str


class Scenarios:
    def __init__(self, root: Path) -> None:
        self.root = root
        self._done: dict[str, Diagnosed] = {}

    def tree(self, name: str) -> tuple[Path, tuple[int, ...]]:
        tree = self.root / name
        plan = cluster_tree.generate(tree, name, nodes=4, ranks_per_node=8, steps=30, debug_lines=120)
        return tree, plan.suspects

    def facts(self, name: str) -> list[Path]:
        """The scenario's facts files, one per node, as ``faultbot extract`` writes them (once)."""
        out = self.root / f"{name}-facts"
        if not out.exists():
            out.mkdir()
            for node in sorted(path for path in self.diagnosed(name).tree.iterdir() if path.is_dir()):
                code, _, err = run("extract", str(node), "-o", str(out / f"{node.name}.facts.jsonl.gz"))
                assert code == 0, err
        return sorted(out.iterdir())

    def diagnosed(self, name: str) -> Diagnosed:
        if name not in self._done:
            tree, suspects = self.tree(name)
            code, out, err = run("diagnose", str(tree), "--no-ask", "--format", "json")
            assert "Traceback" not in err, err
            text_code, text, _ = run("diagnose", str(tree), "--no-ask", "--format", "markdown")
            assert text_code == code
            self._done[name] = Diagnosed(tree, suspects, code, json.loads(out), text)
        return self._done[name]


@pytest.fixture(scope="session")
def scenarios(tmp_path_factory: pytest.TempPathFactory) -> Scenarios:
    return Scenarios(tmp_path_factory.mktemp("cluster"))
