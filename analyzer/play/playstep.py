"""The rules of one step of the play, shared by the engine's play and the search's rollouts.

Both :func:`analyzer.play.engine._play` (the game) and :func:`analyzer.play.search._rollout` (the
play-outs the ``best`` pegging policy searches with) lay cards and say go by these helpers, so the
two count 15s, 31s, pairs, runs, go and last card the same way.
"""

from __future__ import annotations

from numba import njit

from ..core import rules
from ..core.scoring import _peg_points, _rank, _value

__all__: list[str] = []  # kernels only


@njit(cache=True, inline="always")
def _lay(seq, nseq, count, card, total_left):
    """Lay ``card`` on the count: returns ``(count, nseq, points)`` after it.

    ``seq`` int64 holds the ranks of the current count (``seq[:nseq]``), with room for one more;
    ``total_left`` is how many cards all players still hold after this one (none: the last card,
    one point unless it makes 31). The points are 15, 31, pairs and runs, and the last card.
    """
    count += _value(card)
    seq[nseq] = _rank(card)
    nseq += 1
    points = _peg_points(seq, nseq, count)
    if total_left == 0 and count != rules.MAX_COUNT:
        points += rules.LAST_CARD_POINTS
    return count, nseq, points


@njit(cache=True, inline="always")
def _go_floor(count):
    """The least card value a player who says go at ``count`` can still hold (every card it holds
    is worth more than ``31 - count``)."""
    return rules.MAX_COUNT - count + 1
