"""Duels: one player against another over many two-player games, scored the way matches are.

:func:`duel` plays A (seat 0) against B (seat 1) with :func:`analyzer.simulate`, the same chunks,
seeds and game loop, but with the first dealer alternating instead of cut for: game ``i`` is dealt
first by seat ``i % 2``, so each player deals first in exactly half the games (the number of
games must be even). The engine counts each side's wins by the loser's skunk tier; from those
counts :class:`DuelResult` gives

* A's win rate with its 95% Wilson interval;
* A's net match points per game, A's match points minus B's, where a win is worth 1, a skunk
  (the loser under 91) 2 and a double skunk (under 61) 3; a triple skunk (under 31) counts as a
  double, 3. Its 95% interval is the normal one from the per-game outcome distribution (each
  game is one of -3, -2, -1, +1, +2, +3 and the games are independent);
* the skunk and double-skunk rates each way.

Same seed, same result, whatever the number of workers or the backend (the Dask one too).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..core.choices import PlayerError, check_number
from ..play.engine import ACC, SKUNK_TIERS
from .harness import DEFAULT_CHUNK, SimulationResult, _wilson, simulate

__all__ = ["MATCH_POINTS", "DuelResult", "duel"]

#: Match points of a win by the loser's skunk tier: none, skunk, double skunk, triple skunk
#: (scored as a double).
MATCH_POINTS = (1, 2, 3, 3)
_TIERS = len(SKUNK_TIERS) + 1
_Z = 1.959964


@dataclass
class DuelResult:
    """What :func:`duel` returns.

    Attributes
    ----------
    players
        ``(A, B)`` as given.
    wins
        int64 (2, 4): ``wins[side, tier]`` games won by A (side 0) or B (side 1) with the
        loser's skunk tier ``tier`` (0 none, 1 skunk, 2 double, 3 triple).
    first_deals
        int64 (2,): games A and B dealt first.
    simulation
        The underlying :class:`analyzer.sim.harness.SimulationResult` (records, points per deal...).
    """

    players: tuple[str, str]
    seed: int
    games: int
    workers: int
    elapsed_seconds: float
    wins: np.ndarray
    first_deals: np.ndarray
    simulation: SimulationResult = field(repr=False)

    @classmethod
    def from_simulation(cls, result: SimulationResult) -> DuelResult:
        """The duel's figures from a two-player run's accumulators."""
        wins = np.array([result.acc[ACC.tier_wins + q * _TIERS:ACC.tier_wins + (q + 1) * _TIERS]
                         for q in range(2)], np.int64)
        first = np.array(result.acc[ACC.first_deals:ACC.first_deals + 2], np.int64)
        return cls(tuple(result.players), result.seed, result.games, result.workers,
                   result.elapsed_seconds, wins, first, result)

    @property
    def a_wins(self) -> int:
        return int(self.wins[0].sum())

    @property
    def b_wins(self) -> int:
        return int(self.wins[1].sum())

    @property
    def win_rate(self) -> float:
        """A's share of the games won."""
        return self.a_wins / self.games

    @property
    def win_rate_ci(self) -> tuple[float, float]:
        """95% Wilson interval of :attr:`win_rate`."""
        return _wilson(self.a_wins, self.games)

    @property
    def outcomes(self) -> dict[int, int]:
        """Games by A's net match points in the game, ``{-3: n, -2: n, -1: n, 1: n, 2: n,
        3: n}``."""
        out = {v: 0 for v in (-3, -2, -1, 1, 2, 3)}
        for tier in range(_TIERS):
            out[MATCH_POINTS[tier]] += int(self.wins[0, tier])
            out[-MATCH_POINTS[tier]] += int(self.wins[1, tier])
        return out

    @property
    def a_match_points(self) -> int:
        """A's match points over all games."""
        return sum(v * n for v, n in self.outcomes.items() if v > 0)

    @property
    def b_match_points(self) -> int:
        """B's match points over all games."""
        return -sum(v * n for v, n in self.outcomes.items() if v < 0)

    @property
    def match_points(self) -> float:
        """A's net match points per game: (A's match points - B's) / games."""
        return (self.a_match_points - self.b_match_points) / self.games

    @property
    def match_points_ci(self) -> tuple[float, float]:
        """95% normal interval of :attr:`match_points` from the per-game outcome variance
        (the sample variance; NaN for a single game)."""
        n = self.games
        if n < 2:
            return (math.nan, math.nan)
        mean = self.match_points
        sumsq = sum(v * v * k for v, k in self.outcomes.items())
        var = max((sumsq - n * mean * mean) / (n - 1), 0.0)
        half = _Z * math.sqrt(var / n)
        return (mean - half, mean + half)

    def _rate(self, side: int, tier: int) -> float:
        return int(self.wins[side, tier:].sum()) / self.games

    @property
    def skunk_rates(self) -> dict[str, float]:
        """Shares of the games: A skunked B (under 91, double skunks included), A double-skunked
        B (under 61), and the same for B."""
        return {"a_skunk_rate": self._rate(0, 1), "a_double_skunk_rate": self._rate(0, 2),
                "b_skunk_rate": self._rate(1, 1), "b_double_skunk_rate": self._rate(1, 2)}

    @property
    def games_per_second(self) -> float | None:
        played = self.simulation.played
        return played / self.elapsed_seconds if self.elapsed_seconds else None

    def to_dict(self) -> dict:
        """The JSON of ``crib duel --json``."""
        return {
            "players": list(self.players),
            "seed": self.seed,
            "games": self.games,
            "workers": self.workers,
            "first_deals": [int(x) for x in self.first_deals],
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "win_rate": self.win_rate,
            "win_rate_ci": list(self.win_rate_ci),
            "match_points": self.match_points,
            "match_points_ci": list(self.match_points_ci),
            "a_match_points": self.a_match_points,
            "b_match_points": self.b_match_points,
            **self.skunk_rates,
            "outcomes": {str(k): v for k, v in self.outcomes.items()},
            "elapsed_seconds": self.elapsed_seconds,
            "games_per_second": self.games_per_second,
        }


