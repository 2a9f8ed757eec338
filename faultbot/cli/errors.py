"""Errors the CLI reports as one clear line and an exit code, never as a traceback."""

from __future__ import annotations

EXIT_OK = 0
EXIT_NO_MATCH = 1       # diagnose: nothing in the KB matched; kb lint: problems found
EXIT_USAGE = 2          # bad arguments, unreadable input, unusable KB
EXIT_DEFECT = 70        # a defect in faultbot itself (sysexits' EX_SOFTWARE), not in what it was given


class UsageError(Exception):
    """Bad arguments or input; the message is shown as ``faultbot: error: <message>``."""
