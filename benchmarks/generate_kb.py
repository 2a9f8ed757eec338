"""Generate a large knowledge base from the shipped one, for benchmarks of KB growth.

    python benchmarks/generate_kb.py OUT_DIR --entries 2000

Writes OUT_DIR/kb (the shipped facts, rules, decoders and codes, and entries) and OUT_DIR/articles.
Besides the shipped entries, each copy of them forms a new family: the root of every id gains a
family word (hccl.notify-timeout.op-mismatch -> hccl-remote.notify-timeout.op-mismatch), so
parents and children stay related and expected ids follow the renames.

A copy must not be recognised in another family's logs, or `faultbot kb lint` reports the two as
overlapping. Symptoms only match lines holding one of their literal anchors, so each family
rewrites every anchor of the KB, in its signatures, regexes and test logs alike: the family word
goes into phrases ("Task remote run failed", "ACL_REMOTE_ERROR_RT_LINK_ERROR", "retRemoteCode=0x")
and error codes get the family's own two digits (EI0002 -> EI010002). Numbers in signatures are
varied too (they are masked before matching). So that rewritten test logs still yield the facts
the copies' conditions test, each family gets copies of the extractors whose regex reads a
rewritten anchor (kb/facts/family-<word>.yaml), and enum facts accept the rewritten spellings as
aliases. Conditions and rules are left as they are.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import string
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parent.parent
FAMILY_WORDS = (
    "remote", "local", "fused", "async", "peer", "outer", "batch", "paged", "eager", "lazy", "mirror",
    "shadow", "backup", "primary", "virtual", "logical", "nested", "pooled", "pinned", "cached", "staged", "sliced",
    "sharded", "hybrid", "offload", "prefill", "decode", "spare", "linked", "split", "merged", "tiered", "framed",
)
_CODE = re.compile(r"^[A-Z]{0,2}\d{4,}$")            # EI0002, 507015, E3900, 9999
_REGEX_SPECIAL = frozenset("\\.^$*+?{}[]|()")
_NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
_GROUP_NAME = re.compile(r"(\(\?P[<=]\w+[>)])")


class _Dumper(yaml.SafeDumper):
    """Plain YAML only: the KB loader rejects anchors and aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _str_presenter(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


_Dumper.add_representer(str, _str_presenter)


def _regex_literal(text: str) -> str:
    """How a KB regex writes a literal: regex syntax escaped with a backslash, nothing else."""
    return "".join("\\" + char if char in _REGEX_SPECIAL else char for char in text)


@dataclass(frozen=True)
class Family:
    word: str
    number: str                 # two digits put into error codes, unique to the family

    def rename(self, entry_id: str) -> str:
        root, dot, rest = entry_id.partition(".")
        return f"{root}-{self.word}{dot}{rest}"

    def forms(self, anchor: str) -> Iterator[str]:
        """Ways to put the family's mark into an anchor, in order of preference."""
        if _CODE.match(anchor):
            # Inside the digits, so that the code holds no original one (9999 in E39999, say).
            letters = len(anchor) - len(anchor.lstrip(string.ascii_uppercase))
            for cut in range(letters + 1, len(anchor)):
                yield anchor[:cut] + self.number + anchor[cut:]
            return
        for space in (m.start() for m in re.finditer(" ", anchor)):
            yield f"{anchor[:space]} {self.word}{anchor[space:]}"
        for under in (m.end() for m in re.finditer("_", anchor)):
            yield f"{anchor[:under]}{_cased(self.word, anchor[under:])}_{anchor[under:]}"
        for camel in (m.start() for m in re.finditer(r"(?<=[a-z])(?=[A-Z])", anchor)):
            yield anchor[:camel] + self.word.capitalize() + anchor[camel:]
        for punct in (m.start() for m in re.finditer(r"(?<=[A-Za-z0-9])(?=[^A-Za-z0-9 _])", anchor)):
            yield f"{anchor[:punct]}-{self.word}{anchor[punct:]}"
        yield f"{anchor[:len(anchor) // 2]}-{self.word}{anchor[len(anchor) // 2:]}"


def _cased(word: str, like: str) -> str:
    if like[:2].isupper():
        return word.upper()
    return word.capitalize() if like[:1].isupper() else word


def _families(count: int) -> list[Family]:
    if count > len(FAMILY_WORDS):
        raise SystemExit(f"{count} copies of the KB need {count} family words, FAMILY_WORDS has {len(FAMILY_WORDS)}")
    return [Family(word, f"{10 + index}") for index, word in enumerate(FAMILY_WORDS[:count])]


class Rewriter:
    """Every anchor of the KB, replaced by a family's form wherever it occurs (longest first, as the
    prefilter finds them), in plain text or in regex source. A form holds no anchor of the KB."""

    def __init__(self, anchors: Iterable[str], family: Family):
        ordered = sorted(set(anchors), key=len, reverse=True)
        self.family = family
        self._text = re.compile("|".join(map(re.escape, ordered)))
        self._forms: dict[str, str] = {}
        for anchor in ordered:
            form = next((f for f in family.forms(anchor) if not self._text.search(f)), None)
            if form is None:
                raise SystemExit(f"no form of {anchor!r} for family '{family.word}' is free of anchors")
            self._forms[anchor] = form
        self._regex = re.compile("|".join(re.escape(_regex_literal(a)) for a in ordered))
        self._unescape = {_regex_literal(a): a for a in ordered}

    def form(self, anchor: str) -> str:
        return self._forms[anchor]

    def forms(self) -> Iterable[str]:
        return self._forms.values()

    def text(self, text: str) -> str:
        return self._text.sub(lambda m: self._forms[m.group(0)], text)

    def log(self, text: str, where: str) -> str:
        """A test log rewritten; where anchors overlap, a piece of one could survive the other's rewrite."""
        rewritten = self.text(text)
        if leftover := self._text.search(rewritten):
            raise SystemExit(f"{where}: anchor {leftover.group(0)!r} survives the rewrite for '{self.family.word}'")
        return rewritten

    def regex(self, pattern: str) -> str:
        """The pattern with its literal anchors rewritten; group names (?P<event_id>...) stay."""
        def rewrite(match: re.Match[str]) -> str:
            return _regex_literal(self._forms[self._unescape[match.group(0)]])

        parts = _GROUP_NAME.split(pattern)
        return "".join(part if index % 2 else self._regex.sub(rewrite, part) for index, part in enumerate(parts))

    def signature(self, text: str, anchors: list[str], rng: random.Random) -> str:
        """The rewritten signature with its free-standing numbers varied, except inside ``anchors``."""
        kept = re.compile("(" + "|".join(map(re.escape, anchors)) + ")")
        parts = kept.split(self.text(text))
        return "".join(part if index % 2 else _NUMBER.sub(lambda m: _vary(m.group(0), rng), part)
                       for index, part in enumerate(parts))


def _vary(number: str, rng: random.Random) -> str:
    return str(rng.randrange(10 ** (len(number) - 1) if len(number) > 1 else 0, 10 ** len(number)))


def _symptom(symptom: dict[str, Any], rewriter: Rewriter, rng: random.Random) -> dict[str, Any]:
    anchors = symptom.get("anchors") or []
    if not anchors:
        raise SystemExit(f"symptom {symptom['id']} has no anchors: give it 'anchors:' so its copies can be kept apart")
    copy = dict(symptom, anchors=[rewriter.form(a) for a in anchors])
    if "regex" in symptom:
        copy["regex"] = rewriter.regex(symptom["regex"])
    else:
        copy["signature"] = rewriter.signature(symptom["signature"], copy["anchors"], rng)
    return copy


def _entry(entry: dict[str, Any], rewriter: Rewriter, ids: set[str], rng: random.Random) -> dict[str, Any]:
    family = rewriter.family
    copy = dict(entry, id=family.rename(entry["id"]))
    for field in ("title", "summary", "cause"):
        if field in entry:
            copy[field] = rewriter.text(entry[field])
    if "symptoms" in entry:
        copy["symptoms"] = [_symptom(s, rewriter, rng) for s in entry["symptoms"]]
    tests = []
    for test in entry["tests"]:
        test = dict(test, log=rewriter.log(test["log"], f"{entry['id']}: test '{test['name']}'"))
        for field in ("expect", "expect_not"):
            if test.get(field) in ids:          # not 'none'
                test[field] = family.rename(test[field])
        tests.append(test)
    copy["tests"] = tests
    return copy


def _check_apart(rewriters: list[Rewriter]) -> None:
    """No family's anchor may occur in another family's: the two would match each other's logs."""
    for rewriter in rewriters:
        own = re.compile("|".join(re.escape(form) for form in rewriter.forms()))
        for other in rewriters:
            if other is not rewriter and (hit := own.search("\n".join(other.forms()))):
                raise SystemExit(f"anchor {hit.group(0)!r} of '{rewriter.family.word}' occurs in one of "
                                 f"'{other.family.word}': choose other family words")


def _extractors(catalogue: dict[str, Any], rewriter: Rewriter) -> list[dict[str, Any]]:
    """The family's copies of the extractors whose regex reads a rewritten anchor, so that its test
    logs yield the facts the shipped ones do."""
    copies = []
    for extractor in catalogue.get("extractors") or []:
        regex = rewriter.regex(extractor["regex"])
        if regex == extractor["regex"]:
            continue
        copy = dict(extractor, id=f"{extractor['id']}-{rewriter.family.word}", regex=regex,
                    anchors=[rewriter.text(a) for a in extractor.get("anchors") or []])
        if "prefilter" in extractor:
            copy["prefilter"] = rewriter.regex(extractor["prefilter"])
        copies.append(copy)
    return copies


def _alias_rewritten_values(catalogue: dict[str, Any], rewriters: list[Rewriter]) -> bool:
    """Enum values a family rewrites (ExceptionType 'Heartbeat Lost Occurred') become aliases of the
    shipped value, so that the shipped rules still read them. True when the catalogue changed."""
    changed = False
    for spec in (catalogue.get("facts") or {}).values():
        if spec.get("type") != "enum":
            continue
        aliases = spec.setdefault("aliases", {})
        spellings = {**{v: v for v in spec["values"] if isinstance(v, str)}, **aliases}
        for spelling, canonical in spellings.items():
            for rewriter in rewriters:
                if (rewritten := rewriter.text(spelling)) != spelling:
                    aliases[rewritten] = canonical
                    changed = True
    return changed


def _dump(data: Any, path: Path) -> None:
    text = yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)
    path.write_text(text, encoding="utf-8")


