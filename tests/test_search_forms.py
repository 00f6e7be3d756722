"""best's searched play in five-card, three- and four-player (analyzer.play.searchforms).

* The rollouts play the engine's play: from the start of a deal, every player laying as
  ``greedy``, :func:`_greedy_rollout_n` pegs what the engine's play (``play_hands``) pegs, card
  for card, in every form (go, 31, last card, five-card's one count).
* The advice, on the positions of recorded games: it lists exactly the legal cards (an
  independent count from the cards laid), says go when the engine's player said go, and a card
  that reaches the target now comes first (its points checked with ``peg_points``, the rules'
  examples' scorer), also where another card's total is higher.
* The engine's ``best`` does search in these forms (it lays otherwise than ``lookahead`` in some
  positions), and the seat API makes the engine's choices (tests/test_seat.py plays whole games
  of seat API calls against the engine's with ``best`` in every form; more cases here).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from replay_check import as_said_at_the_table

from analyzer import peg_points, simulate
from analyzer.core.cards import card_value, format_card, parse_card
from analyzer.core.game import VARIANTS
from analyzer.play.search import advise_play
from analyzer.play.searchforms import _greedy_rollout_n
from analyzer.sim.harness import play_hands
from analyzer.sim.records import decisions
from analyzer.table.tabletop import Table

FORMS = ["five-card", "three-player", "four-player"]


def _names(n: int) -> list[str]:
    return ["pone", "dealer"] if n == 2 else ["first", "second", "third"][:n - 1] + ["dealer"]


@pytest.mark.parametrize("variant", FORMS)
def test_the_rollout_plays_the_engines_greedy_play(variant):
    game = VARIANTS[variant]
    n, k = game.players, game.kept
    rng = np.random.default_rng(3)
    for _ in range(150):
        cards = rng.permutation(52)[:n * k]
        hands = cards.reshape(n, k)  # in turn order: the dealer's left first, the dealer last
        engine = play_hands(*[[int(c) for c in h] for h in hands], pegging="greedy",
                            variant=variant)
        kept = hands.astype(np.int64).copy()  # seat q = turn order q, the dealer seat n - 1
        pegged = np.zeros(n, np.int64)
        scores = np.zeros(game.teams, np.int64)
        _greedy_rollout_n(kept, np.zeros((n, k), np.bool_), np.full(n, k, np.int64),
                          np.zeros(n * k + 1, np.int64), np.int64(0), np.int64(0), np.int64(0),
                          np.int64(-1), np.int64(0), scores, np.bool_(game.one_count),
                          np.int64(1 << 40), pegged)
        assert [engine["pegged"][w] for w in _names(n)] == pegged.tolist(), hands


def _advice_args(view: dict, samples: int = 40, score=None) -> dict:
    return {"hand": view["hand"], "played": view["played"], "seat": view["seat"],
            "dealer": view["dealer"], "starter": view["starter"], "thrown": view["thrown"],
            "score": view["scores"] if score is None else score, "variant": view["variant"],
            "samples": samples}


def _count_and_points(view: dict, card: int) -> tuple[int, int]:
    """The count before ``card`` is laid and the points it pegs now (not the last card), from
    the cards laid, by the rules: a count restarts at 31 and when the next card laid does not
    fit (nobody could lay); ``card`` itself not fitting means the count restarted for it."""
    count, cards = 0, []
    for _, c in view["played"]:
        if c is None:
            continue
        if count + card_value(c) > 31:
            count, cards = 0, []
        count += card_value(c)
        cards.append(c)
        if count == 31:
            count, cards = 0, []
    if count + card_value(card) > 31:
        count, cards = 0, []
    return count, peg_points([*cards, card])


@pytest.mark.parametrize("variant", FORMS)
def test_the_advice_lists_the_legal_cards_and_goes_when_the_engine_goes(variant):
    game = VARIANTS[variant]
    records = simulate(3, seed=21, players=["ev+lookahead"] * game.players, variant=variant,
                       record_games=3, workers=1).records
    asked = {"card": 0, "go": 0, "as said": 0}
    for record in records:
        for d in decisions(record):
            if d["kind"] != "lay":
                continue
            view = d["view"]
            advice = advise_play(**_advice_args(view))
            said = as_said_at_the_table(view["played"], game.players, game.kept)
            if said != view["played"]:  # the goes as the table says them: the same position
                pd.testing.assert_frame_equal(
                    advise_play(**_advice_args({**view, "played": said})), advice)
                asked["as said"] += 1
            if d["answer"] is None:
                assert advice.attrs["best"] == "go" and len(advice) == 0
                asked["go"] += 1
                continue
            count, _ = _count_and_points(view, d["answer"])
            laid = {c for s, c in view["played"] if s == view["seat"]}
            legal = {format_card(c) for c in view["hand"]
                     if c not in laid and count + card_value(c) <= 31}
            assert set(advice["card"]) == legal, (view, advice)
            assert advice.attrs["best"] == advice.loc[0, "card"]
            assert int(advice.attrs["count"]) == count
            asked["card"] += 1
    assert asked["card"] > 20 and asked["go"] > 0, asked
    assert (asked["as said"] > 0) == (not game.one_count), asked


@pytest.mark.parametrize("variant", FORMS)
def test_a_card_that_reaches_the_target_now_is_ranked_first(variant):
    game = VARIANTS[variant]
    records = simulate(4, seed=5, players=["ev+lookahead"] * game.players, variant=variant,
                       record_games=4, workers=1).records
    checked = 0
    for record in records:
        for d in decisions(record):
            view = d["view"]
            if d["kind"] != "lay" or d["answer"] is None:
                continue
            count, _ = _count_and_points(view, d["answer"])
            laid = {c for s, c in view["played"] if s == view["seat"]}
            held = [c for c in view["hand"] if c not in laid]
            if len(held) < 2:  # (a last card's point depends on the others' hands)
                continue
            now = {format_card(c): _count_and_points(view, c)[1] for c in held
                   if count + card_value(c) <= 31}
            top = max(now.values())
            if top == 0 or min(now.values()) == top:
                continue
            # the seat's side needs exactly `top` now: the cards pegging it win, the others not
            pegged = [0] * game.teams
            for s, points in _points_so_far(record, d):
                pegged[s % game.teams] += points
            side = view["seat"] % game.teams
            start = list(view["scores"])
            start[side] = game.target - top - pegged[side]
            if start[side] < 0 or any(start[q] + pegged[q] >= game.target
                                      for q in range(game.teams)):
                continue
            advice = advise_play(**_advice_args(view, samples=200, score=start))
            winners = {c for c, p in now.items() if p == top}
            assert advice.loc[0, "card"] in winners, (view, advice)
            assert set(advice.loc[advice["wins_now"], "card"]) == winners
            checked += 1
    assert checked >= 5, checked


# Positions of recorded ev+lookahead games (seed 77) where the card that pegs most now is not
# the search's best on points: with the side needing exactly its points, it comes first.
OVERRULED = [
    # AH led; AC pairs it (2) but the Kings total more; side 1 needs 2 of 61
    ("five-card", "KC KH AC", [(0, "AH")], 1, 1, "JS", "8D TD", (3, 59), "AC", 2),
    # AC 6D 8S (15): 7D makes a run of three (3), 8C a pair (2, the search's choice on points);
    # seat 0 needs 3
    ("three-player", "8C QD AC 7D", [(0, "AC"), (1, "6D"), (2, "8S")], 0, 2, "7S", "KD",
     (118, 105, 114), "7D", 3),
    # AS 2D: 2H pairs (2), the search prefers TD on points; side 1 needs 2
    ("four-player", "TD JH QS 2H", [(3, "AS"), (0, "2D")], 1, 2, "3H", "4H", (38, 119), "2H",
     2),
]


@pytest.mark.parametrize(("variant", "hand", "played", "seat", "dealer", "starter", "thrown",
                          "score", "winner", "points"), OVERRULED)
def test_a_winning_card_comes_first_where_another_totals_more(variant, hand, played, seat,
                                                               dealer, starter, thrown, score,
                                                               winner, points):
    count_cards = [c for _, c in played]  # one count: none restarted yet
    assert peg_points([*count_cards, winner]) == points  # the rules' scorer: it pegs `points`
    # the others dealt uniformly: positions chosen where that search prefers another card
    args = {"hand": hand, "played": played, "seat": seat, "dealer": dealer, "starter": starter,
            "thrown": thrown, "variant": variant, "samples": 2000, "infer": False}
    plain = advise_play(**args)
    assert plain.loc[0, "card"] != winner  # on points alone another card leads
    advice = advise_play(**args, score=score)
    assert advice.loc[0, "card"] == winner and bool(advice.loc[0, "wins_now"])
    assert advice.loc[1:, "wins_now"].sum() == 0


def _points_so_far(record: dict, d: dict):
    """``(seat, points)`` of each card laid in the deal before decision ``d`` (the record's
    points, go points included: a go pegged before the seat's card)."""
    deal = record["deals"][d["deal"]]
    n_laid = sum(1 for _, c in d["view"]["played"] if c is not None)
    for seat, _, points in deal["plays"][:n_laid]:
        yield seat, points


# best searches in the other forms: somewhere it lays otherwise than lookahead, its reference
@pytest.mark.parametrize("variant", FORMS)
def test_best_searches_in_every_form(variant):
    game = VARIANTS[variant]
    players = ["best"] + ["ev+lookahead"] * (game.players - 1)
    records = simulate(4, seed=9, players=players, variant=variant, record_games=4,
                       workers=1).records
    from analyzer.play.seat import lay

    differ = same = 0
    for record in records:
        for d in decisions(record):
            if d["kind"] != "lay" or d["seat"] != 0 or d["answer"] is None:
                continue
            if lay("ev+lookahead", **d["view"]) == d["answer"]:
                same += 1
            else:
                differ += 1
    assert differ >= 1 and same > differ, (differ, same)


# more games of seat API calls against the engine's, best in several seats (as test_seat.py)
@pytest.mark.parametrize(("variant", "players", "seed"), [
    ("five-card", ("best", "best"), 31),
    ("three-player", ("best", "best", "ev+lookahead"), 32),
    ("four-player", ("best", "ev+lookahead", "best", "ev+lookahead"), 33),
    ("four-player", ("ev+greedy", "best", "random+random", "best"), 34),
])
def test_games_of_seat_api_calls_with_best_are_the_engines(variant, players, seed):
    engine = simulate(1, seed=seed, players=players, record_games=1, variant=variant,
                      workers=1).records[0]
    record = Table(players, variant=variant, seed=seed).play()
    assert {k: v for k, v in record.items() if k != "seats"} == engine


def test_advice_in_the_other_forms_refuses_bad_positions_in_one_line():
    base = {"hand": "8H 2C KD QS", "starter": "4S", "variant": "three-player", "dealer": 0}
    with pytest.raises(ValueError, match="seat 2's turn"):
        advise_play(played=[(1, "7C")], seat=0, **base)
    with pytest.raises(ValueError, match="seat: your seat"):
        advise_play(played=[(1, "7C"), (2, "8D")], **base)
    with pytest.raises(ValueError, match="past 31"):
        advise_play(played="1:KC 2:KD 0:QH 1:5C", seat=2, **base)
    with pytest.raises(ValueError, match="cannot say go"):
        advise_play(played="1:7C 2:go", seat=0, **base)
    with pytest.raises(ValueError, match="SEAT:CARD"):
        advise_play(played="7C", seat=0, **base)
    with pytest.raises(ValueError, match="a seat 0..2"):
        advise_play(played=(), seat=3, **base)
    a = advise_play(played="1:7C 2:8D", seat=0, samples=100, **base)
    assert a.attrs["best"] == "8H" and parse_card("8H") == parse_card(a.loc[0, "card"])


def test_the_next_counts_lead_is_asked_by_saying_go_again():
    """After your go, the next count's lead is asked with your go said again (as the docs say):
    here the last to lay (seat 2, AS to 30) and seat 0 hold no cards, so only you do."""
    base = {"hand": "5D JC 4S 4H", "seat": 1, "dealer": 2, "starter": "2D",
            "variant": "three-player", "samples": 50}
    played = "0:5C 1:JC 2:7H 0:4C 1:5D 2:8D 0:5H 1:4H 2:QH 0:AC 1:go 2:AS"
    assert advise_play(played=played, **base).attrs["best"] == "go"  # asked at 30 again
    lead = advise_play(played=played + " 1:go", **base)
    assert lead.attrs["best"] == "4S" and int(lead.loc[0, "now"]) == 1  # the last card
    assert int(lead.attrs["count"]) == 0


# --------------------------------------------------------------------------- score-aware


def test_the_show_after_the_play_and_the_next_deal_are_read_in_order():
    from analyzer.play.searchforms import _finish_forms

    odds = np.arange(62 * 62, dtype=np.float64).reshape(62, 62) / (62 * 62)
    # five-card, seat 1 deals: seat 0's hand first (6 of the 6 it needs: it wins at once)
    shown = np.array([6, 30, 30], np.int64)
    assert _finish_forms(shown, 1, 2, np.array([55, 50], np.int64), 61, odds, 0) == 1.0
    assert _finish_forms(shown, 1, 2, np.array([55, 50], np.int64), 61, odds, 1) == 0.0
    # nobody reaches 61: 55 + 2 and 40 + 8 + 0; seat 0 (side 0) deals next
    scores = np.array([55, 40], np.int64)
    p = _finish_forms(np.array([2, 8, 0], np.int64), 1, 2, scores, 61, odds, 0)
    assert p == odds[61 - 57, 61 - 48] and list(scores) == [57, 48]
    p = _finish_forms(np.array([2, 8, 0], np.int64), 1, 2, np.array([55, 40], np.int64), 61,
                      odds, 1)
    assert p == 1.0 - odds[4, 13]
    # four players, seat 2 (side 0) deals: seat 3 (side 1), 0, 1, 2, then the crib (side 0)
    table = np.arange(122 * 122, dtype=np.float64).reshape(122, 122) / (122 * 122)
    scores = np.array([100, 110], np.int64)
    # side 1 needs 11: seat 3 shows 4, seat 0 shows 20 (side 0 reaches 120), seat 1 shows 7
    assert _finish_forms(np.array([4, 20, 7, 5, 9], np.int64), 2, 4, scores, 121, table,
                         1) == 1.0
    scores = np.array([100, 100], np.int64)
    p = _finish_forms(np.array([1, 2, 3, 4, 5], np.int64), 2, 4, scores, 121, table, 0)
    # side 0: 100 + 2 + 4 + 5 = 111, side 1: 100 + 1 + 3 = 104; seat 3 (side 1) deals next
    assert p == 1.0 - table[121 - 104, 121 - 111]


def test_three_players_next_deal_is_read_from_the_table_of_three_needs():
    from analyzer.keeping.winodds import win_probability3
    from analyzer.play.reads import search_odds
    from analyzer.play.searchforms import _finish_forms

    rows = search_odds("three-player")
    # seat 2 deals: seat 0, 1, 2 show, then the crib (seat 2's); seat 0 deals next
    for side in range(3):
        scores = np.array([90, 100, 80], np.int64)
        p = _finish_forms(np.array([4, 7, 12, 5], np.int64), 2, 3, scores, 121, rows, side)
        assert list(scores) == [94, 107, 97]
        assert p == win_probability3((94, 107, 97), dealer=0)[side]
    # seat 1 needs 9 and shows 9 after seat 0 (its hand before seat 1's): seat 1 wins
    for side, won in ((0, 0.0), (1, 1.0), (2, 0.0)):
        assert _finish_forms(np.array([30, 9, 0, 0], np.int64), 2, 3,
                             np.array([80, 112, 119], np.int64), 121, rows, side) == won


def test_the_last_card_of_three_players_is_valued_by_the_show_and_the_table():
    """Seat 0 deals and lays the play's last card (KH, 18 to 28: the last card's point); the
    others' hands are all laid, so only the crib is unseen: seat 0's 5S and three cards of
    the 38 unseen, every three alike without ``infer``. Its P(win), enumerated over all
    8,436 cribs with the naive count and :func:`win_probability3` for the next deal (seat 1
    deals), is the search's within its standard error."""
    from itertools import combinations

    from naive import cards, naive_score

    from analyzer.core.rng import chunk_states
    from analyzer.keeping.winodds import win_probability3
    from analyzer.play.reads import player_tables, search_odds
    from analyzer.play.searchcommon import _LEGAL, _N_OUT, _NOW, _WIN, _WIN_SE
    from analyzer.play.searchforms import _search_forms

    hands = [cards("5H 5D JH KH"), cards("9D 4S 6S 7S"), cards("9S 2H 3H 8C")]
    starter, throw = cards("5C")[0], cards("5S")[0]
    kept0 = np.array(hands, np.int64)
    laid0 = np.ones((3, 4), np.bool_)
    laid0[0, 3] = False  # KH, the last card
    seen = np.zeros(52, np.bool_)
    seen[[c for h in hands for c in h] + [starter, throw]] = True
    seq = np.zeros(13, np.int64)
    seq[:2] = [cards("9D")[0] // 4, cards("9S")[0] // 4]
    scores = np.array([80, 100, 100], np.int64)  # after the play so far
    t = player_tables("three-player", [])
    out = np.empty((4, _N_OUT))
    n = _search_forms(kept0, laid0, np.int64(0), seen, np.zeros(3, np.int64), seq, np.int64(2),
                      np.int64(18), np.bool_(False), scores, np.int64(121), np.int64(20_000),
                      chunk_states(5, 1)[0], np.int64(-1), out, np.int64(0), np.int64(0),
                      np.int64(starter), t.rank_table, t.hand_table, search_odds("three-player"),
                      t.crib_values, t.card_values, np.bool_(False))
    assert n == 1 and out[3, _LEGAL] == 1.0 and out[3, _NOW] == 1  # the last card's point
    shown = [naive_score(h, starter) for h in (hands[1], hands[2], hands[0])]
    unseen = [c for c in range(52) if not seen[c]]
    assert len(unseen) == 38
    total = 0.0
    for three in combinations(unseen, 3):
        after = [81, 100, 100]
        won = None
        for seat, points in ((1, shown[0]), (2, shown[1]), (0, shown[2]),
                             (0, naive_score([throw, *three], starter, crib=True))):
            after[seat] += points
            if after[seat] >= 121:
                won = seat
                break
        total += (won == 0) if won is not None else win_probability3(after, dealer=1)[0]
    exact = total / 8_436
    assert 0.0 < exact < 1.0 and out[3, _WIN_SE] > 0
    assert abs(out[3, _WIN] - exact) < 4 * out[3, _WIN_SE], (out[3, _WIN], exact)


@pytest.mark.parametrize("variant", FORMS)
def test_score_aware_advice_in_the_forms_with_a_table(variant):
    game = VARIANTS[variant]
    records = simulate(2, seed=3, players=["ev+lookahead"] * game.players, variant=variant,
                       record_games=2, workers=1).records
    asked = 0
    for record in records:
        for d in decisions(record):
            if d["kind"] != "lay" or d["answer"] is None:
                continue
            view = d["view"]
            advice = advise_play(**_advice_args(view, samples=100))
            assert advice.attrs["score_aware"] and {"p_win", "p_win_se"} <= set(advice)
            assert ((advice["p_win"] >= 0) & (advice["p_win"] <= 1)).all()
            # best first: a card that wins now, then the probability of winning
            keys = list(zip(advice["wins_now"], advice["p_win"], strict=True))
            assert keys == sorted(keys, reverse=True)
            asked += 1
            if asked >= 12:
                return
    assert asked > 0


# --------------------------------------------------------------------------- crib peg --variant


def _crib(*args: str):
    import os
    import subprocess
    import sys
    from pathlib import Path

    crib = Path(sys.executable).parent / "crib"
    return subprocess.run([str(crib), *args], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONWARNINGS="ignore"), timeout=1800)


@pytest.mark.slow
def test_crib_peg_in_the_other_forms():
    import json

    base = ["peg", "--variant", "three-player", "--hand", "8H", "2C", "KD", "QS", "--played",
            "1:7C", "2:8D", "--starter", "4S", "--samples", "300"]
    result = _crib(*base, "--seat", "0", "--dealer-seat", "0")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith("three-player: hand 8H 2C KD QS in seat 0")
    assert result.stdout.splitlines()[-1].startswith("best: lay 8H")
    data = json.loads(_crib(*base, "--seat", "0", "--dealer-seat", "0", "--json").stdout)
    assert data["best"] == "8H" and {r["card"] for r in data["rows"]} == {"8H", "2C", "KD", "QS"}
    assert data["opponent"] == "ev discard" and "p_win" not in data["rows"][0]
    # the history as typed (small letters, a comma) is echoed as the project writes it
    typed = [*base[:9], "1:7c,2:8d", *base[11:]]
    uniform = json.loads(_crib(*typed, "--seat", "0", "--dealer-seat", "0", "--json",
                               "--uniform").stdout)
    assert uniform["opponent"] == "uniform" and uniform["played"] == "1:7C 2:8D"
    # three-player's score: each card's chance of the three from the table of three needs
    scored = json.loads(_crib(*base, "--seat", "0", "--dealer-seat", "0", "--json", "--thrown",
                              "5D", "--score", "110", "100", "105").stdout)
    p_win = {r["card"]: r["p_win"] for r in scored["rows"]}
    assert scored["best"] == "8H" and p_win["8H"] == max(p_win.values())
    assert all(0.5 < p < 0.95 for p in p_win.values())  # seat 0 at 110, the dealer
    aware = _crib("peg", "--variant", "five-card", "--hand", "8H", "2C", "KD", "--played",
                  "0:7C", "--starter", "4S", "--seat", "1", "--dealer-seat", "1", "--score",
                  "52", "59", "--samples", "200")
    assert aware.returncode == 0, aware.stderr
    assert "P(win)" in aware.stdout and "wins now" in aware.stdout
    assert aware.stdout.splitlines()[-1] == "best: lay 8H (it reaches the target)"


@pytest.mark.slow
def test_crib_peg_reads_the_goes_as_said_at_the_table():
    """Each go said once a count, as at a table (an audit's positions): asked after its go,
    once every other seat is out of cards, a seat is advised on the next count's lead, as if
    its go had been said again in the engine's order; five-card's one count ends instead."""
    three = ["peg", "--variant", "three-player", "--hand", "2S", "4D", "AD", "JS", "--played",
             "2:7D", "0:2S", "1:TC", "2:2D", "0:4D", "1:6D", "2:QD", "0:AD", "1:8S", "2:4S",
             "0:go", "1:5H", "--seat", "0", "--dealer-seat", "1", "--starter", "9C",
             "--samples", "100"]
    said_once = _crib(*three)
    assert said_once.returncode == 0, said_once.stderr
    lines = said_once.stdout.splitlines()
    # seat 1 laid the last card of the count at 28 and pegged the go: seat 0 leads anew
    assert "(count 0)" in lines[0] and lines[-1] == "best: lay JS (total +1.000)", lines
    engine = [*three[:21], "0:go", *three[21:]]  # the engine's order: the go said again
    assert _crib(*engine).stdout.splitlines()[1:] == lines[1:]
    four = _crib("peg", "--variant", "four-player", "--hand", "4D", "KS", "JD", "QC",
                 "--played", "3:7H", "0:7S", "1:2S", "2:4D", "3:4S", "0:AS", "1:6C", "2:QC",
                 "3:8H", "0:QS", "1:2D", "2:go", "3:AD", "0:TC", "1:JH", "2:KS", "--seat", "2",
                 "--dealer-seat", "2", "--starter", "9C", "--samples", "100")
    # seat 2 laid last at 30, the others out of cards or gone: it pegs the go and leads
    assert four.stdout.splitlines()[-1] == "best: lay JD (total +1.000)", four.stdout
    five = _crib("peg", "--variant", "five-card", "--hand", "8H", "9C", "KD", "--played",
                 "0:7C", "1:KD", "0:9S", "1:go", "0:4S", "--seat", "1", "--dealer-seat", "1",
                 "--starter", "2S", "--samples", "50")
    assert five.stdout.splitlines()[-1] == "go: no card you hold can be laid on count 30", \
        five.stdout + five.stderr
    # the seat API with the goes as said at the table reads them alike (it said "the play is
    # over" in five-card, where seat 0 could still lay an ace on 30; a review's)
    from analyzer.play.seat import lay

    for seat, hand in ((1, "8H 9C KD"), (0, "7C 9S 6H")):
        played = "0:7C 1:KD 0:9S 1:go" + (" 0:4S" if seat == 1 else "")
        assert lay("best", hand, played, seat=seat, dealer=1, starter="2S", thrown="3D 5D",
                   variant="five-card", goes="table") is None


@pytest.mark.parametrize(("args", "message"), [
    (["--dealer"], "give --seat and --dealer-seat"),
    (["--seat", "0"], "--seat (yours) and --dealer-seat are required"),
    (["--seat", "0", "--dealer-seat", "0", "--continuation", "lookahead"], "six-card's"),
    (["--seat", "1", "--dealer-seat", "0"], "not one of your kept cards"),
    (["--seat", "5", "--dealer-seat", "0"], "seat: a seat 0..2 in three-player, got 5"),
    (["--seat", "0", "--dealer-seat", "5"], "dealer: a seat 0..2 in three-player, got 5"),
    (["--seat", "-1", "--dealer-seat", "0"], "at least 0"),
    (["--seat", "3", "--dealer-seat", "0"], "a seat 0..2"),
])
def test_crib_peg_bad_input_in_the_other_forms_is_one_line(args, message):
    result = _crib("peg", "--variant", "three-player", "--hand", "8H", "2C", "KD", "QS",
                   "--played", "1:7C", "2:8D", "--starter", "4S", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--pone", "--seat", "0"], "--seat and --dealer-seat are for the other forms"),
    ([], "one of the arguments --dealer --pone is required"),
    (["--pone", "--score", "1", "2", "3"], "--score: yours and the opponent's"),
    (["--pone", "--thrown", "2C"], "--thrown: your two cards"),
])
def test_crib_peg_six_card_refuses_the_forms_options(args, message):
    result = _crib("peg", "--hand", "4C", "5H", "9S", "KD", "--played", "4C", "6D", "--starter",
                   "2S", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


# ------------------------------------------------------------------ the posterior of the others


def _ev_throws(five: list[int], own: bool, variant: str) -> set[tuple[int, ...]]:
    """The throws the form's ``ev`` discard may make of ``five``, by brute force with the
    rules' scorer (``naive_score``): every throw of the best value (ev takes the first of equals
    in the order dealt, so each may be the one)."""
    from itertools import combinations

    from naive import naive_score

    from analyzer.core.cards import throw_key
    from analyzer.play.reads import player_tables

    t = player_tables(variant, [])
    n_thrown = VARIANTS[variant].thrown
    starters = [c for c in range(52) if c not in five]
    values = {}
    for throw in combinations(five, n_thrown):
        kept = [c for c in five if c not in throw]
        mean = sum(naive_score(kept, s) for s in starters) / 47.0
        if n_thrown == 1:
            v = t.card_values[0 if own else 1, throw[0] // 4]
        else:
            v = t.crib_values[(0 if own else 1, *throw_key(*throw))]
        values[tuple(sorted(throw))] = mean + v if own else mean - v
    top = max(values.values())
    return {throw for throw, v in values.items() if v == top}


@pytest.mark.parametrize("variant, laid, pool, floor, own", [
    ("four-player", "5H 9C", "5S 6D 7C 8H JD QC KS", 0, False),
    ("four-player", "7H", "2S 6D 8C 8H JD QC", 7, True),
    ("five-card", "6H", "5S 5D 7C 8H JD QC", 0, True),
    ("five-card", "TH 4C", "2S 6D 9H JD QC KS", 0, False),
])
def test_a_posterior_draw_is_a_hand_whose_ev_discard_keeps_the_cards_laid(variant, laid, pool,
                                                                          floor, own):
    """Every hand the posterior draw (``_draw_seat``) deals a seat, brute-forced over a small
    pool: its five cards are the laid ones and some of the pool, the form's ev discard (judged
    independently, ``_ev_throws``) may throw what it throws and keeps every laid card, and its
    other kept cards meet the floor; each such hand of the pool is drawn."""
    from itertools import combinations

    from analyzer.core.cards import parse_cards
    from analyzer.core.rng import chunk_states
    from analyzer.play.reads import player_tables
    from analyzer.play.searchforms import _draw_seat

    game = VARIANTS[variant]
    t = player_tables(variant, [])
    laid_ids = [int(c) for c in parse_cards(laid)]
    pool_ids = [int(c) for c in parse_cards(pool)]
    n_laid, n_draw = len(laid_ids), 5 - len(laid_ids)
    consistent = set()
    for drawn in combinations(pool_ids, n_draw):
        five = laid_ids + list(drawn)
        for throw in _ev_throws(five, own, variant):
            kept = [c for c in drawn if c not in throw]
            if not set(throw) & set(laid_ids) and all(card_value(c) >= floor for c in kept):
                consistent.add((tuple(sorted(kept)), throw))
    assert consistent  # the position has hands to draw
    st = chunk_states(11, 1)[0]
    order = np.array([1], np.int64)
    left0 = np.array([0, game.kept - n_laid], np.int64)
    floors = np.array([0, floor], np.int64)
    seen = set()
    for _ in range(3000):
        work = np.array(pool_ids + [0] * 10, np.int64)
        hand = np.zeros(game.kept, np.int64)
        hand[:n_laid] = laid_ids
        throw = np.zeros(2, np.int64)
        rest = _draw_seat(work, np.int64(len(pool_ids)), hand, np.int64(n_laid), own, order,
                          np.int64(0), np.int64(1), left0, floors, t.crib_values, t.card_values,
                          t.hand_table, st, np.zeros(5, np.int64), throw)
        if rest < 0:  # no try fitted: the search deals this seat uniformly
            continue
        assert hand[:n_laid].tolist() == laid_ids
        kept = tuple(sorted(hand[n_laid:].tolist()))
        thrown = tuple(sorted(throw[:game.thrown].tolist()))
        assert (kept, thrown) in consistent, (kept, thrown)
        left = work[:rest].tolist()
        assert sorted(left + list(kept) + list(thrown)) == sorted(pool_ids)  # the rest is kept
        seen.add((kept, thrown))
    assert {kept for kept, _ in seen} == {kept for kept, _ in consistent}


@pytest.mark.parametrize("variant", FORMS)
def test_the_posterior_search_is_reproducible_and_differs_from_the_uniform(variant):
    game = VARIANTS[variant]
    record = simulate(1, seed=8, players=["ev+lookahead"] * game.players, variant=variant,
                      record_games=1, workers=1).records[0]
    views = [d["view"] for d in decisions(record)
             if d["kind"] == "lay" and d["answer"] is not None
             and len(d["view"]["played"]) >= game.players]
    # a score a deal can start from (five-card's pone has 3 before the first)
    args = _advice_args(views[0], samples=300)
    args["score"] = [0] * game.teams
    args["score"][(args["dealer"] + 1) % game.teams] = game.start_points
    posterior = advise_play(**args, seed=4)
    assert posterior.equals(advise_play(**args, seed=4, infer=True))
    uniform = advise_play(**args, seed=4, infer=False)
    assert uniform.equals(advise_play(**args, seed=4, infer=False))
    assert not posterior.equals(uniform)
    with pytest.raises(ValueError, match="infer"):
        advise_play(**args, infer=1)
