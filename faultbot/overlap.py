"""The linter's overlap check: an entry's positive test must not also confirm an unrelated entry.

Two entries whose signatures and conditions both fire on the same example, without one refining
the other, would give engineers two confident answers for one fault. Echo faults (timeouts) are
expected beside the fault they echo and are not reported.
"""

from __future__ import annotations

from .cases import entry_cases, run_case
from .engine.candidates import Status
from .kb.diagnostics import Problem
from .kb.loader import KnowledgeBase
from .session import DiagnosisSession


def _related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


def overlap_problems(kb: KnowledgeBase) -> list[Problem]:
    session = DiagnosisSession(kb)
    problems = []
    for entry in kb.entries:
        for test in entry.tests:
            if not test.is_positive_for(entry.id):
                continue
            case = next(c for c in entry_cases(kb, [entry.id]) if c.where == str(test.where))
            result = run_case(case, kb, session)
            for candidate in result.diagnosis.conclusions:
                if (candidate.status is Status.CONFIRMED and not candidate.echo
                        and not _related(candidate.id, entry.id)):
                    problems.append(Problem(
                        test.where.file, test.where.line,
                        f"positive test '{test.name}' of {entry.id} also confirms {candidate.id}, "
                        "which neither refines nor is refined by it",
                        "tell the two apart with signatures or conditions, or make one a child of the other"))
    return problems
