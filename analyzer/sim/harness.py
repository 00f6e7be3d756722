"""The simulation harness: chunks of games, seeds, parallel runs, and results as pandas.

``simulate(games, seed)`` splits the games by index into chunks of ``chunk_size``, gives each
chunk its own ``numpy.random.SeedSequence(seed).spawn`` child, plays the chunks on the local cores
(numba threads, one chunk per thread at a time) and adds up per-chunk accumulators. A chunk's games
depend only on its seed, so the same seed gives identical results whatever the number of workers.
Nothing is kept per game unless records are asked for: memory stays flat as games grow.
"""

from __future__ import annotations

import json
import math
import os
import sys
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path

import numpy as np

from ..core.choices import (
    DEFAULT_PLAYER,
    MAX_GAMES,
    MAX_SEED,
    PEGGING_POLICIES,
    PEGGING_POLICY_NAMES,
    PlayerError,
    check_flag,
    check_number,
    policy_arrays,
    resolve_workers,
    variant_game,
)
from ..core.files import OutputError, atomic_write_all, check_writable
from ..core.rng import chunk_states
from ..core.scoring import rank_table
from ..core.version import git_commit, package_version
from ..play.engine import (
    ACC,
    CRIB_STAT,
    DEAL,
    FIRST_DEALER_MODES,
    GAME_RECORD,
    MAX_DEALS_HIST,
    MAX_MARGIN,
    SKUNK_TIERS,
    _play_deal,
    phases,
)

__all__ = ["SAVED_FILES", "SimulationResult", "play_hands", "simulate"]

DEFAULT_CHUNK = 2048
#: The files :meth:`SimulationResult.save` writes in its folder.
SAVED_FILES = ("summary.csv", "margins.csv", "crib_outcomes.csv", "provenance.json")


def _wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (math.nan, math.nan)
    return _wilson_share(successes / n, n, z)


def _wilson_share(p: float, n: float, z: float = 1.959964) -> tuple[float, float]:
    """Wilson score interval for a share ``p`` of ``n`` trials (an effective number: any
    positive real)."""
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # at 0 (or 1) the bound is exactly 0 (1), not its rounding
    return (0.0 if p == 0 else max(centre - half, 0.0), 1.0 if p == 1 else min(centre + half, 1.0))


