"""The suit-blind rank tables of the show, built from the rules with numpy.

The show's fifteens, pairs and runs depend only on the ranks. :func:`rank_table` holds their
points for every five ranks a deal allows, ``uint8[13**5]`` indexed by the ranks sorted as
base-13 digits (``((((r0*13 + r1)*13 + r2)*13 + r3)*13 + r4``; 0 where five of a rank would be
needed), :func:`rank_table4` for four ranks (a five-card cribbage hand of three and its
starter), and :func:`hand_table` and :func:`hand3_table` the same regrouped by kept hand, a
row of the 13 starters each. The kernels of :mod:`analyzer.core.scoring` read them, passed in
as arguments; the table keep (:mod:`analyzer.keeping.tablekeep`) counts with
:func:`_rank_points`.

Each is built once per process with numpy, in a few hundredths of a second: nothing to compile
before a first run can score, and no numba imported here (``crib keep``'s numpy path imports
this module). The tests check every entry against the naive scorer of ``tests/naive.py``.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from . import rules

__all__ = ["hand3_table", "hand_table", "rank_table", "rank_table4"]

_TABLE_SIZE = 13**5
_TABLE4_SIZE = 13**4


@lru_cache(maxsize=2)
def _subsets(k: int) -> np.ndarray:
    """Every non-empty subset of ``k`` cards as a row of 0/1, int64 (2**k - 1, k)."""
    return np.array([[(mask >> i) & 1 for i in range(k)] for mask in range(1, 1 << k)],
                    np.int64)


def _rank_points(ranks: np.ndarray) -> np.ndarray:
    """Suit-blind show points (15s, pairs, runs) of each row of ``ranks`` int64 (n, k), k = 4
    or 5 ranks 0..12 in any order: int64 (n,). Fills the rank tables; the table keep
    (:mod:`analyzer.keeping.tablekeep`) counts with it too."""
    n, k = ranks.shape
    values = np.minimum(ranks + 1, 10)  # the counting value of a rank (cards.rank_value)
    fifteens = (values @ _subsets(k).T == rules.FIFTEEN).sum(axis=1)
    pts = rules.FIFTEEN_POINTS * fifteens
    for i, j in itertools.combinations(range(k), 2):
        pts = pts + rules.PAIR_POINTS * (ranks[:, i] == ranks[:, j])
    # Runs: at most one maximal stretch of 3+ consecutive ranks in four or five cards; it scores
    # its length for every way of choosing one card of each rank in it.
    counts = np.zeros((n, 15), np.int64)  # ranks 0..12 at 1..13, a zero either side
    counts[:, 1:14] = (ranks[:, :, None] == np.arange(13)).sum(axis=1)
    for length in range(3, k + 1):
        for start in range(1, 15 - length):
            window = counts[:, start:start + length]
            maximal = (window > 0).all(axis=1) & (counts[:, start - 1] == 0) & (
                counts[:, start + length] == 0)
            pts = pts + length * window.prod(axis=1) * maximal
    return pts


def _sorted_rows(k: int) -> np.ndarray:
    """Every multiset of ``k`` ranks a deal allows (no rank five times), sorted rows, int64."""
    rows = [r for r in itertools.combinations_with_replacement(range(13), k)
            if k < 5 or r[0] != r[4]]
    return np.array(rows, np.int64)


def _index(ranks: np.ndarray) -> np.ndarray:
    """The tables' index of each row of sorted ``ranks``: the ranks as base-13 digits."""
    index = np.zeros(len(ranks), np.int64)
    for j in range(ranks.shape[1]):
        index = index * 13 + ranks[:, j]
    return index


def _read_only(table: np.ndarray) -> np.ndarray:
    table.setflags(write=False)
    return table


@lru_cache(maxsize=1)
def rank_table() -> np.ndarray:
    """The suit-blind score table (15s, pairs, runs), ``uint8[13**5]`` over sorted ranks (0
    where five of a rank would be needed).

    Built once per process from the rules with numpy (about 0.03 s) and then passed into the
    kernels. Read-only.
    """
    fives = _sorted_rows(5)
    table = np.zeros(_TABLE_SIZE, np.uint8)
    table[_index(fives)] = _rank_points(fives)
    return _read_only(table)


@lru_cache(maxsize=1)
def rank_table4() -> np.ndarray:
    """The suit-blind score table of a three-card hand and its starter, ``uint8[13**4]``.

    Indexed by the four ranks sorted, ``((r0 * 13 + r1) * 13 + r2) * 13 + r3``; built once per
    process from the rules with numpy and passed into the kernels of five-card cribbage, the
    way :func:`rank_table` is for four-card hands. Read-only.
    """
    fours = _sorted_rows(4)
    table = np.zeros(_TABLE4_SIZE, np.uint8)
    table[_index(fours)] = _rank_points(fours)
    return _read_only(table)


def _by_hand(table: np.ndarray, kept: int) -> np.ndarray:
    """``table`` (over ``kept + 1`` sorted ranks) regrouped by kept hand: row ``index(hand)`` of
    ``uint8[13**kept, 13]`` holds the entry of the hand with a starter of each rank."""
    hands = _sorted_rows(kept)
    with_starter = np.concatenate([np.repeat(hands, 13, axis=0),
                                   np.tile(np.arange(13), len(hands))[:, None]], axis=1)
    out = np.zeros((13**kept, 13), np.uint8)
    out[_index(hands)] = table[_index(np.sort(with_starter, axis=1))].reshape(len(hands), 13)
    return _read_only(out)


@lru_cache(maxsize=1)
def hand3_table() -> np.ndarray:
    """:func:`rank_table4` grouped by kept hand, for five-card cribbage: ``uint8[13**3, 13]``.

    Row ``(a * 13 + b) * 13 + c`` (ranks ``a <= b <= c``) holds, for each starter rank, the
    suit-blind points of the four: a three-card hand's 13 possible values side by side, read by
    the engine's players and its show. Read-only.
    """
    return _by_hand(rank_table4(), 3)


@lru_cache(maxsize=1)
def hand_table() -> np.ndarray:
    """The rank table regrouped by kept hand: ``uint8[13**4, 13]``, read-only.

    Row ``((a * 13 + b) * 13 + c) * 13 + d`` (ranks ``a <= b <= c <= d``) holds, for each starter
    rank, the suit-blind points of the five: a kept hand's 13 possible values side by side, so
    valuing a hand over every starter reads one short row instead of 13 scattered entries (0
    where five of a rank would be needed).
    """
    return _by_hand(rank_table(), 4)
