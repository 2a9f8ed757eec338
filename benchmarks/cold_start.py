"""Cold start of faultbot: wall time and peak memory of fresh processes, against bare Python, in one run.

    python benchmarks/cold_start.py [--runs 5] [--check]

Every command runs once to warm the OS and faultbot's caches (a private $XDG_CACHE_HOME for the
run), then --runs rounds run each command once, interleaved; a figure is the median wall time and
the largest peak RSS. The baseline
is the same interpreter importing faultbot's two compiled dependencies and nothing else
(`python -c "import yaml, rapidfuzz"`). faultbot runs as the console script beside the interpreter,
as users run it. Targets, as ratios to the baseline: --help <= 1.5x, diagnose <= 3x, ask <= 4x;
with --check the script exits 1 when one is missed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parent.parent
EXAMPLE = REPO / "examples" / "lccl-allreduce-vector-core-timeout.log"
# A second snippet: the first test log of the notify-timeout entry, as an engineer pastes it.
NOTIFY_ENTRY = REPO / "kb" / "entries" / "hccl" / "hccl.notify-timeout.yaml"
QUESTION = "what is the default HCCL_EXEC_TIMEOUT"
BASELINE = [sys.executable, "-c", "import yaml, rapidfuzz"]


@dataclass(frozen=True)
class Timing:
    seconds: float      # median wall time
    peak_mb: float      # largest peak RSS of the runs


def faultbot_command() -> list[str]:
    script = Path(sys.executable).with_name("faultbot")
    return [str(script)] if script.exists() else [sys.executable, "-m", "faultbot"]


def run_once(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one fresh process; exit 1 ("nothing matched") is a result."""
    with tempfile.TemporaryFile() as errors:
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=errors, env=env, cwd=REPO)
        # wait4 gives the rusage of this child alone, not of every child so far
        _, status, usage = os.wait4(process.pid, 0)
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        if process.returncode not in (0, 1):
            errors.seek(0)
            raise SystemExit(f"{' '.join(argv)} exited {process.returncode}:\n{errors.read().decode(errors='replace')}")
    return seconds, usage.ru_maxrss / 1024


def measure(commands: list[list[str]], runs: int, env: dict[str, str]) -> list[Timing]:
    """One warm-up of each command, then ``runs`` rounds running each once: interleaved, a change
    of load on the machine (2 cores shared) hits every command alike instead of skewing ratios."""
    for argv in commands:
        run_once(argv, env)
    results: list[list[tuple[float, float]]] = [[] for _ in commands]
    for _ in range(runs):
        for argv, measured in zip(commands, results, strict=True):
            measured.append(run_once(argv, env))
    return [Timing(statistics.median(s for s, _ in measured), max(mb for _, mb in measured)) for measured in results]


def cache_env(cache: Path) -> dict[str, str]:
    """The environment of the measured runs: a private cache, and bytecode written as Python does by
    default (`pip install .` compiles it at install; with PYTHONDONTWRITEBYTECODE set, an editable
    install would compile every module at every start, about 4x the cold start)."""
    environment = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    faultbot = faultbot_command()
    with tempfile.TemporaryDirectory(prefix="faultbot-cold-") as scratch:
        snippet = Path(scratch) / "notify-timeout.log"
        entry = yaml.safe_load(NOTIFY_ENTRY.read_text(encoding="utf-8"))
        snippet.write_text(entry["tests"][0]["log"], encoding="utf-8")
        env = cache_env(Path(scratch) / "cache")
        cases: list[tuple[str, list[str], float | None]] = [
            ('python -c "import yaml, rapidfuzz"', BASELINE, None),
            ("faultbot --help", [*faultbot, "--help"], 1.5),
            (f"faultbot diagnose --no-ask {EXAMPLE.name}", [*faultbot, "diagnose", "--no-ask", str(EXAMPLE)], 3.0),
            (f"faultbot diagnose --no-ask {snippet.name}", [*faultbot, "diagnose", "--no-ask", str(snippet)], 3.0),
            (f'faultbot ask "{QUESTION}"', [*faultbot, "ask", QUESTION], 4.0),
        ]
        timings = measure([argv for _, argv, _ in cases], args.runs, env)
    baseline = timings[0].seconds
    print(f"median of {args.runs} interleaved runs after one warm-up, {os.cpu_count()} cores, {sys.executable}")
    print(f"{'command':64} {'wall':>8} {'peak RSS':>9} {'ratio':>7}  target")
    missed = []
    for (label, _, target), timing in zip(cases, timings, strict=True):
        ratio = timing.seconds / baseline
        verdict = "" if target is None else f"<= {target:.1f}x  " + ("ok" if ratio <= target else "MISSED")
        if target is not None and ratio > target:
            missed.append(label)
        print(f"{label:64} {timing.seconds:7.3f}s {timing.peak_mb:7.0f}MB {ratio:6.2f}x  {verdict}")
    if missed and args.check:
        sys.exit(1)


if __name__ == "__main__":
    main()
