"""The naive oracle reproduces every worked example in docs/rules.md (and a few sanity checks)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from naive import (
    card,
    cards,
    naive_items,
    naive_peg_points,
    naive_play,
    naive_score,
    name,
    value,
)

# (hand, starter, crib, expected points, why); the same table is used by test_rules.py.
SHOW_EXAMPLES = [
    # 15s JH+5H and 6D+5H+4H (4), run 4-5-6-7 (4), nobs JH with starter 5H (1).
    ("6D JH 4H 7C", "5H", False, 9, "fifteens 4 + run of 4 + nobs"),
    # 15s 6H+5S+4S and 6H+5H+4S (4); double run 4-5-5-6: two runs of 3 (6) + pair of 5s (2).
    ("5S 4S 2S 6H", "5H", False, 12, "fifteens 4 + double run 8"),
    # crib: 15s 10S+5H and KC+5H (4) + pair of 8s (2); no crib flush.
    ("10S 8D KC 8C", "5H", True, 6, "crib fifteens 4 + pair 2"),
    # triple run 2-2-2-3-4: three runs of 3 (9) + pair royal (6); total value 13, no 15s.
    ("2S 2C 2H 3D", "4S", False, 15, "triple run"),
    # double-double run 2-3-3-4-4: four runs of 3 (12) + two pairs (4); total 16, no 15 subset.
    ("2S 3D 3H 4S", "4C", False, 16, "double-double run"),
    # 4-4-5-5-6: double-double run 16 + four 15s 4+5+6 (8).
    ("4S 4D 5H 5S", "6C", False, 24, "double-double run + four 15s"),
    # 6-7-7-8-8: double-double run 16 + four 15s 7+8 (8).
    ("6S 7D 7H 8S", "8C", False, 24, "double-double run + four 15s"),
    # 5 5 5 J + 5 of the Jack's suit: eight 15s (16) + four 5s (12) + nobs (1) = 29, the maximum.
    ("5H 5C 5S JD", "5D", False, 29, "the 29 hand"),
    # the same five cards with the Jack as starter: no nobs, 28.
    ("5H 5C 5S 5D", "JD", False, 28, "28 with the Jack cut"),
]

# docs/rules.md gives "2S 2C 3D 4S (double run) = 8" as four cards with no starter. Every
# starter adds something to those four (A, 2, 3, 5 lengthen a run or pair, any other card makes
# a 15), so the example is checked as the run and pair items: with KH cut, the double run is 2
# runs of 3 + pair of 2s = 8, and the hand scores 12 with the two 15s KH+2S+3D and KH+2C+3D.
DOUBLE_RUN = ("2S 2C 3D 4S", "KH", 8, 12)

# (cards in the count, points for the last card); docs/rules.md pegging examples, suits chosen
# freely.
PEG_EXAMPLES = [
    ("7C 8D", 2),  # count 15
    ("KS TD 9H 2C", 2),  # count 31; T-9 with K between is no run
    ("5H 5S", 2),  # pair
    ("4C 4D 4H", 6),  # pair royal (count 12)
    ("3C 3D 3H 3S", 12),  # double pair royal (count 12)
    ("4C 5D 6H", 5),  # count 15 (2) + run of 3 (3)
    ("9C 7D 8H", 3),  # run of 3 in any order (count 24)
    ("2C 3D 4H 5S", 4),  # run of 4 (count 14)
    ("4C 5D 5H", 2),  # pair 2; the pair breaks the run
    ("7S", 0),  # 7S 8D 8C 8H: the lead scores nothing
    ("7S 8D", 2),  # fifteen
    ("7S 8D 8C", 2),  # pair (count 23)
    ("7S 8D 8C 8H", 8),  # 31 (2) + pair royal (6)
    ("3C 2D 2S", 2),  # pair (the last-card point belongs to the play, see below)
]


def _scripted(order: str):
    """A ``choose`` that lays the cards in exactly the order given."""
    script = iter(cards(order))

    def choose(player, playable, history):
        c = next(script)
        assert c in playable, f"{name(c)} is not playable for player {player}"
        return c

    return choose


def _events(spec: list[tuple[int, str, int]]) -> list[tuple[int, int, int]]:
    return [(p, card(c), pts) for p, c, pts in spec]


@pytest.mark.parametrize(("hand", "starter", "crib", "points", "why"), SHOW_EXAMPLES)
def test_show_examples(hand, starter, crib, points, why):
    assert naive_score(cards(hand), card(starter), crib) == points, why
    assert sum(p for _, _, p in naive_items(cards(hand), card(starter), crib)) == points


def test_first_example_items():
    # 6D JH 4H 7C + 5H: the breakdown itself, not only the total.
    items = naive_items(cards("6D JH 4H 7C"), card("5H"))
    got = Counter((k, tuple(name(c) for c in cs), p) for k, cs, p in items)
    want = Counter(
        [
            ("fifteen", ("5H", "JH"), 2),
            ("fifteen", ("4H", "5H", "6D"), 2),
            ("run", ("4H", "5H", "6D", "7C"), 4),
            ("nobs", ("JH",), 1),
        ]
    )
    assert got == want


def test_double_run_of_three():
    # 2S 2C 3D 4S: two runs 2-3-4 (3 each) + pair of 2s (2) = 8; KH adds 15s KH+2+3 twice (4).
    hand, starter, run_pair, total = DOUBLE_RUN
    items = naive_items(cards(hand), card(starter))
    assert sum(p for k, _, p in items if k in ("run", "pair")) == run_pair
    assert [p for k, _, p in items if k == "run"] == [3, 3]
    assert naive_score(cards(hand), card(starter)) == total


def test_flushes():
    # 4-card hand flush 4, 5 with the starter; a crib needs all five: 5 or nothing.
    hand = cards("2H 4H 6H 8H")  # with a King: no subset makes 15, no pairs or runs
    assert naive_score(hand, card("KS")) == 4
    assert naive_score(hand, card("KH")) == 5
    assert naive_score(hand, card("KS"), crib=True) == 0
    assert naive_score(hand, card("KH"), crib=True) == 5


def test_nobs_needs_jack_in_hand():
    # JD in hand with a diamond starter: nobs 1 (2C 7S 9H JD + KD: no 15s, pairs or runs).
    assert naive_score(cards("2C 7S 9H JD"), card("KD")) == 1
    assert naive_score(cards("2C 7S 9H JD"), card("KC")) == 0
    # a Jack cut as starter is his heels (pegged in the play), never nobs
    assert naive_score(cards("2C 7S 9H KD"), card("JD")) == 0


@pytest.mark.parametrize(("laid", "points"), PEG_EXAMPLES)
def test_peg_examples(laid, points):
    assert naive_peg_points(cards(laid)) == points


def test_peg_pair_needs_adjacent_cards():
    # a different card between two 5s breaks the pair; 5-6-5 is not a run either
    assert naive_peg_points(cards("5C 6D 5H")) == 0


def test_whole_play_example():
    # Pone 6D JH 4H 7C, dealer 5S 4S 2S 6H, laid in the order of docs/rules.md:
    # JH 10; 5S 15 (dealer 2); 7C 22; 6H 28 (dealer run 5-6-7: 3); pone go; 2S 30 (dealer go 1);
    # pone leads the new count: 6D 6; 4S 10; 4H 14 (pone pair 2 + last card 1).
    events, totals = naive_play(
        cards("6D JH 4H 7C"), cards("5S 4S 2S 6H"), _scripted("JH 5S 7C 6H 2S 6D 4S 4H")
    )
    assert events == _events(
        [
            (0, "JH", 0),
            (1, "5S", 2),
            (0, "7C", 0),
            (1, "6H", 3),
            (1, "2S", 1),
            (0, "6D", 0),
            (1, "4S", 0),
            (0, "4H", 3),
        ]
    )
    assert totals == [3, 6]


def test_go_example():
    # Count 29 after K, 10, 9; the dealer holds only 4 and 7 and says go; the pone, who laid the 9,
    # holds only a 5 (nothing of 2 or less) and pegs 1 for the go; the dealer, who said go, leads.
    # New count: 4S 4, 5C 9, 7S 16 (no run: 4-5-7) and 7S is the last card (1).
    # Three cards each: docs/rules.md gives this as a fragment; naive_play takes hands of any size.
    events, totals = naive_play(cards("KC 9H 5C"), cards("TD 4S 7S"))
    assert events == _events(
        [(0, "KC", 0), (1, "TD", 0), (0, "9H", 1), (1, "4S", 0), (0, "5C", 0), (1, "7S", 1)]
    )
    assert totals == [1, 1]


def test_last_card_example():
    # 3C, 2D, 2S as the last cards of the play (7): pair 2 + last card 1 = 3.
    # First count: TC 10; 5D 15 (2); TH 25; 5H 30; pone (3C, 2S) says go; AD 31 (2, no go point).
    # The dealer laid the 31 so the pone leads: 3C 3; 2D 5; 2S 7 (pair 2 + last card 1).
    events, totals = naive_play(
        cards("TC TH 3C 2S"), cards("5D 5H AD 2D"), _scripted("TC 5D TH 5H AD 3C 2D 2S")
    )
    assert events == _events(
        [
            (0, "TC", 0),
            (1, "5D", 2),
            (0, "TH", 0),
            (1, "5H", 0),
            (1, "AD", 2),
            (0, "3C", 0),
            (1, "2D", 0),
            (0, "2S", 3),
        ]
    )
    assert totals == [3, 4]


def test_last_card_making_31_scores_2_in_all():
    # 8H 8D (16, pair 2) then 7C 23, 8S 31 last card: 2 for 31 and no extra last-card point.
    events, totals = naive_play(cards("8H 7C"), cards("8D 8S"))
    assert events == _events([(0, "8H", 0), (1, "8D", 2), (0, "7C", 0), (1, "8S", 2)])
    assert totals == [0, 4]


def test_third_eight_making_31():
    # docs/rules.md: "the third 8 making 31: 6 + 2" (7S 8D 8C 8H, last card of the play: 8 + 0).
    events, totals = naive_play(cards("7S 8C"), cards("8D 8H"))
    assert [pts for _, _, pts in events] == [0, 2, 2, 8]
    assert totals == [2, 10]


def test_random_plays_are_consistent():
    # every card is laid once, counts stay <= 31, totals add up, default chooser is legal
    rng = random.Random(11)
    for _ in range(300):
        deal = rng.sample(range(52), 8)
        events, totals = naive_play(deal[:4], deal[4:])
        assert sorted(c for _, c, _ in events) == sorted(deal)
        assert sum(p for _, _, p in events) == sum(totals)
        assert sum(p for _, _, p in events) >= 1  # at least the last card
        assert events[0][0] == 0  # the pone leads


def test_exhaustive_small_deck_max_is_29():
    # Every (hand, starter) from the 16 cards 5, 10, J, K (21,840 cases): the maximum is 29, reached
    # only by 5-5-5-J with the fourth 5 of the Jack's suit cut (4 cases); no 19, 25, 26 or 27.
    deck = [c for c in range(52) if c // 4 in (4, 9, 10, 12)]
    scores = Counter()
    best = []
    for hand in combinations(deck, 4):
        for starter in deck:
            if starter in hand:
                continue
            s = naive_score(hand, starter)
            scores[s] += 1
            if s == 29:
                best.append((hand, starter))
    assert max(scores) == 29
    assert not {19, 25, 26, 27} & set(scores)
    assert len(best) == 4
    for hand, starter in best:
        jack = [c for c in hand if c // 4 == 10]
        assert len(jack) == 1 and jack[0] % 4 == starter % 4 and starter // 4 == 4


def test_sampled_census_is_sensible():
    # docs/rules.md facts over 12,994,800 cases: 1,009,008 zero hands (7.76%) and 1,022,208 zero
    # cribs (7.87%); means 4.7692 (hand) and 4.7348 (crib); 19, 25, 26, 27 never occur. Checked on
    # a seeded sample of 20,000 cases (standard errors: mean ~0.024, zero share ~0.002).
    rng = random.Random(2024)
    n = 20_000
    hand_scores, crib_scores = [], []
    for _ in range(n):
        five = rng.sample(range(52), 5)
        hand_scores.append(naive_score(five[:4], five[4]))
        crib_scores.append(naive_score(five[:4], five[4], crib=True))
    for scores, zeros, mean in (
        (hand_scores, 1_009_008, 4.7692),
        (crib_scores, 1_022_208, 4.7348),
    ):
        assert not {19, 25, 26, 27} & set(scores)
        assert 0 <= min(scores) and max(scores) <= 29
        assert abs(sum(scores) / n - mean) < 0.1
        assert abs(scores.count(0) / n - zeros / 12_994_800) < 0.01
    # a crib never outscores the same cards as a hand (only the flush rule differs)
    assert all(c <= h for c, h in zip(crib_scores, hand_scores, strict=True))


def test_suit_permutation_invariance():
    # relabelling suits changes nothing
    rng = random.Random(5)
    for _ in range(500):
        five = rng.sample(range(52), 5)
        perm = rng.sample(range(4), 4)
        moved = [c // 4 * 4 + perm[c % 4] for c in five]
        assert naive_score(five[:4], five[4]) == naive_score(moved[:4], moved[4])
        assert naive_score(five[:4], five[4], True) == naive_score(moved[:4], moved[4], True)


def test_card_helpers():
    # ids are rank * 4 + suit; every spelling of a card gives the same id
    assert card("AC") == 0 and card("KS") == 51 and card("TD") == 37
    assert card("5H") == card("5h") == card("5♥") == 4 * 4 + 2
    assert card("10H") == card("TH") == card("th") == 9 * 4 + 2
    assert cards("5H, 5S,6D JC") == [18, 19, 21, 40]
    assert [value(c) for c in cards("AS 9C TD JH QS KC")] == [1, 9, 10, 10, 10, 10]
    assert all(card(name(c)) == c for c in range(52))
    for bad in ("1H", "5X", "ZH", "", "55H"):
        with pytest.raises(ValueError):
            card(bad)
