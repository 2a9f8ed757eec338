"""Per-line clean-up before parsing: terminal and Markdown artefacts and full-width punctuation
removed by a table of rewrites, then launchers' line prefixes stripped and remembered as labels.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import msgspec

from faultbot.fullwidth import as_ascii_punctuation
from faultbot.ingest.grammar import GREP_PATH, GREP_PREFIX, RANK_LABEL
from faultbot.ingest.lines import PhysicalLine


class Labels(msgspec.Struct, frozen=True):
    """What line prefixes say about a line's origin."""

    rank: int | None = None
    node: str | None = None
    worker: str | None = None
    named_file: str | None = None

    def over(self, base: Labels) -> Labels:
        """These labels, falling back to ``base`` for what they leave unset."""
        return Labels(*(getattr(self, name) if getattr(self, name) is not None
                        else getattr(base, name) for name in self.__struct_fields__))


NO_LABELS = Labels()


class CleanLine(msgspec.Struct, frozen=True):
    """A line after clean-up, with where its prefixes and content start and what the prefixes said."""

    number: int
    text: str        # the cleaned line, prefixes and indentation still in it
    lead: int        # leading whitespace: where any prefixes start
    body_start: int  # where the line's own content starts, after indentation and prefixes
    indent: int      # leading whitespace, counted before and after any prefixes
    labels: Labels
    cut: bool        # a piece of an over-long line

    @property
    def body(self) -> str:
        return self.text[self.body_start:]

    @property
    def content(self) -> str:
        """The line without its indentation but with any prefixes."""
        return self.text[self.lead:]


class _Rewrite(msgspec.Struct, frozen=True):
    """One clean-up step: ``applies`` is a cheap test that lets most lines skip the rewrite."""

    applies: Callable[[str], bool]
    rewrite: Callable[[str], str]


def _sub(pattern: str, replacement: str) -> Callable[[str], str]:
    return lambda text, _compiled=re.compile(pattern): _compiled.sub(replacement, text)


_REWRITES: tuple[_Rewrite, ...] = (
    # ANSI escape sequences (CSI colours, OSC titles) and other C0 controls except tab; first, since
    # needs_cleaning skips it for text known to be printable.
    _Rewrite(
        lambda t: not t.isprintable(),
        _sub(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-Z\\-_])?"
             r"|[\x00-\x08\x0b-\x1f\x7f]", ""),
    ),
    _Rewrite(lambda t: not t.isascii(), as_ascii_punctuation),
    # Markdown: quote markers "> " (but not ">>> " prompts), fences glued to text, escapes, and
    # IPs a ticket system auto-linked: [10.0.0.1](http://10.0.0.1/) -> 10.0.0.1.
    _Rewrite(lambda t: ">" in t[:8], _sub(r"^[ \t]*(?:>(?:[ \t]|$))+", "")),
    _Rewrite(
        lambda t: "```" in t or "~~~" in t,
        _sub(r"^([ \t]*)(?:```|~~~)[\w+-]*|(?:```|~~~)[ \t]*$", r"\1"),
    ),
    _Rewrite(lambda t: "\\" in t, _sub(r"\\([-\\`*_{}\[\]()#+.!|<>~])", r"\1")),
    _Rewrite(
        lambda t: "](" in t,
        _sub(r"\[([^\]\s]{1,256})\]\((?:(?:https?|ftp)://)?\1/?\)", r"\1"),
    ),
)
_PRINTABLE_REWRITES = _REWRITES[1:]

