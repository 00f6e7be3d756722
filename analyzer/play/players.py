"""The engine's players: which cards to throw to the crib and which card to lay, compiled.

A player is a discard policy and a pegging policy, ``"DISCARD+PEGGING"``; the names and their codes
are in :mod:`analyzer.core.choices`. Every policy sees only what its player may see.

**Discard policies** (:func:`_choose_discard`), from the six cards dealt:

* ``random``: one of the 15 discards, uniformly;
* ``hand``: the four with the best exact hand mean over the 46 starters the player cannot see;
* ``ev``: that mean plus (as dealer) or minus (as pone) the crib value of the two cards thrown,
  from a crib-value table (:mod:`analyzer.keeping.crib`);
* ``baseline``: the rule of thumb the field measures against. The most points in the cards kept,
  counted alone (fifteens, pairs, runs and a flush of the kept cards; no starter, so no nobs), plus
  (own crib) or minus (the opponent's) the points in the cards thrown (a fifteen 2, a pair 2).
  Ties go at random among the tied discards, drawn from the game's stream
  (:func:`_baseline_discard`).

**Pegging policies** (:func:`_choose_play`), from its own hand, the cards laid so far in the
current count, the running count, and the ``unseen`` cards (not in its own six, not the starter,
not yet laid by anyone), of which the opponent holds ``opp_left``:

* ``random``: a uniformly random legal card.
* ``greedy``: the most points now (15, 31, pairs, runs, and the last card when it knows it is
  last); ties broken by safety: avoid leaving the count at 5 or 21 (a ten-card, the commonest
  value, makes 15 or 31 of it), on a lead lay the lowest card but a 5 (nothing below 5 can be
  answered with a 15), otherwise lay the highest card and keep low ones for later counts.
* ``lookahead``: one-ply expectimax over the opponent's possible unseen cards. For each legal
  card: the points it scores now, plus one point times the chance the opponent then cannot play
  (a go for us), minus the opponent's expected best immediate reply, where the opponent's cards are
  any ``opp_left`` of the unseen cards, each set equally likely (hypergeometric), and the opponent
  answers with the reply scoring most. Ties fall back to greedy's order.
* ``ordered``: the first legal card in hand order. A scripted player for tests and replays.
* ``baseline``: the most points now (15, 31, pairs, runs, and the last card when it knows it is
  last, as ``greedy`` counts them); ties at random among the tied cards, drawn from the game's
  stream. No safety rule, no look ahead.
* ``best``: the engine asks :func:`analyzer.play.search._best_play` (the two-player six-card
  game) or :func:`analyzer.play.searchforms._best_play_forms` (the other forms) instead:
  determinized rollouts. Here, where no search tables are given (``odds`` None), it plays as
  ``lookahead``.
"""

from __future__ import annotations

import numpy as np

from ..core import rules
from ..core.apart import compiled_apart
from ..core.choices import DISCARD_POLICIES, PEGGING_POLICIES
from ..core.jit import njit
from ..core.rng import _randint
from ..core.scoring import (
    _peg_points,
    _peg_points_packed,
    _rank,
    _rank_value,
    _row3,
    _suit,
    _throw_key,
    _value,
)
from ..keeping.discard import _DISCARD_TABLE, _KEEP_TABLE

__all__: list[str] = []  # kernels only; the names and codes are in analyzer.core.choices

# Policy codes as the kernels compare them (compile-time constants).
_DISCARD_RANDOM = DISCARD_POLICIES["random"]
_DISCARD_EV = DISCARD_POLICIES["ev"]
_DISCARD_BASELINE = DISCARD_POLICIES["baseline"]
_PEG_RANDOM = PEGGING_POLICIES["random"]
_PEG_GREEDY = PEGGING_POLICIES["greedy"]
_PEG_LOOKAHEAD = PEGGING_POLICIES["lookahead"]
_PEG_ORDERED = PEGGING_POLICIES["ordered"]
_PEG_BASELINE = PEGGING_POLICIES["baseline"]
_PEG_BEST = PEGGING_POLICIES["best"]


