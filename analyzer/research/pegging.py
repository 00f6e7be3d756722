"""The pegging value of a keep: what the play is worth, by the four cards kept and the role.

The show of a kept hand is exact (:mod:`analyzer.keeping.discard`); the play is not, because it
depends on the opponent's cards and both players' choices. This module measures it by self-play, for
the standard two-player six-card game:

* :func:`build_pegging_table` plays independent deals with the engine's own steps
  (:func:`analyzer.play.engine._deal`, :func:`~analyzer.play.engine._discards`,
  :func:`~analyzer.play.engine._play`, with a target nobody reaches, so every play runs to its last
  card), the same player in both seats (by default the strongest, ``ev+lookahead``, whose ``ev``
  discards read the shipped crib table as in :func:`analyzer.simulate`). For each deal and each
  player it tallies, by role (0 dealer, 1 pone) and the kept four's **rank pattern** (ranks
  sorted ``a <= b <= c <= d``; 1,820 patterns), the player's own pegging points, the
  opponent's, and their difference (for minus against): count, sum, sum of squares. His heels
  (2 to the dealer for a Jack turned) is not pegging and is not counted.
* The key is the rank pattern because the play depends on ranks only: suits score nothing in
  the play. Measured on 1,000,000 deals (each pattern's deals split by a finer key, the split
  means tested for heterogeneity): whether the four are one suit changes nothing (chi-square 694
  on 701 degrees of freedom); the two cards thrown matter a little, through what they leave for
  the opponent (a five thrown or not, or the number of ten-cards thrown: the finer cells differ
  from their pattern's mean by 0.044 points root-mean-square), a tenth of the spread between
  patterns (0.5 to 0.7) and near the table's typical standard error (0.025), for 91 times the
  cells. The rank pattern stays the key.
* :func:`peg_table` reads the shipped table (``data/pegging_values.csv``) as the ``float64 (2,
  28561)`` array the rest of the project indexes by ``role`` and ``((a*13+b)*13+c)*13+d``;
  :func:`peg_values` looks patterns up for any ranks. Both, with the table's layout and
  :func:`read_pegging_table`, live in :mod:`analyzer.keeping.pegtable` (which imports no compiled
  code, so ``crib keep`` starts quickly) and are re-exported here.

**Small counts.** Patterns the players rarely keep (four of a kind; a hand of high cards with
an Ace) rest on few deals, and a pattern ``ev`` never keeps on none. Every value is shrunk
toward its role's mean by one rule, ``v = (n * mean + K * role_mean) / (n + K)``, with ``K`` the
empirical-Bayes ratio of the within-pattern variance of the net to the variance of the true
pattern means (estimated over patterns with at least :data:`MIN_N_FOR_K` deals). With tens of
millions of deals ``K`` is a few dozen deals, so a common pattern's value is its sample mean to
well within its standard error; a pattern with ``n = 0`` gets the role's mean. (A build too
small to estimate ``K``, fewer than two patterns with that many deals, uses ``K = 0``: the raw
means.) The file keeps the raw mean (``peg_net_raw``) and its standard error (``se_net``)
beside the value used.

The value is conditional on the way the players keep: a pattern's mean is over the deals in
which ``ev`` chose to keep it (and the cards it threw), against an ``ev+lookahead`` opponent.
"""

from __future__ import annotations

import json
import math
import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from ..core.choices import (
    DEFAULT_PLAYER,
    MAX_DEALS,
    MAX_SEED,
    PEGGING_TABLE_DEALS,
    check_number,
    on_threads,
    policy_arrays,
    resolve_workers,
)
from ..core.jit import njit
from ..core.scoring import _sort4_index, rank_table
from ..core.version import git_commit, package_version
from ..keeping.pegtable import (
    _PATTERN_NUMBER,
    _PATTERNS,
    N_INDEX,
    N_PATTERNS,
    PEGGING_FILE,
    PEGGING_TABLE_COLUMNS,
    ROLES,
    pattern_index,
    pattern_text,
    peg_table,
    peg_values,
    read_pegging_table,
)
from ..play.engine import PLAY, _deal, _discards, _play
from ..play.reads import NO_CARD_VALUES

