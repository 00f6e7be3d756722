"""The score-aware keep (analyzer.play.winkeep): each keep's deal played out, against a naive
count."""

import numpy as np
import pytest
from naive import naive_play, naive_score, rank

from analyzer.core.cards import as_cards
from analyzer.core.choices import DISCARD_POLICIES, PEGGING_POLICIES
from analyzer.core.rng import chunk_states
from analyzer.core.scoring import hand_table, rank_table
from analyzer.keeping.crib import crib_values
from analyzer.keeping.discard import _DISCARD_TABLE, _KEEP_TABLE
from analyzer.play.players import _choose_discard
from analyzer.play.winkeep import _best_discard, _points_values, _rest_of_deal

ORDERED = PEGGING_POLICIES["ordered"]

# An "odds" table that spells out the scores it is read at: entry [i, j] = i * 1000 + j.
_SPELL = (np.arange(122)[:, None] * 1000 + np.arange(122)[None, :]).astype(np.float64)


def _naive_deal(six, d, opp_six, d_opp, starter, dealer, me, opp):
    """The scores after the deal, from scratch: heels, the play, both hands, the crib."""
    mine = [int(six[k]) for k in _KEEP_TABLE[d]]
    theirs = [int(opp_six[k]) for k in _KEEP_TABLE[d_opp]]
    crib = ([int(six[k]) for k in _DISCARD_TABLE[d]]
            + [int(opp_six[k]) for k in _DISCARD_TABLE[d_opp]])
    pone, dealer_hand = (theirs, mine) if dealer else (mine, theirs)
    _, (peg_pone, peg_dealer) = naive_play(pone, dealer_hand)
    heels = 2 if rank(starter) == 10 else 0
    dealer_pts = heels + peg_dealer + naive_score(dealer_hand, starter) + naive_score(
        crib, starter, crib=True)
    pone_pts = peg_pone + naive_score(pone, starter)
    return (me + dealer_pts, opp + pone_pts) if dealer else (me + pone_pts, opp + dealer_pts)


@pytest.mark.parametrize("dealer", [True, False])
def test_rest_of_deal_matches_a_naive_count(dealer):
    rng = np.random.default_rng(7)
    table, hands = rank_table(), hand_table()
    st = chunk_states(3, np.arange(1))[0].copy()
    keeps = np.arange(15)
    out = np.empty(15)
    for _ in range(40):
        cards = rng.permutation(52)[:13].astype(np.int64)
        six, opp_six, starter = cards[:6].copy(), cards[6:12].copy(), int(cards[12])
        d_opp = int(rng.integers(15))
        _rest_of_deal(six, opp_six, d_opp, starter, dealer, 0, 0, st,
                      np.array([ORDERED, ORDERED]), table, hands, _SPELL, crib_values("table"),
                      keeps, out)
        for d in range(15):
            me, opp = _naive_deal(six, d, opp_six, d_opp, starter, dealer, 0, 0)
            # The next deal is read from the table with the roles swapped.
            expected = 1.0 - _SPELL[121 - opp, 121 - me] if dealer else _SPELL[121 - me, 121 - opp]
            assert out[d] == expected


@pytest.mark.parametrize("dealer", [True, False])
def test_rest_of_deal_stops_the_moment_a_player_reaches_121(dealer):
    rng = np.random.default_rng(11)
    table, hands = rank_table(), hand_table()
    st = chunk_states(3, np.arange(1))[0].copy()
    out = np.empty(15)
    for _ in range(40):
        cards = rng.permutation(52)[:13].astype(np.int64)
        six, opp_six, starter = cards[:6].copy(), cards[6:12].copy(), int(cards[12])
        me, opp = (int(x) for x in rng.integers(100, 121, 2))
        _rest_of_deal(six, opp_six, 0, starter, dealer, me, opp, st,
                      np.array([ORDERED, ORDERED]), table, hands, _SPELL, crib_values("table"),
                      np.arange(15), out)
        for d in range(15):
            end_me, end_opp = _naive_deal(six, d, opp_six, 0, starter, dealer, me, opp)
            if end_me < 121 and end_opp < 121:
                continue  # nobody reached 121: the table's value (checked above)
            # Somebody reached 121: a win (1) or a loss (0), and the naive order decides which.
            assert out[d] in (0.0, 1.0)
            if end_opp < 121:
                assert out[d] == 1.0
            if end_me < 121:
                assert out[d] == 0.0


