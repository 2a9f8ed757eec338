"""A record equal apart from some fields compares and hashes on the others only, and never equals
a record of another class."""

from __future__ import annotations

import pickle

import msgspec

from faultbot.engine.facts import Fact, Provenance, ProvenanceSource
from faultbot.equality import equal_apart_from
from faultbot.kb.model import Citation


@equal_apart_from("line")
class Placed(msgspec.Struct, frozen=True):
    name: str
    count: int
    line: int = 0


@equal_apart_from("line")
class Elsewhere(msgspec.Struct, frozen=True):
    name: str
    count: int
    line: int = 0


def test_the_ignored_field_does_not_count():
    assert Placed("a", 1, line=3) == Placed("a", 1, line=9)
    assert hash(Placed("a", 1, line=3)) == hash(Placed("a", 1, line=9))
    assert len({Placed("a", 1, line=3), Placed("a", 1, line=9)}) == 1


def test_every_other_field_counts():
    assert Placed("a", 1) != Placed("b", 1)
    assert Placed("a", 1) != Placed("a", 2)


def test_another_class_with_the_same_fields_is_not_equal():
    assert Placed("a", 1) != Elsewhere("a", 1)
    assert Placed("a", 1) != ("a", 1)


def test_the_package_records_keep_their_comparison_through_pickle():
    citation = Citation("hccl-timeouts", "notify-wait", line=12)
    assert pickle.loads(pickle.dumps(citation)) == Citation("hccl-timeouts", "notify-wait", line=40)
    assert pickle.loads(pickle.dumps(citation)).line == 12
    said, derived = Provenance(ProvenanceSource.ANSWER), Provenance(ProvenanceSource.DERIVED, rule="r1")
    assert Fact("cann_version", "8.0.RC2", said) == Fact("cann_version", "8.0.RC2", derived)
    assert Fact("cann_version", "8.0.RC2", said) != Fact("cann_version", "8.0.RC3", said)