__all__ = [  # the table's layout and reader are analyzer.keeping.pegtable's, re-exported here
    "N_INDEX",
    "N_PATTERNS",
    "PEGGING_FILE",
    "PEGGING_TABLE_COLUMNS",
    "ROLES",
    "PegTableResult",
    "build_pegging_table",
    "pattern_index",
    "pattern_text",
    "peg_table",
    "peg_values",
    "read_pegging_table",
]

#: Patterns with fewer deals are left out of the estimate of the shrinkage constant ``K``.
MIN_N_FOR_K = 1000
#: What is tallied per role and pattern (int64): n, then sum and sum of squares of the player's
#: own pegging, the opponent's, and the difference.
STAT_N, STAT_FOR, STAT_FOR2, STAT_AG, STAT_AG2, STAT_NET, STAT_NET2 = range(7)
N_STATS = 7
#: A target no play reaches: every play runs to its last card.
_NO_TARGET = 1 << 40


# --------------------------------------------------------------------------- self-play


@njit(cache=True, inline="always")
def _kept_index(kept, p):
    """The full rank index of player ``p``'s four kept cards (sorted)."""
    return _sort4_index(kept[p, 0] >> 2, kept[p, 1] >> 2, kept[p, 2] >> 2, kept[p, 3] >> 2)


@njit(cache=True, nogil=True)
def _selfplay_pegging(st, n_deals, game, dpol, ppol, crib_values, card_values, hands, table,
                      pattern_number, acc, rec_dealt, rec_kept, rec_plays, rec_n):
    """Deal, discard and play out one chunk of ``n_deals`` independent deals; tally each
    player's pegging by role and kept rank pattern.

    ``st`` the chunk's generator state (advanced in place); ``game`` the six-card description
    (:meth:`analyzer.core.game.Game.as_array`); ``dpol``, ``ppol`` int64 (2,) the policies of
    seat 0 (always the dealer) and seat 1 (the pone); ``crib_values``, ``card_values``,
    ``hands`` and the rank ``table`` what :func:`analyzer.play.engine._discards` reads;
    ``pattern_number`` int64 (28561,) the pattern number of a sorted rank index. ``acc`` int64
    (2, 1820, N_STATS), zeroed: ``[role, pattern]`` the tallies. The first ``rec_n.shape[0]``
    deals are recorded (for the tests): the six cards dealt ``rec_dealt`` (R, 2, 6), the four
    kept ``rec_kept`` (R, 2, 4), the plays ``rec_plays`` (R, 8, PLAY.size) and their number
    ``rec_n`` (R,), by seat. The result depends only on the state and size; chunks run on
    threads (:func:`_play_deals`), as the GIL is released.
    """
    per_chunk = rec_n.shape[0]
    deck = np.arange(52, dtype=np.int64)
    dealt = np.empty((2, 6), np.int64)
    kept = np.empty((2, 4), np.int64)
    thrown = np.empty((2, 2), np.int64)
    crib = np.empty(4, np.int64)
    unseen_rank = np.empty((2, 13), np.int64)
    plays = np.zeros((8, PLAY.size), np.int64)
    pegged = np.zeros(2, np.int64)
    scores = np.zeros(2, np.int64)
    no_table = np.zeros((2, 1))  # the players of a table read no pegging or win-odds table
    for i in range(n_deals):
        starter = _deal(st, game, deck, dealt)
        scores[:] = 0
        _discards(st, game, dealt, np.int64(0), starter, deck, dpol, crib_values, card_values,
                  hands, kept, thrown, crib, unseen_rank, scores, table, no_table, no_table)
        pegged[:] = 0
        n_plays, _ = _play(kept, np.int64(0), ppol, unseen_rank, scores,
                           np.int64(_NO_TARGET), st, plays, pegged, np.bool_(False),
                           thrown, starter, table, no_table, no_table, crib_values, card_values,
                           hands)
        for p in range(2):  # seat 0 deals: role = seat
            j = pattern_number[_kept_index(kept, p)]
            mine = pegged[p]
            theirs = pegged[1 - p]
            net = mine - theirs
            a = acc[p, j]
            a[STAT_N] += 1
            a[STAT_FOR] += mine
            a[STAT_FOR2] += mine * mine
            a[STAT_AG] += theirs
            a[STAT_AG2] += theirs * theirs
            a[STAT_NET] += net
            a[STAT_NET2] += net * net
        if i < per_chunk:
            for x in range(2):
                for y in range(6):
                    rec_dealt[i, x, y] = dealt[x, y]
                for y in range(4):
                    rec_kept[i, x, y] = kept[x, y]
            for x in range(8):
                for y in range(PLAY.size):
                    rec_plays[i, x, y] = plays[x, y]
            rec_n[i] = n_plays


