r"""Lint for knowledge-base regexes: reject patterns that can backtrack catastrophically.

KB regexes are run with re.search over whole log trees, so a pattern whose matching time can
grow exponentially (or polynomially) with the length of a line must not ship. Refused: nested
quantifiers and overlapping alternatives under a repeat (exponential); repeats in a row that can
trade characters, directly or across text both can match (.*x.*y, and bounded ones such as
.{0,1000}x.{0,1000}y), when unbounded or able to share a line out more than MAX_REPEAT_BOUND ways
(polynomial); a leading repeat a search can start inside of (\w+MARK: quadratic, since re.search
retries every position of a run), or a bounded one longer than MAX_LEADING_REPEAT_LENGTH the pattern
starts with ([a-z]{1,1000}MARK: its length paid at every position), or starts with text the repeat
also matches (x[a-z]{1,1000}MARK: in a run of x's every x is a start); backreferences; and oversized
patterns.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from enum import Enum
from functools import cache
from itertools import chain, combinations
from math import prod
from typing import Any

import msgspec
from msgspec.structs import replace

# re's own parser: a private module since 3.11, where the old public name warns that it is deprecated.
if sys.version_info >= (3, 11):
    import re._parser as _sre_parse
    from re._constants import MAXREPEAT
else:
    import sre_parse as _sre_parse
    from sre_constants import MAXREPEAT

MAX_PATTERN_LENGTH = 2000
MAX_REPEAT_BOUND = 1000
# A repeat a pattern starts with is tried at every position of a line, so its length is paid per
# character: 64 keeps a 150 KB line of its characters at about 20 ms.
MAX_LEADING_REPEAT_LENGTH = 64


def check_regex(pattern: str) -> list[str]:
    """Human-readable problems with a KB regex; an empty list means it is safe to ship."""
    return list(_problems(pattern))


@cache
def _problems(pattern: str) -> tuple[str, ...]:
    """check_regex's answer, once per pattern: a large KB repeats its regexes across entries."""
    problems: list[str] = []
    if len(pattern) > MAX_PATTERN_LENGTH:
        problems.append(
            f"pattern is {len(pattern)} characters long, over the limit of {MAX_PATTERN_LENGTH}"
        )
    try:
        re.compile(pattern)
        parsed = _sre_parse.parse(pattern)
        names = {number: name for name, number in parsed.state.groupdict.items()}
        tree = _sequence(parsed, parsed.state.flags, names)
        for check in (_bound_problems, _reference_problems, _nested_problems,
                      _alternation_problems, _adjacency_problems, _leading_problems):
            problems.extend(check(tree, pattern))
    except re.error as err:
        where = f" at position {err.pos}" if err.pos is not None else ""
        return (*problems, f"does not compile: {err.msg}{where}")
    except OverflowError as err:  # re's way of rejecting a{99999999999}
        return (*problems, f"does not compile: {err}")
    except RecursionError:  # both re and this check recurse once per level of nesting
        return (*problems, "groups are nested too deeply to compile or check")
    return tuple(problems)


# --- character sets ---------------------------------------------------------------------------

_LIMIT = sys.maxunicode + 1


class _Chars(msgspec.Struct, frozen=True):
    """A set of code points as sorted, disjoint, non-touching half-open spans."""

    spans: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, spans: Iterable[tuple[int, int]]) -> _Chars:
        merged: list[tuple[int, int]] = []
        for start, end in sorted(spans):
            if start >= end:
                continue
            if merged and start <= merged[-1][1]:
                merged[-1] = (merged[-1][0], max(merged[-1][1], end))
            else:
                merged.append((start, end))
        return cls(tuple(merged))

    def overlaps(self, other: _Chars) -> bool:
        i = j = 0
        while i < len(self.spans) and j < len(other.spans):
            if self.spans[i][1] <= other.spans[j][0]:
                i += 1
            elif other.spans[j][1] <= self.spans[i][0]:
                j += 1
            else:
                return True
        return False

    def within(self, other: _Chars) -> bool:
        return not self.overlaps(other.complement())

    def complement(self) -> _Chars:
        starts = (0, *(end for _, end in self.spans))
        ends = (*(start for start, _ in self.spans), _LIMIT)
        return _Chars.of(zip(starts, ends))


_EMPTY = _Chars()
_ALL = _Chars(((0, _LIMIT),))
_NOT_NEWLINE = _Chars.of([(ord("\n"), ord("\n") + 1)]).complement()
# Case variants are looked up one code point at a time; a range wider than this is left as
# written, which only matters for classes that already span most of Unicode.
_FOLD_LIMIT = 0x10000


