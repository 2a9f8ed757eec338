"""A question said in the articles' words before it is searched: full-width punctuation as ASCII,
every phrase of a synonym group (kb/vocabulary.yaml) as the group's word, and a name typed with
a typo (HCCL_EXEC_TIMOUT) as the name the knowledge base holds."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

import msgspec

from ..fullwidth import as_ascii_punctuation
from ..kb.model import Intent, Vocabulary
from ..literal_trie import any_of
from .tokens import is_cjk, words

# A name: an environment variable, an error code, a CamelCase kernel (what a typo can be fixed in).
NAME = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b|\b[A-Za-z][A-Za-z0-9]\d{4}\b|\b[A-Z][a-z]+[A-Z]\w*\b", re.ASCII)
_WORD = re.compile(r"(?<![\w-])[A-Za-z]+(?![\w-])", re.ASCII)
MIN_TYPO_WORD = 6            # shorter words are too close to each other to guess a typo in ...
MIN_SWAP_WORD = 5            # ... except two letters swapped (casue), in words this long
MIN_TYPO_PART = 4            # shorter parts of a name (ip, id, 0002) differ by design, not by typos
LONG_PART = 8                # a part this long may hold two typos
_ENDINGS = ("ing", "ed", "er", "or", "es", "s")   # a known word with one of these is a word too
MIN_BASE = 3
# A duration written with its unit's symbol ("30 s", "10s", "2 ms") read as the word a question
# asks with ("how many seconds"); a symbol only counts right after a number.
_UNIT_SYMBOL = re.compile(r"(?<=\d)\s?(ms|s|min)\b", re.ASCII)
_ASCII_WORD = r"[A-Za-z0-9_\-]"
_UNIT_WORD = {"s": "seconds", "ms": "milliseconds", "min": "minutes"}


def _alternation(phrases: list[str]) -> re.Pattern[str] | None:
    """One pattern finding any of ``phrases`` (literals, longest first, any case): English ones as
    whole words, Chinese ones wherever they occur. A whole English word ends at anything but a
    letter, digit, ``_`` or ``-``: also at a Chinese character (comm的allreduce), a word character to ``re``."""
    if not phrases:
        return None
    said = sorted({p.casefold() for p in phrases})
    english, chinese = [p for p in said if not is_cjk(p)], [p for p in said if is_cjk(p)]
    parts = [rf"(?<!{_ASCII_WORD})(?:{any_of(english)})(?!{_ASCII_WORD})"] if english else []
    parts += [any_of(chinese)] if chinese else []
    return re.compile("|".join(parts), re.IGNORECASE)


def _stack_names(stacks: list[str]) -> re.Pattern[str] | None:
    """Other vendors' stacks named alone or opening a name of theirs (NCCL, NCCL_SOCKET_FAMILY)."""
    if not stacks:
        return None
    return re.compile(rf"(?<!{_ASCII_WORD})(?:{any_of(sorted({s.casefold() for s in stacks}))})(?=_|(?!{_ASCII_WORD}))",
                      re.IGNORECASE)


def _shape(parts: list[str]) -> tuple[int, str]:
    """The parts of a name a typo never changes: how many, and the first of several (its product)."""
    return len(parts), parts[0] if len(parts) > 1 else ""


def _parts_close(typed: list[str], known: list[str]) -> bool:
    from rapidfuzz.distance import Levenshtein

    if len(typed) != len(known) or typed == known or (len(typed) > 1 and typed[0] != known[0]):
        return False    # the first part of a name is its product (HCCL_ / NCCL_): never a typo
    for mine, theirs in zip(typed, known):
        if mine == theirs:
            continue
        if min(len(mine), len(theirs)) < MIN_TYPO_PART or any(c.isdigit() for c in mine + theirs):
            return False
        if Levenshtein.distance(mine, theirs) > (2 if len(theirs) >= LONG_PART else 1):
            return False
    return True


def _found(pattern: re.Pattern[str] | None, text: str) -> frozenset[str]:
    """What ``pattern`` finds in ``text``, case-folded."""
    return frozenset(said.casefold() for said in pattern.findall(text)) if pattern is not None else frozenset()


