"""``crib bench --cold``: each main command's first run, with an empty numba cache, beside its
second.

Each command runs in a new process twice, both on one temporary ``NUMBA_CACHE_DIR`` that starts
empty: the first run compiles what it needs into it, the second loads it. For each run the wall
seconds and the CPU seconds of the process are measured; the first run also reports, through
``ANALYZER_COMPILE_REPORT`` (:mod:`analyzer.cli.compiletime`), the CPU seconds numba spent
compiling and the kernels it compiled. The last case, ``crib warmup --all``, compiles every
kernel the command line uses in one process: its kernels are the per-kernel compile table.

The games are small: this measures the compiler, not the engine (``crib bench`` does that).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from .compiletime import REPORT_ENV

__all__ = ["COLD_CASES", "ColdCase", "format_cold", "run_cold"]

HAND = ["5H", "5S", "6D", "JC", "QS", "KH"]

#: serve's first P(win): what ``/api/keep/win`` computes, in a new process.
_SERVE_WIN = ("from analyzer.web.answers import win_answer; "
              "win_answer('5H 5S 6D JC QS KH', 'dealer', 100, 100)")


@dataclass(frozen=True)
class ColdCase:
    name: str
    args: tuple[str, ...]  #: ``crib`` arguments, or ``("-c", code)`` for Python code
    stdin: str = ""


#: The commands measured, in order. ``play``'s first computer move: you deal (``--first me``),
#: throw two cards, and the AI, pone, throws and lays its first card before you quit (with no
#: history: a stopped game's review, for the history, is not the first move's wait, and a
#: benchmark writes nothing into your history).
COLD_CASES = (
    ColdCase("crib simulate --games 1000 --seed 1", ("simulate", "--games", "1000", "--seed", "1")),
    ColdCase("crib duel best ev+lookahead --games 200", ("duel", "best", "ev+lookahead",
                                                        "--games", "200", "--seed", "1")),
    ColdCase("crib peg (a six-card play)", ("peg", "--hand", "4C", "5H", "9S", "KD", "--played",
                                            "4C", "6D", "--starter", "2S", "--pone")),
    ColdCase("crib keep --crib uniform", ("keep", *HAND, "--dealer", "--crib", "uniform")),
    ColdCase("crib keep --score 110 115", ("keep", *HAND, "--dealer", "--score", "110", "115")),
    ColdCase("crib play, first computer move", ("play", "--seed", "1", "--first", "me",
                                                "--no-history", "--save", "{tmp}/game.jsonl"),
             "1 2\nquit\ny\n"),
    ColdCase("crib serve, first P(win)", ("-c", _SERVE_WIN)),
    ColdCase("crib warmup --all", ("warmup", "--all", "--quiet")),
)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _run_once(case: ColdCase, cache: str, tmp: str, report: str | None) -> dict:
    args = [a.replace("{tmp}", tmp) for a in case.args]
    argv = [sys.executable, *args] if args[0] == "-c" else [sys.executable, "-m", "analyzer",
                                                           *args]
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, PYTHONWARNINGS="ignore")
    env.pop(REPORT_ENV, None)
    if report is not None:
        env[REPORT_ENV] = report
    cpu0, wall0 = _children_cpu(), time.perf_counter()
    done = subprocess.run(argv, input=case.stdin, capture_output=True, text=True, env=env,
                          cwd=tmp)
    wall, cpu = time.perf_counter() - wall0, _children_cpu() - cpu0
    if done.returncode != 0:
        raise RuntimeError(f"{case.name}: exit status {done.returncode}: "
                           f"{done.stderr.strip()[-500:]}")
    row = {"wall": wall, "cpu": cpu, "compile_cpu": 0.0, "kernels": []}
    if report is not None and Path(report).exists():
        data = json.loads(Path(report).read_text(encoding="utf-8"))
        row["kernels"] = data["kernels"]
        row["compile_cpu"] = sum(k["self_cpu"] for k in data["kernels"])
    return row


def _warm_report_code(case: ColdCase) -> ColdCase:
    """A ``-c`` case writes no report through ``crib``'s main: wrap it in a clock."""
    if case.args[0] != "-c":
        return case
    code = ("import os; from analyzer.cli.compiletime import CompileClock, report_to_file, "
            "REPORT_ENV\nclock = CompileClock().install()\n" + case.args[1] +
            "\nif os.environ.get(REPORT_ENV): report_to_file(clock, os.environ[REPORT_ENV])\n")
    return ColdCase(case.name, ("-c", code), case.stdin)


def run_cold(cases=COLD_CASES, progress: Callable[[str], None] | None = None) -> list[dict]:
    """Run each case cold then warm; one dict a case: ``name``, ``first`` and ``second``
    (``wall``, ``cpu``, ``compile_cpu``, ``kernels``)."""
    say = progress or (lambda _msg: None)
    results = []
    for case in cases:
        case = _warm_report_code(case)
        with tempfile.TemporaryDirectory(prefix="crib-cold-") as tmp:
            cache = os.path.join(tmp, "numba-cache")
            report = os.path.join(tmp, "compiles.json")
            try:
                first = _run_once(case, cache, tmp, report)
                second = _run_once(case, cache, tmp, None)
            except RuntimeError as exc:
                results.append({"name": case.name, "error": str(exc)})
                say(f"{case.name}: {exc}")
                continue
        results.append({"name": case.name, "first": first, "second": second})
        say(f"{case.name}: first run {first['wall']:.1f} s ({first['compile_cpu']:.1f} s of CPU "
            f"compiling), second run {second['wall']:.2f} s")
    return results


def format_cold(results: list[dict]) -> list[str]:
    """The side-by-side table, in Markdown.

    >>> row = {"wall": 2.0, "cpu": 1.5, "compile_cpu": 1.0}
    >>> print("\\n".join(format_cold([{"name": "crib x", "first": row, "second": row}])))
    | command | first run | of it, CPU compiling | second run |
    |---|---:|---:|---:|
    | crib x | 2.0 s | 1.0 s | 2.00 s |
    """
    lines = ["| command | first run | of it, CPU compiling | second run |",
             "|---|---:|---:|---:|"]
    for r in results:
        if "error" in r:
            lines.append(f"| {r['name']} | failed: {r['error'][:80]} | | |")
            continue
        first, second = r["first"], r["second"]
        lines.append(f"| {r['name']} | {first['wall']:.1f} s | {first['compile_cpu']:.1f} s | "
                     f"{second['wall']:.2f} s |")
    return lines