def _union(sets: Iterable[_Chars]) -> _Chars:
    return _Chars.of(chain.from_iterable(s.spans for s in sets))


@cache
def _every_character() -> str:
    return "".join(map(chr, range(_LIMIT)))


@cache
def _category(escape: str, ascii_only: bool) -> _Chars:
    # Ask re itself which code points \d, \s or \w cover, so the sets follow its Unicode tables.
    flags = re.ASCII if ascii_only else 0
    positive = escape.lower()
    chars = _Chars(tuple(m.span() for m in re.finditer(positive + "+", _every_character(), flags)))
    return chars if escape == positive else chars.complement()


def _case_closed(chars: _Chars, flags: int) -> _Chars:
    if not flags & re.IGNORECASE or sum(end - start for start, end in chars.spans) > _FOLD_LIMIT:
        return chars
    variants = [
        (ord(variant), ord(variant) + 1)
        for start, end in chars.spans
        for code in range(start, end)
        for variant in (chr(code).lower(), chr(code).upper())
        if len(variant) == 1
    ]
    return _Chars.of(chain(chars.spans, variants))


# --- the parse tree, with what each node can match --------------------------------------------

class _Kind(Enum):
    CHAR = "one character"
    SEQUENCE = "sequence"
    BRANCH = "alternation"
    GROUP = "group"
    ATOMIC = "atomic group"
    REPEAT = "repeat"
    LOOK = "lookaround"
    ANCHOR = "anchor"
    BACKREF = "backreference"
    CONDITIONAL = "conditional group"


class _Node(msgspec.Struct, frozen=True, eq=False):  # identity: the same text at two places is two nodes
    kind: _Kind
    text: str                      # the node written back as regex source, for messages
    children: tuple[_Node, ...]
    min_len: int
    max_len: int | None            # None when unbounded
    first: _Chars                  # characters a non-empty match can start with
    chars: _Chars                  # characters a match can consume anywhere
    never_fails: bool              # matches the empty string wherever it is tried
    lo: int = 1                    # repeat bounds
    hi: int = 1
    backtracks: bool = True        # False for possessive repeats, which give nothing back
    word: _Chars = _EMPTY          # for \b: the characters it counts as word characters


def _char(chars: _Chars, text: str) -> _Node:
    return _Node(_Kind.CHAR, text, (), 1, 1, chars, chars, False)


def _zero_width(kind: _Kind, text: str, children: tuple[_Node, ...] = ()) -> _Node:
    return _Node(kind, text, children, 0, 0, _EMPTY, _EMPTY, False)


def _wrap(kind: _Kind, inner: _Node, text: str) -> _Node:
    return _Node(kind, text, (inner,), inner.min_len, inner.max_len, inner.first, inner.chars,
                 inner.never_fails)


def _alternatives(kind: _Kind, options: tuple[_Node, ...], text: str) -> _Node:
    lengths = [option.max_len for option in options]
    return _Node(
        kind, text, options,
        min(option.min_len for option in options),
        None if None in lengths else max(length for length in lengths if length is not None),
        _union(option.first for option in options),
        _union(option.chars for option in options),
        any(option.never_fails for option in options),
    )


def _sequence(parsed: Any, flags: int, names: dict[int, str]) -> _Node:
    items = tuple(_item(op.name, av, flags, names) for op, av in parsed)
    text = "".join(
        f"(?:{item.text})" if item.kind is _Kind.BRANCH and len(items) > 1 else item.text
        for item in items
    )
    first = []
    for item in items:
        first.append(item.first)
        if item.min_len > 0:
            break
    lengths = [item.max_len for item in items]
    return _Node(
        _Kind.SEQUENCE, text, items,
        sum(item.min_len for item in items),
        None if None in lengths else sum(length for length in lengths if length is not None),
        _union(first),
        _union(item.chars for item in items),
        all(item.never_fails for item in items),
    )


