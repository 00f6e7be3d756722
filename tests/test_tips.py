"""The tips put to the test (analyzer.research.tips): the rules, the positions, the summaries.

The values come from the public advice (advise_play, keep_to_win), tested elsewhere; here:

* each rule says follow or break as its words say, on cards written out by hand;
* the positions of recorded games are the advice's positions: the card laid is legal there
  (a count ended by goes marked as advise_play wants it), the score is the record's score at
  that moment, and exactly one choice of each position is the recorded one;
* tip_rows and summarise on a frame made by hand give the figures worked out by hand;
* the frame of values is the same whatever the number of processes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from analyzer import parse_cards, simulate
from analyzer.research import tips

RULES = {tip.name: tip for tip in tips.TIPS}


def _card(text: str) -> int:
    return int(parse_cards(text)[0])


def _lay(text: str, count: int = 0) -> dict:
    value = min(_card(text) // 4 + 1, 10)
    return {"card": _card(text), "count_after": count + value}


def _throw(text: str, role: str = "pone", **extra) -> dict:
    ranks = tuple(sorted(int(c) // 4 for c in parse_cards(text)))
    return {"thrown_ranks": ranks, "role": role, **extra}


def test_each_rule_says_what_its_words_say():
    assert not RULES["no 5 lead"].follows(_lay("5H")) and RULES["no 5 lead"].follows(_lay("4H"))
    assert RULES["lead a 4"].follows(_lay("4C")) and not RULES["lead a 4"].follows(_lay("AC"))
    low = RULES["lead low"].follows
    assert [low(_lay(c)) for c in ("AS", "4S", "5S", "KS")] == [True, True, False, False]
    count = RULES["not 5 or 21"].follows
    assert not count(_lay("5D")) and not count(_lay("6D", 15)) and not count(_lay("KD", 11))
    assert count(_lay("4D")) and count(_lay("6D", 14)) and count(_lay("AD", 30))
    assert not RULES["pone: no 5"].follows(_throw("5H KS"))
    assert RULES["pone: no 5"].follows(_throw("4H KS"))
    assert not RULES["pone: no pair"].follows(_throw("9H 9S"))
    apart = RULES["pone: apart"].follows
    assert [apart(_throw(t)) for t in ("9H 9S", "9H TS", "9H JS", "9H QS", "AH KS")] == \
        [False, False, False, True, True]
    ka = RULES["pone: K or A"].follows
    assert ka(_throw("KH 7S")) and ka(_throw("AH 7S")) and not ka(_throw("QH 7S"))
    assert not RULES["keep 5s"].follows(_throw("5C 9D", "dealer"))
    assert RULES["keep a 15"].follows({"kept_fifteen": True})
    feed = RULES["feed/starve"].follows
    assert feed(_throw("5C 5D", "dealer", crib_mean=7.0, crib_median=4.0))
    assert not feed(_throw("5C 5D", "pone", crib_mean=7.0, crib_median=4.0))
    assert feed(_throw("9C KD", "pone", crib_mean=3.5, crib_median=4.0))
    assert {tip.role for tip in tips.TIPS if tip.name.startswith("pone")} == {"pone"}


@pytest.fixture(scope="module")
def recorded():
    records = simulate(3, seed=11, players=("ev+lookahead", "ev+greedy"), record_games=3,
                       workers=1).records
    return records, *tips.positions(records)


def test_positions_hold_the_records_scores_and_choices(recorded):
    records, plays, discards = recorded
    deals = sum(len(r["deals"]) for r in records)
    assert len(discards) == 2 * deals
    assert sum(not p["played"] for p in plays) == sum(bool(d["plays"]) for r in records
                                                     for d in r["deals"])
    for p in plays:
        deal = records[p["game"]]["deals"][p["deal"]]
        laid = deal["plays"][len(p["played"])]
        assert (laid[0], _card(laid[1])) == (p["seat"], p["answer"])  # the card laid next
        # the score after the deal, less what the rest of the deal scored, is the score now
        later = [0, 0]
        for who, _, points in deal["plays"][len(p["played"]):]:
            later[who] += points
        for k, points in enumerate(deal["show"]):
            later[(deal["dealer"] + 1 + k) % 2 if k < 2 else deal["dealer"]] += points
        now = [deal["scores"][s] - later[s] for s in (0, 1)]
        if records[p["game"]]["deals"][-1] is deal and max(deal["scores"]) >= 121:
            continue  # the deal that ended the game was not scored to its end
        assert p["score"] == (now[p["seat"]], now[1 - p["seat"]])


def test_every_position_is_the_advices_and_its_choice_is_legal(recorded):
    _, plays, discards = recorded
    # the positions after a count ended by goes need the "go" marker: some are here
    after_goes = [p for p in plays if tips._advise(p, 1, 0)[2]]
    assert after_goes
    some = plays[:12] + after_goes[:4]
    choices = tips.value_choices(some, discards[:4], play_samples=64, keep_samples=64, seed=3)
    assert choices["pos"].nunique() == len(some) + 4
    assert (choices.groupby("pos")["chosen"].sum() == 1).all()
    assert (choices[choices["kind"] == "discard"].groupby("pos").size() == 15).all()
    assert choices["p_win"].between(0, 1).all()
    leads = choices[choices["kind"] == "lead"]
    assert (leads["count"] == 0).all() and (leads.groupby("pos").size() == 4).all()


def _made():
    """Two lead positions and a third: values chosen so that every figure is worked by hand."""
    rows = []
    for pos, cards, points, wins, chosen in [
            (0, ("5H", "4C", "KD", "9S"), (1.0, 0.5, -1.0, 0.0), (0.50, 0.49, 0.47, 0.48), "4C"),
            (1, ("5S", "5D", "TC", "2H"), (0.2, 0.2, -0.4, 0.8), (0.51, 0.51, 0.49, 0.52), "5S"),
            (2, ("6H", "7C", "8D", "9S"), (0.0, 0.1, 0.2, 0.3), (0.5, 0.5, 0.5, 0.5), "9S")]:
        for card, pt, w in zip(cards, points, wins, strict=True):
            rows.append({"pos": pos, "kind": "lead", "role": "pone", "me": 0, "opp": 0,
                         "hand": " ".join(cards), "chosen": card == chosen, "points": pt,
                         "p_win": w, "label": card, "card": _card(card), "count": 0,
                         "count_after": min(_card(card) // 4 + 1, 10), "rest_against": 1.0})
    return pd.DataFrame(rows)


def test_tip_rows_and_summarise_give_the_figures_worked_by_hand():
    rows = tips.tip_rows(_made(), [RULES["no 5 lead"], RULES["lead a 4"]])
    five = rows[rows["tip"] == "no 5 lead"].set_index("pos")
    assert list(five.index) == [0, 1]  # position 2 holds no 5: the rule cannot be broken there
    assert five.loc[0, ["points_follow", "points_break", "win_follow", "win_break"]].tolist() \
        == [0.5, 1.0, 0.49, 0.50]
    assert five.loc[1, ["points_follow", "points_break"]].tolist() == [0.8, 0.2]
    assert five["followed"].tolist() == [True, False]
    assert five["best_follows"].tolist() == [False, True]
    assert five.loc[0, "best_break"] == "5H"
    assert len(rows[rows["tip"] == "lead a 4"]) == 1  # only position 0 holds a 4
    s = tips.summarise(rows, [RULES["no 5 lead"]]).iloc[0]
    assert s["n"] == 2 and s["follows"] == 0.5 and s["wrong"] == 0.5
    assert s["cost"] == pytest.approx(((0.5 - 1.0) + (0.8 - 0.2)) / 2)
    half = tips.Z95 * np.std([-0.5, 0.6], ddof=1) / np.sqrt(2)
    assert (s["cost_low"], s["cost_high"]) == pytest.approx((0.05 - half, 0.05 + half))
    assert (s["follows_low"], s["follows_high"]) == pytest.approx(tips.wilson(1, 2))
    assert s["blind"] == pytest.approx(0.25)  # 0.5 lost by following at 0, nothing at 1
    b = tips.breaks(rows, "no 5 lead")
    assert b.to_dict("records") == [{"chosen": "5 on 0", "n": 1, "share": 1.0,
                                     "gain": pytest.approx(-0.6)}]


def test_wilson_holds_the_estimate_and_narrows():
    for k, n in [(0, 10), (3, 10), (10, 10), (500, 1000)]:
        low, high = tips.wilson(k, n)
        assert 0 <= low <= k / n <= high <= 1
    assert np.diff(tips.wilson(50, 100)) > np.diff(tips.wilson(500, 1000))


@pytest.mark.slow
def test_the_values_are_the_same_whatever_the_workers(recorded, capsys):
    _, plays, discards = recorded
    args = (plays[:30], discards[:20])
    one = tips.value_choices(*args, play_samples=64, keep_samples=64, seed=5)
    two = tips.value_choices(*args, play_samples=64, keep_samples=64, seed=5, workers=2)
    pd.testing.assert_frame_equal(one, two)
    # with a bar of the positions, the work in parts of a few dozen: the same frame
    capsys.readouterr()
    for workers in (1, 2):
        bar = tips.value_choices(*args, play_samples=64, keep_samples=64, seed=5,
                                 workers=workers, progress=True)
        pd.testing.assert_frame_equal(one, bar)
        assert "50/50" in capsys.readouterr().err
    # a first part with no plays: the columns in the same order all the same (a review's)
    few = (plays[:1], discards[:47])
    pd.testing.assert_frame_equal(
        tips.value_choices(*few, play_samples=8, keep_samples=8, seed=5),
        tips.value_choices(*few, play_samples=8, keep_samples=8, seed=5, progress=True))