# --------------------------------------------------------------------------- discard policies


# The cards a player has not seen, counted by rank and by suit, packed in one integer (no array to
# allocate or pass): the count of rank r in bits 3r..3r+2, of suit s in bits 40+4s..43+4s.
_ALL_UNSEEN = sum(4 << (3 * r) for r in range(13)) + sum(13 << (40 + 4 * s) for s in range(4))


@njit(cache=True, inline="always")
def _unseen_counts(dealt):
    """The packed counts of the cards not in ``dealt`` (int64 (n,), the cards a player holds)."""
    packed = np.int64(_ALL_UNSEEN)
    for i in range(dealt.shape[0]):
        packed -= ((np.int64(1) << (3 * _rank(dealt[i])))
                   + (np.int64(1) << (40 + 4 * _suit(dealt[i]))))
    return packed


@njit(cache=True, inline="always")
def _rank_count(packed, r):
    return (packed >> (3 * r)) & 7


@njit(cache=True, inline="always")
def _suit_count(packed, s):
    return (packed >> (40 + 4 * s)) & 15


@njit(cache=True, inline="always")
def _hand_total(k0, k1, k2, k3, unseen, n_unseen, hand_table):
    """Sum of the show scores of the kept hand ``k0..k3`` over every unseen starter.

    One row of :func:`analyzer.core.scoring.hand_table` (the hand's points with each starter rank,
    weighted by how many of that rank are unseen) instead of 46 scores. ``unseen`` holds the
    unseen cards' counts by rank and suit, packed as :func:`_unseen_counts` makes them;
    ``n_unseen`` is their total.
    """
    a, b, c, d = _rank(k0), _rank(k1), _rank(k2), _rank(k3)
    if a > b:  # the four ranks sorted by a 5-comparator network
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    row = ((a * 13 + b) * 13 + c) * 13 + d
    total = 0
    for r in range(13):
        total += _rank_count(unseen, r) * np.int64(hand_table[row, r])
    suit = _suit(k0)
    if _suit(k1) == suit and _suit(k2) == suit and _suit(k3) == suit:
        total += 4 * n_unseen + _suit_count(unseen, suit)  # 4 with any starter, 5 with the suit
    for k in (k0, k1, k2, k3):
        if _rank(k) == rules.JACK:
            total += _suit_count(unseen, _suit(k))  # nobs: a starter of the Jack's suit
    return total


#: Five-card cribbage: the ten ways to keep three of five, and the two cards thrown each time.
_THROW_TWO_OF_FIVE = tuple((i, j) for i in range(5) for j in range(i + 1, 5))
_KEEP_THREE_OF_FIVE = tuple(tuple(k for k in range(5) if k not in pair)
                            for pair in _THROW_TWO_OF_FIVE)


#: The four cards kept when card d of five is thrown (three and four players).
_KEEP_FOUR_OF_FIVE = tuple(tuple(i for i in range(5) if i != d) for d in range(5))


@njit(cache=True, inline="always")
def _fifteens_pairs(values, ranks, n):
    """Points for the fifteens and pairs among the first ``n`` cards (2..4) of ``values`` and
    ``ranks`` (tuples): every subset of two or more summing to 15 is 2, every pair of ranks 2."""
    pts = 0
    for mask in range(3, 1 << n):
        if mask & (mask - 1) == 0:  # a single card is never fifteen
            continue
        total = 0
        for i in range(n):
            if mask & (1 << i):
                total += values[i]
        if total == rules.FIFTEEN:
            pts += rules.FIFTEEN_POINTS
    for i in range(n):
        for j in range(i + 1, n):
            if ranks[i] == ranks[j]:
                pts += rules.PAIR_POINTS
    return pts