def _item(name: str, av: Any, flags: int, names: dict[int, str]) -> _Node:
    match name:
        case "LITERAL":
            return _char(_case_closed(_Chars.of([(av, av + 1)]), flags), _literal_text(av))
        case "NOT_LITERAL":
            chars = _case_closed(_Chars.of([(av, av + 1)]), flags).complement()
            return _char(chars, f"[^{_literal_text(av, _ESCAPED_IN_CLASS)}]")
        case "ANY":
            return _char(_ALL if flags & re.DOTALL else _NOT_NEWLINE, ".")
        case "IN":
            return _char(_class_chars(av, flags), _class_text(av))
        case "BRANCH":
            options = tuple(_sequence(option, flags, names) for option in av[1])
            return _alternatives(_Kind.BRANCH, options, "|".join(o.text for o in options))
        case "SUBPATTERN":
            group, add, remove, parsed = av
            inner = _sequence(parsed, (flags | add) & ~remove, names)
            opening = _group_open(group, add, remove, names)
            return _wrap(_Kind.GROUP, inner, f"{opening}{inner.text})")
        case "ATOMIC_GROUP":
            inner = _sequence(av, flags, names)
            return _wrap(_Kind.ATOMIC, inner, f"(?>{inner.text})")
        case "MAX_REPEAT" | "MIN_REPEAT" | "POSSESSIVE_REPEAT":
            lo, hi, parsed = av
            return _repeat(_sequence(parsed, flags, names), lo, hi, name)
        case "AT":
            anchor = _zero_width(_Kind.ANCHOR, _ANCHOR_TEXT[av.name])
            return replace(anchor, word=_category(r"\w", bool(flags & re.ASCII)))
        case "ASSERT" | "ASSERT_NOT":
            direction, parsed = av
            inner = _sequence(parsed, flags, names)
            return _zero_width(_Kind.LOOK, f"{_LOOK_OPEN[name, direction]}{inner.text})", (inner,))
        case "GROUPREF":
            text = f"(?P={names[av]})" if av in names else f"\\{av}"
            return _Node(_Kind.BACKREF, text, (), 0, None, _ALL, _ALL, False)
        case "GROUPREF_EXISTS":
            group, yes, no = av
            options = tuple(_sequence(option, flags, names) for option in (yes, no or []))
            otherwise = f"|{options[1].text}" if no is not None else ""
            text = f"(?({names.get(group, group)}){options[0].text}{otherwise})"
            return _alternatives(_Kind.CONDITIONAL, options, text)
    raise ValueError(f"unexpected node {name} in a parsed regex")


def _repeat(body: _Node, lo: int, hi: int, name: str) -> _Node:
    if hi == 0 or body.max_len == 0:
        max_len: int | None = 0
    elif hi == MAXREPEAT or body.max_len is None:
        max_len = None
    else:
        max_len = hi * body.max_len
    bare = len(body.children) == 1 and body.children[0].kind in (
        _Kind.CHAR, _Kind.GROUP, _Kind.ATOMIC, _Kind.BACKREF, _Kind.CONDITIONAL)
    operand = body.text if bare else f"(?:{body.text})"
    if hi == MAXREPEAT:
        quantifier = {0: "*", 1: "+"}.get(lo, f"{{{lo},}}")
    elif lo == hi:
        quantifier = f"{{{lo}}}"
    else:
        quantifier = "?" if (lo, hi) == (0, 1) else f"{{{lo},{hi}}}"
    quantifier += {"MIN_REPEAT": "?", "POSSESSIVE_REPEAT": "+"}.get(name, "")
    return _Node(
        _Kind.REPEAT, operand + quantifier, (body,), lo * body.min_len, max_len,
        body.first if max_len != 0 else _EMPTY, body.chars, lo == 0 or body.never_fails,
        lo, hi, name != "POSSESSIVE_REPEAT",
    )


# --- writing nodes back as source -------------------------------------------------------------

_ESCAPED = frozenset(".^$*+?{}[]\\|()")
_ESCAPED_IN_CLASS = frozenset("[]\\^-")
_CONTROL_ESCAPES = {"\n": r"\n", "\t": r"\t", "\r": r"\r", "\f": r"\f", "\v": r"\v"}
_CATEGORY_TEXT = {
    "CATEGORY_DIGIT": r"\d", "CATEGORY_NOT_DIGIT": r"\D", "CATEGORY_SPACE": r"\s",
    "CATEGORY_NOT_SPACE": r"\S", "CATEGORY_WORD": r"\w", "CATEGORY_NOT_WORD": r"\W",
}
_ANCHOR_TEXT = {
    "AT_BEGINNING": "^", "AT_BEGINNING_STRING": r"\A", "AT_END": "$", "AT_END_STRING": r"\Z",
    "AT_BOUNDARY": r"\b", "AT_NON_BOUNDARY": r"\B",
}
_LOOK_OPEN = {("ASSERT", 1): "(?=", ("ASSERT", -1): "(?<=",
              ("ASSERT_NOT", 1): "(?!", ("ASSERT_NOT", -1): "(?<!"}
