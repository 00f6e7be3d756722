"""Show and pegging scores: numba kernels and their public wrappers.

The hand counted out (:func:`count_hand`, :func:`say_count`) is :mod:`analyzer.core.counting`'s,
re-exported here.

The show score splits in two:

* the **suit-blind part** (15s, pairs, runs) depends only on the five ranks. It is read from
  :func:`rank_table`, a ``uint8`` table of ``13**5`` entries indexed by the five ranks *sorted*
  (``r0 <= r1 <= ... <= r4``, index ``((((r0*13 + r1)*13 + r2)*13 + r3)*13 + r4``), built once from
  the rules with numpy and passed into every kernel as an argument;
* the **suit part** (flush, nobs) comes from a few integer tests on the suits.

Five-card cribbage keeps three cards, so its hands are shown as four cards (three and the starter):
their suit-blind part is read from :func:`rank_table4`, ``uint8[13**4]`` over the four ranks sorted
(index ``((r0*13 + r1)*13 + r2)*13 + r3``), and a hand flush is 3, or 4 with the starter. Its crib
has four cards, like every other form's. Every public function takes ``variant=``, a name of
:data:`analyzer.core.game.VARIANTS` (default ``"six-card"``); the forms differ here only in how many
cards a hand holds.

Kernels are private (``_score_one``, ``_score_batch``, ``_census``, ``_peg_points``); the public
wrappers check and convert their input and accept cards as text or ids.
"""

from __future__ import annotations

import numpy as np

from . import cacheload, cards, rules
from .cards import as_cards, format_cards
from .choices import DEFAULT_VARIANT, over_ranges
from .counting import ScoreItem, _hand_and_starter, cards_shown, count_hand, say_count
from .jit import njit
from .ranktables import hand3_table, hand_table, rank_table, rank_table4

#: The fewest hands :func:`score_hands` gives a thread (a hand scores in tens of nanoseconds).
_HANDS_A_RANGE = 50_000

cacheload.install()  # before any kernel is loaded from the cache

__all__ = [
    "ScoreItem",
    "count_hand",
    "hand3_table",
    "hand_table",
    "peg_points",
    "rank_table",
    "rank_table4",
    "say_count",
    "score_hand",
    "score_hands",
    "show_census",
]


# Compiled twins of the card rules of :mod:`analyzer.core.cards` (defined there, once), for kernels.
_rank = njit(cache=True, inline="always")(cards.card_rank)
_suit = njit(cache=True, inline="always")(cards.card_suit)
_value = njit(cache=True, inline="always")(cards.card_value)
_rank_value = njit(cache=True, inline="always")(cards.rank_value)
_throw_key = njit(cache=True, inline="always")(cards.throw_key)




# --------------------------------------------------------------------------- show kernels


@njit(cache=True, inline="always")
def _sort5_index(r0, r1, r2, r3, r4):
    """Index into the rank table of five ranks, sorted by a 9-comparator network."""
    if r0 > r1:
        r0, r1 = r1, r0
    if r3 > r4:
        r3, r4 = r4, r3
    if r2 > r4:
        r2, r4 = r4, r2
    if r2 > r3:
        r2, r3 = r3, r2
    if r1 > r4:
        r1, r4 = r4, r1
    if r0 > r3:
        r0, r3 = r3, r0
    if r0 > r2:
        r0, r2 = r2, r0
    if r1 > r3:
        r1, r3 = r3, r1
    if r1 > r2:
        r1, r2 = r2, r1
    return (((r0 * 13 + r1) * 13 + r2) * 13 + r3) * 13 + r4


@njit(cache=True, inline="always")
def _score_one(c0, c1, c2, c3, s, crib, table):
    """Show score of hand (or crib) ``c0..c3`` with starter ``s`` (card ids, int).

    ``crib``: bool, only a five-card flush counts. ``table``: :func:`rank_table`.
    """
    pts = np.int64(table[_sort5_index(_rank(c0), _rank(c1), _rank(c2), _rank(c3), _rank(s))])
    suit = _suit(c0)
    ss = _suit(s)
    if _suit(c1) == suit and _suit(c2) == suit and _suit(c3) == suit:
        if ss == suit:
            pts += rules.CRIB_FLUSH_POINTS
        elif not crib:
            pts += rules.HAND_FLUSH_POINTS
    nob = (rules.JACK << 2) | ss
    if c0 == nob or c1 == nob or c2 == nob or c3 == nob:
        pts += rules.NOBS_POINTS
    return pts