@njit(cache=True, inline="always")
def _alone_points4(c0, c1, c2, c3):
    """Show points of four cards counted alone, without a starter: fifteens, pairs, runs, and 4
    for four of one suit (nobs needs a starter)."""
    r = (_rank(c0), _rank(c1), _rank(c2), _rank(c3))
    pts = _fifteens_pairs((_value(c0), _value(c1), _value(c2), _value(c3)), r, 4)
    a, b, c, d = r
    if a > b:  # sorted by a 5-comparator network
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    if a + 1 == b and b + 1 == c and c + 1 == d:
        pts += 4
    else:  # runs of three: each three-card subset of consecutive distinct ranks
        for s in ((a, b, c), (a, b, d), (a, c, d), (b, c, d)):
            if s[0] + 1 == s[1] and s[1] + 1 == s[2]:
                pts += 3
    s0 = _suit(c0)
    if _suit(c1) == s0 and _suit(c2) == s0 and _suit(c3) == s0:
        pts += rules.HAND_FLUSH_POINTS
    return pts


@njit(cache=True, inline="always")
def _alone_points3(c0, c1, c2):
    """Show points of three cards counted alone (five-card cribbage): fifteens, pairs, a run of
    three, and 3 for three of one suit."""
    r = (_rank(c0), _rank(c1), _rank(c2), 0)
    pts = _fifteens_pairs((_value(c0), _value(c1), _value(c2), 0), r, 3)
    lo = min(r[0], min(r[1], r[2]))
    hi = max(r[0], max(r[1], r[2]))
    if hi - lo == 2 and r[0] != r[1] and r[1] != r[2] and r[0] != r[2]:
        pts += 3
    if _suit(c1) == _suit(c0) and _suit(c2) == _suit(c0):
        pts += rules.THREE_CARD_FLUSH_POINTS
    return pts


@njit(cache=True, inline="always")
def _thrown_points(a, b):
    """Points in two cards thrown: 2 for a fifteen, 2 for a pair."""
    pts = rules.FIFTEEN_POINTS if _value(a) + _value(b) == rules.FIFTEEN else 0
    if _rank(a) == _rank(b):
        pts += rules.PAIR_POINTS
    return pts


@compiled_apart
@njit(cache=True)
def _baseline_discard(dealt, n_ways, own_crib, st):
    """The ``baseline`` discard: index ``0..n_ways-1`` of the way to keep and throw that has the
    most points in the cards kept, counted alone, plus (``own_crib``) or minus the points in the
    cards thrown; ties at random, uniformly among the tied ways (reservoir sampling, one draw
    from ``st`` for each tie met after the first best, none when there is no tie).

    ``n_ways`` says the form: 15 (six dealt, two thrown, ``DISCARDS`` order), 10 (five dealt,
    three kept) or 5 (five dealt, one thrown: nothing in one card thrown).
    """
    best = 0
    best_value = -1000
    ties = 0
    for d in range(n_ways):
        if n_ways == 10:
            keep3, throw = _KEEP_THREE_OF_FIVE[d], _THROW_TWO_OF_FIVE[d]
            value = _alone_points3(dealt[keep3[0]], dealt[keep3[1]], dealt[keep3[2]])
            thrown = _thrown_points(dealt[throw[0]], dealt[throw[1]])
        else:  # four kept: one place for the inlined count (it is most of the compile)
            if n_ways == 15:
                keep, throw = _KEEP_TABLE[d], _DISCARD_TABLE[d]
                thrown = _thrown_points(dealt[throw[0]], dealt[throw[1]])
            else:
                keep = _KEEP_FOUR_OF_FIVE[d]
                thrown = 0
            value = _alone_points4(dealt[keep[0]], dealt[keep[1]], dealt[keep[2]],
                                   dealt[keep[3]])
        value = value + thrown if own_crib else value - thrown
        if value > best_value:
            best_value = value
            best = d
            ties = 1
        elif value == best_value:
            ties += 1
            if _randint(st, ties) == 0:
                best = d
    return best