def generate(out: Path, entries: int, seed: int = 1) -> int:
    """Write OUT/kb and OUT/articles; return the number of entries (whole families, at least ``entries``)."""
    kb, articles = out / "kb", out / "articles"
    for target, source in ((kb, REPO / "kb"), (articles, REPO / "articles")):
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(source, target)
    shipped = [yaml.safe_load(path.read_text(encoding="utf-8"))
               for path in sorted((REPO / "kb" / "entries").rglob("*.yaml"))]
    anchors = {a for entry in shipped for symptom in entry.get("symptoms") or [] for a in symptom.get("anchors") or []}
    ids = {entry["id"] for entry in shipped}
    rewriters = [Rewriter(anchors, family) for family in _families(-(-entries // len(shipped)) - 1)]
    _check_apart(rewriters)
    catalogues = {path: yaml.safe_load(path.read_text(encoding="utf-8"))
                  for path in [kb / "facts.yaml", *sorted((kb / "facts").glob("*.yaml"))]}
    for path, catalogue in catalogues.items():
        if _alias_rewritten_values(catalogue, rewriters):
            _dump(catalogue, path)
    rng = random.Random(seed)
    for rewriter in rewriters:
        extractors = [copy for catalogue in catalogues.values() for copy in _extractors(catalogue, rewriter)]
        _dump({"extractors": extractors}, kb / "facts" / f"family-{rewriter.family.word}.yaml")
        for entry in shipped:
            copy = _entry(entry, rewriter, ids, rng)
            _dump(copy, kb / "entries" / entry["component"] / f"{copy['id']}.yaml")
    return len(shipped) * (len(rewriters) + 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    total = generate(args.out, args.entries, args.seed)
    print(f"wrote {total} entries under {args.out / 'kb'} (articles: {args.out / 'articles'})")


if __name__ == "__main__":
    main()