@njit(cache=True, inline="always")
def _sort4_index(r0, r1, r2, r3):
    """Index into :func:`rank_table4` (and row of :func:`hand_table`) of four ranks, sorted by a
    5-comparator network."""
    if r0 > r1:
        r0, r1 = r1, r0
    if r2 > r3:
        r2, r3 = r3, r2
    if r0 > r2:
        r0, r2 = r2, r0
    if r1 > r3:
        r1, r3 = r3, r1
    if r1 > r2:
        r1, r2 = r2, r1
    return ((r0 * 13 + r1) * 13 + r2) * 13 + r3


@njit(cache=True, inline="always")
def _row3(c0, c1, c2):
    """Row of :func:`hand3_table` of three cards: their ranks sorted."""
    a, b, c = _rank(c0), _rank(c1), _rank(c2)
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return (a * 13 + b) * 13 + c


@njit(cache=True, inline="always")
def _score_three(c0, c1, c2, s, table4):
    """Show score of a five-card cribbage hand ``c0..c2`` with starter ``s`` (card ids, int).

    ``table4``: :func:`rank_table4`. A flush is the three hand cards of one suit (3), or 4 with
    the starter. (The five-card crib has four cards and is scored by :func:`_score_one`.)
    """
    pts = np.int64(table4[_sort4_index(_rank(c0), _rank(c1), _rank(c2), _rank(s))])
    return pts + _three_suit_points(c0, c1, c2, s)


@njit(cache=True, inline="always")
def _score_three_by_row(c0, c1, c2, s, hand3):
    """:func:`_score_three` read from :func:`hand3_table` (``hand3``), as the engine does."""
    return np.int64(hand3[_row3(c0, c1, c2), _rank(s)]) + _three_suit_points(c0, c1, c2, s)


@njit(cache=True, inline="always")
def _three_suit_points(c0, c1, c2, s):
    """The suit part of a three-card hand's show: its flush and nobs."""
    pts = 0
    suit = _suit(c0)
    ss = _suit(s)
    if _suit(c1) == suit and _suit(c2) == suit:
        if ss == suit:
            pts += rules.THREE_CARD_STARTER_FLUSH_POINTS
        else:
            pts += rules.THREE_CARD_FLUSH_POINTS
    nob = (rules.JACK << 2) | ss
    if c0 == nob or c1 == nob or c2 == nob:
        pts += rules.NOBS_POINTS
    return pts


@njit(cache=True, nogil=True)
def _score_batch(lo, hi, hands, starters, crib, table, out):
    """Score ``hands[lo:hi]`` (of (n, 4)) with ``starters`` (n,) into ``out`` (n,); card ids
    uint8 (as :func:`score_hands` passes them, so that one version is compiled). Run over
    ranges on threads (:func:`analyzer.core.choices.over_ranges`). The loop runs over views of
    the range from 0: the compiler then knows no index is negative (0.86 times the time of a
    loop from ``lo`` with the arrays' own indices)."""
    h, s, o = hands[lo:hi], starters[lo:hi], out[lo:hi]
    for i in range(h.shape[0]):
        o[i] = _score_one(np.int64(h[i, 0]), np.int64(h[i, 1]), np.int64(h[i, 2]),
                          np.int64(h[i, 3]), np.int64(s[i]), crib, table)


@njit(cache=True, nogil=True)
def _census(lo, hi, crib, table, by_starter):
    """Histograms of the show score over all 270,725 hands x 48 starters, added to
    ``by_starter`` int64 (52, 30) (zeros): row ``s`` is starter ``s``'s hands, for the starters
    ``lo`` to ``hi - 1``.

    Run over ranges of starters on threads (:func:`analyzer.core.choices.over_ranges`), every
    starter the same amount of work. The caller makes the array and sums its rows.
    """
    for s in range(lo, hi):
        hist = by_starter[s]
        for a in range(52):
            if a == s:
                continue
            for b in range(a + 1, 52):
                if b == s:
                    continue
                for c in range(b + 1, 52):
                    if c == s:
                        continue
                    for d in range(c + 1, 52):
                        if d != s:
                            hist[_score_one(a, b, c, d, s, crib, table)] += 1


@njit(cache=True, nogil=True)
def _score_batch3(lo, hi, hands, starters, table4, out):
    """Score three-card ``hands[lo:hi]`` (of (n, 3)) with ``starters`` (n,) into ``out`` (n,);
    card ids uint8 (as :func:`score_hands` passes them). Run as :func:`_score_batch`."""
    h, s, o = hands[lo:hi], starters[lo:hi], out[lo:hi]
    for i in range(h.shape[0]):
        o[i] = _score_three(np.int64(h[i, 0]), np.int64(h[i, 1]), np.int64(h[i, 2]),
                            np.int64(s[i]), table4)