_FLAG_LETTERS = ((re.ASCII, "a"), (re.IGNORECASE, "i"), (re.LOCALE, "L"), (re.MULTILINE, "m"),
                 (re.DOTALL, "s"), (re.UNICODE, "u"), (re.VERBOSE, "x"))


def _literal_text(code: int, escaped: frozenset[str] = _ESCAPED) -> str:
    char = chr(code)
    if char in _CONTROL_ESCAPES:
        return _CONTROL_ESCAPES[char]
    if char in escaped:
        return "\\" + char
    if not char.isprintable():
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
            else f"\\U{code:08x}"
    return char


def _class_text(items: Any) -> str:
    if len(items) == 1 and items[0][0].name == "CATEGORY":
        return _CATEGORY_TEXT[items[0][1].name]
    negated = items[0][0].name == "NEGATE"
    parts = []
    for op, av in items[1:] if negated else items:
        if op.name == "LITERAL":
            parts.append(_literal_text(av, _ESCAPED_IN_CLASS))
        elif op.name == "RANGE":
            low, high = (_literal_text(code, _ESCAPED_IN_CLASS) for code in av)
            parts.append(f"{low}-{high}")
        else:
            parts.append(_CATEGORY_TEXT[av.name])
    if parts and parts[-1] == r"\-":  # a trailing - is literal, and usually written bare
        parts[-1] = "-"
    return f"[{'^' if negated else ''}{''.join(parts)}]"


def _class_chars(items: Any, flags: int) -> _Chars:
    listed, categories = [], []
    for op, av in items:
        if op.name == "LITERAL":
            listed.append((av, av + 1))
        elif op.name == "RANGE":
            listed.append((av[0], av[1] + 1))
        elif op.name == "CATEGORY":
            categories.append(_category(_CATEGORY_TEXT[av.name], bool(flags & re.ASCII)))
    chars = _union([_case_closed(_Chars.of(listed), flags), *categories])
    return chars.complement() if items[0][0].name == "NEGATE" else chars


def _group_open(group: int | None, add: int, remove: int, names: dict[int, str]) -> str:
    if group is not None:
        return f"(?P<{names[group]}>" if group in names else "("
    added = "".join(letter for flag, letter in _FLAG_LETTERS if add & flag)
    removed = "".join(letter for flag, letter in _FLAG_LETTERS if remove & flag)
    return f"(?{added}{'-' + removed if removed else ''}:"


def _located(text: str, pattern: str) -> str:
    # The tree keeps no positions; a fragment written back exactly as in the pattern can be
    # found there, otherwise the fragment itself, as Python parsed it, has to do.
    position = pattern.find(text) if text else -1
    if position >= 0:
        return f"at position {position} (`{text}`)"
    return f"in `{text}` (written back from Python's parse)"


def _shown(text: str) -> str:
    return f"`{text}`" if text else "(empty)"


# --- the checks -------------------------------------------------------------------------------

def _walk(node: _Node) -> Iterator[_Node]:
    yield node
    for child in node.children:
        yield from _walk(child)


def _flatten(node: _Node) -> tuple[_Node, ...]:
    """The items of a sequence, with groups and nested sequences opened up."""
    if node.kind in (_Kind.SEQUENCE, _Kind.GROUP):
        return tuple(chain.from_iterable(_flatten(child) for child in node.children))
    return (node,)


def _loops(tree: _Node) -> Iterator[_Node]:
    """Repeats whose body can run more than once and be backtracked into."""
    for node in _walk(tree):
        if (node.kind is _Kind.REPEAT and node.backtracks and node.hi > 1
                and node.children[0].max_len != 0):
            yield node


def _bound_problems(tree: _Node, pattern: str) -> Iterator[str]:
    for node in _walk(tree):
        if node.kind is _Kind.REPEAT:
            bound = max(node.lo, 0 if node.hi == MAXREPEAT else node.hi)
            if bound > MAX_REPEAT_BOUND:
                yield (f"repeat bound {bound} {_located(node.text, pattern)} is over the limit "
                       f"of {MAX_REPEAT_BOUND}: counted repeats that large are slow to compile "
                       f"and to match")


