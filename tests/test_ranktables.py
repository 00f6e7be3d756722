"""The suit-blind rank tables (analyzer.core.ranktables) against the naive scorer, entry by entry.

Every multiset of ranks a deal allows is dealt as real cards (a rank's copies in different
suits), shown by ``tests/naive.py``, and its fifteens, pairs and runs summed: the tables must
hold exactly that, and 0 where five of a rank would be needed.
"""

from __future__ import annotations

import itertools

import numpy as np
from naive import naive_items

from analyzer.core.ranktables import _rank_points
from analyzer.core.scoring import hand3_table, hand_table, rank_table, rank_table4

SUIT_BLIND = {"fifteen", "pair", "run"}


def _cards(ranks) -> list[int]:
    """Card ids of the ranks, each copy of a rank in the next suit."""
    seen: dict[int, int] = {}
    out = []
    for r in ranks:
        out.append(r * 4 + seen.get(r, 0))
        seen[r] = seen.get(r, 0) + 1
    return out


def _naive_points(ranks) -> int:
    *hand, starter = _cards(ranks)
    return sum(p for kind, _, p in naive_items(hand, starter) if kind in SUIT_BLIND)


def _index(ranks) -> int:
    index = 0
    for r in sorted(ranks):
        index = index * 13 + r
    return index


def test_rank_table_holds_the_naive_points_of_every_five_ranks():
    table = rank_table()
    assert table.shape == (13**5,) and table.dtype == np.uint8 and not table.flags.writeable
    filled = np.zeros(13**5, bool)
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        index = _index(ranks)
        filled[index] = True
        expected = 0 if ranks[0] == ranks[4] else _naive_points(ranks)
        assert table[index] == expected, ranks
    assert not table[~filled].any()  # unsorted indexes are never read: zeros
    # RULES.md's 29 hand (5 5 5 J, starter the fourth 5): 16 for fifteens and 12 for pairs,
    # the nobs being a suit's point
    assert table[_index((4, 4, 4, 4, 10))] == 28


def test_rank_table4_holds_the_naive_points_of_every_four_ranks():
    table = rank_table4()
    assert table.shape == (13**4,) and not table.flags.writeable
    for ranks in itertools.combinations_with_replacement(range(13), 4):
        assert table[_index(ranks)] == _naive_points(ranks), ranks


def test_hand_tables_are_the_rank_tables_by_kept_hand_and_starter_rank():
    five, four = rank_table(), rank_table4()
    by_hand, by_hand3 = hand_table(), hand3_table()
    assert by_hand.shape == (13**4, 13) and by_hand3.shape == (13**3, 13)
    assert not by_hand.flags.writeable and not by_hand3.flags.writeable
    for hand in itertools.combinations_with_replacement(range(13), 4):
        for r in range(13):
            assert by_hand[_index(hand), r] == five[_index((*hand, r))], (hand, r)
    for hand in itertools.combinations_with_replacement(range(13), 3):
        for r in range(13):
            assert by_hand3[_index(hand), r] == four[_index((*hand, r))], (hand, r)


def test_rank_points_do_not_depend_on_the_order_of_the_ranks():
    fives = np.array([r for r in itertools.combinations_with_replacement(range(13), 5)
                      if r[0] != r[4]], np.int64)
    rng = np.random.default_rng(3)
    shuffled = np.take_along_axis(fives, rng.random(fives.shape).argsort(axis=1), axis=1)
    assert np.array_equal(_rank_points(shuffled), _rank_points(fives))
