"""The compiled scorer against the exact census and the naive oracle, and its properties."""

from __future__ import annotations

import csv

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from naive import naive_items, naive_peg_points, naive_score
from reference import SHOW_CENSUS

from analyzer import count_hand, peg_points, say_count, score_hand, score_hands, show_census
from analyzer.core.cards import format_cards

IMPOSSIBLE = {19, 25, 26, 27}

five_cards = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)
suit_perms = st.permutations(range(4))


def _census_reference() -> dict[str, np.ndarray]:
    with SHOW_CENSUS.open() as f:
        rows = list(csv.DictReader(f))
    assert [int(r["points"]) for r in rows] == list(range(30))
    return {k: np.array([int(r[k]) for r in rows]) for k in ("hand", "crib")}


@pytest.mark.parametrize("kind", ["hand", "crib"])
def test_census_matches_reference_count_by_count(kind):
    # All 270,725 hands x 48 starters, against the published census (S. Lumetta) and its crib twin.
    got = show_census(crib=kind == "crib")
    want = _census_reference()[kind]
    assert got.sum() == 12_994_800
    for points in range(30):
        assert got[points] == want[points], f"{kind} score {points}"


def test_census_means_and_zero_counts_from_rules():
    hand, crib = show_census(), show_census(crib=True)
    points = np.arange(30)
    assert hand[0] == 1_009_008 and crib[0] == 1_022_208
    assert round((hand * points).sum() / hand.sum(), 4) == 4.7692
    assert round((crib * points).sum() / crib.sum(), 4) == 4.7348
    assert hand[29] == 4 and all(hand[k] == 0 and crib[k] == 0 for k in IMPOSSIBLE)


@pytest.mark.parametrize("crib", [False, True])
def test_score_hands_equals_naive_on_seeded_sample(crib):
    rng = np.random.default_rng(20261129 + crib)
    deals = np.argsort(rng.random((3000, 52)), axis=1)[:, :5]
    got = score_hands(deals[:, :4], deals[:, 4], crib=crib)
    want = [naive_score(row[:4], row[4], crib) for row in deals.tolist()]
    assert got.tolist() == want


def test_score_hands_flush_and_nobs_cases():
    # Built cases: four-card flush with and without the starter's suit, a Jack of every suit.
    hands, starters = [], []
    for suit in range(4):
        flush = [r * 4 + suit for r in (0, 2, 6, 10)]  # A 3 7 J of one suit
        for starter in (12 * 4 + suit, 12 * 4 + (suit + 1) % 4):
            hands.append(flush)
            starters.append(starter)
    hands, starters = np.array(hands), np.array(starters)
    for crib in (False, True):
        pairs = zip(hands.tolist(), starters.tolist(), strict=True)
        want = [naive_score(h, s, crib) for h, s in pairs]
        assert score_hands(hands, starters, crib=crib).tolist() == want


@given(five_cards, st.booleans())
def test_score_hand_equals_naive_and_score_hands(cards, crib):
    hand, starter = cards[:4], cards[4]
    points = score_hand(hand, starter, crib=crib)
    assert points == naive_score(hand, starter, crib)
    assert score_hands(np.array([hand]), np.array([starter]), crib=crib)[0] == points