@compiled_apart
@njit(cache=True)
def _choose_discard(policy, six, dealer, crib_values, hand_table, st):
    """Index 0..14 into ``DISCARDS`` of the discard ``policy`` chooses for ``six`` (int64 (6,)).

    Policies: ``random`` (uniform over the 15); ``hand`` (maximize the exact hand mean over the 46
    unseen starters, from ``hand_table``, :func:`analyzer.core.scoring.hand_table`); ``ev``
    (maximize that mean plus, as dealer, or minus, as pone, the crib value of the thrown pair from
    ``crib_values`` float64 (2, 13, 13, 2)); ties go to the first discard in ``DISCARDS``
    order. ``baseline``: :func:`_baseline_discard` (ties at random). ``st`` is the xoshiro256**
    state.
    """
    if policy == _DISCARD_RANDOM:
        return _randint(st, np.int64(15))
    if policy == _DISCARD_BASELINE:
        return _baseline_discard(six, np.int64(15), dealer, st)
    return _best_keep(six, dealer, crib_values, hand_table, policy == _DISCARD_EV)


@njit(cache=True, inline="always")
def _keep_value(k0, k1, k2, k3, t0, t1, unseen, dealer, crib_values, hand_table, with_crib):
    """The value of keeping ``k0..k3`` and throwing ``t0, t1``: the exact hand mean over the 46
    unseen starters (``unseen`` packed by :func:`_unseen_counts`), with ``with_crib`` (the ``ev``
    policy) plus (``dealer``) or minus the crib value of the thrown pair (``hand``: without)."""
    value = _hand_total(k0, k1, k2, k3, unseen, 46, hand_table) / 46.0
    if with_crib:
        r1, r2, suited = _throw_key(t0, t1)
        v = crib_values[0 if dealer else 1, r1, r2, suited]
        value = value + v if dealer else value - v
    return value


@njit(cache=True, inline="always")
def _keep_values(six, dealer, crib_values, hand_table, with_crib, values):
    """The value of each of the 15 keeps of ``six`` into ``values`` (15,) (:func:`_keep_value`).
    Returns the index of the best (the first of equals), the keep the policy makes."""
    unseen = _unseen_counts(six)
    best = 0
    for d in range(15):
        keep, throw = _KEEP_TABLE[d], _DISCARD_TABLE[d]
        values[d] = _keep_value(six[keep[0]], six[keep[1]], six[keep[2]], six[keep[3]],
                                six[throw[0]], six[throw[1]], unseen, dealer, crib_values,
                                hand_table, with_crib)
        if values[d] > values[best]:
            best = d
    return best


@njit(cache=True, inline="always")
def _best_keep(six, dealer, crib_values, hand_table, with_crib):
    """:func:`_keep_values`'s choice without the values (no array to allocate in the game)."""
    unseen = _unseen_counts(six)
    best = 0
    best_value = -np.inf
    for d in range(15):
        keep, throw = _KEEP_TABLE[d], _DISCARD_TABLE[d]
        value = _keep_value(six[keep[0]], six[keep[1]], six[keep[2]], six[keep[3]],
                            six[throw[0]], six[throw[1]], unseen, dealer, crib_values,
                            hand_table, with_crib)
        if value > best_value:
            best_value = value
            best = d
    return best


@njit(cache=True, inline="always")
def _hand3_total(k0, k1, k2, unseen, n_unseen, hand3_table):
    """Sum of the show scores of the three-card hand ``k0..k2`` (five-card cribbage) over every
    unseen starter: one row of :func:`analyzer.core.scoring.hand3_table`, a flush of three (3, or 4
    with a starter of the suit) and nobs counted from the unseen suits (the totals of
    :func:`analyzer.core.scoring._three_suit_points` over the starters)."""
    row = _row3(k0, k1, k2)
    total = 0
    for r in range(13):
        total += _rank_count(unseen, r) * np.int64(hand3_table[row, r])
    suit = _suit(k0)
    if _suit(k1) == suit and _suit(k2) == suit:
        total += (rules.THREE_CARD_FLUSH_POINTS * n_unseen + (rules.THREE_CARD_STARTER_FLUSH_POINTS
                  - rules.THREE_CARD_FLUSH_POINTS) * _suit_count(unseen, suit))
    for k in (k0, k1, k2):
        if _rank(k) == rules.JACK:
            total += _suit_count(unseen, _suit(k))  # nobs: a starter of the Jack's suit
    return total


