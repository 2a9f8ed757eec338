"""The KB regex linter: verdicts on unsafe and realistic safe patterns (no timing)."""

from __future__ import annotations

import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faultbot.kb.regex_safety import MAX_LEADING_REPEAT_LENGTH, MAX_PATTERN_LENGTH, MAX_REPEAT_BOUND, check_regex

ATOMIC_SYNTAX = pytest.mark.skipif(sys.version_info < (3, 11),
                                   reason="atomic groups and possessive repeats need Python 3.11")

SAFE = [
    # from the knowledge base
    r"(?<![\d.])(?P<value>\d+\.\d+\.(?:RC\d+|\d+)(?:\.\w+)?)",
    r"fault kernel_name=(?P<value>[A-Za-z_][\w*]*)",
    r"errcode[=:(]\s*(?P<value>[0-9a-fx,\s]+)\)?",
    r"status\[(?P<value>[A-Z ]+)\]",
    r"cqe error status\[(?P<value>\d+)\]",
    r"HCCL_EXEC_TIMEOUT[^\d]{0,40}(?P<value>\d+)",
    r"tag\[(?P<op>[A-Za-z]+)_(?P<group>[^\]]+)\]",
    r"\b(?P<value>E[A-Z0-9]\d{4})\b",
    # of the same kind
    r"^\[(?P<level>ERROR|WARNING|INFO|DEBUG|EVENT)\] (?P<module>[A-Z_]+)\((?P<pid>\d+),",
    r"\b(?P<module>[A-Z]+)\((?P<pid>\d+),(?P<process>[^)]*)\):(?P<ts>[\d-]+-[\d:.]+)",
    r"\[(?P<file>[\w.]+\.cc):(?P<line>\d+)\]",
    r"rank(?:Id)?[ =:]+(?P<value>\d+)",
    r"device[_ ]?id[=: ]+(?P<value>\d+)",
    r"(?P<ip>\d{1,3}(?:\.\d{1,3}){3})(?::(?P<port>\d+))?",
    r"(?P<mac>[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5})",
    r"version=(?P<value>\d+(?:\.\d+)*)",
    r"\b\w+(?:\.\w+)+\(",
    r"timeout\s*\(\s*(?P<value>\d+)\s*s?\)",
    r"Notify wait.{0,200}?timeout[: ]{0,3}(?P<value>\d+)",
    r"(?i)\bhccl\b.{0,200}\btimeout\b",
    r"the (?P<value>\w+) operator .* failed",
    r"socket (?:recv|send) (?:timeout|error)",
    r"EZ9999|EE9999|EI\d{4}",
    r"(?P<value>0x[0-9a-fA-F]+)",
    r"ret(?:code)?\s*[=:]\s*(?P<value>-?\d+)",
    r'"(?P<value>[^"]*)"',
    r"link (?P<value>down|up)\b",
    r"Memory_Allocation_Failure|out of memory|\bOOM\b",
    r"(?P<path>/[\w.-]+(?:/[\w.-]+)*\.so)",
    r"(?:aicore|aivec|aicpu) (?:error|exception)",
    r"TraceBack \(most recent call last\):",
    r"(?m)^\s+File \"(?P<file>[^\"]+)\", line (?P<line>\d+)",
    r"(?s)HCCL_CONNECT_TIMEOUT.{0,200}?(?P<value>\d+)",
    r"(?<![\w-])(?P<value>[\w-]+) is not (?:supported|found)",
    r"errno[ =](?P<value>\d+)(?:\s*\((?P<reason>[^)]*)\))?",
]


@pytest.mark.parametrize("pattern", SAFE)
def test_realistic_patterns_pass(pattern: str) -> None:
    assert check_regex(pattern) == []


def test_the_safe_list_is_long_enough() -> None:
    assert len(SAFE) >= 25


def only(pattern: str, kind: str = "") -> str:
    """The one problem of ``pattern`` (of those starting with ``kind``, when given)."""
    problems = [p for p in check_regex(pattern) if p.startswith(kind)]
    assert len(problems) == 1, problems
    return problems[0]


def none_of(kind: str, pattern: str) -> bool:
    return not [p for p in check_regex(pattern) if p.startswith(kind)]


# --- does not compile -------------------------------------------------------------------------

