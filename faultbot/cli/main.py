"""The ``faultbot`` command: argument parsing, dispatch, and turning failures into exit codes."""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from ..engine.rule_error import RuleError
from ..kb.kb_error import KbError
from .errors import EXIT_DEFECT, EXIT_USAGE, UsageError
from .parser import HANDLER, build_parser

# A broken KB can have thousands of problems; a command other than `kb lint` shows the first ones.
MAX_PROBLEMS_SHOWN = 20


def _one_line(text: object) -> str:
    from ..render.safe_text import one_line  # only when there is an error to print

    return one_line(text)


def _import_command(module: str) -> ModuleType:
    """Import a command's module with the cyclic collector paused, then frozen out of its sight:
    what imports create lives until exit, so tracing it is wasted work (about 5% of a snippet's
    diagnosis, more on the collections a long scan triggers)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        return importlib.import_module(module)
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = build_parser(argv).parse_args(argv)
        module, _, function = getattr(args, HANDLER).partition(":")
        return getattr(_import_command(module), function)(args)
    except UsageError as exc:
        print(f"faultbot: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_USAGE
    except KbError as exc:
        for problem in exc.problems[:MAX_PROBLEMS_SHOWN]:
            print(_one_line(problem), file=sys.stderr)
        if len(exc.problems) > MAX_PROBLEMS_SHOWN:
            print(f"... and {len(exc.problems) - MAX_PROBLEMS_SHOWN} more (faultbot kb lint lists them all)", file=sys.stderr)
        print(f"faultbot: error: {_one_line(exc.summary)}", file=sys.stderr)
        return EXIT_USAGE
    except RuleError as exc:
        print(f"faultbot: error: {exc} (a defect in faultbot or its KB rules; please report it)", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("faultbot: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:   # a defect: one line and its own exit code, the traceback on request
        if os.environ.get("FAULTBOT_DEBUG"):
            raise
        print(f"faultbot: internal error: {type(exc).__name__}: {_one_line(exc)} (a defect in faultbot; please "
              "report it with the command that hit it; FAULTBOT_DEBUG=1 shows the traceback)", file=sys.stderr)
        return EXIT_DEFECT


if __name__ == "__main__":
    sys.exit(main())
