"""Pegging policies: which card to lay in the play, compiled for the game loop.

Every policy sees only what its player may see: its own hand, the cards laid so far in the current
count, the running count, and the ``unseen`` cards (not in its own six, not the starter, not yet
laid by anyone), of which the opponent holds ``opp_left``.

* ``random`` (0): a uniformly random legal card.
* ``greedy`` (1): the most points now (15, 31, pairs, runs, and the last card when it knows it is
  last); ties broken by safety: avoid leaving the count at 5 or 21 (a ten-card, the commonest
  value, makes 15 or 31 of it), on a lead lay the lowest card but a 5 (nothing below 5 can be
  answered with a 15), otherwise lay the highest card and keep low ones for later counts.
* ``lookahead`` (2): one-ply expectimax over the opponent's possible unseen cards. For each legal
  card: the points it scores now, plus one point times the chance the opponent then cannot play
  (a go for us), minus the opponent's expected best immediate reply, where the opponent's cards are
  any ``opp_left`` of the unseen cards, each set equally likely (hypergeometric), and the opponent
  answers with the reply scoring most. Ties fall back to greedy's order.
* ``ordered`` (3): the first legal card in hand order. A scripted player for tests and replays.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rng import _randint
from .scoring import _peg_points

__all__ = ["PEGGING_POLICIES"]

#: Pegging policy codes used by the compiled engine, by name.
PEGGING_POLICIES = {"random": 0, "greedy": 1, "lookahead": 2, "ordered": 3}


@njit(cache=True, inline="always")
def _value(card):
    return min((card >> 2) + 1, 10)


@njit(cache=True)
def _tiebreak(card, leading):
    """Small preference among equally scored cards: low leads (never a 5), else the highest."""
    v = _value(card)
    if leading:
        key = (20 - v) if v != 5 else 0
    else:
        key = v
    return key + (card >> 2) * 0.01  # among equal values, the higher rank: deterministic


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
    n_legal = 0
    for i in range(n_hand):
        if not laid[i] and count + _value(hand[i]) <= 31:
            n_legal += 1
    if n_legal == 0:
        return -1
    if policy == 0:
        pick = _randint(st, n_legal)
        for i in range(n_hand):
            if not laid[i] and count + _value(hand[i]) <= 31:
                if pick == 0:
                    return i
                pick -= 1
    if policy == 3:
        for i in range(n_hand):
            if not laid[i] and count + _value(hand[i]) <= 31:
                return i
    n_unseen = 0
    for r in range(13):
        n_unseen += unseen_rank[r]
    best = -1
    best_key = -1e300
    leading = nseq == 0
    for i in range(n_hand):
        if laid[i] or count + _value(hand[i]) > 31:
            continue
        card = hand[i]
        after = count + _value(card)
        seq[nseq] = card >> 2
        points = _peg_points(seq, nseq + 1, after)
        if last_card_possible and after != 31:
            points += 1
        if policy == 2:
            reply = _reply_value(seq, nseq + 1, after, unseen_rank, n_unseen, opp_left)
            key = 1000.0 * (points + reply) + _tiebreak(card, leading)
        else:
            key = _greedy_key(points, card, after, leading)
        if key > best_key:
            best_key = key
            best = i
    return best


@njit(cache=True)
def _reply_value(seq, n, count, unseen_rank, n_unseen, opp_left):
    """Expected go point for us minus the opponent's expected best immediate reply.

    ``seq[:n]`` are the ranks in the count after our card (room for one more), ``count`` the count.
    """
    if count == 31 or opp_left == 0 or n_unseen == 0:
        return 0.0
    k = min(opp_left, n_unseen)
    # Points of the best reply of each rank, and how many unseen cards can answer at all.
    pts = np.full(13, -1, np.int64)
    playable = 0
    for r in range(13):
        if unseen_rank[r] and count + min(r + 1, 10) <= 31:
            seq[n] = r
            pts[r] = _peg_points(seq, n + 1, count + min(r + 1, 10))
            playable += unseen_rank[r]
    go = _none_prob(n_unseen, playable, k)  # the opponent cannot play: we get at least a go
    # E[best reply] = sum over reply ranks by decreasing points of
    # points * P(holds one of this rank but none of the better ones).
    expected = 0.0
    covered = 0
    p_none_before = 1.0
    for _ in range(13):
        top = -1
        for r in range(13):
            if pts[r] > 0 and (top < 0 or pts[r] > pts[top]):
                top = r
        if top < 0:
            break
        # Ranks with equal points count as one group.
        group = 0
        value = pts[top]
        for r in range(13):
            if pts[r] == value:
                group += unseen_rank[r]
                pts[r] = -1
        covered += group
        p_none_after = _none_prob(n_unseen, covered, k)
        expected += value * (p_none_before - p_none_after)
        p_none_before = p_none_after
    return go - expected
