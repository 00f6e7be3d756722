"""Compile the numba kernels the suite needs into numba's on-disk cache, a few at a time.

``make test`` runs this before ``pytest -n 2``. On a clean clone (no cache beside the sources)
compiling the kernels that play whole games (the engine's, the odds table's, the pegging
table's, ...) is most of the suite's time, and each is compiled by the first process that calls
it: two pytest workers meeting the same kernel would both compile it. Here each kernel is
compiled once, by the public call that the tests make (so with the same argument types): the
tasks of ``crib warmup --all``, in ``--jobs`` processes at once, longest first; the tests then
load them from the cache. A kernel missed here is compiled by the test that needs it, as without
this script: it changes no result, only when the compiling happens. With a warm cache it takes a
few seconds.

Usage::

    .venv/bin/python tests/compile_kernels.py [--jobs 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context


def _api_research() -> None:
    """The Python API's research calls that the tests make and no command does (so not in
    ``crib warmup --all``)."""
    from analyzer.research.odds import play_from_score, record_deals
    from analyzer.research.odds3 import record_deals3
    from analyzer.sim.harness import play_hands

    record_deals(1, seed=0)
    record_deals3(1, seed=0)
    play_from_score(120, 120, True, games=1, seed=0, workers=1)
    play_hands("5H 5S 6D JC", "AC 2D 3H 4S", starter="KD")


def _tasks():
    """``crib warmup --all``'s tasks (:mod:`analyzer.cli.warmup`: the public calls the commands
    make, which the tests make too) and the API's research calls, the research tables first:
    they are the longest."""
    from analyzer.cli.warmup import WarmupTask, warmup_tasks

    tasks = [*warmup_tasks(everything=True),
             WarmupTask("the API's research calls (record_deals, play_from_score, play_hands)",
                        _api_research, False)]
    return sorted(tasks, key=lambda task: task.everyday)


def _run(index: int) -> tuple[str, float]:
    task = _tasks()[index]
    start = time.perf_counter()
    task.run()
    return task.name, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes at once (default 2)")
    jobs = parser.parse_args(argv).jobs
    start = time.perf_counter()
    # spawn: fresh interpreters, nothing of numba's state inherited from this one
    with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=get_context("spawn")) as pool:
        for done in as_completed([pool.submit(_run, k) for k in range(len(_tasks()))]):
            name, seconds = done.result()
            print(f"compile_kernels: {name} {seconds:.1f} s", flush=True)
    print(f"compile_kernels: {time.perf_counter() - start:.1f} s in all, {jobs} at once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