@pytest.mark.parametrize(("pattern", "message"), [
    ("(", "does not compile: missing ), unterminated subpattern at position 0"),
    ("a[b", "does not compile: unterminated character set at position 1"),
    ("a**", "does not compile: multiple repeat at position 2"),
    (r"\1", "does not compile: invalid group reference 1 at position 1"),
    ("(?P<v>a)(?P<v>b)", "does not compile: redefinition of group name 'v' as group 2; was group "
                         "1 at position 12"),
    ("a{99999999999}", "does not compile: the repetition number is too large"),
])
def test_patterns_that_do_not_compile(pattern: str, message: str) -> None:
    assert check_regex(pattern) == [message]


def test_nesting_deeper_than_re_can_handle_is_reported_not_raised() -> None:
    assert check_regex("(" * 600 + "a" + ")" * 600)[-1] == (
        "groups are nested too deeply to compile or check")


# --- nested quantifiers -----------------------------------------------------------------------

@pytest.mark.parametrize(("pattern", "inner"), [
    (r"(a+)+", "a+"),
    (r"(a*)*", "a*"),
    (r"(?:\d+\s?)+", r"\d+"),
    (r"(x+|y)*", "x+"),
    (r"(?:,?\s*\d+)+", r"\d+"),
    (r"(\d{1,3})+x", r"\d{1,3}"),       # bounded inside, still splits a digit run many ways
    (r"(?:\d?\d)+$", r"\d?"),
    (r"(?:\d+\s?){2,40}", r"\d+"),     # a bounded outer repeat is as bad
    (r"(?:\w+\s*)+x", r"\w+"),
])
def test_nested_quantifiers_are_rejected(pattern: str, inner: str) -> None:
    problem = only(pattern, "nested quantifier")
    assert problem.startswith(f"nested quantifier at position {pattern.index('(')} (`")
    assert f"`{inner}` repeats inside it" in problem
    assert "can backtrack exponentially" in problem
    assert "make each repetition need a character" in problem


@pytest.mark.parametrize(("pattern", "inner", "other"), [
    (r"(?:\d+,\d*)+x", r"\d*", r"\d+"),       # \d* meets the next repetition's \d+
    (r"^(\d+x\w+)+$", r"\w+", r"\d+"),          # x is required, but \w+ can swallow it
    (r"(?:[a-z]+:\w*)+;", r"\w*", "[a-z]+"),
])
def test_repeats_meeting_across_repetitions_are_rejected(pattern: str, inner: str,
                                                         other: str) -> None:
    problem = only(pattern, "nested quantifier")
    assert problem.startswith(f"nested quantifier at position {pattern.index('(')} (`")
    assert f": `{inner}` and `{other}` inside it can match the same characters" in problem
    assert "can backtrack exponentially; put a character neither can match between them" in problem


def test_nested_quantifier_message() -> None:
    assert only(r"(a+)+") == (
        "nested quantifier at position 0 (`(a+)+`): `a+` repeats inside it with nothing marking "
        "where one repetition ends, so it can backtrack exponentially; make each repetition need "
        "a character `a+` cannot match, or (Python 3.11+) make the inner part atomic")


@pytest.mark.parametrize("pattern", [
    r"(?:\.\d+)+x",                 # each repetition starts with a dot \d+ cannot match
    r"(?:\d+\.)+x",                 # ... or ends with one
    r"(?:\d{1,3}\.){3}\d{1,3}",
    r"(?:\w+\s)+x",
    r"(?:-?\d+,)*x",
    r"(?:\d{3})+x",                 # fixed width inside: only one way to split
    r"(?:(?:\d+)?\.)+x",
])
def test_delimited_nested_repeats_are_accepted(pattern: str) -> None:
    assert none_of("nested quantifier", pattern)


@ATOMIC_SYNTAX
@pytest.mark.parametrize("pattern", [r"(?>a+)+b", r"(?:\d++\s?)+x", r"(?:\d+\s?)++x"])
def test_repeats_that_never_give_back_are_accepted(pattern: str) -> None:
    assert none_of("nested quantifier", pattern)


# --- overlapping alternatives -----------------------------------------------------------------

