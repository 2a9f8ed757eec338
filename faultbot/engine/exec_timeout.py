"""The HCCL_EXEC_TIMEOUT a job really ran with, which depends on the product and the expansion mode.

The configured value (or its default) is turned into the effective one per product and mode, as
the HCCL_EXEC_TIMEOUT reference gives them: whole multiples of 68 s on the older training and
inference series, a 1091 s cap in AIV mode, 0 meaning "never" elsewhere. While the product or the
mode is unknown every profile that fits is tried, and the engine gets the lowest and the highest
effective value: a spread of error times above the highest is a late rank on any product, one
below the lowest is not, and only a spread in between makes product and mode worth asking.
Source: articles/hccl-env-hccl-exec-timeout.md#per-product, #rounding-68, #aiv-cap.
"""

from __future__ import annotations

from dataclasses import dataclass

from .facts import Fact, Provenance, ProvenanceSource, WorkingMemory
from .rules import Context

NEVER = 10**12      # "0 = never time out": larger than any spread of error times
AIV_CAP = 1091
ROUNDING = 68
TRAINING_SERIES = ("Atlas training series", "Atlas inference series")


@dataclass(frozen=True)
class Profile:
    """How one product and mode turns HCCL_EXEC_TIMEOUT into the timeout that applies."""

    products: tuple[str, ...]
    modes: tuple[str, ...]
    default: int

    def effective(self, configured: float | None) -> float:
        value = self.default if configured is None else configured
        if self.products == TRAINING_SERIES:
            return max(ROUNDING, int(value) // ROUNDING * ROUNDING)
        if "AIV" in self.modes:
            return AIV_CAP if value == 0 or value > AIV_CAP else value
        return NEVER if value == 0 else value


PROFILES = (
    # HCCL_OP_EXPANSION_MODE is not supported on these: only the host mode fits them
    Profile(TRAINING_SERIES, ("HOST",), 1836),
    Profile(("Atlas A2",), ("HOST", "HOST_TS", "AI_CPU"), 1836),
    Profile(("Atlas A3",), ("AI_CPU", "AICPU_CacheDisable"), 1836),
    Profile(("Atlas A2", "Atlas A3", "other"), ("AIV",), AIV_CAP),
    Profile(("other",), ("CCU_MS", "CCU_SCHED", "AI_CPU", "AICPU_TS", "AICPU_CacheDisable"), 1836),
)
CITATION = "hccl-env-hccl-exec-timeout#per-product"


class EffectiveExecTimeout:
    """exec_timeout_min_s / exec_timeout_max_s (and effective_exec_timeout_s when they agree); the
    timeout the device printed, when a line gives it, is all three."""

    id = "effective-exec-timeout"
    priority = 0
    specificity = 1
    feeds = {name: {"hccl_exec_timeout", "product", "hccl_op_expansion_mode", "reported_exec_timeout_s"}
             for name in ("exec_timeout_min_s", "exec_timeout_max_s", "effective_exec_timeout_s")}

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
        fitting = [p for p in PROFILES if (not products or products & set(p.products))
                   and (not modes or modes & set(p.modes))]
        if not fitting:
            return []
        values = [p.effective(configured) for p in fitting]
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
