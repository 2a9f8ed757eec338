"""Writing YAML the way people write the KB and the eval cases: keys in the order given, Unicode as
is, and multi-line text (a log) as a literal block that reads like the log itself."""

from __future__ import annotations

from typing import Any

import yaml

WIDTH = 100


class Dumper(yaml.SafeDumper):
    """PyYAML's safe dumper, with multi-line text as literal blocks."""


Dumper.add_representer(str, lambda dumper, value: dumper.represent_scalar(
    "tag:yaml.org,2002:str", value, style="|" if "\n" in value else None))


def dump_yaml(document: Any) -> str:
    """``document`` as YAML text, as a contributor would have written it."""
    return yaml.dump(document, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=WIDTH)