def _reference_problems(tree: _Node, pattern: str) -> Iterator[str]:
    for node in _walk(tree):
        if node.kind in (_Kind.BACKREF, _Kind.CONDITIONAL):
            yield (f"{node.kind.value} {_located(node.text, pattern)}: not allowed in KB regexes, "
                   f"since matching one can take exponential time and this check cannot tell")


def _nested_problems(tree: _Node, pattern: str) -> Iterator[str]:
    for loop in _loops(tree):
        found = _unmarked_repeat(_flatten(loop.children[0]))
        if found is None:
            continue
        inner, other = found
        if inner is other:
            yield (f"nested quantifier {_located(loop.text, pattern)}: `{inner.text}` repeats "
                   f"inside it with nothing marking where one repetition ends, so it can "
                   f"backtrack exponentially; make each repetition need a character "
                   f"`{inner.text}` cannot match, or (Python 3.11+) make the inner part atomic")
        else:
            yield (f"nested quantifier {_located(loop.text, pattern)}: `{inner.text}` and "
                   f"`{other.text}` inside it can match the same characters with nothing "
                   f"required between them, so the repetitions can split the text in many ways "
                   f"and it can backtrack exponentially; put a character neither can match "
                   f"between them, or (Python 3.11+) make them atomic")


def _unmarked_repeat(parts: tuple[_Node, ...]) -> tuple[_Node, _Node] | None:
    r"""In the items of a repeated body, a repeat and what it can trade characters with: itself
    in the next repetition, or another repeat it meets with nothing required in between.

    A repeat inside a repeat is exponential when the text it covers could be shared out between
    several repetitions instead. It cannot be when, going round from it to the next repeat, the
    body needs a character it cannot match: the dot in (?:\.\d+)+.
    """
    for i, part in enumerate(parts):
        inner = _backtracking_repeat(part)
        if inner is None:
            continue
        for step in range(1, len(parts) + 1):
            if step == len(parts):
                return inner, inner
            other = parts[(i + step) % len(parts)]
            if _consumes_outside(other, part.chars):
                break
            other_inner = _backtracking_repeat(other)
            if other_inner is not None and other.first.overlaps(part.chars):
                return inner, other_inner
    return None


def _backtracking_repeat(node: _Node) -> _Node | None:
    """The first repeat in node that can match different lengths and give some back."""
    if node.kind in (_Kind.ATOMIC, _Kind.LOOK) or (node.kind is _Kind.REPEAT
                                                   and not node.backtracks):
        return None  # Python never backtracks into these once they have matched
    if node.kind is _Kind.REPEAT and node.min_len != node.max_len:
        return node
    for child in node.children:
        found = _backtracking_repeat(child)
        if found is not None:
            return found
    return None


def _consumes_outside(node: _Node, chars: _Chars) -> bool:
    """Whether every match of node consumes a character that is not in chars."""
    if node.kind is _Kind.CHAR:
        return not node.chars.overlaps(chars)
    if node.kind is _Kind.BRANCH:
        return all(_consumes_outside(option, chars) for option in node.children)
    if node.kind in (_Kind.SEQUENCE, _Kind.GROUP, _Kind.ATOMIC) or (
            node.kind is _Kind.REPEAT and node.lo >= 1):
        return any(_consumes_outside(child, chars) for child in node.children)
    return False


def _alternation_problems(tree: _Node, pattern: str) -> Iterator[str]:
    reported: set[_Node] = set()
    for loop in _loops(tree):
        for branch in _branches(loop.children[0]):
            if branch in reported:
                continue
            for a, b in combinations(branch.children, 2):
                if (a.min_len == 0 and b.min_len == 0) or a.first.overlaps(b.first):
                    reported.add(branch)
                    yield (f"alternatives {_shown(a.text)} and {_shown(b.text)} of the repeat "
                           f"{_located(loop.text, pattern)} can match the same text, so it can "
                           f"backtrack exponentially; make the alternatives start differently")
                    break


def _branches(node: _Node) -> Iterator[_Node]:
    if node.kind in (_Kind.ATOMIC, _Kind.LOOK) or (node.kind is _Kind.REPEAT
                                                   and not node.backtracks):
        return
    if node.kind is _Kind.BRANCH:
        yield node
    for child in node.children:
        yield from _branches(child)


def _adjacency_problems(tree: _Node, pattern: str) -> Iterator[str]:
    return _adjacent_repeats(tree, True, pattern)


