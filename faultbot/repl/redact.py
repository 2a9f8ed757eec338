"""Masking what identifies a site in an exported report, so it can go into a ticket: secrets, users,
hosts, addresses, paths, device serials... (the kinds are in ``redaction_patterns.KINDS``). Each
value gets a numbered placeholder (``<ip-1>``) that is the same wherever the value occurs, so the
report still shows which are the same; what the KB's commands, versions, timestamps, error codes
and documentation links say stays as it was.

Three steps. First, the kinds that learn collect the names of hosts, users, pods and interfaces
from the places that name them (``host=node-3``, ``/home/alice``, ``[node-3:1234]``, the first
label of an FQDN), along with this machine's own names. Then every kind runs in order over the
text; what one masks or protects is held aside as a run of private-use characters, so later kinds
cannot see it or match inside a placeholder. Last, every bare occurrence of a learned name is
masked, and the held text is put back with placeholders numbered in the order they appear.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterable

from ..literal_trie import any_of
from .redaction_patterns import HELD, HELD_END, KINDS, IdentifierKind, is_generic, value

# A held run is _START, its index in base 256, and HELD_END after a masked value or _OTHER_END
# after anything else, so that only a masked address or host is followed as one (10.0.0.1%eth0).
_START, _DIGIT0, _OTHER_END = "\ue000", 0xE100, "\ue002"
_RUN = re.compile(_START + "([\ue100-\ue1ff]+)[" + HELD_END + _OTHER_END + "]")
_HELD_CHARS = re.compile("[" + HELD + "]+")
_SHORTEST_NAME = 3  # shorter learned names (a1, n2) would mask too much prose


def _local_names() -> set[str]:
    names = {socket.gethostname()}
    try:
        names.add(socket.getfqdn())
    except OSError:
        pass
    return {name for name in names if name}


_PROTECTED, _VERBATIM = None, ""  # the labels of held text that is not a masked value


class _Held:
    """Text taken out of the way: masked values with their label, protected text (which may hold
    runs itself, masked before it was protected) and the input's own private-use characters."""

    def __init__(self) -> None:
        self.runs: list[tuple[str, str | None]] = []
        self.held: dict[tuple[str, str | None], str] = {}  # the same text is held once
        self.labels: dict[str, str] = {}  # the first label a value was masked under, kept for good

    def _hold(self, text: str, label: str | None) -> str:
        if (text, label) not in self.held:
            index, digits = len(self.runs), ""
            self.runs.append((text, label))
            while True:
                index, digit = divmod(index, 256)
                digits = chr(_DIGIT0 + digit) + digits
                if not index:
                    break
            end = HELD_END if label else _OTHER_END
            self.held[text, label] = _START + digits + end
        return self.held[text, label]

    def mask(self, secret: str, label: str) -> str:
        return self._hold(secret, self.labels.setdefault(secret, label))

    def protect(self, text: str) -> str:
        return self._hold(text, _PROTECTED)

    def verbatim(self, text: str) -> str:
        return self._hold(text, _VERBATIM)

    def release(self, text: str) -> str:
        """``text`` with every held run back: values as placeholders numbered by first appearance."""
        numbers: dict[str, str] = {}
        counts: dict[str, int] = {}

        def back(match: re.Match[str]) -> str:
            index = 0
            for char in match.group(1):
                index = index * 256 + ord(char) - _DIGIT0
            original, label = self.runs[index]
            if label is _PROTECTED:
                return _RUN.sub(back, original)
            if label == _VERBATIM:
                return original
            if original not in numbers:
                counts[label] = counts.get(label, 0) + 1
                numbers[original] = f"<{label}-{counts[label]}>"
            return numbers[original]

        return _RUN.sub(back, text)


def _learn(text: str, lowered: str, hosts: set[str]) -> dict[str, str]:
    """Names to mask wherever they occur, with their labels: the hosts given and their first
    labels, and what the learning kinds find."""
    learned = {name: "host" for host in hosts for name in (host, host.split(".")[0])}
    for kind in KINDS:
        if kind.learns and kind.label and kind.may_match(lowered):
            seen: set[tuple] = set()
            for match in kind.pattern.finditer(text):
                key = (match.group(), match.groups())
                if key not in seen:  # a name repeated on every line is judged once
                    seen.add(key)
                    if kind.keep is None or not kind.keep(match):
                        learned.setdefault(value(match), kind.label)
    return {name: label for name, label in learned.items()
            if len(name) >= _SHORTEST_NAME and not is_generic(name)}


def _apply(kind: IdentifierKind, held: _Held, match: re.Match[str]) -> str:
    if kind.keep is not None and kind.keep(match):
        return match.group()
    if kind.label is None:
        return held.protect(match.group())
    if "v" not in match.re.groupindex:
        return held.mask(match.group(), kind.label)
    start, end = match.span("v")
    before, after = match.string[match.start():start], match.string[end:match.end()]
    return before + held.mask(match.group("v"), kind.label) + after


def _run(kind: IdentifierKind, held: _Held, text: str) -> str:
    """``text`` with ``kind`` applied: what a match becomes depends only on its groups (``keep``
    reads nothing around it), so each distinct match is worked out once."""
    done: dict[tuple, str] = {}

    def replace(match: re.Match[str]) -> str:
        key = (match.group(), match.groups())
        if key not in done:
            done[key] = _apply(kind, held, match)
        return done[key]

    return kind.pattern.sub(replace, text)


def _mask_learned(text: str, learned: dict[str, str], held: _Held) -> str:
    if not learned:
        return text
    names = re.compile(r"(?<![A-Za-z0-9-])" + any_of(list(learned)) + r"(?![A-Za-z0-9-])")
    return names.sub(lambda m: held.mask(m.group(), learned[m.group()]), text)


def _keep_verbatim(text: str, phrases: Iterable[str], held: _Held) -> str:
    wanted = sorted({phrase for phrase in phrases if phrase and phrase in text}, key=len, reverse=True)
    if not wanted:
        return text
    return re.compile("|".join(map(re.escape, wanted))).sub(lambda m: held.verbatim(m.group()), text)


def redact(text: str, hosts: set[str] | None = None, keep: Iterable[str] = ()) -> str:
    """``text`` with what identifies the site masked; ``hosts`` names this machine (default: its
    own names). The phrases in ``keep`` (the KB's commands a report quotes, whose ``eth0`` is the
    documentation's example, not the site's interface) stay as they are wherever they occur whole."""
    held = _Held()
    text = _HELD_CHARS.sub(lambda m: held.verbatim(m.group()), text)  # the input's own private-use chars
    text = _keep_verbatim(text, keep, held)
    lowered = text.lower()  # what the kinds' hints are looked for in; masking only removes text
    learned = _learn(text, lowered, _local_names() if hosts is None else set(hosts))
    for kind in KINDS:
        if kind.may_match(lowered):
            text = _run(kind, held, text)
    return held.release(_mask_learned(text, learned, held))
