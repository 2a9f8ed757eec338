"""The HCCL_EXEC_TIMEOUT a job really ran with, which depends on the product and the expansion mode.

The configured value (or its default) is turned into the effective one by the profile of each
product and mode (``kb/aggregations.yaml``, which cites the HCCL_EXEC_TIMEOUT reference for every
number): whole multiples of 68 s on the older training and inference series, a 1091 s cap in AIV
mode, 0 meaning "never" elsewhere. While the product or the mode is unknown every profile that fits
is tried, and the engine gets the lowest and the highest effective value: a spread of error times
above the highest is a late rank on any product, one below the lowest is not, and only a spread in
between makes product and mode worth asking.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..kb.model import ExecTimeoutProfile
from .facts import Fact, Provenance, ProvenanceSource, WorkingMemory
from .rules import Context

NEVER = 10**12      # "0 = never time out": larger than any spread of error times
CITATION = "hccl-env-hccl-exec-timeout#per-product"


def effective(profile: ExecTimeoutProfile, configured: float | None) -> float:
    """The timeout that applies under ``profile`` when HCCL_EXEC_TIMEOUT is ``configured`` (None: not set)."""
    value = profile.default if configured is None else configured
    if profile.round_down_to:
        return max(profile.round_down_to, int(value) // profile.round_down_to * profile.round_down_to)
    if profile.cap:
        return profile.cap if value == 0 or value > profile.cap else value
    return NEVER if value == 0 and profile.zero_means_never else value


class EffectiveExecTimeout:
    """exec_timeout_min_s / exec_timeout_max_s (and effective_exec_timeout_s when they agree); the
    timeout the device printed, when a line gives it, is all three."""

    id = "effective-exec-timeout"
    priority = 0
    specificity = 1
    feeds = {name: {"hccl_exec_timeout", "product", "hccl_op_expansion_mode", "reported_exec_timeout_s"}
             for name in ("exec_timeout_min_s", "exec_timeout_max_s", "effective_exec_timeout_s")}

    def __init__(self, profiles: Sequence[ExecTimeoutProfile]):
        self.profiles = tuple(profiles)     # the KB's, kb/aggregations.yaml

    def fire(self, memory: WorkingMemory, context: Context) -> list[Fact]:
        reported = memory.facts("reported_exec_timeout_s")
        if reported:
            return self._as_reported(reported[0], memory.facts("hccl_exec_timeout"))
        configured_facts = memory.facts("hccl_exec_timeout")
        if not configured_facts and "hccl_exec_timeout" not in memory.unknown_answers:
            return []          # not known yet: the engineer may still tell us
        configured = _seconds(configured_facts[0]) if configured_facts else None
        products = set(map(str, memory.values("product")))
        modes = set(map(str, memory.values("hccl_op_expansion_mode")))
        fitting = [p for p in self.profiles if (not products or products & set(p.products))
                   and (not modes or modes & set(p.modes))]
        if not fitting:
            return []
        values = [effective(p, configured) for p in fitting]
        supports = tuple(configured_facts[:1]) + tuple(memory.facts("product")[:1]) + tuple(
            memory.facts("hccl_op_expansion_mode")[:1])
        note = "configured" if configured is not None else "default"
        note += f", {len(fitting)} product/mode profile(s) fit; {CITATION}"

        def fact(name: str, value: float) -> Fact:
            return Fact(name, value, Provenance(ProvenanceSource.DERIVED, rule=self.id, supports=supports, note=note))

        derived = [fact("exec_timeout_min_s", min(values)), fact("exec_timeout_max_s", max(values))]
        if min(values) == max(values):
            derived.append(fact("effective_exec_timeout_s", values[0]))
        return derived

    def _as_reported(self, reported: Fact, configured: list[Fact]) -> list[Fact]:
        """The device printed the timeout in force: it is the effective value on any product and
        mode; a configured HCCL_EXEC_TIMEOUT that differs was rounded, capped, or never reached
        the process, and the note says so."""
        value = _seconds(reported)
        note = f"printed by the device with the stuck task; {CITATION}"
        if configured and _seconds(configured[0]) != value:
            note = (f"printed by the device: {value:g} s, while HCCL_EXEC_TIMEOUT says {configured[0].value} s "
                    f"(rounded to 68 s steps, capped in AIV mode, or not set in this process); {CITATION}")
        supports = (reported, *configured[:1])
        return [Fact(name, value, Provenance(ProvenanceSource.DERIVED, rule=self.id, supports=supports, note=note))
                for name in ("exec_timeout_min_s", "exec_timeout_max_s", "effective_exec_timeout_s")]


def _seconds(fact: Fact) -> float:
    """A timeout fact's value (the catalogue types these as numbers) in seconds."""
    return float(str(fact.value))