@pytest.mark.parametrize(("pattern", "first", "second"), [
    (r"(.|\s)*", "`.`", r"`\s`"),
    (r"(\w\w|\d)+", r"`\w\w`", r"`\d`"),
    (r"(?:[^,]|\s)+x", "`[^,]`", r"`\s`"),
    (r"(?:x(?:ab|\wc)y|z)+", "`ab`", r"`\wc`"),
    (r"(?:0x[0-9a-f]+|\d+)*,", "`0x[0-9a-f]+`", r"`\d+`"),
])
def test_repeated_alternatives_that_overlap_are_rejected(pattern: str, first: str,
                                                         second: str) -> None:
    problems = [p for p in check_regex(pattern) if p.startswith("alternatives")]
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"alternatives {first} and {second} of the repeat ")
    assert "can match the same text" in problems[0]


def test_alternatives_python_factors_apart_are_shown_as_parsed() -> None:
    # Python parses (a|a) as a(?:|): both remaining alternatives match the empty string
    assert only(r"(a|a)*") == (
        "alternatives (empty) and (empty) of the repeat in `(a(?:|))*` (written back from "
        "Python's parse) can match the same text, so it can backtrack exponentially; make the "
        "alternatives start differently")


def test_alternatives_python_merges_into_one_class_are_accepted() -> None:
    # Python compiles (\w|\d) as the class [\w\d], which has nothing to backtrack over
    assert check_regex(r"(\w|\d)+") == []
    assert check_regex(r"(?:a|b|[cd])+") == []


@pytest.mark.parametrize("pattern", [
    r"(?:ab|cd)+", r"(?:\d+|[a-z]+)+,", r'(?:[^"\\]|\\.)*"', r"(?:a|b?)+x", r"(?:ab|ac)+",
])
def test_repeated_alternatives_that_start_differently_are_accepted(pattern: str) -> None:
    assert not [p for p in check_regex(pattern) if p.startswith("alternatives")]


# --- adjacent repeats -------------------------------------------------------------------------

@pytest.mark.parametrize(("pattern", "where", "repeats"), [
    (r"\d+\d+x", r"at position 0 (`\d+\d+`)", r"`\d+` and `\d+`"),
    (r".*.*=", "at position 0 (`.*.*`)", "`.*` and `.*`"),
    (r"\s*\s*$", r"at position 0 (`\s*\s*`)", r"`\s*` and `\s*`"),
    (r"key=.*\s*.*;", r"at position 4 (`.*\s*.*`)", r"`.*` and `\s*` and `.*`"),
    (r"\d*[a-z]*\d*x", r"at position 0 (`\d*[a-z]*\d*`)", r"`\d*` and `\d*`"),
    (r"id=(\d+)(\d+)ms", r"in `\d+\d+` (written back from Python's parse)",
     r"`\d+` and `\d+`"),
    (r"wait.*?(?P<value>\d+)s", r"in `.*?\d+` (written back from Python's parse)",
     r"`.*?` and `\d+`"),
    (r"(?:\w+\s*\w+|x)=", r"at position 3 (`\w+\s*\w+`)", r"`\w+` and `\w+`"),
])
def test_adjacent_overlapping_repeats_are_rejected(pattern: str, where: str,
                                                   repeats: str) -> None:
    assert only(pattern, "adjacent repeats") == (
        f"adjacent repeats {where}: {repeats} can match the same characters with nothing "
        f"required between them, so a failing match backtracks polynomially; put a required "
        f"character between them or make their character sets disjoint")


@pytest.mark.parametrize("pattern", [
    r".*foo.*",
    r"\d+\.\d+",
    r"\d+\s+\d+x",           # disjoint sets
    r"[a-z]+\d+x",
    r"\d+(?:\.\d+)*x",
    r"\d{1,5}\d{1,5}x",      # bounded: at most a constant number of splits
    # Nothing after the second repeat can fail, so re.search never retries a split.
    r"\d+\d+",
    r".*.*",
    r"\s*\s*",
    r".*\s*.*",
    r".*?(?P<value>\d+)",
])
def test_repeats_that_cannot_trade_or_need_no_retry_are_accepted(pattern: str) -> None:
    assert none_of("adjacent repeats", pattern)