@compiled_apart
@njit(cache=True)
def _choose_keep3(policy, five, own_crib, crib_values, hand3_table, st):
    """Index 0..9 into the ways to throw two of ``five`` (int64 (5,)) and keep three, as
    ``policy`` chooses (five-card cribbage).

    ``random``: any of the ten; ``hand``: the best exact hand mean over the 47 unseen starters;
    ``ev``: that mean plus (``own_crib``) or minus the value of the pair thrown in
    ``crib_values`` float64 (2, 13, 13, 2) (the crib is the two thrown, the opponent's two and
    the starter, as in the six-card game). Ties go to the first way. ``baseline``:
    :func:`_baseline_discard` (ties at random).
    """
    if policy == _DISCARD_RANDOM:
        return _randint(st, np.int64(10))
    if policy == _DISCARD_BASELINE:
        return _baseline_discard(five, np.int64(10), own_crib, st)
    unseen = _unseen_counts(five)
    role = 0 if own_crib else 1
    best = 0
    best_value = -1e300
    for d in range(10):
        keep = _KEEP_THREE_OF_FIVE[d]
        value = _hand3_total(five[keep[0]], five[keep[1]], five[keep[2]], unseen, 47,
                             hand3_table) / 47.0
        if policy == _DISCARD_EV:
            throw = _THROW_TWO_OF_FIVE[d]
            r1, r2, suited = _throw_key(five[throw[0]], five[throw[1]])
            v = crib_values[role, r1, r2, suited]
            value = value + v if own_crib else value - v
        if value > best_value:
            best_value = value
            best = d
    return best


@compiled_apart
@njit(cache=True)
def _choose_throw(policy, five, own_crib, card_values, hand_table, st):
    """Index 0..4 of the card ``policy`` throws from ``five`` (int64 (5,)), keeping the other four
    (three and four players).

    ``random``: any of the five; ``hand``: the best exact hand mean over the 47 unseen starters;
    ``ev``: that mean plus (``own_crib``: the crib is the player's side's) or minus the crib
    value of the card thrown, ``card_values`` float64 (2, 13) ``[role, rank]``, role 0 the
    player's side's crib, 1 another's (:func:`analyzer.keeping.crib.card_values`). Ties go to the
    first card. ``baseline``: :func:`_baseline_discard` (ties at random).
    """
    if policy == _DISCARD_RANDOM:
        return _randint(st, np.int64(5))
    if policy == _DISCARD_BASELINE:
        return _baseline_discard(five, np.int64(5), own_crib, st)
    unseen = _unseen_counts(five)
    best = 0
    best_value = -1e300
    for d in range(5):
        keep = _KEEP_FOUR_OF_FIVE[d]
        value = _hand_total(five[keep[0]], five[keep[1]], five[keep[2]], five[keep[3]], unseen, 47,
                            hand_table) / 47.0
        if policy == _DISCARD_EV:
            v = card_values[0 if own_crib else 1, _rank(five[d])]
            value = value + v if own_crib else value - v
        if value > best_value:
            best_value = value
            best = d
    return best


# --------------------------------------------------------------------------- pegging policies


@njit(cache=True)
def _tiebreak(card, leading):
    """Small preference among equally scored cards: low leads (never a 5), else the highest."""
    v = _value(card)
    if leading:
        key = (20 - v) if v != 5 else 0
    else:
        key = v
    return key + _rank(card) * 0.01  # among equal values, the higher rank: deterministic


@njit(cache=True)
def _greedy_key(points, card, count_after, leading):
    """Greedy's ordering key for laying ``card``: points first, then safety, then the tiebreak."""
    key = points * 1000.0 + _tiebreak(card, leading)
    if count_after == 5 or count_after == 21:
        key -= 100.0
    return key


@njit(cache=True)
def _none_prob(n_unseen, m, k):
    """P(a random k-subset of n_unseen cards misses m given cards) = C(n-m, k) / C(n, k)."""
    if m <= 0:
        return 1.0
    p = 1.0
    for i in range(k):
        if n_unseen - m - i <= 0:
            return 0.0
        p *= (n_unseen - m - i) / (n_unseen - i)
    return p