def _adjacent_repeats(node: _Node, then_matches: bool, pattern: str) -> Iterator[str]:
    """Unbounded repeats in a row that can trade characters: retrying every split between them
    is polynomial. It only happens when something after them can fail, so then_matches says
    whether everything after node always matches (re.search stops at the first match)."""
    if node.kind in (_Kind.SEQUENCE, _Kind.GROUP):
        parts = _flatten(node)
        settled = [then_matches and all(p.never_fails for p in parts[i + 1:])
                   for i in range(len(parts))]
        yield from _trading_runs(parts, settled, pattern)
        for part, part_settled in zip(parts, settled):
            yield from _adjacent_repeats(part, part_settled, pattern)
    elif node.kind is _Kind.REPEAT:
        yield from _adjacent_repeats(node.children[0], then_matches and node.lo <= 1, pattern)
    elif node.kind in (_Kind.BRANCH, _Kind.CONDITIONAL):
        for option in node.children:
            yield from _adjacent_repeats(option, then_matches, pattern)
    elif node.kind in (_Kind.ATOMIC, _Kind.LOOK):
        yield from _adjacent_repeats(node.children[0], True, pattern)


def _trading_runs(parts: tuple[_Node, ...], settled: list[bool], pattern: str) -> Iterator[str]:
    repeats = [i for i, part in enumerate(parts) if part.kind is _Kind.REPEAT
               and part.backtracks and part.max_len != 0 and part.min_len != part.max_len]
    runs: list[tuple[int, int, set[int], bool]] = []  # first and last part, the repeats that trade,
    for i, j in combinations(repeats, 2):             # whether something is required between them
        if settled[j]:
            continue
        between = parts[i + 1:j]
        # Required text both repeats can match can sit anywhere in a run they share, bounded or
        # not: in a line of x's the x of .{0,1000}x.{0,1000}y is any of them.
        required = any(p.min_len > 0 for p in between)
        if not (_trade_across(parts[i], parts[j], between)
                if required else parts[i].children[0].first.overlaps(parts[j].children[0].first)):
            continue
        if runs and i <= runs[-1][1]:
            runs[-1] = (runs[-1][0], max(runs[-1][1], j), runs[-1][2] | {i, j}, runs[-1][3] or required)
        else:
            runs.append((i, j, {i, j}, required))
    for start, end, trading, required in runs:
        unbounded = sum(parts[i].max_len is None for i in trading)
        splits = prod(_lengths(parts[i]) for i in trading if parts[i].max_len is not None)
        if unbounded < 2 and splits <= MAX_REPEAT_BOUND:
            continue
        # opened-up groups lose their parentheses; an alternation needs them back to read right
        text = "".join(f"(?:{part.text})" if part.kind is _Kind.BRANCH else part.text
                       for part in parts[start:end + 1])
        repeated = " and ".join(f"`{parts[i].text}`" for i in sorted(trading))
        in_between = ("and what is required between them can be matched by both" if required
                      else "with nothing required between them")
        cost = ("a failing match backtracks polynomially" if unbounded >= 2 else
                f"a failing match tries up to {splits} ways of sharing them out at each position, "
                f"over the limit of {MAX_REPEAT_BOUND}")
        fix = ("make one of them unable to match a character of the text between them (`[^\\]]{0,200}` "
               "instead of `.{0,200}` before a `]`), so that text can only sit where the repeat stops"
               if required else "put a required character between them or make their character sets disjoint")
        yield (f"adjacent repeats {_located(text, pattern)}: {repeated} can match the same "
               f"characters {in_between}, so {cost}; {fix}")


def _lengths(repeat: _Node) -> int:
    """How many lengths a bounded repeat can match: the ways it can give characters back."""
    body = repeat.children[0]
    if body.min_len == body.max_len:
        return repeat.hi - repeat.lo + 1
    return repeat.max_len - repeat.min_len + 1  # type: ignore[operator]


def _trade_across(first: _Node, second: _Node, between: tuple[_Node, ...]) -> bool:
    r"""Whether two repeats can trade characters across the required text between them: both can
    match it, so it can sit anywhere in a run they share (the x of .*x.*y). Unbounded repeats count
    whatever they repeat. A bounded one counts when it repeats fixed characters that can hold the
    text at some offset ((?:xx){0,500} holds x); whether a bounded group of varying length can hold
    it is beyond this check ((?:[0-9a-f]{1,4}:){0,6} cannot hold ::), so such a group is left alone."""
    return all(_holds(repeat, between) for repeat in (first, second))


