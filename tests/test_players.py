"""The engine's discard policies against the naive oracle: the hand totals they rank keeps by."""

from __future__ import annotations

import numpy as np
from naive import naive_score

from analyzer.core.scoring import _sort5_index, hand_table, rank_table
from analyzer.keeping.discard import _KEEP_TABLE
from analyzer.play.players import _hand_total, _unseen_counts


def test_hand_table_rows_are_the_rank_table_regrouped():
    table, hands = rank_table(), hand_table()
    assert hands.shape == (13**4, 13) and not hands.flags.writeable
    rng = np.random.default_rng(4)
    for _ in range(2000):
        a, b, c, d = sorted(rng.integers(0, 13, 4).tolist())
        for r in range(13):
            assert hands[((a * 13 + b) * 13 + c) * 13 + d, r] == table[_sort5_index(a, b, c, d, r)]


def test_hand_totals_equal_the_naive_sum_over_the_46_starters():
    # The policies' fast total (one hand-table row, suits counted) against plain enumeration.
    rng = np.random.default_rng(11)
    hands = hand_table()
    for _ in range(60):
        six = np.sort(rng.permutation(52)[:6]).astype(np.int64)
        unseen = _unseen_counts(six)
        starters = [s for s in range(52) if s not in six]
        for keep in _KEEP_TABLE:
            kept = [int(six[i]) for i in keep]
            expected = sum(naive_score(kept, s) for s in starters)
            assert _hand_total(*kept, unseen, 46, hands) == expected, (kept, six)