def _normal(mean: float, sd: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The 95% normal interval of a mean of ``n`` values of standard deviation ``sd``, of a
    quantity that is never negative (points, deals): not below 0; NaN from fewer than 2."""
    if n < 2:
        return (math.nan, math.nan)
    half = z * sd / math.sqrt(n)
    return (max(mean - half, 0.0), mean + half)


@dataclass
class SimulationResult:
    """What :func:`simulate` returns: the reduced counters and their tables.

    Attributes
    ----------
    acc
        int64 (ACC.size,): the summed accumulators (layout :data:`analyzer.play.engine.ACC`).
    crib_acc
        int64 CRIB_ACC_SHAPE: crib outcomes ``[role, rank1, rank2, suited, CRIB_STAT]``.
    records
        The recorded games (format v1 dicts for the six-card game, v2 for the other forms), the
        first ``record_games`` by index; made the first time they are asked for.
        :meth:`record_table` gives the same games as a table, one row a deal.
    variant
        The form of the game (:data:`analyzer.core.game.VARIANTS`).
    """

    games: int
    seed: int
    players: tuple[str, ...]
    workers: int
    chunk_size: int
    elapsed_seconds: float
    acc: np.ndarray
    crib_acc: np.ndarray
    #: The recorded games as the engine's arrays, ``(index, rec_games, rec_deals)``: each game's
    #: index in the run, then as :func:`analyzer.sim.records.game_records` takes them; or None.
    record_arrays: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    crib: str = "table"
    games_requested: int | None = None
    backend: str = "local"
    played: int | None = None  # games played by this call (the rest came from a checkpoint)
    variant: str = "six-card"
    first_dealer: str = "cut"

    def __post_init__(self):
        if self.played is None:
            self.played = self.games

    @cached_property
    def records(self) -> list[dict]:
        """The recorded games as record dicts (:mod:`analyzer.sim.records`), in game order."""
        if self.record_arrays is None:
            return []
        from .records import game_records

        index, games, deals = self.record_arrays
        return game_records(games, deals, self._game, index=index)

    def record_table(self):
        """The recorded games as a ``pyarrow.Table``, one row a deal
        (:mod:`analyzer.sim.recordtable` gives the columns; ``.to_pandas()`` makes it a
        DataFrame): what ``crib simulate --record FILE.parquet`` writes. Built column by column,
        for runs of many recorded games."""
        from .records import record_format
        from .recordtable import record_table

        index, games, deals = self.record_arrays if self.record_arrays is not None else (
            np.zeros(0, np.int64), np.zeros((0, GAME_RECORD.size), np.int64),
            np.zeros((0, DEAL.size), np.int16))
        return record_table(games, deals, self._game, record_format(self._game), index=index)

    @property
    def complete(self) -> bool:
        """Whether every requested game was played (False after a time limit)."""
        return self.games_requested is None or self.games == self.games_requested

    def _count(self, name: str) -> int:
        """A counter of :data:`analyzer.play.engine.ACC` by name; a skunk tier by its name; the wins
        of seat or side 0 as ``seat0_wins``."""
        if name in SKUNK_TIERS:
            return int(self.acc[ACC.skunks + SKUNK_TIERS.index(name)])
        if name == "seat0_wins":
            return int(self.acc[ACC.side_wins])
        return int(self.acc[getattr(ACC, name)])

    @property
    def _game(self):
        from ..core.game import VARIANTS

        return VARIANTS[self.variant]

    @property
    def side_win_rates(self) -> list[float]:
        """The share of games each side won: each seat, or each partnership (seats 0 and 2, 1
        and 3) in the four-player game."""
        return [int(self.acc[ACC.side_wins + q]) / self.games for q in range(self._game.teams)]

    @property
    def first_dealer_win_rate(self) -> float:
        return self._count("first_dealer_wins") / self.games

    @property
    def points_per_deal(self) -> dict[str, dict[str, float]]:
        """Mean points per deal by position and phase, ``{"dealer": {phase: mean}, "pone": {...}}``
        (three and four players: ``"first"``, ``"second"``, ``"third"`` round from the dealer's
        left).

        Every deal counts whole: the deal a game ends in is played out past the winning moment for
        these statistics (not for the game), so the means are not biased by which deals end games.
        """
        n = self._count("deals")
        out: dict[str, dict[str, float]] = {}
        for role, phase, k in phases(self._game.players):
            out.setdefault(role, {})[phase] = (float(self.acc[ACC.phase_sum + k]) / n if n
                                               else math.nan)
        return out

    @property
    def summary(self):
        """A pandas DataFrame, one row per figure, with ``value``, ``ci_low`` and ``ci_high``.
        ``seatN_win_rate`` is seat N's, or in four-player side N's (seats N and N + 2).

        Rates carry a 95% Wilson interval. A skunk rate counts the skunked losers a game: up to
        2 in three-player, whose two losers are skunked together more often than apart, so its
        interval is the losers' share's with the sample shrunk by the design effect (the
        variance of the skunked losers a game over what two independent losers would give),
        times 2. Mean points per deal (every deal, played out whole) carry a 95% normal interval
        from the per-deal variance (deals of one game taken as independent, a close
        approximation), the mean deals a game one from the per-game variance; neither goes
        below 0, and one game gives no interval (NaN). A tier the form does not have (five-card's
        double and triple skunk) is 0 with the interval 0 to 0: no game can fall in it.
        """
        import pandas as pd

        rows = [("games", self.games, math.nan, math.nan)]
        for name, key in (("first_dealer_win_rate", "first_dealer_wins"),
                          ("seat0_win_rate", "seat0_wins")):
            k = self._count(key)
            rows.append((name, k / self.games, *_wilson(k, self.games)))
        for tier, name in enumerate(SKUNK_TIERS):
            rows.append((f"{name}_rate", self._count(name) / self.games,
                         *self._skunk_interval(tier)))
        lengths = self.game_lengths
        mean_deals = self._count("deals") / self.games
        sd = math.sqrt(max((lengths * lengths.index.to_numpy() ** 2).sum() / self.games
                           - mean_deals**2, 0.0))
        rows.append(("mean_deals", mean_deals, *_normal(mean_deals, sd, self.games)))
        for q, rate in enumerate(self.side_win_rates[1:], start=1):
            k = int(self.acc[ACC.side_wins + q])
            rows.append((f"seat{q}_win_rate", rate, *_wilson(k, self.games)))
        n = self._count("deals")
        for role, phase, k in phases(self._game.players):
            s = float(self.acc[ACC.phase_sum + k])
            ss = float(self.acc[ACC.phase_sumsq + k])
            mean = s / n if n else math.nan
            var = max(ss / n - mean * mean, 0.0) if n else math.nan
            rows.append((f"points_per_deal.{role}.{phase}", mean,
                         *_normal(mean, math.sqrt(var), n)))
        margins = self.margins
        mean_margin = float((margins.index * margins).sum() / self.games)
        rows.append(("mean_margin", mean_margin, math.nan, math.nan))
        df = pd.DataFrame(rows, columns=["figure", "value", "ci_low", "ci_high"])
        return df.set_index("figure")

    def _skunk_interval(self, tier: int) -> tuple[float, float]:
        """The 95% interval of the skunk rate of ``tier`` (0 skunk, 1 double, 2 triple): a Wilson
        interval of the losers' share, on the effective number of losers when a game has two
        (:attr:`summary`), times the losers a game; 0 to 0 for a tier the form has no line for."""
        if tier >= self._game.skunk_tiers:
            return 0.0, 0.0
        losers = self._game.teams - 1
        skunked = self._count(SKUNK_TIERS[tier])
        n = self.games * losers
        share = skunked / n
        if losers == 2 and 0 < skunked < n:
            # a game whose best-placed loser is under the line has both losers under it: the
            # games won by each side with the runner-up at this tier or deeper (ACC.tier_wins)
            both = sum(int(self.acc[ACC.tier_wins + q * (len(SKUNK_TIERS) + 1) + t])
                       for q in range(self._game.teams)
                       for t in range(tier + 1, len(SKUNK_TIERS) + 1))
            mean = skunked / self.games  # skunked losers a game: 0, 1 or 2
            var = (skunked + 2 * both) / self.games - mean * mean  # E[x^2]: 1 a one, 4 a both
            apart = 2 * share * (1 - share)  # the variance of two losers skunked independently
            if var > 0:
                n = n * apart / var  # Kish's effective sample size
        low, high = _wilson_share(share, n)
        return low * losers, high * losers

    def _histogram(self, field: str, size: int, index_name: str):
        """Accumulator histogram ``field`` as a Series of games, up to its last nonzero bin."""
        import pandas as pd

        start = getattr(ACC, field)
        hist = self.acc[start:start + size]
        nz = np.nonzero(hist)[0]
        top = int(nz.max()) + 1 if nz.size else 1
        return pd.Series(hist[:top], index=pd.RangeIndex(top, name=index_name), name="games")

    @property
    def margins(self):
        """The final-margin distribution: games by (winner's score - loser's score), a Series."""
        return self._histogram("margin", MAX_MARGIN, "margin")

    @property
    def game_lengths(self):
        """Games by the number of deals they lasted, a Series (the last bin: that many or more)."""
        return self._histogram("deals_hist", MAX_DEALS_HIST, "deals")

    @property
    def crib_outcomes(self):
        """Crib outcomes by thrown pair: one row per (role, rank1, rank2, suited) seen.

        ``role`` is whose crib it was for the thrower (``dealer``: his own; ``pone``: the
        opponent's); ``card1``, ``card2`` in the rank labels of the crib tables (``"10"``, as
        :attr:`analyzer.research.tables.CribTableResult.rank_table`); ``n``, ``mean`` and ``sem``
        (standard error) of the crib score. The forms that throw two cards (six-card,
        five-card): the three- and four-player forms' one card thrown is not tallied (empty).
        """
        import pandas as pd

        from ..core.cards import RANK_LABELS

        rows = []
        for role in (0, 1):
            for r1 in range(13):
                for r2 in range(r1, 13):
                    for suited in (0, 1):
                        stat = self.crib_acc[role, r1, r2, suited]
                        n, s, ss = (int(stat[CRIB_STAT.n]), int(stat[CRIB_STAT.sum]),
                                    int(stat[CRIB_STAT.sumsq]))
                        if n == 0:
                            continue
                        mean = s / n
                        var = (ss - n * mean * mean) / (n - 1) if n > 1 else math.nan
                        rows.append(("dealer" if role == 0 else "pone", RANK_LABELS[r1],
                                     RANK_LABELS[r2], bool(suited), n, mean,
                                     math.sqrt(var / n) if n > 1 else math.nan))
        return pd.DataFrame(rows, columns=["role", "card1", "card2", "suited", "n", "mean", "sem"])

    def save(self, out_dir: str | os.PathLike, command: str = "") -> list[Path]:
        """Write the summary, margins and crib outcomes as CSV, with a JSON provenance file,
        into ``out_dir`` (made if its parent folder exists).

        Every file is written to a temporary name and renamed. Returns the paths written.
        """
        out = Path(out_dir)
        try:  # made in a folder that exists, as crib simulate --out: no chain of folders
            check_writable(out, folder=True)
        except OutputError as exc:
            raise OutputError(f"{out}: {exc}") from None
        out.mkdir(exist_ok=True)
        summary = self.summary
        summary["value"] = summary["value"].astype(object)
        summary.loc["games", "value"] = int(self.games)  # a count, written as one
        outcomes = self.crib_outcomes.astype({"suited": int})  # 0/1, as the crib tables'
        frames = (summary, self.margins.to_frame(), outcomes)
        indexed = (True, True, False)  # the crib outcomes' index is a row number
        provenance = {
            "package_version": package_version(),
            "command": command,
            **self._run_fields(),
            "elapsed_seconds": self.elapsed_seconds,
            "git_commit": git_commit(),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "files": list(SAVED_FILES[:3]),
        }
        items = [(out / name, lambda tmp, df=df, index=index: df.to_csv(tmp, index=index))
                 for name, df, index in zip(SAVED_FILES[:3], frames, indexed, strict=True)]
        text = json.dumps(provenance, indent=2) + "\n"
        items.append((out / SAVED_FILES[3], lambda tmp: tmp.write_text(text)))
        atomic_write_all(items)  # all four or none
        return [path for path, _ in items]

    def _run_fields(self) -> dict:
        """What the run was: in the JSON summary and the provenance file alike."""
        return {
            "games": self.games,
            "seed": self.seed,
            "players": list(self.players),
            "workers": self.workers,
            "chunk_size": self.chunk_size,
            "crib_values": self.crib,
            "backend": self.backend,
            "complete": self.complete,
            "games_requested": self.games_requested,
            "variant": self.variant,
            "first_dealer": self.first_dealer,
        }

    def to_dict(self) -> dict:
        """The JSON summary of ``crib simulate --json``."""
        low, high = _wilson(self._count("first_dealer_wins"), self.games)
        return {
            **self._run_fields(),
            "first_dealer_win_rate": self.first_dealer_win_rate,
            "first_dealer_win_ci": [low, high],
            "seat0_win_rate": self._count("seat0_wins") / self.games,
            "side_win_rates": self.side_win_rates,
            "skunk_rate": self._count("skunk") / self.games,
            "double_skunk_rate": self._count("double_skunk") / self.games,
            "triple_skunk_rate": self._count("triple_skunk") / self.games,
            "mean_deals": self._count("deals") / self.games,
            "points_per_deal": self.points_per_deal,
            "elapsed_seconds": self.elapsed_seconds,
            "games_per_second": (self.played / self.elapsed_seconds if self.elapsed_seconds
                                 else None),
        }


def simulate(
    games: int,
    seed: int | None = None,
    players: str | tuple[str, ...] | list[str] = DEFAULT_PLAYER,
    workers: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
    record_games: int = 0,
    progress: bool = False,
    crib: str = "table",
    backend: str = "local",
    scheduler: str | None = None,
    checkpoint: str | os.PathLike | None = None,
    resume: bool = False,
    time_limit: float | None = None,
    max_chunks: int | None = None,
    variant: str = "six-card",
    first_dealer: str = "cut",
) -> SimulationResult:
    """Play ``games`` complete games, AI against AI, and summarize them.

    Parameters
    ----------
    games
        How many games (at least 1).
    seed
        The seed; ``None`` draws fresh entropy (reported in the result, so the run can be
        repeated), or with ``resume`` takes the checkpointed run's. Same seed and
        ``chunk_size``, same results, whatever ``workers`` or backend.
    players
        One player ``"DISCARD+PEGGING"`` for every seat, or one for each seat in order (see
        :func:`analyzer.core.choices.parse_player`); the first
        dealer is chosen by the cut (see ``first_dealer``).
    workers
        Threads to run chunks on (or, with a local Dask cluster, its worker processes); default
        all of this machine's cores.
    chunk_size
        Games per chunk (each chunk has its own seed).
    record_games
        Keep the full record (format 1, or 2 for the other forms) of the first this many games.
    progress
        Show a progress bar (games per second, time left) on stderr, or in Jupyter.
    crib
        The crib values the ``ev`` discard policy reads: ``"table"`` (the form's shipped
        self-play table, the default) or ``"uniform"`` (the exact uniform-opponent values: in
        the six-card and five-card games the pair thrown, in the three- and four-player games
        the one card thrown, :func:`analyzer.keeping.crib.card_crib_values`).
    backend
        ``"local"`` (this machine's cores) or ``"dask"`` (a Dask distributed cluster at
        ``scheduler``: an address such as ``"tcp://host:8786"``, or ``"local"`` to start a
        ``LocalCluster`` here). Needs ``pip install 'analyzer[dask]'``.
    checkpoint
        A folder where finished chunks are saved as they complete (with the run's plan), so an
        interrupted run can be continued with ``resume=True``. It is made if its parent folder
        exists (no chain of folders, as ``crib simulate --out``).
    resume
        Continue the run checkpointed in ``checkpoint``: only missing chunks are played. A
        different plan (games, seed, players, chunk size, crib table, records) is refused.
    time_limit
        Stop at the first chunk boundary after this many seconds; the result then covers the games
        finished (``result.complete`` is False) and the checkpoint can be resumed.
    variant
        The form of the game (:data:`analyzer.core.game.VARIANTS`): ``"six-card"`` (two players),
        ``"three-player"``, ``"four-player"`` (partners opposite score as a side), ``"five-card"``
        (to 61, hands of three, one count in the play, 3 to the first pone).
    max_chunks
        Play at most this many of the chunks still to do (the lowest-numbered), then stop as a
        time limit stops: a deterministic partial run, resumable the same way. For staged runs
        and tests.
    first_dealer
        ``"cut"`` (the default: the cut for the first deal, as the rules say) or ``"alternate"``
        (game ``i`` is dealt first by seat ``i % players``, no cut drawn: what
        :func:`analyzer.sim.duel.duel` uses so that each player deals first equally often).

    Raises
    ------
    PlayerError, ValueError
        Bad players or numbers. :class:`analyzer.sim.runs.RunError` for a refused resume or an
        unreachable cluster.

    Examples
    --------
    >>> result = simulate(200, seed=1, players=("ev+greedy", "ev+greedy"))
    >>> result.games, int(result.summary.loc["games", "value"])
    (200, 200)
    """
    from ..play.reads import crib_pairs
    from .runs import (
        BACKENDS,
        Checkpoint,
        ChunkResult,
        ChunksToDo,
        RunError,
        RunPlan,
        dask_backend,
        local_backend,
    )

    # whole numbers, never truncated (2.9 games, seed 1.9): ValueError naming the argument
    games = check_number("games", games, low=1, high=MAX_GAMES, integer=True)
    chunk_size = check_number("chunk_size", chunk_size, low=1, integer=True)
    record_games = check_number("record_games", record_games, low=0, integer=True)
    progress, resume = check_flag("progress", progress), check_flag("resume", resume)
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if backend == "dask":
        if not scheduler:
            raise ValueError("the dask backend needs a scheduler address (or 'local')")
        from .runs import check_scheduler

        check_scheduler(scheduler)
    elif scheduler is not None:
        raise ValueError(f"scheduler={scheduler!r} goes with backend='dask', not {backend!r}")
    if time_limit is not None:
        time_limit = check_number("time_limit", time_limit, low=0, low_open=True)
    if max_chunks is not None:
        max_chunks = check_number("max_chunks", max_chunks, low=1, integer=True)
    if resume and checkpoint is None:
        raise RunError("resume needs the checkpoint folder of the run")
    if first_dealer not in FIRST_DEALER_MODES:
        raise ValueError(f"unknown first_dealer {first_dealer!r}: choose one of "
                         f"{', '.join(FIRST_DEALER_MODES)}")
    game = variant_game(variant)
    if isinstance(players, str):
        players = (players,)
    if not isinstance(players, tuple | list) or not all(isinstance(p, str) for p in players):
        raise PlayerError(f"players: a player's name (\"DISCARD+PEGGING\"), or one for each "
                          f"seat, got {players!r}")
    players = tuple(players)
    if len(players) == 1:
        players *= game.players
    if len(players) != game.players:
        raise PlayerError(f"{variant} has {game.players} seats: give one player for every seat, "
                          f"or one for each, not {len(players)}")
    policies = policy_arrays(players, game.players)
    if seed is None and resume and checkpoint is not None:  # the run's own seed
        seed = Checkpoint(checkpoint).saved_seed()
    if seed is None:
        seed = int(np.random.SeedSequence().entropy % (2**63))
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    workers = resolve_workers(workers, backend)
    plan = RunPlan(games, seed, tuple(players), int(chunk_size), crib,
                   min(int(record_games), games), variant, first_dealer)
    values, table = crib_pairs(plan.crib, plan.variant), rank_table()
    store = Checkpoint(checkpoint) if checkpoint is not None else None
    total = store.start(plan, resume) if store is not None else ChunkResult.empty()
    # the chunks the checkpoint does not hold, in order, with no array of every chunk (10^12
    # games are half a billion chunks, and a time limit should stop them in its time)
    todo = ChunksToDo(plan.n_chunks, total.chunks)
    if max_chunks is not None:
        todo = todo[:int(max_chunks)]
    resumed = int(plan.chunk_sizes(total.chunks).sum())
    start = time.perf_counter()

    def time_left() -> float | None:
        return None if time_limit is None else time_limit - (time.perf_counter() - start)

    def out_of_time() -> bool:
        left = time_left()
        return left is not None and left <= 0

    bar = _progress_bar(games, progress, initial=resumed)
    if backend == "local":
        parts = local_backend(plan, todo, workers, policies, values, table, time_left=time_left)
    else:
        parts = dask_backend(plan, todo, scheduler, workers, out_of_time)
    try:
        for part in parts:
            if store is not None:
                store.save(part)
            total.add(part)
            if bar is not None:
                bar.update(int(plan.chunk_sizes(part.chunks).sum()))
            if out_of_time():
                break
    finally:
        parts.close()
        if bar is not None:
            bar.close()
    elapsed = time.perf_counter() - start
    done = int(plan.chunk_sizes(total.chunks).sum())
    return SimulationResult(done, seed, tuple(players), workers, plan.chunk_size, elapsed,
                            total.acc, total.crib_acc, total.sorted_records(), crib, games, backend,
                            done - resumed, variant, first_dealer)


def _progress_bar(total: int, enabled: bool, initial: int = 0):
    if not enabled:
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, unit="game", unit_scale=True, file=sys.stderr,
                smoothing=0.1, dynamic_ncols=True)


#: Who is who in :func:`play_hands`, by the number of players: the dealer's left first.
_SEAT_NAMES = {2: ("pone", "dealer"), 3: ("first", "second", "dealer"),
               4: ("first", "second", "third", "dealer")}


def play_hands(*hands, pegging=None, seed: int = 0, starter=None,
               variant: str = "six-card") -> dict:
    """Run the engine's play (pegging) of one deal from given hands, for any form of the game.

    Parameters
    ----------
    *hands
        The kept hands in turn order, the dealer's left first and the dealer last: ``pone,
        dealer`` for two players. As text or ids; four cards each, three for five-card. With the
        ``ordered`` policy each player lays the first legal card of the hand as given, so a play
        can be scripted.
    pegging
        Pegging policy names, one per hand in the same order, or one name for all (default
        ``"ordered"``). ``best`` knows no thrown cards here and values pegging points (no
        score).
    seed
        Seed for a random policy.
    starter
        Optional starter card (the policies then treat it as seen).
    variant
        The form of the game (:data:`analyzer.core.game.VARIANTS`): the number of hands it takes,
        the cards in each, and its play (five-card: one count only). Partners' points are reported
        by player.

    Returns
    -------
    dict
        ``plays``: ``[(who, card, points), ...]`` with card text and who ``"pone"`` or
        ``"dealer"`` (two players) or ``"first"``, ``"second"``, ``"third"`` (from the dealer's
        left) and ``"dealer"``; the points include the go or last-card point. ``pegged``: each
        player's points, ``{who: points}``.

    Examples
    --------
    >>> play_hands("JH 7C 6D 4H", "5S 6H 2S 4S")["pegged"]
    {'pone': 3, 'dealer': 6}
    >>> play_hands("KS 9C 8C", "TD 4H 7H", variant="five-card")["plays"][-1]
    ('pone', '9C', 1)
    """
    from ..core.cards import CardError, as_cards, format_card
    game = variant_game(variant)
    if len(hands) != game.players:
        raise CardError(f"{variant} is played by {game.players} players: give {game.players} "
                        f"hands, got {len(hands)}")
    cards = [as_cards(h, n=game.kept) for h in hands]
    s = -1 if starter is None else int(as_cards(starter, n=1)[0])
    as_cards([c for h in cards for c in h.tolist()] + ([s] if s >= 0 else []))  # all distinct
    names = [pegging] * len(hands) if pegging is None or isinstance(pegging, str) else pegging
    names = ["ordered" if n is None else n for n in names]
    if len(names) != len(hands):
        raise PlayerError(f"give one pegging policy per hand, or one for all: got {len(names)}")
    unknown = [n for n in names if n not in PEGGING_POLICIES]
    if unknown:
        raise PlayerError(f"unknown pegging policy {unknown[0]!r}: choose from "
                          f"{', '.join(PEGGING_POLICY_NAMES)}")
    # the engine's seats: the dealer is seat 0, the hands follow round the table from seat 1
    n = game.players
    order = [n - 1, *range(n - 1)]  # seat -> index into hands
    kept = np.array([cards[i] for i in order], np.int64)
    peg = np.array([PEGGING_POLICIES[names[i]] for i in order], np.int64)
    scores = np.zeros(game.teams, np.int64)
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    st = chunk_states(seed, 1)[0]
    from ..play.reads import player_tables

    t = player_tables(game.name, [])  # the form's tables, as the engine's players read them
    searches = bool((peg == PEGGING_POLICIES["best"]).any())
    # best searches as in six-card with a pegging table (any array), as in the other forms
    # without one (None): the kernel compiles only the search it is given the types of
    six = game.name == "six-card"
    plays, pegged, _ = _play_deal(kept, 0, peg, s, 10**6, scores, st, game.one_count,
                                  t.rank_table, t.crib_values, t.card_values, t.hand_table,
                                  np.zeros((1, 1)) if searches and six else None,
                                  np.zeros((1, 1)) if searches else None)
    who = _SEAT_NAMES[n]
    seat_name = [who[i] for i in order]
    return {
        "plays": [(seat_name[int(a)], format_card(int(c)), int(pts)) for a, c, pts in plays],
        "pegged": {who[i]: int(pegged[(i + 1) % n]) for i in range(n)},
    }
