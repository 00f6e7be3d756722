"""The Python API refuses what it cannot mean, naming the argument: a role or crib flag that is
not a bool (``"pone"`` is true, so it was read as the dealer), a win-odds table of the wrong
shape (read unchecked by the kernels), hands of the wrong shape."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer import (
    count_hand,
    crib_distribution,
    evaluate_discards,
    keep,
    keep_many,
    keep_to_win,
    parse_cards,
    play_from_score,
    score_hand,
)

HAND = "5H 5S 6D JC QS KH"
ROLE_TAKERS = [
    lambda dealer: keep(HAND, dealer=dealer),
    lambda dealer: keep(HAND, dealer=dealer, crib="uniform"),
    lambda dealer: keep("5H 5S 6D JC QS", dealer=dealer, variant="five-card"),
    lambda dealer: evaluate_discards(HAND, dealer),
    lambda dealer: keep_many(np.array([parse_cards(HAND)]), dealer),
    lambda dealer: crib_distribution(HAND, dealer),
    lambda dealer: keep_to_win(HAND, dealer, (100, 100), samples=8),
    lambda dealer: play_from_score(96, 110, dealer, games=2),
]


@pytest.mark.parametrize("call", ROLE_TAKERS)
@pytest.mark.parametrize("value", ["pone", "False", 1, 0, None])
def test_a_role_that_is_not_a_bool_is_refused(call, value):
    with pytest.raises(ValueError, match=f"^dealer must be True or False, got {value!r}$"):
        call(value)


def test_numpys_bools_are_bools():
    assert keep(HAND, dealer=np.bool_(True)).equals(keep(HAND, dealer=True))
    assert keep(HAND, dealer=np.bool_(False)).attrs["role"] == "pone"


@pytest.mark.parametrize("call", [lambda crib: score_hand("AH 3H 7H 9H", "KS", crib=crib),
                                  lambda crib: count_hand("AH 3H 7H 9H", "KS", crib=crib)])
def test_the_crib_flag_is_a_bool(call):
    with pytest.raises(ValueError, match="^crib must be True or False, got 'False'$"):
        call("False")
    assert score_hand("AH 3H 7H 9H", "KS", crib=np.bool_(True)) == 0  # a crib's four-card flush
    assert score_hand("AH 3H 7H 9H", "KS", crib=False) == 4


def test_a_missing_starter_is_named():
    with pytest.raises(ValueError, match="^starter: one card is needed, got None$"):
        score_hand("AH 3H 7H 9H", None)


@pytest.mark.parametrize("odds", [np.full((1, 1), 0.3), np.full((10, 10), 0.5), np.ones(122)])
def test_keep_to_win_refuses_an_odds_table_of_another_shape(odds):
    with pytest.raises(ValueError, match=r"^odds: a \(122, 122\) table for six-card, got shape"):
        keep_to_win(HAND, True, (100, 100), samples=8, odds=odds)


def test_keep_many_names_the_shape_of_one_hand_given_alone():
    with pytest.raises(ValueError, match=r"shape \(n, 6\), got \(6,\)"):
        keep_many(parse_cards(HAND), True)
