"""A chat saved as an eval case (``tests/cases/*.yaml``): its logs, its answers, and the confirmed
conclusion it must keep reaching (``faultbot eval`` runs it)."""

from __future__ import annotations

from typing import Mapping

import yaml


class _LiteralDumper(yaml.SafeDumper):
    """Multi-line strings as literal blocks, so a log reads as it was pasted."""


def _string(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|" if "\n" in value else None)


_LiteralDumper.add_representer(str, _string)


def case_yaml(name: str, log: str, answers: Mapping[str, str], expect: str) -> str:
    case = {"name": name, "log": log if log.endswith("\n") else log + "\n", "answers": dict(answers), "expect": expect}
    return yaml.dump(case, Dumper=_LiteralDumper, sort_keys=False, allow_unicode=True, width=10_000)
