"""Which cards to keep: every discard of a dealt hand, valued exactly, in every form of the game.

For each of the 15 ways to keep four cards of six, the kept hand is scored against each of the 46
starters the player cannot see (mean, min, max, standard deviation: exact), and the two cards thrown
are valued as a crib, added to the hand when the crib is the player's own (dealer) and taken off
when it is the opponent's (pone). Three ways to value the crib (``crib=``):

* ``"table"`` (default): the self-play crib-value table shipped in ``data/crib_values.csv``
  (:mod:`analyzer.keeping.crib`), looked up by the kind of throw and the role;
* ``"uniform"``: the exact expectation when the opponent's two crib cards are any two of the 46
  unseen cards and the starter any of the 44 left (45,540 equally likely cribs per discard);
* ``"weighted"``: the same exact expectation, each possible opponent throw weighted by how
  often self-play throws that kind of pair in the opponent's role (the method of the best web
  calculators).

**How the exact crib is computed.** The 45,540 cribs of a discard are not scored one by one;
they are counted by rank class (:mod:`analyzer.keeping.cribcount`). Only ranks matter to 15s, pairs
and runs, so the opponent's two cards and the starter are grouped by their ranks, each group
weighted by how many unseen card combinations give those ranks (and by the opponent pair's
weight: the same for every pair of one kind), and each rank pattern is scored once from
:func:`~analyzer.core.scoring.hand_table`. The suits matter only to a flush (all five of one suit)
and nobs (the jack of the starter's suit in the crib); those cribs are counted by suit and
moved up their 5 or 1 points. Every sum is an integer (the weighted opponent's weights times
12 are integers), so the result is the exact distribution of the crib's score
(:func:`crib_distribution`) and its mean is one division, the same bits whatever the order of
summation: about 0.03 ms for the 15 discards, over 100 times faster than the enumeration, kept
(:func:`_crib_means_enumerated`) as the tests' oracle, equal to the last bit.

The other forms (``variant=``, a name of :data:`analyzer.core.game.VARIANTS`) deal five cards: in
``"three-player"`` and ``"four-player"`` a player keeps four and throws one (5 ways), in
``"five-card"`` keeps three and throws two (10 ways). The kept hand is valued over the 47 unseen
starters, and the crib from the form's self-play table (``crib="table"``, the default: the card
thrown by rank and whose crib, :func:`analyzer.keeping.crib.card_values`, or the five-card pair,
``crib_values("table", "five-card")``) or exactly with ``crib="uniform"`` (``"weighted"`` is
refused): the crib cards nobody has seen (three-player: one from each other player and one from
the pack; four-player: one from each other player; five-card: the opponent's two) are any of the
47 unseen cards, and the starter any of those left. The starters are grouped by rank (a row of
:func:`~analyzer.core.scoring.hand_table`), so each possible crib costs 13 reads, not 44.

**The play** (``pegging=``, the six-card game only): each keep also gets ``peg_mean``, the
expected pegging points for minus against over the whole play of a player who keeps those four
ranks in that role, from the self-play table :func:`analyzer.research.pegging.peg_table` (a lookup
by the kept rank pattern). With ``pegging=True`` (the default) the net includes it and the ranking
follows; with ``pegging=False`` the net is the points of the show alone, as before the table
shipped, and ``peg_mean`` is shown for information. The other forms have no pegging table:
their ``peg_mean`` is 0 and ``pegging`` is ignored (``df.attrs["pegging"]`` says False).

The engine's in-game discard policies are in :mod:`analyzer.play.players`.
"""

from __future__ import annotations

import itertools
import math
from functools import cache, lru_cache

import numpy as np

from ..core import rules
from ..core.cards import CardError, card_rank, card_suit, format_card, format_card_rows
from ..core.choices import (
    CRIB_MODES,
    DEFAULT_VARIANT,
    NET_SCALE,
    check_flag,
    crib_mode_for,
    net_key,
    over_ranges,
    variant_game,
)
from ..core.jit import njit
from ..core.scoring import (
    _rank,
    _score_one,
    _score_three,
    _sort4_index,
    _suit,
    _throw_key,
    hand_table,
    rank_table,
    rank_table4,
)
from .cribcount import (
    SCORES,
    CribDistribution,
    _crib_counts,
    _crib_means_counted,
    _crib_means_counted_many,
    _rank_pair_weights,
)
from .tablekeep import COLUMNS, _dealt

__all__ = ["COLUMNS", "CRIB_MODES", "DISCARDS", "CribDistribution", "crib_distribution",
           "crib_means", "evaluate_discards", "keep", "keep_many"]

#: The 15 discards of a six-card hand as index pairs (i, j), i < j, into the six cards.
DISCARDS = np.array([(i, j) for i in range(6) for j in range(i + 1, 6)], dtype=np.int64)
_KEEPS = np.array([[k for k in range(6) if k not in pair] for pair in DISCARDS], dtype=np.int64)
# Tuples of tuples are compile-time constants in numba (unlike module-level arrays, which the
# cache would freeze as well, but less visibly).
_DISCARD_TABLE = tuple(tuple(int(x) for x in row) for row in DISCARDS)
_KEEP_TABLE = tuple(tuple(int(x) for x in row) for row in _KEEPS)
# Text of each keep and discard as a format of the six card names, e.g. "{0} {1} {2} {4}".
_KEEP_TEXT = [" ".join(f"{{{k}}}" for k in row) for row in _KEEP_TABLE]
_DISCARD_TEXT = [" ".join(f"{{{k}}}" for k in row) for row in _DISCARD_TABLE]

