"""The game engine: scripted plays against the rules and the oracle, whole games re-scored."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import naive_play, naive_play_round, name

from analyzer import CardError, play_hands, simulate
from analyzer.play.engine import ACC, PHASE


def test_whole_play_example_from_the_rules():
    # Pone 6D JH 4H 7C, dealer 5S 4S 2S 6H, laid in the order of docs/rules.md (the "ordered" player
    # lays the first legal card of the hand as given): JH 10, 5S 15 (dealer 2), 7C 22,
    # 6H 28 (dealer run 5-6-7: 3), pone go, 2S 30 (dealer go 1), 6D 6, 4S 10, 4H 14 (pair 2 +
    # last card 1). Pone pegs 3, dealer 6.
    result = play_hands("JH 7C 6D 4H", "5S 6H 2S 4S")
    assert result["plays"] == [
        ("pone", "JH", 0), ("dealer", "5S", 2), ("pone", "7C", 0), ("dealer", "6H", 3),
        ("dealer", "2S", 1), ("pone", "6D", 0), ("dealer", "4S", 0), ("pone", "4H", 3),
    ]
    assert result["pegged"] == {"pone": 3, "dealer": 6}


def test_go_example_from_the_rules():
    # K, 10, 9 make 29; the dealer holds 4, 7 and 5 and says go; the pone, with nothing of 2 or
    # less, pegs 1 for the go on his 9, and the dealer (who said go) leads the next count:
    # 4 (4), 8 (12), 7 (19), 6 (25: run 6-7-8, 3), 5 (30: run 4-5-6-7-8, 5, + last card 1).
    result = play_hands("KS 9C 8C 6C", "TD 4H 7H 5H")
    assert result["plays"] == [
        ("pone", "KS", 0), ("dealer", "TD", 0), ("pone", "9C", 1), ("dealer", "4H", 0),
        ("pone", "8C", 0), ("dealer", "7H", 0), ("pone", "6C", 3), ("dealer", "5H", 6),
    ]


def test_last_card_making_31_scores_two_not_three():
    # TS, TD (pair 2), TH (30, pair royal 6), AC (31: 2); new count led by the pone: JS, JD (pair
    # 2), QS (30), AD makes 31 as the last card of the play: 2 in all, not 3.
    result = play_hands("TS TH JS QS", "TD AC JD AD")
    assert result["plays"] == [
        ("pone", "TS", 0), ("dealer", "TD", 2), ("pone", "TH", 6), ("dealer", "AC", 2),
        ("pone", "JS", 0), ("dealer", "JD", 2), ("pone", "QS", 0), ("dealer", "AD", 2),
    ]


eight_cards = st.lists(st.integers(0, 51), min_size=8, max_size=8, unique=True)


@settings(max_examples=300)
@given(eight_cards)
def test_engine_play_equals_naive_play(eight):
    # The ordered player and the oracle's default both lay the first legal card in hand order.
    pone, dealer = eight[:4], eight[4:]
    events, totals = naive_play(pone, dealer)
    result = play_hands(pone, dealer)
    who = {"pone": 0, "dealer": 1}
    assert [(who[w], c, p) for w, c, p in result["plays"]] == [
        (p, name(c), pts) for p, c, pts in events
    ]
    assert [result["pegged"]["pone"], result["pegged"]["dealer"]] == totals


def _policies_lay_only_legal_cards(policy):
    rng = np.random.default_rng(3)
    for _ in range(200):
        deal = rng.permutation(52)[:8]
        result = play_hands(deal[:4], deal[4:], pegging=(policy, policy), seed=int(deal[0]))
        laid = [c for _, c, _ in result["plays"]]
        assert sorted(laid) == sorted(name(int(c)) for c in deal)


@pytest.mark.parametrize("policy", ["random", "greedy", "lookahead"])
def test_every_policy_lays_all_eight_cards_legally(policy):
    _policies_lay_only_legal_cards(policy)


def test_greedy_takes_the_points_and_avoids_five_and_twenty_one():
    # Count 10 after a ten-card: greedy answers with the 5 for fifteen two.
    result = play_hands("KS QS JC TC", "5D 9H 8H 7H", pegging=("greedy", "greedy"))
    assert result["plays"][1] == ("dealer", "5D", 2)
    # Leading: never a 5 when something lower exists, and the lowest card otherwise.
    result = play_hands("5S 3C 9C KC", "AD AH 2S 2D", pegging=("greedy", "greedy"))
    assert result["plays"][0] == ("pone", "3C", 0)


@pytest.mark.slow
def test_records_rescored_by_an_independent_replay():
    from replay_check import check_game

    # Thousands of seeded games, every play and count re-scored in plain Python: every card dealt
    # once, every play legal (no go while able to play), scores never fall, the stop exactly at
    # 121, the pone counting before the dealer.
    for players, games, seed in ((("ev+lookahead", "random+random"), 1200, 11),
                                 (("hand+greedy", "ev+random"), 800, 12)):
        result = simulate(games, seed=seed, players=players, record_games=games)
        assert len(result.records) == games
        for record in result.records:
            check_game(record)
            for deal in record["deals"]:
                dealt = [c for hand in deal["hands"] for c in hand] + [deal["starter"]]
                assert len(set(dealt)) == 13


def test_records_agree_with_the_counters():
    result = simulate(3000, seed=5, players=("ev+greedy", "hand+lookahead"), record_games=3000)
    records = result.records
    wins0 = sum(r["winner"] == 0 for r in records)
    assert wins0 == result.acc[ACC.side_wins]
    assert sum(r["winner"] == r["first_dealer"] for r in records) == (
        result.acc[ACC.first_dealer_wins])
    assert sum(len(r["deals"]) for r in records) == result.acc[ACC.deals]
    assert sum(r["skunk"] >= 1 for r in records) == result.acc[ACC.skunks]
    for r in records:
        assert max(r["scores"]) == 121 and min(r["scores"]) < 121
        assert r["scores"][r["winner"]] == 121
    # The margin and game-length histograms are the records' own, bin by bin.
    margins = Counter(max(r["scores"]) - min(r["scores"]) for r in records)
    assert result.margins.index.name == "margin"
    assert {m: n for m, n in result.margins.items() if n} == margins
    assert len(result.margins) == max(margins) + 1
    lengths = Counter(len(r["deals"]) for r in records)
    assert result.game_lengths.index.name == "deals"
    assert {d: n for d, n in result.game_lengths.items() if n} == lengths


@pytest.mark.parametrize(("variant", "players"), [
    ("six-card", ("ev+lookahead", "ev+greedy")),
    ("five-card", ("ev+lookahead", "ev+greedy")),
    ("three-player", ("ev+lookahead", "ev+greedy", "ev+greedy")),
    ("four-player", ("ev+lookahead", "ev+greedy", "ev+greedy", "ev+lookahead")),
])
def test_the_winner_scores_the_target_and_nothing_past_it(variant, players):
    """The rules: the first to the target wins at once, his peg in the game hole, so a winning
    count that makes more scores only the target (a winner at 117 counting 12 ends at 121, not
    129); the loser keeps what he had. The margins are the target less the runner-up's score.
    The games' plays and counts are recorded whole: the winning deal's points add up to more."""
    from analyzer.core.choices import VARIANTS

    target = VARIANTS[variant].target
    result = simulate(600, seed=48, players=players, variant=variant, record_games=600)
    over = 0
    for r in result.records:
        scores = r["scores"]
        runner_up = max(s for q, s in enumerate(scores) if q != r["winner"])
        assert scores[r["winner"]] == target and runner_up < target
        assert r["deals"][-1]["scores"] == scores
        last = r["deals"][-1]
        made = last["heels"] + sum(p for _, _, p in last["plays"]) + sum(last["show"])
        start = r.get("start", [0] * len(scores))
        before = r["deals"][-2]["scores"] if len(r["deals"]) > 1 else start
        over += sum(before) + made > sum(scores)  # a winning count made more than it scored
    assert over > 100  # most games end on a count that goes past the target
    margins = {m: n for m, n in result.margins.items() if n}
    assert max(margins) < target
    assert sum(margins.values()) == 600


def test_same_seed_same_result_whatever_the_workers():
    a = simulate(5000, seed=2026, players=("ev+greedy", "ev+lookahead"), workers=1,
                 chunk_size=500, record_games=50)
    b = simulate(5000, seed=2026, players=("ev+greedy", "ev+lookahead"), workers=2,
                 chunk_size=500, record_games=50)
    assert np.array_equal(a.acc, b.acc)
    assert np.array_equal(a.crib_acc, b.crib_acc)
    assert a.records == b.records
    c = simulate(5000, seed=2027, players=("ev+greedy", "ev+lookahead"), chunk_size=500)
    assert not np.array_equal(a.acc, c.acc)


@pytest.mark.slow
def test_first_dealer_edge_and_dealer_scores_more():
    # Default players, 50,000 games: the first dealer wins 53%-60% (published from millions of
    # human games: 55.5%; here a standard error of 0.22%) and the dealer outscores the pone per
    # deal.
    games = 50_000
    result = simulate(games, seed=20261129)
    assert 0.53 <= result.first_dealer_win_rate <= 0.60
    ppd = result.points_per_deal
    assert sum(ppd["dealer"].values()) > sum(ppd["pone"].values())
    # his heels: 2 points with probability 4/52 whatever the players do
    assert ppd["dealer"]["heels"] == pytest.approx(2 * 4 / 52, abs=0.004)
    summary = result.summary
    assert summary.loc["skunk_rate", "value"] >= summary.loc["double_skunk_rate", "value"]
    low, high = summary.loc["first_dealer_win_rate", ["ci_low", "ci_high"]]
    p = result.first_dealer_win_rate  # the 95% interval: 1.96 standard errors either side
    assert low < p < high
    assert high - low == pytest.approx(2 * 1.959964 * math.sqrt(p * (1 - p) / games), rel=0.001)


@pytest.mark.slow
def test_stronger_policies_win_more():
    # Seat 0 with the better policy in each pair, seeded, 20,000 games: the edge is far beyond
    # the noise (a standard error of 0.35%).
    for strong, weak in (("ev+greedy", "random+greedy"), ("ev+lookahead", "ev+greedy"),
                         ("ev+greedy", "ev+random")):
        result = simulate(20_000, seed=99, players=(strong, weak))
        rate = result.acc[ACC.side_wins] / result.games
        assert rate > 0.51, (strong, weak, rate)


def test_simulate_rejects_bad_arguments():
    from analyzer.core.choices import PlayerError

    with pytest.raises(PlayerError, match="foo"):
        simulate(10, seed=1, players=("foo+greedy", "ev+greedy"))
    with pytest.raises(PlayerError, match="DISCARD"):
        simulate(10, seed=1, players=("ev", "ev+greedy"))
    with pytest.raises(ValueError, match="games"):
        simulate(0, seed=1)
    with pytest.raises(ValueError, match="workers"):
        simulate(10, seed=1, workers=0)


def test_crib_outcomes_are_the_cribs_counted():
    result = simulate(2000, seed=8, players=("ev+greedy", "ev+greedy"))
    table = result.crib_outcomes
    complete = result.acc[ACC.deals]  # every deal's crib counts, the last one played out
    for role in ("dealer", "pone"):
        part = table[table["role"] == role]
        assert part["n"].sum() == complete
        crib_points = result.acc[ACC.phase_sum + PHASE.crib]
        assert (part["n"] * part["mean"]).sum() == pytest.approx(crib_points)
    # in the crib tables' labels, so the two join on every pair, tens included
    from analyzer import load_rank_table

    pairs = set(zip(load_rank_table()["card1"], load_rank_table()["card2"], strict=True))
    assert set(zip(table["card1"], table["card2"], strict=True)) <= pairs
    assert "10" in set(table["card1"]) | set(table["card2"])


def test_random_discards_give_the_census_means_per_deal():
    # With random discards a kept hand is four random cards and the crib four more, with a random
    # starter: per deal, the hand and crib means must be the exact census means of docs/rules.md
    # (4.7692 and 4.7348). Only an accounting that counts every deal whole (the last deal of each
    # game played out) is unbiased. Seeded, 30,000 games (~375,000 deals, standard error ~0.006).
    result = simulate(30_000, seed=31, players=("random+greedy", "random+greedy"))
    ppd = result.points_per_deal
    assert ppd["dealer"]["hand"] == pytest.approx(4.7692, abs=0.03)
    assert ppd["pone"]["hand"] == pytest.approx(4.7692, abs=0.03)
    assert ppd["dealer"]["crib"] == pytest.approx(4.7348, abs=0.03)


# --------------------------------------------------------------------------- the other forms


def test_three_player_play_worked_example():
    # First (the dealer's left) 5H 5D KC QC, second 5S TD JD 2C, dealer 5C 9S 8S 3H, each laying
    # the first card it can: 5H 5 · 5S 10 (pair 2) · 5C 15 (pair royal 6 + fifteen 2 = 8) ·
    # 5D 20 (double pair royal 12) · TD 30 · dealer, first and second say go: second pegs 1 ·
    # the dealer leads: 9S 9 · KC 19 · JD 29 · dealer and first go · 2C 31 (2) · the dealer
    # leads: 8S 8 · QC 18 · (second has no cards) · 3H 21, the last card (1).
    result = play_hands("5H 5D KC QC", "5S TD JD 2C", "5C 9S 8S 3H", variant="three-player")
    assert result["plays"] == [
        ("first", "5H", 0), ("second", "5S", 2), ("dealer", "5C", 8), ("first", "5D", 12),
        ("second", "TD", 1), ("dealer", "9S", 0), ("first", "KC", 0), ("second", "JD", 0),
        ("second", "2C", 2), ("dealer", "8S", 0), ("first", "QC", 0), ("dealer", "3H", 1),
    ]
    assert result["pegged"] == {"first": 12, "second": 5, "dealer": 9}


def test_five_card_play_is_one_count():
    # Pone KS 9C 8C, dealer TD 4H 7H: KS 10 · TD 20 · 9C 29 · nobody can lay: the pone pegs the
    # go and the play ends, the 8C, 4H and 7H never laid.
    result = play_hands("KS 9C 8C", "TD 4H 7H", variant="five-card")
    assert result["plays"] == [("pone", "KS", 0), ("dealer", "TD", 0), ("pone", "9C", 1)]
    # 31 ends it too: 7S 8D 8C 8H makes 31 with a pair royal (2 + 6), nothing after it.
    result = play_hands("7S 8C 2D", "8D 8H AS", variant="five-card")
    assert result["plays"] == [("pone", "7S", 0), ("dealer", "8D", 2), ("pone", "8C", 2),
                               ("dealer", "8H", 8)]
    # All six cards laid under 31: AC 1 · AD 2 (pair 2) · 2C 4 · 2D 6 (pair 2) · 3C 9 · 3D 12
    # (pair 2 + the last card 1), as in every form.
    result = play_hands("AC 2C 3C", "AD 2D 3D", variant="five-card")
    assert [p for *_, p in result["plays"]] == [0, 2, 0, 2, 0, 3]


def _hands(cards_per_hand, players):
    return st.lists(st.integers(0, 51), min_size=cards_per_hand * players,
                    max_size=cards_per_hand * players, unique=True)


@pytest.mark.parametrize("variant, players, cards", [
    ("three-player", 3, 4), ("four-player", 4, 4), ("five-card", 2, 3), ("six-card", 2, 4),
])
@settings(max_examples=150)
@given(data=st.data())
def test_engine_play_equals_the_oracle_in_every_form(variant, players, cards, data):
    deal = data.draw(_hands(cards, players))
    hands = [deal[i * cards:(i + 1) * cards] for i in range(players)]
    events, totals = naive_play_round(hands, one_count=variant == "five-card")
    result = play_hands(*hands, variant=variant)
    names = list(result["pegged"])  # in turn order: the dealer's left first, the dealer last
    assert [(names.index(w), c, p) for w, c, p in result["plays"]] == [
        (p, name(c), pts) for p, c, pts in events]
    assert list(result["pegged"].values()) == totals


def test_play_hands_refuses_the_wrong_hands():
    with pytest.raises(CardError, match="3 players"):
        play_hands("JH 7C 6D 4H", "5S 6H 2S 4S", variant="three-player")
    with pytest.raises(CardError, match="expected 3 cards"):
        play_hands("JH 7C 6D 4H", "5S 6H 2S 4S", variant="five-card")
    with pytest.raises(CardError, match="duplicate"):
        play_hands("JH 7C 6D", "JH 6H 2S", variant="five-card")