@pytest.mark.parametrize(("pattern", "where", "repeats"), [
    (r".*?x.*?y.*?z", "at position 0 (`.*?x.*?y.*?`)", "`.*?` and `.*?` and `.*?`"),
    (r"^.*x.*y", "at position 1 (`.*x.*`)", "`.*` and `.*`"),
    (r"key=\w+_\w+;", r"at position 4 (`\w+_\w+`)", r"`\w+` and `\w+`"),
])
def test_repeats_that_trade_across_required_text_are_rejected(pattern: str, where: str, repeats: str) -> None:
    # the x of .*x.*y can be any x of a line of them, so a failing match tries every pair
    assert only(pattern, "adjacent repeats") == (
        f"adjacent repeats {where}: {repeats} can match the same characters and what is required between "
        f"them can be matched by both, so a failing match backtracks polynomially; {TRADE_FIX}")


TRADE_FIX = (r"make one of them unable to match a character of the text between them (`[^\]]{0,200}` instead "
             r"of `.{0,200}` before a `]`), so that text can only sit where the repeat stops")


@pytest.mark.parametrize(("pattern", "where", "repeats", "ways"), [
    # bounded repeats trade too: the x of =.{0,1000}x.{0,1000}y is any x in the first thousand
    (r"=.{0,1000}x.{0,1000}y", "at position 1 (`.{0,1000}x.{0,1000}`)", "`.{0,1000}` and `.{0,1000}`", 1002001),
    (r"x[^y]{0,1000}z[^y]{0,1000}w", "at position 1 (`[^y]{0,1000}z[^y]{0,1000}`)",
     "`[^y]{0,1000}` and `[^y]{0,1000}`", 1002001),
    # a chain of bounded lazy repeats: every b, then every c after it, is tried
    (r"a.{0,100}?b.{0,100}?c.{0,100}?d", "at position 1 (`.{0,100}?b.{0,100}?c.{0,100}?`)",
     "`.{0,100}?` and `.{0,100}?` and `.{0,100}?`", 101 ** 3),
    # the three shipped extractors this rule made rewrite (kb/facts.yaml)
    (r"Remote rank: \[(?P<sdma_remote_rank>\d+)\].{0,400}?size:\[(?P<sdma_size>0x[0-9a-fA-F]+|\d+)\].{0,200}?link "
     r"type:\[(?P<link_type>[A-Z]+)\]",
     r"in `.{0,400}?size:\[(?:0x[0-9a-fA-F]+|\d+)\].{0,200}?` (written back from Python's parse)",
     "`.{0,400}?` and `.{0,200}?`", 80601),
    (r"cqe error status\[(?P<cqe_status>\d+)\].{0,120}?localInfo\{server\[[^\]]{0,64}\],deviceId",
     r"at position 39 (`.{0,120}?localInfo\{server\[[^\]]{0,64}`)", r"`.{0,120}?` and `[^\]]{0,64}`", 7865),
    (r"Entry-HcclCommInitRootInfoInner:ranks\[(?P<comm_ranks>\d+)\], rank\[(?P<comm_rank>\d+)\].{0,200}?"
     r"identifier\[(?P<comm_identifier>[^\]]{1,200})\], deviceLogicId",
     r"in `.{0,200}?identifier\[[^\]]{1,200}` (written back from Python's parse)", r"`.{0,200}?` and `[^\]]{1,200}`",
     40200),
])
def test_bounded_repeats_that_trade_across_required_text_are_rejected(pattern: str, where: str, repeats: str,
                                                                      ways: int) -> None:
    assert only(pattern, "adjacent repeats") == (
        f"adjacent repeats {where}: {repeats} can match the same characters and what is required between "
        f"them can be matched by both, so a failing match tries up to {ways} ways of sharing them out at each "
        f"position, over the limit of {MAX_REPEAT_BOUND}; {TRADE_FIX}")


