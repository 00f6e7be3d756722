"""Benchmarks behind ``crib bench``: figures measured in-process after a warm-up.

Each figure is the median of several repeats, so a noisy shared machine moves it less; the
figures of new processes (start-up, ``crib tables keep``) also give their spread, the fastest
and the slowest repeat. Nothing here asserts a speed: the numbers are printed and go in the
README's table.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

import numba
import numpy as np

from .choices import numba_threads

__all__ = ["run_benchmarks"]

CENSUS_CASES = 12_994_800


def _median_seconds(fn: Callable[[], object], repeats: int) -> float:
    fn()  # warm-up: compile or load from the cache, fill the caches
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _process_seconds(argv: list[str], repeats: int) -> list[float]:
    """Wall times of ``repeats`` new processes running ``argv``, after one to warm the caches."""
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    subprocess.run(argv, check=True, capture_output=True, env=env)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        subprocess.run(argv, check=True, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
    return times


def _spread(times: list[float]) -> str:
    """``median of 5, 0.18 to 0.21 s``: how a figure varied over its repeats."""
    return f"median of {len(times)}, {min(times):.3g} to {max(times):.3g} s"


def run_benchmarks(progress: Callable[[str], None] | None = None, repeats: int = 5) -> dict:
    """Measure the scorer, ``keep``, the game engine and the start-up of a new ``crib`` process.

    Returns ``{"threads": T, "figures": [{"name", "value", "unit", "note"}, ...]}``.
    """
    from .discard import keep
    from .scoring import _census, rank_table, score_hands

    say = progress or (lambda _msg: None)
    figures = []

    def add(name, value, unit, note=""):
        figures.append({"name": name, "value": value, "unit": unit, "note": note})
        say(f"{name}: {value:.4g} {unit} {note}".rstrip())

    threads = numba.get_num_threads()
    table = rank_table()
    with numba_threads(1):
        t = _median_seconds(lambda: _census(False, table), repeats)
        add("census, 1 thread", t, "s", f"{t / CENSUS_CASES * 1e9:.1f} ns a case")
        add("show scores/s, 1 thread", CENSUS_CASES / t, "scores/s", "full census")
    t = _median_seconds(lambda: _census(False, table), repeats)
    add(f"show scores/s, {threads} threads", CENSUS_CASES / t, "scores/s", "full census")

    rng = np.random.default_rng(0)
    n = 2_000_000
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :5].astype(np.uint8)
    t = _median_seconds(lambda: score_hands(hands[:, :4], hands[:, 4]), repeats)
    add(f"score_hands/s, {threads} threads", n / t, "scores/s", f"random batch of {n:,}")

    from .discard import evaluate_discards

    sixes = [np.sort(rng.permutation(52)[:6]) for _ in range(20)]
    for label, count, crib in (("uniform crib, 1 thread", 1, "uniform"),
                               (f"uniform crib, {threads} threads", threads, "uniform"),
                               (f"weighted crib, {threads} threads", threads, "weighted"),
                               ("table crib, 1 thread", 1, "table")):
        with numba_threads(count):
            t = _median_seconds(
                lambda crib=crib: [keep(six, dealer=True, crib=crib) for six in sixes], repeats)
            t_arrays = _median_seconds(
                lambda crib=crib: [evaluate_discards(six, True, crib) for six in sixes], repeats)
        per_hand = t / len(sixes)
        add(f"keep, {label}", per_hand * 1e3, "ms a hand",
            f"{1 / per_hand:.0f} hands/s as a DataFrame; "
            f"{t_arrays / len(sixes) * 1e3:.3f} ms as arrays (evaluate_discards)")

    fives = [np.sort(rng.permutation(52)[:5]) for _ in range(20)]
    for variant in ("three-player", "four-player", "five-card"):
        with numba_threads(1):
            t = _median_seconds(
                lambda v=variant: [keep(h, dealer=True, variant=v) for h in fives], repeats)
        add(f"keep, {variant}, uniform crib, 1 thread", t / len(fives) * 1e3, "ms a hand",
            "exact, every unseen crib card and starter")

    from .discard import keep_many

    many = np.array([rng.permutation(52)[:6] for _ in range(10_000)])
    t = _median_seconds(lambda: keep_many(many, dealer=True), repeats)
    add(f"keep_many, table crib, {threads} threads", t / len(many) * 1e3, "ms a hand",
        f"{len(many) / t:,.0f} hands/s, {len(many):,} hands in one DataFrame")

    from .harness import simulate

    hand = ["5H", "5S", "6D", "JC", "QS", "KH"]

    for player, games, count in (("ev+greedy", 100_000, threads), ("ev+greedy", 50_000, 1),
                                 ("ev+lookahead", 100_000, threads)):
        simulate(2_000, seed=0, players=(player, player), workers=count)  # warm-up
        rates = [simulate(games, seed=k, players=(player, player), workers=count)
                 for k in range(3)]
        rate = statistics.median(r.games / r.elapsed_seconds for r in rates)
        add(f"games/s, {player} both, {count} thread{'s' if count > 1 else ''}", rate, "games/s",
            f"{games:,} complete games, median of 3")

    from .duel import duel

    duel("best", "ev+lookahead", 200, seed=0, workers=threads)  # warm-up
    rates = [duel("best", "ev+lookahead", 4_000, seed=k, workers=threads) for k in range(3)]
    rate = statistics.median(r.games / r.elapsed_seconds for r in rates)
    add(f"games/s, best vs ev+lookahead, {threads} threads", rate, "games/s",
        "4,000 games (a duel), median of 3")

    from .crib import crib_values
    from .odds import win_table
    from .pegging import peg_table
    from .rng import chunk_states
    from .scoring import hand_table
    from .winkeep import (
        BEST_DISCARD_CANDIDATES,
        BEST_DISCARD_REACH,
        BEST_DISCARD_SAMPLES,
        _best_discard,
        keep_to_win,
    )

    st = chunk_states(0, np.arange(1))[0].copy()
    tables = (crib_values("table"), np.array(peg_table()), table, hand_table(),
              np.array(win_table()))
    late = [np.sort(rng.permutation(52)[:6]).astype(np.int64) for _ in range(100)]
    with numba_threads(1):
        t = _median_seconds(lambda: [
            _best_discard(six, True, 105, 110, st, *tables, BEST_DISCARD_SAMPLES,
                          BEST_DISCARD_REACH, BEST_DISCARD_CANDIDATES) for six in late], repeats)
    add("best discard near the end, 1 thread", t / len(late) * 1e3, "ms a decision",
        f"{BEST_DISCARD_SAMPLES} samples of the deal's end x {BEST_DISCARD_CANDIDATES} keeps; "
        "points only (a table lookup) when no player is within reach")
    t = _median_seconds(lambda: keep_to_win(hand, True, (110, 115)), repeats)
    add(f"keep_to_win, 4,000 samples, {threads} threads", t * 1e3, "ms a hand", "crib keep --score")

    _process_figures(add, repeats)
    return {"threads": threads, "figures": figures}


def _process_figures(add: Callable[..., None], repeats: int) -> None:
    """The figures of new ``crib`` processes, by wall time after one warm-up run: start-up of
    the interactive commands, and ``crib tables keep`` on two threads (at most 3 repeats)."""
    hand = ["5H", "5S", "6D", "JC", "QS", "KH"]
    command = [sys.executable, "-m", "analyzer"]
    for label, argv, note in (
            ("new `crib keep` process", ["keep", *hand, "--dealer"],
             "table crib, no compiled code loaded; "),
            ("new `crib keep --crib uniform` process", ["keep", *hand, "--dealer", "--crib",
                                                        "uniform"], "numba cache warm; "),
            ("new `crib count` process", ["count", "5H", "5C", "5S", "JD", "--starter", "5D"],
             ""),
            ("new `crib --help` process", ["--help"], "")):
        times = _process_seconds([*command, *argv], repeats)
        add(label, statistics.median(times), "s", note + _spread(times))
    with tempfile.TemporaryDirectory() as folder:
        times = _process_seconds([*command, "tables", "keep", "--out",
                                  os.path.join(folder, "keep.parquet"), "--workers", "2"],
                                 min(repeats, 3))
    add("`crib tables keep`, all 20,358,520 hands, 2 threads", statistics.median(times), "s",
        "a new process, wall time, Parquet and CSV written; " + _spread(times))
