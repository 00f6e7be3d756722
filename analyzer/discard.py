"""Which four to keep: every discard of a six-card hand, valued exactly.

For each of the 15 ways to keep four cards of six, the kept hand is scored against each of the 46
starters the player cannot see (mean, min, max, standard deviation: exact), and the two cards thrown
are valued as a crib. With ``crib="uniform"`` that value is the exact expectation when the
opponent's two crib cards are any two of the 46 unseen cards and the starter any of the 44 left
(45,540 equally likely cribs per discard), enumerated in numba. The crib value is added to the hand
when the crib is the player's own (dealer) and taken off when it is the opponent's (pone).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .cards import as_cards, format_cards
from .scoring import _score_one, rank_table

__all__ = ["COLUMNS", "CRIB_MODES", "DISCARDS", "evaluate_discards", "keep"]

#: Ways of valuing the two cards thrown to the crib that :func:`keep` understands.
CRIB_MODES = ("uniform",)

#: The 15 discards of a six-card hand as index pairs (i, j), i < j, into the six cards.
DISCARDS = np.array([(i, j) for i in range(6) for j in range(i + 1, 6)], dtype=np.int64)
_KEEPS = np.array([[k for k in range(6) if k not in pair] for pair in DISCARDS], dtype=np.int64)

_UNSEEN = 46
_CRIBS_PER_DISCARD = 46 * 45 // 2 * 44  # 45,540


@njit(cache=True, parallel=True)
def _evaluate_discards(six, discards, keeps, table, hand_scores, crib_means):
    """Exact hand scores and uniform-opponent crib means for the 15 discards of ``six``.

    ``six``: int64 (6,) distinct card ids. ``discards`` (15, 2) and ``keeps`` (15, 4): int64 index
    pairs and quadruples into ``six``. ``table``: the rank table. Writes ``hand_scores`` int64
    (15, 46), the kept hand's score with each unseen starter (in id order), and ``crib_means``
    float64 (15,), the mean crib over every opponent pair and starter from the unseen cards.
    """
    unseen = np.empty(_UNSEEN, np.int64)
    n = 0
    for card in range(52):
        if (card != six[0] and card != six[1] and card != six[2] and card != six[3]
                and card != six[4] and card != six[5]):
            unseen[n] = card
            n += 1
    for k in prange(discards.shape[0]):
        d = np.int64(k)
        h0, h1 = six[keeps[d, 0]], six[keeps[d, 1]]
        h2, h3 = six[keeps[d, 2]], six[keeps[d, 3]]
        for i in range(_UNSEEN):
            hand_scores[d, i] = _score_one(h0, h1, h2, h3, unseen[i], False, table)
        a, b = six[discards[d, 0]], six[discards[d, 1]]
        total = 0
        for i in range(_UNSEEN):
            c = unseen[i]
            for j in range(i + 1, _UNSEEN):
                e = unseen[j]
                for m in range(_UNSEEN):
                    if m != i and m != j:
                        total += _score_one(a, b, c, e, unseen[m], True, table)
        crib_means[d] = total / _CRIBS_PER_DISCARD


COLUMNS = ("keep", "discard", "hand_mean", "hand_min", "hand_max", "hand_std", "crib_mean", "net")


def evaluate_discards(six_cards, dealer: bool, crib: str = "uniform") -> dict:
    """The numbers behind :func:`keep`, as plain numpy columns (no pandas), best first.

    Returns a dict with the :data:`COLUMNS` (card text as lists of str, the rest as arrays) and
    the metadata ``hand``, ``role`` and ``crib_mode``. Used where importing pandas would cost
    more than the answer (the ``crib keep`` command).
    """
    if crib not in CRIB_MODES:
        raise ValueError(f"unknown crib mode {crib!r}: choose one of {', '.join(CRIB_MODES)}")
    six = np.sort(as_cards(six_cards, n=6)).astype(np.int64)
    hand_scores = np.empty((15, _UNSEEN), np.int64)
    crib_means = np.empty(15, np.float64)
    _evaluate_discards(six, DISCARDS, _KEEPS, rank_table(), hand_scores, crib_means)
    hand_mean = hand_scores.mean(axis=1)
    net = hand_mean + crib_means if dealer else hand_mean - crib_means
    order = np.lexsort((-hand_mean, -net))  # by net, then hand mean, both descending; stable
    return {
        "keep": [format_cards(six[_KEEPS[i]]) for i in order],
        "discard": [format_cards(six[DISCARDS[i]]) for i in order],
        "hand_mean": hand_mean[order],
        "hand_min": hand_scores.min(axis=1)[order],
        "hand_max": hand_scores.max(axis=1)[order],
        "hand_std": hand_scores.std(axis=1)[order],
        "crib_mean": crib_means[order],
        "net": net[order],
        "hand": format_cards(six),
        "role": "dealer" if dealer else "pone",
        "crib_mode": crib,
    }


def keep(six_cards, dealer: bool, crib: str = "uniform"):
    """Rank the 15 ways to keep four cards of six, best first.

    Parameters
    ----------
    six_cards
        Six distinct cards, as text (``"5H 5S 6D JC QS KH"``) or ids.
    dealer
        True when the crib is the player's own (its value is added), False when it is the
        opponent's (its value is taken off).
    crib
        How the two thrown cards are valued: ``"uniform"``, the exact expectation with the
        opponent's two crib cards drawn uniformly from the 46 unseen cards and the starter from
        the 44 left.

    Returns
    -------
    pandas.DataFrame
        One row per discard, sorted by ``net`` (then ``hand_mean``) descending, with columns
        ``keep``, ``discard`` (card text, in id order), ``hand_mean``, ``hand_min``,
        ``hand_max``, ``hand_std`` (population standard deviation; all exact over the 46
        starters), ``crib_mean`` and ``net`` (``hand_mean + crib_mean`` as dealer,
        ``hand_mean - crib_mean`` as pone). ``df.attrs`` records ``hand``, ``role`` and
        ``crib_mode``.

    Raises
    ------
    CardError
        Unless given six distinct, readable cards.

    Examples
    --------
    >>> best = keep("5H 5S 6D JC QS KH", dealer=False).iloc[0]
    >>> best["keep"], best["discard"], round(float(best["hand_mean"]), 3)
    ('5H 5S JC QS', '6D KH', 12.543)
    """
    import pandas as pd

    result = evaluate_discards(six_cards, dealer, crib)
    df = pd.DataFrame({column: result[column] for column in COLUMNS})
    df.attrs.update(hand=result["hand"], role=result["role"], crib_mode=result["crib_mode"])
    return df
