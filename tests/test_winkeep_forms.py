"""The score-aware keep in five-card and four-player (analyzer.play.winkeepforms): keeps that
surely win, the win-odds table read when nobody can reach the target, the table's own value over
many hands, the same seed, bad input and the command."""

import json

import numpy as np
import pytest

from analyzer import format_cards, keep_to_win
from analyzer.core.cards import as_cards
from analyzer.core.choices import FORM_POSITIONS
from analyzer.keeping.winodds import win_probability
from analyzer.play.engine import POSITIONS

HAND = "9H 9S KD 2C AS"  # no fifteen in any three or four of them: only the 9s score alone
PAIR_KEEPS = {"five-card": 3, "four-player": 3}  # the keeps holding both 9s


def test_the_positions_are_the_engines_places():
    assert FORM_POSITIONS == POSITIONS[4]


@pytest.mark.parametrize("variant", ["five-card", "four-player"])
def test_the_others_keep_as_the_engines_ev_discard_step(variant):
    from analyzer.core.choices import DISCARD_POLICIES
    from analyzer.core.game import VARIANTS
    from analyzer.core.rng import chunk_states
    from analyzer.play.engine import _discard_one
    from analyzer.play.reads import player_tables
    from analyzer.play.winkeepforms import _ev_keep

    game = VARIANTS[variant]
    t = player_tables(variant, ("ev+greedy",) * game.players)
    st = chunk_states(1, 1)[0]
    rng = np.random.default_rng(3)
    k, n = game.kept, game.thrown
    for _ in range(200):
        hand = rng.choice(52, 5, replace=False).astype(np.int64)
        own = bool(rng.integers(2))
        kept, thrown, kept2, thrown2 = (np.empty(m, np.int64) for m in (k, n, k, n))
        _discard_one(st, game.as_array(), hand, own, np.int64(DISCARD_POLICIES["ev"]),
                     np.zeros(2, np.int64), 0, 0, t.crib_values, t.card_values, t.hand_table,
                     t.rank_table, None, None, kept, thrown)
        _ev_keep(hand, own, t.crib_values, t.card_values, t.hand_table, st, kept2, thrown2)
        assert kept.tolist() == kept2.tolist() and thrown.tolist() == thrown2.tolist()


@pytest.mark.parametrize(("variant", "score", "position"), [
    # five-card: the pone needs 2 and counts first; the dealer (20 short) cannot peg 20 in one
    # count of three cards each with his heels before the pone's hand is counted
    ("five-card", (59, 41), None),
    # four-player: my side needs 2; first counts before anyone, third after the dealer's partner,
    # and the dealer's side, 51 short, cannot get there in the play and one hand
    ("four-player", (119, 70), "first"),
    ("four-player", (119, 70), "third"),
])
def test_a_keep_that_surely_wins_is_ranked_first_with_p_win_1(variant, score, position):
    df = keep_to_win(HAND, dealer=False, score=score, samples=512, seed=4, variant=variant,
                     position=position)
    pair = df["keep"].str.contains("9H") & df["keep"].str.contains("9S")
    assert pair.sum() == PAIR_KEEPS[variant]
    assert pair.iloc[:PAIR_KEEPS[variant]].all()  # ranked first
    assert (df.loc[pair, "p_win"] == 1.0).all() and (df.loc[pair, "p_win_se"] == 0.0).all()
    assert "9H" in df.attrs["win_keep"] and "9S" in df.attrs["win_keep"]
    if variant == "five-card":  # without the pair the dealer's show can still come first
        assert (df.loc[~pair, "p_win"] < 0.99).all()


def _flat_odds(target, c):
    """A win-odds table that is ``c`` wherever neither side has reached the target."""
    odds = np.full((target + 1, target + 1), c)
    odds[0, :], odds[:, 0] = 1.0, 0.0
    return odds


