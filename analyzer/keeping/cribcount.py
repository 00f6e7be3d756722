"""The exact crib of each discard of a six-card hand, counted by rank classes, not enumerated.

When a player throws ``a, b`` from six cards, the crib is completed by the opponent's two cards
``c, e`` (any two of the 46 unseen) and the starter ``s`` (any of the 44 left): 45,540 cribs. Each
opponent pair has an integer weight ``W``, the same for every pair of its kind (its two ranks
and, for two ranks, whether it is suited): 1 for a uniform opponent, or for a weighted one
:func:`analyzer.keeping.discard._pair_weights`, the self-play throw count of the kind over the 6, 4
or 12 card pairs of that kind, times 12 (an integer). The result is, per discard, the
weighted number of cribs scoring each of 0..29 points: exact integers, so the mean (their
weighted sum of points over their sum, one division) and the probabilities do not depend on any
order of summation.

The crib's score is its suit-blind points (15s, pairs, runs: the ranks of ``a, b, c, e`` and
``s`` in :func:`~analyzer.core.scoring.hand_table`) plus a flush (5, all five of one suit) plus nobs
(1, the jack of the starter's suit among the four). The count goes in three steps:

1. **Rank classes.** From the unseen cards by rank and suit, the weighted number of opponent
   pairs of each rank pair ``x <= y`` (91 classes: the suited pairs counted suit by suit), times
   the starters of each rank ``z`` left (``n_z - [x = z] - [y = z]``), is added at the rank
   points of ``(a, b, x, y, z)``: 91 x 13 reads instead of 45,540 scores.
2. **Nobs.** A crib has nobs when the jack of the starter's suit is among its four; the jack is
   the player's (``a`` or ``b``) or one of the opponent's two. Those cribs are counted by the
   starter card (at most 12 of the jack's suit) and the ranks of the other cards, with the pairs
   that would hold the starter taken off, and moved up one point.
3. **Flushes.** Only when ``a`` and ``b`` are suited: the opponent's two and the starter of that
   suit are at most 55 x 9 cards, enumerated, and moved up five points.

The enumeration it replaces, :func:`analyzer.keeping.discard._crib_means_enumerated`, is kept as the
oracle: the tests check the means against it and the counts against the histogram of every crib
enumerated, bit for bit, on a hand of every rank pattern and on 20,000 random hands, both roles,
uniform and weighted. The kernels here are private; the public ways in are
:func:`analyzer.keeping.discard.keep` (``crib="uniform"`` or ``"weighted"``) and
:func:`analyzer.keeping.discard.crib_distribution`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import numpy as np

from ..core import rules
from ..core.jit import njit
from ..core.scoring import _rank, _sort4_index, _suit

__all__ = ["CribDistribution"]

#: The crib scores counted, 0..29.
SCORES = rules.MAX_SHOW_SCORE + 1


class CribDistribution(NamedTuple):
    """The exact distribution of the crib's score for each discard of a six-card hand.

    Returned by :func:`analyzer.keeping.discard.crib_distribution`. ``weights[d, k]`` is the
    weighted number of cribs of discard ``d`` that score ``k`` points (``k`` = 0..29): the sum over
    those cribs of the weight of the opponent's pair (1 each for ``"uniform"``), an exact integer.
    """

    hand: str  #: the six cards, in id order
    role: str  #: ``"dealer"`` (the crib is the player's) or ``"pone"``
    crib_mode: str  #: ``"uniform"`` or ``"weighted"``
    # : the 15 discards, in the order of :data:`analyzer.keeping.discard.DISCARDS`
    discard: list[str]
    weights: np.ndarray  #: int64 (15, 30), as above

    @property
    def total(self) -> np.ndarray:
        """int64 (15,): the weights' sum per discard (45,540 cribs each with ``"uniform"``)."""
        return self.weights.sum(axis=1)

    @property
    def probability(self) -> np.ndarray:
        """float64 (15, 30): the probability of each crib score, each row summing to 1."""
        return self.weights / self.total[:, None]

    @property
    def mean(self) -> np.ndarray:
        """float64 (15,): the mean crib, exactly :func:`~analyzer.keeping.discard.keep`'s
        ``crib_mean`` (an integer sum of points over the integer total, one division)."""
        return (self.weights * np.arange(SCORES)).sum(axis=1) / self.total