def _holds(repeat: _Node, between: tuple[_Node, ...]) -> bool:
    required = [p for p in between if p.min_len > 0]
    if repeat.max_len is None or repeat.children[0].min_len == repeat.children[0].max_len == 1:
        return all(p.chars.within(repeat.children[0].chars) for p in required)
    body = _flatten(repeat.children[0])
    if not all(part.kind is _Kind.CHAR for part in body):
        return False
    if not all(part.kind is _Kind.CHAR for part in required):
        return all(p.chars.within(repeat.children[0].chars) for p in required)
    return any(all(p.chars.within(body[(offset + k) % len(body)].chars) for k, p in enumerate(required))
               for offset in range(len(body)))


def _leading_problems(tree: _Node, pattern: str) -> Iterator[str]:
    return iter(dict.fromkeys(_leading_repeat(_flatten(tree), (), pattern)))  # paths can meet


def _leading_repeat(parts: tuple[_Node, ...], before: tuple[_Node, ...], pattern: str,
                    gives_back: bool = True) -> Iterator[str]:
    r"""A repeat the search can start inside of. re.search tries every position; from each position
    in a long run of the characters a leading \w+ matches, it runs to the end of the run (and gives
    back one character at a time), so a line that nearly matches costs time quadratic in the run's
    length, possessive or atomic repeats included. A prefix pins the start when it needs a character
    the repeat cannot match, or asserts the position is the start of the run (^, \b before word
    characters, a lookbehind). A bounded repeat costs its length at every position instead, which
    matters when that is long and nothing but optional or zero-width parts come before it: literal
    text in front limits the starts to where that text occurs, unless the repeat matches that text
    too: then a run of it holds a start every few characters (every one for x[a-z]{1,1000}), and
    its length divided by that is paid per character."""
    for i, part in enumerate(parts):
        enter = (part.kind is _Kind.ATOMIC
                 # an optional or counted group around an unbounded or long repeat: (?:x+,)?y
                 or (part.kind is _Kind.REPEAT and part.hi != MAXREPEAT and part.children[0].min_len
                     != part.children[0].max_len and not _spans_at_most(part, MAX_LEADING_REPEAT_LENGTH)))
        if part.kind is _Kind.BRANCH:
            for option in part.children:
                yield from _leading_repeat(_flatten(option) + parts[i + 1:], before + parts[:i], pattern, gives_back)
            return
        if enter:
            yield from _leading_repeat(_flatten(part.children[0]) + parts[i + 1:], before + parts[:i], pattern,
                                       gives_back and part.kind is not _Kind.ATOMIC)
            if part.min_len > 0:
                return
            continue  # or the search skips it
        unbounded = part.kind is _Kind.REPEAT and part.hi == MAXREPEAT
        long = part.kind is _Kind.REPEAT and not _spans_at_most(part, MAX_LEADING_REPEAT_LENGTH)
        long_first = long and all(prefix.min_len == 0 for prefix in before + parts[:i])
        if unbounded or long_first:
            run = part.children[0].chars
            if any(_pins(prefix, run) for prefix in before + parts[:i]):
                return
            if _can_fail_after(part, parts[i + 1:], gives_back):
                yield (f"leading repeat {_located(part.text, pattern)}: a search retries it from every "
                       f"position of a long run of the characters it matches, so a line that nearly "
                       f"matches takes quadratic time; start the pattern with a character it cannot "
                       f"match, or anchor it with ^, \\b or a lookbehind such as (?<!\\w)"
                       if unbounded else
                       f"leading repeat {_located(part.text, pattern)}: a search tries it at every "
                       f"position of a line and it runs over up to {part.max_len} characters from each, "
                       f"over the limit of {MAX_LEADING_REPEAT_LENGTH} for a repeat the pattern starts "
                       f"with, so a line that nearly matches takes {part.max_len} steps per character; "
                       f"start the pattern with literal text the line has before it, bound it to at most "
                       f"{MAX_LEADING_REPEAT_LENGTH} characters, or anchor it with ^, \\b or a lookbehind "
                       f"such as (?<!\\w)")
            return
        text = _leading_text(before + parts[:i]) if long else ()
        if text and not any(_pins(prefix, part.children[0].chars) for prefix in before + parts[:i]):
            # starts further apart than this cost at most the limit per character
            within = None if part.max_len is None else part.max_len // (MAX_LEADING_REPEAT_LENGTH + 1)
            every = _closest_starts(text, part.children[0].chars, within)
            steps = None if part.max_len is None else part.max_len // every
            if (steps is None or steps > MAX_LEADING_REPEAT_LENGTH) and _can_fail_after(part, parts[i + 1:], gives_back):
                where = "at every position" if every == 1 else f"every {every} characters"
                yield (f"leading repeat {_located(part.text, pattern)}: the text "
                       f"`{''.join(prefix.text for prefix in text)}` before it can occur {where} of a run of "
                       f"characters the repeat matches, and from each a search runs the repeat over up to "
                       f"{part.max_len} characters, so a line that nearly matches takes {steps} steps per "
                       f"character, over the limit of {MAX_LEADING_REPEAT_LENGTH}; start the pattern with a "
                       f"character the repeat cannot match, bound it to at most "
                       f"{MAX_LEADING_REPEAT_LENGTH * every} characters, or anchor it with ^, \\b or a "
                       f"lookbehind such as (?<!\\w)")
                return


