"""``faultbot eval CASES_DIR``: diagnose every case and report accuracy, questions and misses, per
family and for the held-out fifth; against a recorded baseline, fail only on regressions."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from ..cases import CaseResult, load_cases, run_case
from ..eval_report import baseline_of, regressions, split_held_out, totals, totals_by_family
from ..kb.loader import load_kb
from ..render.console import print_table
from ..render.safe_text import json_safe
from ..session import DiagnosisSession
from .errors import EXIT_NO_MATCH, EXIT_OK, UsageError
from .kb_location import kb_paths


def _read_baseline(path: str) -> dict:
    try:
        baseline = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"cannot read the baseline {path}: {getattr(exc, 'strerror', None) or exc}") from None
    if not isinstance(baseline, dict) or baseline.get("schema") != 1 or not isinstance(baseline.get("cases"), dict):
        raise UsageError(f"{path} is not a faultbot eval baseline (schema 1 with 'cases')")
    return baseline


def _write_baseline(path: str, results: list[CaseResult], root: str) -> None:
    try:
        Path(path).write_text(json.dumps(baseline_of(results, root), indent=1, sort_keys=True) + "\n",
                              encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write the baseline {path}: {exc.strerror}") from None


def _one_or_list(ids: tuple[str, ...]) -> str | list[str] | None:
    """A case's expected ids as JSON: one id as a string (as before 0.4), several as a list."""
    return None if not ids else ids[0] if len(ids) == 1 else list(ids)


def _figures_line(label: str, figures: dict) -> str:
    return (f"{label}: {figures['passed']}/{figures['cases']} · top-1 {figures['top1_accuracy']:.1%} · "
            f"questions per case {figures['questions_per_case']} · no conclusion {figures['no_conclusion']} · "
            f"wrong {figures['wrong_conclusions']} (confidently {figures['confidently_wrong']})")


def cmd_eval(args: argparse.Namespace) -> int:
    if args.questions:
        if args.cases_dir or args.baseline or args.record_baseline:
            raise UsageError("--questions takes no CASES_DIR, --baseline or --record-baseline")
        from .eval_questions import cmd_eval_questions

        return cmd_eval_questions(args)
    if not args.cases_dir:
        raise UsageError("give a CASES_DIR, or --questions FILE")
    directory = Path(args.cases_dir)
    if not directory.is_dir():
        raise UsageError(f"no such folder: {directory}")
    baseline = _read_baseline(args.baseline) if args.baseline else None
    kb = load_kb(*kb_paths(args))
    cases = load_cases(directory)
    if not cases:
        raise UsageError(f"no *.yaml cases under {directory}")
    session = DiagnosisSession(kb)
    results = [run_case(case, kb, session) for case in cases]
    root = str(directory).rstrip(os.sep) + os.sep
    tuning, held_out = split_held_out(results)
    families = totals_by_family(results)
    regressed = regressions(results, baseline, root) if baseline is not None else []
    if args.record_baseline:
        _write_baseline(args.record_baseline, results, root)
    if args.format == "json":
        report = {"schema": 1, "totals": totals(results), "families": families, "cases": [
            {"name": r.case.name, "file": r.case.where, "family": r.case.family, "held_out": r.case.held_out,
             "expect": _one_or_list(r.case.expect), "expect_not": _one_or_list(r.case.expect_not), "concluded": r.concluded,
             "asked": list(r.asked), "passed": r.passed, "confidently_wrong": r.confidently_wrong,
             "failure": r.failure}
            for r in results]}
        if held_out:
            report["tuning"], report["held_out"] = totals(tuning), totals(held_out)
        if baseline is not None:
            report["regressions"] = [{"case": r.case, "then": r.then, "now": r.now} for r in regressed]
        print(json.dumps(json_safe(report), ensure_ascii=False, indent=2))
    else:
        print_table(("case", "expected", "concluded", "asked", "result"),
                    [(r.case.name, r.case.expected, r.concluded, str(len(r.asked)),
                      "ok" if r.passed else f"FAIL: {r.failure}") for r in results])
        if len(families) > 1:
            print()
            print_table(("family", "cases", "top-1", "questions/case", "no conclusion", "wrong", "confidently wrong"),
                        [(name, str(f["cases"]), f"{f['top1_accuracy']:.1%}", str(f["questions_per_case"]),
                          str(f["no_conclusion"]), str(f["wrong_conclusions"]), str(f["confidently_wrong"]))
                         for name, f in families.items()])
        summary = totals(results)
        print(f"\n{summary['passed']} passed, {summary['cases'] - summary['passed']} failed")
        print(_figures_line("all", summary))
        if held_out:
            print(_figures_line("tuning", totals(tuning)))
            print(_figures_line("held-out fifth", totals(held_out)))
        if baseline is not None:
            print(f"regressions against {args.baseline}: {len(regressed) or 'none'}")
            for r in regressed:
                print(f"  {r.case}: passed then ({r.then}), now {r.now}")
    if baseline is not None:
        return EXIT_NO_MATCH if regressed else EXIT_OK
    return EXIT_OK if all(r.passed for r in results) else EXIT_NO_MATCH
