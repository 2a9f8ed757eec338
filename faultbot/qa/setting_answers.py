"""A setting's documented values as an answer: the kinds asked for (default, range, unit, what
it controls, values with a meaning of their own), the values for the products or modes the
question names first, earlier releases last, each group with the sections that state it."""

from __future__ import annotations

from collections.abc import Iterable

from ..kb.model import Intent, Setting, SettingValue
from .things import SETTING_INTENTS
from .tokens import words

LABELS = {"meaning": "what it does", "special": "values with a meaning of their own"}
HEADED = frozenset(LABELS)     # kinds listed under a heading; defaults and ranges say what they are
ORDER = ("default", "range", "unit", "meaning", "special")    # said in this order, under the name


def _where(value: SettingValue) -> str:
    """Where a value holds: the product, then its modes in brackets."""
    if not value.when:
        return ""
    product, modes = value.when[0], value.when[1:]
    return product + (f" ({', '.join(modes)})" if modes else "")


def _fit(value: SettingValue, said: set[str], shared: set[str]) -> int:
    """How many words the question shares with where ``value`` holds, besides words every value has."""
    return len({w for part in value.when for w in words(part)} & said - shared)


def _ordered(values: tuple[SettingValue, ...], said: set[str]) -> list[SettingValue]:
    current = [v for v in values if not v.release]
    per_value = [{w for part in v.when for w in words(part)} for v in current]
    shared = set.intersection(*per_value) if per_value else set()
    return sorted(current, key=lambda v: -_fit(v, said, shared)) + [v for v in values if v.release]


def _lines(kind: str, values: list[SettingValue]) -> list[str]:
    """One line per value (said as the articles say it: "default 1836", "range [120, 7200]"), with
    where it holds; a value that holds in several places is said once."""
    label = {"default": "default ", "range": "range "}.get(kind, "")
    grouped: dict[tuple[str, str, bool], list[str]] = {}
    for value in values:
        grouped.setdefault((value.value, value.means, bool(value.release)), []).append(value.release or _where(value))
    lines = []
    for (value, means, earlier), wheres in grouped.items():
        said = label + value + (f" — {means}" if means else "")
        if earlier:
            lines.append(f"- {said} in {' and '.join(wheres)} (an earlier release)")
        else:
            where = "; ".join(w for w in wheres if w)
            lines.append(f"- {said}" + (f": {where}" if where else ""))
    return lines


def _kinds(intents: Iterable[Intent]) -> list[str]:
    wanted = {kind for intent in intents for kind in SETTING_INTENTS.get(intent, ())}
    return [kind for kind in ORDER if kind in wanted]


def setting_answer(setting: Setting, intents: frozenset[Intent], question: str) -> tuple[str, tuple[str, ...]]:
    """The Markdown answer about ``setting`` for ``intents``, and the sections it cites, first
    the ones stating the values for what ``question`` names."""
    said = set(words(question))
    kinds = _kinds(intents)
    unit = setting.of("unit")
    parts = [f"**`{setting.name}`**" + (f", unit: {unit[0].value}" if unit and "unit" in kinds else "")]
    cited: list[str] = []
    for kind in kinds:
        if kind == "unit":
            continue
        values = _ordered(setting.of(kind), said)
        if values:
            parts += ([f"\n{LABELS[kind].capitalize()}:"] if kind in HEADED else []) + _lines(kind, values)
            cited += [v.citation for v in values]
    if unit and "unit" in kinds:
        cited.append(unit[0].citation)
    return "\n".join(parts), tuple(dict.fromkeys(cited))
