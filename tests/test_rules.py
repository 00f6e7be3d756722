"""docs/rules.md worked examples through the public API, checked against the naive oracle."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from naive import cards, naive_items, naive_score
from test_naive import DOUBLE_RUN, PEG_EXAMPLES, SHOW_EXAMPLES

from analyzer import count_hand, parse_cards, peg_points, score_hand, score_hands


def _ids(spec: str | list[int]) -> np.ndarray:
    """uint8 id array from card text or a list of ids."""
    return np.array(cards(spec) if isinstance(spec, str) else spec, dtype=np.uint8)


def _multiset(items) -> Counter:
    """(kind, sorted card ids, points) of API items, as a multiset."""
    return Counter(
        (str(it.kind), tuple(sorted(int(c) for c in it.cards)), int(it.points)) for it in items
    )


def _naive_multiset(hand: str, starter: str, crib: bool) -> Counter:
    items = naive_items(cards(hand), cards(starter)[0], crib)
    return Counter((kind, tuple(sorted(cs)), points) for kind, cs, points in items)


# --- the show ----------------------------------------------------------------------------------
# The table and the reason for every total are in test_naive.SHOW_EXAMPLES:
# 9 (15s 4 + run 4 + nobs), 12 (15s 4 + double run 8), crib 6 (15s 4 + pair), 15 (triple run),
# 16 (double-double run), 24 twice (double-double run + four 15s), 29 (5-5-5-J, nobs),
# 28 (Jack cut).


@pytest.mark.parametrize(("hand", "starter", "crib", "points", "why"), SHOW_EXAMPLES)
def test_score_hand_text(hand, starter, crib, points, why):
    assert score_hand(hand, starter, crib=crib) == points, why


@pytest.mark.parametrize(("hand", "starter", "crib", "points", "why"), SHOW_EXAMPLES)
def test_score_hand_ids(hand, starter, crib, points, why):
    assert score_hand(_ids(hand), int(_ids(starter)[0]), crib=crib) == points, why


@pytest.mark.parametrize(("hand", "starter", "crib", "points", "why"), SHOW_EXAMPLES)
def test_count_hand_matches_naive(hand, starter, crib, points, why):
    items = count_hand(hand, starter, crib=crib)
    assert sum(int(it.points) for it in items) == points, why
    assert {it.kind for it in items} <= {"fifteen", "pair", "run", "flush", "nobs"}
    assert _multiset(items) == _naive_multiset(hand, starter, crib)


@pytest.mark.parametrize("crib", [False, True])
def test_score_hands_examples(crib):
    # the whole table in one vectorized call, hand and crib rules each
    hands = np.array([cards(h) for h, *_ in SHOW_EXAMPLES], dtype=np.uint8)
    starters = np.array([cards(s)[0] for _, s, *_ in SHOW_EXAMPLES], dtype=np.uint8)
    want = [naive_score(h, s, crib) for h, s in zip(hands.tolist(), starters.tolist(), strict=True)]
    got = np.asarray(score_hands(hands, starters, crib=crib))
    assert got.shape == (len(SHOW_EXAMPLES),)
    assert got.tolist() == want
    # the examples' own totals where the example uses the same rule
    for row, (_, _, ex_crib, points, why) in enumerate(SHOW_EXAMPLES):
        if ex_crib == crib:
            assert got[row] == points, why


def test_double_run_of_three():
    # 2S 2C 3D 4S: two runs 2-3-4 (3 each) + pair of 2s (2) = 8. docs/rules.md gives no starter
    # and every starter adds something; with KH cut the hand also has the 15s KH+2S+3D and
    # KH+2C+3D: 12.
    hand, starter, run_pair, total = DOUBLE_RUN
    items = count_hand(hand, starter)
    assert sum(int(it.points) for it in items if it.kind in ("run", "pair")) == run_pair
    assert score_hand(hand, starter) == total
    assert _multiset(items) == _naive_multiset(hand, starter, False)


def test_29_hand_breakdown():
    # 5H 5C 5S JD + 5D: eight 15s (four J+5, four 5+5+5), six pairs of 5s, nobs JD.
    kinds = Counter(it.kind for it in count_hand("5H 5C 5S JD", "5D"))
    assert kinds == Counter({"fifteen": 8, "pair": 6, "nobs": 1})


@pytest.mark.parametrize("crib", [False, True])
def test_score_hands_random_against_naive(crib):
    # 2,000 seeded random (hand, starter) cases, fast path against the oracle
    rng = random.Random(7 + crib)
    fives = np.array([rng.sample(range(52), 5) for _ in range(2000)], dtype=np.uint8)
    got = np.asarray(score_hands(fives[:, :4], fives[:, 4], crib=crib))
    want = [naive_score(f[:4], f[4], crib) for f in fives.tolist()]
    assert got.tolist() == want


# --- the play ----------------------------------------------------------------------------------
# Reasons for each line are in test_naive.PEG_EXAMPLES (15 -> 2, 31 -> 2, pair 2, pair royal 6,
# double pair royal 12, runs n, a pair breaks a run, 7S 8D 8C 8H: 0, 2, 2, 8).


@pytest.mark.parametrize(("laid", "points"), PEG_EXAMPLES)
def test_peg_points_text(laid, points):
    assert peg_points(laid) == points


@pytest.mark.parametrize(("laid", "points"), PEG_EXAMPLES)
def test_peg_points_ids(laid, points):
    assert peg_points(parse_cards(laid)) == points


@pytest.mark.parametrize(
    ("count", "per_card"),
    [
        # whole-play example, first count: JH 10, 5S 15 (2), 7C 22, 6H 28 (run 5-6-7: 3), 2S 30
        # (its go point is not part of peg_points)
        ("JH 5S 7C 6H 2S", [0, 2, 0, 3, 0]),
        # second count: 6D 6, 4S 10, 4H 14 (pair 2; the last-card point is not part of peg_points)
        ("6D 4S 4H", [0, 0, 2]),
        # go example: K, 10, 9 makes 29 and scores nothing itself; the 1 is for the go
        ("KC TD 9H", [0, 0, 0]),
        # last-card example: 3C, 2D, 2S (7): pair 2 (+ last card 1 in the play)
        ("3C 2D 2S", [0, 0, 2]),
    ],
)
def test_peg_points_each_card_of_a_count(count, per_card):
    ids = cards(count)
    assert [peg_points(_ids(ids[: i + 1])) for i in range(len(ids))] == per_card