@njit(cache=True)
def _choose_play(policy, hand, n_hand, laid, seq, nseq, count, unseen_rank, opp_left,
                 last_card_possible, st):
    """Index into ``hand`` of the card to lay, or -1 when no card can be laid (a go).

    ``hand`` int64 (n_hand,) card ids; ``laid`` bool (n_hand,) marks cards already laid. ``seq``
    int64 holds the ranks of the cards in the current count (``seq[:nseq]``), with room for one
    more. ``count`` the running count; ``unseen_rank`` int64 (13,) the unseen cards by rank;
    ``opp_left`` how many cards the opponent still holds; ``last_card_possible`` is true when the
    opponent holds none and this player holds exactly one card (laying it is the last card).
    """
    if policy == _PEG_GREEDY:
        return _greedy_choice(hand, n_hand, laid, seq, nseq, count, last_card_possible)
    if policy == _PEG_LOOKAHEAD or policy == _PEG_BEST:
        return _lookahead_choice(hand, n_hand, laid, seq, nseq, count, unseen_rank, opp_left,
                                 last_card_possible)
    n_legal = 0
    for i in range(n_hand):
        if not laid[i] and count + _value(hand[i]) <= rules.MAX_COUNT:
            n_legal += 1
    if n_legal == 0:
        return -1
    if policy == _PEG_RANDOM:
        pick = _randint(st, n_legal)
        for i in range(n_hand):
            if not laid[i] and count + _value(hand[i]) <= rules.MAX_COUNT:
                if pick == 0:
                    return i
                pick -= 1
    if policy == _PEG_ORDERED:
        for i in range(n_hand):
            if not laid[i] and count + _value(hand[i]) <= rules.MAX_COUNT:
                return i
    return _baseline_play(hand, n_hand, laid, seq, nseq, count, last_card_possible, st)


@njit(cache=True, inline="always")
def _pack_count(seq, nseq):
    """The count's ranks ``seq[:nseq]`` packed four bits each, the last laid in bits 0..3 (as
    :func:`analyzer.core.scoring._peg_points_packed` reads them): packed once a decision, for
    every card weighed."""
    packed = np.int64(0)
    for j in range(nseq):
        packed = (packed << 4) | seq[j]
    return packed


@njit(cache=True, inline="always")
def _points_now(packed, nseq, r, after, last_card_possible):
    """The points a card of rank ``r`` pegs laid on the count (its ``nseq`` ranks packed in
    ``packed`` by :func:`_pack_count`, ``after`` the count with it), the last card included when
    it is possible."""
    points = _peg_points_packed(packed, nseq, r, after)
    if last_card_possible and after != rules.MAX_COUNT:
        points += rules.LAST_CARD_POINTS
    return points


@njit(cache=True, inline="always")
def _greedy_choice(hand, n_hand, laid, seq, nseq, count, last_card_possible):
    """The ``greedy`` card (:func:`_greedy_key`), or -1 when none can be laid."""
    packed = _pack_count(seq, nseq)
    best = -1
    best_key = -1e300
    leading = nseq == 0
    for i in range(n_hand):
        if laid[i] or count + _value(hand[i]) > rules.MAX_COUNT:
            continue
        after = count + _value(hand[i])
        points = _points_now(packed, nseq, np.int64(_rank(hand[i])), after, last_card_possible)
        key = _greedy_key(points, hand[i], after, leading)
        if key > best_key:
            best_key = key
            best = i
    return best


