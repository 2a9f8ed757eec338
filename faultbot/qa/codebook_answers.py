"""Questions about how CANN error codes are built, answered from kb/codes.yaml: which module a
module character stands for (asked by the character, a prefix such as ``EIxxxx`` or ``EI codes``,
or a whole code), what the characters of a code are, what its number ranges mean, what a code of
a level tells (W codes, WE0001), what a torch_npu ERR code (ERR02200) reads as, and what class an
aclError's first digit gives it."""

from __future__ import annotations

import re

import msgspec

from ..engine.codes import read_return_code
from ..kb.model import CodeBook, Intent, ReturnCodes, WrapperCodes
from .tokens import words

# The module character a question points at: "letter I", "EIxxxx", "E*", "EI error codes", "EI0002".
_LETTER = re.compile(r"\bletter\s+['\"`]?([0-9A-Z])\b", re.ASCII)
_PREFIX = re.compile(r"\b[EWI]([0-9A-Z])(?:[xX*]{4}(?![\w*])|(?=\s+(?:error\s+)?codes?\b))", re.ASCII)
_CODE = re.compile(r"\b[EWI]([0-9A-Z])\d{4}\b", re.ASCII)
MODULE_WORD = "module"        # what a question about the reporting module says (after the synonyms)
_MODULE = re.compile(rf"\b{MODULE_WORD}\b", re.I | re.ASCII)
MAX_WORDS_APART = 4           # "which module reports EI0009", not "EI0009 ... check the fibre module"
CODE_WORDS = frozenset({"code", "码"})   # beside "error": the question is about error codes
# what each character of a code written means ("EL0004 每一位", "decode EL0004, each char"), in the
# vocabulary's word for it: asked of the code, not of its message
_CHARACTERS_ASKED = re.compile(r"\beach character\b", re.I)
_TORCH_NPU_CODE = re.compile(r"\bERR(\d{2})(\d{2,3})\b", re.ASCII)    # ERR02200; older torch_npu: ERR0105
# A CANN or ACL code written (beside an ERR code it says what failed: the ERR code only wraps it). A
# number right after a colon is a field's, such as the PID of torch_npu's "(PID:163686, Device:1, ...)".
CANN_OR_ACL_CODE = re.compile(r"\b[EWI][0-9A-Z]\d{4}\b|(?<![\w:])[1-5]\d{5}\b", re.ASCII)
# A question about the codes whose digits end or start a certain way ("9999 结尾的错误码", "后四位是9开头",
# "codes ending in 9999"): what their number class means.
_DIGITS_ASKED = re.compile(r"\b(?:ending|ends?)\s+(?:in|with)\b|\blast four digits\b|结尾|后四位|最后四位|后面四位", re.I)
# An aclError asked about by its first digit ("这种1开头的码是哪一类", "a 5-prefixed aclError", "2XXXXX vs
# 5XXXXX", "bucket them by their leading digit"): the question names the ACL or writes such a code.
_ACL_NAMED = re.compile(r"\bacl(?:error)?\b|(?<![\w:.])[1-5]\d{5}(?![\w.])", re.I | re.ASCII)
# "error code:507015" (torch_npu's ACL stream lines) writes a code after a colon, as no other field does
ACL_CODE = re.compile(r"(?:(?<=[cC]ode:)|(?<![\w:.]))([1-5])\d{5}(?![\w.])", re.ASCII)
_CLASS_ASKED = re.compile(r"\b[1-5]x{5}\b|\b[1-5]-?prefixed\b|\b(?:first|leading) digit|\bclass(?:es)?\b|\bbucket"
                          r"|第一位|首位|开头|哪一?类|什么类", re.I | re.ASCII)
# Codes asked about by their level letter ("W-prefixed cann codes", "W 开头的错误码", "W codes"), or a
# warning or information code written (WE0001): what a code of that level tells.
_LEVEL_ASKED = re.compile(r"(?<![\w-])([EWI])(?:-?prefixed\b|\s*开头|\s+(?:error\s+)?codes?\b)", re.ASCII)
_QUIET_CODE = re.compile(r"\b([WI])([0-9A-Z])\d{4}\b", re.ASCII)
# what an ERR code is asked about for: what it means, whether it is the cause, what to look at
READ_FOR = frozenset({Intent.MEANING, Intent.CAUSE, Intent.CHECK})


class CodeAnswer(msgspec.Struct, frozen=True):
    text: str                       # Markdown
    citations: tuple[str, ...]
    codes: tuple[str, ...] = ()     # the codes it reads that the question writes (507015 of "507015 算哪一类")


def _module_character(reworded: str) -> str:
    """The module character the question asks the module of: a letter, prefix or code written a
    few words from the word "module"."""
    for pattern in (_LETTER, _PREFIX, _CODE):
        found = pattern.search(reworded)
        if found:
            return found.group(1) if any(_near(reworded, found, module) for module in _MODULE.finditer(reworded)) else ""
    return ""


def _near(text: str, one: re.Match[str], other: re.Match[str]) -> bool:
    first, second = sorted((one, other), key=lambda found: found.start())
    return len(words(text[first.end():second.start()])) <= MAX_WORDS_APART