@pytest.mark.parametrize("dealer", [True, False])
def test_best_discard_without_samples_is_ev_when_pegging_is_worth_nothing(dealer):
    rng = np.random.default_rng(5)
    values, table, hands = crib_values("table"), rank_table(), hand_table()
    st = chunk_states(1, np.arange(1))[0].copy()
    no_pegging = np.zeros((2, 13**4))
    for _ in range(300):
        six = rng.permutation(52)[:6].astype(np.int64)
        ev = _choose_discard(DISCARD_POLICIES["ev"], six, dealer, values, hands, st)
        best = _best_discard(six, dealer, 0, 0, st, values, no_pegging, table, hands, _SPELL, 0,
                             40, 5)
        assert best == ev


def test_points_values_add_the_pegging_of_the_kept_ranks():
    values, hands = crib_values("table"), hand_table()
    six = np.array(sorted(as_cards("5H 5S 6D JC QS KH")), np.int64)
    peg = np.zeros((2, 13**4))
    base, with_peg = np.empty(15), np.empty(15)
    _points_values(six, True, values, peg, hands, base)
    peg[0, ((4 * 13 + 4) * 13 + 10) * 13 + 11] = 2.5  # 5 5 J Q as dealer
    _points_values(six, True, values, peg, hands, with_peg)
    changed = [d for d in range(15) if with_peg[d] != base[d]]
    assert len(changed) == 1
    d = changed[0]
    assert sorted(int(six[k]) // 4 for k in _KEEP_TABLE[d]) == [4, 4, 10, 11]
    assert with_peg[d] == pytest.approx(base[d] + 2.5)


@pytest.mark.parametrize("dealer", [True, False])
def test_the_score_aware_keep_is_the_points_keep_at_0_to_0(dealer):
    from analyzer import keep_to_win

    rng = np.random.default_rng(2026)
    for _ in range(6):
        six = [int(c) for c in rng.permutation(52)[:6]]
        df = keep_to_win(six, dealer, (0, 0), samples=1024, seed=1)
        assert df.attrs["win_keep"] == df.attrs["points_keep"]
        assert df["p_win"].between(0, 1).all() and (df["p_win_se"] > 0).all()


def test_the_score_aware_keep_leaves_the_points_keep_when_it_wins_more():
    from analyzer import keep_to_win

    # Dealer at 110 against 115: the pone needs 6 and counts first, so the dealer (needing 11)
    # must get there in the play or not at all; the points keep (5 J Q K, the most for hand and
    # crib) is not the keep that does that most often.
    df = keep_to_win("5H 5S 6D JC QS KH", dealer=True, score=(110, 115), samples=2048, seed=3)
    a = df.attrs
    assert a["win_keep"] != a["points_keep"]
    assert a["gain"] > 3 * a["gain_se"] > 0
    p = dict(zip(df["keep"], df["p_win"], strict=True))
    assert p[a["win_keep"]] > p[a["points_keep"]]


def test_same_seed_same_answer_and_a_new_seed_a_new_sample():
    from analyzer import keep_to_win

    a = keep_to_win("5H 5S 6D JC QS KH", True, (100, 100), samples=256, seed=5)
    b = keep_to_win("5H 5S 6D JC QS KH", True, (100, 100), samples=256, seed=5)
    c = keep_to_win("5H 5S 6D JC QS KH", True, (100, 100), samples=256, seed=6)
    assert a.equals(b)
    assert not a["p_win"].equals(c["p_win"])


@pytest.mark.parametrize("score", [(121, 0), (-1, 5), (3.5, 2), "110", (1, 2, 3)])
def test_bad_scores_are_refused(score):
    from analyzer import keep_to_win

    with pytest.raises(ValueError):
        keep_to_win("5H 5S 6D JC QS KH", True, score, samples=64)


def test_cli_keep_score(capsys):
    import json

    from analyzer.cli import main

    assert main(["keep", "5H", "5S", "6D", "JC", "QS", "KH", "--dealer", "--score", "110", "115",
                 "--samples", "512", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["score"] == [110, 115] and out["samples"] == 512 and len(out["rows"]) == 15
    assert {"keep", "net", "peg_mean", "p_win", "p_win_se"} <= set(out["rows"][0])
    assert main(["keep", "5H", "5S", "6D", "JC", "QS", "KH", "--pone", "--score", "0", "0",
                 "--samples", "256", "--top", "3"]) == 0
    text = capsys.readouterr().out
    assert "points keep: 5H 5S JC QS" in text and "score-aware keep: the points keep" in text
    # the keep chosen is shown whatever --top: here it is the points keep, second by P(win)
    assert main(["keep", "2S", "3D", "9D", "TS", "KC", "--dealer", "--score", "0", "3",
                 "--variant", "five-card", "--top", "1", "--samples", "64"]) == 0
    rows = capsys.readouterr().out.splitlines()[2:-2]  # the heading, the rows, the two keeps
    assert [row.split()[:4] for row in rows] == [["2S", "3D", "KC", "9D"],
                                                 ["*", "9D", "TS", "KC"]]
    # without --score the keeps are exact: the options of the samples are refused, not ignored
    for argv in (["--samples", "100"], ["--seed", "3"], ["--position", "first", "--variant",
                                                         "four-player"]):
        cards = ["5H", "5S", "6D", "JC", "QS"] + ([] if "four-player" in argv else ["KH"])
        assert main(["keep", *cards, "--dealer", *argv]) == 2
        assert capsys.readouterr().err == (f"crib keep: {argv[0]} goes with --score (the keeps "
                                           "ranked by the chance to win); without it the keeps "
                                           "are exact and ranked by points\n")
    for argv in (["--score", "121", "0"], ["--score", "5"], ["--score", "1", "2", "--variant",
                                                             "three-player"]):
        cards = ["5H", "5S", "6D", "JC", "QS"] + ([] if "three-player" in argv else ["KH"])
        assert main(["keep", *cards, "--dealer", *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


@pytest.fixture(scope="module")
def best_games():
    """Games of the best and pegging discard policies against ev, recorded."""
    from analyzer import simulate

    return {players: simulate(30, seed=12, players=players, record_games=30, workers=1).records
            for players in (("best", "ev+lookahead"), ("pegging+greedy", "ev+greedy"))}


def _decisions(records, seat):
    """(six, thrown, dealer, my score, opponent's score) of each discard of ``seat``."""
    for game in records:
        before = [0, 0]
        for deal in game["deals"]:
            yield (deal["hands"][seat], deal["discards"][seat], deal["dealer"] == seat,
                   before[seat], before[1 - seat])
            before = deal["scores"]


def _nets(six, dealer):
    from analyzer import keep

    df = keep(" ".join(six), dealer, pegging=True)
    return {frozenset(d.split()): net for d, net in zip(df["discard"], df["net"], strict=True)}


def test_the_pegging_discard_keeps_the_best_net_counting_the_play(best_games):
    n = 0
    for six, thrown, dealer, _, _ in _decisions(best_games["pegging+greedy", "ev+greedy"], 0):
        nets = _nets(six, dealer)
        assert nets[frozenset(thrown)] == pytest.approx(max(nets.values()), abs=1e-9)
        n += 1
    assert n > 100


def test_the_best_discard_plays_for_points_until_the_game_can_end(best_games):
    from analyzer.play.winkeep import BEST_DISCARD_CANDIDATES, BEST_DISCARD_REACH

    far = near = 0
    for six, thrown, dealer, me, opp in _decisions(best_games["best", "ev+lookahead"], 0):
        nets = _nets(six, dealer)
        if 121 - me > BEST_DISCARD_REACH and 121 - opp > BEST_DISCARD_REACH:
            assert nets[frozenset(thrown)] == pytest.approx(max(nets.values()), abs=1e-9)
            far += 1
        else:  # the points keep or one of the few next best by points
            rank = sorted(nets.values(), reverse=True).index(nets[frozenset(thrown)])
            assert rank < BEST_DISCARD_CANDIDATES
            near += 1
    assert far > 100 and near > 20


def test_best_games_replay_and_do_not_depend_on_the_workers(best_games):
    from analyzer import simulate
    from analyzer.sim.records import validate_record

    for record in best_games["best", "ev+lookahead"]:
        validate_record(record)
    a = simulate(12, seed=3, players=("best", "baseline"), chunk_size=4, workers=1,
                 record_games=12)
    b = simulate(12, seed=3, players=("best", "baseline"), chunk_size=4, workers=2,
                 record_games=12)
    assert a.records == b.records


def test_the_best_discard_looks_after_every_sixteen_samples():
    """Near the end the engine's ``best`` discard samples the rest of the deal for its 5 best
    keeps by points, looks after 16 samples, 32 and 48, and keeps the points keep at the first
    look where no other keep is ahead of it; after 64 it switches to the keep most ahead when
    that keep is 2 standard errors ahead. Checked against the same rule written out here, on
    the very samples (the kernel's sampler, :func:`_sample_keeps`, from the same stream): the
    same keep, and the stream left where the same number of samples leaves it."""
    from analyzer.play.winkeep import (
        BEST_DISCARD_CANDIDATES,
        BEST_DISCARD_FIRST,
        BEST_DISCARD_SAMPLES,
        ENGINE_SWITCH_Z,
        _sample_keeps,
        _unseen_deck,
    )
    from analyzer.research.pegging import peg_table

    values, table, hands = crib_values("table"), rank_table(), hand_table()
    pegs = np.array(peg_table(), np.float64)
    odds = _SPELL * 0 + np.linspace(0.0, 1.0, 122)[None, :]  # P(win) grows with the pone's need
    greedy = np.full(2, PEGGING_POLICIES["greedy"], np.int64)
    rng = np.random.default_rng(11)
    stops = []
    for trial in range(60):
        six = rng.permutation(52)[:6].astype(np.int64)
        dealer, me, opp = bool(trial % 2), 100 + trial % 15, 96 + trial % 20
        st = chunk_states(trial, np.arange(1))[0].copy()
        st_kernel = st.copy()
        got = _best_discard(six, dealer, me, opp, st_kernel, values, pegs, table, hands, odds,
                            BEST_DISCARD_SAMPLES, 30, BEST_DISCARD_CANDIDATES)
        points = np.empty(15)
        best = _points_values(six, dealer, values, pegs, hands, points)
        keeps = np.argsort(-points, kind="mergesort")[:BEST_DISCARD_CANDIDATES]
        deck, out, rows = _unseen_deck(six), np.empty(len(keeps)), []
        want, stop = None, BEST_DISCARD_SAMPLES
        for k in range(BEST_DISCARD_SAMPLES):
            if k and k % BEST_DISCARD_FIRST == 0:
                x = np.array(rows) - np.array(rows)[:, :1]
                if not (x[:, 1:].sum(axis=0) > 0).any():
                    want, stop = best, k
                    break
            _sample_keeps(six, dealer, me, opp, st, deck, greedy, values, table, hands, odds,
                          keeps, out)
            rows.append(out.copy())
        if want is None:
            x = np.array(rows) - np.array(rows)[:, :1]
            top = int(np.argmax(x.sum(axis=0)))
            mean, sd = x[:, top].mean(), x[:, top].std(ddof=1)
            want = (keeps[top] if top and mean > 0
                    and mean * mean * len(x) >= ENGINE_SWITCH_Z**2 * sd * sd else best)
        assert got == want, trial
        assert np.array_equal(st_kernel, st), trial  # it drew as many samples: it stopped there
        stops.append(stop)
    assert len(set(stops)) >= 3, stops  # the looks stopped at more than one point


def test_the_rival_of_keeps_alike_in_p_win_is_the_frame_s_first():
    from analyzer import keep_to_win

    # 5H 5S JC QS and 5H 5S JC KH win in the same samples here (a queen or a king, 110-115):
    # the rival and the keep chosen are the first of them in the frame (by net), not by column
    df = keep_to_win("5H 5S 6D JC QS KH", dealer=True, score=(110, 115), samples=500)
    tied = df[df["p_win"] == df["p_win"].max()]
    assert len(tied) >= 2
    first = next(k for k in df["keep"] if k != df.attrs["points_keep"])
    assert df.attrs["rival_keep"] == first == tied["keep"].iloc[0]
    assert df.attrs["win_keep"] == df["keep"].iloc[0]


def test_a_keep_that_wins_in_the_same_samples_as_the_points_keep_is_no_rival():
    """3S 6D 9S KH wins in exactly the samples 3S 6D 9S KS (the points keep) wins in, here: the
    rival named is the best of the keeps that differ, so the page and crib keep say what the
    next best keep gains, not "+0.0000 ± 0.0000"."""
    from analyzer import keep_to_win

    df = keep_to_win("3S 4D 6D 9S KH KS", dealer=False, score=(100, 105), samples=128)
    points = df.attrs["points_keep"]
    row = df[df["keep"] == points].iloc[0]
    same = df[(df["keep"] != points) & (df["p_win"] == row["p_win"])
              & (df["p_win_se"] == row["p_win_se"])]
    assert points == "3S 6D 9S KS" and list(same["keep"]) == ["3S 6D 9S KH"]
    others = df[~df["keep"].isin([points, "3S 6D 9S KH"])]
    assert df.attrs["rival_keep"] == others.sort_values("p_win", ascending=False,
                                                        kind="stable")["keep"].iloc[0]
    assert df.attrs["gain_se"] > 0
    assert df.attrs["gain"] == pytest.approx(others["p_win"].max() - row["p_win"], abs=1e-12)