@lru_cache(maxsize=4)
def _rank_pair_weights(crib: str, dealer: bool) -> np.ndarray:
    """Integer weight of each kind of opponent pair: ``int64 (13, 13, 2)``, read-only.

    ``[x, y, suited]``, symmetric in ``x, y``; for ``x == y`` both entries hold the pair's
    weight. ``crib="uniform"``: all ones. ``crib="weighted"``: 12 times the self-play weight of
    one card pair of that kind, from :func:`analyzer.keeping.crib.throw_counts` in the opponent's
    role (the dealer's crib is filled by the pone): twice the count of a rank pair (6 card pairs),
    three times that of a suited kind (4), the count of an unsuited kind (12). Read from the
    lower rank first, as the enumeration does.
    """
    if crib == "uniform":
        weights = np.ones((13, 13, 2), np.int64)
    elif crib == "weighted":
        from .crib import throw_counts

        counts = throw_counts()[1 if dealer else 0]  # the opponent's role
        weights = np.empty((13, 13, 2), np.int64)
        for x in range(13):
            weights[x, x, :] = 2 * counts[x, x, 0]
            for y in range(x + 1, 13):
                weights[x, y, 0] = weights[y, x, 0] = counts[x, y, 0]
                weights[x, y, 1] = weights[y, x, 1] = 3 * counts[x, y, 1]
    else:
        raise ValueError(f"no exact crib for crib mode {crib!r}: 'uniform' or 'weighted'")
    weights.setflags(write=False)
    return weights


@njit(cache=True, inline="always")
def _ordered(x, y):
    """The two ranks, lower first."""
    return (x, y) if x <= y else (y, x)