@njit(cache=True, nogil=True)
def _census3(lo, hi, table4, by_starter):
    """Histograms of the show score of every three-card hand (22,100 less those holding the
    starter) with each starter, added to ``by_starter`` int64 (52, 30) (zeros): row ``s`` is
    starter ``s``'s 20,825 hands, for the starters ``lo`` to ``hi - 1``.

    Run as :func:`_census`; sum the rows for the whole census of 1,082,900 cases.
    """
    for s in range(lo, hi):
        hist = by_starter[s]
        for a in range(52):
            if a == s:
                continue
            for b in range(a + 1, 52):
                if b == s:
                    continue
                for c in range(b + 1, 52):
                    if c != s:
                        hist[_score_three(a, b, c, s, table4)] += 1


# --------------------------------------------------------------------------- pegging kernel


@njit(cache=True, inline="always")
def _peg_points_packed(packed, n, r, after):
    """Points for rank ``r`` laid on a count of ``n`` ranks packed four bits each in ``packed``
    (the last laid in bits 0..3; a count holds 13 cards at most), ``after`` the count with it:
    15, 31, pairs and runs (no go, no last card). Scalars only: inlined into the searches'
    greedy rollouts, at every card they weigh, it gives numba no array to count references to.
    :func:`_peg_points` counts by it too."""
    pts = 0
    if after == rules.FIFTEEN:
        pts += rules.FIFTEEN_POINTS
    if after == rules.MAX_COUNT:
        pts += rules.THIRTY_ONE_POINTS
    same = 1
    while same <= n and same < 4 and (packed >> (4 * (same - 1))) & 15 == r:
        same += 1
    if same > 1:  # a pair at the tail rules out a run through it
        return pts + rules.PEG_SAME_RANK_POINTS[same]
    seen = np.int64(1) << r
    lo = r
    hi = r
    best = 0
    for k in range(2, n + 2):
        q = (packed >> (4 * (k - 2))) & 15
        if seen & (np.int64(1) << q):
            break  # a repeated rank: no longer window can be a run
        seen |= np.int64(1) << q
        lo = min(lo, q)
        hi = max(hi, q)
        if k >= 3 and hi - lo == k - 1:
            best = k
    return pts + best


@njit(cache=True)
def _peg_points(ranks, n, count):
    """Points for the last card laid in the play: 15, 31, pairs and runs (no go, no last card).

    ``ranks``: int array holding the ranks (0..12) of the cards in the current count, in the order
    laid; only ``ranks[:n]`` is read (``n >= 1``). ``count``: the running count after the last card.
    The ranks before the last are packed for :func:`_peg_points_packed`, which counts them.
    """
    packed = np.int64(0)
    for k in range(n - 1):
        packed = (packed << 4) | ranks[k]
    return _peg_points_packed(packed, n - 1, np.int64(ranks[n - 1]), count)


# --------------------------------------------------------------------------- public wrappers


def score_hand(hand, starter, crib: bool = False, variant: str = DEFAULT_VARIANT) -> int:
    """Show score of a hand (or crib) with its starter.

    Parameters
    ----------
    hand
        The hand's cards, as text (``"5H 5C 5S JD"``) or ids: four, or three in five-card
        cribbage; a crib is four cards in every form.
    starter
        The starter, as text (``"5D"``) or an id.
    crib
        Count as a crib: a flush needs all five cards.
    variant
        The form of the game, a name of :data:`analyzer.core.game.VARIANTS`. Only ``"five-card"``
        scores differently: its hands are three cards, a flush of three is 3 (4 with the starter).

    Raises
    ------
    CardError
        For unreadable or repeated cards, or the wrong number for the form.

    Examples
    --------
    >>> score_hand("5H 5C 5S JD", "5D")
    29
    >>> score_hand("4H 5H 6H", "5S", variant="five-card")  # 15s 4, double run 8, flush 3
    15
    """
    h, s = _hand_and_starter(hand, starter, crib, variant)
    if len(h) == 3:
        return int(_score_three(int(h[0]), int(h[1]), int(h[2]), s, rank_table4()))
    return int(_score_one(int(h[0]), int(h[1]), int(h[2]), int(h[3]), s, bool(crib), rank_table()))


