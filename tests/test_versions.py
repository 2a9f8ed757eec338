"""Version and version-range parsing for CANN, the HDK and torch_npu."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from faultbot.kb.versions import (
    Scheme,
    Version,
    VersionError,
    VersionRange,
    parse_range,
    parse_version,
)

CANN, HDK, TORCH_NPU = Scheme.CANN, Scheme.HDK, Scheme.TORCH_NPU


def versions(texts: list[str], scheme: Scheme) -> list[Version]:
    return [parse_version(text, scheme) for text in texts]


# --- ordering ---------------------------------------------------------------------------------

CHAINS = [
    (CANN, ["8.0.RC1", "8.0.RC2", "8.0.RC3", "8.0.0", "8.0.1", "8.1.RC1", "8.2.RC1", "8.2.0",
            "8.3.RC1", "8.5.0"]),
    (CANN, ["5.1.RC2", "6.0.RC1", "6.3.RC2", "7.0.RC1", "7.0.0", "7.0.1", "8.0.RC1"]),
    # alpha < beta < release < hot patches, all before the next release
    (CANN, ["8.0.RC2", "8.0.RC3.alpha001", "8.0.RC3.alpha003", "8.0.RC3.beta1", "8.0.RC3.beta2",
            "8.0.RC3", "8.0.RC3.1", "8.0.RC3.10", "8.0.RC3.SPC001", "8.0.RC3.SPC002",
            "8.0.0.alpha001", "8.0.0"]),
    (HDK, ["23.0.RC3", "23.0.0", "23.0.3", "24.1.RC1", "24.1.RC2", "24.1.RC2.1", "24.1.0",
           "24.1.0.3", "24.1.1", "25.0.RC1", "25.0.RC1.1", "25.0.0"]),
    (TORCH_NPU, ["2.1.0.dev1", "2.1.0a1", "2.1.0a2.dev1", "2.1.0a2", "2.1.0b1", "2.1.0rc1",
                 "2.1.0rc1.post1", "2.1.0", "2.1.0+cpu", "2.1.0.post1.dev2", "2.1.0.post1",
                 "2.1.0.post4", "2.1.0.post11", "2.1.1", "2.2.0", "10.0.0"]),
    # local labels: alphanumeric segments before numeric ones, numbers compared as numbers
    (TORCH_NPU, ["2.1.0", "2.1.0+abc", "2.1.0+cpu", "2.1.0+cpu.2", "2.1.0+cpu.10", "2.1.0+1",
                 "2.1.0+2", "2.1.0+10"]),
]


@pytest.mark.parametrize(("scheme", "texts"), CHAINS)
def test_chain_is_strictly_increasing(scheme: Scheme, texts: list[str]) -> None:
    chain = versions(texts, scheme)
    for lower, higher in zip(chain, chain[1:]):
        assert lower < higher and higher > lower, (lower, higher)
        assert lower <= higher and higher >= lower and lower != higher
    shuffled = chain[:]
    random.Random(0).shuffle(shuffled)
    assert sorted(shuffled) == chain


def test_equal_versions_are_equal_and_hash_alike() -> None:
    assert parse_version("cann 8.0.rc2", CANN) == parse_version("8.0.RC2", CANN)
    assert hash(parse_version("8.0.RC3.alpha3", CANN)) == hash(parse_version("8.0.RC3.alpha003",
                                                                            CANN))
    # PEP 440: trailing zeros of the release do not count, but the spelling is kept
    short, long = parse_version("2.1", TORCH_NPU), parse_version("2.1.0", TORCH_NPU)
    assert short == long and hash(short) == hash(long) and str(short) == "2.1"
    assert not short < long and short <= long and short >= long


def test_versions_of_different_schemes_do_not_order() -> None:
    cann, hdk = parse_version("8.0.0", CANN), parse_version("8.0.0", HDK)
    assert cann != hdk
    with pytest.raises(TypeError, match="cannot order CANN version 8.0.0 against HDK version"):
        _ = cann < hdk
    with pytest.raises(TypeError):
        _ = cann >= hdk


# --- spellings --------------------------------------------------------------------------------

@pytest.mark.parametrize(("scheme", "text", "canonical"), [
    (CANN, "8.0.RC2", "8.0.RC2"),
    (CANN, "8.0.rc2", "8.0.RC2"),
    (CANN, "8.0.Rc2", "8.0.RC2"),
    (CANN, "CANN 8.0.RC2", "8.0.RC2"),
    (CANN, "cann 8.0.RC2", "8.0.RC2"),
    (CANN, "CANN8.0.RC2", "8.0.RC2"),
    (CANN, "CANN-8.0.RC2", "8.0.RC2"),
    (CANN, "v8.0.RC2", "8.0.RC2"),
    (CANN, "CANN v8.0.RC2", "8.0.RC2"),
    (CANN, "  8.0.RC2\n", "8.0.RC2"),
    (CANN, "8.0.0", "8.0.0"),
    (CANN, "7.0.RC1", "7.0.RC1"),
    (CANN, "6.3.RC2", "6.3.RC2"),
    (CANN, "8.00.RC02", "8.0.RC2"),
    (CANN, "8.0.RC3.alpha003", "8.0.RC3.alpha003"),
    (CANN, "8.0.RC3.alpha3", "8.0.RC3.alpha003"),
    (CANN, "8.0.RC3.ALPHA003", "8.0.RC3.alpha003"),
    (CANN, "8.0.RC2.alpha001", "8.0.RC2.alpha001"),
    (CANN, "8.0.RC3.beta1", "8.0.RC3.beta1"),
    (CANN, "8.0.0.Beta01", "8.0.0.beta1"),
    (CANN, "8.0.RC2.SPC001", "8.0.RC2.SPC001"),
    (CANN, "8.0.RC2.spc1", "8.0.RC2.SPC001"),
    (CANN, "8.0.RC2.10", "8.0.RC2.10"),
    (CANN, "83RC1", "8.3.RC1"),
    (CANN, "80rc2", "8.0.RC2"),
    (CANN, "850alpha002", "8.5.0.alpha002"),
    (CANN, "83RC1beta1", "8.3.RC1.beta1"),
    (CANN, "800", "8.0.0"),
    (HDK, "24.1.0.3", "24.1.0.3"),
    (HDK, "24.1.RC2", "24.1.RC2"),
    (HDK, "24.1.rc2", "24.1.RC2"),
    (HDK, "23.0.3", "23.0.3"),
    (HDK, "25.0.RC1.1", "25.0.RC1.1"),
    (HDK, "v24.1.0", "24.1.0"),
    (HDK, "HDK 24.1.0", "24.1.0"),
    (HDK, "7.1.0.5.220", "7.1.0.5.220"),
    (TORCH_NPU, "2.1.0", "2.1.0"),
    (TORCH_NPU, "v2.1.0", "2.1.0"),
    (TORCH_NPU, "2.1.0.post11", "2.1.0.post11"),
    (TORCH_NPU, "2.1.0post11", "2.1.0.post11"),
    (TORCH_NPU, "2.1.0-post11", "2.1.0.post11"),
    (TORCH_NPU, "2.1.0rc1", "2.1.0rc1"),
    (TORCH_NPU, "2.1.0RC1", "2.1.0rc1"),
    (TORCH_NPU, "2.1.0.rc1", "2.1.0rc1"),
    (TORCH_NPU, "2.1.0-rc1", "2.1.0rc1"),
    (TORCH_NPU, "2.1.0alpha1", "2.1.0a1"),
    (TORCH_NPU, "2.1.0.beta2", "2.1.0b2"),
    (TORCH_NPU, "2.1.0.post4.dev20240101", "2.1.0.post4.dev20240101"),
    (TORCH_NPU, "2.1.0.dev20240101", "2.1.0.dev20240101"),
    (TORCH_NPU, "2.1.0+cpu", "2.1.0+cpu"),
    (TORCH_NPU, "2.1.0+CPU", "2.1.0+cpu"),
    (TORCH_NPU, "2.1.0+cu118-abc_1", "2.1.0+cu118.abc.1"),
    (TORCH_NPU, "2.01.00", "2.1.0"),
])
def test_spelling_parses_to_canonical_text(scheme: Scheme, text: str, canonical: str) -> None:
    version = parse_version(text, scheme)
    assert str(version) == version.text == canonical
    assert version.scheme is scheme
    assert parse_version(canonical, scheme) == version


# --- errors -----------------------------------------------------------------------------------

def test_error_message_names_the_text_and_valid_examples() -> None:
    with pytest.raises(VersionError) as caught:
        parse_version("8.x", CANN)
    assert str(caught.value) == (
        "not a CANN version: '8.x' (expected e.g. 8.0.RC2, 8.0.0, 8.0.RC3.alpha003)")
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize(("scheme", "text"), [
    (CANN, "8.x"), (CANN, "8"), (CANN, "8.0"), (CANN, "8.0.RC"), (CANN, "8.0.RC2.gamma1"),
    (CANN, "8.0.RC2.alpha"), (CANN, "8.0.0.B010"), (CANN, "8.0.RC2.1.2"), (CANN, "8.0.0-rc1"),
    (CANN, "8..0"), (CANN, ""), (CANN, "CANN"), (CANN, "latest"), (CANN, "8.0.RC2 alpha001"),
    (CANN, "8000"), (CANN, "83"), (CANN, "٨.0.RC2"),  # Arabic-Indic digit eight
    (HDK, "24"), (HDK, "24.1"), (HDK, "24.1.RC"), (HDK, "24.1.0.x"), (HDK, "24.1.RC2.RC1"),
    (HDK, "24.1.0-3"), (HDK, "24.1.0."), (HDK, "241RC2"),
    (TORCH_NPU, "v2.1.0-6.0.rc1"), (TORCH_NPU, "2.1.0rc"), (TORCH_NPU, "2.1.0.post"),
    (TORCH_NPU, "2.x"), (TORCH_NPU, "2.1.0+"), (TORCH_NPU, "2.1.0 rc1"), (TORCH_NPU, "1!2.1.0"),
    (TORCH_NPU, "2.1.0-1"), (TORCH_NPU, ""), (TORCH_NPU, "2.1.0+cpu+cuda"),
])
def test_unparseable_versions_are_rejected(scheme: Scheme, text: str) -> None:
    with pytest.raises(VersionError, match=rf"^not a {scheme.value} version: .*\(expected e\.g\. "):
        parse_version(text, scheme)


def test_a_yaml_number_is_rejected_with_a_hint_to_quote_it() -> None:
    with pytest.raises(VersionError, match=r"not a CANN version: 8\.0 is a float.*quote it"):
        parse_version(8.0, CANN)  # type: ignore[arg-type]
    with pytest.raises(VersionError, match=r"is a float.*quote it"):
        parse_range(8.1, CANN)  # type: ignore[arg-type]


# --- ranges -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("scheme", "range_text", "version", "inside"), [
    (CANN, "<8.2.RC1", "8.1.RC1", True),
    (CANN, "<8.2.RC1", "8.2.RC1", False),
    (CANN, "<8.2.RC1", "8.2.RC1.alpha001", True),   # a pre-release of 8.2.RC1 precedes it
    (CANN, "<=8.2.RC1", "8.2.RC1", True),
    (CANN, "<=8.2.RC1", "8.2.RC1.SPC001", False),   # a hot patch of 8.2.RC1 follows it
    (CANN, ">8.0.RC2", "8.0.RC2", False),
    (CANN, ">8.0.RC2", "8.0.RC2.SPC001", True),
    (CANN, ">=8.0.RC2", "8.0.RC2", True),
    (CANN, ">=8.0.RC2", "8.0.RC1", False),
    (CANN, "==8.0.RC2", "8.0.RC2", True),
    (CANN, "==8.0.RC2", "8.0.RC3", False),
    (CANN, "!=8.0.RC2", "8.0.RC2", False),
    (CANN, "!=8.0.RC2", "8.0.RC3", True),
    (CANN, ">=8.0.RC2,<8.2.RC1", "8.0.RC1", False),
    (CANN, ">=8.0.RC2,<8.2.RC1", "8.0.RC2", True),
    (CANN, ">=8.0.RC2,<8.2.RC1", "8.1.RC1", True),
    (CANN, ">=8.0.RC2,<8.2.RC1", "8.2.RC1", False),
    (CANN, " >= 8.0.RC2 , < 8.2.RC1 ", "8.0.0", True),
    (CANN, ">=8.0.RC2,<8.2.RC1,!=8.1.RC1", "8.1.RC1", False),
    (CANN, "*", "5.0.RC1", True),
    (CANN, " * ", "8.5.0", True),
    (HDK, ">=24.1.RC2,<24.1.0.3", "24.1.0", True),
    (HDK, ">=24.1.RC2,<24.1.0.3", "24.1.0.3", False),
    (TORCH_NPU, "<2.1.0.post4", "2.1.0.post3", True),
    (TORCH_NPU, "<2.1.0.post4", "2.1.0.post4", False),
    # A local label is ignored unless the bound has one (as PEP 440 specifiers do)
    (TORCH_NPU, "==2.1.0", "2.1.0+cpu", True),
    (TORCH_NPU, "<=2.1.0", "2.1.0+cpu", True),
    (TORCH_NPU, ">2.1.0", "2.1.0+cpu", False),
    (TORCH_NPU, "!=2.1.0", "2.1.0+cpu", False),
    (TORCH_NPU, "==2.1.0+cpu", "2.1.0+cpu", True),
    (TORCH_NPU, "==2.1.0+cpu", "2.1.0", False),
    (TORCH_NPU, "==2.1.0+cpu", "2.1.0+cu118", False),
])
def test_range_contains(scheme: Scheme, range_text: str, version: str, inside: bool) -> None:
    assert parse_range(range_text, scheme).contains(parse_version(version, scheme)) is inside


def test_range_keeps_its_scheme_clauses_and_canonical_text() -> None:
    found = parse_range(" >= cann 8.0.rc2 , <82RC1 ", CANN)
    assert isinstance(found, VersionRange) and found.scheme is CANN
    assert str(found) == found.text == ">=8.0.RC2,<8.2.RC1"
    assert [(clause.op, str(clause.version)) for clause in found.clauses] == [
        (">=", "8.0.RC2"), ("<", "8.2.RC1")]
    assert parse_range(str(found), CANN) == found
    assert str(parse_range("*", CANN)) == "*" and parse_range("*", CANN).clauses == ()


def test_range_refuses_a_version_of_another_scheme() -> None:
    with pytest.raises(TypeError, match="cannot test HDK version 24.1.0 against CANN range"):
        parse_range("*", CANN).contains(parse_version("24.1.0", HDK))


@pytest.mark.parametrize(("range_text", "message"), [
    ("", r"^empty clause in version range '' \(expected e\.g\. >=8\.0\.RC2 or \* for any"),
    (" ", r"^empty clause in version range ' '"),
    (">=8.0.RC2,,<8.2.RC1", r"^empty clause in version range '>=8\.0\.RC2,,<8\.2\.RC1'"),
    (">=8.0.RC2,", r"^empty clause"),
    ("~=8.0.RC2", r"^unknown operator '~=' in version range '~=8\.0\.RC2' \(expected one of <, "
                  r"<=, >, >=, ==, !=\)"),
    ("=>8.0.RC2", r"^unknown operator '=>'"),
    ("=8.0.RC2", r"^unknown operator '='"),
    ("===8.0.RC2", r"^unknown operator '==='"),
    ("<<8.0.RC2", r"^unknown operator '<<'"),
    ("8.0.RC2", r"^clause '8\.0\.RC2' in version range '8\.0\.RC2' has no operator \(expected "
                r"one of <, <=, >, >=, ==, != as in ==8\.0\.RC2"),
    ("*,<8.0.RC1", r"^clause '\*' .* has no operator .*\* stands alone for any version"),
    (">=8.x", r"^in version range '>=8\.x': not a CANN version: '8\.x' \(expected e\.g\. "),
    (">=", r"^in version range '>=': not a CANN version: ''"),
    (">=8.0.RC2,<8.2", r"^in version range '>=8\.0\.RC2,<8\.2': not a CANN version: '8\.2'"),
    (">=8.2.RC1,<8.0.RC1", r"^version range '>=8\.2\.RC1,<8\.0\.RC1' can never match: no "
                           r"version is >=8\.2\.RC1 and <8\.0\.RC1$"),
    (">8.0.RC2,<=8.0.RC2", r"can never match: no version is >8\.0\.RC2 and <=8\.0\.RC2$"),
    (">=8.0.RC2,<8.0.RC2", r"can never match: no version is >=8\.0\.RC2 and <8\.0\.RC2$"),
    ("==8.0.RC3,==8.0.RC2", r"can never match: no version is ==8\.0\.RC3 and ==8\.0\.RC2$"),
    ("==8.0.RC2,<8.0.RC1", r"can never match: no version is ==8\.0\.RC2 and <8\.0\.RC1$"),
    ("==8.0.RC2,!=8.0.RC2", r"can never match: no version is ==8\.0\.RC2 and !=8\.0\.RC2$"),
    (">=8.0.RC2,<=8.0.RC2,!=8.0.RC2",
     r"can never match: no version is >=8\.0\.RC2 and <=8\.0\.RC2 and !=8\.0\.RC2$"),
])
def test_bad_ranges_are_rejected(range_text: str, message: str) -> None:
    with pytest.raises(VersionError, match=message):
        parse_range(range_text, CANN)


def test_narrow_but_possible_ranges_are_accepted() -> None:
    assert parse_range(">=8.0.RC2,<=8.0.RC2", CANN).contains(parse_version("8.0.RC2", CANN))
    # only builds lie between these, but builds exist
    assert parse_range(">8.0.RC2,<8.0.RC3", CANN).contains(parse_version("8.0.RC3.beta1", CANN))
    assert parse_range("==8.0.RC2,==cann 8.0.rc2", CANN).clauses


# --- properties -------------------------------------------------------------------------------

def _number(most: int = 30) -> st.SearchStrategy[int]:
    return st.integers(0, most)


def _formatted(template: str, most: int = 30) -> st.SearchStrategy[str]:
    return st.builds(template.format, _number(most))


def _cann_text() -> st.SearchStrategy[str]:
    last = st.one_of(_formatted("RC{}"), _formatted("{}"))
    build = st.sampled_from([""]) | _formatted(".alpha{:03d}") | _formatted(".beta{}") \
        | _formatted(".SPC{:03d}") | _formatted(".{}")
    version = st.builds("{}.{}.{}{}".format, _number(), _number(), last, build)
    spelt = st.one_of(version, version.map(str.swapcase))  # 8.0.rc2.ALPHA001
    return st.builds("{}{}".format, st.sampled_from(["", "CANN ", "cann", "v"]), spelt)


def _hdk_text() -> st.SearchStrategy[str]:
    last = st.one_of(_formatted("RC{}"), _formatted("rc{}"), _formatted("{}"))
    tail = st.lists(_number(300), max_size=3).map(lambda parts: "".join(f".{p}" for p in parts))
    return st.builds("{}.{}.{}{}".format, _number(), _number(), last, tail)


def _torch_npu_text() -> st.SearchStrategy[str]:
    release = st.lists(_number(), min_size=1, max_size=4).map(lambda p: ".".join(map(str, p)))
    pre = st.sampled_from([""]) | st.builds(
        "{}{}".format, st.sampled_from(["a", "b", "rc", ".RC", "-alpha"]), _number())
    post = st.sampled_from(["", ".post4", "post11", ".post0"])
    dev = st.sampled_from(["", ".dev0", ".dev20240101"])
    labels = st.lists(st.sampled_from(["cpu", "cu118", "7", "12", "abc"]), min_size=1, max_size=3)
    local = st.sampled_from([""]) | labels.map(lambda parts: "+" + ".".join(parts))
    return st.builds("{}{}{}{}{}".format, release, pre, post, dev, local)


SCHEME_TEXTS = st.one_of(
    st.tuples(st.just(CANN), _cann_text()),
    st.tuples(st.just(HDK), _hdk_text()),
    st.tuples(st.just(TORCH_NPU), _torch_npu_text()),
)


@given(SCHEME_TEXTS)
def test_canonical_text_parses_back_to_the_same_version(case: tuple[Scheme, str]) -> None:
    scheme, text = case
    version = parse_version(text, scheme)
    again = parse_version(str(version), scheme)
    assert again == version and str(again) == str(version) and again.key == version.key


@given(st.data())
def test_ordering_agrees_with_sort_keys(data: st.DataObject) -> None:
    scheme, _ = data.draw(SCHEME_TEXTS)
    texts = {CANN: _cann_text(), HDK: _hdk_text(), TORCH_NPU: _torch_npu_text()}[scheme]
    found = [parse_version(text, scheme) for text in data.draw(st.lists(texts, min_size=2))]
    for a in found:
        for b in found:
            assert (a < b) == (a.key < b.key) and (a == b) == (a.key == b.key)
            assert [a < b, a == b, a > b].count(True) == 1
            assert (a <= b) == (not a > b)
    assert [v.key for v in sorted(found)] == sorted(v.key for v in found)


@given(st.sampled_from(list(Scheme)), st.text(max_size=30))
def test_arbitrary_text_either_parses_or_raises_version_error(scheme: Scheme, text: str) -> None:
    for parse in (parse_version, parse_range):
        try:
            parse(text, scheme)
        except VersionError:
            pass