@njit(cache=True)
def _crib_counts(six, discards, weights, hands, out):
    """Weighted number of cribs of each score, for each discard of one six-card hand.

    ``six`` int64 (6,) distinct ids; ``discards`` int64 (m, 2) indices into ``six``;
    ``weights`` int64 (13, 13, 2) (:func:`_rank_pair_weights`); ``hands``
    :func:`~analyzer.core.scoring.hand_table`. Writes ``out`` int64 (m, 30): ``out[d, k]`` is the
    sum, over the cribs of discard ``d`` scoring ``k`` (the opponent's two of the 46 unseen cards,
    the starter of the 44 left), of the opponent pair's weight. Method: the module docstring.
    """
    jack = rules.JACK
    has = np.ones((13, 4), np.int64)  # has[r, u]: the card of rank r, suit u is unseen
    for i in range(6):
        has[_rank(six[i]), _suit(six[i])] = 0
    n = np.zeros(13, np.int64)
    for r in range(13):
        n[r] = has[r, 0] + has[r, 1] + has[r, 2] + has[r, 3]
    # pairs[x, y] (x <= y): the weighted number of unseen card pairs of ranks x and y
    pairs = np.zeros((13, 13), np.int64)
    for x in range(13):
        pairs[x, x] = n[x] * (n[x] - 1) // 2 * weights[x, x, 0]
        for y in range(x + 1, 13):
            suited = (has[x, 0] * has[y, 0] + has[x, 1] * has[y, 1] + has[x, 2] * has[y, 2]
                      + has[x, 3] * has[y, 3])
            pairs[x, y] = suited * weights[x, y, 1] + (n[x] * n[y] - suited) * weights[x, y, 0]
    rows = np.zeros((13, 13), np.int64)
    nobs = np.zeros(SCORES, np.int64)  # weight of the cribs with nobs, by suit-blind points
    for d in range(discards.shape[0]):
        a, b = six[discards[d, 0]], six[discards[d, 1]]
        ra, rb = _rank(a), _rank(b)
        hist = out[d]
        hist[:] = 0
        nobs[:] = 0
        for x in range(13):
            for y in range(x, 13):
                rows[x, y] = _sort4_index(ra, rb, x, y)
        # 1. every crib at its suit-blind points, by rank class
        for x in range(13):
            for y in range(x, 13):
                w = pairs[x, y]
                if w == 0:
                    continue
                row = rows[x, y]
                for z in range(13):
                    k = n[z] - (x == z) - (y == z)
                    if k > 0:
                        hist[hands[row, z]] += w * k
        # 2a. nobs, the player's jack: every starter of its suit, every pair not holding it
        for j in range(2):
            card = a if j == 0 else b
            if _rank(card) != jack:
                continue
            u = _suit(card)
            for z in range(13):
                if has[z, u] == 0:
                    continue
                for x in range(13):
                    for y in range(x, 13):
                        w = pairs[x, y]
                        if w != 0:
                            nobs[hands[rows[x, y], z]] += w
                for y in range(13):  # the pairs holding the starter (z, u)
                    w = ((has[y, u] - (y == z)) * weights[z, y, 1]
                         + (n[y] - has[y, u]) * weights[z, y, 0])
                    if w != 0:
                        lo, hi = _ordered(z, y)
                        nobs[hands[rows[lo, hi], z]] -= w
        # 2b. nobs, the opponent's jack of suit v: each starter of suit v, each other card
        for v in range(4):
            if has[jack, v] == 0:
                continue
            for z in range(13):
                if z == jack or has[z, v] == 0:
                    continue
                for y in range(13):
                    w = ((has[y, v] - (y == z) - (y == jack)) * weights[jack, y, 1]
                         + (n[y] - has[y, v]) * weights[jack, y, 0])
                    if w != 0:
                        lo, hi = _ordered(jack, y)
                        nobs[hands[rows[lo, hi], z]] += w
        for k in range(SCORES - 1, -1, -1):
            if k >= rules.NOBS_POINTS:
                hist[k] += nobs[k - rules.NOBS_POINTS]
            hist[k] -= nobs[k]
        # 3. flushes: a and b suited, the opponent's two and the starter of their suit
        u = _suit(a)
        if _suit(b) != u:
            continue
        player_jack = ra == jack or rb == jack
        for x in range(13):
            if has[x, u] == 0:
                continue
            for y in range(x + 1, 13):
                w = weights[x, y, 1]
                if has[y, u] == 0 or w == 0:
                    continue
                nob = rules.NOBS_POINTS if player_jack or x == jack or y == jack else 0
                row = rows[x, y]
                for z in range(13):
                    if has[z, u] != 0 and z != x and z != y:
                        k = hands[row, z] + nob
                        hist[k] -= w
                        hist[k + rules.CRIB_FLUSH_POINTS] += w


@njit(cache=True, inline="always")
def _mean_of(hist):
    """Mean score of the weighted histogram ``hist`` int64 (30,): an integer sum over an integer
    total, one division (so it is the correctly rounded exact mean)."""
    total = np.int64(0)
    cribs = np.int64(0)
    for k in range(hist.shape[0]):
        total += k * hist[k]
        cribs += hist[k]
    return total / cribs


@njit(cache=True)
def _crib_means_counted(six, discards, weights, hands, out):
    """Exact mean crib of each discard of one hand: :func:`_crib_counts`, then the means.

    Writes ``out`` float64 (m,), bit for bit what the enumeration
    :func:`analyzer.keeping.discard._crib_means_enumerated` gives with the same weights.
    """
    counts = np.empty((discards.shape[0], SCORES), np.int64)
    _crib_counts(six, discards, weights, hands, counts)
    for d in range(discards.shape[0]):
        out[d] = _mean_of(counts[d])


@njit(cache=True, nogil=True)
def _crib_means_counted_many(lo, hi, sixes, discards, weights, hands, out):
    """:func:`_crib_means_counted` for rows ``lo`` to ``hi - 1`` of ``sixes`` int64 (n, 6) into
    ``out`` (n, m) (run over ranges of hands on threads:
    :func:`analyzer.core.choices.over_ranges`)."""
    for i in range(lo, hi):
        _crib_means_counted(sixes[i], discards, weights, hands, out[i])
