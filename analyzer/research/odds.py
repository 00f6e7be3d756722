"""Win odds of the two-player six-card game from any score at the start of a deal.

The table ``D[nd, np]`` is the probability that the **dealer** wins the game when, at the start
of a deal (before the starter is cut), the dealer needs ``nd`` more points and the pone ``np``
(1..121 each). It is built in two steps.

**Self-play deals** (:func:`_odds_chunk`). Many independent deals are played with the engine's
own steps (:mod:`analyzer.play.engine`: the deal, the discards, his heels, the play and the show),
the same player in both seats (``ev+lookahead`` by default), each played out whole (no target
stops it). A deal is a list of events in the order the points arrive: his heels (dealer), each
card laid in the play with what it pegged, its go or last-card point included (the layer's), the
pone's hand, the dealer's hand, the crib (dealer). Along that order the dealer's points ``a`` and
the pone's ``b`` grow, and each deal adds, in time proportional to its points:

* ``Wd[nd, np]``: the deal in which the dealer reaches ``nd`` strictly before the pone reaches
  ``np`` (the pone may never reach it). When the dealer's running total first reaches ``nd`` the
  pone has ``b`` points, so the deal counts for every ``np > b``: one +1 in a difference array at
  ``[nd, b + 1]``, summed along ``np`` afterwards;
* ``Wp[np, nd]``: likewise the pone reaching ``np`` strictly before the dealer reaches ``nd``;
* ``H[x, y]``: the deal's totals, ``x`` the dealer's and ``y`` the pone's (clipped at 121).

Only one player scores at each event, so for every ``(nd, np)`` a deal is exactly one of: the
dealer reaches first, the pone reaches first, or neither reaches (``x < nd`` and ``y < np``):
``Wd[nd, np] + Wp[np, nd] + sum_{x<nd, y<np} H[x, y] = N`` for ``N`` deals, which the build
checks for every entry.

**Dynamic programming** (:func:`_solve`). If neither reaches, the next deal starts with the roles
swapped, the old pone dealing and needing ``np - y``, the old dealer ``nd - x``::

    D[nd, np] = Wd[nd, np] / N + sum_{x<nd, y<np} H[x, y] / N * (1 - D[np - y, nd - x])

Every deal scores at least one point (the last card), so ``H[0, 0] = 0`` and the right side
needs only states of a smaller ``nd + np``: the table is filled in increasing ``nd + np``. The
pone's own probability is solved the same way from ``Wp`` (``Pp[nd, np] = Wp[np, nd] / N + sum
H / N * D[np - y, nd - x]``) and ``D + Pp = 1`` is checked for every state. The recursion is exact
for a game whose deals are drawn independently from the self-play deals (the players do not look
at the score, so a deal's events do not depend on it), so the table is exactly monotone: needing
fewer points, or the opponent needing more, never lowers one's chance.

**Uncertainty.** The deals are dealt in chunks, each with its own xoshiro256** stream
(``SeedSequence(seed, spawn_key=(chunk,))``, :func:`analyzer.core.rng.chunk_states`); chunk ``i``
belongs to group ``i % 32``. The standard error of each entry is the delete-one-group jackknife
over the 32 groups: the table is solved again without each group in turn, and
``se = sqrt((G - 1) / G * sum_g (D_(-g) - mean)^2)``. The jackknife suits a smooth nonlinear
function of the tallies like the DP and, unlike 32 separate small tables, each of its replicates
rests on 31/32 of the deals. With 32 groups the standard error itself is known to about
``1 / sqrt(2 * 31)``, 13%.

Chunks are tallied in parallel, 32 at a time (one per group, so no two threads add to the same
tallies); the tallies are integer counts, so the table is the same whatever the number of
threads.

The shipped table, ``win_odds.csv`` in the package ``analyzer.data`` (built by ``crib tables
odds``), is read by :mod:`analyzer.keeping.winodds` (:func:`win_table`, :func:`win_table_se`,
:func:`win_probability`), which imports no compiled code; its names are re-exported here.
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

from ..core.apart import compiled_apart
from ..core.borrow import _borrowed, _keep_alive
from ..core.choices import (
    DEFAULT_PLAYER,
    MAX_DEALS,
    MAX_GAMES,
    MAX_SEED,
    check_flag,
    check_number,
    check_reachable,
    on_threads,
    parse_player,
    resolve_workers,
)
from ..core.files import atomic_write_all
from ..core.game import GAME, STANDARD, VARIANTS
from ..core.jit import njit
from ..core.rng import chunk_states
from ..core.scoring import hand_table, rank_table
from ..core.version import git_commit, package_version
from ..keeping.crib import crib_values, is_shipped_folder
from ..keeping.winodds import (  # re-exported: the reader is keeping.winodds's
    ODDS_COLUMNS,
    ODDS_FILE,
    ODDS_VARIANTS,
    _check_score,
    odds_game,
    read_odds_table,
    win_probability,
    win_probability_se,
    win_table,
    win_table_se,
)
from ..play.engine import DEAL, PLAY, _deal, _discards, _his_heels, _play, _record_deal, _show
from ..play.reads import NO_CARD_VALUES

__all__ = [
    "GROUPS",
    "MIN_DEALS",
    "ODDS_COLUMNS",
    "ODDS_FILE",
    "ODDS_VARIANTS",
    "OddsTable",
    "build_odds_table",
    "play_from_score",
    "read_odds_table",
    "record_deals",
    "solve",
    "tally_deals",
    "win_probability",
    "win_probability_se",
    "win_table",
    "win_table_se",
]

#: Groups of chunks the standard errors are estimated from (the delete-one-group jackknife).
GROUPS = 32
#: Deals a chunk holds (fewer when a build is small, so that every group has deals).
CHUNK = 10_000
#: The fewest deals a build takes (every group then holds some).
MIN_DEALS = GROUPS * GROUPS
_NO_TARGET = 1 << 30  # a target nothing reaches: deals are played out whole
# The six-card game throws two cards, never one: the read-only table every run passes (one
# signature for the engine's kernels, as the shipped tables are read-only).
_NO_CARD_VALUES = NO_CARD_VALUES
_DEALER, _PONE = 0, 1  # the seats in the deals of the table (seat 0 always deals)


# --------------------------------------------------------------------------- one deal


@njit(cache=True)
def _scratch(game):
    """The arrays one deal of ``game`` is played in (:func:`_one_deal`): the pack, the hands
    dealt, kept and thrown, the crib, the unseen ranks, the scores, the plays, the points pegged
    and the show, by seat."""
    n_players, n_dealt, n_kept = game[GAME.players], game[GAME.dealt], game[GAME.kept]
    return (np.arange(52, dtype=np.int64), np.empty((n_players, n_dealt), np.int64),
            np.empty((n_players, n_kept), np.int64),
            np.empty((n_players, n_dealt - n_kept), np.int64), np.empty(4, np.int64),
            np.empty((n_players, 13), np.int64), np.zeros(n_players, np.int64),
            np.zeros((n_players * n_kept, PLAY.size), np.int64), np.zeros(n_players, np.int64),
            np.zeros(n_players + 1, np.int64))


@compiled_apart
@njit(cache=True)
def _one_deal(st, game, dpol, ppol, values, cards, table, hands_t, deck, hands, kept, thrown,
              crib, unseen, scores, plays, pegged, show):
    """Deal, discard, his heels, the play and the show of one deal, seat 0 dealing, played out
    whole. Returns ``(starter, heels, cards laid)``; ``plays`` and ``show`` hold the rest.
    Compiled once and called (not inlined) by :func:`_odds_chunk` and
    :func:`_record_odds_deals`; a call a deal is nothing beside the deal."""
    starter = _deal(st, game, deck, hands)
    scores[:] = 0
    no_table = np.zeros((2, 1))  # the players of a table read no pegging or win-odds table
    _discards(st, game, hands, np.int64(_DEALER), starter, deck, dpol, values, cards, hands_t,
              kept, thrown, crib, unseen, scores, table, no_table, no_table)
    heels = _his_heels(starter)
    scores[_DEALER] += heels
    pegged[:] = 0
    n_plays, _ = _play(kept, np.int64(_DEALER), ppol, unseen, scores, np.int64(_NO_TARGET), st,
                       plays, pegged, game[GAME.one_count] != 0, thrown, starter, table,
                       no_table, no_table, values, cards, hands_t)
    _show(kept, crib, starter, np.int64(_DEALER), table, hands_t, scores, np.int64(_NO_TARGET),
          np.int64(-1), show)
    return starter, heels, n_plays


@njit(cache=True, inline="always")
def _reach(w, own, other, gain):
    """A side with ``own`` points gains ``gain`` while the other has ``other``: every need
    ``own < n <= own + gain`` is reached now, before the other's needs above ``other``
    (``w[n, other + 1] += 1`` in the difference array, of the form's target + 1 square).
    Returns the new total."""
    target = w.shape[0] - 1
    if other < target:
        for n in range(own + 1, min(own + gain, target) + 1):
            w[n, other + 1] += 1
    return own + gain


@njit(cache=True, inline="always")
def _tally_deal(heels, plays, n_plays, show, wd, wp, h):
    """Add one deal's events, in order, to the difference arrays ``wd``, ``wp`` and to ``h``.

    Two sides: the dealer's (seat 0, and seat 2 with four players) and the pone's (seat 1, and
    seat 3); the hands are shown from the dealer's left round to the dealer, then the crib."""
    target = h.shape[0] - 1
    n_players = show.shape[0] - 1
    a = _reach(wd, 0, 0, heels)  # the dealer's side's points so far
    b = 0  # the pone's side's
    for i in range(n_plays):
        if plays[i, PLAY.player] % 2 == _DEALER:
            a = _reach(wd, a, b, plays[i, PLAY.points])
        else:
            b = _reach(wp, b, a, plays[i, PLAY.points])
    for k in range(n_players):  # the hands, from the dealer's left (seat 1) round to seat 0
        if (1 + k) % n_players % 2 == _DEALER:
            a = _reach(wd, a, b, show[k])
        else:
            b = _reach(wp, b, a, show[k])
    a = _reach(wd, a, b, show[n_players])  # the crib
    h[min(a, target), min(b, target)] += 1


@njit(cache=True, nogil=True)
def _odds_chunk(st, size, game, dpol, ppol, values, cards, table, hands_t, wd, wp, h):
    """Play and tally one chunk of ``size`` deals from generator state ``st`` (advanced in
    place) into ``wd``, ``wp`` and ``h`` int64 (122, 122), its group's difference arrays of the
    reach tallies and deal totals (see the module). The tallies of a chunk depend only on its
    state and size; chunks run on threads (:func:`tally_deals`), as the GIL is released."""
    deck, hands, kept, thrown, crib, unseen, scores, plays, pegged, show = _scratch(game)
    # borrowed (analyzer.core.borrow): the call a deal counts no references
    b_st, b_game, b_dpol, b_ppol = _borrowed(st), _borrowed(game), _borrowed(dpol), _borrowed(ppol)
    b_values, b_cards, b_table = _borrowed(values), _borrowed(cards), _borrowed(table)
    b_hands_t, b_deck, b_hands = _borrowed(hands_t), _borrowed(deck), _borrowed(hands)
    b_kept, b_thrown, b_crib = _borrowed(kept), _borrowed(thrown), _borrowed(crib)
    b_unseen, b_scores, b_plays = _borrowed(unseen), _borrowed(scores), _borrowed(plays)
    b_pegged, b_show = _borrowed(pegged), _borrowed(show)
    for _ in range(size):
        _, heels, n_plays = _one_deal(b_st, b_game, b_dpol, b_ppol, b_values, b_cards, b_table,
                                      b_hands_t, b_deck, b_hands, b_kept, b_thrown, b_crib,
                                      b_unseen, b_scores, b_plays, b_pegged, b_show)
        _tally_deal(heels, b_plays, n_plays, b_show, wd, wp, h)
    _keep_alive(deck)  # the owners of the borrowed scratch live to here
    _keep_alive(hands)
    _keep_alive(kept)
    _keep_alive(thrown)
    _keep_alive(crib)
    _keep_alive(unseen)
    _keep_alive(scores)
    _keep_alive(plays)
    _keep_alive(pegged)
    _keep_alive(show)


@njit(cache=True)
def _record_odds_deals(state, n, game, dpol, ppol, values, cards, table, hands_t, rows):
    """The first ``n`` deals of the chunk with generator ``state``, exactly as
    :func:`_odds_chunk` plays them, written to ``rows`` int16 (n, DEAL.size) as the engine
    records a deal (for the tests: an independent recount of the tallies)."""
    st = state.copy()
    deck, hands, kept, thrown, crib, unseen, scores, plays, pegged, show = _scratch(game)
    for i in range(n):
        starter, heels, n_plays = _one_deal(st, game, dpol, ppol, values, cards, table, hands_t,
                                            deck, hands, kept, thrown, crib, unseen, scores,
                                            plays, pegged, show)
        _record_deal(rows[i], np.int64(_DEALER), hands, thrown, crib, starter, heels, plays,
                     n_plays, show, show.shape[0], scores)


@njit(cache=True, nogil=True)
def _games_from(st, size, start, game, dpol, ppol, values, cards, table, hands_t, wins):
    """``size`` whole games of ``game`` from a score, from generator state ``st`` (advanced in
    place): seat 0 deals first, the sides' scores start at ``start`` int64 (sides,) (seat ``p``
    scores for side ``p % sides``), the deal passes to the left (``dealer + 1``), and a game
    stops the moment a side reaches the form's target, as in the engine. Adds the games each
    side wins to ``wins`` int64 (sides,). Chunks run on threads (:func:`play_from_score`), as
    the GIL is released."""
    deck, hands, kept, thrown, crib, unseen, _, plays, pegged, show = _scratch(game)
    no_table = np.zeros((2, 1))  # the players of a table read no pegging or win-odds table
    n_players, n_sides, target = game[GAME.players], start.shape[0], game[GAME.target]
    one_count = game[GAME.one_count] != 0
    scores = np.zeros(n_sides, np.int64)
    for _ in range(size):
        for q in range(n_sides):
            scores[q] = start[q]
        dealer = np.int64(0)  # not a literal: the play's kernels compiled once for every caller
        winner = np.int64(-1)
        while winner < 0:
            starter = _deal(st, game, deck, hands)
            _discards(st, game, hands, dealer, starter, deck, dpol, values, cards, hands_t,
                      kept, thrown, crib, unseen, scores, table, no_table, no_table)
            scores[dealer % n_sides] += _his_heels(starter)
            if scores[dealer % n_sides] >= target:
                winner = dealer % n_sides
            else:
                _, winner = _play(kept, dealer, ppol, unseen, scores, target, st, plays, pegged,
                                  one_count, thrown, starter, table, no_table, no_table, values,
                                  cards, hands_t)
            _, winner = _show(kept, crib, starter, dealer, table, hands_t, scores, target,
                              winner, show)
            dealer = (dealer + 1) % n_players
        wins[winner] += 1


def _games_by_side(start: np.ndarray, games: int, seed: int, workers: int | None,
                   players: str, variant: str) -> np.ndarray:
    """The games each side wins of ``games`` from the sides' scores ``start``, seat 0 dealing
    first (:func:`_games_from`, in chunks of 2,000 with their own streams)."""
    if variant == "three-player":
        from ..play.reads import player_tables

        form = VARIANTS[variant]
        t = player_tables(variant, [DEFAULT_PLAYER])
        game, values, cards, table, hands_t = (form.as_array(), t.crib_values, t.card_values,
                                               t.rank_table, t.hand_table)
    else:
        form, game, values, cards, table, hands_t = _form(variant)
    dpol, ppol = _player_arrays(players, form.players)
    size = 2_000
    n_chunks = -(-games // size)
    sizes = np.full(n_chunks, size, np.int64)
    sizes[-1] = games - size * (n_chunks - 1)
    wins = np.zeros((n_chunks, len(start)), np.int64)
    states = chunk_states(seed, n_chunks)
    start = np.asarray(start, np.int64)

    def run(c):
        _games_from(states[c], sizes[c], start, game, dpol, ppol, values, cards, table,
                    hands_t, wins[c])

    on_threads(run, n_chunks, resolve_workers(workers))
    return wins.sum(axis=0)


# --------------------------------------------------------------------------- the recursion


@njit(cache=True)
def _solve(wd, wp, h, n, d, pp):
    """The dynamic programme of the module: ``d[nd, np]`` the dealer's and ``pp[nd, np]`` the
    pone's probability of winning, from the reach tallies ``wd[nd, np]``, ``wp[np, nd]`` (summed
    along the second axis) and the totals ``h[x, y]`` of ``n`` deals (int64 (122, 122) each).
    Row and column 0: ``d[0, :] = 1``, ``d[:, 0] = 0`` (``d[0, 0]`` unused, 1). The form's
    target is the arrays' size less one (any two-sided form)."""
    target = d.shape[0] - 1
    xs = np.nonzero(h)  # the deal totals that occur
    hx, hy = xs[0], xs[1]
    hp = np.empty(hx.shape[0], np.float64)
    for i in range(hx.shape[0]):
        hp[i] = h[hx[i], hy[i]] / n
    d[:, :] = 0.0
    pp[:, :] = 0.0
    d[0, :] = 1.0
    pp[:, 0] = 1.0
    pp[0, :] = 0.0
    for s in range(2, 2 * target + 1):
        for nd in range(max(1, s - target), min(target, s - 1) + 1):
            need = s - nd  # the pone's
            dealer = wd[nd, need] / n
            pone = wp[need, nd] / n
            for i in range(hx.shape[0]):
                x, y = hx[i], hy[i]
                if x < nd and y < need:
                    nxt = d[need - y, nd - x]  # the next deal, the roles swapped
                    dealer += hp[i] * (1.0 - nxt)
                    pone += hp[i] * nxt
            d[nd, need] = dealer
            pp[nd, need] = pone


def _cumulate(diff: np.ndarray) -> np.ndarray:
    """The reach tallies from their difference arrays (summed along the last axis)."""
    return np.cumsum(diff, axis=-1)


def solve(wd: np.ndarray, wp: np.ndarray, h: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The dealer's and the pone's win tables ``(D, Pp)``, float64 (122, 122), from the tallies of
    some deals: ``wd[nd, np]``, ``wp[np, nd]`` summed along the second axis and ``h[x, y]``
    (int64 (122, 122) each; see the module). Raises ``ValueError`` for tallies that do not add up:
    a deal scoring nothing, or a state whose three outcomes do not count every deal."""
    n = int(h.sum())
    if n <= 0:
        raise ValueError("no deals tallied")
    if h[0, 0]:
        raise ValueError(f"{int(h[0, 0])} deals scored no point, which cannot happen")
    neither = np.cumsum(np.cumsum(h, axis=0), axis=1)  # neither[x, y] = sum h[:x+1, :y+1]
    total = wd[1:, 1:] + wp[1:, 1:].T + neither[:-1, :-1]
    if not (total == n).all():
        nd, np_ = np.argwhere(total != n)[0] + 1
        raise ValueError(f"the tallies do not add up at dealer needs {nd}, pone needs {np_}: "
                         f"{int(total[nd - 1, np_ - 1])} of {n} deals")
    d = np.zeros(h.shape)
    pp = np.zeros(h.shape)
    _solve(np.ascontiguousarray(wd, np.int64), np.ascontiguousarray(wp, np.int64),
           np.ascontiguousarray(h, np.int64), n, d, pp)
    return d, pp


# --------------------------------------------------------------------------- the build


def _layout(deals: int) -> tuple[np.ndarray, np.ndarray]:
    """Chunk sizes and groups of a build of ``deals``: chunks of :data:`CHUNK` deals (fewer in a
    small build, so every group gets some), chunk ``i`` in group ``i % GROUPS``."""
    size = max(1, min(CHUNK, -(-deals // GROUPS)))
    n_chunks = -(-deals // size)
    sizes = np.full(n_chunks, size, np.int64)
    sizes[-1] = deals - size * (n_chunks - 1)
    return sizes, np.arange(n_chunks, dtype=np.int64) % GROUPS


def _player_arrays(players: str, n_players: int = 2) -> tuple[np.ndarray, np.ndarray]:
    discard, pegging = parse_player(players)
    return np.full(n_players, discard, np.int64), np.full(n_players, pegging, np.int64)


def _form(variant: str):
    """The form's game array and the tables its players read (crib values of a pair and of one
    card, rank table, kept-hand table): the six-card game's as before; the others' from
    :func:`analyzer.play.reads.player_tables`. Only the two-sided forms have a table."""
    if variant == "six-card":
        return STANDARD, STANDARD.as_array(), crib_values(), _NO_CARD_VALUES, rank_table(), \
            hand_table()
    game = odds_game(variant)
    from ..play.reads import player_tables

    t = player_tables(game.name, [DEFAULT_PLAYER])
    return game, game.as_array(), t.crib_values, t.card_values, t.rank_table, t.hand_table


def tally_deals(deals: int, seed: int, workers: int | None = None,
                players: str = DEFAULT_PLAYER, progress=None,
                variant: str = "six-card") -> dict[str, np.ndarray]:
    """Play ``deals`` self-play deals and return their tallies by group.

    Returns ``{"wd", "wp", "h"}``, int64 (GROUPS, target + 1, target + 1) each: ``wd[g, nd,
    np]`` the deals of group ``g`` in which the dealer('s side) reaches ``nd`` before the pone('s)
    reaches ``np``, ``wp[g, np, nd]`` the pone's likewise, ``h[g, x, y]`` the deals with totals
    ``x`` (dealer) and ``y`` (pone). ``progress(done, deals)`` is called after each block of
    chunks. ``variant``: a two-sided form (:data:`ODDS_VARIANTS`).
    """
    deals = check_number("deals", deals, low=1, high=MAX_DEALS, integer=True)
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    form, game, values, cards, table, hands_t = _form(variant)
    dpol, ppol = _player_arrays(players, form.players)
    sizes, groups = _layout(deals)
    size = form.target + 1
    shape = (GROUPS, size, size)
    wd, wp, h = np.zeros(shape, np.int64), np.zeros(shape, np.int64), np.zeros(shape, np.int64)
    done = 0
    threads = resolve_workers(workers)
    for lo in range(0, len(sizes), GROUPS):  # one chunk per group at a time: no shared tally
        chunks = np.arange(lo, min(lo + GROUPS, len(sizes)))
        states = chunk_states(seed, chunks)

        def run(b, chunks=chunks, states=states):
            c, g = chunks[b], groups[chunks[b]]
            _odds_chunk(states[b], sizes[c], game, dpol, ppol, values, cards, table,
                        hands_t, wd[g], wp[g], h[g])

        on_threads(run, len(chunks), threads)
        done += int(sizes[chunks].sum())
        if progress is not None:
            progress(done, deals)
    return {"wd": _cumulate(wd), "wp": _cumulate(wp), "h": h}


def record_deals(n: int, seed: int, chunk: int = 0, players: str = DEFAULT_PLAYER,
                 variant: str = "six-card") -> np.ndarray:
    """The first ``n`` deals of chunk ``chunk`` of a build with ``seed``, as the engine records a
    deal: int16 (n, :data:`analyzer.play.engine.DEAL` size), seat 0 dealing, ``show`` whole."""
    form, game, values, cards, table, hands_t = _form(variant)
    dpol, ppol = _player_arrays(players, form.players)
    rows = np.zeros((n, DEAL.size), np.int16)
    _record_odds_deals(chunk_states(seed, [chunk])[0], n, game, dpol, ppol, values, cards,
                       table, hands_t, rows)
    return rows


@dataclass
class OddsTable:
    """A win-odds table and how it was made.

    ``p[nd, np]`` float64 (122, 122): the dealer's probability of winning when he needs ``nd``
    and the pone ``np`` at the start of a deal (row 0: 1, column 0: 0); ``se``: its standard
    error (delete-one-group jackknife over :data:`GROUPS` groups of deals); ``pone``: the pone's
    probability solved separately, and ``sum_gap`` the largest ``|p + pone - 1|``.
    """

    p: np.ndarray
    se: np.ndarray
    pone: np.ndarray
    deals: int
    seed: int
    players: str
    elapsed_seconds: float
    sum_gap: float
    mean_points: tuple[float, float]  # per deal: dealer, pone
    variant: str = "six-card"

    @property
    def max_se(self) -> float:
        return float(self.se[1:, 1:].max())

    def rows(self) -> list[str]:
        """The CSV lines: a header and one row per state, dealer's need then pone's; the
        probability to 7 decimals, its standard error to 3 significant digits."""
        lines = [",".join(ODDS_COLUMNS)]
        size = self.p.shape[0]
        for nd in range(1, size):
            for np_ in range(1, size):
                lines.append(f"{nd},{np_},{self.p[nd, np_]:.7f},{self.se[nd, np_]:.3g}")
        return lines

    def save(self, path: str | os.PathLike, command: str = "",
             overwrite_shipped: bool = False) -> list[Path]:
        """Write the table to ``path`` (CSV) and its provenance beside it (``.json``),
        atomically. Refuses (``FileExistsError``) to write into the package's own data folder
        unless ``overwrite_shipped``. Returns the paths written."""
        path = Path(path)
        if not overwrite_shipped and is_shipped_folder(path.parent):
            raise FileExistsError(f"{path.parent} is the package's own data folder: the shipped "
                                  "tables are not overwritten without overwrite_shipped=True")
        target = self.p.shape[0] - 1
        provenance = {
            "package_version": package_version(),
            "command": command or f"analyzer.research.odds.build_odds_table(deals={self.deals}, "
                                  f"seed={self.seed}, variant={self.variant!r})",
            "variant": self.variant,
            "seed": self.seed,
            "deals": self.deals,
            "games": None,
            "players": self.players,
            "what": f"P(dealer wins the {target}-point {self.variant} game) at the start of a "
                    "deal, by the points each player (side) needs, from self-play deals made "
                    "consistent by dynamic programming",
            "method": "per-deal reach tallies along the order points arrive (heels, the play, "
                      "the pone's hand, the dealer's hand, the crib) and deal totals; "
                      "D[nd,np] = Wd/N + sum_{x<nd,y<np} H[x,y]/N (1 - D[np-y, nd-x])",
            "se": f"delete-one-group jackknife over {GROUPS} groups of chunks",
            "max_se": self.max_se,
            "p_dealer_wins_at_0_0": float(self.p[target, target]),
            "max_abs_dealer_plus_pone_minus_1": self.sum_gap,
            "mean_points_per_deal": {"dealer": self.mean_points[0],
                                     "pone": self.mean_points[1]},
            "elapsed_seconds": self.elapsed_seconds,
            "git_commit": git_commit(),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "file": path.name,
        }
        table, meta = "\n".join(self.rows()) + "\n", json.dumps(provenance, indent=2) + "\n"
        atomic_write_all([(path, lambda tmp: tmp.write_text(table)),
                          (path.with_suffix(".json"), lambda tmp: tmp.write_text(meta))])
        return [path, path.with_suffix(".json")]




def build_odds_table(deals: int, seed: int = 0, workers: int | None = None,
                     players: str = DEFAULT_PLAYER, progress=None,
                     variant: str = "six-card") -> OddsTable:
    """Build the win-odds table from ``deals`` self-play deals (see the module).

    Parameters
    ----------
    deals
        How many deals, :data:`MIN_DEALS` (1,024) to 10^9.
    seed
        0 to 2**63 - 1; the same seed gives the same table whatever ``workers``.
    workers
        Threads (default: the cores).
    players
        The player in both seats, ``"DISCARD+PEGGING"``. It must not look at the score (none of
        the engine's players does), or the deals would depend on it.
    progress
        Called as ``progress(deals done, deals)`` after each block of chunks.
    variant
        The form (:data:`ODDS_VARIANTS`: the two-sided ones): ``"five-card"`` (to 61, one count)
        and ``"four-player"`` (two partnerships; the deal passes to the left, so the dealing
        side alternates as in two-player) have the same (target + 1)-square table, the dealer's
        side needing ``nd``, the other ``np``.

    Returns
    -------
    OddsTable

    Examples
    --------
    >>> t = build_odds_table(2_000, seed=1)
    >>> bool(t.p[1, 121] > 0.99 and t.p[121, 1] < 0.01), t.sum_gap < 1e-9
    (True, True)
    """
    deals = check_number("deals", deals, low=MIN_DEALS, high=MAX_DEALS, integer=True)
    start = time.perf_counter()
    t = tally_deals(deals, seed, workers, players, progress, variant)
    total = {k: v.sum(axis=0) for k, v in t.items()}
    p, pone = solve(total["wd"], total["wp"], total["h"])
    replicates = []
    for g in range(GROUPS):
        if t["h"][g].sum() == 0:
            continue
        replicates.append(solve(*(total[k] - t[k][g] for k in ("wd", "wp", "h")))[0])
    reps = np.array(replicates)
    k = len(reps)
    se = np.sqrt((k - 1) / k * ((reps - reps.mean(axis=0)) ** 2).sum(axis=0))
    se[0, :] = se[:, 0] = 0.0
    h = total["h"]
    n = h.sum()
    mean_points = (float((h.sum(axis=1) * np.arange(h.shape[0])).sum() / n),
                   float((h.sum(axis=0) * np.arange(h.shape[0])).sum() / n))
    gap = float(np.abs(p[1:, 1:] + pone[1:, 1:] - 1).max())
    return OddsTable(p, se, pone, deals, seed, players, time.perf_counter() - start, gap,
                     mean_points, odds_game(variant).name)


def play_from_score(me: int, opp: int, dealer: bool, games: int, seed: int = 0,
                    workers: int | None = None, players: str = DEFAULT_PLAYER,
                    variant: str = "six-card") -> dict:
    """Play ``games`` whole games from a score, by the engine's steps, and count the wins.

    A direct Monte Carlo check of the table: the player (side) with ``me`` points deals first
    (``dealer``) or is the pone, and the games run to the form's target as the engine runs them.
    ``variant``: a two-sided form (:data:`ODDS_VARIANTS`; five-card from a score as it stands,
    the pone's three for last already in it, so a score where neither side has 3 is refused: no
    deal starts there; four-player by side, seat 0 dealing for the side that deals). Returns
    ``{"wins", "games", "p", "se"}`` (``se`` the binomial standard error).
    Same seed, same result, whatever ``workers``. Three-player:
    :func:`analyzer.research.odds3.play_from_score3`.

    Examples
    --------
    >>> play_from_score(56, 60, False, games=100, seed=1, variant="five-card")["games"]
    100
    """
    game = odds_game(variant)
    me, opp = _check_score("me", me, game.target), _check_score("opp", opp, game.target)
    games = check_number("games", games, low=1, high=MAX_GAMES, integer=True)
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    dealer = check_flag("dealer", dealer)
    # five-card: the pone's 3 are in every score played from
    check_reachable(game, (me, opp), pone=1 if dealer else 0)
    start = [me, opp] if dealer else [opp, me]  # seat 0 (side 0) deals first
    wins = _games_by_side(np.array(start, np.int64), games, seed, workers, players, variant)
    won = int(wins[0] if dealer else wins[1])
    p = won / games
    return {"wins": won, "games": games, "p": p, "se": math.sqrt(p * (1 - p) / games)}
