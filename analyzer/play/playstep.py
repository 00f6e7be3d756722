"""The rules of one step of the play, shared by the engine's play and the search's rollouts.

Both :func:`analyzer.play.engine._play` (the game) and :func:`analyzer.play.search._rollout` (the
play-outs the ``best`` pegging policy searches with) lay cards and say go by these helpers, so the
two count 15s, 31s, pairs, runs, go and last card the same way.
"""

from __future__ import annotations

from ..core import rules
from ..core.jit import njit
from ..core.scoring import _peg_points, _rank, _value

__all__ = ["lay_card"]


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


def lay_card(seq, nseq: int, count: int, card: int, total_left: int) -> tuple[int, int, int]:
    """Lay ``card`` (an id) on the count as the engine does (:func:`_lay`), for a game played in
    Python (:class:`analyzer.table.tabletop.Table`): ``seq`` int64 holds the ranks of the
    current count (``seq[:nseq]``) with room for one more, and gets the card's;
    ``total_left`` is how many cards all players still hold after it. Returns ``(count, nseq,
    points)`` after it: 15, 31, pairs, runs and the last card (a go is the caller's).

    >>> import numpy as np
    >>> lay_card(np.zeros(9, np.int64), 0, 10, 16, 5)  # a 5 (5C) on 10: fifteen two
    (15, 1, 2)
    """
    count, nseq, points = _lay(seq, nseq, count, card, total_left)
    return int(count), int(nseq), int(points)