_LABEL = re.compile(
    # vLLM / Ray worker: "(Worker_TP3 pid=1071) ", "(RayWorkerWrapper pid=12, ip=10.0.0.1) "
    r"\((?P<worker>[A-Za-z_][\w.-]{0,63})? ?pid=[0-9]{1,10}(?:, ip=(?P<ip>[0-9.:]{1,64}))?\) +"
    # Python logging header such a launcher puts on every line: "ERROR 07-21 06:27:44 [file.py:962] "
    r"|(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) [0-9]{2}-[0-9]{2} [0-9:.]{8,15} \[[\w.-]{1,200}:[0-9]{1,9}\] "
    rf"|(?P<rank>{RANK_LABEL})"                                    # torchrun: [rank1]:, rank3:
    r"|\[[0-9]{1,9},(?P<rank_mpi>[0-9]{1,6})\]<std(?:out|err)>: ?"  # mpirun --tag-output: [1,0]<stderr>:
    r"|\[(?P<role>default[0-9]{1,6})\]: ?"                         # torchrun --tee: [default0]:
    r"|(?P<node>(?:worker|node|host|master|server)[\w.-]{0,63}?[0-9][\w-]{0,63}): "  # pdsh: worker-1:
    rf"|(?P<named_file>{GREP_PATH})(?::[0-9]{{1,9}})?:",              # grep output
    re.ASCII,
)
_LABEL_FIELDS = {
    "worker": "worker", "role": "worker", "ip": "node", "node": "node",
    "rank": "rank", "rank_mpi": "rank", "named_file": "named_file",
}
_DIGITS = re.compile("[0-9]+")
# Labels that introduce a record and may be left at the end of a line by a terminal's wrap.
_TRAILING_LABEL = re.compile(rf"(?:(?<!\w)(?:{RANK_LABEL})|(?<!\S){GREP_PREFIX}) ?$", re.ASCII)
_LABEL_REACH = 540  # longer than any label
# Launchers stack prefixes (pdsh host, then torchrun rank); more than this is not a prefix.
_MAX_LABELS = 4
_FENCE_ONLY = re.compile(r"[ \t]*(?:```|~~~)[\w+-]*[ \t]*$")


def read_labels(text: str, pos: int = 0) -> tuple[Labels, int]:
    """Labels of the prefixes at ``text[pos:]`` and where the text after them starts."""
    found: dict[str, str] = {}
    for _ in range(_MAX_LABELS):
        match = _LABEL.match(text, pos)
        if match is None:
            break
        for group, value in match.groupdict().items():
            if value is not None:
                found.setdefault(_LABEL_FIELDS[group], value)
        pos = match.end()
    if not found:
        return NO_LABELS, pos
    rank = found.get("rank")
    labels = Labels(
        rank=int(_DIGITS.findall(rank)[-1]) if rank else None,
        node=found.get("node"),
        worker=found.get("worker"),
        named_file=found.get("named_file"),
    )
    return labels, pos


def ends_with_label(text: str) -> bool:
    """Whether ``text`` ends in a label ("rank1: ", a grep "path:") that a wrap cut from its record."""
    if not text.endswith((":", ": ")):
        return False
    return _TRAILING_LABEL.search(text, max(0, len(text) - _LABEL_REACH)) is not None


def needs_cleaning(text: str, printable: bool = False) -> bool:
    """Whether clean-up would change ``text``, or leave nothing of it. ``printable``: the caller has
    seen that ``text.isprintable()``, and the first step (control characters) is not looked at again."""
    for step in _PRINTABLE_REWRITES if printable else _REWRITES:
        if step.applies(text) and step.rewrite(text) != text:
            return True
    return _FENCE_ONLY.match(text) is not None


def clean_text(text: str) -> str:
    for step in _REWRITES:
        if step.applies(text):
            text = step.rewrite(text)
    return text


def clean_line(line: PhysicalLine) -> CleanLine | None:
    """The cleaned line, or None when nothing is left of it (blank, a Markdown fence)."""
    if _FENCE_ONLY.match(line.text):
        return None
    # Trailing whitespace is kept: where a terminal wrapped a line, it is part of the message.
    text = clean_text(line.text)
    lead = len(text) - len(text.lstrip())
    labels, after = read_labels(text, lead)
    body_start = len(text) - len(text[after:].lstrip())
    if body_start == len(text):
        return None
    return CleanLine(
        number=line.number,
        text=text,
        lead=lead,
        body_start=body_start,
        indent=lead + body_start - after,
        labels=labels,
        cut=line.cut,
    )