_UNSEEN = 46
#: The fewest hands the batched kernels give a thread (tens of microseconds a hand).
_SIXES_A_RANGE = 16
_CARD_NAMES = [format_card(c) for c in range(52)]


@njit(cache=True, inline="always")
def _summarize(scores, n, total, lo, hi, out):
    """Write mean, min, max and population standard deviation of ``scores[:n]`` (whose sum is
    ``total``) into ``out`` (4,); the deviation in a second pass, for accuracy."""
    mean = total / n
    sq = 0.0
    for j in range(n):
        sq += (scores[j] - mean) ** 2
    out[0] = mean
    out[1] = lo
    out[2] = hi
    out[3] = np.sqrt(sq / n)


@njit(cache=True)
def _hand_stats(six, keeps, table, out):
    """Exact statistics of each kept hand of ``six`` over the 46 unseen starters.

    ``six`` int64 (6,) distinct ids; ``keeps`` int64 (15, 4) indices into ``six``; ``table`` the
    rank table. Writes ``out`` float64 (15, 4): mean, min, max and population standard deviation
    of the show score (the deviation in a second pass, for accuracy).
    """
    scores = np.empty(_UNSEEN, np.int64)
    for d in range(keeps.shape[0]):
        h0, h1 = six[keeps[d, 0]], six[keeps[d, 1]]
        h2, h3 = six[keeps[d, 2]], six[keeps[d, 3]]
        i = 0
        total = 0
        lo = 1000
        hi = -1
        for s in range(52):
            if (s != six[0] and s != six[1] and s != six[2] and s != six[3] and s != six[4]
                    and s != six[5]):
                x = _score_one(h0, h1, h2, h3, s, False, table)
                scores[i] = x
                total += x
                lo = min(lo, x)
                hi = max(hi, x)
                i += 1
        _summarize(scores, _UNSEEN, total, lo, hi, out[d])


@njit(cache=True, nogil=True)
def _hand_stats_many(lo, hi, sixes, keeps, table, out):
    """:func:`_hand_stats` for rows ``lo`` to ``hi - 1`` of ``sixes`` int64 (n, 6) into ``out``
    (n, 15, 4) (run over ranges on threads: :func:`analyzer.core.choices.over_ranges`)."""
    for i in range(lo, hi):
        _hand_stats(sixes[i], keeps, table, out[i])


@njit(cache=True, nogil=True)
def _crib_means_enumerated(lo, hi, six, discards, weights, table, out):
    """Exact mean crib of each discard of ``six``, by enumerating every crib: the oracle.

    ``discards`` int64 (15, 2) indices into ``six``. ``weights`` int64 (52, 52): the relative
    probability that the opponent throws cards c and d, as integers (all ones for a uniform
    opponent; :func:`_pair_weights` for a weighted one). Every pair of the 46 unseen cards is
    weighted so, and every starter of the 44 left counts equally: 45,540 cribs scored one by
    one. The sums are integers, so the mean (one division at the end) is the exact one
    correctly rounded. Writes ``out`` float64 (15,), the discards ``lo`` to ``hi - 1`` (run over
    ranges on threads: :func:`analyzer.core.choices.over_ranges`). Kept to check
    :mod:`analyzer.keeping.cribcount`,
    which counts the same cribs by rank class some 50 times faster (the tests compare them bit
    for bit).
    """
    unseen = np.empty(_UNSEEN, np.int64)
    n = 0
    for card in range(52):
        if (card != six[0] and card != six[1] and card != six[2] and card != six[3]
                and card != six[4] and card != six[5]):
            unseen[n] = card
            n += 1
    for d in range(lo, hi):
        a, b = six[discards[d, 0]], six[discards[d, 1]]
        total = np.int64(0)
        weight = np.int64(0)
        for i in range(_UNSEEN):
            c = unseen[i]
            for j in range(i + 1, _UNSEEN):
                e = unseen[j]
                w = weights[c, e]
                if w == 0:
                    continue
                pair = np.int64(0)
                for m in range(_UNSEEN):
                    if m != i and m != j:
                        pair += _score_one(a, b, c, e, unseen[m], True, table)
                total += w * pair
                weight += w
        out[d] = total / (weight * (_UNSEEN - 2))


# --------------------------------------------------------------------------- the other forms


@cache
def _form_discards(dealt: int, kept: int) -> tuple[np.ndarray, np.ndarray]:
    """Index arrays into a sorted dealt hand: ``keeps`` int64 (n, kept) and ``throws`` int64
    (n, dealt - kept), one row per way to keep ``kept`` cards, in the order of
    :data:`DISCARDS` (the thrown cards in lexicographic order)."""
    throws = [list(t) for t in itertools.combinations(range(dealt), dealt - kept)]
    keeps = [[k for k in range(dealt) if k not in t] for t in throws]
    out = np.array(keeps, np.int64), np.array(throws, np.int64)
    for a in out:
        a.setflags(write=False)
    return out