@pytest.mark.parametrize("pattern", [
    r"^.*x\d+y",                          # the digits cannot hold the x
    r"key=\w+-\w+;",                      # - is required and \w cannot match it
    r"^\d{1,5}x\d{1,5}y",                 # bounded, and few ways: 5 x 5
    r"=.{0,30}x.{0,30}y",                 # 31 x 31 ways, under the limit
    # the shipped extractors as rewritten: one repeat cannot match a character of the text between
    r"Remote rank: \[\d+\].{0,400}?size:\[\d+\][^z]{0,200}?link",
    r"cqe error status\[\d+\][^{]{0,120}?localInfo\{server\[[^\]]{0,64}\],deviceId",
    r"rank\[\d+\].{0,200}?identifier\[(?P<comm_identifier>[^\[\]]{1,200})\], deviceLogicId",
    r"a[^b]{0,100}?b[^c]{0,100}?c.{0,100}?d",
    # a bounded group is not taken to hold the text between: (?:[0-9a-f]{1,4}:){0,6} cannot hold ::
    r"(?<![\w:])(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{0,4}::(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{0,4}(?![\w:])",
])
def test_repeats_kept_apart_by_required_text_are_accepted(pattern: str) -> None:
    assert none_of("adjacent repeats", pattern)


def test_bounded_repeats_that_share_out_too_many_ways_are_rejected() -> None:
    assert only(r"=\w{0,50}?\w{0,50}?x", "adjacent repeats") == (
        r"adjacent repeats at position 1 (`\w{0,50}?\w{0,50}?`): `\w{0,50}?` and `\w{0,50}?` can match "
        r"the same characters with nothing required between them, so a failing match tries up to 2601 ways "
        f"of sharing them out at each position, over the limit of {MAX_REPEAT_BOUND}; put a required character "
        "between them or make their character sets disjoint")
    assert none_of("adjacent repeats", r"=\w{0,30}\w{0,30}x")       # 961 ways
    assert none_of("adjacent repeats", r"=(?:version )?\w{1,64}\.?x")  # an optional word is 2 ways, not 9


# --- leading repeats --------------------------------------------------------------------------

@pytest.mark.parametrize(("pattern", "repeat"), [
    (r"\w+MARK", r"at position 0 (`\w+`)"),
    (r".*?(?P<value>\d+)", "at position 0 (`.*?`)"),
    (r"x\w+MARK", r"at position 1 (`\w+`)"),            # x is a word character: it starts inside the run too
    (r"(?i)hccl.*\btimeout\b", "at position 8 (`.*`)"),
    (r"\d+\.\d+", r"at position 0 (`\d+`)"),
    (r"(?:\d{3})+x", r"at position 0 (`(?:\d{3})+`)"),
    (r"(?:\w+ )?x", r"at position 3 (`\w+`)"),          # an optional group is entered
    (r"(?:foo|\w+)X", r"at position 7 (`\w+`)"),        # so is every alternative
    (r"\S+\s+done", r"at position 0 (`\S+`)"),
    (r"\b\S+\s+done", r"at position 2 (`\S+`)"),        # \b holds inside a run of \S: a.b.c
    (r'"(?:[^"\\]|\\.)*"', r'at position 1 (`(?:[^"\\]|\\.)*`)'),  # \" can stand for any character
    # giving nothing back does not help: each start still runs to the end of the run
    pytest.param(r"\w++MARK", r"at position 0 (`\w++`)", marks=ATOMIC_SYNTAX),
    pytest.param(r"(?>\d+)\d", r"at position 3 (`\d+`)", marks=ATOMIC_SYNTAX),
])
def test_repeats_a_search_can_start_inside_are_rejected(pattern: str, repeat: str) -> None:
    assert only(pattern, "leading repeat") == (
        f"leading repeat {repeat}: a search retries it from every position of a long run of the characters it "
        r"matches, so a line that nearly matches takes quadratic time; start the pattern with a character it "
        r"cannot match, or anchor it with ^, \b or a lookbehind such as (?<!\w)")


@pytest.mark.parametrize("pattern", [
    r"\b\w+MARK",                  # inside a run of word characters \b does not hold
    r"(?<!\w)\w+MARK",
    r"(?<![\w.])\d+\.\d+",
    r"(?<=[=:])\d+x",
    r"^\w+MARK",
    r"\A.*x",
    r"=\w+MARK",                   # = is not a word character
    r'"[^"]*"',
    r"the (?P<value>\w+) operator .* failed",   # only the first repeat counts: the space pins it
    r"\w+", r".*", r"\d+\d+",    # nothing after it can fail
    r"x.{0,64}y",                  # bounded, and short
])
def test_repeats_a_search_enters_only_at_their_start_are_accepted(pattern: str) -> None:
    assert none_of("leading repeat", pattern)


