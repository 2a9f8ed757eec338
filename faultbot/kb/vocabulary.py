"""Reading ``kb/vocabulary.yaml``: the words questions are asked with, said in the articles' words
(synonym groups, the Chinese glossary among them) and the phrases that say what a question asks
for (its intent). Data, so contributors extend it by pull request and ``kb lint`` checks it."""

from __future__ import annotations

from typing import Any

from .control_chars import first_control
from .fields import Fields, Problems
from .model import Intent, SynonymGroup, Vocabulary

VOCABULARY_FILE = "vocabulary.yaml"
VOCABULARY_FIELDS = ("synonyms", "intents", "out_of_scope", "unstated", "context")
MAX_PHRASE_CHARS = 60


def _phrases(raw: Any, line: int, what: str, problems: Problems) -> tuple[str, ...]:
    if not isinstance(raw, list) or not raw:
        problems.add(line, f"{what} must be a non-empty list of phrases")
        return ()
    phrases = []
    for item in raw:
        text = str(item).strip() if isinstance(item, (str, int, float)) and not isinstance(item, bool) else ""
        if not text:
            problems.add(line, f"{what}: {item!r} is not a phrase", "write words, e.g. 'work around'")
        elif first_control(text) is not None or "\n" in text or "\t" in text:
            problems.add(line, f"{what}: {text!r} holds a control character", "remove it")
        elif len(text) > MAX_PHRASE_CHARS:
            problems.add(line, f"{what}: a phrase of {len(text)} characters", f"keep phrases under {MAX_PHRASE_CHARS}")
        else:
            phrases.append(text)
    return tuple(phrases)


def parse_vocabulary(raw: Any, problems: Problems) -> Vocabulary:
    fields = Fields(raw, "the vocabulary", problems, 1, VOCABULARY_FIELDS)
    groups: list[SynonymGroup] = []
    group_of: dict[str, str] = {}
    for line, item in fields.items("synonyms", required=True, min_items=1):
        phrases = _phrases(item, line, "a synonym group", problems)
        if len(phrases) < 2:
            if phrases:
                problems.add(line, "a synonym group needs the articles' word and at least one other")
            continue
        for phrase in phrases:
            key = phrase.casefold()
            if key in group_of:
                problems.add(line, f"'{phrase}' is already in the group of '{group_of[key]}'",
                             "a phrase belongs to one group: merge the groups or drop it")
            group_of[key] = phrases[0]
        groups.append(SynonymGroup(phrases[0], phrases[1:]))
    intents: list[tuple[Intent, tuple[str, ...]]] = []
    known = {intent.value: intent for intent in Intent}
    mapping = fields.mapping_of("intents", required=True)
    for name, cues in mapping.items():
        line = mapping.line_of(name)
        if name not in known:
            problems.add(line, f"unknown intent '{name}'", f"use one of: {', '.join(known)}")
            continue
        intents.append((known[name], _phrases(cues, line, f"intent '{name}'", problems)))
    out_of_scope, unstated, context = (_phrases(fields.raw(name), fields.line_of(name), name, problems)
                                       if fields.has(name) else () for name in ("out_of_scope", "unstated", "context"))
    return Vocabulary(tuple(groups), tuple(intents), out_of_scope, unstated, context)
