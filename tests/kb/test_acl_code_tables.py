"""kb/codes.yaml `acl.named_in`: the codes the tables of article sections name, read when the KB loads."""

from __future__ import annotations

from faultbot.kb.acl_code_tables import with_named_codes
from faultbot.kb.model import Article, ReturnCodes, Section

TABLE = """| Code | Name | Meaning |
|---|---|---|
| 507015 | `ACL_ERROR_RT_AICORE_EXCEPTION` | AI Core execution **exception** |
| 507042–507045 | `..._TRAP_READ_OVERFLOW` | a range names no one code |
"""


def _article(text: str) -> Article:
    return Article("demo", "Demo", "", "", "", "", "articles/demo.md", {"codes": Section("codes", "Codes", 2, 3, text, ())})


def test_each_row_naming_a_code_is_read_with_its_name_and_what_it_is():
    codes, problems = with_named_codes(ReturnCodes({"5": "internal"}, "demo#codes", "", ("demo#codes",)),
                                       {"demo": _article(TABLE)}, "kb/codes.yaml")
    assert not problems
    assert set(codes.named) == {"507015"}
    named = codes.named["507015"]
    assert (named.name, named.says, named.citation) == ("ACL_ERROR_RT_AICORE_EXCEPTION",
                                                        "AI Core execution exception", "demo#codes")


def test_a_section_that_names_no_code_is_a_lint_problem():
    _, problems = with_named_codes(ReturnCodes({"5": "internal"}, "demo#codes", "", ("demo#codes",)),
                                   {"demo": _article("No table here.\n")}, "kb/codes.yaml")
    (problem,) = problems
    assert problem.file == "kb/codes.yaml" and "has no table row naming a code" in problem.message
