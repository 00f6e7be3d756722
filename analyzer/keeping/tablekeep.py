"""Which cards to keep, with the table crib, in numpy alone: the path of the ``crib keep`` command.

A new ``crib keep`` process spends most of its time starting: importing numba and loading the
first compiled kernel from its cache cost a hundred times the answer. With the table crib (the
default, in every form) one hand needs only its kept hands scored against every unseen starter
(15 x 46 shows in the six-card game), a lookup of each throw in the self-play crib table
(:func:`analyzer.keeping.crib.crib_values`, :func:`~analyzer.keeping.crib.card_values`) and, in the
six-card game, of each keep in the pegging table (:func:`analyzer.keeping.pegtable.peg_table`). This
module does that with numpy and imports no compiled code.

:func:`table_discards` returns what :func:`analyzer.keeping.discard.evaluate_discards` returns with
``crib="table"``, to the bit: the same statistics summed in the same order, the same lookups,
the same stable ranking (the tests compare every field over thousands of hands, in every form).
The exact crib modes (``"uniform"``, ``"weighted"``) enumerate cribs and stay compiled, in
:mod:`analyzer.keeping.discard`; so does :func:`analyzer.keep`, which builds a DataFrame and is
faster per hand once the kernels are loaded. The show scores come from :func:`_show_scores`, the
numpy twin of the compiled scorer of :mod:`analyzer.core.scoring` (tested equal on seeded batches
of hands): its fifteens, pairs and runs are counted by the function that fills the rank tables
(:mod:`analyzer.core.ranktables`, tested entry by entry against the naive scorer).
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from ..core import rules
from ..core.cards import CardError, as_cards, format_card
from ..core.choices import DEFAULT_VARIANT, check_flag, net_key, variant_game
from ..core.ranktables import _rank_points

__all__ = ["COLUMNS", "table_discards"]

#: The columns of a keep, in order: :func:`analyzer.keep`'s DataFrame and the command's rows.
COLUMNS = ("keep", "discard", "hand_mean", "hand_min", "hand_max", "hand_std", "crib_mean",
           "peg_mean", "net")
_CARD_NAMES = [format_card(c) for c in range(52)]


def _dealt(cards, game) -> np.ndarray:
    """The dealt cards as int64 ids, or a :class:`CardError` naming the form and the count."""
    ids = as_cards(cards)
    if len(ids) != game.dealt:
        given = " ".join(_CARD_NAMES[c] for c in ids.tolist()) or "nothing"
        raise CardError(f"expected {game.dealt} cards, got {len(ids)}: {given} (a {game.name} "
                        f"hand is dealt {game.dealt})")
    return ids.astype(np.int64)


@cache
def _ways(dealt: int, kept: int) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays into a sorted dealt hand, one row per way to keep ``kept`` of ``dealt``:
    ``keeps`` int64 (n, kept) and ``throws`` (n, dealt - kept), the throws in lexicographic
    order (the order of :data:`analyzer.keeping.discard.DISCARDS`)."""
    throws = [list(t) for t in itertools.combinations(range(dealt), dealt - kept)]
    keeps = [[k for k in range(dealt) if k not in t] for t in throws]
    out = np.array(keeps, np.int64), np.array(throws, np.int64)
    for a in out:
        a.setflags(write=False)
    return out


def _show_scores(hands: np.ndarray, starters: np.ndarray, crib: bool = False) -> np.ndarray:
    """Show scores of ``hands`` int64 (n, 4) (or (n, 3), five-card cribbage hands) with
    ``starters`` (n,): int64 (n,). The numpy twin of the compiled ``_score_one`` and
    ``_score_three`` of :mod:`analyzer.core.scoring`; ``crib``: only a five-card flush counts."""
    ranks = np.concatenate([hands >> 2, starters[:, None] >> 2], axis=1)
    pts = _rank_points(ranks)
    suit = hands[:, 0] & 3
    starter_suit = starters & 3
    one_suit = ((hands & 3) == suit[:, None]).all(axis=1)
    with_starter = one_suit & (starter_suit == suit)
    if hands.shape[1] == 3:
        pts = pts + np.where(with_starter, rules.THREE_CARD_STARTER_FLUSH_POINTS,
                             np.where(one_suit, rules.THREE_CARD_FLUSH_POINTS, 0))
    else:
        alone = 0 if crib else rules.HAND_FLUSH_POINTS
        pts = pts + np.where(with_starter, rules.CRIB_FLUSH_POINTS,
                             np.where(one_suit, alone, 0))
    nob = (rules.JACK << 2) | starter_suit
    return pts + rules.NOBS_POINTS * (hands == nob[:, None]).any(axis=1)


