"""Whole games of the three-player, four-player and five-card forms, checked against the oracle.

Every recorded game is re-scored here in plain Python: the cards dealt once each, the discards
from the hands, the play laid again card by card through the oracle's play
(:func:`naive.naive_play_round`, whose turn order and go rules must pick the recorded player each
time), every hand and crib counted by :func:`naive.naive_score`, the scores kept by side, the
stop at 121, the winner and the skunk tiers.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from naive import card, naive_play_round, naive_score

from analyzer import show_census, simulate
from analyzer.core.choices import PlayerError
from analyzer.core.game import VARIANTS
from analyzer.sim.records import format_game, validate_record

FORMS = ("three-player", "four-player", "five-card")


def _check_deal(deal, game, scores):
    n, sides = game.players, game.teams
    dealer = deal["dealer"]
    hands = [[card(c) for c in h] for h in deal["hands"]]
    discards = [[card(c) for c in d] for d in deal["discards"]]
    pack = [card(c) for c in deal["pack"]]
    starter = card(deal["starter"])
    dealt = [c for h in hands for c in h] + pack + [starter]
    assert len(dealt) == len(set(dealt)) == n * game.dealt + game.crib_from_pack + 1
    assert all(len(h) == game.dealt for h in hands) and len(pack) == game.crib_from_pack
    for d, h in zip(discards, hands, strict=True):
        assert len(d) == game.thrown and set(d) <= set(h)
    kept = [[c for c in h if c not in d] for h, d in zip(hands, discards, strict=True)]
    order = [(dealer + 1 + k) % n for k in range(n)]  # turn order: the dealer's left first

    def peg(seat, points):  # a side that reaches the target wins on it: nothing past it counts
        scores[seat % sides] = min(scores[seat % sides] + points, game.target)
        return scores[seat % sides] >= game.target

    heels = 2 if starter // 4 == 10 else 0
    assert deal["heels"] == heels
    if heels and peg(dealer, heels):
        assert deal["plays"] == [] and deal["show"] == []
        return dealer % sides
    recorded = deal["plays"]
    step = iter(recorded)

    def follow(position, options, history):  # lay what the record says, if the rules allow it
        seat, text, _ = next(step)
        assert seat == order[position], (deal, seat, order[position])
        assert card(text) in options
        return card(text)

    try:
        events, _ = naive_play_round([kept[p] for p in order], one_count=game.one_count,
                                     choose=follow)
        complete = True
    except StopIteration:  # the record stops at the winning moment
        complete = False
    if complete:
        assert len(events) == len(recorded)
    for k, (seat, text, points) in enumerate(recorded):
        if complete:
            position, c, expected = events[k]
            assert (order[position], card(text)) == (seat, c)
            won = scores[seat % sides] + points >= game.target
            if won and k == len(recorded) - 1 and points == expected - 1:
                pass  # the card's own points win: the go point after it is never pegged
            else:
                assert points == expected, (deal, k)
        if peg(seat, points):
            assert k == len(recorded) - 1 and deal["show"] == []
            return seat % sides
    assert complete, deal
    crib = [c for d in discards for c in d] + pack
    counts = [(p, kept[p], False) for p in order] + [(dealer, crib, True)]
    for k, (seat, cards, is_crib) in enumerate(counts):
        assert deal["show"][k] == naive_score(cards, starter, crib=is_crib)
        if peg(seat, deal["show"][k]):
            assert len(deal["show"]) == k + 1
            return seat % sides
    assert deal["scores"] == scores
    return None


def check_game(record):
    game = VARIANTS[record["variant"]]
    assert record["format"] == 2
    scores = [0] * game.teams
    scores[(record["first_dealer"] + 1) % game.teams] = game.start_points  # three for last
    assert record["start"] == scores
    winner = None
    for k, deal in enumerate(record["deals"]):
        assert winner is None
        assert deal["dealer"] == (record["first_dealer"] + k) % game.players
        winner = _check_deal(deal, game, scores)
        assert deal["scores"] == scores
    assert winner == record["winner"] and record["scores"] == scores
    assert max(scores) == scores[winner] == game.target
    lines = game.skunk_lines
    assert record["skunk"] == [0 if q == winner else sum(s < line for line in lines)
                               for q, s in enumerate(scores)]


@pytest.mark.parametrize("variant", FORMS)
def test_recorded_games_rescored_by_the_oracle(variant):
    for players, seed in (("ev+lookahead", 1), (("random+random", "ev+greedy", "hand+random",
                                                 "ev+lookahead")[:VARIANTS[variant].players], 2)):
        result = simulate(150, seed=seed, players=players, variant=variant, record_games=150)
        assert len(result.records) == 150
        for record in result.records:
            check_game(record)
            validate_record(record)  # the package's own reader accepts what the engine writes
        assert format_game(result.records[0]).startswith(f"game 0 ({variant}")


@pytest.mark.parametrize("variant", FORMS)
def test_random_discards_give_the_census_means(variant):
    # With random discards a kept hand is random cards and the crib four more (from the players,
    # and in the three-player game one from the pack), with a random starter: the census means,
    # enumerated here, of a hand of the form's size and of a crib (4.7692 and 4.7348 for four
    # cards in docs/rules.md).
    kept = VARIANTS[variant].kept
    census = show_census(False, variant=variant)
    hand_mean = (census * np.arange(len(census))).sum() / census.sum()
    assert round(float(hand_mean), 4) == (4.7692 if kept == 4 else 2.5924)
    result = simulate(8_000, seed=41, players="random+greedy", variant=variant)
    ppd = result.points_per_deal
    for role, phases in ppd.items():
        assert phases["hand"] == pytest.approx(hand_mean, abs=0.06), role
    assert ppd["dealer"]["crib"] == pytest.approx(4.7348, abs=0.06)
    assert ppd["dealer"]["heels"] == pytest.approx(2 * 4 / 52, abs=0.01)


@pytest.mark.parametrize("variant", FORMS)
def test_same_seed_same_games_whatever_the_workers(variant):
    a = simulate(3_000, seed=9, variant=variant, workers=1, chunk_size=300, record_games=20)
    b = simulate(3_000, seed=9, variant=variant, workers=2, chunk_size=300, record_games=20)
    assert np.array_equal(a.acc, b.acc) and a.records == b.records
    assert sum(a.side_win_rates) == pytest.approx(1.0)


def test_partners_score_together_and_the_first_dealer_leads_the_way():
    result = simulate(4_000, seed=3, variant="four-player")
    assert len(result.side_win_rates) == 2
    assert 0.5 < result.first_dealer_win_rate < 0.65  # the first crib is the dealer's side's
    three = simulate(4_000, seed=3, variant="three-player")
    assert len(three.side_win_rates) == 3 and three.first_dealer_win_rate > 1 / 3


def test_forms_refuse_what_they_cannot_play():
    with pytest.raises(PlayerError, match="3 seats"):
        simulate(10, seed=1, variant="three-player", players=("ev+greedy", "ev+greedy"))
    with pytest.raises(ValueError, match="unknown variant"):
        simulate(10, seed=1, variant="nine-card")


def test_a_form_is_part_of_a_run_plan_stopped_and_resumed(tmp_path):
    whole = simulate(4_000, seed=12, variant="three-player", chunk_size=500, record_games=5)
    part = simulate(4_000, seed=12, variant="three-player", chunk_size=500, record_games=5,
                    checkpoint=tmp_path, max_chunks=3)
    assert not part.complete and part.games == 1_500
    from analyzer.sim.runs import RunError

    with pytest.raises(RunError, match="variant 'three-player' there, 'four-player' now"):
        simulate(4_000, seed=12, variant="four-player", chunk_size=500, record_games=5,
                 checkpoint=tmp_path, resume=True)
    rest = simulate(4_000, seed=12, variant="three-player", chunk_size=500, record_games=5,
                    checkpoint=tmp_path, resume=True)
    assert rest.complete and np.array_equal(rest.acc, whole.acc) and rest.records == whole.records


@pytest.mark.slow
def test_a_form_on_a_local_dask_cluster_equals_the_local_backend():
    pytest.importorskip("dask.distributed")
    local = simulate(3_000, seed=21, variant="five-card", chunk_size=500, record_games=10)
    dask = simulate(3_000, seed=21, variant="five-card", chunk_size=500, record_games=10,
                    backend="dask", scheduler="local", workers=2)
    assert np.array_equal(local.acc, dask.acc) and local.records == dask.records


@pytest.mark.parametrize("variant", FORMS)
def test_self_play_tables_of_every_form(variant, tmp_path):
    # Same seed, same table; every throw of every deal tallied once, by whose crib it went to.
    from analyzer import build_crib_table

    game = VARIANTS[variant]
    a = build_crib_table(deals=4_000, seed=3, max_iterations=2, variant=variant, workers=1)
    b = build_crib_table(deals=4_000, seed=3, max_iterations=2, variant=variant, workers=2)
    assert np.array_equal(a.mean, b.mean) and a.iterations == 2
    own_seats = 2 if game.partnerships else 1  # the dealer, and in partnership his partner
    if game.thrown == 1:
        assert a.mean.shape == (2, 13)
        assert a.n[0].sum() == 4_000 * own_seats
        assert a.n[1].sum() == 4_000 * (game.players - own_seats)
    else:
        assert a.mean.shape == (2, 13, 13, 2)
        assert a.table["dealer_n"].sum() == a.table["pone_n"].sum() == 4_000
    written = a.save(tmp_path)
    assert sorted(p.name for p in written)[0] == f"crib_values_{variant}.csv"


@pytest.mark.parametrize("variant", FORMS)
def test_the_shipped_tables_of_every_form_are_read_by_the_engine(variant):
    from analyzer.keeping.crib import card_values, crib_values, shipped_file, table_file

    meta = shipped_file(table_file(variant)).with_suffix(".json")
    assert json.loads(meta.read_text())["variant"] == variant
    game = VARIANTS[variant]
    values = (card_values("table", variant) if game.thrown == 1
              else crib_values("table", variant))
    assert np.isfinite(values).all() and not values.flags.writeable
    table = simulate(1_000, seed=5, variant=variant, players="ev+greedy")
    uniform = simulate(1_000, seed=5, variant=variant, players="ev+greedy", crib="uniform")
    assert table.crib == "table" and not np.array_equal(table.acc, uniform.acc)


def test_a_person_s_game_may_name_its_seats_and_stop_unfinished():
    from analyzer import simulate
    from analyzer.sim.records import RecordError, format_game, validate_record

    record = simulate(3, seed=5, record_games=1).records[0]
    named = {**record, "seats": ["you", "best"]}
    validate_record(named)
    assert "seats: player 0 you, player 1 best" in format_game(named)
    # stopped after its first two deals: the scores are those after them
    stopped = {**named, "deals": record["deals"][:2], "scores": record["deals"][1]["scores"],
               "winner": None, "skunk": 0, "unfinished": True}
    validate_record(stopped)
    assert "stopped unfinished at " + "-".join(map(str, stopped["scores"])) in format_game(stopped)
    validate_record({**stopped, "deals": [], "scores": [0, 0]})  # stopped before the first count
    for bad, says in (({**stopped, "winner": 1}, "must be null"),
                      ({**stopped, "scores": [0, 0]}, "not the final scores"),
                      ({**record, "unfinished": True}, "is unfinished, but"),
                      ({**named, "seats": ["you"]}, "seats"),
                      ({**named, "seats": ["you", ""]}, "seats must be 2 names")):
        with pytest.raises(RecordError, match=says):
            validate_record(bad)


def test_the_five_card_game_lurches_a_loser_under_31_and_skunks_no_deeper():
    # docs/rules.md: the game to 61 has the old books' one line, the "lurch": a loser who has not
    # reached 31 (under half of 61) loses a double game; there is no double or triple skunk
    five = VARIANTS["five-card"]
    assert five.skunk_lines[0] == 31 and five.skunk_tiers == 1
    assert VARIANTS["six-card"].skunk_tiers == 3
    result = simulate(2_000, seed=6, players="random+random", variant="five-card",
                      record_games=2_000)
    losers = [min(r["scores"]) for r in result.records]
    said = [max(r["skunk"]) for r in result.records]
    assert said == [1 if score < 31 else 0 for score in losers]
    # both sides of the line are there, and losers between 31 and 45 (skunked by a line of 46)
    assert sum(s < 31 for s in losers) > 20 and sum(31 <= s < 46 for s in losers) > 200
    d = result.to_dict()
    assert d["skunk_rate"] == sum(s < 31 for s in losers) / 2_000
    assert d["double_skunk_rate"] == d["triple_skunk_rate"] == 0
    # no game can fall in a tier the form has no line for: its interval is 0 to 0, not Wilson's
    # upper end for none seen in 2,000 (0.0019)
    summary = result.summary
    for tier in ("double_skunk_rate", "triple_skunk_rate"):
        assert tuple(summary.loc[tier, ["value", "ci_low", "ci_high"]]) == (0, 0, 0)
    assert summary.loc["skunk_rate", "ci_high"] > summary.loc["skunk_rate", "value"] > 0


@pytest.mark.slow
def test_a_three_player_skunk_rate_counts_both_losers_and_its_interval_holds(tmp_path):
    """Two losers a game: a rate of skunked losers a game may pass 1; its interval is the
    losers' share's, times 2, as wide as the spread of the skunked losers of each game makes
    it (the two are skunked together more often than apart), and the summary, the saved run
    and the CLI's report all take it."""
    from analyzer.sim.harness import _wilson

    one = simulate(1, seed=0, variant="three-player", workers=1,
                   players=("ev+lookahead", "random+random", "random+random"))
    assert one.to_dict()["skunk_rate"] == 2.0  # both random players under 91
    row = one.summary.loc["skunk_rate"]
    low, high = _wilson(2, 2)
    assert (row["value"], row["ci_low"], row["ci_high"]) == (2.0, 2 * low, 2 * high)
    one.save(tmp_path / "run")  # the summary's CSV written, no math domain error
    many = simulate(3_000, seed=5, variant="three-player", workers=1, record_games=3_000)
    k = int(round(many.to_dict()["skunk_rate"] * 3_000))
    row = many.summary.loc["skunk_rate"]
    assert row["ci_low"] < row["value"] < row["ci_high"]
    # each game's skunked losers, from its record: the interval's half width is the normal one
    # of their mean (Wilson's differs by well under 2% here)
    per_game = np.array([sum(tier >= 1 for tier in rec["skunk"]) for rec in many.records])
    assert per_game.sum() == k and (per_game == 2).any()
    half = 1.959964 * per_game.std() / np.sqrt(3_000)
    assert (row["ci_high"] - row["ci_low"]) / 2 == pytest.approx(half, rel=0.02)
    apart = tuple(2 * x for x in _wilson(k, 6_000))  # two losers taken as independent
    assert row["ci_high"] - row["ci_low"] > 1.03 * (apart[1] - apart[0])
    # two-sided forms: one loser a game, the plain Wilson interval on games
    two = simulate(2_000, seed=5, variant="four-player", workers=1)
    k = int(round(two.to_dict()["skunk_rate"] * 2_000))
    assert tuple(two.summary.loc["skunk_rate", ["ci_low", "ci_high"]]) == _wilson(k, 2_000)