@pytest.mark.parametrize(("pattern", "repeat", "length"), [
    (r"[a-z]{1,1000}MARK", "at position 0 (`[a-z]{1,1000}`)", 1000),
    (r".{0,1000}?MARK", "at position 0 (`.{0,1000}?`)", 1000),
    (r"(?:ab){1,100}c", "at position 0 (`(?:ab){1,100}`)", 200),
    (r"(?:[a-z]{1,1000},)?x", "at position 3 (`[a-z]{1,1000}`)", 1000),   # an optional group is entered
    (r"(?=a)[a-z]{1,1000}MARK", "at position 5 (`[a-z]{1,1000}`)", 1000),  # a lookahead does not pin the start
    (r"=?\d{0,65}x", r"at position 2 (`\d{0,65}`)", 65),                  # nor does an optional character
])
def test_long_bounded_repeats_a_pattern_starts_with_are_rejected(pattern: str, repeat: str, length: int) -> None:
    assert only(pattern, "leading repeat") == (
        f"leading repeat {repeat}: a search tries it at every position of a line and it runs over up to {length} "
        f"characters from each, over the limit of {MAX_LEADING_REPEAT_LENGTH} for a repeat the pattern starts "
        f"with, so a line that nearly matches takes {length} steps per character; start the pattern with literal "
        f"text the line has before it, bound it to at most {MAX_LEADING_REPEAT_LENGTH} characters, or anchor it "
        r"with ^, \b or a lookbehind such as (?<!\w)")


@pytest.mark.parametrize("pattern", [
    r"[a-z]{1,64}MARK",                   # at the limit
    r"^[a-z]{1,1000}MARK",
    r"\b[a-z]{1,1000}MARK",
    r"(?<![a-z])[a-z]{1,1000}MARK",
    r"Notify wait.{0,200}?MARK",          # literal text first: starts only where it occurs
    r"\d{1,1000}\d",                      # the first start matches
    r"[a-z]{1,1000}",                     # nothing after it can fail
])
def test_bounded_repeats_kept_short_pinned_or_behind_text_are_accepted(pattern: str) -> None:
    assert none_of("leading repeat", pattern)


@pytest.mark.parametrize(("pattern", "repeat", "text", "where", "length", "steps", "bound"), [
    (r"x[a-z]{1,1000}MARK", "at position 1 (`[a-z]{1,1000}`)", "x", "at every position", 1000, 1000, 64),
    (r"x.{0,300}y", "at position 1 (`.{0,300}`)", "x", "at every position", 300, 300, 64),
    (r"=[^\n]{0,1000}x", r"at position 1 (`[^\n]{0,1000}`)", "=", "at every position", 1000, 1000, 64),
    (r"x{2}[a-z]{1,1000}MARK", "at position 4 (`[a-z]{1,1000}`)", "xx", "at every position", 1000, 1000, 64),
    (r"xy[a-z]{1,1000}MARK", "at position 2 (`[a-z]{1,1000}`)", "xy", "every 2 characters", 1000, 500, 128),
    (r"a[b-z]a[a-z]{1,200}Z", "at position 7 (`[a-z]{1,200}`)", "a[b-z]a", "every 2 characters", 200, 100, 128),
    (r"(?:foo )?x[a-z]{1,1000}MARK", "at position 10 (`[a-z]{1,1000}`)", "x", "at every position", 1000, 1000, 64),
    (r"(?i)X[a-z]{1,1000}MARK", "at position 5 (`[a-z]{1,1000}`)", "X", "at every position", 1000, 1000, 64),
])
def test_long_repeats_after_text_they_also_match_are_rejected(pattern: str, repeat: str, text: str, where: str,
                                                              length: int, steps: int, bound: int) -> None:
    # on a line of x's, x[a-z]{1,1000}MARK starts at every x and runs 1000 characters from each
    assert only(pattern, "leading repeat") == (
        f"leading repeat {repeat}: the text `{text}` before it can occur {where} of a run of characters the repeat "
        f"matches, and from each a search runs the repeat over up to {length} characters, so a line that nearly "
        f"matches takes {steps} steps per character, over the limit of {MAX_LEADING_REPEAT_LENGTH}; start the "
        f"pattern with a character the repeat cannot match, bound it to at most {bound} characters, or anchor it "
        r"with ^, \b or a lookbehind such as (?<!\w)")