@njit(cache=True)
def _form_hand_stats(dealt, keeps, table, table4, out):
    """Exact statistics of each kept hand of ``dealt`` over the starters not in ``dealt``.

    ``dealt`` int64 (k,) distinct ids; ``keeps`` int64 (n, 4) or (n, 3) indices into ``dealt``
    (three-card hands are five-card cribbage's); ``table`` :func:`rank_table`, ``table4``
    :func:`rank_table4`. Writes ``out`` float64 (n, 4): mean, min, max and population standard
    deviation of the show score over the ``52 - k`` unseen starters.
    """
    m = 52 - dealt.shape[0]
    scores = np.empty(m, np.int64)
    for d in range(keeps.shape[0]):
        h0, h1, h2 = dealt[keeps[d, 0]], dealt[keeps[d, 1]], dealt[keeps[d, 2]]
        h3 = dealt[keeps[d, 3]] if keeps.shape[1] == 4 else -1
        i = 0
        total = 0
        lo = 1000
        hi = -1
        for s in range(52):
            seen = False
            for j in range(dealt.shape[0]):
                if dealt[j] == s:
                    seen = True
            if seen:
                continue
            if h3 < 0:
                x = _score_three(h0, h1, h2, s, table4)
            else:
                x = _score_one(h0, h1, h2, h3, s, False, table)
            scores[i] = x
            total += x
            lo = min(lo, x)
            hi = max(hi, x)
            i += 1
        _summarize(scores, m, total, lo, hi, out[d])


@njit(cache=True, inline="always")
def _crib_over_starters(c0, c1, c2, c3, hidden, rank_left, suit_left, hands):
    """Total crib score of ``c0..c3`` over every starter still unseen, grouped by rank.

    The last ``hidden`` (2 or 3) of the four are unseen cards, the others the player's throw;
    ``rank_left`` int64 (13,) and ``suit_left`` (4,) count the unseen cards by rank and suit
    (the hidden ones included: they are taken off here). ``hands``: :func:`hand_table`.
    """
    r0, r1, r2, r3 = _rank(c0), _rank(c1), _rank(c2), _rank(c3)
    row = _sort4_index(r0, r1, r2, r3)
    total = np.int64(0)
    for r in range(13):
        total += rank_left[r] * np.int64(hands[row, r])
    total -= np.int64(hands[row, r3]) + np.int64(hands[row, r2])
    if hidden == 3:
        total -= np.int64(hands[row, r1])
    s0, s1, s2, s3 = _suit(c0), _suit(c1), _suit(c2), _suit(c3)
    if s0 == s1 and s1 == s2 and s2 == s3:  # a crib flush needs the starter's suit too
        total += rules.CRIB_FLUSH_POINTS * (suit_left[s0] - hidden)
    for c, u in ((c0, s0), (c1, s1), (c2, s2), (c3, s3)):
        if _rank(c) == rules.JACK:  # nobs with every unseen starter of the Jack's suit
            left = suit_left[u]
            if s3 == u:
                left -= 1
            if s2 == u:
                left -= 1
            if hidden == 3 and s1 == u:
                left -= 1
            total += rules.NOBS_POINTS * left
    return total


@njit(cache=True, nogil=True)
def _form_hand_stats_many(lo, hi, hands, keeps, table, table4, out):
    """:func:`_form_hand_stats` for rows ``lo`` to ``hi - 1`` of ``hands`` int64 (n, k) into
    ``out`` (n, ways, 4) (run as :func:`_hand_stats_many`)."""
    for i in range(lo, hi):
        _form_hand_stats(hands[i], keeps, table, table4, out[i])


@njit(cache=True)
def _form_crib_mean(dealt, throw, hands):
    """Exact mean crib of one throw of ``dealt`` when the crib's other cards are unseen.

    ``dealt`` int64 (k,) distinct ids; ``throw`` int64 (t,) indices into ``dealt``, t = 1 or 2;
    ``hands``: :func:`hand_table`. The crib's ``4 - t`` other cards are any of the ``52 - k``
    unseen cards, every set equally likely, and the starter any unseen card left, equally
    likely. :func:`_form_crib_means_many` runs hands and throws on threads.
    """
    m = 52 - dealt.shape[0]
    unseen = np.empty(m, np.int64)
    rank_left = np.zeros(13, np.int64)
    suit_left = np.zeros(4, np.int64)
    n = 0
    for card in range(52):
        seen = False
        for j in range(dealt.shape[0]):
            if dealt[j] == card:
                seen = True
        if not seen:
            unseen[n] = card
            rank_left[_rank(card)] += 1
            suit_left[_suit(card)] += 1
            n += 1
    total = np.int64(0)
    cribs = np.int64(0)
    if throw.shape[0] == 1:
        a = dealt[throw[0]]
        for i in range(m):
            for j in range(i + 1, m):
                for q in range(j + 1, m):
                    total += _crib_over_starters(a, unseen[i], unseen[j], unseen[q], 3,
                                                 rank_left, suit_left, hands)
                    cribs += m - 3
    else:
        a, b = dealt[throw[0]], dealt[throw[1]]
        for i in range(m):
            for j in range(i + 1, m):
                total += _crib_over_starters(a, b, unseen[i], unseen[j], 2, rank_left,
                                             suit_left, hands)
                cribs += m - 2
    return total / cribs


