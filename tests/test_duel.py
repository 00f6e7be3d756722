"""The baseline player and duels: the baseline's choices against a naive count, the first
dealer alternating, and the duel's figures recounted by hand from recorded games."""

from __future__ import annotations

import json
import math
from itertools import combinations

import numpy as np
import pytest
from naive import _is_run, card, cards, naive_peg_points, rank, suit, value

from analyzer.cli import main
from analyzer.core.choices import PlayerError, parse_player
from analyzer.core.rng import chunk_states
from analyzer.core.scoring import hand3_table, hand_table
from analyzer.keeping.discard import _DISCARD_TABLE, _KEEP_TABLE
from analyzer.play.players import (
    _KEEP_FOUR_OF_FIVE,
    _KEEP_THREE_OF_FIVE,
    _choose_discard,
    _choose_keep3,
    _choose_play,
    _choose_throw,
)
from analyzer.sim.duel import duel
from analyzer.sim.records import validate_record

BASELINE = parse_player("baseline")
NO_CRIB = np.zeros((2, 13, 13, 2), np.float64)
NO_CARD = np.zeros((2, 13), np.float64)
# read-only, as the engine's tables are: the kernels' compiled versions, not new ones
NO_CRIB.flags.writeable = False
NO_CARD.flags.writeable = False


# --------------------------------------------------------------------------- a naive count


def alone(held) -> int:
    """Points of cards counted alone, no starter: every combination enumerated."""
    held = list(held)
    pts = 2 * sum(1 for k in range(2, len(held) + 1) for c in combinations(held, k)
                  if sum(value(x) for x in c) == 15)
    pts += 2 * sum(1 for a, b in combinations(held, 2) if rank(a) == rank(b))
    for k in range(len(held), 2, -1):
        runs = [c for c in combinations(held, k) if _is_run(c)]
        if runs:
            pts += k * len(runs)
            break
    if len({suit(c) for c in held}) == 1:
        pts += len(held)  # 4 for four cards, 3 for three (five-card cribbage)
    return pts


def thrown_points(thrown) -> int:
    return sum(2 * (sum(value(x) for x in c) == 15) + 2 * (rank(c[0]) == rank(c[1]))
               for c in combinations(thrown, 2))


def naive_values(dealt, n_kept, own_crib) -> dict[frozenset, int]:
    """Every way to keep ``n_kept`` of ``dealt``: the kept set -> the baseline's value."""
    out = {}
    for keep in combinations(dealt, n_kept):
        throw = [c for c in dealt if c not in keep]
        sign = 1 if own_crib else -1
        out[frozenset(keep)] = alone(keep) + sign * thrown_points(throw)
    return out


def test_naive_count_on_worked_examples():
    assert alone(cards("5H 5C JS QD")) == 2 * 4 + 2   # four fifteens and a pair
    assert alone(cards("3H 4H 4C 5D")) == 2 + 3 * 2  # a pair and a double run, no fifteen
    assert alone(cards("2H 4H 6H 8H")) == 4           # a flush of four, no starter
    assert alone(cards("JH AC 3D 8S")) == 0           # no nobs without a starter
    assert alone(cards("4H 5H 6H")) == 2 + 3 + 3      # fifteen, run, three-card flush
    assert thrown_points(cards("7C 8D")) == 2 and thrown_points(cards("KC KD")) == 2
    assert thrown_points(cards("5C TD")) == 2 and thrown_points(cards("AC 2D")) == 0


# --------------------------------------------------------------------------- baseline discard


def test_baseline_discard_is_a_best_keep_by_the_naive_count():
    rng = np.random.default_rng(12)
    table = hand_table()
    for i in range(600):
        six = rng.choice(52, 6, replace=False).astype(np.int64)
        own = bool(i % 2)
        st = chunk_states(i, 1)[0]
        d = _choose_discard(BASELINE[0], six, own, NO_CRIB, table, st)
        values = naive_values(six.tolist(), 4, own)
        kept = frozenset(int(six[k]) for k in _KEEP_TABLE[d])
        assert values[kept] == max(values.values()), (six, own)
        assert {int(six[k]) for k in _DISCARD_TABLE[d]} == set(six.tolist()) - kept


