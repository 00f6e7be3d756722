"""Every crib of every discard enumerated: the oracle of the counted crib
(analyzer.keeping.cribcount).

For each hand, each of its 15 discards, each pair of the 46 unseen cards (the opponent's) and
each starter of the 44 left, the crib is scored one by one with the show scorer (itself checked
against the naive plain-Python scorer), for several opponent weightings at once. The hands run
in ranges on threads (:func:`analyzer.core.choices.over_ranges`), so that tens of thousands of
hands take a minute or two on two threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.core.choices import over_ranges
from analyzer.core.scoring import _score_one, rank_table
from analyzer.keeping.discard import DISCARDS, _pair_weights

SCORES = 30


def card_weights() -> np.ndarray:
    """The three weightings tested, int64 (3, 52, 52): uniform, weighted with the crib the
    player's (dealer), weighted with the crib the opponent's (pone)."""
    uniform = np.ones((52, 52), np.int64)
    np.fill_diagonal(uniform, 0)
    return np.stack([uniform, _pair_weights(True), _pair_weights(False)])


@njit(cache=True, nogil=True)
def _enumerate(lo, hi, sixes, discards, weights, table, hist, totals, pairs):
    for h in range(lo, hi):
        six = sixes[h]
        unseen = np.empty(46, np.int64)
        n = 0
        for card in range(52):
            if not (card == six[0] or card == six[1] or card == six[2] or card == six[3]
                    or card == six[4] or card == six[5]):
                unseen[n] = card
                n += 1
        count = np.zeros(SCORES, np.int64)  # one pair's cribs by score, over the 44 starters
        for d in range(discards.shape[0]):
            a, b = six[discards[d, 0]], six[discards[d, 1]]
            out = hist[h, :, d]
            for i in range(46):
                c = unseen[i]
                for j in range(i + 1, 46):
                    e = unseen[j]
                    pair = 0
                    lo = SCORES
                    hi = 0
                    for k in range(46):
                        if k != i and k != j:
                            x = _score_one(a, b, c, e, unseen[k], True, table)
                            count[x] += 1
                            pair += x
                            lo = min(lo, x)
                            hi = max(hi, x)
                    for q in range(weights.shape[0]):
                        w = weights[q, c, e]
                        if w != 0:
                            totals[h, q, d] += w * pair
                            pairs[h, q, d] += w
                            for x in range(lo, hi + 1):
                                out[q, x] += w * count[x]
                    count[lo:hi + 1] = 0


def enumerate_cribs(sixes: np.ndarray, weights: np.ndarray):
    """For hands ``sixes`` int64 (n, 6) sorted and weightings ``weights`` int64 (q, 52, 52):
    ``hist`` int64 (n, q, 15, 30), the weighted number of cribs of each score per discard (in
    :data:`analyzer.keeping.discard.DISCARDS` order); ``means`` float64 (n, q, 15) as the
    enumeration of :func:`analyzer.keeping.discard._crib_means_enumerated` forms them (the weighted
    sum of every pair's points over 44 times the sum of the pairs' weights)."""
    n, q = len(sixes), len(weights)
    hist = np.zeros((n, q, 15, SCORES), np.int64)
    totals = np.zeros((n, q, 15), np.int64)
    pairs = np.zeros((n, q, 15), np.int64)
    over_ranges(_enumerate, n, np.ascontiguousarray(sixes, np.int64), DISCARDS, weights,
                rank_table(), hist, totals, pairs)
    return hist, totals / (pairs * 44)
