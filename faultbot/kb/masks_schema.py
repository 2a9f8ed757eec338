"""Reading ``kb/masks.yaml``: the variable parts of log messages (timestamps, addresses, paths,
numbers) that are replaced by placeholders before a record is compared with a signature, in the
order they are applied. A mask's regex may name a shared shape as ``{ipv4}`` (``shapes.py``: the
same shapes ``/export --redact`` hides), is checked like every KB regex, and its example must come
out as written once the mask is applied.
"""

from __future__ import annotations

import re
from typing import Any

from .facts_schema import check_pattern
from .fields import Fields, Problems
from .model import Mask
from .shapes import SHAPES

MASKS_FILE = "masks.yaml"
MASK_FIELDS = ("name", "regex", "token", "why", "example", "masked")
NAME = re.compile(r"^[a-z][a-z0-9-]*$")
TOKEN = re.compile(r"^<[A-Z][A-Z0-9_]*>$")
# A shape is named by a word in braces; a regex's own {m,n} starts with a digit or a comma.
_SHAPE = re.compile(r"\{([a-z][a-z0-9_]*)\}")


def _filled(regex: str, name: str, fields: Fields) -> str | None:
    """``regex`` with its shapes written out; None (reported) when it names one that does not exist."""
    unknown = [name for name in _SHAPE.findall(regex) if name not in SHAPES]
    if unknown:
        fields.problems.add(fields.line_of("regex"), f"mask '{name}' names the shape "
                            f"'{{{unknown[0]}}}', which does not exist", f"shapes: {', '.join(sorted(SHAPES))}")
        return None
    return _SHAPE.sub(lambda found: SHAPES[found.group(1)], regex)


def _mask(raw: Any, problems: Problems, line: int) -> Mask | None:
    fields = Fields(raw, "a mask", problems, line, MASK_FIELDS)
    if not fields.ok:
        return None
    name, token, written = fields.text("name"), fields.text("token"), fields.text("regex")
    fields.text("why")
    example, masked = fields.text("example"), fields.text("masked")
    if name and not NAME.match(name):
        problems.add(fields.line_of("name"), f"mask name '{name}' is not a lower-case slug", "write it as ip, hex, path")
    if token and not TOKEN.match(token):
        problems.add(fields.line_of("token"), f"token '{token}' of mask '{name}' is not a placeholder",
                     "write it as <IP>: capitals in angle brackets")
    regex = _filled(written, name, fields) if written else None
    if not regex or not check_pattern(regex, problems, fields.line_of("regex"), f"regex of mask '{name}'"):
        return None
    if example and masked and re.sub(regex, token, example) != masked:
        problems.add(fields.line_of("example"), f"mask '{name}' makes {re.sub(regex, token, example)!r} of its "
                     f"example, not {masked!r}", "fix the regex, or write what it makes under 'masked:'")
    return Mask(name, regex, token) if name and TOKEN.match(token) else None


def parse_masks(raw: Any, problems: Problems) -> tuple[Mask, ...]:
    """The masks of ``kb/masks.yaml`` in the order they are applied; a name used twice is reported."""
    top = Fields(raw, "the masks file", problems, 1, ("masks",))
    found: list[Mask] = []
    for line, item in top.items("masks", required=True, min_items=1):
        mask = _mask(item, problems, line)
        if mask is None:
            continue
        if any(mask.name == other.name for other in found):
            problems.add(line, f"mask '{mask.name}' is described twice", "give each mask its own name")
        found.append(mask)
    return tuple(found)