@njit(cache=True, nogil=True)
def _form_crib_means_many(lo, hi, dealt, throws, hands, out):
    """:func:`_form_crib_mean` of each throw (a row of ``throws`` int64 (ways, t)) of each row
    of ``dealt`` int64 (n, k) into ``out`` float64 (n, ways): the pairs (hand, throw) numbered
    ``lo`` to ``hi - 1``, hand by hand, run over ranges on threads
    (:func:`analyzer.core.choices.over_ranges`; so one hand's throws share the cores too)."""
    ways = throws.shape[0]
    for j in range(lo, hi):
        i, d = j // ways, j % ways
        out[i, d] = _form_crib_mean(dealt[i], throws[d], hands)


def _form_table_crib_means(dealt: np.ndarray, throws: np.ndarray, dealer: bool, game):
    """The crib value of each throw of ``dealt`` (one hand (k,), or hands (n, k)) from the
    form's self-play table, vectorized: the card thrown by rank (three and four players), or the
    pair by ranks and suitedness (five-card); role 0 when the crib is the player's side's."""
    from .crib import card_values, crib_values

    role = 0 if dealer else 1
    cards = dealt[..., throws]  # (..., ways, cards thrown)
    if throws.shape[1] == 1:
        return card_values("table", game.name)[role, card_rank(cards[..., 0])].astype(np.float64)
    values = crib_values("table", game.name)
    r = card_rank(cards)
    suited = (card_suit(cards[..., 0]) == card_suit(cards[..., 1])).astype(np.int64)
    return values[role, r[..., 0], r[..., 1], suited].astype(np.float64)


def _form_crib_values(dealt: np.ndarray, throws: np.ndarray, dealer: bool, game, crib: str):
    """Crib value of each throw of one dealt hand (k,) or of hands (n, k), by the crib mode: a
    table lookup for every hand at once, or the exact enumeration (a millisecond or so a hand,
    the hands in parallel)."""
    if crib == "table":
        return _form_table_crib_means(dealt, throws, dealer, game)
    hands = np.atleast_2d(dealt)
    out = np.empty((len(hands), len(throws)), np.float64)
    over_ranges(_form_crib_means_many, len(hands) * len(throws),
                np.ascontiguousarray(hands, np.int64), throws, hand_table(), out)
    return out.reshape(*dealt.shape[:-1], len(throws))


def _evaluate_form(cards, dealer: bool, game, crib: str):
    """:func:`_evaluate` for a form dealing five: the same five results, ``n`` discards."""
    dealt = np.sort(_dealt(cards, game))
    keeps, throws = _form_discards(game.dealt, game.kept)
    stats = np.empty((len(keeps), 4), np.float64)
    _form_hand_stats(dealt, keeps, rank_table(), rank_table4(), stats)
    crib_means = _form_crib_values(dealt, throws, dealer, game, crib)
    net = stats[:, 0] + crib_means if dealer else stats[:, 0] - crib_means
    # stable: ties stay in discard order
    order = np.lexsort((-stats[:, 0], -net_key(net)))
    floats = np.ascontiguousarray(np.stack([stats[order, 0], stats[order, 3], crib_means[order],
                                            np.zeros(len(order)), net[order]]))
    ints = np.ascontiguousarray(stats[order, 1:3].T.astype(np.int64))
    names = [_CARD_NAMES[c] for c in dealt.tolist()]
    keep_text = [" ".join(names[k] for k in keeps[i]) for i in order]
    throw_text = [" ".join(names[k] for k in throws[i]) for i in order]
    return names, keep_text, throw_text, floats, ints