def score_hands(hands, starters, crib: bool = False, variant: str = DEFAULT_VARIANT) -> np.ndarray:
    """Show scores of many hands at once: the vectorized :func:`score_hand`.

    Parameters
    ----------
    hands
        Integer array of card ids, shape (n, 4), or (n, 3) for five-card cribbage hands.
    starters
        Integer array of card ids, shape (n,).
    crib
        Count as cribs (four cards in every form).
    variant
        The form of the game, as for :func:`score_hand`.

    Returns
    -------
    numpy.ndarray
        ``uint8`` scores, shape (n,). Rows are not checked for duplicated cards (that would cost
        more than the scoring); ids outside 0..51 raise ``ValueError``, hands of the wrong
        number of cards for the form :class:`~analyzer.core.cards.CardError`.

    Examples
    --------
    >>> score_hands(np.array([[16, 18, 19, 41]]), np.array([17])).tolist()  # 5C 5H 5S JD, 5D
    [29]
    """
    from .cards import CardError

    hands = np.asarray(hands)
    starters = np.asarray(starters)
    n, what = cards_shown(crib, variant)
    if hands.ndim != 2 or hands.shape[1] != n:
        raise CardError(f"hands must have shape (n, {n}), got {hands.shape} ({what} holds {n} "
                        "cards)")
    if starters.shape != (hands.shape[0],):
        raise ValueError(f"starters must have shape ({hands.shape[0]},), got {starters.shape}")
    for name, arr in (("hands", hands), ("starters", starters)):
        if not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"{name} must hold integer card ids, got dtype {arr.dtype}")
    # C order before the ids are checked: numpy's min and max of a strided view (the columns of
    # a wider array) took 8 ms each for 2,000,000 hands, 0.3 ms in C order
    hands = np.ascontiguousarray(hands)
    starters = np.ascontiguousarray(starters)
    for name, arr in (("hands", hands), ("starters", starters)):
        if arr.size and (arr.min() < 0 or arr.max() > 51):
            raise ValueError(f"{name} holds card ids outside 0..51")
    # card ids as uint8, whatever the caller's integers: one compiled version
    hands = hands.astype(np.uint8, copy=False)
    starters = starters.astype(np.uint8, copy=False)
    out = np.empty(hands.shape[0], np.uint8)
    if n == 3:
        over_ranges(_score_batch3, hands.shape[0], hands, starters, rank_table4(), out,
                    least=_HANDS_A_RANGE)
    else:
        over_ranges(_score_batch, hands.shape[0], hands, starters, bool(crib), rank_table(),
                    out, least=_HANDS_A_RANGE)
    return out


def show_census(crib: bool = False, variant: str = DEFAULT_VARIANT) -> np.ndarray:
    """Exact distribution of show scores over every (hand, starter) case of a form.

    Four-card hands (and every form's crib): all 270,725 hands x 48 starters, 12,994,800
    cases. Five-card cribbage hands (``variant="five-card"``, ``crib=False``): all 22,100
    three-card hands x 49 starters, 1,082,900 cases (at most 20 points; mean 2.5924).

    Returns ``int64[30]``: ``census[k]`` is how many cases score ``k``.

    Examples
    --------
    >>> int(show_census().sum()), int(show_census()[29])
    (12994800, 4)
    >>> int(show_census(variant="five-card").sum())
    1082900
    """
    n, _ = cards_shown(crib, variant)
    by_starter = np.zeros((52, rules.MAX_SHOW_SCORE + 1), np.int64)
    if n == 3:
        over_ranges(_census3, 52, rank_table4(), by_starter)
    else:
        over_ranges(_census, 52, bool(crib), rank_table(), by_starter)
    return by_starter.sum(axis=0)


def peg_points(cards_in_count) -> int:
    """Points for the last card laid in the play, from 15, 31, pairs and runs.

    Go and last card are not included (they depend on what the players hold: the engine's business).

    Parameters
    ----------
    cards_in_count
        The cards laid in the current count (since the last reset to 0), oldest first, as text
        or ids.

    Raises
    ------
    analyzer.core.cards.CardError
        No cards, a card that cannot be read or is given twice, or a count past 31.

    Examples
    --------
    >>> peg_points("7S 8D 8C 8H")  # 31 for 2 and a pair royal for 6
    8
    """
    from .cards import CardError

    ids = as_cards(cards_in_count)
    if ids.size == 0:
        raise CardError("no cards in the count")
    count = sum(cards.card_value(c) for c in ids.tolist())
    if count > rules.MAX_COUNT:
        raise CardError(f"the count {format_cards(ids)} reaches {count}, past 31")
    ranks = np.array([cards.card_rank(c) for c in ids.tolist()], np.int64)
    return int(_peg_points(ranks, ranks.size, count))
