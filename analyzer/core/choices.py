"""What a user chooses for a run, checked in one place: players, crib values, workers, threads.

This module is low and light: it imports numba and numpy only inside the functions that need
them, so the command line can take its defaults and choices from here and ``crib --help`` stays
instant.

* Players are ``"DISCARD+PEGGING"`` (e.g. ``"ev+greedy"``); :func:`parse_player` turns one into the
  two policy codes the compiled engine reads. The codes are the positions in
  :data:`DISCARD_POLICY_NAMES` and :data:`PEGGING_POLICY_NAMES`, and nowhere else.
* :func:`resolve_workers` is the number of workers a run gets; :func:`numba_threads` sets numba's
  thread count for a block and restores it afterwards; :func:`on_threads` and
  :func:`over_ranges` run compiled work on that many Python threads.
* :func:`variant_game` is the form of the game a ``variant=`` names (:data:`VARIANT_NAMES`, from
  :data:`analyzer.core.game.VARIANTS`), and :func:`crib_mode_for` the crib mode ``keep`` uses in it.
* The defaults and limits of the numbers a run takes (games, workers, seeds, the crib-table
  builder's deals and tolerance) live here, and :func:`check_number` checks one of them: the
  command line and the Python API refuse the same values with the same words.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING

from .game import VARIANTS, Game

if TYPE_CHECKING:  # numpy is imported where an array is made: crib --help does without it
    import numpy as np

__all__ = [
    "ADVISE_SAMPLES",
    "CRIB_MODES",
    "DEFAULT_VARIANT",
    "FORM_CRIB_MODES",
    "FORM_POSITIONS",
    "NET_PLACES",
    "NET_SCALE",
    "VARIANT_NAMES",
    "CRIB_TABLE_DEALS",
    "CRIB_TABLE_MAX_ITERATIONS",
    "CRIB_TABLE_TOL",
    "DEFAULT_PLAYER",
    "DEFAULT_RECORD_GAMES",
    "DEFAULT_SAMPLES",
    "DISCARD_POLICIES",
    "DISCARD_POLICY_NAMES",
    "MAX_DEALS",
    "ODDS_TABLE_DEALS",
    "MAX_GAMES",
    "MAX_ITERATIONS",
    "MAX_RECORD_GAMES",
    "MAX_RECORD_GAMES_TABLE",
    "MAX_SEED",
    "MAX_WORKERS",
    "PEGGING_POLICIES",
    "PEGGING_POLICY_NAMES",
    "PEGGING_TABLE_DEALS",
    "PERSON",
    "PLAYER_ALIASES",
    "PlayerError",
    "SWITCH_Z",
    "TABLE_MODES",
    "check_frame",
    "check_number",
    "crib_mode_for",
    "net_key",
    "numba_threads",
    "on_threads",
    "over_ranges",
    "parse_player",
    "policy_arrays",
    "resolve_workers",
    "variant_game",
]

#: Discard policies of the engine, in code order (see :mod:`analyzer.play.players`).
DISCARD_POLICY_NAMES = ("random", "hand", "ev", "baseline", "pegging", "best")
#: Pegging policies of the engine, in code order (``ordered`` is a scripted player for tests;
#: ``best`` searches by determinized rollouts, :mod:`analyzer.play.search`).
PEGGING_POLICY_NAMES = ("random", "greedy", "lookahead", "ordered", "baseline", "best")
DISCARD_POLICIES = {name: code for code, name in enumerate(DISCARD_POLICY_NAMES)}
#: Players named by one word, and the ``DISCARD+PEGGING`` each stands for.
PLAYER_ALIASES = {"baseline": "baseline+baseline", "best": "best+best"}
#: The seat name of a person in a record's ``"seats"`` (a game of ``crib play`` or the page).
PERSON = "you"
PEGGING_POLICIES = {name: code for code, name in enumerate(PEGGING_POLICY_NAMES)}

#: The player of simulations and self-play tables by default: ev discards (crib table) and
#: lookahead pegging, 20 times as fast as the strongest, ``best`` (``best+best``).
DEFAULT_PLAYER = "ev+lookahead"

#: Ways :func:`analyzer.keep` values the two cards thrown to the crib.
CRIB_MODES = ("table", "uniform", "weighted")
#: The forms of the game ``variant=`` and ``--variant`` name, the standard one first.
VARIANT_NAMES = tuple(VARIANTS)
DEFAULT_VARIANT = "six-card"
#: Crib modes of ``keep`` in the forms other than the six-card game: their own self-play table
#: (the default) and the exact uniform enumeration; no throw frequencies to weight by.
FORM_CRIB_MODES = ("table", "uniform")
#: Crib-value tables the engine's ``ev`` policy (and the table builders) can read.
TABLE_MODES = ("table", "uniform")

#: Limits of the numbers a run takes. Beyond them a run would only overflow a counter or allocate
#: more memory than a machine has (a recorded game holds 12.8 kB of arrays, a crib-table chunk of
#: 50,000 deals 8 kB of tallies), so they are refused rather than attempted.
MAX_GAMES = 10**12
MAX_WORKERS = 512
MAX_SEED = 2**63 - 1           #: seeds are 0 .. 2**63 - 1
DEFAULT_RECORD_GAMES = 100     #: games ``crib simulate --record`` keeps by default
MAX_RECORD_GAMES = 100_000     #: ... as JSON Lines (a dict a game: about 5 s a 10,000)
#: ... as Parquet (``--record FILE.parquet``, built column by column: a million six-card games
#: take about 50 s and 5.5 GB of memory more than the run alone, 0.4 kB a game on disk)
MAX_RECORD_GAMES_TABLE = 1_000_000
#: The self-play crib-table builder (:func:`analyzer.build_crib_table`): deals per iteration,
#: the tolerance it stops at, and the iterations it gives up after.
CRIB_TABLE_DEALS = 4_000_000
CRIB_TABLE_TOL = 0.01
CRIB_TABLE_MAX_ITERATIONS = 40
#: Deals the self-play pegging table (:func:`analyzer.research.pegging.build_pegging_table`) plays
#: by default: the number the shipped table was built from.
PEGGING_TABLE_DEALS = 40_000_000
MAX_DEALS = 10**9
#: Deals the win-odds table (:func:`analyzer.research.odds.build_odds_table`) is built from by
#: default.
ODDS_TABLE_DEALS = 20_000_000
MAX_ITERATIONS = 10_000
#: The score-aware keep (:func:`analyzer.keep_to_win`): samples of the rest of the deal by
#: default, and how many standard errors of gain in P(win) it needs to leave the points keep.
DEFAULT_SAMPLES = 4000
SWITCH_Z = 3.0
#: The places of the net a keep is ranked by (:func:`analyzer.keep`, ``crib keep``), then by its
#: hand mean: the net is a sum of exact means in floating point, and two keeps worth the same
#: (a jack that scores nobs traded between hand and crib) can differ in its last bit.
NET_PLACES = 9
#: The net's ranking key, ``floor(net * NET_SCALE + 0.5)``: the same float operations in numpy
#: (:func:`net_key`) and in the compiled ranking (numba's ``np.round`` would import numba's
#: linear algebra into every process that loads the kernel from the cache).
NET_SCALE = 10.0 ** NET_PLACES


def net_key(net):
    """The nets ``net`` (an array) rounded to :data:`NET_PLACES` places, in units of
    ``10 ** -NET_PLACES``: what keeps are ranked by before their hand means.

    >>> net_key([15.469075816864297, 15.469075816864295]).tolist()
    [15469075817.0, 15469075817.0]
    """
    import numpy as np

    return np.floor(np.asarray(net, np.float64) * NET_SCALE + 0.5)


#: Where a player sits in four-player, counted round to the left from the dealer (the places
#: of the engine's statistics): the score-aware keep's ``position`` (``crib keep --position``).
FORM_POSITIONS = ("dealer", "first", "second", "third")
#: Samples :func:`analyzer.advise_play` (``crib peg``) draws by default.
ADVISE_SAMPLES = 4000


def variant_game(variant: str) -> Game:
    """The :class:`~analyzer.core.game.Game` a variant name stands for, or :class:`ValueError`.

    Examples
    --------
    >>> variant_game("five-card").kept
    3
    """
    if isinstance(variant, str) and variant in VARIANTS:
        return VARIANTS[variant]
    raise ValueError(f"unknown variant {variant!r}: choose one of {', '.join(VARIANT_NAMES)}")


def crib_mode_for(crib: str | None, variant: str = DEFAULT_VARIANT) -> str:
    """The crib mode ``keep`` uses: ``crib``, or the form's default when it is None.

    The six-card game has all of :data:`CRIB_MODES` (default ``"table"``); the other forms
    :data:`FORM_CRIB_MODES` (default ``"table"``, their own self-play table; no ``"weighted"``).

    Examples
    --------
    >>> crib_mode_for(None), crib_mode_for(None, "five-card")
    ('table', 'table')
    """
    game = variant_game(variant)
    modes = CRIB_MODES if game.name == DEFAULT_VARIANT else FORM_CRIB_MODES
    if crib is None:
        return modes[0]
    if crib not in CRIB_MODES:
        raise ValueError(f"unknown crib mode {crib!r}: choose one of {', '.join(CRIB_MODES)}")
    if crib not in modes:
        raise ValueError(f"crib mode {crib!r} is not available for {game.name}: use "
                         f"{' or '.join(modes)}")
    return crib


def check_flag(name: str, value) -> bool:
    """``value`` as a bool, or :class:`ValueError` naming ``name``: ``True`` or ``False`` (numpy's
    too), not a word or a number read by its truth ("pone" would be true).

    >>> check_flag("dealer", "pone")
    Traceback (most recent call last):
    ...
    ValueError: dealer must be True or False, got 'pone'
    """
    if value is True or value is False or type(value).__name__ in ("bool", "bool_") and \
            type(value).__module__ == "numpy":
        return bool(value)
    raise ValueError(f"{name} must be True or False, got {value!r}")


def check_frame(what: str, df, columns, rows: bool = True):
    """``df`` if it is a pandas DataFrame with ``columns`` (and a row, unless ``rows`` is
    False); else :class:`TypeError` or :class:`ValueError` saying what ``what`` needs.

    >>> check_frame("a crib table", None, ["card1", "card2"])
    Traceback (most recent call last):
    ...
    TypeError: a crib table must be a pandas DataFrame, got NoneType
    >>> import pandas as pd
    >>> check_frame("keep's table", pd.DataFrame({"net": [1.0]}), ["net", "hand_mean"])
    Traceback (most recent call last):
    ...
    ValueError: keep's table needs the columns net, hand_mean; missing hand_mean
    """
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise TypeError(f"{what} must be a pandas DataFrame, got {type(df).__name__}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise ValueError(f"{what} needs the columns {', '.join(columns)}; missing "
                         f"{', '.join(missing)}")
    if rows and df.empty:
        raise ValueError(f"{what} has no rows")
    return df


def check_reachable(game: Game, scores, pone: int | None = None) -> None:
    """:class:`ValueError` for scores no deal of ``game`` starts from: in five-card the pone
    pegs 3 before the first deal, so one side has at least 3 at every deal; and every deal pegs
    at least the go, so 3 points in all are the first deal's, 0 to the pone's 3: with ``pone``,
    the index in ``scores`` of the pone's side, those 3 must be the pone's.

    >>> check_reachable(VARIANTS["five-card"], (1, 2))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: score 1, 2: in five-card the pone pegs 3 before the first deal, so one side ...
    >>> check_reachable(VARIANTS["five-card"], (3, 0), pone=0)
    >>> check_reachable(VARIANTS["five-card"], (3, 0), pone=1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: score 3, 0: in five-card 3 points in all are the first deal's, ...
    """
    text = ", ".join(str(s) for s in scores)
    if game.start_points and max(scores) < game.start_points:
        raise ValueError(f"score {text}: in {game.name} the pone "
                         f"pegs {game.start_points} before the first deal, so one side has at "
                         f"least {game.start_points} at a deal (the first is 0 to "
                         f"{game.start_points})")
    if game.start_points and pone is not None and sum(scores) == game.start_points \
            and scores[pone] != game.start_points:
        raise ValueError(f"score {text}: in {game.name} {game.start_points} points in all are "
                         f"the first deal's, the pone's {game.start_points} for last (every "
                         f"deal pegs at least the go), so the dealer has none")


def check_number(name: str, value, low=None, high=None, integer: bool = False,
                 low_open: bool = False):
    """``value`` as a finite number in ``[low, high]`` (``(low, high]`` with ``low_open``), or
    :class:`ValueError` naming ``name``; ``integer`` asks for a whole number (bools refused).

    Examples
    --------
    >>> check_number("tol", 0.01, low=0, low_open=True)
    0.01
    >>> check_number("games", 0, low=1, integer=True)
    Traceback (most recent call last):
    ...
    ValueError: games must be at least 1, got 0
    """
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if integer:
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        try:
            as_int = int(value)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"{name} must be a whole number, got {value!r}") from None
        if as_int != value:
            raise ValueError(f"{name} must be a whole number, got {value!r}")
        value = as_int
    else:
        try:
            value = float(value)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"{name} must be a number, got {value!r}") from None
        if not math.isfinite(value):
            raise ValueError(f"{name} must be a finite number, got {value}")
    if low is not None:
        if low_open and not value > low:
            raise ValueError(f"{name} must be more than {low}, got {value}")
        if not value >= low:
            raise ValueError(f"{name} must be at least {low}, got {value}")
    if high is not None and not value <= high:
        raise ValueError(f"{name} must be at most {high:,}, got {value:,}")
    return value


class PlayerError(ValueError):
    """An unknown player or policy name."""


def parse_player(name: str) -> tuple[int, int]:
    """``"DISCARD+PEGGING"`` (e.g. ``"ev+greedy"``), or a one-word alias of
    :data:`PLAYER_ALIASES` (``"baseline"``), into the two policy codes.

    Discard policies: ``random``, ``hand``, ``ev``, ``baseline``, ``pegging``, ``best``;
    pegging: ``random``, ``greedy``, ``lookahead``, ``baseline``, ``best`` (and ``ordered``, a
    scripted player for tests).

    Examples
    --------
    >>> parse_player("ev+greedy")
    (2, 1)
    >>> parse_player("baseline") == parse_player("baseline+baseline")
    True
    """
    text = str(name).strip().lower()
    text = PLAYER_ALIASES.get(text, text)
    parts = text.split("+")
    if len(parts) != 2:
        raise PlayerError(f"player {name!r} is not DISCARD+PEGGING, e.g. ev+greedy, nor a "
                          f"one-word player ({', '.join(PLAYER_ALIASES)})")
    discard, pegging = parts
    if discard not in DISCARD_POLICIES:
        raise PlayerError(f"unknown discard policy {discard!r} in {name!r}: choose one of "
                          f"{', '.join(DISCARD_POLICY_NAMES)}; or a one-word player: "
                          f"{', '.join(PLAYER_ALIASES)}")
    if pegging not in PEGGING_POLICIES:
        raise PlayerError(f"unknown pegging policy {pegging!r} in {name!r}: choose one of "
                          f"{', '.join(PEGGING_POLICY_NAMES)}; or a one-word player: "
                          f"{', '.join(PLAYER_ALIASES)}")
    return DISCARD_POLICIES[discard], PEGGING_POLICIES[pegging]


def policy_arrays(players, n_players: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The discard and pegging policy codes of each seat, int64 ``(n_players,)`` each."""
    import numpy as np

    if len(players) != n_players:
        raise PlayerError(f"{n_players} players are needed, got {len(players)}")
    codes = [parse_player(p) for p in players]
    return (np.array([c[0] for c in codes], np.int64), np.array([c[1] for c in codes], np.int64))


def resolve_workers(workers: int | None, backend: str = "local") -> int:
    """Workers to use: by default the cores; threads are capped at what numba can start.

    Examples
    --------
    >>> resolve_workers(1)
    1
    """
    import numba

    available = numba.config.NUMBA_NUM_THREADS
    if workers is None:
        return min(available, os.cpu_count() or 1)
    workers = check_number("workers", workers, low=1, integer=True)  # 1.5 refused, not 1
    return workers if backend == "dask" else min(workers, available)


def on_threads(run: Callable[[int], None], n: int, threads: int) -> None:
    """``run(0)`` to ``run(n - 1)`` on ``threads`` Python threads, each taking the next as it
    finishes one (the kernels it runs release the GIL: ``nogil=True``). On an error or Ctrl-C
    the calls not yet started are dropped and those running are waited for (a compiled kernel
    cannot be stopped)."""
    from concurrent.futures import ThreadPoolExecutor

    if threads <= 1 or n <= 1:
        for b in range(n):
            run(b)
        return
    pool = ThreadPoolExecutor(min(threads, n), thread_name_prefix="analyzer-chunk")
    try:
        for future in [pool.submit(run, b) for b in range(n)]:
            future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def over_ranges(kernel: Callable, n: int, *args, least: int = 1) -> None:
    """``kernel(lo, hi, *args)`` for contiguous ranges ``[lo, hi)`` covering ``[0, n)``, on as
    many threads as numba's thread count (:func:`numba_threads` sets it): this one and the
    others of a pool kept for the process, a range each, as even as they can be (one thread: a
    single call here), as numba splits a parallel loop.

    For a loop whose indices are independent, each writing its own results: the kernel
    releases the GIL (``nogil=True``), and the result is the same whatever the threads.
    ``least``: the fewest indices worth a range of their own (a range of cheap indices costs
    more to hand a thread than to run). A plain loop over a range compiles in a third of the
    time of numba's parallel loop (``prange``, its parfor passes). On an error or Ctrl-C here,
    the ranges not yet started are dropped and those running are waited for (a compiled kernel
    cannot be stopped).

    Unlike :func:`on_threads`, which gives a long run threads of its own, this thread takes
    ranges too and the pool's only help: a quick call (a keep in the web server) never waits
    behind a long run's queued work, and starts no thread.

    Examples
    --------
    >>> ranges = []
    >>> with numba_threads(1):
    ...     over_ranges(lambda lo, hi, tag: ranges.append((lo, hi, tag)), 10, "x")
    >>> ranges
    [(0, 10, 'x')]
    """
    import threading

    import numba

    threads = numba.get_num_threads()
    parts = max(1, min(n // max(1, least), threads))
    if parts == 1:
        kernel(0, n, *args)
        return
    bounds = [n * b // parts for b in range(parts + 1)]
    ranges = iter(range(parts))
    lock = threading.Lock()
    stop = threading.Event()

    def work() -> None:
        while not stop.is_set():
            with lock:
                b = next(ranges, None)
            if b is None:
                return
            kernel(bounds[b], bounds[b + 1], *args)

    helpers = [_range_pool().submit(work) for _ in range(parts - 1)]
    try:
        work()
    except BaseException:
        stop.set()
        raise
    finally:
        for helper in helpers:  # not started (the pool busy): this thread did its share
            helper.cancel()
        for helper in helpers:
            if not helper.cancelled():
                helper.result()


@cache
def _range_pool():
    """The process's pool of threads for :func:`over_ranges` (as many as numba may start),
    made on first use."""
    from concurrent.futures import ThreadPoolExecutor

    import numba

    return ThreadPoolExecutor(max(1, numba.config.NUMBA_NUM_THREADS - 1),
                              thread_name_prefix="analyzer-range")


@contextmanager
def numba_threads(threads: int):
    """Run the block with numba's thread count set to ``threads``, then restore it: the threads
    :func:`over_ranges` and the runs on :func:`on_threads` take.

    Examples
    --------
    >>> import numba
    >>> with numba_threads(1):
    ...     numba.get_num_threads()
    1
    """
    import numba

    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(previous)
