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

from ..core.choices import numba_threads

__all__ = ["run_benchmarks"]

CENSUS_CASES = 12_994_800


def _median_seconds(fn: Callable[[], object], repeats: int) -> float:
    return statistics.median(_interleaved_seconds([fn], repeats)[0])


def _interleaved_seconds(fns: list[Callable[[], object]], repeats: int) -> list[list[float]]:
    """Seconds of each repeat of each of ``fns``, run in turn (A, B, A, B, ...) after a warm-up
    of each (compile or load from the cache, fill the caches), so that a machine whose speed
    changes moves them alike."""
    for fn in fns:
        fn()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, out in zip(fns, times, strict=True):
            start = time.perf_counter()
            fn()
            out.append(time.perf_counter() - start)
    return times


def _spread(times: list[float], scale: float) -> str:
    """The median of ``times`` times ``scale``, and their range: ``"0.091 (0.088 to 0.12)"``."""
    return (f"{statistics.median(times) * scale:.3g} ({min(times) * scale:.3g} to "
            f"{max(times) * scale:.3g})")


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


def _seconds_spread(times: list[float]) -> str:
    """``median of 5, 0.18 to 0.21 s``: how a figure varied over its repeats."""
    return f"median of {len(times)}, {min(times):.3g} to {max(times):.3g} s"


def _random_hands(n: int, k: int, rng: np.random.Generator) -> np.ndarray:
    """``n`` rows of ``k`` distinct cards, uint8, each row uniform over the ordered choices:
    rows drawn with replacement, and those holding a card twice drawn again until none does
    (about one row in five for five cards), rather than a sort of a 52-card shuffle a row
    (seconds for millions of rows)."""
    hands = rng.integers(0, 52, size=(n, k), dtype=np.uint8)
    todo = np.arange(n)
    while todo.size:
        rows = hands[todo]
        twice = np.zeros(todo.size, np.bool_)
        for i in range(k):
            for j in range(i + 1, k):
                twice |= rows[:, i] == rows[:, j]
        todo = todo[twice]
        hands[todo] = rng.integers(0, 52, size=(todo.size, k), dtype=np.uint8)
    return hands


