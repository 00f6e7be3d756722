"""The Python API refuses what it cannot mean, naming the argument: a role or crib flag that is
not a bool (``"pone"`` is true, so it was read as the dealer), a win-odds table of the wrong
shape (read unchecked by the kernels), hands of the wrong shape."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer import (
    advise_play,
    count_hand,
    crib_distribution,
    crib_means,
    evaluate_discards,
    format_cards,
    format_review,
    keep,
    keep_many,
    keep_to_win,
    parse_cards,
    play_from_score,
    say_count,
    score_hand,
)
from analyzer.keeping.crib import card_values, crib_values
from analyzer.research import plots

HAND = "5H 5S 6D JC QS KH"
ROLE_TAKERS = [
    lambda dealer: keep(HAND, dealer=dealer),
    lambda dealer: keep(HAND, dealer=dealer, crib="uniform"),
    lambda dealer: keep("5H 5S 6D JC QS", dealer=dealer, variant="five-card"),
    lambda dealer: evaluate_discards(HAND, dealer),
    lambda dealer: keep_many(np.array([parse_cards(HAND)]), dealer),
    lambda dealer: crib_distribution(HAND, dealer),
    lambda dealer: crib_means(HAND, dealer, crib="weighted"),  # the pone got the dealer's
    lambda dealer: keep_to_win(HAND, dealer, (100, 100), samples=8),
    lambda dealer: play_from_score(96, 110, dealer, games=2),
]


@pytest.mark.parametrize("call", ROLE_TAKERS)
@pytest.mark.parametrize("value", ["pone", "False", 1, 0, None])
def test_a_role_that_is_not_a_bool_is_refused(call, value):
    with pytest.raises(ValueError, match=f"^dealer must be True or False, got {value!r}$"):
        call(value)


def test_no_five_card_game_is_played_from_a_score_before_the_pones_three():
    # an audit's play_from_score(0, 0, ..., variant="five-card"), games with no three for last
    with pytest.raises(ValueError, match="^score 0, 0: in five-card the pone pegs 3 before"):
        play_from_score(0, 0, True, games=2, variant="five-card")
    assert play_from_score(0, 3, True, games=2, variant="five-card")["games"] == 2
    # every deal pegs at least the go: 3 points in all are the first deal's, all the pone's
    # (an audit's odds of the dealer at 3 to 0)
    first = "in five-card 3 points in all are the first deal's, the pone's 3 for last"
    with pytest.raises(ValueError, match=f"^score 3, 0: {first}"):
        play_from_score(3, 0, True, games=2, variant="five-card")
    from analyzer import keep_to_win, win_probability
    from analyzer.play.searchforms import advise_play_forms
    from analyzer.play.seat import SeatError, discard, lay

    with pytest.raises(ValueError, match=f"^score 0, 3: {first}"):
        win_probability(0, 3, False, variant="five-card")
    assert win_probability(3, 0, False, variant="five-card") > 0.5  # the pone's 3
    with pytest.raises(ValueError, match=f"score 3, 0: {first}"):
        keep_to_win("5H 5S 6D JC KH", True, (3, 0), samples=8, variant="five-card")
    with pytest.raises(ValueError, match=f"^score 0, 3: {first}"):  # side 0 is the pone's
        advise_play_forms("8H 2C KD", [], seat=0, dealer=1, starter="4S",
                          variant="five-card", score=(0, 3))
    with pytest.raises(SeatError, match=f"^scores: score 0, 3: {first}"):
        discard("best", "5H 5S 6D JC KH", own_crib=False, scores=(0, 3), variant="five-card")
    with pytest.raises(SeatError, match=f"^scores: score 0, 3: {first}"):
        lay("best", "8H 2C KD", [], seat=0, dealer=1, starter="4S", thrown="9S 9D",
            scores=(0, 3), variant="five-card")


@pytest.mark.parametrize("scores", [5, None, {100, 60, 90}, "abc", (100, 60)])
def test_three_player_odds_want_three_scores_in_seat_order(scores):
    # an audit's win_probability3(5, 0): TypeError, object of type 'int' has no len(); a set
    # was taken, in whatever order it iterates
    from analyzer.keeping.winodds import win_probability3
    from analyzer.research.odds3 import play_from_score3

    message = r"^scores: three scores, one a seat \(by seat 0, 1, 2\), got "
    with pytest.raises(ValueError, match=message):
        win_probability3(scores, 0)
    with pytest.raises(ValueError, match=message):
        play_from_score3(scores, 0, games=2)


@pytest.mark.parametrize("variant", ["six-card", "five-card", "three-player"])
def test_one_sample_of_the_play_has_no_standard_error(variant):
    # an audit's advise_play(..., samples=1): standard errors of 0.0, as if the means were exact
    hand, scores = {"six-card": ("5H 6D JC QS", (100, 110)), "five-card": ("5H 6D JC", (50, 55)),
                    "three-player": ("5H 6D JC QS", (100, 110, 105))}[variant]
    kw = {"dealer": False} if variant == "six-card" else {"variant": variant, "dealer": 0,
                                                           "seat": 1}
    one = advise_play(hand, [], starter="2C", samples=1, score=scores, **kw)
    two = advise_play(hand, [], starter="2C", samples=2, score=scores, **kw)
    assert one["rest_se"].isna().all() and one["p_win_se"].isna().all()
    assert two["rest_se"].notna().all() and two["p_win_se"].notna().all()


def test_a_six_card_play_given_as_seat_and_card_pairs_is_named():
    # an audit's advise_play("5H 5S JC QS", [(1, "9D")], ...): "expected 1 card, got 2: AD 9D"
    with pytest.raises(ValueError, match=r"^played\[0\] is \(1, '9D'\), a \(seat, card\) pair: "
                                         "the six-card game's play is the cards alone"):
        advise_play("5H 5S JC QS", [(1, "9D")], dealer=True, starter="2C", samples=2)
    assert advise_play("5H 5S JC QS", ["9D"], dealer=True, starter="2C", samples=2).attrs[
        "count"] == 9


def test_a_table_or_a_cut_given_a_stream_that_cannot_draw_is_refused():
    # an audit's Table(..., state=np.zeros(4, np.uint64)).play() cut for deal for ever
    from analyzer.play.engine import cut_for_deal
    from analyzer.table.tabletop import Table

    with pytest.raises(ValueError, match="^state: an all-zero state draws the same number"):
        Table(("ev+greedy", "ev+greedy"), state=np.zeros(4, np.uint64))
    with pytest.raises(ValueError, match="^st: an all-zero state draws the same number"):
        cut_for_deal(np.zeros(4, np.uint64), np.zeros(2, np.int64))
    with pytest.raises(ValueError, match=r"^state: a writable uint64 \(4,\) xoshiro256\*\* "):
        Table(("ev+greedy", "ev+greedy"), state=[1, 2, 3, 4])
    record = Table(("ev+greedy", "ev+greedy"), state=np.array([1, 2, 3, 4], np.uint64)).play()
    assert max(record["scores"]) >= 121


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


@pytest.mark.parametrize(("fill", "said"), [(7.0, "7.0"), (np.nan, "nan"), (-0.5, "-0.5")])
def test_an_odds_table_of_what_is_no_probability_is_refused(fill, said):
    # it was read as it was: a P(win) of -6.0, or NaN with a keep named to win
    odds = np.full((122, 122), 0.5)
    odds[3, 4] = fill
    message = rf"^odds: every entry a probability from 0 to 1; odds\[3, 4\] is {said}$"
    with pytest.raises(ValueError, match=message):
        keep_to_win(HAND, True, (100, 100), samples=8, odds=odds)
    with pytest.raises(ValueError, match=message):
        advise_play("5H 6D JC QS", dealer=False, starter="2C", score=(100, 100), samples=8,
                    odds=odds)
    five = np.full((62, 62), 0.5)
    five[3, 4] = fill
    with pytest.raises(ValueError, match=message):
        keep_to_win("5H 5S 6D JC KH", True, (50, 50), samples=8, odds=five, variant="five-card")
    three = np.full((3, 122, 122, 122), 1 / 3)
    three[0, 3, 4, 5] = fill
    with pytest.raises(ValueError, match=rf"^odds: every entry a probability from 0 to 1; "
                                         rf"odds\[0, 3, 4, 5\] is {said}$"):
        keep_to_win("5H 5S 6D JC KH", True, (100, 100, 100), samples=8, odds=three,
                    variant="three-player")


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
    many = keep_many(np.array([parse_cards(HAND), parse_cards("AH 2S 3D 4C 5S 6H")]), False)
    with pytest.raises(ValueError, match="draws one hand's keeps; the table holds 2 hands"):
        discard_chart(many)
    assert len(discard_chart(many[many["hand"] == HAND]).axes) == 2
    table = pd.DataFrame({"card1": ["5"], "card2": ["5"], "dealer": [8.5], "pone": [8.1]})
    assert compare_crib_tables(table, table)["pairs"] == 1
    with pytest.raises(TypeError, match=r"^ours \(a rank-only crib table\) must be a pandas "):
        compare_crib_tables(None, table)
    with pytest.raises(ValueError, match=r"^the reference \(a rank-only crib table\) needs the "
                       r"columns card1, card2, dealer, pone; missing pone$"):
        compare_crib_tables(table, table.drop(columns="pone"))
    with pytest.raises(ValueError, match="has no rows$"):
        compare_crib_tables(table, table.iloc[:0])


def test_a_crib_table_of_one_kind_of_throw_refuses_the_others_views():
    from analyzer.research.plots import crib_heatmap
    from analyzer.research.tables import build_crib_table

    two = build_crib_table(deals=500, seed=1, max_iterations=1)
    assert len(two.table) == 169 and len(two.rank_table) == 91
    with pytest.raises(ValueError, match="^six-card throws two cards to the crib: its tables "
                       "are table .* not card_table$"):
        _ = two.card_table
    one = build_crib_table(deals=500, seed=1, max_iterations=1, variant="four-player")
    assert len(one.card_table) == 13
    for view in ("table", "rank_table"):
        with pytest.raises(ValueError, match="^four-player throws one card to the crib: its "
                           "table is card_table"):
            getattr(one, view)
    # the full table holds a pair's suited and unsuited throws: the heat map would draw one
    # of them over the other, so it takes the rank table only
    assert len(crib_heatmap(two.rank_table).axes) >= 2
    with pytest.raises(ValueError, match="one row per rank pair .* got 169 rows for 91 pairs"):
        crib_heatmap(two.table)


def test_flags_of_the_runs_and_the_seat_must_be_bools():
    from analyzer import simulate
    from analyzer.play.seat import SeatError, discard

    for name in ("progress", "resume"):
        with pytest.raises(ValueError, match=f"^{name} must be True or False, got 'no'$"):
            simulate(10, seed=1, **{name: "no"})
    with pytest.raises(ValueError, match="^pegging must be True or False, got 'no'$"):
        keep(HAND, dealer=True, pegging="no")
    with pytest.raises(SeatError, match="^own_crib must be True or False, got 'no'$"):
        discard("ev+greedy", HAND, own_crib="no")
    # three-player ignores the scores: two, or all three as lay takes them, alike
    hand = "5H 5S 6D JC KH"
    assert discard("best", hand, own_crib=False, scores=(100, 110, 90),
                   variant="three-player") == discard("best", hand, own_crib=False,
                                                      scores=(100, 110), variant="three-player")
    # ... and a refusal says so, not "2 ... one a side" (three sides); nor is a seat of three
    # players on "the dealer's side (even)" (an audit's)
    for scores in ((121, 0, 0), (0,), (1, 2, 3, 4)):
        with pytest.raises(SeatError, match=r"^scores: in three-player 2 or 3 whole numbers 0 "
                                            r"to 120 \(the seat's first; its discard does not "
                                            r"read them\), got "):
            discard("best", hand, own_crib=False, scores=scores, variant="three-player")
    with pytest.raises(SeatError, match="^position: the seat's place from the dealer, 0 to 2, "
                                        "0, the dealer, exactly when own_crib, got 2$"):
        discard("best", hand, own_crib=True, variant="three-player", position=2)
    with pytest.raises(SeatError, match=r"^position: .* 0 to 3, on the dealer's side \(even\) "
                                        "exactly when own_crib, got 1$"):
        discard("best", hand, own_crib=True, variant="four-player", position=1)


def test_a_run_refuses_what_it_would_ignore_and_resumes_with_its_own_seed(tmp_path):
    from analyzer import simulate
    from analyzer.sim.harness import play_hands
    from analyzer.sim.runs import RunError

    with pytest.raises(ValueError, match="^scheduler='local' goes with backend='dask'"):
        simulate(10, seed=1, scheduler="local")
    with pytest.raises(ValueError, match="^time_limit must be a number, got 'soon'$"):
        simulate(10, seed=1, time_limit="soon")
    with pytest.raises(ValueError, match="^players: a player's name"):
        simulate(10, seed=1, players=None)
    for seed, message in ((-1, "at least 0, got -1"), (1.5, "a whole number, got 1.5")):
        with pytest.raises(ValueError, match=f"^seed must be {message}$"):
            play_hands("5H 5S JC QS", "2C 3D 4H 6S", pegging="random", seed=seed)
    folder = tmp_path / "run"
    simulate(3000, seed=3, players="ev+greedy", checkpoint=folder, max_chunks=1, workers=1)
    resumed = simulate(3000, players="ev+greedy", checkpoint=folder, resume=True, workers=1)
    straight = simulate(3000, seed=3, players="ev+greedy", workers=1)
    assert resumed.seed == 3 and np.array_equal(resumed.acc, straight.acc)
    (tmp_path / "a file").write_text("x")
    with pytest.raises(RunError, match="a file: a checkpoint is a folder"):
        simulate(10, seed=1, checkpoint=tmp_path / "a file")


def test_the_seat_refuses_a_go_where_every_card_fits():
    from analyzer.play.seat import SeatError, lay

    table = dict(seat=0, dealer=0, starter="2C", thrown="6D KH", scores=(100, 110))
    with pytest.raises(SeatError, match=r"^played\[2\]: seat 1 said go at a count of 7, where "
                       r"every card fits"):
        lay("best", "5H 5S JC QS", [(1, "2D"), (0, "5H"), (1, None)], **table)
    with pytest.raises(SeatError, match=r"^played\[0\]: seat 1 said go at a count of 0"):
        lay("best", "5H 5S JC QS", [(1, None)], **table)
    # past 21 a ten no longer fits: a go there is a hand of such cards, and the play goes on
    # (at 23 the 5H is the one card that fits)
    assert lay("ev+greedy", "5H 9S AC QS", [(1, "TD"), (0, "QS"), (1, "2D"), (0, "AC"),
                                            (1, None)], **table) == parse_cards("5H")[0]


def test_the_plots_take_a_duel_and_name_what_else_they_take():
    from analyzer import duel, simulate

    d = duel("ev+greedy", "random+random", 200, seed=1, workers=1)
    assert len(plots.game_report(d).axes) == 4
    # a duel's seat 0 is its player A: the head-to-head figure is the duel's own win rate
    table = plots._head_to_head_table({("ev+greedy", "random+random"): d})
    assert table["value"].tolist() == [d.win_rate]
    r = simulate(200, seed=1, workers=1)
    with pytest.raises(TypeError, match=r"^expected a dict \{\(player_a, player_b\): result\}"):
        plots.policy_comparison([r, r])
    with pytest.raises(ValueError, match="keys are pairs of players"):
        plots.policy_comparison({"a": r})
    with pytest.raises(TypeError, match="^expected a SimulationResult .* got list$"):
        plots.game_report([r])


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: crib_values("table", variant="x"), ValueError, "^unknown variant 'x'"),
    (lambda: crib_values("table", variant="three-player"),
     ValueError, "three-player throws one card: its table is analyzer.keeping.crib.card_values"),
    (lambda: card_values("table", "six-card"), ValueError, "six-card throws two cards"),
    (lambda: format_review("x"), TypeError,
     "^review: the Review that review_game returns, got str$"),
    (lambda: plots.game_rates([]), ValueError, "^results: no simulation to draw"),
    (lambda: plots.show_distribution([1, 2, 3], None), ValueError,
     r"^hand: the 30 counts of show scores .* shape \(3,\)$"),
    (lambda: advise_play("4C 5H 9S KD", None, dealer=False, starter="2S"), TypeError,
     "^played: .*got None$"),
    (lambda: format_cards(None), ValueError, "^cards: .*got None$"),
    (lambda: say_count(None), TypeError, "^items: .*got None$"),
    # the goes' reading is the other forms' (six-card reads its goes from the cards)
    (lambda: advise_play("4C 5H 9S KD", "4C", dealer=False, starter="2S", goes="table"),
     ValueError, "^goes: only in the other forms"),
    (lambda: advise_play("8H 2C KD", "0:7C", seat=1, dealer=1, starter="4S",
                         variant="five-card", goes="said"),
     ValueError, "^goes: 'engine' or 'table', got 'said'$"),
    # three-player reads its own table too: the message named none there (an audit's)
    (lambda: advise_play("8H 2C KD QS", "1:7C", seat=2, dealer=0, starter="4S",
                         variant="three-player", odds=np.zeros((122, 122))),
     ValueError, "^odds: in three-player the search reads the form's shipped table; leave "
                 "odds out$"),
])
def test_a_wrong_argument_is_one_line_naming_it(call, error, message):
    """Arguments of the wrong kind are refused with what was expected, not an error from deep
    inside (an AttributeError, a ZeroDivisionError, numpy's broadcasting, 'NoneType' is not
    iterable)."""
    with pytest.raises(error, match=message):
        call()