@dataclass
class PegTableResult:
    """A self-play pegging table and how it was made.

    ``stats`` int64 ``(2, 1820, N_STATS)``: the tallies by role and pattern (pattern ``j`` is
    ``_PATTERNS[j]``); ``k`` the shrinkage constant of each role; ``role_mean`` each role's mean
    net over all deals.
    """

    stats: np.ndarray
    deals: int
    seed: int
    players: tuple[str, str]
    chunk_size: int
    k: tuple[float, float] = (math.nan, math.nan)
    role_mean: tuple[float, float] = (math.nan, math.nan)
    elapsed_seconds: float = 0.0
    workers: int = 1

    @property
    def table(self):
        """The table as a pandas DataFrame: one row per role and pattern, the columns of
        :data:`PEGGING_TABLE_COLUMNS` (dealer rows first, patterns in index order)."""
        import pandas as pd

        cols = _table_columns(self.stats, self.k)
        texts = [pattern_text(*p) for p in _PATTERNS.tolist()]
        df = pd.DataFrame({"role": np.repeat(ROLES, N_PATTERNS), "ranks": texts * 2, **cols})
        return df[list(PEGGING_TABLE_COLUMNS)]

    def save(self, path: str | os.PathLike, command: str = "", *,
             overwrite_shipped: bool = False) -> list[Path]:
        """Write the table to ``path`` (a ``.csv`` file) and its JSON provenance beside it
        (``.json``), each atomically. Returns the paths written.

        Refuses (``FileExistsError``, nothing written) to write into the package's own data
        folder unless ``overwrite_shipped`` is true; ``ValueError`` unless ``path`` ends in
        ``.csv``.
        """
        from ..core.files import atomic_write_all
        from ..keeping.crib import is_shipped_folder

        path = Path(path)
        if path.suffix.lower() != ".csv":
            raise ValueError(f"{path}: the table is a .csv file (its provenance goes beside it "
                             "as .json)")
        if not overwrite_shipped and is_shipped_folder(path.parent if str(path.parent) else "."):
            raise FileExistsError(f"{path.parent} is the package's own data folder: the shipped "
                                  "tables are not overwritten without overwrite_shipped=True")
        df = self.table
        provenance = {
            "package_version": package_version(),
            "command": command,
            "seed": self.seed,
            "deals": self.deals,
            "games": None,
            "chunk_size": self.chunk_size,
            "players": list(self.players),
            "policies": "seat 0 always deals; ev discards read the shipped crib table "
                        "(crib_values.csv), as in simulate",
            "what": "per role and kept rank pattern: the player's own pegging points in the "
                    "play (go and last card included, his heels not), the opponent's, and the "
                    "difference; means, standard errors of the raw means, counts",
            "method": "independent deals played out whole (no target); values shrunk toward "
                      "the role's mean: v = (n * mean + K * role_mean) / (n + K), K the "
                      "empirical-Bayes ratio of within-pattern to between-pattern variance of "
                      f"the net, from patterns with n >= {MIN_N_FOR_K}",
            "shrinkage_k": {"dealer": self.k[0], "pone": self.k[1]},
            "role_mean_net": {"dealer": self.role_mean[0], "pone": self.role_mean[1]},
            "patterns_with_no_deals": {r: int((self.stats[i, :, STAT_N] == 0).sum())
                                       for i, r in enumerate(ROLES)},
            "elapsed_seconds": self.elapsed_seconds,
            "workers": self.workers,
            "git_commit": git_commit(),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "file": path.name,
        }
        meta, text = path.with_suffix(".json"), json.dumps(provenance, indent=2) + "\n"
        atomic_write_all([(path, lambda tmp: df.to_csv(tmp, index=False, float_format="%.6f")),
                          (meta, lambda tmp: tmp.write_text(text))])
        return [path, meta]