def _hand_stats(dealt: np.ndarray, keeps: np.ndarray) -> np.ndarray:
    """Mean, min, max and population standard deviation of the show of each kept hand of
    ``dealt`` (sorted ids) over every starter not in it: float64 (ways, 4).

    Computed as the compiled ``_hand_stats`` does: the starters in id order, the mean as the
    integer total over their number, the deviation as a second pass adding the squared
    differences one starter after the other (not numpy's pairwise sum), so the bits agree.
    """
    unseen = np.ones(52, bool)
    unseen[dealt] = False
    starters = np.flatnonzero(unseen)
    m = len(starters)
    ways = len(keeps)
    scores = _show_scores(np.repeat(dealt[keeps], m, axis=0), np.tile(starters, ways))
    scores = scores.reshape(ways, m)
    mean = scores.sum(axis=1) / m
    sq = np.zeros(ways)
    for j in range(m):
        diff = scores[:, j] - mean
        sq += diff * diff
    return np.stack([mean, scores.min(axis=1), scores.max(axis=1), np.sqrt(sq / m)], axis=1)


def _crib_means(dealt: np.ndarray, throws: np.ndarray, dealer: bool, game) -> np.ndarray:
    """The table crib value of each throw (float64 (ways,)): the pair by its ranks and
    suitedness, or the one card by its rank (three and four players); role 0 when the crib is
    the player's side's."""
    from .crib import card_values, crib_values

    role = 0 if dealer else 1
    thrown = dealt[throws]
    if throws.shape[1] == 1:
        return card_values("table", game.name)[role, thrown[:, 0] >> 2].astype(np.float64)
    values = crib_values("table", game.name)
    r = thrown >> 2
    suited = ((thrown[:, 0] & 3) == (thrown[:, 1] & 3)).astype(np.int64)
    return values[role, r.min(axis=1), r.max(axis=1), suited].astype(np.float64)


def table_discards(cards, dealer: bool, variant: str = DEFAULT_VARIANT,
                   pegging: bool = True) -> dict:
    """:func:`analyzer.keeping.discard.evaluate_discards` with the table crib, in numpy alone.

    Parameters
    ----------
    cards, dealer, variant, pegging
        As for :func:`analyzer.keep` (the crib is always ``"table"``).

    Returns
    -------
    dict
        The :data:`COLUMNS`, best first (card text as lists of str, the rest as arrays), and
        ``hand``, ``role``, ``crib_mode`` (``"table"``), ``variant`` and ``pegging`` (whether
        the net counts ``peg_mean``; False in the forms without a pegging table): the same
        values, to the bit, as ``evaluate_discards(cards, dealer, "table", variant, pegging)``.

    Raises
    ------
    CardError
        Unless given the form's number of distinct, readable cards.

    Examples
    --------
    >>> result = table_discards("5H 5S 6D JC QS KH", dealer=False)
    >>> result["keep"][0], result["discard"][0], round(float(result["hand_mean"][0]), 3)
    ('5H 5S JC QS', '6D KH', 12.543)
    """
    game = variant_game(variant)
    dealer = check_flag("dealer", dealer)
    pegging = check_flag("pegging", pegging)
    six_card = game.name == DEFAULT_VARIANT
    dealt = np.sort(_dealt(cards, game))
    keeps, throws = _ways(game.dealt, game.kept)
    stats = _hand_stats(dealt, keeps)
    crib = _crib_means(dealt, throws, dealer, game)
    if six_card:
        from .pegtable import pattern_index, peg_table

        peg = peg_table()[0 if dealer else 1, pattern_index(dealt[keeps] >> 2)]
    else:
        peg = np.zeros(len(keeps))
    pegging = six_card and bool(pegging)
    net = stats[:, 0] + crib if dealer else stats[:, 0] - crib
    if pegging:
        net = net + peg
    # stable: ties stay in discard order
    order = np.lexsort((-stats[:, 0], -net_key(net)))
    names = [_CARD_NAMES[c] for c in dealt.tolist()]
    return {
        "keep": [" ".join(names[k] for k in keeps[i]) for i in order.tolist()],
        "discard": [" ".join(names[k] for k in throws[i]) for i in order.tolist()],
        "hand_mean": stats[order, 0],
        "hand_std": stats[order, 3],
        "crib_mean": crib[order],
        "peg_mean": peg[order],
        "net": net[order],
        "hand_min": stats[order, 1].astype(np.int64),
        "hand_max": stats[order, 2].astype(np.int64),
        "hand": " ".join(names),
        "role": "dealer" if dealer else "pone",
        "crib_mode": "table",
        "variant": variant,
        "pegging": pegging,
    }
