"""``faultbot eval CASES_DIR``: diagnose every case and report accuracy, questions and misses."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..cases import CaseResult, load_cases, run_case
from ..kb.entry_schema import NO_CONCLUSION
from ..kb.loader import load_kb
from ..render.console import print_table
from ..session import DiagnosisSession
from .errors import EXIT_NO_MATCH, EXIT_OK, UsageError
from .kb_location import kb_paths


def totals(results: list[CaseResult]) -> dict[str, object]:
    count = len(results)
    return {
        "cases": count,
        "passed": sum(r.passed for r in results),
        "top1_accuracy": round(sum(r.passed for r in results) / count, 4) if count else 0.0,
        "questions_per_case": round(sum(len(r.asked) for r in results) / count, 2) if count else 0.0,
        "no_conclusion": sum(r.concluded == NO_CONCLUSION for r in results),
        "wrong_conclusions": sum(not r.passed and r.concluded != NO_CONCLUSION for r in results),
    }


def cmd_eval(args: argparse.Namespace) -> int:
    directory = Path(args.cases_dir)
    if not directory.is_dir():
        raise UsageError(f"no such folder: {directory}")
    kb = load_kb(*kb_paths(args))
    cases = load_cases(directory)
    if not cases:
        raise UsageError(f"no *.yaml cases under {directory}")
    session = DiagnosisSession(kb)
    results = [run_case(case, kb, session) for case in cases]
    summary = totals(results)
    if args.format == "json":
        print(json.dumps({"schema": 1, "totals": summary, "cases": [
            {"name": r.case.name, "file": r.case.where, "expect": r.case.expect, "expect_not": r.case.expect_not,
             "concluded": r.concluded, "asked": list(r.asked), "passed": r.passed, "failure": r.failure}
            for r in results]}, ensure_ascii=False, indent=2))
    else:
        print_table(("case", "expected", "concluded", "asked", "result"),
                    [(r.case.name, r.case.expect or f"not {r.case.expect_not}", r.concluded,
                      str(len(r.asked)), "ok" if r.passed else f"FAIL: {r.failure}") for r in results])
        print(f"\n{summary['passed']} passed, {summary['cases'] - summary['passed']} failed")
        print(f"top-1 accuracy {summary['top1_accuracy']:.1%} · questions per case {summary['questions_per_case']} · "
              f"no conclusion {summary['no_conclusion']} · wrong conclusions {summary['wrong_conclusions']}")
    return EXIT_OK if summary["passed"] == summary["cases"] else EXIT_NO_MATCH