@given(five_cards, st.booleans(), suit_perms)
def test_suit_permutation_invariance(cards, crib, perm):
    relabelled = [(c // 4) * 4 + perm[c % 4] for c in cards]
    assert score_hand(cards[:4], cards[4], crib) == score_hand(relabelled[:4], relabelled[4], crib)


@given(five_cards, st.booleans())
def test_no_impossible_score(cards, crib):
    points = score_hand(cards[:4], cards[4], crib)
    assert 0 <= points <= 29 and points not in IMPOSSIBLE


@given(five_cards, st.booleans())
def test_count_hand_items_equal_naive_items(cards, crib):
    items = count_hand(cards[:4], cards[4], crib)
    got = sorted((i.kind, tuple(sorted(i.cards)), i.points) for i in items)
    want = sorted((k, tuple(sorted(c)), p) for k, c, p in naive_items(cards[:4], cards[4], crib))
    assert got == want
    assert sum(i.points for i in items) == score_hand(cards[:4], cards[4], crib)
    order = ["fifteen", "pair", "run", "flush", "nobs"]
    kinds = [order.index(i.kind) for i in items]
    assert kinds == sorted(kinds)  # table order


@st.composite
def counts(draw):
    """A legal sequence of cards in one count (total at most 31), drawn from one pack."""
    pack = draw(st.permutations(range(52)))
    laid, total = [], 0
    for card in pack[: draw(st.integers(1, 13))]:
        value = min(card // 4 + 1, 10)
        if total + value > 31:
            break
        laid.append(card)
        total += value
    return laid or [pack[0]]


@given(counts())
def test_peg_points_equals_naive(laid):
    assert peg_points(laid) == naive_peg_points(laid)


def test_peg_points_runs_out_of_order_and_broken_by_pair():
    assert peg_points("4S 6D 5C 3H") == 4  # the last four form 3-4-5-6 laid in any order
    assert peg_points("3H AS 5C 2D 4H") == 5 + 2  # run A-2-3-4-5 laid in any order, count 15
    assert peg_points("4S 5D 5C") == 2  # pair, no run
    assert peg_points("5D 4S 5C 6H") == 3  # 4-5-6 at the tail; the earlier 5 is outside the window


def test_say_count_examples():
    assert say_count(count_hand("5H 5C 5S JD", "5D")).endswith(
        "a double pair royal is twenty-eight and one for his nob makes 29"
    )
    assert say_count(count_hand("5H 5C 5S JD", "5D")).startswith("fifteen two, fifteen four,")
    assert say_count(count_hand("AS 3D 7S 9S", "KD")) == "nineteen (nothing: 0)"
    assert say_count(count_hand("2S 2C 3D 4S", "2H")) == "a triple run of three makes 15"


def test_score_hands_rejects_bad_shapes_and_ids():
    with pytest.raises(ValueError, match="shape"):
        score_hands(np.zeros((3, 5), int), np.zeros(3, int))
    with pytest.raises(ValueError, match="starters"):
        score_hands(np.zeros((3, 4), int), np.zeros(2, int))
    with pytest.raises(ValueError, match="outside"):
        score_hands(np.full((1, 4), 52), np.zeros(1, int))


def test_say_count_steps_phrase_by_phrase():
    from analyzer.core.counting import say_count_steps

    # RULES.md: 5S 4S 2S 6H with 5H is 12: fifteens 4 and the double run 4-5-5-6, "2x3 + pair
    # 2", as players name it: the pair is said in the double run, not apart; the 29
    steps = say_count_steps(count_hand("5S 4S 2S 6H", "5H"))
    assert [(s.said, s.total) for s in steps] == [
        ("fifteen two", 2), ("fifteen four", 4), ("a double run of three makes 12", 12)]
    assert {format_cards(i.cards) for i in steps[-1].items} == {"5S 5H", "4S 5S 6H", "4S 5H 6H"}
    steps = say_count_steps(count_hand("5H 5C 5S JD", "5D"))
    assert [s.total for s in steps][-2:] == [28, 29]
    assert steps[-2].said == "a double pair royal is twenty-eight" and len(steps[-2].items) == 6
    assert say_count_steps(count_hand("AS 3D 7S 9S", "KD"))[0].items == ()
    # RULES.md's runs by name, each with its pairs: a double run 8, a triple run 15, a
    # double-double run 16; a double run of four is 10; a pair outside the runs is said apart
    for hand, starter, said in [
            ("2S 2C 3D 4S", "7H", "fifteen two and a double run of three makes 10"),
            ("2S 2C 2H 3D", "4S", "a triple run of three makes 15"),
            ("2S 3D 3H 4S", "4C", "a double double run of three makes 16"),
            ("4S 4D 5H 5S", "6C", "fifteen two, fifteen four, fifteen six, fifteen eight and a "
                                  "double double run of three makes 24"),
            ("9H 7H TD 8S", "8D", "fifteen two, fifteen four and a double run of four makes 14"),
            ("8H 8C AD 2S", "3H", "a pair is two and a run of three makes 5")]:
        assert say_count(count_hand(hand, starter)) == said, hand
    # the steps joined are say_count
    items = count_hand("2S 2C 3D 4S", "9C")
    said = [s.said for s in say_count_steps(items)]
    assert ", ".join(said[:-1]) + " and " + said[-1] == say_count(items)