def _structure(codebook: CodeBook) -> str:
    levels = ", ".join(f"`{letter}` {name}" for letter, name in codebook.levels.items())
    modules = ", ".join(f"`{letter}` {name}" for letter, name in codebook.modules.items())
    return "\n".join(["A CANN error code is a level letter, a module character and four digits:",
                      f"- the level letter: {levels};", f"- the module character: {modules};",
                      "- the four digits: " + _classes(codebook)])


def _classes(codebook: CodeBook) -> str:
    return "; ".join(f"{c.first:04d}–{c.last:04d}, {c.name}: {c.meaning}" for c in codebook.classes) + "."


def _torch_npu_codes(codes: WrapperCodes, reworded: str) -> str:
    """What each torch_npu ERR code ``reworded`` writes reads as, when the table knows its parts."""
    lines = []
    for code, submodule, number in dict.fromkeys((m.group(0), m.group(1), m.group(2).zfill(3))
                                                 for m in _TORCH_NPU_CODE.finditer(reworded)):
        if submodule in codes.submodules and number in codes.codes:
            name, meaning = codes.submodules[submodule], codes.codes[number]
            lines.append(f"- `{code}` reads {name.split()[0]} {meaning}: submodule `{submodule}` is {name}, "
                         f"code `{number}` {meaning}.")
    if not lines:
        return ""
    return "\n".join(["torch_npu's ERR codes are ERR, a two-digit submodule and a code:", *lines, "",
                      f"Such a code says {codes.says}."])


def acl_class_sentence(code: str, codes: ReturnCodes) -> str | None:
    """What class the first digit of the aclError ``code`` gives it, None when the KB knows no such class."""
    reading = read_return_code(code, codes)
    return f"`{code}` is a class-{reading.code_class} code: {reading.meaning}." if reading else None


def _acl_classes(codes: ReturnCodes, reworded: str) -> str:
    """The aclError classes, those of the codes ``reworded`` writes said of them first."""
    written = list(dict.fromkeys(said for m in ACL_CODE.finditer(reworded)
                                 if (said := acl_class_sentence(m.group(0), codes))))
    classes = ";\n".join(f"- `{digit}XXXXX`: {meaning}" for digit, meaning in sorted(codes.classes.items()))
    unclassified = f"\n\nErrors the ACL layer cannot classify are all `{codes.unclassified}`." if codes.unclassified else ""
    said = f"An aclError return code's first digit gives its class:\n{classes}.{unclassified}"
    return "\n\n".join([*written, said])


def _levels_told(codebook: CodeBook, reworded: str) -> str:
    """What the codes ``reworded`` asks about by their level letter, or the warning and information
    codes it writes, tell by their level ("" when it does neither, or the KB notes no such level)."""
    said = [f"`{m.group(0)}` is a **{codebook.levels[m.group(1)]}** ({m.group(1)})"
            + (f" from **{codebook.modules[m.group(2)]}** ({m.group(2)})" if m.group(2) in codebook.modules else "")
            + f": {codebook.level_notes[m.group(1)]}."
            for m in _QUIET_CODE.finditer(reworded) if m.group(1) in codebook.level_notes]
    said += [f"`{letter}` codes are **{codebook.levels[letter]}s**: {codebook.level_notes[letter]}."
             for letter in (m.group(1) for m in _LEVEL_ASKED.finditer(reworded)) if letter in codebook.level_notes]
    return "\n\n".join(dict.fromkeys(said))


def code_answer(codebook: CodeBook | None, reworded: str, intents: frozenset[Intent]) -> CodeAnswer | None:
    """The answer from the error-code structure, when ``reworded`` (a question in the articles' words)
    asks which module a code's module character is, or how error codes are built or numbered."""
    if codebook is None:
        return None
    if (codebook.torch_npu and intents <= READ_FOR and not CANN_OR_ACL_CODE.search(reworded)
            and (read := _torch_npu_codes(codebook.torch_npu, reworded))):
        return CodeAnswer(read, (codebook.torch_npu.citation,))
    if codebook.acl and _ACL_NAMED.search(reworded) and _CLASS_ASKED.search(reworded):
        written = tuple(dict.fromkeys(m.group(0) for m in ACL_CODE.finditer(reworded)))
        return CodeAnswer(_acl_classes(codebook.acl, reworded), (codebook.acl.citation,), written)
    said = set(words(reworded))
    parts_asked = bool(intents & {Intent.CONSISTS_OF, Intent.RANGE}) or _DIGITS_ASKED.search(reworded) is not None
    if MODULE_WORD not in said and not parts_asked and (told := _levels_told(codebook, reworded)):
        return CodeAnswer(told, codebook.citations)
    character = _module_character(reworded)
    if MODULE_WORD in said and character in codebook.modules:
        text = (f"The second character of a CANN error code names the module that reports it: "
                f"`{character}` is {codebook.modules[character]}.")
    elif Intent.CONSISTS_OF in intents and ("error" in said and said & CODE_WORDS
                                            or _CODE.search(reworded) and _CHARACTERS_ASKED.search(reworded)):
        text = _structure(codebook)
    elif "error" in said and said & CODE_WORDS and (Intent.RANGE in intents or _DIGITS_ASKED.search(reworded)):
        text = "The four digits of a CANN error code give its class: " + _classes(codebook)
    else:
        return None
    return CodeAnswer(text, codebook.citations)