@njit(cache=True, inline="always")
def _lookahead_choice(hand, n_hand, laid, seq, nseq, count, unseen_rank, opp_left,
                      last_card_possible):
    """The ``lookahead`` card: points now plus :func:`_reply_packed`, then the tiebreak; or -1
    when none can be laid."""
    n_unseen = np.int64(0)  # not a literal 0: one version of _reply_packed
    for r in range(13):
        n_unseen += unseen_rank[r]
    packed = _pack_count(seq, nseq)
    best = -1
    best_key = -1e300
    leading = nseq == 0
    for i in range(n_hand):
        if laid[i] or count + _value(hand[i]) > rules.MAX_COUNT:
            continue
        after = count + _value(hand[i])
        r = np.int64(_rank(hand[i]))
        points = _points_now(packed, nseq, r, after, last_card_possible)
        reply = _reply_packed((packed << 4) | r, nseq + 1, after, unseen_rank, n_unseen,
                              opp_left)
        key = 1000.0 * (points + reply) + _tiebreak(hand[i], leading)
        if key > best_key:
            best_key = key
            best = i
    return best


#: :func:`_choose_play` compiled again from the same source to be inlined where a play is
#: played out card after card (the engine's play, the search's rollouts): a call through the
#: function boundary cost about a quarter of a play (argument views and their reference counts).
_choose_play_inline = njit(cache=True, inline="always")(_choose_play.py_func)


@njit(cache=True)
def _baseline_play(hand, n_hand, laid, seq, nseq, count, last_card_possible, st):
    """The ``baseline`` card: the legal card that pegs most now (the last-card point included
    when it knows it is last), ties at random among the tied cards (reservoir sampling: one draw
    from ``st`` for each tie met after the first best). Arguments as :func:`_choose_play`; at
    least one card is legal."""
    best = -1
    best_points = -1
    ties = 0
    for i in range(n_hand):
        if laid[i] or count + _value(hand[i]) > rules.MAX_COUNT:
            continue
        after = count + _value(hand[i])
        seq[nseq] = _rank(hand[i])
        points = _peg_points(seq, nseq + 1, after)
        if last_card_possible and after != rules.MAX_COUNT:
            points += rules.LAST_CARD_POINTS
        if points > best_points:
            best_points = points
            best = i
            ties = 1
        elif points == best_points:
            ties += 1
            if _randint(st, ties) == 0:
                best = i
    return best


@njit(cache=True)
def _reply_packed(packed, n, count, unseen_rank, n_unseen, opp_left):
    """Expected go point for us minus the opponent's expected best immediate reply.

    The count's ``n`` ranks after our card are packed four bits each in ``packed``, our card in
    bits 0..3 (:func:`analyzer.core.scoring._peg_points_packed`); ``count`` the count,
    ``unseen_rank`` int64 (13,) what we have not seen by rank (``n_unseen`` in all),
    ``opp_left`` how many cards the opponent holds. Scalars only (the replies' points four bits
    a rank): no array is made, and the count is packed once for all 13 replies.
    """
    if count == rules.MAX_COUNT or opp_left == 0 or n_unseen == 0:
        return 0.0
    k = min(opp_left, n_unseen)
    # Points of the best reply of each rank (at most 14: four of a kind and 15 or 31), four bits
    # a rank, 0 for none; ``present`` bit v: some rank's reply scores v. How many unseen cards
    # can answer at all.
    pts = np.int64(0)
    present = np.int64(0)
    playable = np.int64(0)  # not literal 0s: one version of _none_prob
    for r in range(13):
        if unseen_rank[r] and count + _rank_value(r) <= rules.MAX_COUNT:
            v = _peg_points_packed(packed, n, np.int64(r), count + _rank_value(r))
            if v > 0:
                pts |= np.int64(v) << (4 * r)
                present |= np.int64(1) << v
            playable += unseen_rank[r]
    go = _none_prob(n_unseen, playable, k)  # the opponent cannot play: we get at least a go
    # E[best reply] = sum over reply points, from the most down (ranks of equal points as one
    # group), of points * P(holds one of this group but none of the better ones).
    expected = 0.0
    covered = np.int64(0)
    p_none_before = 1.0
    for value in range(15, 0, -1):
        if not (present >> value) & 1:
            continue
        group = 0
        for r in range(13):
            if (pts >> (4 * r)) & 15 == value:
                group += unseen_rank[r]
        covered += group
        p_none_after = _none_prob(n_unseen, covered, k)
        expected += value * (p_none_before - p_none_after)
        p_none_before = p_none_after
    return go - expected