@pytest.mark.parametrize(("variant", "score", "dealer", "position"), [
    ("five-card", (0, 3), True, None), ("five-card", (3, 0), False, None),  # the pone's 3
    ("four-player", (0, 0), True, "dealer"), ("four-player", (0, 0), False, "first"),
    ("four-player", (0, 0), True, "second"), ("four-player", (0, 0), False, "third"),
])
def test_when_nobody_can_reach_the_target_p_win_is_the_next_deals_odds(variant, score, dealer,
                                                                       position):
    # The next deal is dealt by the seat on the dealer's left: the side that did not deal, whose
    # chance the table gives; so the dealing side's P(win) is 1 - 0.3, the other's 0.3, for every
    # keep and sample.
    target = 61 if variant == "five-card" else 121
    df = keep_to_win(HAND, dealer, score, samples=128, variant=variant, position=position,
                     odds=_flat_odds(target, 0.3))
    expected = 0.7 if dealer else 0.3
    assert np.allclose(df["p_win"], expected, rtol=0, atol=1e-12)
    assert np.allclose(df["p_win_se"], 0.0, atol=1e-12)
    assert df.attrs["win_keep"] == df.attrs["points_keep"] == df.loc[df["net"].idxmax(), "keep"]


@pytest.mark.parametrize(("variant", "score"), [("five-card", (20, 23)), ("four-player", (0, 0)),
                                                ("four-player", (100, 95))])
@pytest.mark.parametrize("dealer", [True, False])
def test_over_many_hands_the_points_keep_wins_as_often_as_the_table_says(variant, score, dealer):
    # The table is the chance at the start of a deal for players keeping by ev (self-play with
    # lookahead pegging); averaged over dealt hands, the points keep's P(win) must agree with it
    # (greedy pegging in the samples: within 0.035, about four standard errors of the mean).
    rng = np.random.default_rng(11)
    p = []
    for h in range(40):
        df = keep_to_win(rng.choice(52, 5, replace=False), dealer, score, samples=256, seed=h,
                         variant=variant)
        p.append(df.loc[df["keep"] == df.attrs["points_keep"], "p_win"].item())
    assert np.mean(p) == pytest.approx(win_probability(*score, dealer, variant), abs=0.035)


@pytest.mark.parametrize("variant", ["five-card", "four-player"])
def test_same_seed_same_frame_and_a_new_seed_a_new_sample(variant):
    a = keep_to_win("5H 5S 6D JC KH", True, (40, 50), samples=256, seed=5, variant=variant)
    b = keep_to_win("5H 5S 6D JC KH", True, (40, 50), samples=256, seed=5, variant=variant)
    c = keep_to_win("5H 5S 6D JC KH", True, (40, 50), samples=256, seed=6, variant=variant)
    assert a.equals(b) and a.attrs == b.attrs
    assert not a["p_win"].equals(c["p_win"])
    assert len(a) == (10 if variant == "five-card" else 5)
    assert a["p_win"].is_monotonic_decreasing


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"variant": "three-player"}, "three-player takes three scores"),
    ({"variant": "five-card", "score": (61, 0)}, "at most 60"),
    ({"variant": "five-card", "score": (1, 2)}, "pegs 3 before the first deal"),
    ({"variant": "four-player", "score": (121, 0)}, "at most 120"),
    ({"variant": "four-player", "score": (3.5, 2)}, "whole number"),
    ({"variant": "four-player", "score": "110"}, "two numbers"),
    ({"variant": "four-player", "position": "first"}, "the other side deals"),
    ({"variant": "four-player", "position": "north"}, "one of dealer, first"),
    ({"variant": "five-card", "position": "second"}, "in five-card say dealer=True or False"),
    ({"variant": "five-card", "position": "dealer"}, "in five-card say dealer=True or False"),
    ({"variant": "six-card", "position": "dealer"}, "for three-player and four-player"),
    ({"variant": "four-player", "odds": np.zeros((62, 62))}, "(122, 122)"),
])
def test_bad_input_is_one_plain_error(kwargs, message):
    args = {"score": (40, 50), **kwargs}
    cards = HAND + (" QC" if args["variant"] == "six-card" else "")
    with pytest.raises(ValueError, match=None) as err:
        keep_to_win(cards, True, samples=64, **args)
    assert message in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize(("variant", "score", "position", "argument"), [
    ("three-player", (40, 50), None, "score"),
    ("five-card", (61, 0), None, "me"),
    ("five-card", (40, 75), None, "opp"),
    ("five-card", (1, 2), None, "score"),
    ("four-player", (40, 50), "first", "position"),
    ("six-card", (40, 121), None, "opp"),
    ("six-card", (40, 50), "dealer", "position"),
])
def test_the_checks_name_the_argument_and_say_what_keep_to_win_says(variant, score, position,
                                                                    argument):
    # check_win_keep (what a face calls to put the message beside its input) refuses exactly as
    # keep_to_win does, naming the argument
    from analyzer.core.errors import ArgumentError
    from analyzer.play.winkeep import check_win_keep

    cards = HAND + (" QC" if variant == "six-card" else "")
    with pytest.raises(ValueError) as said:
        keep_to_win(cards, True, score, samples=64, variant=variant, position=position)
    with pytest.raises(ArgumentError) as checked:
        check_win_keep(True, score, variant, position)
    assert checked.value.argument == argument and str(checked.value) == str(said.value)


