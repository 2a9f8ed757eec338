"""Equality and hashing of a record over all its fields but some: msgspec compares every field, and
a few records carry one that says where they were written or how they were worked out, not what
they are."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    import msgspec

T = TypeVar("T", bound="type[msgspec.Struct]")


def equal_apart_from(*ignored: str) -> Callable[[T], T]:
    """A class decorator for a frozen record: instances are equal, and hash alike, when their
    fields other than ``ignored`` are (as a dataclass field with ``compare=False``)."""

    def decorate(cls: T) -> T:
        compared = operator.attrgetter(*(name for name in cls.__struct_fields__ if name not in ignored))

        def __eq__(self: object, other: object) -> bool:
            if type(other) is not type(self):
                return NotImplemented
            return bool(compared(self) == compared(other))

        def __hash__(self: object) -> int:
            return hash(compared(self))

        cls.__eq__ = __eq__  # type: ignore[method-assign]
        cls.__hash__ = __hash__  # type: ignore[method-assign]
        return cls

    return decorate