def test_baseline_discard_in_the_forms_dealt_five():
    rng = np.random.default_rng(13)
    table3, table4 = hand3_table(), hand_table()
    for i in range(300):
        five = rng.choice(52, 5, replace=False).astype(np.int64)
        own = bool(i % 2)
        st = chunk_states(i, 1)[0]
        d = _choose_keep3(BASELINE[0], five, own, NO_CRIB, table3, st)
        values = naive_values(five.tolist(), 3, own)
        assert values[frozenset(int(five[k]) for k in _KEEP_THREE_OF_FIVE[d])] == max(
            values.values())
        d = _choose_throw(BASELINE[0], five, own, NO_CARD, table4, st)
        values = naive_values(five.tolist(), 4, own)  # one card thrown: nothing in it
        assert values[frozenset(int(five[k]) for k in _KEEP_FOUR_OF_FIVE[d])] == max(
            values.values())


def test_baseline_discard_breaks_ties_at_random():
    # 2C 4D 6H 8S TC QD: the four kept hold at most a fifteen; many ways tie
    six = np.array(cards("2C 4D 6H 8S TC QD"), np.int64)
    values = naive_values(six.tolist(), 4, True)
    best = {k for k, v in values.items() if v == max(values.values())}
    assert len(best) > 1
    seen = {frozenset(int(six[k]) for k in
                      _KEEP_TABLE[_choose_discard(BASELINE[0], six, True, NO_CRIB, hand_table(),
                                                  chunk_states(s, 1)[0])])
            for s in range(400)}
    assert seen == best  # every tied keep is chosen, and nothing else


def test_baseline_players_discard_by_the_naive_count_in_whole_games():
    result = duel("baseline", "baseline+greedy", games=20, seed=4, workers=1, record_games=20)
    checked = 0
    for game in result.simulation.records:
        for deal in game["deals"]:
            for p in (0, 1):
                six = cards(" ".join(deal["hands"][p]))
                thrown = set(cards(" ".join(deal["discards"][p])))
                values = naive_values(six, 4, deal["dealer"] == p)
                assert values[frozenset(set(six) - thrown)] == max(values.values())
                checked += 1
    assert checked > 300


# --------------------------------------------------------------------------- baseline pegging


def play(hand, count_cards, last=False, seed=0, laid=None):
    """The baseline's card for ``hand`` (ids) after ``count_cards`` in the current count."""
    hand = np.array(hand, np.int64)
    seq = np.zeros(16, np.int64)
    for i, c in enumerate(count_cards):
        seq[i] = rank(c)
    laid = np.zeros(len(hand), np.bool_) if laid is None else np.array(laid, np.bool_)
    unseen = np.full(13, 4, np.int64)
    i = _choose_play(BASELINE[1], hand, len(hand), laid, seq, len(count_cards),
                     sum(value(c) for c in count_cards), unseen, 4, last, chunk_states(seed, 1)[0])
    return -1 if i < 0 else int(hand[i])


def test_baseline_pegging_lays_a_card_that_pegs_most():
    rng = np.random.default_rng(21)
    tried = 0
    while tried < 500:
        deck = rng.permutation(52)
        n_count = int(rng.integers(0, 6))
        count_cards = [int(c) for c in deck[:n_count]]
        if sum(value(c) for c in count_cards) > 31:
            continue
        hand = [int(c) for c in deck[n_count:n_count + 4]]
        laid = rng.random(4) < 0.3
        held = [c for c, gone in zip(hand, laid, strict=True) if not gone]
        last = len(held) == 1 and bool(rng.random() < 0.5)
        legal = [c for c in held if sum(value(x) for x in count_cards) + value(c) <= 31]
        chosen = play(hand, count_cards, last, seed=tried, laid=laid)
        if not legal:
            assert chosen == -1
            continue

        pegs = {c: naive_peg_points([*count_cards, c])
                + (1 if last and sum(value(x) for x in [*count_cards, c]) != 31 else 0)
                for c in legal}
        assert chosen in legal
        assert pegs[chosen] == max(pegs.values()), (count_cards, hand, laid)
        tried += 1


def test_baseline_pegging_ties_are_random_and_the_last_card_counts():
    # after a King: either Five makes fifteen (2); the Two pegs nothing
    seen = {play(cards("5C 5D 2H"), [card("KS")], seed=s) for s in range(60)}
    assert seen == {card("5C"), card("5D")}
    # on a lead nothing scores: every card is laid over the seeds
    seen = {play(cards("2C 9D QH KS"), [], seed=s) for s in range(200)}
    assert seen == set(cards("2C 9D QH KS"))
    # the last card of the play pegs 1: a lone card known to be last is still laid
    assert play(cards("3C"), cards("KS 9D"), last=True) == card("3C")