def duel(a: str, b: str, games: int, seed: int | None = None, workers: int | None = None,
         progress: bool = False, record_games: int = 0,
         chunk_size: int = DEFAULT_CHUNK, backend: str = "local",
         scheduler: str | None = None) -> DuelResult:
    """Play ``a`` against ``b`` over ``games`` games, each dealing first in half of them.

    Parameters
    ----------
    a, b
        Players, ``"DISCARD+PEGGING"`` or a one-word alias such as ``"baseline"``
        (:func:`analyzer.core.choices.parse_player`). A sits in seat 0, B in seat 1.
    games
        An even number of games, at least 2: game ``i`` is dealt first by A when ``i`` is even,
        by B when it is odd.
    seed
        The seed (``None``: fresh entropy, reported). Same seed, same result, whatever
        ``workers`` or ``backend``.
    workers
        Threads (default: this machine's cores); with the Dask backend, chunks at once.
    progress
        A progress bar on stderr (or in Jupyter).
    record_games
        Keep the records (:mod:`analyzer.sim.records`) of the first this many games, in
        ``result.simulation.records``.
    chunk_size
        Games per chunk (each chunk its own seed); part of what the seed means.
    backend, scheduler
        ``"local"`` (this machine's cores) or ``"dask"``, the chunks on the Dask cluster at
        ``scheduler`` (``"tcp://host:8786"``, or ``"local"`` for a ``LocalCluster`` here), as
        :func:`analyzer.simulate` runs them. Needs ``pip install 'analyzer[dask]'``.

    Raises
    ------
    PlayerError, ValueError
        Unknown players, or bad numbers.

    Examples
    --------
    >>> r = duel("ev+greedy", "baseline", games=200, seed=1, workers=1)
    >>> r.games, int(r.first_deals[0]), int(r.first_deals[1])
    (200, 100, 100)
    """
    games = check_number("games", games, low=2, integer=True)
    if games % 2:
        raise ValueError(f"games must be even (each player deals first in half), got {games}")
    for name in (a, b):
        if not isinstance(name, str):
            raise PlayerError(f"player {name!r} is not a name")
    result = simulate(games, seed=seed, players=(a, b), workers=workers, progress=progress,
                      record_games=record_games, chunk_size=chunk_size, first_dealer="alternate",
                      backend=backend, scheduler=scheduler)
    return DuelResult.from_simulation(result)
