"""Five-card cribbage's three-card hands: the compiled scorer against the naive oracle, the
exact census, and every form's card counts (``variant=``)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from naive import naive_items, naive_score

from analyzer import CardError, count_hand, say_count, score_hand, score_hands, show_census
from analyzer.core.counting import _WORDS
from analyzer.core.game import VARIANTS
from analyzer.core.rules import MAX_SHOW_SCORE, MAX_THREE_CARD_SCORE
from analyzer.core.scoring import _census3, rank_table4

FIVE = "five-card"
four_cards = st.lists(st.integers(0, 51), min_size=4, max_size=4, unique=True)
suit_perms = st.permutations(range(4))


@given(four_cards)
def test_score_hand_equals_naive(cards):
    hand, starter = cards[:3], cards[3]
    points = score_hand(hand, starter, variant=FIVE)
    assert points == naive_score(hand, starter)
    assert score_hands(np.array([hand]), np.array([starter]), variant=FIVE)[0] == points


@given(four_cards)
def test_count_hand_items_equal_naive_items(cards):
    hand, starter = cards[:3], cards[3]
    items = count_hand(hand, starter, variant=FIVE)
    got = sorted((i.kind, tuple(sorted(i.cards)), i.points) for i in items)
    want = sorted((k, tuple(sorted(c)), p) for k, c, p in naive_items(hand, starter))
    assert got == want
    assert sum(i.points for i in items) == score_hand(hand, starter, variant=FIVE)
    total = sum(i.points for i in items)
    # said with the total last: "... makes 15", or "fifteen two" when a fifteen is the last thing
    assert say_count(items).endswith((f"makes {total}", f"fifteen {_WORDS[total]}",
                                      "nineteen (nothing: 0)"))


@given(four_cards, suit_perms)
def test_suit_permutation_invariance(cards, perm):
    relabelled = [(c // 4) * 4 + perm[c % 4] for c in cards]
    assert (score_hand(cards[:3], cards[3], variant=FIVE)
            == score_hand(relabelled[:3], relabelled[3], variant=FIVE))


def test_score_hands_equals_naive_on_seeded_sample():
    rng = np.random.default_rng(61)
    deals = np.argsort(rng.random((5000, 52)), axis=1)[:, :4]
    got = score_hands(deals[:, :3], deals[:, 3], variant=FIVE)
    assert got.tolist() == [naive_score(row[:3], row[3]) for row in deals.tolist()]


def test_flush_and_nobs_cases():
    # Three hand cards of one suit: 3, with the starter of that suit too: 4; a Jack of each suit.
    hands, starters = [], []
    for suit in range(4):
        flush = [r * 4 + suit for r in (0, 2, 10)]  # A 3 J of one suit
        for starter in (12 * 4 + suit, 12 * 4 + (suit + 1) % 4, 6 * 4 + suit):
            hands.append(flush)
            starters.append(starter)
    got = score_hands(np.array(hands), np.array(starters), variant=FIVE)
    want = [naive_score(h, s) for h, s in zip(hands, starters, strict=True)]
    assert got.tolist() == want
    # A 3 J clubs + K clubs: flush 4, nobs 1, 15s A+3+J? no (14); 3+... none: 5
    assert score_hand("AC 3C JC", "KC", variant=FIVE) == 5


def test_rank_table4_against_naive_for_every_rank_multiset():
    # Every sorted set of four ranks (1,820), as four cards of four different suits, so that
    # neither a flush nor nobs can score: the table entry is the oracle's whole score.
    table = rank_table4()
    assert table.shape == (13**4,) and not table.flags.writeable
    for ranks in combinations_with_replacement(range(13), 4):
        ids = [r * 4 + k for k, r in enumerate(ranks)]
        index = ((ranks[0] * 13 + ranks[1]) * 13 + ranks[2]) * 13 + ranks[3]
        assert table[index] == naive_score(ids[:3], ids[3]), ranks


# --------------------------------------------------------------------------- the census


def test_census_counts_every_case_once():
    census = show_census(variant=FIVE)
    assert census.shape == (30,) and census.dtype == np.int64
    assert census.sum() == 22_100 * 49 == 1_082_900
    assert census[MAX_THREE_CARD_SCORE] == 4  # three fives and the fourth five cut, 4 ways
    assert not census[MAX_THREE_CARD_SCORE + 1:].any()
    points = np.arange(30)
    assert round((census * points).sum() / census.sum(), 4) == 2.5924
    # the crib of five-card cribbage is four cards: the standard crib census
    assert np.array_equal(show_census(crib=True, variant=FIVE), show_census(crib=True))


@pytest.mark.parametrize("starter", [0, 17, 41, 51])  # AC, 5D, JD, KS
def test_census_row_equals_naive_enumeration(starter):
    # The kernel's histogram for one starter against the oracle over all C(51, 3) = 20,825 hands.
    rows = np.zeros((52, MAX_SHOW_SCORE + 1), np.int64)
    _census3(0, 52, rank_table4(), rows)
    others = [c for c in range(52) if c != starter]
    want = Counter(naive_score(h, starter) for h in combinations(others, 3))
    got = rows[starter]
    assert got.sum() == 20_825
    assert {k: int(v) for k, v in enumerate(got) if v} == dict(want)


@pytest.mark.slow
def test_census_equals_naive_enumeration_by_suit_symmetry():
    # Every starter of one rank gives the same histogram (suits are symmetric), so the census is
    # four times the naive histograms of the 13 club starters: 270,725 naive scores.
    want = Counter()
    for rank in range(13):
        starter = rank * 4
        others = [c for c in range(52) if c != starter]
        want.update(naive_score(h, starter) for h in combinations(others, 3))
    census = show_census(variant=FIVE)
    assert {k: int(v) for k, v in enumerate(census) if v} == {k: 4 * v for k, v in want.items()}


# --------------------------------------------------------------------------- card counts


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_form_counts_its_own_number_of_cards(variant):
    game = VARIANTS[variant]
    hand = "5H 5C 5S JD" if game.kept == 4 else "5H 5C 5S"
    assert score_hand(hand, "5D", variant=variant) == naive_score(
        [int(c) for c in _ids(hand)], _ids("5D")[0])
    assert score_hand("5H 5C 5S JD", "5D", crib=True, variant=variant) == 29  # the crib: four
    wrong = "5H 5C 5S JD" if game.kept == 3 else "5H 5C 5S"
    with pytest.raises(CardError, match=f"expected {game.kept} cards.*a {variant} hand holds"):
        score_hand(wrong, "5D", variant=variant)
    with pytest.raises(CardError, match=f"a {variant} hand holds {game.kept}"):
        count_hand(wrong, "5D", variant=variant)
    with pytest.raises(CardError, match=f"a {variant} hand holds {game.kept}"):
        score_hands(np.zeros((1, 7 - game.kept), int), np.zeros(1, int), variant=variant)


def test_five_card_crib_refuses_three_cards_and_unknown_forms_are_refused():
    with pytest.raises(CardError, match="expected 4 cards.*a five-card crib holds 4"):
        score_hand("5H 5C 5S", "5D", crib=True, variant=FIVE)
    with pytest.raises(ValueError, match="unknown variant 'seven-card'"):
        score_hand("5H 5C 5S JD", "5D", variant="seven-card")
    with pytest.raises(ValueError, match="unknown variant"):
        show_census(variant="six")


def _ids(text: str) -> list[int]:
    from naive import cards

    return cards(text)
