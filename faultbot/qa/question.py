"""A question as the answering reads it: its words in the articles' words and how much each
counts, what it asks for (a default, a cause ...), the names it asks about, and what makes a
sentence answer it beyond its words (the default value of the variable it names, "X is" for a
what-is, a command or a variable to set for a how-to, quoted log text for what identifies something)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import msgspec

from ..kb.model import Intent
from .log_examples import Quote
from .sentences import Sentence
from .tokens import query_terms, tokenize

if TYPE_CHECKING:
    from .index import KnowledgeIndex

_DEFAULT = re.compile(r"\bdefault|默认|缺省", re.I | re.ASCII)
_DEFAULT_TERM = "default"      # the word kb/vocabulary.yaml says "by default" and 默认 in
_DEFAULT_VALUE = re.compile(r"(?:\bdefault\w*|默认\w*|缺省)\D{0,24}\d", re.I)
# "the default is N" says it is the default; "default N" in passing may be another setting's.
_DEFAULT_IS = re.compile(r"(?:\bdefault\w*(?:\s+value)?\s*(?:is|of|=|:)|默认(?:值)?(?:为|是))[\s*`]*\d", re.I)
_HOW = re.compile(r"\b(how|commands?|enable|run|check|set|export|find|turn on|fix|workaround|avoid|solve|resolve"
                  r"|what (?:should|can|do) I do)\b"
                  r"|怎么|如何|怎样|开启|打开|设置|命令|查看|排查|解决|规避", re.I | re.ASCII)
_NAME = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[A-Z][A-Z0-9]{2,}\b|\b[A-Z][a-z]+[A-Z]\w*\b", re.ASCII)
_NOT_SUBJECTS = frozenset({"default", "the", "a", "an"})
_WHAT_IS = re.compile(r"^\s*what\s+(?:is|are|does)\s+(?:an?\s+|the\s+)?([\w.\-]+)"
                      r"|^\s*([\w.\-]+)\s*(?:是什么|是啥)", re.I)
_SETTING = re.compile(r"\b[A-Z][A-Z0-9]+(?:_[A-Z0-9]+)+\b", re.ASCII)    # an environment variable: what a how-to sets
# A count or an id of the asker's nodes, ranks or devices ("16 node", "rank 17" in the articles'
# words): their scale, not a value any passage states.
_ASKERS_NUMBER = re.compile(r"\b(\d+)\s*(?=(?:node|rank|device|npu|npus|gpu|gpus)\b)"
                            r"|\b(?:node|rank|device|npu)\s*(\d+)\b(?!\s*(?:s|seconds|minutes|mb|gb)\b)", re.I | re.ASCII)
# "rank2", "node3": a rank or a node written with its number glued on, as "rank 2" is
_GLUED_NUMBER = re.compile(r"\b(rank|node|device|npu|card)(\d+)(?:'s)?\b", re.I | re.ASCII)
# When the asker's pasted line was printed ("Thu Oct 23 17:25:58 2025", "2024-05-10-10:44:52.267"):
# never what is asked, and it matches the example lines of the articles by their dates alone.
_TIMESTAMP = re.compile(r"\b(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
                        r"\s+\d{1,2}\s+\d{1,2}:\d{2}:\d{2}\s+\d{4}\b"
                        r"|\b\d{4}-\d{2}-\d{2}[-T ]\d{1,2}:\d{2}:\d{2}(?:[.:]\d+)*|\b\d{1,2}:\d{2}:\d{2}(?:\.\d+)?\b")
# "the Ascend equivalent of CUDA_LAUNCH_BLOCKING": another vendor's name asks for what Ascend has instead
_COUNTERPART = re.compile(r"\b(?:equivalent|counterpart|analogu?e)\s+(?:of|to|for)\b|对应的|等价", re.I)
# A label or field of a pasted log line ("Reason: The Notify register ...", "Solution: 1. Check ...",
# "reason=vector core timeout"): what the line says it is, not what the question asks for.
_LOG_LABEL = re.compile(r"\b[A-Z][a-z]+\s?:(?=\s*\S)|\b[A-Za-z_]+=(?=\S)")
# log text quoted, words with a space between (a keyword, a line), not one identifier: what a signature ask wants
_QUOTED = re.compile(r"`[^`\n]*\w \w[^`\n]*`|“[^”\n]*\w \w[^”\n]*”|\"[^\"\n]*\w \w[^\"\n]*\"")


# Where a question's clauses end: it gives its context (a pasted line, what was set) and asks last.
_CLAUSE_END = re.compile(r"[,;:!?。，；：！？]+|\.(?=\s|$|[\u4e00-\u9fff])|\s[-—–]+\s")
# A clause that asks: a question word opening it ("what's" too, not "can't"), "how many", "mean" or "acronym" (是什么意思,
# 代表什么 reworded) or a Chinese one anywhere in it.
_ASKS = re.compile(r"^\s*(?:what|how|which|why|when|where|whether|who|is|are|does|do|can|could|should)\b(?!['’](?!s\b))"
                   r"|\bhow (?:many|much|long)\b|\bmean\b|\bacronym\b"
                   r"|多少|多大|多久|多长|什么|啥|吗|怎么|如何|哪|(?<!了)几|谁|是否|要不要|能不能",
                   re.IGNORECASE)


# A code or identifier the question says is absent ("no EI0002 anywhere", "日志里没有 EI0002") is
# not what it asks about: the fault it has instead is.
_ABSENT_NAME = re.compile(r"(?:\b(?i:no|not|without|never)\s+(?i:any\s+)?|(?:没有|没|无|并非|不是)\s*)"
                          r"(?:[A-Z][A-Z0-9]\d{4}|\d{6}|[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+|[A-Z][a-z]+[A-Z]\w*)\b", re.ASCII)


def without_absent_names(text: str) -> str:
    """``text`` without the codes and identifiers it says are absent, with the words saying so."""
    return _ABSENT_NAME.sub(" ", text)


def asking_words(clause: str) -> Iterator[re.Match[str]]:
    """Where ``clause`` asks: its question words (``_ASKS``)."""
    return _ASKS.finditer(clause)


def chars_from(span: tuple[int, int], text: str, name: str) -> int:
    """How many characters lie between the nearest place ``text`` writes ``name`` (any case) and
    ``span`` (a question word's); ``len(text)`` when it does not write it."""
    start, end = span
    places = (found.start() for found in re.finditer(re.escape(name), text, re.IGNORECASE))
    return min((min(abs(start - (at + len(name))), abs(at - end)) for at in places), default=len(text))


def last_clause(reworded: str) -> str:
    """Where a question that gives its context first (pasted lines, what was set) asks: from its
    first clause that asks (a question word, or a question mark after it) to its end, when some
    clause comes before it; else the whole question."""
    pieces = _CLAUSE_END.split(reworded)
    ends = _CLAUSE_END.findall(reworded) + [""]
    for position, (clause, end) in enumerate(zip(pieces, ends)):
        if _ASKS.search(clause) or "?" in end or "？" in end:
            if position == 0 or not "".join(pieces[position:]).strip(" ?？"):
                return reworded
            start = sum(len(piece) + len(mark) for piece, mark in zip(pieces[:position], ends[:position]))
            return reworded[start:].strip()
    return reworded


class Question(msgspec.Struct, frozen=True):
    text: str
    query: dict[str, float]       # its terms in the articles' words and how much each counts
    total: float
    subject: str                  # X of "what is X", lower case; "" otherwise
    names: tuple[str, ...]        # the names it asks about (HCCL_EXEC_TIMEOUT), lower case
    intents: frozenset[Intent]    # what it asks for (cause, workaround, default ...)
    quoted: Quote = Quote()       # the log line it quotes, and the sections showing it (log_examples.py)

    @classmethod
    def read(cls, text: str, index: KnowledgeIndex) -> Question:
        reworded = index.rewording.reword(text)
        # one the KB never writes (rank6; its examples write rank0) is the asker's
        spaced = _GLUED_NUMBER.sub(lambda m: m.group(0) if index.bm25.knows(f"{m.group(1)}{m.group(2)}".lower())
                                   else f"{m.group(1)} {m.group(2)}", reworded)
        query = query_terms(spaced, index.bm25.knows)
        for number in {a or b for a, b in _ASKERS_NUMBER.findall(spaced)}:
            query.pop(number, None)
        for stamp in _TIMESTAMP.findall(reworded):
            for term in query_terms(stamp):
                query.pop(term, None)
        what = _WHAT_IS.match(reworded)
        subject = next((g for g in what.groups() if g), "").lower() if what else ""
        names = tuple(n.lower() for n in _NAME.findall(reworded))
        asking = index.rewording.reword(_LOG_LABEL.sub(" ", text)) if _LOG_LABEL.search(text) else reworded
        return cls(reworded, query, index.bm25.total(query) or 1.0, "" if subject in _NOT_SUBJECTS else subject,
                   names, index.rewording.intents(last_clause(asking)), index.log_examples.quote(text))

    def counterpart(self, foreign: frozenset[str], index: KnowledgeIndex) -> Question | None:
        """The question about Ascend's counterpart of another vendor's name it asks an equivalent of
        (the ``foreign`` stacks, case-folded): each such name read as its words, the vendor's left
        out; None when it asks no equivalent."""
        if not foreign or not _COUNTERPART.search(self.text):
            return None
        named = [name for name in _NAME.findall(self.text) if any(stack in name.casefold() for stack in foreign)]
        dropped = {tokenize(name)[0] for name in named} | {token for stack in foreign for token in tokenize(stack)}
        parts = {token for name in named for token in tokenize(name)[1:]}
        query = {t: 1.0 if t in parts else b for t, b in self.query.items() if t not in dropped}
        return msgspec.structs.replace(self, query=query, total=index.bm25.total(query) or 1.0) if query else None

    def _names_default(self, sentence: Sentence, context: str) -> float:
        """Whether ``sentence`` gives a default value of what is asked about: "default" and a number
        close after it (1 when it says "the default is N", 0.5 otherwise), the name before them in
        the sentence or in what precedes it (its paragraph's earlier sentence, the title); of a
        question that names nothing, two of its other words there."""
        found = _DEFAULT_VALUE.search(sentence.text)
        if not found:
            return 0.0
        before = (context + " " + sentence.text[:found.start()]).lower()
        if self.names and not any(name in before for name in self.names):
            return 0.0
        # a question that names nothing ("which ports by default"): two of its other words
        others = self.query.keys() - {_DEFAULT_TERM}
        if not self.names and len(set(tokenize(before)) & others) < min(2, len(others)):
            return 0.0
        return 1.0 if _DEFAULT_IS.search(sentence.text) else 0.5

    def bonus(self, sentence: Sentence, holds_any: bool, context: str = "", choosing: bool = False) -> float:
        """What makes a sentence the answer beyond its words: the default value of X for a
        default, "X is" for a what-is, quoted log text for a signature and, once the passage is
        chosen, commands or a variable to set for a how-to. ``context``: the passage title and the sentence before it."""
        if not holds_any:
            return 0.0
        bonus = 0.0
        if _DEFAULT.search(self.text):
            bonus += self._names_default(sentence, context)
        if self.subject and re.search(rf"{re.escape(self.subject)}(?:\s*\([^)]*\))?\W*\s+(?:is|are|means|stands for)\b",
                                      sentence.text, re.I):
            bonus += 0.5
        if choosing and self.how_to and (sentence.commands or _SETTING.search(sentence.text)):
            bonus += 0.5
        if Intent.SIGNATURE in self.intents and _QUOTED.search(sentence.text):
            bonus += 0.5
        return bonus

    @property
    def how_to(self) -> bool:
        """It asks how to do something: commands and variables to set answer it."""
        return _HOW.search(self.text) is not None
