"""``crib bench --against REV``: this checkout's benchmarks beside another commit's, in one run.

The machine a benchmark runs on is shared and its speed moves from minute to minute, so two
figures measured an hour apart say little. Here the other commit is checked out into a temporary
git worktree and both run ``crib bench --json`` in turn, round after round, with the same
interpreter and packages: the other one as ``python -m analyzer`` with its worktree first on
``PYTHONPATH`` (its own compiled kernels go to its own ``__pycache__``). Each figure is reported
as the median over the rounds for each side, and their ratio (above 1: this checkout is faster).
The worktree is removed afterwards, whatever happens.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

__all__ = ["BenchCompareError", "compare_with_commit", "format_comparison"]


class BenchCompareError(RuntimeError):
    """The other commit cannot be checked out or benchmarked (one line, for the CLI)."""


def _git(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                              check=False)
    except OSError as exc:
        raise BenchCompareError(f"cannot run git: {exc}") from None
    if done.returncode != 0:
        message = (done.stderr.strip().splitlines() or ["failed"])[-1]
        raise BenchCompareError(f"git {args[0]}: {message}")
    return done.stdout.strip()


def _source_root() -> Path:
    """The git checkout this package runs from (an editable install), or an error."""
    root = Path(__file__).resolve().parents[2]  # analyzer/cli/benchcompare.py
    if not (root / ".git").exists():
        raise BenchCompareError("--against needs the package run from a git checkout (an "
                                "editable install, as `make run` makes)")
    return root


def _bench_json(argv: list[str], env: dict, what: str, cwd: Path) -> dict:
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd, check=False)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise BenchCompareError(f"crib bench of {what} failed: {last}")
    try:
        return json.loads(done.stdout.strip().splitlines()[-1])
    except (IndexError, json.JSONDecodeError):
        raise BenchCompareError(f"crib bench of {what} printed no JSON") from None


def _higher_is_better(unit: str) -> bool:
    """Rates (``.../s``) and ratios (``x``) are better higher; times are better lower."""
    return unit.endswith("/s") or unit == "x"


def compare_with_commit(rev: str, rounds: int = 2,
                        progress: Callable[[str], None] | None = None) -> dict:
    """Benchmark commit ``rev`` and this checkout in turn, ``rounds`` times each.

    Returns ``{"rev", "commit", "rounds", "figures": [{"name", "unit", "before", "after",
    "ratio", "before_all", "after_all"}, ...]}``: ``before`` is ``rev``'s median, ``after``
    this checkout's, ``ratio`` above 1 when this checkout is faster (rates and ratios after /
    before, times before / after), ``None`` for a figure only one side reports.
    """
    say = progress or (lambda _msg: None)
    if rounds < 1:
        raise BenchCompareError(f"--rounds must be at least 1, got {rounds}")
    root = _source_root()
    try:
        commit = _git(root, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    except BenchCompareError:
        raise BenchCompareError(f"no commit {rev!r} in {root}") from None
    tmp = Path(tempfile.mkdtemp(prefix="crib-bench-"))
    other = tmp / "src"
    try:
        _git(root, "worktree", "add", "--detach", str(other), commit)
        # the shipped tables as a package inside the other tree's source, as installed
        if (other / "data" / "__init__.py").exists() and not (other / "analyzer" / "data").exists():
            os.symlink(other / "data", other / "analyzer" / "data", target_is_directory=True)
        env = dict(os.environ, PYTHONWARNINGS="ignore")
        other_env = dict(env, PYTHONPATH=os.pathsep.join(
            [str(other), *filter(None, [env.get("PYTHONPATH")])]))
        command = [sys.executable, "-m", "analyzer", "bench", "--json"]
        runs: dict[str, list[dict]] = {"before": [], "after": []}
        for r in range(rounds):
            say(f"round {r + 1} of {rounds}: {rev} ({commit[:10]})")
            # each side runs from its own tree: ``python -m`` puts the working folder first
            runs["before"].append(_bench_json(command, other_env, rev, other))
            say(f"round {r + 1} of {rounds}: this checkout")
            runs["after"].append(_bench_json(command, env, "this checkout", root))
    finally:
        subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(other)],
                       capture_output=True, check=False)
        shutil.rmtree(tmp, ignore_errors=True)
    values: dict[str, dict] = {}
    order: list[str] = []
    for side in ("before", "after"):
        for result in runs[side]:
            for f in result["figures"]:
                if f["name"] not in values:
                    values[f["name"]] = {"unit": f["unit"], "before": [], "after": []}
                    order.append(f["name"])
                values[f["name"]][side].append(float(f["value"]))
    figures = []
    for name in order:
        v = values[name]
        before = statistics.median(v["before"]) if v["before"] else None
        after = statistics.median(v["after"]) if v["after"] else None
        ratio = None
        if before and after:
            ratio = after / before if _higher_is_better(v["unit"]) else before / after
        figures.append({"name": name, "unit": v["unit"], "before": before, "after": after,
                        "ratio": ratio, "before_all": v["before"], "after_all": v["after"]})
    return {"rev": rev, "commit": commit, "rounds": rounds, "figures": figures}


def format_comparison(result: dict) -> list[str]:
    """The comparison as lines of a table: figure, before, after, ratio."""
    rows = [(f["name"], f["unit"], f["before"], f["after"], f["ratio"])
            for f in result["figures"]]
    width = max([len(r[0]) for r in rows] + [6])
    lines = [f"{'figure':<{width}}  {'before':>12}  {'after':>12}  unit          ratio",
             f"{'':<{width}}  {result['rev'][:12]:>12}  {'this':>12}"]
    for name, unit, before, after, ratio in rows:
        b = f"{before:12.4g}" if before is not None else f"{'-':>12}"
        a = f"{after:12.4g}" if after is not None else f"{'-':>12}"
        r = f"{ratio:6.2f}" if ratio is not None else "     -"
        lines.append(f"{name:<{width}}  {b}  {a}  {unit:<12} {r}")
    lines.append(f"medians of {result['rounds']} rounds each, in turn; ratio above 1: this "
                 "checkout is faster")
    return lines
