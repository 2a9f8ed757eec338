"""Which known things a question names. A name is matched by its words (in the articles' words,
inflections folded), in any order within a window one word longer than the name; a longer name
found wins over a shorter one it contains (``error cqe status`` over ``error cqe``); a name of words
run together (HeartbeatAbnormal) is also found written apart. A name that is
one plain word (``status``, ``Notify``) counts only beside a word of the titles it is defined under,
and a name most passages write (HCCL) only when nothing more particular is named."""

from __future__ import annotations

import re
from collections.abc import Callable

import msgspec

from .question import without_absent_names
from .rewording import NAME
from .things import Catalogue
from .tokens import is_cjk, words

GENERIC_SHARE = 0.15       # a one-word name in more of the passages than this names nothing particular
DISTINCTIVE_PASSAGES = 3   # a word of a name written in at most this many passages can name it alone ...
MIN_DISTINCTIVE_CHARS = 4  # ... when it is a word this long
_CAMEL_NAME = re.compile(r"[A-Z][a-z]+(?:[A-Z][a-z]+)+")     # words run together, each capitalised
_CAMEL_PARTS = re.compile(r"(?<=[a-z])(?=[A-Z])")
_MARKED_NAME = re.compile(NAME.pattern + r"|^[A-Z][A-Z0-9]+$|^\d{5,}$|[^\w\s]", re.ASCII)


class _Name(msgspec.Struct, frozen=True):
    words: tuple[str, ...]
    thing: int
    needs_context: bool        # one plain word: meant only beside a word of its titles


def _is_specific(name: str) -> bool:
    return len(name.split()) > 1 or is_cjk(name) or bool(_MARKED_NAME.search(name))


def _within_window(name: tuple[str, ...], said: list[str]) -> tuple[int, int] | None:
    """The first span of ``said`` at most one word longer than ``name`` holding all its words."""
    width = len(name) + (1 if len(name) > 1 else 0)
    wanted = set(name)
    for start in range(len(said)):
        if said[start] in wanted and wanted <= set(said[start:start + width]):
            return start, start + width
    return None


def _distinctive_words(names: list[_Name], document_frequency: dict[str, int]) -> list[_Name]:
    """A name of several words is also named by the one word of it that no other name holds and
    hardly any passage writes ("the informer" for ``informer rank``, "the watchdog" for ``torch_npu
    watchdog forms``); such a word counts, like a plain word, only beside a word of its titles."""
    holders: dict[str, set[int]] = {}
    for name in names:
        for word in name.words:
            holders.setdefault(word, set()).add(name.thing)
    found = []
    for name in names:
        distinctive = [w for w in name.words if len(holders[w]) == 1 and w.isalpha() and len(w) >= MIN_DISTINCTIVE_CHARS
                       and document_frequency.get(w, 0) <= DISTINCTIVE_PASSAGES]
        valued = any(c.isdigit() for word in name.words for c in word)    # errNo[0x05010009]: one value's, not errNo's
        if len(name.words) > 1 and len(distinctive) == 1 and not valued:
            found.append(_Name((distinctive[0],), name.thing, True))
    return list({(n.words, n.thing): n for n in found}.values())


class Linker(msgspec.Struct, frozen=True):
    names: tuple[_Name, ...]
    by_word: dict[str, tuple[int, ...]]       # a word -> the names holding it
    generic: frozenset[int]                   # things named only by words most passages write
    called: tuple[tuple[frozenset[str], ...], ...]   # per thing, the words of each name, the main one first

    @classmethod
    def of(cls, catalogue: Catalogue, key: Callable[[str], str], document_frequency: dict[str, int],
           documents: int) -> Linker:
        """``key`` says a name in the articles' words, as a question is matched."""
        names: list[_Name] = []
        generic = set()
        called = []
        for number, thing in enumerate(catalogue.things):
            keys = [(tuple(key(name).split()), name) for name in thing.names]
            called.append(tuple(frozenset(said) for said, _ in keys))
            for said, name in dict(reversed(keys)).items():
                if said:
                    names.append(_Name(said, number, not _is_specific(name)))
                apart = tuple(key(_CAMEL_PARTS.sub(" ", name)).split()) if _CAMEL_NAME.fullmatch(name) else ()
                if len(apart) > 1:     # HeartbeatAbnormal, written as "heartbeat abnormal"
                    names.append(_Name(apart, number, False))
            if all(len(said) == 1 and document_frequency.get(said[0], 0) > GENERIC_SHARE * documents
                   for said, _ in keys if said):
                generic.add(number)
        names += _distinctive_words(names, document_frequency)
        by_word: dict[str, list[int]] = {}
        for position, name in enumerate(names):
            for word in set(name.words):
                by_word.setdefault(word, []).append(position)
        return cls(tuple(names), {w: tuple(p) for w, p in by_word.items()}, frozenset(generic), tuple(called))

    def linked(self, reworded: str, catalogue: Catalogue,
               among: Callable[[int], bool] = lambda thing: True) -> list[int]:
        """The things ``reworded`` (a question in the articles' words) names, of those ``among`` keeps
        (the ones that answer what it asks), in the order it names them."""
        said = words(without_absent_names(reworded), gaps=True)
        present = set(said) - {""}
        candidates = {p for word in present for p in self.by_word.get(word, ())}
        found: list[tuple[tuple[int, int], _Name]] = []
        for position in candidates:
            name = self.names[position]
            span = _within_window(name.words, said) if set(name.words) <= present else None
            if span is None:
                continue
            if not among(name.thing) or (
                    name.needs_context and not (catalogue.things[name.thing].context - set(name.words)) & present):
                continue
            found.append((span, name))
        kept = [(span, name) for span, name in found
                if not any(set(name.words) < set(other.words) and other.thing != name.thing for _, other in found)]
        things = list(dict.fromkeys(name.thing for _, name in sorted(kept, key=lambda pair: pair[0])))
        particular = [t for t in things if t not in self.generic]
        return particular or things