def _can_fail_after(repeat: _Node, rest: tuple[_Node, ...], gives_back: bool) -> bool:
    """Whether what follows a repeat can fail in a run of its characters, so that a search goes on
    to the next start: not when it matches there once the repeat gives a few back (or needs none)."""
    run = repeat.children[0].chars
    return not (all(_matches_in_run(later, run) for later in rest) if gives_back and repeat.backtracks
                else all(later.never_fails for later in rest))


def _leading_text(prefix: tuple[_Node, ...]) -> tuple[_Node, ...]:
    """The characters (one-character parts) of the fixed text ``prefix`` ends with, when only
    optional or zero-width parts come before it: text the pattern starts with. Else none."""
    text: list[_Node] = []
    count = 0
    while count < len(prefix) and (chars := _fixed_text(prefix[-1 - count])) is not None:
        text[:0] = chars
        count += 1
    return tuple(text) if all(part.min_len == 0 for part in prefix[:len(prefix) - count]) else ()


def _fixed_text(part: _Node) -> tuple[_Node, ...] | None:
    """The one-character parts ``part`` always matches one after another (x, x{3}, (?:ab){2}), or None."""
    if part.kind is _Kind.CHAR:
        return (part,)
    if part.kind is not _Kind.REPEAT or part.lo != part.hi:
        return None
    body = [chars for inner in _flatten(part.children[0]) if (chars := _fixed_text(inner)) is not None]
    return tuple(chain.from_iterable(body)) * part.lo if len(body) == len(_flatten(part.children[0])) else None


def _closest_starts(text: tuple[_Node, ...], run: _Chars, within: int | None) -> int:
    """How few characters apart ``text`` (one-character parts) can occur in a line of ``run``
    characters, looked for up to ``within``: ``p`` when every ``p``-th character from each of its
    first ``p`` can be the same character of ``run`` (x: 1; xy: 2; x[a-z]: 1, in a run of x's).
    Occurrences side by side are always possible: ``len(text)``, at most."""
    for every in range(1, len(text) if within is None else min(len(text), within + 1)):
        if all(_common([*(part.chars for part in text[offset::every]), run]) for offset in range(every)):
            return every
    return len(text)


def _common(sets: list[_Chars]) -> bool:
    return bool(_union(chars.complement() for chars in sets).complement().spans)


def _spans_at_most(repeat: _Node, length: int) -> bool:
    return repeat.max_len is not None and repeat.max_len <= length


def _matches_in_run(part: _Node, run: _Chars) -> bool:
    r"""Whether ``part``, after a repeat of ``run`` characters, matches at any place in a run of them
    once the repeat gives back a few (the second \d+ of \d+\d+): then the first start succeeds."""
    if part.never_fails:
        return True
    body = _flatten(part.children[0]) if part.kind is _Kind.REPEAT else (part,)
    return len(body) == 1 and body[0].kind is _Kind.CHAR and run.within(body[0].chars)


def _pins(prefix: _Node, run: _Chars) -> bool:
    """Whether ``prefix``, met before a repeat of ``run`` characters, keeps a search from starting
    inside a run of them."""
    if prefix.kind is _Kind.ANCHOR:
        return prefix.text in ("^", r"\A") or (prefix.text == r"\b" and run.within(prefix.word))
    if prefix.kind is _Kind.LOOK and prefix.text.startswith("(?<"):
        look = prefix.children[0]
        if look.min_len != 1 or look.max_len != 1:
            return False
        return run.within(look.chars) if prefix.text.startswith("(?<!") else not look.chars.overlaps(run)
    return prefix.min_len > 0 and _consumes_outside(prefix, run)