def test_a_six_card_hand_in_five_card_is_refused():
    from analyzer.core.cards import CardError

    with pytest.raises(CardError, match="dealt 5"):
        keep_to_win("5H 5S 6D JC QS KH", True, (40, 50), samples=64, variant="five-card")


def test_cli_keep_score_in_the_other_forms(capsys):
    from analyzer.cli import main

    argv = ["keep", *HAND.split(), "--pone", "--score", "59", "41", "--variant", "five-card",
            "--samples", "256"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("hand AS 2C 9H 9S KD as pone, five-card, you 59, opponent 41: P(win) "
                        "from 256 samples of the rest of the deal (seed 0)")
    assert lines[1].split() == ["keep", "discard", "net", "P(win)", "±se"]
    assert len(lines) == 2 + 10 + 2
    assert lines[2].startswith("  * 2C 9H 9S") and lines[2].endswith("1.0000  0.0000")
    assert lines[-2] == "points keep: 2C 9H 9S (P(win) 1.0000)"
    assert lines[-1].startswith("score-aware keep: the points keep")
    argv = ["keep", *HAND.split(), "--dealer", "--score", "100", "95", "--variant", "four-player",
            "--position", "second", "--samples", "128", "--top", "2", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["variant"] == "four-player" and out["position"] == "second"
    assert out["score"] == [100, 95] and out["samples"] == 128 and len(out["rows"]) == 2
    assert {"keep", "net", "p_win", "p_win_se"} <= set(out["rows"][0])
    for bad, says in ((["--variant", "three-player"], "three-player takes three scores"),
                      (["--variant", "four-player", "--position", "first"], "the other side"),
                      (["--position", "second"], "--position is for three-player and four-player"),
                      (["--variant", "five-card", "--score", "61", "0"], "at most 60")):
        cards = HAND.split() + (["QC"] if "--variant" not in bad else [])
        score = [] if "--score" in bad else ["--score", "40", "50"]
        assert main(["keep", *cards, "--dealer", *score, *bad]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and says in err and "Traceback" not in err


# --------------------------------------------------------------------------- best's discard


def _threshold_odds(me, points):
    """Five-card odds for the pone (the next dealer) at ``me``: it wins the game exactly when it
    scores ``points`` or more in the deal (nobody reaches 61 from 10 in one)."""
    odds = np.zeros((62, 62))
    for need in range(1, 62):
        odds[need, :] = 1.0 if 61 - need - me >= points else 0.0
    odds[0, :], odds[:, 0] = 1.0, 0.0
    return odds


def _best_forms(variant, hand, place, score, odds, reach, samples=64, seed=2):
    from analyzer.core.game import VARIANTS
    from analyzer.core.rng import chunk_states
    from analyzer.play.reads import player_tables
    from analyzer.play.winkeepforms import _best_discard_forms, _ev_way, _ways

    game = VARIANTS[variant]
    t = player_tables(variant, ("best",) * game.players)
    cards = np.array([int(c) for c in as_cards(hand)], np.int64)
    st = chunk_states(seed, 1)[0].copy()
    d = _best_discard_forms(game.as_array(), cards, np.int64(place), np.int64(score[0]),
                            np.int64(score[1]), st, t.crib_values, t.card_values, t.rank_table,
                            t.hand_table, np.array(odds, np.float64), np.int64(samples),
                            np.int64(reach), np.int64(16), 2.0)
    ev = _ev_way(cards, place % 2 == 0, game.thrown, t.crib_values, t.card_values, t.hand_table,
                 st)
    keeps = _ways(game.thrown)[0]
    return format_cards(sorted(cards[keeps[d]])), format_cards(sorted(cards[keeps[ev]]))


def test_best_leaves_the_ev_keep_for_one_that_surely_wins():
    # The pone wins exactly when it scores 4 in the deal: 3C 3D 9H holds a fifteen and a pair
    # (4 whatever comes); ev keeps the 7s (2 sure) and wins less than half the time.
    hand = "3C 3D 7C 7S 9H"
    chosen, ev = _best_forms("five-card", hand, 1, (10, 10), _threshold_odds(10, 4), reach=200)
    assert ev == "3D 7C 7S" and chosen == "3C 3D 9H"
    # out of reach of the target (the default reach) it does not sample: the ev keep
    chosen, _ = _best_forms("five-card", hand, 1, (10, 10), _threshold_odds(10, 4), reach=30)
    assert chosen == ev


@pytest.mark.parametrize(("variant", "place"), [("five-card", 0), ("five-card", 1),
                                                ("four-player", 0), ("four-player", 3)])
def test_best_keeps_the_ev_keep_when_every_keep_wins_alike(variant, place):
    # a flat table and scores nobody can win from in the deal: every keep is worth the same in
    # every sample, so nothing is ahead of the ev keep
    target = 61 if variant == "five-card" else 121
    for hand in ("5H 5S 6D JC KH", "AC 2D 3H 9S KC", "4H 4S 5C JD QH"):
        chosen, ev = _best_forms(variant, hand, place, (3, 0), _flat_odds(target, 0.4),
                                 reach=400)
        assert chosen == ev


def _form_decisions(records):
    from analyzer.sim.records import decisions

    for record in records:
        for d in decisions(record):
            if d["kind"] == "discard":
                yield d


@pytest.mark.parametrize(("variant", "players"), [
    ("five-card", ("best", "ev+lookahead")),
    ("four-player", ("ev+lookahead", "best", "ev+lookahead", "best")),
])
def test_the_engines_best_discard_is_ev_until_the_game_can_end(variant, players):
    from analyzer import simulate
    from analyzer.play.seat import discard
    from analyzer.play.winkeep import BEST_DISCARD_REACH
    from analyzer.play.winkeepforms import FOUR_PLAYER_REACH

    target = 61 if variant == "five-card" else 121
    reach = BEST_DISCARD_REACH if variant == "five-card" else FOUR_PLAYER_REACH
    records = simulate(60, seed=21, players=players, variant=variant, record_games=60,
                       workers=1).records
    far = near = switched = 0
    for d in _form_decisions(records):
        if players[d["seat"]] != "best":
            continue
        view = {k: v for k, v in d["view"].items()}
        ev = discard("ev+lookahead", **view)
        me, opp = view["scores"]
        if target - me > reach and target - opp > reach:
            assert sorted(d["answer"]) == sorted(ev)
            far += 1
        else:
            near += 1
            switched += sorted(d["answer"]) != sorted(ev)
    assert far > 50 and near > 50 and 0 < switched < near


def test_three_player_best_discards_as_ev():
    from analyzer import simulate
    from analyzer.play.seat import discard

    records = simulate(20, seed=5, players=("best", "ev+lookahead", "ev+greedy"),
                       variant="three-player", record_games=20, workers=1).records
    for d in _form_decisions(records):
        if d["seat"] == 0:
            assert sorted(d["answer"]) == sorted(discard("ev+lookahead", **d["view"]))