def run_benchmarks(progress: Callable[[str], None] | None = None, repeats: int = 5) -> dict:
    """Measure the scorer, ``keep``, the game engine and the start-up of a new ``crib`` process.

    Returns ``{"threads": T, "figures": [{"name", "value", "unit", "note"}, ...]}``.
    """
    from ..core.scoring import score_hands, show_census
    from ..keeping.discard import keep

    say = progress or (lambda _msg: None)
    figures = []

    def add(name, value, unit, note=""):
        figures.append({"name": name, "value": value, "unit": unit, "note": note})
        say(f"{name}: {value:.4g} {unit} {note}".rstrip())

    threads = numba.get_num_threads()
    with numba_threads(1):
        t = _median_seconds(show_census, repeats)
        add("census, 1 thread", t, "s", f"{t / CENSUS_CASES * 1e9:.1f} ns a case")
        add("show scores/s, 1 thread", CENSUS_CASES / t, "scores/s", "full census")
    t = _median_seconds(show_census, repeats)
    add(f"show scores/s, {threads} threads", CENSUS_CASES / t, "scores/s", "full census")

    rng = np.random.default_rng(0)
    n = 2_000_000
    hands = _random_hands(n, 5, np.random.default_rng(1))
    rng.bit_generator.advance(n * 52)  # the hands below as before, when this drew n shuffles
    t = _median_seconds(lambda: score_hands(hands[:, :4], hands[:, 4]), repeats)
    add(f"score_hands/s, {threads} threads", n / t, "scores/s", f"random batch of {n:,}")

    from ..keeping.discard import crib_means, evaluate_discards

    sixes = [np.sort(rng.permutation(52)[:6]) for _ in range(20)]
    for crib in ("uniform", "weighted", "table"):
        with numba_threads(1):
            times, t_arrays = _interleaved_seconds(
                [lambda crib=crib: [keep(six, dealer=True, crib=crib) for six in sixes],
                 lambda crib=crib: [evaluate_discards(six, True, crib) for six in sixes]],
                repeats)
        per_hand = statistics.median(times) / len(sixes)
        add(f"keep, {crib} crib, 1 thread", per_hand * 1e3, "ms a hand",
            f"{_spread(times, 1e3 / len(sixes))} over {repeats} repeats, "
            f"{1 / per_hand:.0f} hands/s as a DataFrame; "
            f"{_spread(t_arrays, 1e3 / len(sixes))} as arrays (evaluate_discards)")

    # The exact crib counted against the enumeration it replaced (kept as the tests' oracle),
    # in turn, one hand at a time: the 15 discards' means.
    few = sixes[:5]
    for crib in ("uniform", "weighted"):
        with numba_threads(1):
            counted, enumerated = _interleaved_seconds(
                [lambda crib=crib: [crib_means(six, True, crib) for six in few],
                 lambda crib=crib: [crib_means(six, True, crib, "enumerated") for six in few]],
                repeats)
        ratio = statistics.median(enumerated) / statistics.median(counted)
        add(f"exact {crib} crib of 15 discards, counted, 1 thread",
            statistics.median(counted) / len(few) * 1e3, "ms a hand",
            f"{_spread(counted, 1e3 / len(few))}; enumerated (45,540 cribs each) "
            f"{_spread(enumerated, 1e3 / len(few))} in turn: {ratio:.0f} times faster")

    fives = [np.sort(rng.permutation(52)[:5]) for _ in range(20)]
    for variant in ("three-player", "four-player", "five-card"):
        with numba_threads(1):
            t = _median_seconds(
                lambda v=variant: [keep(h, dealer=True, crib="uniform", variant=v)
                                   for h in fives], repeats)
        add(f"keep, {variant}, uniform crib, 1 thread", t / len(fives) * 1e3, "ms a hand",
            "exact, every unseen crib card and starter")

    from ..keeping.discard import keep_many

    many = np.array([rng.permutation(52)[:6] for _ in range(10_000)])
    t = _median_seconds(lambda: keep_many(many, dealer=True), repeats)
    add(f"keep_many, table crib, {threads} threads", t / len(many) * 1e3, "ms a hand",
        f"{len(many) / t:,.0f} hands/s, {len(many):,} hands in one DataFrame")

    from ..sim.harness import simulate

    hand = ["5H", "5S", "6D", "JC", "QS", "KH"]

    # Games: each repeat runs one thread, then all threads, back to back, so that the ratio of
    # the two is measured in the same minute of the machine, repeat by repeat.
    for player, one, many in (("ev+greedy", 50_000, 100_000), ("ev+lookahead", 20_000, 50_000)):
        simulate(2_000, seed=0, players=(player, player), workers=1)  # warm-up
        simulate(2_000, seed=0, players=(player, player), workers=threads)
        rates_one, rates_many = [], []
        for k in range(repeats):
            r = simulate(one, seed=k, players=(player, player), workers=1)
            rates_one.append(r.games / r.elapsed_seconds)
            r = simulate(many, seed=k, players=(player, player), workers=threads)
            rates_many.append(r.games / r.elapsed_seconds)
        ratios = [m / o for m, o in zip(rates_many, rates_one, strict=True)]
        add(f"games/s, {player} both, 1 thread", statistics.median(rates_one), "games/s",
            f"{one:,} complete games; range {min(rates_one):,.0f} to {max(rates_one):,.0f} "
            f"over {repeats} repeats")
        add(f"games/s, {player} both, {threads} threads", statistics.median(rates_many),
            "games/s", f"{many:,} complete games; range {min(rates_many):,.0f} to "
            f"{max(rates_many):,.0f}")
        add(f"{threads} threads / 1 thread, {player}", statistics.median(ratios), "x",
            "each repeat: " + ", ".join(f"{x:.2f}" for x in ratios))

    from ..sim.duel import duel

    duel("best", "ev+lookahead", 200, seed=0, workers=threads)  # warm-up
    rates = [duel("best", "ev+lookahead", 4_000, seed=k, workers=threads)
             for k in range(min(3, repeats))]
    rate = statistics.median(r.games / r.elapsed_seconds for r in rates)
    add(f"games/s, best vs ev+lookahead, {threads} threads", rate, "games/s",
        f"4,000 games (a duel), median of {len(rates)}")
    _best_figures(add, repeats)

    from ..core.rng import chunk_states
    from ..play.seat import discard
    from ..play.winkeep import BEST_DISCARD_CANDIDATES, BEST_DISCARD_SAMPLES, keep_to_win

    st = chunk_states(0, np.arange(1))[0].copy()
    late = [np.sort(rng.permutation(52)[:6]).astype(np.int64) for _ in range(100)]
    with numba_threads(1):
        t = _median_seconds(lambda: [
            discard("best", six, own_crib=True, scores=(105, 110), rng=st) for six in late],
            repeats)
    add("best discard near the end, 1 thread", t / len(late) * 1e3, "ms a decision",
        f"{BEST_DISCARD_SAMPLES} samples of the deal's end x {BEST_DISCARD_CANDIDATES} keeps, "
        "through the seat API; points only (a table lookup) when no player is within reach")
    t = _median_seconds(lambda: keep_to_win(hand, True, (110, 115)), repeats)
    add(f"keep_to_win, 4,000 samples, {threads} threads", t * 1e3, "ms a hand", "crib keep --score")

    _seat_figures(add, repeats)
    _web_figures(add, say)
    _process_figures(add, repeats)
    return {"threads": threads, "figures": figures}


