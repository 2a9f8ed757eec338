"""How faultbot's modules depend on each other, read from the source with ``ast`` (nothing of
faultbot is imported to check it): every import names a module that exists, no import cycle joins
modules or packages, ``faultbot/kb/`` imports nothing but itself and the foundation, a package that
exports its names lazily is never imported through by its own modules, and each layer of
ARCHITECTURE.md's picture imports only its own layer and the layers below it.

Deferred imports (inside a function) count: they run, just later. Imports under
``if TYPE_CHECKING:`` never run, so they make no cycle, but they still may not reach up a layer.
"""

from __future__ import annotations

import ast
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent.parent / "faultbot"
ROOT = "faultbot"

# Lowest first. A module imports modules of its own layer and of the layers below, never above.
LAYERS: tuple[tuple[str, ...], ...] = (
    # the foundation: standard library only (the version, writing files whole, the cache folder,
    # records' equality, the full-width table, paths)
    ("faultbot", "faultbot.atomic_files", "faultbot.cache", "faultbot.equality", "faultbot.fullwidth",
     "faultbot.literal_trie", "faultbot.paths"),
    ("faultbot.kb",),                                           # the knowledge base, read and checked
    ("faultbot.ingest",),                                       # text to log records
    ("faultbot.match", "faultbot.extract", "faultbot.folding",  # records to evidence
     "faultbot.evidence", "faultbot.parallel"),
    ("faultbot.engine",),                                       # evidence to a diagnosis
    ("faultbot.cluster", "faultbot.qa"),                        # a diagnosis by rank; questions in words
    ("faultbot.render",),                                       # text, Markdown and JSON
    ("faultbot.session", "faultbot.cases", "faultbot.overlap",  # what the commands and the chat share
     "faultbot.case_export", "faultbot.eval_report", "faultbot.facts_file", "faultbot.authoring"),
    ("faultbot.repl", "faultbot.cli", "faultbot.__main__"),     # the chat and the commands
)
FOUNDATION = LAYERS[0]

# Imports that break a rule above and are not fixed yet, each with the change that removes it. They
# are named, never skipped silently, and a test fails once one is gone, so that its line goes too.
KNOWN_VIOLATIONS: dict[tuple[str, str], str] = {}


@dataclass(frozen=True)
class Import:
    """One module's import of another, as the source says it."""

    importer: str        # the importing module, dotted
    imported: str        # the module it gets (a package stands for its __init__)
    through: str         # the module named after ``from`` (the imported one itself for ``import``)
    line: int
    typing_only: bool    # under ``if TYPE_CHECKING:``: never runs

    def at(self) -> str:
        return f"{_path_of(self.importer)}:{self.line}"


@cache
def _modules() -> dict[str, Path]:
    """Every module of faultbot by dotted name; a package by its own name, for its __init__."""
    found = {}
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        parts = path.relative_to(PACKAGE_DIR.parent).with_suffix("").parts
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _path_of(module: str) -> str:
    return _modules()[module].relative_to(PACKAGE_DIR.parent).as_posix()


def _is_package(module: str) -> bool:
    return _modules()[module].name == "__init__.py"


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _statements(body: Iterable[ast.AST], typing_only: bool) -> Iterator[tuple[ast.AST, bool]]:
    """Every node under ``body`` with whether it sits under ``if TYPE_CHECKING:``."""
    for node in body:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            yield from _statements(node.body, True)
            yield from _statements(node.orelse, typing_only)
            continue
        yield node, typing_only
        yield from _statements(ast.iter_child_nodes(node), typing_only)


