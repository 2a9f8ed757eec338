"""Error codes a question asks about that nothing in the knowledge base describes, read by their
structure (kb/codes.yaml): a CANN code by its level, reporting module and number class
(engine/codes.py, as diagnose reads one), an aclError by the class its first digit gives it. That is
what the KB holds about such a code, never a cause; a section that mentions the code is shown after."""

from __future__ import annotations

import re
from collections.abc import Sequence

import msgspec

from ..engine.codes import explain_code
from .codebook_answers import READ_FOR, acl_class_sentence
from .excerpt import passage_excerpt
from .index import Hit, KnowledgeIndex
from .question import Question, asking_words, chars_from, last_clause
from .structured import THIS_CODE

_CANN_CODE = re.compile(r"\b[EWI][0-9A-Z]\d{4}\b", re.ASCII)
# An aclError is a six-digit number a code word leads to ("error code is 500002", "runtime result =
# 507013", "failed 561000"): a process id in a log header or a size is not one.
_ACL_CODE = re.compile(r"(?:code|result|ret|error|fail|码)[^\d\n]{0,16}?(?<![\w:.])([1-5]\d{5})(?![\w.])",
                       re.I | re.ASCII)
MAX_CODES = 2
NEAR_A_QUESTION_WORD = 8     # characters: "what does EH0004 mean"


class UnknownCodes(msgspec.Struct, frozen=True):
    text: str                        # Markdown
    citations: tuple[str, ...]


def _written(text: str) -> list[str]:
    return list(dict.fromkeys([*_CANN_CODE.findall(text), *_ACL_CODE.findall(text)]))


def _at_a_question_word(asking: str, code: str) -> bool:
    """Whether ``asking`` writes ``code`` a few characters from a question word ("what is EH0004",
    "500002 这个是啥"), not only in what it tells ("can it ...? it fails with ret = 507008")."""
    return any(chars_from(found.span(), asking, code) <= NEAR_A_QUESTION_WORD for found in asking_words(asking))


def unknown_codes(index: KnowledgeIndex, asked: Question, ranked: Sequence[tuple[float, Hit]]) -> UnknownCodes | None:
    """The structure of each code ``asked`` asks about that the KB does not describe, for a question
    about what it is, why or what to check; then the best ranked section that mentions it. A code is
    asked about when its asking clause (``last_clause``) names nothing the KB knows and writes the
    code at a question word, or calls it "this code" ("..., error code 507033, plog: ..., 这个码说明啥")."""
    if index.codebook is None or index.linker is None or not asked.intents <= READ_FOR:
        return None
    asking = last_clause(asked.text)
    if index.linker.linked(asking, index.catalogue):
        return None
    known = {code.casefold() for code in index.error_codes}
    # a six-digit code is known by the code word before it, which may stand in the clause before
    written = [code for code in _written(asked.text) if _at_a_question_word(asking, code) or THIS_CODE.search(asking)]
    codes = [code for code in written if code.casefold() not in known][:MAX_CODES]
    said: list[str] = []
    cited: list[str] = []
    for code in codes:
        if (explained := explain_code(code, index.codebook)) is not None:
            said.append(f"`{code}` is not described in the knowledge base. By its structure, {explained.sentence}")
            cited += explained.citations[:1]
        elif index.codebook.acl and (read := acl_class_sentence(code, index.codebook.acl)):
            said.append(f"`{code}` is not described in the knowledge base. As an aclError, {read}")
            cited.append(index.codebook.acl.citation)
    if not said:
        return None
    mentioned = next((hit for _, hit in ranked if any(code in hit.passage.text for code in codes)), None)
    if mentioned is not None:
        said.append(f"**{mentioned.passage.title}** mentions it: " + passage_excerpt(mentioned, asked, index))
        cited.append(mentioned.passage.citation)
    return UnknownCodes("\n\n".join(said), tuple(dict.fromkeys(cited)))