def _best_figures(add: Callable[..., None], repeats: int) -> None:
    """What ``best`` costs a decision: every decision of ``best`` in 8 recorded games against
    ``ev+lookahead`` (:func:`analyzer.sim.records.decisions`), each made again through the seat
    API (:func:`analyzer.lay`, :func:`analyzer.discard`: the engine's compiled steps, with the
    seat's view replayed), one thread: the searched cards (two legal or more) alone, and the
    mean over all its decisions (discards, searched and forced cards, goes)."""
    from ..core.rng import chunk_states
    from ..play.seat import discard, lay
    from ..sim.harness import simulate
    from ..sim.records import decisions

    games = 8
    records = simulate(games, seed=0, players=("best", "ev+lookahead"), record_games=games,
                       workers=1).records
    state = chunk_states(0, 1)[0]
    discards, searched, other = [], [], []
    for record in records:
        for d in decisions(record):
            if d["seat"] != 0:
                continue
            v = d["view"]
            if d["kind"] == "discard":
                discards.append(v)
                continue
            count, passes = 0, 0
            for _, card in v["played"]:  # the count the seat lays on
                if card is None:
                    passes += 1
                    count, passes = (0, 0) if passes >= 2 else (count, passes)
                    continue
                count, passes = count + min(card // 4 + 1, 10), 0
                count = 0 if count == 31 else count
            laid = {c for _, c in v["played"]}
            legal = sum(c not in laid and count + min(c // 4 + 1, 10) <= 31 for c in v["hand"])
            (searched if legal >= 2 else other).append(v)

    def lays(views):
        def run():
            for v in views:
                lay("best", v["hand"], v["played"], seat=v["seat"], dealer=v["dealer"],
                    starter=v["starter"], thrown=v["thrown"], scores=v["scores"],
                    rng=state.copy())
        return run

    def discard_all():
        for v in discards:
            discard("best", v["hand"], own_crib=v["own_crib"], scores=v["scores"],
                    rng=state.copy())

    with numba_threads(1):
        t_searched, t_other, t_discards = _interleaved_seconds(
            [lays(searched), lays(other), discard_all], repeats)
    per = statistics.median(t_searched) / len(searched)
    add("best's card searched, 1 thread", per * 1e6, "us a decision",
        f"{len(searched)} searched cards of {games} games against ev+lookahead "
        f"({len(searched) / games:.1f} a game), through the seat API")
    total = sum(statistics.median(x) for x in (t_searched, t_other, t_discards))
    n = len(searched) + len(other) + len(discards)
    add("best's decision, mean, 1 thread", total / n * 1e6, "us a decision",
        f"{n / games:.1f} decisions a game ({len(discards) / games:.1f} discards, "
        f"{len(searched) / games:.1f} searched cards, {len(other) / games:.1f} forced cards "
        f"and goes): {total / games * 1e3:.3g} ms of decisions a game")


def _seat_figures(add: Callable[..., None], repeats: int) -> None:
    """The public seat API (:mod:`analyzer.play.seat`) on every decision of a recorded game of
    ``best`` against ``best`` (:func:`analyzer.sim.records.decisions`), one thread: the time a
    program that seats ``best`` waits for a discard and for a card."""
    from ..core.rng import chunk_states
    from ..play.seat import discard, lay
    from ..sim.harness import simulate
    from ..sim.records import decisions

    record = simulate(1, seed=0, players="best", record_games=1, workers=1).records[0]
    state = chunk_states(0, 1)[0]
    discards, lays = [], []
    for d in decisions(record):
        view = {**d["view"], "player": "best", "rng": state}
        view["hand"] = np.array(view["hand"], np.int64)
        (discards if d["kind"] == "discard" else lays).append(view)

    def api_discards():
        for d in discards:
            discard(d["player"], d["hand"], own_crib=d["own_crib"], scores=d["scores"],
                    rng=d["rng"].copy())

    def api_lays():
        for d in lays:
            lay(d["player"], d["hand"], d["played"], seat=d["seat"], dealer=d["dealer"],
                starter=d["starter"], thrown=d["thrown"], scores=d["scores"],
                rng=d["rng"].copy())

    with numba_threads(1):
        t_discards, t_lays = _interleaved_seconds([api_discards, api_lays], repeats)
    add("seat API, best's discard, 1 thread", statistics.median(t_discards) / len(discards) * 1e3,
        "ms a decision", f"{len(discards)} discards of a game of best against best")
    add("seat API, best's card, 1 thread", statistics.median(t_lays) / len(lays) * 1e3,
        "ms a decision", f"{len(lays)} cards and goes of a game of best against best")


def _web_figures(add: Callable[..., None], say: Callable[[str], None]) -> None:
    """The web API's latency over HTTP (``crib serve``), when the web extra is installed."""
    import importlib.util

    if any(importlib.util.find_spec(m) is None for m in ("fastapi", "uvicorn")):
        say("web API: not measured (the web extra is not installed: pip install "
            "'analyzer[web]')")
        return
    from ..web.latency import api_latency

    for name, t in api_latency().items():
        add(f"web API {name}, one request", t["median_ms"], "ms",
            f"median of {t['calls']} over HTTP on loopback, warm; 90th percentile "
            f"{t['p90_ms']:.3g} ms, slowest {t['max_ms']:.3g} ms")


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
        add(label, statistics.median(times), "s", note + _seconds_spread(times))
    with tempfile.TemporaryDirectory() as folder:
        times = _process_seconds([*command, "tables", "keep", "--out",
                                  os.path.join(folder, "keep.parquet"), "--workers", "2"],
                                 min(repeats, 3))
    add("`crib tables keep`, all 20,358,520 hands, 2 threads", statistics.median(times), "s",
        "a new process, wall time, Parquet and CSV written; " + _seconds_spread(times))