def test_baseline_and_best_aliases():
    assert parse_player("baseline") == parse_player("baseline+baseline") == parse_player(
        " Baseline ")
    assert parse_player("best") == parse_player("best+best")
    with pytest.raises(PlayerError, match="one-word player.*baseline"):
        parse_player("basline")
    with pytest.raises(PlayerError, match="choose one of random, hand, ev, baseline, pegging, "
                       "best"):
        parse_player("greedy+greedy")


# --------------------------------------------------------------------------- duels


def test_first_dealer_alternates_exactly():
    result = duel("ev+greedy", "baseline", games=30, seed=9, workers=2, chunk_size=7,
                  record_games=30)
    assert [g["first_dealer"] for g in result.simulation.records] == [i % 2 for i in range(30)]
    assert [int(x) for x in result.first_deals] == [15, 15]
    for game in result.simulation.records:
        assert game["deals"][0]["dealer"] == game["first_dealer"]


def test_the_cut_is_unchanged_and_counted():
    from analyzer import simulate

    result = simulate(400, seed=3, players=("ev+greedy", "baseline"), workers=1)
    from analyzer.play.engine import ACC

    deals = result.acc[ACC.first_deals:ACC.first_deals + 2]
    assert deals.sum() == 400 and 150 < deals[0] < 250  # by the cut: about half, not exactly


def test_match_points_recounted_by_hand_from_records():
    games = 60
    result = duel("ev+lookahead", "baseline", games=games, seed=17, workers=2, chunk_size=16,
                  record_games=games)
    records = result.simulation.records
    assert len(records) == games
    net, a_wins, skunks = [], 0, {"a": 0, "b": 0, "a2": 0, "b2": 0}
    for game in records:
        validate_record(game)  # every deal re-scored from its cards
        final = game["deals"][-1]["scores"]
        winner = 0 if final[0] >= 121 else 1
        assert final[winner] >= 121 and final[1 - winner] < 121
        loser = final[1 - winner]
        points = 1 if loser >= 91 else 2 if loser >= 61 else 3
        net.append(points if winner == 0 else -points)
        a_wins += winner == 0
        side = "a" if winner == 0 else "b"
        skunks[side] += loser < 91
        skunks[side + "2"] += loser < 61
    assert result.a_wins == a_wins
    assert result.win_rate == a_wins / games
    assert result.match_points == pytest.approx(sum(net) / games, abs=1e-12)
    mean = sum(net) / games
    sd = math.sqrt(sum((x - mean) ** 2 for x in net) / (games - 1))
    low, high = result.match_points_ci
    assert low == pytest.approx(mean - 1.959964 * sd / math.sqrt(games), abs=1e-9)
    assert high == pytest.approx(mean + 1.959964 * sd / math.sqrt(games), abs=1e-9)
    rates = result.skunk_rates
    assert rates["a_skunk_rate"] == skunks["a"] / games
    assert rates["b_skunk_rate"] == skunks["b"] / games
    assert rates["a_double_skunk_rate"] == skunks["a2"] / games
    assert rates["b_double_skunk_rate"] == skunks["b2"] / games
    assert result.a_match_points - result.b_match_points == sum(net)
    assert any(x >= 2 or x <= -2 for x in net)  # the sample holds skunks


def test_same_seed_same_duel_whatever_the_workers():
    one = duel("baseline", "ev+greedy", games=600, seed=5, workers=1, chunk_size=64)
    two = duel("baseline", "ev+greedy", games=600, seed=5, workers=2, chunk_size=64)
    assert (one.simulation.acc == two.simulation.acc).all()
    timing = ("workers", "elapsed_seconds", "games_per_second")
    assert ({k: v for k, v in one.to_dict().items() if k not in timing}
            == {k: v for k, v in two.to_dict().items() if k not in timing})
    other = duel("baseline", "ev+greedy", games=600, seed=6, workers=2, chunk_size=64)
    assert (other.simulation.acc != one.simulation.acc).any()