def _shrinkage(stats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per role: the shrinkage constant ``K`` and the mean net over all deals."""
    ks, means = np.zeros(2), np.zeros(2)
    for role in range(2):
        s = stats[role].astype(np.float64)
        n = s[:, STAT_N]
        total = n.sum()
        means[role] = s[:, STAT_NET].sum() / total if total else math.nan
        big = n >= MIN_N_FOR_K
        if big.sum() < 2:  # too few deals to estimate K: no shrinkage
            ks[role] = 0.0
            continue
        nb = n[big]
        mean = s[big, STAT_NET] / nb
        within = (s[big, STAT_NET2] - nb * mean**2).sum() / (nb - 1).sum()
        grand = (nb * mean).sum() / nb.sum()
        # the spread of the pattern means, less what sampling alone adds to it
        spread = (nb * (mean - grand) ** 2).sum() / nb.sum()
        tau2 = spread - within * big.sum() / nb.sum()
        ks[role] = within / tau2 if tau2 > 0 else math.inf
    return ks, means


def _table_columns(stats: np.ndarray, k) -> dict[str, np.ndarray]:
    """The columns of the table (both roles stacked) from the tallies, each value shrunk toward
    its role's mean by the role's ``K`` (net = for - against stays exact)."""
    s = stats.astype(np.float64)
    n = s[..., STAT_N]
    out: dict[str, np.ndarray] = {"n": stats[..., STAT_N].reshape(-1)}
    totals = s.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        for name, first, second in (("for", STAT_FOR, STAT_FOR2), ("against", STAT_AG, STAT_AG2),
                                    ("net", STAT_NET, STAT_NET2)):
            raw = np.where(n > 0, s[..., first] / np.maximum(n, 1), np.nan)
            var = (s[..., second] - n * np.nan_to_num(raw) ** 2) / (n - 1)
            se = np.where(n > 1, np.sqrt(np.maximum(var, 0) / np.maximum(n, 1)), np.nan)
            prior = totals[:, first] / np.maximum(totals[:, STAT_N], 1)
            kk = np.asarray(k, np.float64)[:, None]
            weight = np.where(np.isinf(kk), 0.0, n / (n + np.where(np.isinf(kk), 1, kk)))
            weight = np.where(n > 0, weight, 0.0)
            value = weight * np.nan_to_num(raw) + (1 - weight) * prior[:, None]
            out[f"peg_{name}"] = value.reshape(-1)
            out[f"se_{name}"] = se.reshape(-1)
            if name == "net":
                out["peg_net_raw"] = raw.reshape(-1)
    return out


def _play_deals(deals: int, seed: int, players, workers: int, chunk_size: int, record: int = 0,
                progress=None) -> tuple[np.ndarray, dict]:
    """Run the kernel over ``deals`` deals in chunks of ``chunk_size`` (chunk ``i`` seeded by
    :func:`analyzer.core.rng.chunk_states`), a block of chunks at a time; return the summed tallies
    and the records of the first ``record`` deals of each chunk."""
    from ..core.game import STANDARD
    from ..core.rng import chunk_states
    from ..core.scoring import hand_table
    from ..keeping.crib import crib_values

    dpol, ppol = policy_arrays(players, 2)
    n_chunks = -(-deals // chunk_size)
    sizes = np.full(n_chunks, chunk_size, np.int64)
    sizes[-1] = deals - chunk_size * (n_chunks - 1)
    values = crib_values("table")
    card_values = NO_CARD_VALUES  # six-card players throw pairs, never one card
    game, hands = STANDARD.as_array(), hand_table()
    total = np.zeros((2, N_PATTERNS, N_STATS), np.int64)
    per = min(record, chunk_size)
    recs = {"dealt": [], "kept": [], "plays": [], "n_plays": []}
    block = max(workers, 1) * 4
    done = 0
    table = rank_table()
    for lo in range(0, n_chunks, block):
        chunks = np.arange(lo, min(lo + block, n_chunks))
        states = chunk_states(seed, chunks)
        acc = np.zeros((len(chunks), 2, N_PATTERNS, N_STATS), np.int64)
        r = per * len(chunks)
        rec = (np.zeros((r, 2, 6), np.int64), np.zeros((r, 2, 4), np.int64),
               np.zeros((r, 8, PLAY.size), np.int64), np.zeros(r, np.int64))

        def run(b, chunks=chunks, states=states, acc=acc, rec=rec):
            mine = slice(b * per, (b + 1) * per)
            _selfplay_pegging(states[b], sizes[chunks[b]], game, dpol, ppol, values,
                              card_values, hands, table, _PATTERN_NUMBER, acc[b],
                              *(a[mine] for a in rec))

        on_threads(run, len(chunks), workers)
        total += acc.sum(axis=0)
        for key, a in zip(recs, rec, strict=True):
            recs[key].append(a)
        done += int(sizes[chunks].sum())
        if progress is not None:
            progress(done, deals)
    return total, {key: np.concatenate(v) for key, v in recs.items()}


def build_pegging_table(deals: int = PEGGING_TABLE_DEALS, seed: int = 0, workers: int | None = None,
                        players: str | tuple[str, str] = DEFAULT_PLAYER, progress=None,
                        chunk_size: int = 100_000) -> PegTableResult:
    """Build the pegging table by self-play (see the module docstring).

    Parameters
    ----------
    deals
        Independent deals to play, 1 to 10**9 (each gives one dealer and one pone sample).
    seed
        0 to 2**63 - 1. Same seed and ``chunk_size``, same table, whatever ``workers``.
    workers
        Threads; default all cores.
    players
        ``"DISCARD+PEGGING"`` for both seats, or ``(dealer's, pone's)``.
    progress
        Optional callable ``progress(deals_done, deals)``, called after each block of chunks.
    chunk_size
        Deals per chunk (each chunk its own random stream).

    Returns
    -------
    PegTableResult
        ``.table`` is the DataFrame (``role``, ``ranks`` like ``"5-5-10-J"``, ``n``,
        ``peg_for``, ``peg_against``, ``peg_net``, ``se_for``, ``se_against``, ``se_net``,
        ``peg_net_raw``); ``.save(path)`` writes it with its provenance.

    Examples
    --------
    >>> result = build_pegging_table(deals=2_000, seed=1, workers=1)
    >>> df = result.table
    >>> len(df), int(df["n"].sum())  # each deal: one dealer and one pone sample
    (3640, 4000)
    """
    deals = check_number("deals", deals, low=1, high=MAX_DEALS, integer=True)
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    chunk_size = check_number("chunk_size", chunk_size, low=1, integer=True)
    if isinstance(players, str):
        players = (players, players)
    players = tuple(players)
    policy_arrays(players, 2)  # PlayerError for a bad name, before any work
    workers = resolve_workers(workers)
    start = time.perf_counter()
    stats, _ = _play_deals(deals, seed, players, workers, chunk_size, progress=progress)
    k, means = _shrinkage(stats)
    return PegTableResult(stats, int(deals), int(seed), players, int(chunk_size),
                          (float(k[0]), float(k[1])), (float(means[0]), float(means[1])),
                          time.perf_counter() - start, workers)