def _absolute(node: ast.ImportFrom, importer: str) -> str:
    if not node.level:
        return node.module or ""
    package = importer.split(".") if _is_package(importer) else importer.split(".")[:-1]
    base = package[:len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@cache
def _imports_of(importer: str) -> tuple[Import, ...]:
    tree = ast.parse(_modules()[importer].read_text(encoding="utf-8"))
    found = []
    for node, typing_only in _statements(tree.body, False):
        if isinstance(node, ast.Import):
            found += [Import(importer, alias.name, alias.name, node.lineno, typing_only)
                      for alias in node.names if alias.name.split(".")[0] == ROOT]
        elif isinstance(node, ast.ImportFrom):
            through = _absolute(node, importer)
            if through.split(".")[0] != ROOT:
                continue
            for alias in node.names:
                submodule = f"{through}.{alias.name}"
                found.append(Import(importer, submodule if submodule in _modules() else through, through,
                                    node.lineno, typing_only))
    return tuple(dict.fromkeys(found))  # one per module an import line names


def _all_imports() -> list[Import]:
    return [found for module in _modules() for found in _imports_of(module)]


def _followed() -> list[Import]:
    """The imports the rules judge: those that name a module, less the known violations."""
    return [i for i in _all_imports() if i.imported in _modules() and (i.importer, i.imported) not in KNOWN_VIOLATIONS]


def _unit_of(module: str) -> str:
    """The package (``faultbot.engine``) or top-level module (``faultbot.session``) a module belongs to."""
    return ".".join(module.split(".")[:2])


def _layer_of(module: str) -> int | None:
    unit = _unit_of(module)
    return next((number for number, layer in enumerate(LAYERS) if unit in layer), None)


def _a_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """A shortest cycle of the graph ``edges``, as the nodes it passes, the first one again last."""
    for start in sorted(edges):
        came_from: dict[str, str] = {}
        queue = deque([start])
        while queue:
            node = queue.popleft()
            for successor in sorted(edges.get(node, ())):
                if successor == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if successor not in came_from:
                    came_from[successor] = node
                    queue.append(successor)
    return None


def _cycles(node_of: Callable[[str], str]) -> list[str]:
    """Every cycle of the imports that run, between the nodes ``node_of(module)``, found one at a time
    and broken where found so that each is told once, with the imports that make each step."""
    edges: dict[str, set[str]] = {}
    for found in _followed():
        source, target = node_of(found.importer), node_of(found.imported)
        if not found.typing_only and source != target:
            edges.setdefault(source, set()).add(target)
    told = []
    while (cycle := _a_cycle(edges)) is not None:
        steps = set(pairwise(cycle))
        told.append(" -> ".join(cycle) + "".join(
            f"\n    {found.at()} imports {found.imported}" for found in _followed()
            if not found.typing_only and (node_of(found.importer), node_of(found.imported)) in steps))
        edges[cycle[0]].discard(cycle[1])
    return told


def test_every_import_of_faultbot_names_a_module_that_exists():
    broken = [f"{found.at()}: imports {found.through}, which is not a module of faultbot"
              for found in _all_imports() if found.imported not in _modules()]
    assert not broken, "\n".join(broken)


def test_no_import_cycle_between_modules():
    cycles = _cycles(lambda module: module)
    assert not cycles, "\n".join(cycles)


def test_no_import_cycle_between_packages():
    cycles = _cycles(_unit_of)
    assert not cycles, "\n".join(cycles)


def test_kb_imports_nothing_of_faultbot_but_itself_and_the_foundation():
    outside = [f"{found.at()}: faultbot.kb imports {found.imported}" for found in _followed()
               if _unit_of(found.importer) == "faultbot.kb"
               and _unit_of(found.imported) not in ("faultbot.kb", *FOUNDATION)]
    assert not outside, "\n".join(outside)


def test_the_foundation_is_standard_library_only():
    """What kb/ may import must itself import nothing of faultbot above it."""
    above = [f"{found.at()}: {found.importer} imports {found.imported}" for found in _all_imports()
             if _unit_of(found.importer) in FOUNDATION and _unit_of(found.imported) not in FOUNDATION]
    assert not above, "\n".join(above)


def test_every_module_has_a_layer():
    unplaced = sorted({_unit_of(module) for module in _modules() if _layer_of(module) is None})
    assert not unplaced, f"put {', '.join(unplaced)} in LAYERS of {Path(__file__).name} (and in ARCHITECTURE.md)"


def test_no_layer_imports_a_layer_above_it():
    upward = []
    for found in _followed():
        mine, theirs = _layer_of(found.importer), _layer_of(found.imported)
        if mine is not None and theirs is not None and theirs > mine:
            upward.append(f"{found.at()}: {found.importer} (layer {mine}) imports {found.imported} (layer {theirs})")
    assert not upward, "\n".join(upward)


def test_a_lazy_package_is_never_imported_through_by_its_own_modules():
    """A package whose __init__ exports names lazily (a module ``__getattr__``) runs that code for its
    own modules' imports through it: they import from the defining module instead."""
    lazy = {module for module in _modules() if _is_package(module) and any(
        isinstance(node, ast.FunctionDef) and node.name == "__getattr__"
        for node in ast.parse(_modules()[module].read_text(encoding="utf-8")).body)}
    through = [f"{found.at()}: imports through {found.through}; import from the module that defines the name"
               for found in _all_imports()
               if found.through in lazy and found.importer != found.through and found.importer.startswith(found.through + ".")]
    assert not through, "\n".join(through)


def test_each_known_violation_is_still_there():
    """A known violation that was fixed leaves KNOWN_VIOLATIONS, so it cannot come back unnoticed."""
    present = {(found.importer, found.imported) for found in _all_imports()}
    fixed = [f"{importer} -> {imported}" for importer, imported in KNOWN_VIOLATIONS if (importer, imported) not in present]
    assert not fixed, "fixed: remove from KNOWN_VIOLATIONS: " + ", ".join(fixed)
