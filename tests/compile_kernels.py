"""Compile the numba kernels the suite needs into numba's on-disk cache, a few at a time.

``make test`` runs this before ``pytest -n 2``. On a clean clone (no cache beside the sources)
compiling the kernels that play whole games (the engine's, the odds table's, the pegging
table's, ...) is most of the suite's time, and each is compiled by the first process that calls
it: two pytest workers meeting the same kernel would both compile it. Here each kernel is
compiled once, by the public call that the tests make (so with the same argument types), in
``--jobs`` processes at once, longest first; the tests then load them from the cache. A kernel
missed here is compiled by the test that needs it, as without this script: it changes no
result, only when the compiling happens. With a warm cache it takes a few seconds.

Usage::

    .venv/bin/python tests/compile_kernels.py [--jobs 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import get_context

HAND = "5H 5S 6D JC QS KH"


def _engine() -> None:
    """The engine's game kernel: the six-card game, then a form that throws one card (whose
    card-value table is another argument type)."""
    from analyzer import simulate

    simulate(2, seed=0, players="ev+lookahead", workers=1, record_games=2)
    simulate(3, seed=0, players="ev+lookahead", workers=1, record_games=3,
             variant="three-player")
    from analyzer import play_hands

    play_hands("5H 5S 6D JC", "AC 2D 3H 4S", starter="KD")


def _pegging() -> None:
    from analyzer import build_pegging_table

    build_pegging_table(deals=10, seed=0, workers=1)


def _odds_tally() -> None:
    from analyzer.research.odds import tally_deals

    tally_deals(1, seed=0, workers=1)


def _odds_record() -> None:
    from analyzer.research.odds import record_deals

    record_deals(1, seed=0)


def _odds_games() -> None:
    from analyzer.research.odds import play_from_score

    play_from_score(120, 120, True, games=1, seed=0, workers=1)


def _crib_tables() -> None:
    """The self-play crib tables of each form."""
    from analyzer import build_crib_table

    for variant in ("six-card", "five-card", "three-player"):
        build_crib_table(deals=10, seed=0, max_iterations=1, workers=1, variant=variant)


def _keep() -> None:
    """keep, keep_to_win and advise_play (one hand each), the census."""
    from analyzer import advise_play, keep, keep_to_win, show_census
    from analyzer.keeping.discard import crib_distribution

    for crib in ("table", "uniform", "weighted"):
        keep(HAND, dealer=True, crib=crib)
    crib_distribution(HAND, dealer=True, crib="weighted")
    keep_to_win(HAND, True, (100, 100), samples=4)
    advise_play("5H 6D JC QS", dealer=False, starter="2C", samples=4)
    show_census()


def _tabletop() -> None:
    """The steps a game at the table calls one by one (crib play), in both forms it plays."""
    from analyzer.table.tabletop import Table

    Table(("best", "ev+lookahead"), seed=0).play()
    Table(("best", "ev+lookahead"), variant="five-card", seed=0).play()


#: (name, task), longest first (the order they start in).
TASKS = (
    ("engine", _engine),
    ("pegging table", _pegging),
    ("odds tallies", _odds_tally),
    ("odds games", _odds_games),
    ("odds records", _odds_record),
    ("crib tables", _crib_tables),
    ("keep", _keep),
    ("tabletop", _tabletop),
)


def _run(name: str) -> tuple[str, float]:
    start = time.perf_counter()
    dict(TASKS)[name]()
    return name, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes at once (default 2)")
    jobs = parser.parse_args(argv).jobs
    start = time.perf_counter()
    # spawn: fresh interpreters, nothing of numba's state inherited from this one
    with ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=get_context("spawn")) as pool:
        for done in as_completed([pool.submit(_run, name) for name, _ in TASKS]):
            name, seconds = done.result()
            print(f"compile_kernels: {name} {seconds:.1f} s", flush=True)
    print(f"compile_kernels: {time.perf_counter() - start:.1f} s in all, {jobs} at once")
    return 0


if __name__ == "__main__":
    sys.exit(main())