def _pair_weights(dealer: bool) -> np.ndarray:
    """Weights int64 (52, 52) of the opponent's possible throws, from self-play throw counts.

    The weight of a card pair is the count of its kind (ranks, and suitedness for two ranks)
    over the number of card pairs of that kind in a pack (6 of a rank pair, 4 suited, 12
    unsuited), times 12 so that it is an integer: the enumeration then sums exactly.
    """
    from .crib import throw_counts

    counts = throw_counts()[1 if dealer else 0]  # the opponent's role
    cards = np.arange(52)
    r, s = card_rank(cards), card_suit(cards)
    suited = (s[:, None] == s[None, :]).astype(np.int64)
    same_rank = r[:, None] == r[None, :]
    # card pairs of each kind in a pack: 6 of a rank pair, 4 suited, 12 unsuited
    kinds = np.where(same_rank, 6, np.where(suited == 1, 4, 12))
    low, high = np.minimum(r[:, None], r[None, :]), np.maximum(r[:, None], r[None, :])
    weights = counts[low, high, np.where(same_rank, 0, suited)] * (12 // kinds)
    np.fill_diagonal(weights, 0)
    return weights.astype(np.int64)


@njit(cache=True)
def _table_crib_means(sixes, discards, values, role, out):
    """Crib value of each discard of each hand, looked up in a crib-value table.

    ``sixes`` int64 (n, 6); ``discards`` int64 (15, 2) indices into a hand; ``values`` float64
    (2, 13, 13, 2) ``[role, r1, r2, suited]`` (:func:`analyzer.keeping.crib.crib_values`); ``role``
    0 for the dealer, 1 for the pone. Writes ``out`` float64 (n, 15).
    """
    for h in range(sixes.shape[0]):
        for d in range(discards.shape[0]):
            r1, r2, suited = _throw_key(sixes[h, discards[d, 0]], sixes[h, discards[d, 1]])
            out[h, d] = values[role, r1, r2, suited]


def _discard_crib_means(sixes: np.ndarray, dealer: bool, crib: str, table) -> np.ndarray:
    """Crib value (n, 15) of each discard of each six-card hand (int64 (n, 6), sorted rows).

    ``"table"`` looks each throw up; ``"uniform"`` and ``"weighted"`` count each hand's cribs
    exactly by rank class (:mod:`analyzer.keeping.cribcount`), parallel over the hands when there
    are several.
    """
    sixes = np.ascontiguousarray(sixes, dtype=np.int64)  # one compiled version for any caller
    out = np.empty((len(sixes), 15), np.float64)
    if crib == "table":
        from .crib import crib_values

        _table_crib_means(sixes, DISCARDS, crib_values("table"), 0 if dealer else 1, out)
        return out
    weights = _rank_pair_weights(crib, bool(dealer))
    if len(sixes) == 1:  # one hand: no threads to start
        _crib_means_counted(sixes[0], DISCARDS, weights, hand_table(), out[0])
    else:
        over_ranges(_crib_means_counted_many, len(sixes), sixes, DISCARDS, weights,
                    hand_table(), out, least=_SIXES_A_RANGE)
    return out


def crib_distribution(cards, dealer: bool, crib: str = "uniform") -> CribDistribution:
    """The exact distribution of the crib's score, 0 to 29, for each discard of a six-card hand.

    The cribs are those of :func:`keep` with the same ``crib``: the opponent's two cards any two
    of the 46 unseen and the starter any of the 44 left (45,540 per discard), each opponent pair
    equally likely (``"uniform"``) or weighted by how often self-play throws that kind of pair in
    the opponent's role (``"weighted"``). Counted by rank class
    (:mod:`analyzer.keeping.cribcount`), in
    a few hundredths of a millisecond.

    Parameters
    ----------
    cards
        Six distinct cards, as text or ids.
    dealer
        True when the crib is the player's own; decides the opponent's role for ``"weighted"``.
    crib
        ``"uniform"`` (the default) or ``"weighted"``. The self-play table (``"table"``) holds
        means only, so it is refused with a ``ValueError``.

    Returns
    -------
    CribDistribution
        ``weights`` int64 (15, 30), exact, one row per discard in :data:`DISCARDS` order (the
        hand in id order), ``discard`` their text, ``probability`` (rows summing to 1), ``mean``
        (equal, bit for bit, to :func:`keep`'s ``crib_mean`` of that discard), ``total``.

    Raises
    ------
    CardError
        Unless given six distinct, readable cards.

    Examples
    --------
    >>> dist = crib_distribution("5H 5S 6D JC QS KH", dealer=True)
    >>> dist.discard[0], int(dist.total[0]), int(dist.weights[0, 29])  # 5C JD, starter 5D
    ('5H 5S', 45540, 1)
    >>> row = dist.discard.index("5H 6D")
    >>> round(float(dist.mean[row]), 4), round(float(dist.probability[row, :4].sum()), 4)  # 0-3
    (7.0445, 0.049)
    """
    if crib not in ("uniform", "weighted"):
        raise ValueError(f"crib mode {crib!r} has no distribution: 'uniform' or 'weighted' "
                         "(the table holds means only)")
    dealer = check_flag("dealer", dealer)
    six = np.sort(_dealt(cards, variant_game(DEFAULT_VARIANT)))
    weights = np.empty((len(DISCARDS), SCORES), np.int64)
    _crib_counts(six, DISCARDS, _rank_pair_weights(crib, bool(dealer)), hand_table(), weights)
    names = [_CARD_NAMES[c] for c in six.tolist()]
    return CribDistribution(hand=" ".join(names), role="dealer" if dealer else "pone",
                            crib_mode=crib, discard=[t.format(*names) for t in _DISCARD_TEXT],
                            weights=weights)


def crib_means(cards, dealer: bool, crib: str = "uniform", method: str = "counted") -> np.ndarray:
    """The exact mean crib of each discard of a six-card hand: float64 (15,), in
    :data:`DISCARDS` order of the hand in id order.

    The cribs are :func:`crib_distribution`'s (and :func:`keep`'s ``crib_mean``, bit for bit).
    ``method="counted"`` counts them by rank class (:mod:`analyzer.keeping.cribcount`, what
    :func:`keep` does); ``"enumerated"`` scores each of the 45,540 cribs of a discard one by
    one: the independent oracle the counted means are tested against, some 50 times slower
    (``crib bench`` times the two in turn).

    >>> m = crib_means("5H 5S 6D JC QS KH", dealer=True)
    >>> bool((m == crib_means("5H 5S 6D JC QS KH", True, method="enumerated")).all())
    True
    >>> round(float(m[0]), 4)  # 5H 5S thrown
    8.7117
    """
    dealer = check_flag("dealer", dealer)  # "pone" is true: it would be read as the dealer
    if crib not in ("uniform", "weighted"):
        raise ValueError(f"crib mode {crib!r} has no exact means here: 'uniform' or 'weighted'")
    six = np.sort(_dealt(cards, variant_game(DEFAULT_VARIANT)))
    out = np.empty(len(DISCARDS), np.float64)
    if method == "counted":
        _crib_means_counted(six, DISCARDS, _rank_pair_weights(crib, dealer), hand_table(), out)
    elif method == "enumerated":
        weights = np.ones((52, 52), np.int64) if crib == "uniform" else _pair_weights(dealer)
        over_ranges(_crib_means_enumerated, len(DISCARDS), six, DISCARDS, weights, rank_table(),
                    out)
    else:
        raise ValueError(f"method {method!r}: 'counted' or 'enumerated'")
    return out


# Where the float and the integer columns of COLUMNS sit (the blocks :func:`keep` builds from).
_FLOAT_COLUMNS = np.array([2, 5, 6, 7, 8])
_INT_COLUMNS = np.array([3, 4])


@njit(cache=True)
def _rank_discards(six, keeps, crib_means, peg_means, pegging, dealer, table, floats, ints):
    """Value the 15 discards of one hand and write them best first; return the order.

    ``six`` int64 (6,) sorted ids; ``keeps`` int64 (15, 4) indices into ``six``; ``crib_means``
    float64 (15,) the crib value of each discard, ``peg_means`` (15,) the pegging value of each
    keep, added to the net when ``pegging``. Sorts by net (to 9 places, :func:`net_key`), then
    hand mean, both descending, ties kept in discard order. Writes ``floats`` (5, 15):
    hand_mean, hand_std, crib_mean, peg_mean, net; ``ints`` (2, 15): hand_min, hand_max;
    column j the j-th best discard.
    """
    stats = np.empty((15, 4), np.float64)
    _hand_stats(six, keeps, table, stats)
    net = np.empty(15, np.float64)
    key = np.empty(15, np.float64)
    order = np.arange(15)
    for d in range(15):
        net[d] = stats[d, 0] + crib_means[d] if dealer else stats[d, 0] - crib_means[d]
        if pegging:
            net[d] += peg_means[d]
        key[d] = math.floor(net[d] * NET_SCALE + 0.5)  # choices.net_key
    for i in range(1, 15):  # insertion sort: stable, and 15 items
        d = order[i]
        j = i
        while j > 0:
            e = order[j - 1]
            if key[d] > key[e] or (key[d] == key[e] and stats[d, 0] > stats[e, 0]):
                order[j] = e
                j -= 1
            else:
                break
        order[j] = d
    for i in range(15):
        d = order[i]
        floats[0, i] = stats[d, 0]
        floats[1, i] = stats[d, 3]
        floats[2, i] = crib_means[d]
        floats[3, i] = peg_means[d]
        floats[4, i] = net[d]
        ints[0, i] = stats[d, 1]
        ints[1, i] = stats[d, 2]
    return order


def _peg_means(sixes: np.ndarray, keeps: np.ndarray, dealer: bool) -> np.ndarray:
    """The pegging value (n, ways) of each keep of each six-card hand (int64 (n, 6)), looked
    up in :func:`analyzer.research.pegging.peg_table` by the kept ranks and the role."""
    from .pegtable import pattern_index, peg_table

    return peg_table()[0 if dealer else 1, pattern_index(sixes[:, keeps] // 4)]


def _evaluate(cards, dealer: bool, crib: str | None, variant: str, pegging: bool = True):
    """One hand's discards, best first: card names, keep and discard text, two blocks, the
    crib mode used and whether the net counts the pegging.

    ``floats`` (5, n) holds hand_mean, hand_std, crib_mean, peg_mean and net; ``ints`` (2, n)
    hand_min and hand_max (see :func:`_rank_discards`).
    """
    game = variant_game(variant)
    crib = crib_mode_for(crib, variant)
    dealer = check_flag("dealer", dealer)
    pegging = check_flag("pegging", pegging)
    if game.name != DEFAULT_VARIANT:
        return (*_evaluate_form(cards, dealer, game, crib), crib, False)
    six = _dealt(cards, game)
    six.sort()
    table = rank_table()
    crib_means = _discard_crib_means(six[None, :], dealer, crib, table)[0]
    peg_means = _peg_means(six[None, :], _KEEPS, bool(dealer))[0]
    floats = np.empty((5, 15), np.float64)
    ints = np.empty((2, 15), np.int64)
    order = _rank_discards(six, _KEEPS, crib_means, peg_means, bool(pegging), bool(dealer), table,
                           floats, ints).tolist()
    names = [_CARD_NAMES[c] for c in six.tolist()]
    keeps = [_KEEP_TEXT[i].format(*names) for i in order]
    discards = [_DISCARD_TEXT[i].format(*names) for i in order]
    return names, keeps, discards, floats, ints, crib, bool(pegging)


def evaluate_discards(cards, dealer: bool, crib: str | None = None,
                      variant: str = DEFAULT_VARIANT, pegging: bool = True) -> dict:
    """The numbers behind :func:`keep`, as plain numpy columns (no pandas), best first.

    Returns a dict with the :data:`COLUMNS` (card text as lists of str, the rest as arrays) and
    the metadata ``hand``, ``role``, ``crib_mode``, ``variant`` and ``pegging`` (whether the net
    counts ``peg_mean``). Used where importing pandas would cost more than the answer (the
    ``crib keep`` command).
    """
    names, keeps, discards, floats, ints, crib, pegging = _evaluate(cards, dealer, crib, variant,
                                                                    pegging)
    result = {"keep": keeps, "discard": discards}
    result.update(zip((COLUMNS[j] for j in _FLOAT_COLUMNS), floats, strict=True))
    result.update(zip((COLUMNS[j] for j in _INT_COLUMNS), ints, strict=True))
    result.update(hand=" ".join(names), role="dealer" if dealer else "pone", crib_mode=crib,
                  variant=variant, pegging=pegging)
    return result


def keep_many(hands, dealer: bool, crib: str | None = None, variant: str = DEFAULT_VARIANT,
              pegging: bool = True):
    """:func:`keep` for many hands at once: one compiled call, one DataFrame.

    Parameters
    ----------
    hands
        An integer array of card ids, shape (n, 6) (n, 5 in the other forms), each row distinct
        cards; or a list of hands as text or ids.
    dealer, crib, variant, pegging
        As for :func:`keep`. ``"table"`` is vectorized end to end; ``"uniform"`` and
        ``"weighted"`` count each hand's cribs exactly (a few hundredths of a millisecond a
        hand, the hands in parallel).

    Returns
    -------
    pandas.DataFrame
        ``15 * n`` rows (``5 * n`` or ``10 * n`` in the other forms): ``hand`` (the cards, in id
        order) and ``rank`` (1 = best) before the columns of :func:`keep`, each hand's rows best
        first in the same order :func:`keep` gives.

    Examples
    --------
    >>> df = keep_many(np.array([[18, 19, 21, 40, 47, 50], [0, 4, 8, 12, 16, 20]]), dealer=False)
    >>> df.groupby("hand", sort=False)["keep"].first().tolist()
    ['5H 5S JC QS', '2C 3C 4C 5C']
    >>> points = keep_many(np.array([[0, 4, 8, 12, 16, 20]]), dealer=False, pegging=False)
    >>> points["keep"].iloc[0]  # the show alone prefers the 3-4-5-6, which pegs worse as pone
    '3C 4C 5C 6C'
    """
    import pandas as pd

    game = variant_game(variant)
    crib = crib_mode_for(crib, variant)
    dealer = check_flag("dealer", dealer)  # one role for all the hands
    pegging = check_flag("pegging", pegging)
    k = game.dealt
    if isinstance(hands, np.ndarray) and np.issubdtype(hands.dtype, np.integer):
        if hands.ndim != 2 or hands.shape[1] != k:
            raise CardError(f"expected hands of {k} cards, shape (n, {k}), got {hands.shape} "
                            f"(a {game.name} hand is dealt {k})")
        sixes = np.sort(hands, axis=1).astype(np.int64)
        if sixes.size and (sixes.min() < 0 or sixes.max() > 51):
            raise CardError("card ids must be 0..51")
        if (np.diff(sixes, axis=1) == 0).any():
            raise CardError("a hand holds the same card twice")
    else:
        sixes = np.array([np.sort(_dealt(h, game)) for h in hands], np.int64).reshape(-1, k)
    n = len(sixes)
    if game.name == DEFAULT_VARIANT:
        keeps, throws = _KEEPS, DISCARDS
        table = rank_table()
        stats = np.empty((n, 15, 4), np.float64)
        over_ranges(_hand_stats_many, n, sixes, _KEEPS, table, stats, least=_SIXES_A_RANGE)
        crib_means = _discard_crib_means(sixes, dealer, crib, table)
        peg_means = _peg_means(sixes, _KEEPS, bool(dealer))
    else:
        pegging = False
        keeps, throws = _form_discards(game.dealt, game.kept)
        stats = np.empty((n, len(keeps), 4), np.float64)
        over_ranges(_form_hand_stats_many, n, sixes, keeps, rank_table(), rank_table4(), stats,
                    least=_SIXES_A_RANGE)
        crib_means = _form_crib_values(sixes, throws, dealer, game, crib)
        peg_means = np.zeros_like(crib_means)
    ways = len(keeps)
    hand_mean = stats[:, :, 0]
    net = hand_mean + crib_means if dealer else hand_mean - crib_means
    if pegging:
        net = net + peg_means
    hand_index = np.repeat(np.arange(n), ways)
    order = np.lexsort((-hand_mean.ravel(), -net_key(net).ravel(), hand_index))
    rows, disc = hand_index[order], np.tile(np.arange(ways), n)[order]
    flat = stats.reshape(-1, 4)[order]
    df = pd.DataFrame({
        "hand": format_card_rows(sixes)[rows],
        "rank": np.tile(np.arange(1, ways + 1), n),
        "keep": format_card_rows(sixes[rows[:, None], keeps[disc]]),
        "discard": format_card_rows(sixes[rows[:, None], throws[disc]]),
        "hand_mean": flat[:, 0],
        "hand_min": flat[:, 1].astype(np.int64),
        "hand_max": flat[:, 2].astype(np.int64),
        "hand_std": flat[:, 3],
        "crib_mean": crib_means.ravel()[order],
        "peg_mean": peg_means.ravel()[order],
        "net": net.ravel()[order],
    })
    df.attrs.update(role="dealer" if dealer else "pone", crib_mode=crib, variant=variant,
                    pegging=bool(pegging))
    return df


def keep(cards, dealer: bool, crib: str | None = None, variant: str = DEFAULT_VARIANT,
         pegging: bool = True):
    """Rank the ways to keep cards of a dealt hand, best first: four of six in the six-card game,
    four of five (one thrown) with three or four players, three of five in five-card.

    Parameters
    ----------
    cards
        The dealt cards, as text (``"5H 5S 6D JC QS KH"``) or ids: six, or five in the other
        forms.
    dealer
        True when the crib is the player's own (its value is added; in ``"four-player"``, the
        player's side's: the player or the partner deals), False when it is an opponent's (its
        value is taken off).
    crib
        How the crib is valued: ``"table"`` (the self-play crib-value table; the default in
        the six-card game), ``"uniform"`` (exact, the opponent's two crib cards any two of the
        46 unseen cards and the starter any of the 44 left) or ``"weighted"`` (exact, the
        opponent's throws weighted by how often self-play throws each kind of pair in that
        role). The other forms take ``"table"`` (their own self-play table, the default) and
        ``"uniform"`` (the crib's unseen cards any of the 47 unseen, the starter any of those
        left); ``"weighted"`` is refused with a ``ValueError``.
    variant
        The form of the game, a name of :data:`analyzer.core.game.VARIANTS`: ``"six-card"`` (15
        ways to keep four of six), ``"three-player"`` and ``"four-player"`` (5 ways to keep four
        of five), ``"five-card"`` (10 ways to keep three of five).
    pegging
        Whether the net counts the play (six-card only): ``peg_mean``, the expected pegging
        points for minus against of the keep in that role, from the self-play table
        :func:`analyzer.research.pegging.peg_table`. False ranks by the show alone (hand and crib),
        as before the table shipped. Ignored in the other forms, which have no pegging table.

    Returns
    -------
    pandas.DataFrame
        One row per discard, sorted by ``net`` (to :data:`~analyzer.core.choices.NET_PLACES`
        places; then ``hand_mean``) descending, with columns
        ``keep``, ``discard`` (card text, in id order), ``hand_mean``, ``hand_min``,
        ``hand_max``, ``hand_std`` (population standard deviation; all exact over the 46
        starters, 47 in the forms dealing five), ``crib_mean``, ``peg_mean`` (the keep's
        pegging value; 0 in the forms without a pegging table) and ``net`` (``hand_mean +
        crib_mean`` as dealer, ``hand_mean - crib_mean`` as pone, ``+ peg_mean`` when
        ``pegging`` counts). ``df.attrs`` records ``hand``, ``role``, ``crib_mode``, ``variant``
        and ``pegging`` (whether the net counts the play). About 0.05 ms a hand with the table
        crib, 0.1 ms with the exact ones; for many hands :func:`keep_many` is faster still.
        :func:`crib_distribution` gives the whole distribution of the exact crib.

    Raises
    ------
    CardError
        Unless given the form's number of distinct, readable cards.
    ValueError
        An unknown form or crib mode, a crib mode the form does not have (``weighted`` outside
        six-card), or a ``dealer`` that is not True or False.

    Examples
    --------
    >>> best = keep("5H 5S 6D JC QS KH", dealer=False).iloc[0]
    >>> best["keep"], best["discard"], round(float(best["hand_mean"]), 3)
    ('5H 5S JC QS', '6D KH', 12.543)
    >>> keep("5H 5S 6D JC KH", dealer=False, variant="five-card").iloc[0]["keep"]
    '5H 5S JC'
    """
    names, keeps, discards, floats, ints, crib, pegging = _evaluate(cards, dealer, crib, variant,
                                                                    pegging)
    df = _keep_frame(keeps, discards, floats, ints)
    df.attrs.update(hand=" ".join(names), role="dealer" if dealer else "pone", crib_mode=crib,
                    variant=variant, pegging=pegging)
    return df


@lru_cache(maxsize=1)
def _keep_frame_parts():
    """The columns of every :func:`keep` frame, and the dtype of its text.

    The text dtype is pandas' default ``str``, Arrow-backed (pyarrow is a dependency).
    """
    import pandas as pd

    return pd.Index(COLUMNS), pd.StringDtype("pyarrow", na_value=np.nan)


def _keep_frame(keeps: list[str], discards: list[str], floats: np.ndarray, ints: np.ndarray):
    """The :func:`keep` DataFrame, assembled from its blocks.

    The same frame as ``pd.DataFrame(dict)`` builds (a test checks it; text in pandas' default
    Arrow-backed ``str`` dtype) in about a quarter of the time: for 15 rows the dict
    constructor's type inference costs several times the answer itself.
    """
    import pandas as pd
    import pyarrow as pa
    from pandas.api.internals import create_dataframe_from_blocks

    columns, text_dtype = _keep_frame_parts()
    n = len(keeps)
    text = pa.array(keeps + discards, pa.large_string())

    def column(start):
        return pd.arrays.ArrowStringArray(text.slice(start, n), dtype=text_dtype)

    return create_dataframe_from_blocks(
        [(column(0), np.array([0])), (column(n), np.array([1])),
         (floats, _FLOAT_COLUMNS), (ints, _INT_COLUMNS)],
        index=pd.RangeIndex(n), columns=columns.copy())