@pytest.mark.parametrize("pattern", [
    r"x[a-z]{1,64}MARK",                  # at the limit
    r"xy[a-z]{1,128}MARK",                # a start every 2 characters, 64 steps each
    r"Notify wait.{0,200}?MARK",          # a start every 11 characters at most
    r"x[^x]{0,1000}MARK",                 # the repeat stops at the next x, where the next start is
    r"=[^=\n]{0,1000}x",
    r"^x[a-z]{1,1000}MARK",
    r"\bx[a-z]{1,1000}MARK",
    r"(?<![a-z])x[a-z]{1,1000}MARK",
    r"x[a-z]{1,1000}",                    # nothing after it can fail
    r"x[a-z]{1,1000}[a-z]",               # the first start matches
    r"x\d+[a-z]{1,1000}MARK",             # a digit before it, which it cannot match, pins its start
])
def test_long_repeats_after_text_that_keeps_starts_apart_or_pinned_are_accepted(pattern: str) -> None:
    assert none_of("leading repeat", pattern)


# --- backreferences and conditionals ----------------------------------------------------------

@pytest.mark.parametrize(("pattern", "problem"), [
    (r"(a)\1", r"backreference at position 3 (`\1`)"),
    (r"(?P<q>['\"]).*?(?P=q)", "backreference at position 15 (`(?P=q)`)"),
    (r"(a)?(?(1)b|c)", "conditional group at position 4 (`(?(1)b|c)`)"),
    (r"(?P<open><)?x(?(open)>)", "conditional group at position 13 (`(?(open)>)`)"),
])
def test_backreferences_and_conditionals_are_rejected(pattern: str, problem: str) -> None:
    assert only(pattern, problem.split(" at ")[0]) == (f"{problem}: not allowed in KB regexes, since matching one can take "
                             f"exponential time and this check cannot tell")


# --- size limits ------------------------------------------------------------------------------

@pytest.mark.parametrize(("pattern", "bound"), [
    (r"a{1,5000}", 5000), (r"a{5000}", 5000), (r"\d{1001,}", 1001), (r"x(?:ab){0,2000}", 2000),
])
def test_repeat_bounds_over_the_limit_are_rejected(pattern: str, bound: int) -> None:
    problem = only(pattern)
    assert problem.startswith(f"repeat bound {bound} at position ")
    assert f"is over the limit of {MAX_REPEAT_BOUND}" in problem


def test_repeat_bound_at_the_limit_is_accepted() -> None:
    assert check_regex(r"a{1,1000}") == [] and check_regex(r"=[^=\n]{0,1000}x") == []


def test_long_patterns_are_rejected() -> None:
    at_limit = "a" * MAX_PATTERN_LENGTH
    assert check_regex(at_limit) == []
    assert check_regex(at_limit + "b") == [
        f"pattern is {MAX_PATTERN_LENGTH + 1} characters long, over the limit of "
        f"{MAX_PATTERN_LENGTH}"]
    assert len(check_regex("x(a+)+" + "b" * MAX_PATTERN_LENGTH)) == 2


# --- flags and character sets -----------------------------------------------------------------

def test_inline_flags_change_the_character_sets() -> None:
    # each starts with ^ so that only the adjacent repeats are in question
    assert check_regex(r"^[^a]+a+x") == []
    assert only(r"^[^a]+A+x").startswith("adjacent repeats")
    assert check_regex(r"(?i)^[^a]+A+x") == []    # ignoring case, [^a] excludes A too
    assert only(r"^(?i:x[a-c]+)[A-C]+y").startswith("adjacent repeats")
    assert check_regex(r"^.+\n+x") == []
    assert only(r"(?s)^.+\n+x").startswith("adjacent repeats")
    assert check_regex(r"(?a)^\w+[é]+x") == []
    assert only(r"^\w+[é]+x").startswith("adjacent repeats")


@given(st.text(max_size=40))
def test_any_text_gets_a_verdict(pattern: str) -> None:
    problems = check_regex(pattern)
    assert isinstance(problems, list) and all(isinstance(p, str) and p for p in problems)
