"""What the opponent's plays say about its hand: the read of ``best``'s six-card search.

The search (:mod:`analyzer.play.search`) draws the opponent's hand from what its discard says
(it keeps what ``ev`` would). Its plays say more. A player who held a card that pegged at a
lay (a fifteen, a pair, a run, 31) and laid one that pegged less most likely did not hold it:
every player takes the points it sees, whatever else it weighs. The read is that one rule, not
any one player's tiebreaks, so it holds against players other than the engine's own.

It weighs a drawn hand by the likelihood of the opponent's lays so far, in order, if it lays a
card that pegs the most now with probability ``1 - PLAY_SLIP`` and any other legal card
otherwise (each equally): each lay where a legal card of the hand would have pegged more than
the card laid multiplies the weight by ``PLAY_SLIP / ((1 - PLAY_SLIP) (legal cards - 1))``.
The search keeps a drawn hand with probability its weight (rejection sampling); the slip keeps
the read soft, so that a player who passes up points (to keep a pair for later, or to avoid
giving a pair royal away) is not misread.

The engine gives the search the deal's plays (:data:`analyzer.play.deal.PLAY` rows: player,
card); :func:`_read_masks` reduces them, once a decision, to three integers, and the search's
draws weigh a hand by :func:`_plays_weight` from those and the ranks of the cards it holds but
has not laid: a few bit tests a draw, no array. Goes are not in the plays: a count ends where
the next card would pass 31 (a player who said go could lay nothing more on that count, so its
next card, on that count, would pass 31), or at 31.
"""

from __future__ import annotations

import numpy as np

from ..core import rules
from ..core.jit import njit
from ..core.scoring import _peg_points_packed, _rank, _rank_value, _value

__all__ = ["PLAY_SLIP"]

#: The chance the read gives the opponent of laying a card that pegs less than it could.
PLAY_SLIP = 0.2
# the weight of such a lay, for each other legal card
_SLIP_RATIO = PLAY_SLIP / (1.0 - PLAY_SLIP)


_MAX_READ = 4  # the opponent's lays read: all it has


@njit(cache=True)
def _read_masks(plays, n_plays, p):
    """What the opponent's lays so far say, for seat ``p`` of a two-player play: ``plays`` int64
    (rows, 2 or more) the deal's plays in order, player and card (``analyzer.play.deal.PLAY``),
    the first ``n_plays`` of them. Returns three int64:

    * ``beats``: 13 bits for each of the opponent's lays in turn, the ranks that would have
      pegged more now than the card it laid (and fit the count);
    * ``fits``: 13 bits for each lay, the ranks that fit the count;
    * ``known``: 4 bits for each lay, how many of the cards it laid then or later fit the count
      then (bits 0..2) and whether one of them would have pegged more (bit 3); the number of
      lays read in bits 16..18 (0: nothing to read).
    """
    beats = np.int64(0)
    fits = np.int64(0)
    known = np.int64(0)
    laid = np.int64(0)  # the ranks it laid, four bits each, the first lowest
    n_read = 0
    packed = np.int64(0)  # the count's ranks, four bits each, the last laid lowest
    nseq = np.int64(0)
    count = np.int64(0)
    for k in range(n_plays):
        card = plays[k, 1]
        if count + _value(card) > rules.MAX_COUNT:
            count = 0
            nseq = 0
            packed = 0
        if plays[k, 0] != p and n_read < _MAX_READ:
            mine = _peg_points_packed(packed, nseq, _rank(card), count + _value(card))
            for r in range(13):
                after = count + _rank_value(r)
                if after <= rules.MAX_COUNT:
                    fits |= np.int64(1) << (13 * n_read + r)
                    if _peg_points_packed(packed, nseq, np.int64(r), after) > mine:
                        beats |= np.int64(1) << (13 * n_read + r)
            laid |= _rank(card) << (4 * n_read)
            n_read += 1
        packed = (packed << 4) | _rank(card)
        nseq += 1
        count += _value(card)
        if count == rules.MAX_COUNT:
            count = 0
            nseq = 0
            packed = 0
    for j in range(n_read):
        n_fit = 0
        beaten = 0
        for i in range(j, n_read):  # the cards it laid then and later: in its hand at lay j
            r = (laid >> (4 * i)) & 15
            if (fits >> (13 * j + r)) & 1:
                n_fit += 1
            if (beats >> (13 * j + r)) & 1:
                beaten = 1
        known |= np.int64(n_fit | beaten << 3) << (4 * j)
    known |= np.int64(n_read) << 16
    return beats, fits, known


@njit(cache=True, inline="always")
def _plays_weight(beats, fits, known, ranks, n_ranks):
    """The read's weight of a hand of the opponent's (see the module docstring) whose cards not
    yet laid have the ``n_ranks`` ranks packed four bits each in ``ranks``; ``beats``,
    ``fits``, ``known`` from :func:`_read_masks`. Scalars only."""
    weight = 1.0
    for j in range((known >> 16) & 7):
        n_fit = (known >> (4 * j)) & 7
        beaten = (known >> (4 * j + 3)) & 1
        for i in range(n_ranks):
            r = (ranks >> (4 * i)) & 15
            n_fit += (fits >> (13 * j + r)) & 1
            beaten |= (beats >> (13 * j + r)) & 1
        if beaten:
            weight *= _SLIP_RATIO / (n_fit - 1)
    return weight
