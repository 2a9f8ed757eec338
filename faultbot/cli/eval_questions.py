"""``faultbot eval --questions FILE``: ask every question of a question set as `faultbot ask` would
and report how many get the right fact with a right citation, the paraphrases tuned on and the
held-out fifth apart, and how many must-not-answer questions are declined; real questions (those
with the thread they were asked in) apart from the written ones."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ..kb.loader import load_kb
from ..qa.index import KnowledgeIndex
from ..qa.question_set import QuestionResult, ask_all, load_question_set, share
from ..render.console import print_table
from ..render.safe_text import json_safe
from .errors import EXIT_NO_MATCH, EXIT_OK, UsageError
from .kb_location import kb_paths


def _figures(results: list[QuestionResult]) -> dict:
    passed, asked = share(results)
    return {"asked": asked, "passed": passed, "share": round(passed / asked, 4) if asked else None}


def _sets(results: list[QuestionResult]) -> dict[str, list[QuestionResult]]:
    sets = {}
    for kind, real in (("paraphrases", False), ("real questions", True)):
        asked = [r for r in results if bool(r.question.source_url) == real]
        facts = [r for r in asked if r.question.fact]
        sets |= {f"{kind} (tuning)": [r for r in facts if not r.question.held_out],
                 f"{kind} (held-out fifth)": [r for r in facts if r.question.held_out],
                 "must not answer" if not real else "real questions, must not answer":
                     [r for r in asked if not r.question.fact]}
    return sets


def cmd_eval_questions(args: argparse.Namespace) -> int:
    path = Path(args.questions)
    if not path.is_file():
        raise UsageError(f"no such question set: {path}")
    questions = load_question_set(path)
    results = ask_all(KnowledgeIndex.of(load_kb(*kb_paths(args))), questions)
    sets = _sets(results)
    if args.format == "json":
        print(json.dumps(json_safe({"schema": 1, "sets": {name: _figures(found) for name, found in sets.items()}, "questions": [
            {"question": r.question.text, "where": r.question.where, "fact": r.question.fact or None,
             "held_out": r.question.held_out, "passed": r.passed, "answered": r.answer.found,
             "citations": list(r.answer.citations), "source_url": r.question.source_url or None}
            for r in results]}), ensure_ascii=False, indent=2))
    else:
        misses = [r for r in results if not r.passed]
        if misses:
            print_table(("question", "fact", "held out", "answered from"),
                        [(r.question.text, r.question.fact or "(must not answer)", "yes" if r.question.held_out else "",
                          ", ".join(r.answer.citations) or "not in my knowledge base") for r in misses])
            print()
        for name, found in sets.items():
            figures = _figures(found)
            if figures["asked"]:
                print(f"{name}: {figures['passed']}/{figures['asked']} · {figures['share']:.1%}")
    return EXIT_OK if all(r.passed for r in results) else EXIT_NO_MATCH
