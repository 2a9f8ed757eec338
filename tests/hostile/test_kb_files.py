"""A hostile knowledge base (the KB changes by pull request): a copy of the shipped KB with bad files
added, on which ``faultbot kb lint`` and ``faultbot diagnose --kb`` run in subprocesses. Lint must
name the file and line of each bad file on one line and exit 1; diagnose must fail with exit 2 and a
one-line error; neither may print a traceback, take more than seconds or grow past MAX_RSS_MB.

The bad files share one KB copy, so two runs check them all (a run costs two seconds of compiling
the shipped KB); a bad file that hides the others (a fact file that does not parse stops the rest of
the checks) or takes the place of another gets a copy of its own."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..conftest import REPO_DIR
from . import generate as g

TIMEOUT_SECONDS = 60      # a hang fails the test instead of the suite
MAX_SECONDS = 15          # lint of the shipped KB takes about 2 s
MAX_RSS_MB = 200
_PROBLEM = re.compile(r"^\S[^:]*:\d+: \S")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_LOG = ("[ERROR] HCCL(2111665,python):2025-10-24-11:18:29.511.902 [task_exception_handler.cc:908] [2111665]"
        "[TaskExecStage][Timeout][Host]Task run failed, base information is streamID:[2], taskID[21]\n")


@dataclass(frozen=True)
class Run:
    """One finished ``faultbot`` process."""

    code: int
    lines: list[str]      # its standard error
    seconds: float
    peak_mb: float


def faultbot(*args: str) -> Run:
    """``python -m faultbot ARGS`` with the compiled-KB cache off, timed, with its own peak RSS."""
    with tempfile.TemporaryDirectory() as scratch:
        try:
            done = g.run_faultbot(*args, peak_file=Path(scratch) / "peak", timeout=TIMEOUT_SECONDS,
                                  env={"FAULTBOT_CACHE": "off"})
        except subprocess.TimeoutExpired:
            pytest.fail(f"faultbot {' '.join(args)} still runs after {TIMEOUT_SECONDS} s")
    return Run(done.returncode, done.stderr.splitlines(), done.seconds, done.peak_mb)


def write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def sparse(root: Path, name: str, size: int) -> Path:
    """A file of ``size`` bytes that takes no room on disk."""
    path = root / name
    with path.open("wb") as out:
        out.truncate(size)
    return path


ALIAS_BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(20))
DEEP = "x: " + "[" * 5000 + "]" * 5000 + "\n"
FRONT = "---\nid: {id}\ntitle: T\noriginal_title: T\nsource_url: https://example.com\npublished: 2025-01-01\n" \
        "language_of_source: en\n---\n# Title\n\n## Part {{#part}}\n\nText.\n"


def _article(root: Path, ident: str, front_extra: str = "", body_extra: str = "") -> None:
    text = FRONT.format(id=ident).replace("---\nid:", "---\n" + front_extra + "id:", 1) + body_extra
    write(root, f"articles/{ident}.md", text)


def _nested_folders(folder: Path, depth: int) -> Path:
    for _ in range(depth):  # one at a time: mkdir(parents=True) recurses once per level
        folder = folder / "d"
        folder.mkdir()
    return folder


def _extractor(ident: str, regex: str, prefilter: str = "") -> str:
    line = f"    prefilter: '{prefilter}'\n" if prefilter else "    anchors: [MARK]\n"
    return f"extractors:\n  - id: {ident}\n    regex: '{regex}'\n{line}"


# (test id, what to add to a KB copy, the file:line lint must name, words its message must hold);
# the copy is the shared one unless the id is in ALONE
HOSTILE: list[tuple[str, Callable[[Path], object], str, str]] = [
    ("alias bomb in article front matter",
     lambda root: _article(root, "bomb", front_extra=ALIAS_BOMB), "articles/bomb.md:2", "anchors and aliases"),
    ("alias bomb in an entry", lambda root: write(root, "kb/entries/demo/demo.bomb.yaml", ALIAS_BOMB),
     "kb/entries/demo/demo.bomb.yaml:1", "anchors and aliases"),
    ("alias bomb in a facts file", lambda root: write(root, "kb/facts/bomb.yaml", ALIAS_BOMB),
     "kb/facts/bomb.yaml:1", "anchors and aliases"),
    ("alias bomb in a rules file", lambda root: write(root, "kb/rules/bomb.yaml", ALIAS_BOMB),
     "kb/rules/bomb.yaml:1", "anchors and aliases"),
    ("alias bomb in a decoders file", lambda root: write(root, "kb/decoders/bomb.yaml", ALIAS_BOMB),
     "kb/decoders/bomb.yaml:1", "anchors and aliases"),
    ("alias bomb as the code book", lambda root: write(root, "kb/codes.yaml", ALIAS_BOMB),
     "kb/codes.yaml:1", "anchors and aliases"),
    ("entry linked to /dev/zero", lambda root: (root / "kb/entries/demo.zero.yaml").symlink_to("/dev/zero"),
     "kb/entries/demo.zero.yaml:1", "not a regular file"),
    ("article linked to /dev/zero", lambda root: (root / "articles/zero.md").symlink_to("/dev/zero"),
     "articles/zero.md:1", "not a regular file"),
    ("FIFO as an entry", lambda root: os.mkfifo(root / "kb/entries/demo.fifo.yaml"),
     "kb/entries/demo.fifo.yaml:1", "not a regular file"),
    ("FIFO as an article", lambda root: os.mkfifo(root / "articles/fifo.md"), "articles/fifo.md:1", "not a regular file"),
    ("FIFO as the code book", lambda root: ((root / "kb/codes.yaml").unlink(), os.mkfifo(root / "kb/codes.yaml")),
     "kb/codes.yaml:1", "not a regular file"),
    ("entry linked outside the KB", lambda root: (root / "kb/entries/demo.passwd.yaml").symlink_to("/etc/passwd"),
     "kb/entries/demo.passwd.yaml:1", "links to a file outside kb/"),
    ("entry nested 5000 deep", lambda root: write(root, "kb/entries/demo/demo.deep.yaml", DEEP),
     "kb/entries/demo/demo.deep.yaml:1", "nested more than 64 levels deep"),
    ("article front matter nested 5000 deep", lambda root: _article(root, "deep", front_extra=DEEP),
     "articles/deep.md:2", "nested more than 64 levels deep"),
    ("50 MB article", lambda root: sparse(root, "articles/huge.md", 50 << 20),
     "articles/huge.md:1", f"file is {50 << 20} bytes, over the limit of 1048576 bytes"),
    ("2 MB entry", lambda root: sparse(root, "kb/entries/demo.huge.yaml", 2 << 20),
     "kb/entries/demo.huge.yaml:1", "over the limit of 1048576 bytes"),
    ("half a million values in a rules file", lambda root: write(root, "kb/rules/wide.yaml", "x: [" + "a," * 500_000 + "]\n"),
     "kb/rules/wide.yaml:1", "more than 50000 values"),
    ("terminal escape in an entry", lambda root: write(root, "kb/entries/demo/demo.escape.yaml",
                                                       "id: demo.escape\ntitle: ok\n# \x1b]0;owned\x07\n"),
     "kb/entries/demo/demo.escape.yaml:3", "control character U+001B (and 1 more)"),
    ("escaped terminal escape in a YAML string", lambda root: write(root, "kb/entries/demo/demo.escaped.yaml",
                                                                   'id: demo.escaped\ntitle: "\\e[2J cleared"\n'),
     "kb/entries/demo/demo.escaped.yaml:2", "a value holds control character U+001B"),
    ("terminal escape in an article", lambda root: _article(root, "escape", body_extra="\nplain\n\x1b[31mred\n"),
     "articles/escape.md:16", "control character U+001B"),
    ("bidirectional override in an article", lambda root: _article(root, "bidi", body_extra="abc\u202edef\n"),
     "articles/bidi.md:14", "control character U+202E"),
    ("slow symptom regex", lambda root: write(root, "kb/entries/demo/demo.slow.yaml",
                                              "id: demo.slow\nsymptoms:\n  - id: s\n    regex: '\\w+MARK'\n"),
     "kb/entries/demo/demo.slow.yaml:4", "leading repeat"),
    ("slow extractor regex", lambda root: write(root, "kb/facts/slow.yaml", _extractor("slow", "(?P<rank>.*?x.*?y.*?z)")),
     "kb/facts/slow.yaml:3", "adjacent repeats"),
    ("slow prefilter", lambda root: write(root, "kb/facts/slow-prefilter.yaml",
                                          _extractor("slow-prefilter", "MARK(?P<rank>\\d+)", "\\w+MARK")),
     "kb/facts/slow-prefilter.yaml:4", "prefilter of extractor 'slow-prefilter': leading repeat"),
    ("slow condition regex", lambda root: write(root, "kb/rules/slow.yaml", "rules:\n  - id: slow\n    citation: x#y\n"
                                                "    when: {fact: kernel_name, regex: '(?:a{0,50}?b{0,50}?){0,20}'}\n"
                                                "    then: {kernel_family: lccl}\n"),
     "kb/rules/slow.yaml:4", "nested quantifier"),
    ("entry folders nested 1200 deep", lambda root: write(_nested_folders(root / "kb/entries", 1200), "demo.deep.yaml",
                                                          "id: demo.deep\n"),
     "kb/entries/" + "d/" * 1200 + "demo.deep.yaml:1", "missing required field"),
]


ALONE = ("alias bomb in a facts file", "alias bomb as the code book")
SHARED = "shared"


@dataclass(frozen=True)
class Outcome:
    kb: str
    lint: Run
    diagnose: Run


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    """Lint and diagnose on each KB copy, keyed by the copy (SHARED, or the id of a file alone)."""
    copies: dict[str, list[Callable[[Path], object]]] = {}
    for ident, build, _, _ in HOSTILE:
        copies.setdefault(ident if ident in ALONE else SHARED, []).append(build)
    found = {}
    for name, builds in copies.items():
        root = tmp_path_factory.mktemp("hostile-kb")
        shutil.copytree(REPO_DIR / "kb", root / "kb")
        shutil.copytree(REPO_DIR / "articles", root / "articles")
        try:
            for build in builds:
                build(root)
            log = write(root, "job.log", _LOG)
            kb = str(root / "kb")
            found[name] = Outcome(kb, faultbot("kb", "lint", "--kb", kb),
                                  faultbot("diagnose", "--no-ask", "--kb", kb, str(log)))
        finally:
            _remove_tree(root)  # now: pytest's own clean-up of old temporary folders recurses once per level
    return found


def _remove_tree(top: Path) -> None:
    """``rm -r top`` without recursion, so folders thousands deep go too."""
    pending, folders = [top], []
    while pending:
        folder = pending.pop()
        folders.append(folder)
        for item in folder.iterdir():
            if item.is_dir() and not item.is_symlink():
                pending.append(item)
            else:
                item.unlink()
    for folder in reversed(folders):
        folder.rmdir()


def _assert_clean(run: Run) -> None:
    assert not any("Traceback" in line for line in run.lines), "\n".join(run.lines[-20:])
    assert not any(_CONTROL.search(line) for line in run.lines)
    assert run.seconds < MAX_SECONDS, f"took {run.seconds:.1f} s"
    assert run.peak_mb < MAX_RSS_MB, f"peaked at {run.peak_mb:.0f} MB"


pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs and symlinks")


@pytest.mark.parametrize(("ident", "where", "words"), [(row[0], *row[2:]) for row in HOSTILE],
                         ids=[row[0] for row in HOSTILE])
def test_lint_names_each_hostile_file_on_one_line(outcomes: dict[str, Outcome], ident: str, where: str, words: str):
    lint = outcomes[ident if ident in ALONE else SHARED].lint
    assert any(line.startswith(f"{where}: ") and words in line for line in lint.lines), lint.lines[:10]


@pytest.mark.parametrize("name", [SHARED, *ALONE])
def test_lint_fails_fast_small_and_one_line_a_problem(outcomes: dict[str, Outcome], name: str):
    outcome = outcomes[name]
    _assert_clean(outcome.lint)
    assert outcome.lint.code == 1
    *problems, summary = outcome.lint.lines
    assert summary == f"{len(problems)} problem(s) in {outcome.kb}"
    assert all(_PROBLEM.match(line) for line in problems), [p for p in problems if not _PROBLEM.match(p)][:3]


@pytest.mark.parametrize("name", [SHARED, *ALONE])
def test_diagnose_on_a_hostile_kb_fails_cleanly(outcomes: dict[str, Outcome], name: str):
    diagnose = outcomes[name].diagnose
    _assert_clean(diagnose)
    assert diagnose.code == 2
    assert diagnose.lines[-1] == "faultbot: error: the knowledge base has problems; run 'faultbot kb lint'"
    # the first problems, one line each, then how many more (faultbot kb lint lists them all)
    assert all(_PROBLEM.match(line) or line.startswith("... and ") for line in diagnose.lines[:-1])
