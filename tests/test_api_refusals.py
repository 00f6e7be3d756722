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


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"games": 2.9}, "games must be a whole number, got 2.9"),
    ({"games": True}, "games must be a number, got True"),
    ({"games": 4, "seed": 1.9}, "seed must be a whole number, got 1.9"),
    ({"games": 4, "seed": 2**64}, "seed must be at most"),
    ({"games": 4, "workers": 1.5}, "workers must be a whole number, got 1.5"),
    ({"games": 4, "chunk_size": 10.9}, "chunk_size must be a whole number, got 10.9"),
])
def test_simulate_refuses_what_it_would_truncate(kwargs, message):
    from analyzer import simulate

    with pytest.raises(ValueError, match=f"^{message}"):
        simulate(kwargs.pop("games"), **kwargs)


def test_the_seat_refuses_a_seed_or_a_score_it_cannot_play():
    from analyzer.play.seat import Seat, discard

    for seed, message in ((-1, "seed must be at least 0, got -1"),
                          (1.5, "seed must be a whole number, got 1.5")):
        with pytest.raises(ValueError, match=f"^{message}$"):
            Seat("best", seed=seed)
    for scores in ((121, 0), (500, 0)):
        with pytest.raises(ValueError, match=r"^scores: 2 whole numbers 0 to 120"):
            discard("best", HAND, own_crib=True, scores=scores)
    assert len(Seat("best").discard(HAND, dealer=1, scores=(120, 0))) == 2


def test_review_game_takes_numpys_ints_for_the_seat():
    from analyzer import review_game, simulate

    record = simulate(2, seed=3, record_games=1, workers=1).records[0]
    assert str(review_game(record, seat=np.int64(1))) == str(review_game(record, seat=1))


def test_format_cards_takes_text_and_ids_and_truncates_nothing():
    from analyzer import format_cards

    assert format_cards("5h,5♠ 10D") == "5H 5S TD"
    assert format_cards([[18, 19], [21, 40]]) == format_cards(np.array([18, 19, 21, 40])) \
        == "5H 5S 6D JC"
    for bad in ([1.7, 51.9], [True], [52]):
        with pytest.raises(ValueError):
            format_cards(bad)


def test_the_seat_reads_the_play_as_text_as_crib_peg_does():
    from analyzer.play.seat import Seat

    given = dict(dealer=0, seat=0, starter="2C", thrown="KH KD")
    assert Seat("best").lay("5H 6D JC QS", "1:9C", **given) == \
        Seat("best").lay("5H 6D JC QS", [(1, "9C")], **given)
    with pytest.raises(ValueError, match="^played: '9C' is not SEAT:CARD or SEAT:go"):
        Seat("best").lay("5H 6D JC QS", "9C", **given)


def test_say_count_names_what_it_takes():
    from analyzer import say_count

    assert say_count(count_hand("5H 5S 5D JC", "5C")).endswith("one for his nob makes 29")
    with pytest.raises(TypeError, match="^items: the scoring items of a count"):
        say_count("fifteen")


def test_the_tables_functions_name_what_they_take():
    import pandas as pd

    from analyzer.research.plots import discard_chart
    from analyzer.research.tables import compare_crib_tables

    df = keep(HAND, dealer=False, crib="uniform")
    assert len(discard_chart(df).axes) == 2  # keep's table: drawn
    with pytest.raises(TypeError, match=r"^discard_chart's table \(analyzer.keep's\) must be "
                       r"a pandas DataFrame, got NoneType$"):
        discard_chart(None)
    with pytest.raises(ValueError, match="has no rows$"):
        discard_chart(df.iloc[:0])
    with pytest.raises(ValueError, match="missing net, hand_mean"):
        discard_chart(df.drop(columns=["net", "hand_mean"]))
    table = pd.DataFrame({"card1": ["5"], "card2": ["5"], "dealer": [8.5], "pone": [8.1]})
    assert compare_crib_tables(table, table)["pairs"] == 1
    with pytest.raises(TypeError, match=r"^ours \(a rank-only crib table\) must be a pandas "):
        compare_crib_tables(None, table)
    with pytest.raises(ValueError, match=r"^the reference \(a rank-only crib table\) needs the "
                       r"columns card1, card2, dealer, pone; missing pone$"):
        compare_crib_tables(table, table.drop(columns="pone"))
    with pytest.raises(ValueError, match="has no rows$"):
        compare_crib_tables(table, table.iloc[:0])
