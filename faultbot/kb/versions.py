"""Versions of CANN, the Ascend HDK (driver/firmware) and torch_npu, and ranges over them.

Knowledge-base entries say which releases a fault affects. A misread version would silently
make an entry match the wrong jobs, so anything not understood is rejected with VersionError.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from enum import Enum
from typing import NoReturn, Union

import msgspec

from ..equality import equal_apart_from


class VersionError(ValueError):
    """A version or range that cannot be parsed, or a range that no version can satisfy."""


class Scheme(Enum):
    CANN = "CANN"
    HDK = "HDK"                # NPU driver and firmware
    TORCH_NPU = "torch_npu"


_EXAMPLES = {
    Scheme.CANN: "8.0.RC2, 8.0.0, 8.0.RC3.alpha003",
    Scheme.HDK: "24.1.RC2, 24.1.0, 24.1.0.3",
    Scheme.TORCH_NPU: "2.1.0, 2.1.0.post11, 2.1.0rc1",
}

KeyPart = Union[int, "tuple[KeyPart, ...]"]
SortKey = tuple[KeyPart, ...]


@equal_apart_from("text")
class Version(msgspec.Struct, frozen=True):
    """A parsed version: ordered and compared by ``key``, shown as the canonical ``text``.

    Not ``order=True``: schemes have no order between them, and comparing a CANN version
    with a driver version is a bug in the caller that must not pass as False.
    """

    scheme: Scheme
    key: SortKey
    text: str

    def __str__(self) -> str:
        return self.text

    def __lt__(self, other: object) -> bool:
        return self._key_beside(other) < other.key if isinstance(other, Version) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self._key_beside(other) <= other.key if isinstance(other, Version) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self._key_beside(other) > other.key if isinstance(other, Version) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self._key_beside(other) >= other.key if isinstance(other, Version) else NotImplemented

    def _key_beside(self, other: Version) -> SortKey:
        """This version's key, to order against ``other``'s: only versions of one scheme have an order."""
        if other.scheme is not self.scheme:
            raise TypeError(
                f"cannot order {self.scheme.value} version {self} against "
                f"{other.scheme.value} version {other}"
            )
        return self.key


def parse_version(text: str, scheme: Scheme) -> Version:
    """Parse one version of the scheme; VersionError if it is not exactly understood."""
    if not isinstance(text, str):
        # YAML reads an unquoted 8.0 as a float (and 8.10 as 8.1), so say how to fix it.
        raise VersionError(
            f"not a {scheme.value} version: {text!r} is a {type(text).__name__}, not text "
            f"(quote it in YAML; expected e.g. {_EXAMPLES[scheme]})"
        )
    version = _PARSERS[scheme](text.strip())
    if version is None:
        raise VersionError(
            f"not a {scheme.value} version: {text!r} (expected e.g. {_EXAMPLES[scheme]})"
        )
    return version


# --- CANN -------------------------------------------------------------------------------------
# major.minor.RCn or major.minor.patch, optionally followed by a build: alphaNNN and betaN are
# community pre-releases of that version, SPCNNN and plain numbers are hot patches of it.

_CANN_PREFIX = r"(?:cann[\s_-]*)?v?"
_CANN_TAG = r"(?P<tag>alpha|beta|spc)(?P<build>\d+)"
_CANN_DOTTED = re.compile(
    rf"{_CANN_PREFIX}(?P<major>\d+)\.(?P<minor>\d+)\.(?:rc(?P<rc>\d+)|(?P<patch>\d+))"
    rf"(?:\.(?:{_CANN_TAG}|(?P<hotfix>\d+)))?",
    re.I | re.A,  # ASCII: int() would read other scripts' digits too
)
# The compact spelling of documentation URLs (83RC1, 850alpha002, 800): one digit each for
# major, minor and patch, so it cannot be confused with a dotted version.
_CANN_COMPACT = re.compile(
    rf"{_CANN_PREFIX}(?P<major>\d)(?P<minor>\d)(?:rc(?P<rc>\d+)|(?P<patch>\d))(?:{_CANN_TAG})?",
    re.I | re.A,
)
# Rank of a build relative to the release it belongs to. Nothing says how a plain-number patch
# and an SPC of the same release relate; numbers first is an arbitrary but fixed tie-break.
_CANN_BUILD_RANK = {"alpha": 0, "beta": 1, None: 2, "hotfix": 3, "spc": 4}
_CANN_BUILD_TEXT = {"alpha": ".alpha{:03d}", "beta": ".beta{}", "hotfix": ".{}",
                    "spc": ".SPC{:03d}"}


def _parse_cann(text: str) -> Version | None:
    m = _CANN_DOTTED.fullmatch(text) or _CANN_COMPACT.fullmatch(text)
    if m is None:
        return None
    key, core = _release(m)
    build_kind: str | None
    if m.groupdict().get("hotfix") is not None:  # the compact spelling has no such group
        build_kind, build = "hotfix", int(m["hotfix"])
    elif m["tag"] is not None:
        build_kind, build = m["tag"].lower(), int(m["build"])
    else:
        build_kind, build = None, 0
    suffix = _CANN_BUILD_TEXT[build_kind].format(build) if build_kind else ""
    return Version(Scheme.CANN, (*key, _CANN_BUILD_RANK[build_kind], build), core + suffix)


def _release(m: re.Match[str]) -> tuple[tuple[int, int, int, int], str]:
    """Sort key and canonical text of major.minor.RCn / major.minor.patch; an RC sorts first."""
    major, minor = int(m["major"]), int(m["minor"])
    if m["rc"] is not None:
        return (major, minor, 0, int(m["rc"])), f"{major}.{minor}.RC{int(m['rc'])}"
    return (major, minor, 1, int(m["patch"])), f"{major}.{minor}.{int(m['patch'])}"


# --- HDK --------------------------------------------------------------------------------------
# major.minor.RCn or major.minor.patch, then any number of numeric build segments
# (24.1.0.3, 25.0.RC1.1, firmware 7.1.0.5.220). An RC precedes the numbered releases of its minor.

_HDK = re.compile(
    r"(?:hdk[\s_-]*)?v?(?P<major>\d+)\.(?P<minor>\d+)\.(?:rc(?P<rc>\d+)|(?P<patch>\d+))"
    r"(?P<tail>(?:\.\d+)*)",
    re.I | re.A,
)


def _parse_hdk(text: str) -> Version | None:
    m = _HDK.fullmatch(text)
    if m is None:
        return None
    key, core = _release(m)
    tail = tuple(int(part) for part in m["tail"].split(".")[1:])
    return Version(Scheme.HDK, (*key, *tail), core + "".join(f".{part}" for part in tail))


# --- torch_npu --------------------------------------------------------------------------------
# The PEP 440 subset torch_npu and its neighbours publish: release, aN/bN/rcN, .postN, .devN and
# a +local label, with PEP 440's ordering and normalised spelling (no epochs, no implicit numbers).

_PEP440 = re.compile(
    r"v?(?P<release>\d+(?:\.\d+)*)"
    r"(?:[-_.]?(?P<pre>a|b|rc|alpha|beta)(?P<pre_n>\d+))?"
    r"(?:[-_.]?post(?P<post>\d+))?"
    r"(?:[-_.]?dev(?P<dev>\d+))?"
    r"(?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?",
    re.I | re.A,
)
_PRE_RANK = {"a": 0, "b": 1, "rc": 2}
_PRE_SPELLING = {"alpha": "a", "beta": "b"}


def _parse_torch_npu(text: str) -> Version | None:
    m = _PEP440.fullmatch(text)
    if m is None:
        return None
    release = tuple(int(part) for part in m["release"].split("."))
    pre = (_PRE_SPELLING.get(m["pre"].lower(), m["pre"].lower()), int(m["pre_n"])) if m["pre"] \
        else None
    post = int(m["post"]) if m["post"] else None
    dev = int(m["dev"]) if m["dev"] else None
    local = tuple(re.split(r"[-_.]", m["local"].lower())) if m["local"] else ()

    canonical = ".".join(map(str, release))
    canonical += f"{pre[0]}{pre[1]}" if pre else ""
    canonical += f".post{post}" if post is not None else ""
    canonical += f".dev{dev}" if dev is not None else ""
    canonical += "+" + ".".join(local) if local else ""
    return Version(Scheme.TORCH_NPU, _pep440_key(release, pre, post, dev, local), canonical)


def _pep440_key(release: tuple[int, ...], pre: tuple[str, int] | None, post: int | None,
                dev: int | None, local: tuple[str, ...]) -> SortKey:
    # Trailing zeros do not count: 2.1 == 2.1.0.
    significant = release
    while len(significant) > 1 and significant[-1] == 0:
        significant = significant[:-1]
    if pre is not None:
        pre_key: KeyPart = (1, _PRE_RANK[pre[0]], pre[1])
    elif dev is not None and post is None:
        pre_key = (0,)         # 2.1.0.dev1 precedes every pre-release of 2.1.0
    else:
        pre_key = (2,)
    post_key = (0,) if post is None else (1, post)
    dev_key = (1,) if dev is None else (0, dev)
    # In local labels, numeric segments sort after alphanumeric ones, which sort as strings.
    local_key = tuple(
        (1, int(part)) if part.isdigit() else (0, tuple(map(ord, part))) for part in local
    )
    return (significant, pre_key, post_key, dev_key, local_key)


_PARSERS: dict[Scheme, Callable[[str], Version | None]] = {
    Scheme.CANN: _parse_cann,
    Scheme.HDK: _parse_hdk,
    Scheme.TORCH_NPU: _parse_torch_npu,
}


# --- ranges -----------------------------------------------------------------------------------

_OPERATORS: dict[str, Callable[[Version, Version], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "==": operator.eq, "!=": operator.ne,
}
_OPERATOR_CHARS = "<>=!~^"  # wider than _OPERATORS, so that ~= or => is named in the error


class Clause(msgspec.Struct, frozen=True):
    """One comparison of a range, such as ``>=8.0.RC2``."""

    op: str                # one of _OPERATORS
    version: Version

    def matches(self, version: Version) -> bool:
        return _OPERATORS[self.op](_comparable(version, self.version), self.version)

    def __str__(self) -> str:
        return f"{self.op}{self.version}"


def _comparable(candidate: Version, bound: Version) -> Version:
    """As PEP 440 specifiers do, ignore a local label when the bound has none: ``==2.1.0``
    matches ``2.1.0+cpu``, which is a build of 2.1.0, not a later release."""
    if candidate.scheme is not Scheme.TORCH_NPU or "+" in bound.text or "+" not in candidate.text:
        return candidate
    return Version(candidate.scheme, (*candidate.key[:-1], ()), candidate.text.partition("+")[0])


class VersionRange(msgspec.Struct, frozen=True):
    """Comma-separated clauses that must all hold; no clauses (spelt ``*``) means any version."""

    scheme: Scheme
    text: str              # canonical spelling, e.g. ">=8.0.RC2,<8.2.RC1"
    clauses: tuple[Clause, ...]

    def contains(self, version: Version) -> bool:
        if version.scheme is not self.scheme:
            raise TypeError(
                f"cannot test {version.scheme.value} version {version} against "
                f"{self.scheme.value} range {self}"
            )
        return all(clause.matches(version) for clause in self.clauses)

    def __str__(self) -> str:
        return self.text


def parse_range(text: str, scheme: Scheme) -> VersionRange:
    """Parse ``*`` or comma-separated ``<op><version>`` clauses, rejecting ranges that are empty."""
    if not isinstance(text, str):
        raise VersionError(
            f"not a {scheme.value} version range: {text!r} is a {type(text).__name__}, not text "
            f"(quote it in YAML, e.g. '>=8.0.RC2,<8.2.RC1')"
        )
    if text.strip() == "*":
        return VersionRange(scheme, "*", ())
    clauses = tuple(_parse_clause(part.strip(), text, scheme) for part in text.split(","))
    _check_satisfiable(clauses, text)
    return VersionRange(scheme, ",".join(map(str, clauses)), clauses)


def _parse_clause(clause: str, text: str, scheme: Scheme) -> Clause:
    example = _EXAMPLES[scheme].split(",")[0]
    if not clause:
        raise VersionError(f"empty clause in version range {text!r} (expected e.g. >={example}"
                           f" or * for any version)")
    rest = clause.lstrip(_OPERATOR_CHARS)
    op = clause[: len(clause) - len(rest)]
    if not op:
        raise VersionError(
            f"clause {clause!r} in version range {text!r} has no operator (expected one of "
            f"<, <=, >, >=, ==, != as in =={example}; * stands alone for any version)"
        )
    if op not in _OPERATORS:
        raise VersionError(
            f"unknown operator {op!r} in version range {text!r} "
            f"(expected one of <, <=, >, >=, ==, !=)"
        )
    try:
        version = parse_version(rest, scheme)
    except VersionError as err:
        raise VersionError(f"in version range {text!r}: {err}") from None
    return Clause(op, version)


def _check_satisfiable(clauses: tuple[Clause, ...], text: str) -> None:
    # Judged as if versions were dense: >8.0.RC2,<8.0.RC3 is accepted, since builds such as
    # 8.0.RC2.SPC001 and 8.0.RC3.alpha001 lie between.
    lowers = [c for c in clauses if c.op in (">", ">=", "==")]
    uppers = [c for c in clauses if c.op in ("<", "<=", "==")]
    for low in lowers:
        for high in uppers:
            if low.version > high.version or (
                low.version == high.version and (low.op == ">" or high.op == "<")
            ):
                _never(text, low, high)
            if low.version == high.version:
                for excluded in (c for c in clauses if c.op == "!=" and c.version == low.version):
                    _never(text, low, high, excluded)


def _never(text: str, *conflicting: Clause) -> NoReturn:
    wanted = " and ".join(dict.fromkeys(map(str, conflicting)))
    raise VersionError(f"version range {text!r} can never match: no version is {wanted}")
