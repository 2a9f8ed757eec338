"""Figures over eval results: totals, totals per family and for the held-out fifth, and the
comparison with a recorded baseline (which cases passed then and fail now)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping

import msgspec

from .cases import CaseResult
from .kb.entry_schema import NO_CONCLUSION

BASELINE_SCHEMA = 1


def totals(results: Iterable[CaseResult]) -> dict[str, object]:
    results = list(results)
    count = len(results)
    passed = sum(r.passed for r in results)
    return {
        "cases": count,
        "passed": passed,
        "top1_accuracy": round(passed / count, 4) if count else 0.0,
        "questions_per_case": round(sum(len(r.asked) for r in results) / count, 2) if count else 0.0,
        "no_conclusion": sum(r.concluded == NO_CONCLUSION for r in results),
        "wrong_conclusions": sum(not r.passed and r.concluded != NO_CONCLUSION for r in results),
        "confidently_wrong": sum(r.confidently_wrong for r in results),
    }


def totals_by_family(results: Iterable[CaseResult]) -> dict[str, dict[str, object]]:
    """Totals per case family (corpus cases name theirs; the others count as "-")."""
    groups: dict[str, list[CaseResult]] = defaultdict(list)
    for result in results:
        groups[result.case.family or "-"].append(result)
    return {family: totals(groups[family]) for family in sorted(groups)}


def split_held_out(results: Iterable[CaseResult]) -> tuple[list[CaseResult], list[CaseResult]]:
    """(tuning cases, held-out cases)."""
    tuning, held = [], []
    for result in results:
        (held if result.case.held_out else tuning).append(result)
    return tuning, held


def case_key(result: CaseResult, root: str) -> str:
    """A case's name in a baseline: its file relative to the cases folder ``root``, without the line."""
    return result.case.where.rsplit(":", 1)[0].removeprefix(root)


def baseline_of(results: Iterable[CaseResult], root: str) -> dict[str, object]:
    return {"schema": BASELINE_SCHEMA,
            "cases": {case_key(r, root): {"passed": r.passed, "concluded": r.concluded,
                                          "confidently_wrong": r.confidently_wrong} for r in results}}


class Regression(msgspec.Struct, frozen=True):
    case: str
    then: str       # what was concluded when the baseline was recorded
    now: str        # the failure now


def regressions(results: Iterable[CaseResult], baseline: Mapping[str, object], root: str) -> list[Regression]:
    """Cases that passed in ``baseline`` and fail now; cases new since the baseline never regress."""
    recorded = baseline.get("cases", {})
    found = []
    for result in results:
        key = case_key(result, root)
        was = recorded.get(key) if isinstance(recorded, Mapping) else None
        if isinstance(was, Mapping) and was.get("passed") and not result.passed:
            found.append(Regression(key, str(was.get("concluded", "?")), result.failure or ""))
    return found