def known_names(texts: Iterable[str]) -> tuple[str, ...]:
    """The names ``texts`` write (HCCL_EXEC_TIMEOUT, LcalAllReduce, EI0002), once each."""
    return tuple(sorted({name for text in texts for name in NAME.findall(text)}))


class Rewording(msgspec.Struct, frozen=True, dict=True):  # dict: room for the cached properties
    """The vocabulary compiled for questions, with the names the knowledge base knows."""

    canonical: dict[str, str]                 # a phrase, case-folded -> its group's word
    synonyms: re.Pattern[str] | None
    intent_cues: tuple[tuple[Intent, re.Pattern[str]], ...]
    names: tuple[str, ...]                    # known names, as the KB writes them
    words: tuple[str, ...] = ()               # known plain words (lower case), for typos in them
    out_of_scope: re.Pattern[str] | None = None   # other vendors' stacks (NCCL, CUDA)
    stems: frozenset[str] = frozenset()       # the search words of the known words (leading: lead)
    unstated: re.Pattern[str] | None = None   # asks for what the articles never state (throughput, 功耗)
    context: re.Pattern[str] | None = None    # where a job ran (MindIE, k8s): not what a way of asking asks

    @classmethod
    def of(cls, vocabulary: Vocabulary, texts: Iterable[str]) -> Rewording:
        texts = list(texts)
        canonical = {said.casefold(): group.canonical for group in vocabulary.synonyms for said in group.said_as}
        cues = tuple((intent, pattern) for intent, phrases in vocabulary.intents
                     if (pattern := _alternation(list(phrases))) is not None)
        known = {w.lower() for text in texts for w in _WORD.findall(text)}
        known.update(w.lower() for group in vocabulary.synonyms for p in (group.canonical, *group.said_as)
                     for w in _WORD.findall(p))
        return cls(canonical, _alternation(list(canonical)), cues, known_names(texts), tuple(sorted(known)),
                   _stack_names(list(vocabulary.out_of_scope)), frozenset(words(" ".join(known))),
                   _alternation(list(vocabulary.unstated)), _alternation(list(vocabulary.context)))

    def _known_word(self, typed: str) -> str:
        """The known word ``typed`` misspells (heartbeart, defualt, retransmision): one typo away (two
        adjacent letters swapped count as one), two in long words, with the same first letter (a
        typo there is rare, and a word one letter off at its start is more often another word:
        folder, older); in words of MIN_SWAP_WORD letters only a swap (casue), and shorter words
        are left as they are. Nor is a word another form of a known one (leading, of lead: not
        loading; worker, of work: not worked), unless the known word is one of its forms too
        (occured: occurred)."""
        lowered = typed.lower()
        if len(lowered) < MIN_SWAP_WORD or lowered in self._word_set or self._theirs(typed):
            return typed
        from rapidfuzz import process
        from rapidfuzz.distance import OSA

        limit = 2 if len(lowered) >= LONG_PART + 1 else 1
        choices = (self._by_first_letter.get(lowered[0], ()) if len(lowered) >= MIN_TYPO_WORD
                   else self._anagrams.get("".join(sorted(lowered)), ()))
        found = process.extractOne(lowered, choices, scorer=OSA.distance, score_cutoff=limit)
        if not found or ((set(words(lowered)) & self.stems or self._inflected(lowered)) and words(found[0]) != words(lowered)):
            return typed
        return found[0]

    def _inflected(self, lowered: str) -> bool:
        """``lowered`` is a known word with an ending (worker, compiler, controlled): a word of its
        own, perhaps a letter away from another known one (worked, compile, controller)."""
        for ending in _ENDINGS:
            base = lowered[:-len(ending)]
            if lowered.endswith(ending) and len(base) >= MIN_BASE and (
                    base in self._word_set or base + "e" in self._word_set
                    or (len(base) > MIN_BASE and base[-1] == base[-2] and base[:-1] in self._word_set)):
                return True
        return False

    def _theirs(self, typed: str) -> bool:
        """``typed`` is another vendor's name (WorkNCCL, NCCL_SOCKET_IFNAME, cudnn): never a typo of
        one of ours (WorkHCCL)."""
        return self.out_of_scope is not None and self.out_of_scope.match(typed) is not None

    @functools.cached_property
    def _by_first_letter(self) -> dict[str, tuple[str, ...]]:
        found: dict[str, list[str]] = {}
        for word in self.words:
            found.setdefault(word[:1], []).append(word)
        return {letter: tuple(words) for letter, words in found.items()}

    @functools.cached_property
    def _anagrams(self) -> dict[str, tuple[str, ...]]:
        """The known short words by their letters: a swap of two letters keeps them."""
        found: dict[str, list[str]] = {}
        for word in self.words:
            if len(word) < MIN_TYPO_WORD:
                found.setdefault("".join(sorted(word)), []).append(word)
        return {letters: tuple(words) for letters, words in found.items()}

    @functools.cached_property
    def _word_set(self) -> frozenset[str]:
        return frozenset(self.words)

    def _known_name(self, typed: str) -> str:
        """The known name ``typed`` misspells, if exactly one: part by part (split at ``_``), each
        part equal or, when both are MIN_TYPO_PART letters or more, one typo away (two in long
        parts). Short parts differ by design (device_ip / device_id), as do codes (EI0002 / EI0012)."""
        if typed.upper() in self._upper_names or self._theirs(typed):
            return typed
        parts = typed.upper().split("_")
        close = {name for name, known in self._names_shaped.get(_shape(parts), ()) if _parts_close(parts, known)}
        return close.pop() if len(close) == 1 else typed

    @functools.cached_property
    def _upper_names(self) -> frozenset[str]:
        return frozenset(name.upper() for name in self.names)

    @functools.cached_property
    def _names_shaped(self) -> dict[tuple[int, str], list[tuple[str, list[str]]]]:
        """The known names, split into parts, by ``_shape``: only names of a typed name's shape can be
        what it misspells (a paste of thousands of names is read at once)."""
        found: dict[tuple[int, str], list[tuple[str, list[str]]]] = {}
        for name in self.names:
            parts = name.upper().split("_")
            found.setdefault(_shape(parts), []).append((name, parts))
        return found

    def reword(self, question: str) -> str:
        """``question`` in the articles' words."""
        text = as_ascii_punctuation(question)
        said: dict[str, str] = {}     # a name pasted a thousand times is looked up once
        text = NAME.sub(lambda m: said.get(m.group()) or said.setdefault(m.group(), self._known_name(m.group())), text)
        words: dict[str, str] = {}
        text = _WORD.sub(lambda m: words.get(m.group()) or words.setdefault(m.group(), self._known_word(m.group())), text)
        return self.said_canonically(text)

    def said_canonically(self, text: str) -> str:
        """``text`` with every phrase of a synonym group as the group's word: how the knowledge's own
        text is searched, so that "time out" there meets "timeout" in a question."""
        text = " ".join(as_ascii_punctuation(text).split())
        text = _UNIT_SYMBOL.sub(lambda m: f" {_UNIT_WORD[m.group(1)]}", text)
        if self.synonyms is not None:
            text = self.synonyms.sub(lambda m: f" {self.canonical[m.group().casefold()]} ", text)
        return " ".join(text.split())

    def foreign(self, text: str) -> frozenset[str]:
        """The other vendors' stacks ``text`` names, case-folded."""
        return _found(self.out_of_scope, text)

    def without_context(self, text: str) -> str:
        """``text`` without the words that say where a job ran (a ticket-style way of asking's setting)."""
        return self.context.sub(" ", text) if self.context is not None else text

    def unstated_asks(self, text: str) -> frozenset[str]:
        """What ``text`` asks for that the articles never state (a speed, a price), case-folded."""
        return _found(self.unstated, text)

    def intents(self, reworded: str) -> frozenset[Intent]:
        """What the (reworded) question asks for."""
        return frozenset(intent for intent, cue in self.intent_cues if cue.search(reworded))

    def without_cues(self, reworded: str) -> str:
        """The (reworded) text without the phrases that say what it asks for: what it is about."""
        for _, cue in self.intent_cues:
            reworded = cue.sub(" ", reworded)
        return reworded
