"""What an article heading names and what it answers about it: "Causes of SDMA ERROR" gives the
causes of SDMA ERROR, "SDMA ERROR (EI0012)" is the section of SDMA ERROR alias EI0012, "Root
cause" gives the cause of whatever the section above it (or the article) is about, and a heading
that is neither ("Heartbeat abnormal events in the run log") says nothing this can use."""

from __future__ import annotations

import re

import msgspec

from ..kb.model import Intent
from .rewording import NAME, Rewording
from .tokens import words

MAX_PHRASE_WORDS = 4
_PAREN = re.compile(r"\(([^()]*)\)")
_ALIAS = re.compile(NAME.pattern + r"|\b\d{6}\b", re.ASCII)          # a code, a variable or a six-digit ACL code
_CAPS_RUN = re.compile(r"\b[A-Z][A-Z0-9]+(?:\s+[A-Z][A-Z0-9]+)*\b", re.ASCII)
_SPLIT = re.compile(r"\s+[—–]\s+|:\s+")
# A heading that opens like this describes (How codes are printed, Reading the fields, The three
# line forms); one that names a thing opens with the thing (Notify wait timeout, Module letter).
_DESCRIBES = re.compile(r"^(?:how|what|when|where|why|which|who|the|a|an|some|\w+ing|\d)\b", re.I)


class Heading(msgspec.Struct, frozen=True):
    names: tuple[str, ...]        # the things it names; empty: those of the section above it or the article
    intents: frozenset[Intent]    # what the section answers about them; MEANING for a thing's own section
    usable: bool                  # False: the heading names something too particular to answer for
    loose: bool = False           # it asks with words besides ("Causes named by the reference")


_UNUSABLE = Heading((), frozenset(), False)


def _caps_and_names(text: str) -> list[str]:
    """The names a heading writes: runs of capitals (SDMA ERROR, ERROR CQE), codes, variables."""
    return list(dict.fromkeys([m for m in _CAPS_RUN.findall(text) if len(m) > 2 or " " in m] + NAME.findall(text)))


def _names_a_thing(bare: str, rest: list[str]) -> bool:
    """A short heading that opens with what it names (Notify wait timeout, Module letter), not
    with words that describe (How codes are printed): one word only when it is a name (EJ0001), or
    a word in lower case (msaicerr): the articles capitalise headings but for names written so."""
    one_name = bool(NAME.fullmatch(bare) or _CAPS_RUN.fullmatch(bare) or re.fullmatch(r"[a-z][a-z0-9_.-]+", bare))
    return (0 < len(rest) <= MAX_PHRASE_WORDS and len(bare.split()) <= MAX_PHRASE_WORDS + 1
            and not _DESCRIBES.match(bare) and (len(rest) > 1 or one_name))


def read_heading(title: str, rewording: Rewording) -> Heading:
    """What ``title`` names and answers: a heading asking about a name ("Causes of SDMA ERROR"), or
    about what the section above is about ("Root cause"), or naming a thing ("SDMA ERROR (EI0012)",
    "EL0001 — device absent"), whose section says what it is."""
    aliases = [alias for group in _PAREN.findall(title) for alias in _ALIAS.findall(group)]
    bare = " ".join(_PAREN.sub(" ", title).split())
    reworded = rewording.reword(bare)
    intents = rewording.intents(reworded)
    rest = words(rewording.without_cues(reworded))
    if intents:
        if not rest:
            return Heading(tuple(aliases), intents, True)
        named = _caps_and_names(bare)
        if named and words(" ".join(named)) == rest:
            return Heading(tuple(named + aliases), intents, True)
        return Heading(tuple(aliases), intents, True, loose=True) if not named else _UNUSABLE
    parts = _SPLIT.split(bare)
    if len(parts) > 1:
        head = parts[0].strip()
        return Heading((head, *aliases), frozenset({Intent.MEANING}), True) if NAME.fullmatch(head) else _UNUSABLE
    if _names_a_thing(bare, rest):
        return Heading((bare, *aliases), frozenset({Intent.MEANING}), True)
    return _UNUSABLE


def article_subject(title: str) -> tuple[str, ...]:
    """What an article is about when its title opens with one name ("EI0002 (Communication_Error_Timeout)
    — ...", "HCCL_EXEC_TIMEOUT — ...", "LcalAllReduce errors ..."): that name and its aliases."""
    head = _SPLIT.split(title, maxsplit=1)[0]
    named = NAME.findall(_PAREN.sub(" ", head))
    if len(named) != 1:
        return ()
    return (named[0], *(alias for group in _PAREN.findall(head) for alias in _ALIAS.findall(group)))


def article_definition(title: str) -> str:
    """What an article's title says its subject is: the subject and the first clause after it
    ("EI0006 (Communication_Error_Get_Socket) — HCCL link-setup socket timeout", not the rest of
    "..., the peer checks, TLS mismatch ..." that lists what the article covers); "" when the
    title does not open with the subject alone ("LcalAllReduce errors ... — root cause and fixes")."""
    head, dash, rest = title.partition(" — ")
    if not dash or len(_PAREN.sub(" ", head).split()) != 1:
        return ""
    depth = 0
    for at, char in enumerate(rest):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and char in ",;:":
            rest = rest[:at]
            break
    return f"{head}{dash}{rest}".strip()