@pytest.mark.slow
def test_a_duel_on_a_local_dask_cluster_equals_the_local_backend(capsys):
    # DESIGN: simulate and duel, Dask when one machine is not enough; the same games either way
    pytest.importorskip("dask.distributed")
    local = duel("best", "ev+lookahead", games=400, seed=9, chunk_size=64)
    dask = duel("best", "ev+lookahead", games=400, seed=9, chunk_size=64, backend="dask",
                scheduler="local", workers=2)
    assert (local.simulation.acc == dask.simulation.acc).all()
    assert dask.simulation.backend == "dask"
    timing = ("workers", "elapsed_seconds", "games_per_second")
    assert ({k: v for k, v in local.to_dict().items() if k not in timing}
            == {k: v for k, v in dask.to_dict().items() if k not in timing})
    argv = ["duel", "ev+greedy", "baseline", "--games", "200", "--seed", "3", "--json"]
    assert main(argv) == 0
    on_cores = json.loads(capsys.readouterr().out)
    assert main([*argv, "--scheduler", "local"]) == 0
    on_dask = json.loads(capsys.readouterr().out)
    assert on_dask["win_rate"] == on_cores["win_rate"]
    assert on_dask["match_points"] == on_cores["match_points"]
    assert main([*argv, "--scheduler", "nowhere"]) == 2
    err = capsys.readouterr().err
    assert err == ("crib duel: 'nowhere' is not a Dask scheduler address: use tcp://host:8786 "
                   "or 'local'\n")


def test_duel_refuses_bad_input():
    with pytest.raises(ValueError, match="even"):
        duel("baseline", "baseline", games=3, seed=1)
    with pytest.raises(ValueError, match="at least 2"):
        duel("baseline", "baseline", games=0, seed=1)
    with pytest.raises(PlayerError, match="nobody"):
        duel("nobody", "baseline", games=2, seed=1)


def test_old_checkpoints_are_refused(tmp_path):
    from analyzer import simulate
    from analyzer.sim.runs import RunError

    simulate(4, seed=1, players="baseline", workers=1, checkpoint=tmp_path, chunk_size=2)
    manifest = json.loads((tmp_path / "run.json").read_text())
    assert manifest["format"] == 5 and manifest["first_dealer"] == "cut"
    # 2: records laid out otherwise; 4: margins and records past the target (before session
    # 48), which a resumed run would add to games whose winner scores the target
    for old in (2, 4):
        (tmp_path / "run.json").write_text(json.dumps({**manifest, "format": old}))
        with pytest.raises(RunError, match=f"checkpoint format {old}"):
            simulate(4, seed=1, players="baseline", workers=1, checkpoint=tmp_path,
                     chunk_size=2, resume=True)


# --------------------------------------------------------------------------- the CLI


def test_cli_duel_text_and_json(capsys):
    argv = ["duel", "ev+greedy", "baseline", "--games", "200", "--seed", "3", "--workers", "1"]
    assert main([*argv, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    result = duel("ev+greedy", "baseline", games=200, seed=3, workers=1)
    for key in ("games", "win_rate", "win_rate_ci", "match_points", "match_points_ci",
                "a_skunk_rate", "b_skunk_rate", "a_double_skunk_rate", "b_double_skunk_rate",
                "first_deals", "seed", "players"):
        assert d[key] == json.loads(json.dumps(result.to_dict()))[key], key
    assert d["players"] == ["ev+greedy", "baseline"] and d["first_deals"] == [100, 100]
    low, high = d["win_rate_ci"]
    assert low < d["win_rate"] < high
    assert main([*argv, "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "ev+greedy (A) vs baseline (B): 200 games, seed 3" in out
    assert f"A wins             {d['win_rate']:7.2%}" in out
    assert f"{d['match_points']:+7.4f} a game" in out


@pytest.mark.parametrize("argv, message", [
    (["duel", "nobody", "baseline", "--games", "4"], "player 'nobody'"),
    (["duel", "ev+greedy", "ev+nothing", "--games", "4"], "unknown pegging policy"),
    (["duel", "baseline", "baseline", "--games", "0"], "--games"),
    (["duel", "baseline", "baseline", "--games", "5"], "even"),
    (["duel", "baseline", "baseline", "--games", "x"], "--games"),
    (["duel", "baseline", "baseline"], "--games"),
    (["duel", "baseline", "--games", "4"], "B"),
    (["duel", "baseline", "baseline", "--games", "4", "--seed", "-1"], "--seed"),
    (["duel", "baseline", "baseline", "--games", "4", "--workers", "0"], "--workers"),
])
def test_cli_duel_bad_input(argv, message, capsys):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert message in err and err.startswith("crib duel")
