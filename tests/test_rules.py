"""docs/rules.md worked examples through the public API, checked against the naive oracle."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from naive import cards, naive_items, naive_score
from test_naive import DOUBLE_RUN, PEG_EXAMPLES, SHOW_EXAMPLES

from analyzer import count_hand, parse_cards, peg_points, score_hand, score_hands, show_census


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


# --- the other forms ---------------------------------------------------------------------------
# docs/rules.md, "Examples of the other forms". (variant, hand or crib, starter, crib?, points,
# why); each total worked out by hand first, then checked here against the oracle too.
FORM_EXAMPLES = [
    # 15s 4H+5H+6H, 4H+5S+6H (4) + pair of 5s (2) + double run 4-5-6 (6) + flush of three (3)
    ("five-card", "4H 5H 6H", "5S", False, 15, "fifteens, pair, double run, flush of three"),
    # 15s JS+5C, JS+5D, JS+5S, 5C+5D+5S (8) + pair royal (6) + nobs JS with 5S (1)
    ("five-card", "JS 5C 5D", "5S", False, 15, "three-card hand with nobs"),
    # four fifteens of three fives (8) + six pairs (12): the most a three-card hand makes
    ("five-card", "5C 5D 5H", "5S", False, 20, "the 20 hand"),
    # no 15 (values 2 7 10 9), no pair, no run; all four diamonds: flush of four
    ("five-card", "2D 7D QD", "9D", False, 4, "three-card flush with the starter"),
    # the hand's three diamonds alone: flush of three
    ("five-card", "2D 7D QD", "9C", False, 3, "three-card flush"),
    # the five-card crib: 15 3H+8H+4C (2); four hearts without the starter are no crib flush
    ("five-card", "3H 8H 10H KH", "4C", True, 2, "crib: no flush without the starter"),
    # the same crib with a heart cut: 15 (2) + crib flush of five (5)
    ("five-card", "3H 8H 10H KH", "4H", True, 7, "crib flush of five"),
    # three-player crib 5H 10S KD (the players) + 5C (the pack): six 15s (12) + pair (2); the
    # Jack is the starter, so no nobs
    ("three-player", "5H 10S KD 5C", "JH", True, 14, "three-player crib"),
    # four-player, L's hand: 15s 7D+8H, 6C+7D+2S (4) + run 6-7-8 (3)
    ("four-player", "6C 7D 8H 2S", "KC", False, 7, "four-player hand"),
]


@pytest.mark.parametrize(("variant", "hand", "starter", "crib", "points", "why"), FORM_EXAMPLES)
def test_form_examples(variant, hand, starter, crib, points, why):
    assert score_hand(hand, starter, crib=crib, variant=variant) == points, why
    assert naive_score(cards(hand), cards(starter)[0], crib) == points, why
    items = count_hand(hand, starter, crib=crib, variant=variant)
    assert _multiset(items) == _naive_multiset(hand, starter, crib)


def test_five_card_census_figures_from_rules():
    # 1,082,900 cases (22,100 three-card hands x 49 starters), 260,220 score 0, mean 2.5924
    census = show_census(variant="five-card")
    assert census.sum() == 1_082_900 and census[0] == 260_220
    assert round((census * np.arange(30)).sum() / census.sum(), 4) == 2.5924


def test_four_player_show_order_ends_the_game_at_the_first_side_to_121():
    # The dealer D's side (D and partner P) against L and R; counted L, P, R, D, then the crib.
    # With L and R on 118, L's 7 wins the game (125) before anyone else counts.
    order = ["L", "P", "R", "D", "crib"]
    side = {"L": "LR", "R": "LR", "P": "DP", "D": "DP", "crib": "DP"}
    scores = {"LR": 118, "DP": 100}
    shown = {"L": ("6C 7D 8H 2S", False), "P": ("5D 5H 10C JC", False),
             "R": ("AH 2H 3H 4H", False), "D": ("9S 9C 6S 3C", False),
             "crib": ("QH QD 4S 4D", True)}
    counted = []
    for who in order:
        hand, crib = shown[who]
        scores[side[who]] += score_hand(hand, "KC", crib=crib, variant="four-player")
        counted.append(who)
        if max(scores.values()) >= 121:
            break
    assert counted == ["L"] and scores == {"LR": 125, "DP": 100}
