"""Reading ``kb/settings.yaml``: the environment variables questions ask about, with their
documented meaning, defaults, ranges, units and special values. Every value keeps the article
section it comes from, and ``kb lint`` checks that the section writes it (and its products,
release and meaning) word for word, so a value can only be what an article says.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .control_chars import first_control
from .diagnostics import Problem
from .fields import Fields, Problems
from .model import Article, Setting, SettingValue, Where

SETTINGS_FILE = "settings.yaml"
KINDS = ("meaning", "default", "range", "unit", "special")
VALUE_FIELDS = ("value", "citation", "when", "release", "means")
MAX_TEXT_CHARS = 300
_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_MARKUP = re.compile(r"[*`]")


def _texts(fields: Fields, key: str, required: bool = False) -> tuple[str, ...]:
    """A text or a list of texts, each one line of at most MAX_TEXT_CHARS."""
    found = []
    for text in fields.strings(key, required, 1 if required else 0):
        if not text or first_control(text) is not None or "\n" in text or len(text) > MAX_TEXT_CHARS:
            fields.problems.add(fields.line_of(key), f"'{key}' of {fields.what} holds {text[:40]!r}",
                                f"write one line of at most {MAX_TEXT_CHARS} characters")
        else:
            found.append(text)
    return tuple(found)


def _value(item: Any, line: int, what: str, problems: Problems) -> SettingValue | None:
    if isinstance(item, (str, int, float)) and not isinstance(item, bool):
        problems.add(line, f"{what} must be a mapping with 'value' and 'citation'", "write {value: ..., citation: ...}")
        return None
    fields = Fields(item, what, problems, line, VALUE_FIELDS)
    if not fields.ok:
        return None
    value, citation = _texts(fields, "value", required=True), fields.text("citation")
    release, means = _texts(fields, "release"), _texts(fields, "means")
    if not value or not citation:
        return None
    return SettingValue(value[0], citation, _texts(fields, "when"), release[0] if release else "",
                        means[0] if means else "", fields.line)


def _setting(item: Any, problems: Problems, line: int, shown: str) -> Setting | None:
    fields = Fields(item, "a setting", problems, line, ("name", "called", *KINDS))
    if not fields.ok:
        return None
    name = fields.text("name")
    if name and not _NAME.match(name):
        problems.add(fields.line_of("name"), f"setting name '{name}' is not an environment variable",
                     "write it as the articles do, e.g. HCCL_EXEC_TIMEOUT")
    kinds = []
    for kind in KINDS:
        values = tuple(v for at, raw in fields.items(kind)
                       if (v := _value(raw, at, f"a '{kind}' value of {name or 'a setting'}", problems)) is not None)
        if values:
            kinds.append((kind, values))
    if not kinds:
        problems.add(fields.line, f"setting '{name}' states nothing", f"add one of: {', '.join(KINDS)}")
    return Setting(name, _texts(fields, "called"), tuple(kinds), Where(shown, fields.line)) if name else None


def parse_settings(raw: Any, problems: Problems) -> tuple[Setting, ...]:
    top = Fields(raw, "the settings file", problems, 1, ("settings",))
    found: list[Setting] = []
    seen: set[str] = set()
    for line, item in top.items("settings", required=True, min_items=1):
        setting = _setting(item, problems, line, problems.file)
        if setting is None:
            continue
        if setting.name in seen:
            problems.add(line, f"setting '{setting.name}' is described twice", "merge the two")
        seen.add(setting.name)
        found.append(setting)
    return tuple(found)


def _plain(text: str) -> str:
    return " ".join(_MARKUP.sub("", text).split()).casefold()


def written_in(said: str, text: str) -> bool:
    """Whether ``text`` writes ``said`` word for word, whatever its spacing, case, ``**`` and backticks."""
    return _plain(said) in _plain(text)


def check_setting_sources(settings: tuple[Setting, ...], articles: Mapping[str, Article]) -> list[Problem]:
    """Each value's citation resolves, and the cited section writes the value, its products,
    release and meaning."""
    problems = []
    for setting in settings:
        for kind, values in setting.values:
            for value in values:
                article_id, _, slug = value.citation.partition("#")
                section = articles[article_id].section(slug) if article_id in articles else None
                where = f"{setting.name} {kind} '{value.value}'"
                if section is None:
                    problems.append(Problem(setting.where.file, value.line or setting.where.line,
                                            f"{where} cites '{value.citation}', which is not an article section",
                                            "cite an existing article#section (see articles/)"))
                    continue
                for said in (value.value, *value.when, value.release, value.means):
                    if said and not written_in(said, section.text):
                        problems.append(Problem(setting.where.file, value.line or setting.where.line,
                                                f"{where}: '{said}' is not written in {value.citation}",
                                                "quote the section's own words"))
    return problems
