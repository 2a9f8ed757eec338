"""A mask is skipped on a text lacking a character every match of it holds, or holding it fewer times
than every match does (faultbot/match/masking.py): masking gives what applying every mask in turn gives."""

from __future__ import annotations

import random

from faultbot.match.masking import Masker, _needed

from ..ingest.helpers import DATA


def _every_mask(masker: Masker, text: str) -> str:
    for pattern, token, *_ in masker._masks:
        text = pattern.sub(token, text)
    return " ".join(text.split())


def test_masking_skips_only_masks_that_cannot_match(kb) -> None:
    masker = Masker(kb.masks)
    rng = random.Random(3)
    texts = [line for seed in sorted((DATA / "seed").glob("*.log")) for line in seed.read_text(encoding="utf-8").splitlines()]
    texts += [symptom.signature for entry in kb.entries for symptom in entry.symptoms if symptom.signature]
    alphabet = "0123456789abcdefx./-:,() <>*%TZ+[]MonJanFri..::"
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 60))) for _ in range(5000)]
    assert all(masker.mask(text) == _every_mask(masker, text) for text in texts)
    assert sum(masker.mask(text) != text for text in texts) > 1000


def test_what_a_match_needs() -> None:
    assert _needed(r"(?<=\()\d+(?=,)") == (frozenset("(,"), (), ())
    assert _needed(r"(?<![\w/])(?:/[\w.@+*-]{1,80}){2,}") == (frozenset("/"), (), (("/", 2),))
    assert _needed(r"\d{4}[-/]\d{2}") == (frozenset(), (frozenset("-/"),), ())
    assert _needed(r"\d:\d{2}(?:[.]\d+){3}") == (frozenset(":."), (), ((".", 3),))
    assert _needed(r"(?=\w*x)x\w*x") == (frozenset("x"), (), (("x", 2),))     # the lookahead's x may be the first
    assert _needed(r"(?i)abc") == (frozenset(), (), ())
    assert _needed(r"a?b|c") == (frozenset(), (), ())
