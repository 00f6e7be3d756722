"""What the two searches of the play share: :mod:`analyzer.play.search` (the two-player six-card
game) and :mod:`analyzer.play.searchforms` (the other forms).

The engine's ``best`` budget (:data:`BEST_SAMPLES`, :data:`BEST_FIRST_SAMPLES`,
:data:`BEST_MARGIN`; ``_INFER_TRIES``, the draws a posterior sample tries), the columns of a
search's output, its early stop (:func:`_beats`), its sub-stream (:func:`_substream`), the
summary of its samples (:func:`_summarise`) and the card its greedy rollouts lay
(:func:`_greedy_key`).
"""

from __future__ import annotations

import numpy as np

from ..core import rules
from ..core.jit import njit
from ..core.rng import _next
from ..core.scoring import _peg_points_packed, _rank, _value

__all__ = ["BEST_FIRST_SAMPLES", "BEST_MARGIN", "BEST_SAMPLES"]

#: Samples (determinizations) of the opponent's cards per decision of the engine's ``best`` policy,
#: at most: it looks after :data:`BEST_FIRST_SAMPLES` and stops there when no card is ahead of
#: the ``lookahead`` card (see :func:`analyzer.play.search._search`; the six-card search looks
#: again after every as many more).
BEST_SAMPLES = 32
#: The samples after which the engine's ``best`` search stops if no card is ahead of the
#: reference.
BEST_FIRST_SAMPLES = 8
#: How many standard errors the search's best card must beat the ``lookahead`` card by.
BEST_MARGIN = 1.0
# Draws of a hidden hand tried per sample (the posterior given the ``ev`` discard) before
# falling back to a uniform draw: both searches' ``infer``.
_INFER_TRIES = 64


# Columns of the search's output, one row per card of the hand.
_LEGAL, _NOW, _FOR, _AGAINST, _NET_SE, _WIN, _WIN_SE, _DIFF, _DIFF_SE, _WINS_NOW, _N_OUT = range(11)


#: Below every card's key in :func:`_greedy_key`: the card cannot go.
_NO_KEY = -(1 << 40)


@njit(cache=True, inline="always")
def _greedy_key(packed, nseq, count, card, last_card):
    """``(key, points)``: what ``card`` pegs on the count (``count``, its ``nseq`` ranks packed
    as :func:`analyzer.core.scoring._peg_points_packed` reads them; ``last_card`` whether it
    would be the last card of the play) and the key ``greedy`` lays the highest of, the first of
    equals; ``(_NO_KEY, 0)`` when it cannot go. The key is
    :func:`analyzer.play.players._greedy_key` (``1000 * points + tiebreak + rank / 100``, less
    100 at a count of 5 or 21) times 100, in whole numbers: the same order of the cards and the
    same first of equals, at less cost. Both searches' greedy
    rollouts choose by it, card by card; the points are those
    :func:`analyzer.play.playstep._lay` gives the card, so a rollout lays the chosen card
    without counting them again."""
    v = _value(card)
    after = count + v
    if after > rules.MAX_COUNT:
        return np.int64(_NO_KEY), np.int64(0)
    r = _rank(card)
    points = np.int64(_peg_points_packed(packed, nseq, r, after))
    if last_card and after != rules.MAX_COUNT:
        points += rules.LAST_CARD_POINTS
    if nseq == 0:  # leading
        tiebreak = 20 - v if v != 5 else 0
    else:
        tiebreak = v
    key = points * 100000 + tiebreak * 100 + r
    if after == 5 or after == 21:
        key -= 10000
    return key, points


@njit(cache=True)
def _one_rank(hand, laid, count):
    """Whether every card of ``hand`` (int64 (cards,)) not ``laid`` that may go on ``count`` is
    of one rank. Such cards lead to the same play and the same show, so the search would value
    them alike and its verdict would be the reference card: both engines lay the reference
    without searching (the same card, and the same draws from the game's stream)."""
    rank = -1
    for i in range(hand.shape[0]):
        if laid[i] or count + _value(hand[i]) > rules.MAX_COUNT:
            continue
        if rank >= 0 and _rank(hand[i]) != rank:
            return False
        rank = _rank(hand[i])
    return True


@njit(cache=True)
def _beats(vals, n, ref, out):
    """Whether a legal card's values in the first ``n`` samples (``vals`` (samples, cards)) sum
    to more than card ``ref``'s: a mean paired difference above zero."""
    for i in range(vals.shape[1]):
        if i == ref or out[i, _LEGAL] == 0.0:
            continue
        d = 0.0
        for s in range(n):
            d += vals[s, i] - vals[s, ref]
        if d > 0.0:
            return True
    return False


@njit(cache=True)
def _substream(st, local):
    """Seed ``local`` (uint64 (4,)) from 64 bits of ``st`` by splitmix64: the search's own
    stream, so its samples never disturb the game's but follow from it."""
    x = _next(st)
    for k in range(4):
        x = x + np.uint64(0x9E3779B97F4A7C15)
        z = x
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        local[k] = z ^ (z >> np.uint64(31))
    if local[0] == 0 and local[1] == 0 and local[2] == 0 and local[3] == 0:
        local[0] = 1


@njit(cache=True)
def _summarise(out, sums, vals, n, n_cards, ref, aware):
    """Write each legal card's means and standard errors into a search's ``out`` from its
    ``n`` samples: ``sums`` (cards, 5) the sums of pegging for, against, the squared net, the
    win and the squared win; ``vals`` (samples, cards) each sample's value of each card, whose
    mean paired difference from card ``ref``'s (``ref`` -1: none) goes to ``_DIFF``."""
    for i in range(n_cards):
        if out[i, _LEGAL] == 0.0:
            continue
        m_for = sums[i, 0] / n
        m_against = sums[i, 1] / n
        out[i, _FOR] = m_for
        out[i, _AGAINST] = m_against
        m_net = m_for - m_against
        if n > 1:
            var = max(sums[i, 2] / n - m_net * m_net, 0.0) * n / (n - 1)
            out[i, _NET_SE] = np.sqrt(var / n)
        else:  # one sample has no spread: no standard error (advise_play's samples=1)
            out[i, _NET_SE] = np.nan
        if aware:
            m_win = sums[i, 3] / n
            out[i, _WIN] = m_win
            if n > 1:
                var = max(sums[i, 4] / n - m_win * m_win, 0.0) * n / (n - 1)
                out[i, _WIN_SE] = np.sqrt(var / n)
            else:
                out[i, _WIN_SE] = np.nan
        else:
            out[i, _WIN] = np.nan
            out[i, _WIN_SE] = np.nan
        if ref >= 0 and out[ref, _LEGAL] != 0.0:
            d_sum = 0.0
            d_sq = 0.0
            for s in range(n):
                d = vals[s, i] - vals[s, ref]
                d_sum += d
                d_sq += d * d
            m = d_sum / n
            out[i, _DIFF] = m
            if n > 1:
                var = max(d_sq / n - m * m, 0.0) * n / (n - 1)
                out[i, _DIFF_SE] = np.sqrt(var / n)
