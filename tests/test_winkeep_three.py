"""The score-aware keep in three-player (issue 25): ``keep_to_win(..., variant="three-player")``,
``crib keep --score ME LEFT RIGHT --variant three-player`` and ``GET /api/keep/win`` with a third
score, against truths found without the samples' code: a sure win, the shipped table (built by
whole games of self-play and dynamic programming, :mod:`analyzer.research.odds3`) at the start
of a deal no one can end, the seats of ``crib odds``, and every refusal in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analyzer import keep_to_win
from analyzer.core.cards import format_card
from analyzer.core.choices import numba_threads
from analyzer.core.errors import ArgumentError
from analyzer.keeping.winodds import win_probability3, win_table3

HAND = "9H 9S KD 2C AS"
PLACES = ("dealer", "first", "second")


def test_a_sure_win_ranks_first_with_p_win_exactly_one():
    # first to show, needing 2: a keep with the pair of 9s counts 2 at least before anyone else
    # counts, and the others (61 and 51 short) cannot peg that far first; the dealer's heels
    # are his own 2
    df = keep_to_win(HAND, False, (119, 60, 70), samples=256, seed=3, variant="three-player",
                     position="first")
    pairs = df[df["keep"].str.contains("9H 9S")]
    assert len(pairs) == 3
    assert (pairs["p_win"] == 1.0).all() and (pairs["p_win_se"] == 0.0).all()
    assert set(df["keep"].iloc[:3]) == set(pairs["keep"])  # they rank first
    assert "9H 9S" in df.attrs["win_keep"] and df.attrs["position"] == "first"
    assert df.attrs["score"] == (119, 60, 70) and df.attrs["variant"] == "three-player"
    # second to show (on the dealer's right) the player on the dealer's left counts first: at
    # 119 with the pair of 9s kept he cannot be sure
    df = keep_to_win(HAND, False, (119, 60, 119), samples=256, seed=3, variant="three-player",
                     position="second")
    assert df["p_win"].max() < 1.0


def _random_hands(seed: int, n: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [" ".join(format_card(c) for c in rng.choice(52, 5, replace=False)) for _ in range(n)]


def _points_keep_mean(score, place: int, hands, odds=None) -> tuple[float, float]:
    """The mean over ``hands`` of the points keep's P(win) from ``score`` at ``place``, and its
    standard error."""
    p = []
    for k, hand in enumerate(hands):
        df = keep_to_win(hand, place == 0, score, samples=64, seed=k, variant="three-player",
                         position=PLACES[place], odds=odds)
        p.append(float(df.loc[df["keep"] == df.attrs["points_keep"], "p_win"].iloc[0]))
    p = np.array(p)
    return float(p.mean()), float(p.std(ddof=1) / np.sqrt(len(p)))


@pytest.mark.parametrize("score", [(0, 0, 0), (50, 80, 20)])
def test_far_from_the_end_a_random_hands_chance_is_the_tables_at_the_start_of_the_deal(score):
    # No one can reach 121 in this deal, so each sample's value is the table's after it; over
    # random hands, the points keep (about the ev keep the table's self-play made) wins as often
    # as the table says at the start of the deal, seen from the seats of crib odds: you are seat
    # 0, on your left seat 1, and the dealer is the seat `place` places to your right.
    hands = _random_hands(11, 120)
    for place in range(3):
        mean, se = _points_keep_mean(score, place, hands)
        want = win_probability3(score, dealer=(-place) % 3)[0]
        assert abs(mean - want) < 4 * se + 0.002, (place, mean, se, want)
    if score == (50, 80, 20):
        # the check can fail: with the table's places turned one seat the wrong way round (the
        # deal passed to the right) the chances are far from these
        wrong = np.roll(win_table3(), 1, axis=0)
        mean, se = _points_keep_mean(score, 1, hands[:40], odds=wrong)
        want = win_probability3(score, dealer=2)[0]
        assert abs(mean - want) > 10 * se


def test_every_keep_far_from_the_end_is_near_the_tables_chance():
    # At 0-0-0 one deal moves a chance by a few points at most: every keep of any hand is within
    # 0.15 of the table's chance at the start of the deal, and the hand's best by points is the
    # best by P(win) too (the score-aware keep is the points keep)
    for place in range(3):
        for hand in _random_hands(place, 4):
            df = keep_to_win(hand, place == 0, (0, 0, 0), samples=512, seed=1,
                             variant="three-player", position=PLACES[place])
            want = float(win_table3()[place, 121, 121, 121])
            assert (abs(df["p_win"] - want) < 0.15).all(), (hand, place)
            assert df.attrs["win_keep"] == df.attrs["points_keep"]


def test_the_same_seed_gives_the_same_answer_on_one_thread_or_two():
    args = dict(dealer=True, score=(100, 110, 95), samples=512, seed=9, variant="three-player")
    with numba_threads(1):
        one = keep_to_win("5H 5S 6D JC KH", **args)
    with numba_threads(2):
        two = keep_to_win("5H 5S 6D JC KH", **args)
    other = keep_to_win("5H 5S 6D JC KH", **{**args, "seed": 10})
    assert one.equals(two) and one.attrs == two.attrs
    assert not one["p_win"].equals(other["p_win"])
    assert one["p_win"].is_monotonic_decreasing and len(one) == 5


def test_the_score_goes_round_the_table_from_you():
    # (me, on my left, on my right): the same three players seen from the dealer's left (first)
    # and from the dealer's right (second) are the same state, each seat's chance is its own
    hand = "5H 5S 6D JC KH"
    a = keep_to_win(hand, False, (100, 90, 80), samples=64, variant="three-player",
                    position="second")
    assert a.attrs["score"] == (100, 90, 80) and a.attrs["position"] == "second"
    assert a.attrs["role"] == "pone"
    d = keep_to_win(hand, True, (100, 90, 80), samples=64, variant="three-player")
    assert d.attrs["position"] == "dealer" and d.attrs["role"] == "dealer"
    f = keep_to_win(hand, False, (100, 90, 80), samples=64, variant="three-player")
    assert f.attrs["position"] == "first"  # a pone's default


@pytest.mark.parametrize(("kwargs", "argument", "words"), [
    ({"score": (40, 50)}, "score", "three-player takes three scores"),
    ({"score": "40 50 60"}, "score", "three-player takes three scores"),
    ({"score": (121, 0, 0)}, "me", "at most 120"),
    ({"score": (0, 3.5, 0)}, "opp", "whole number"),
    ({"score": (0, 0, -1)}, "third", "at least 0"),
    ({"position": "third"}, "position", "one of dealer, first, second"),
    ({"position": "first", "dealer": True}, "position", "another player deals"),
    ({"position": "dealer", "dealer": False}, "position", "you deal"),
])
def test_bad_arguments_are_refused_in_one_line_naming_the_argument(kwargs, argument, words):
    from analyzer.play.winkeep import check_win_keep

    args = {"dealer": False, "score": (40, 50, 60), "position": None, **kwargs}
    with pytest.raises(ValueError) as said:
        keep_to_win(HAND, args["dealer"], args["score"], samples=64, variant="three-player",
                    position=args["position"])
    with pytest.raises(ArgumentError) as checked:
        check_win_keep(args["dealer"], args["score"], "three-player", args["position"])
    assert checked.value.argument == argument and str(checked.value) == str(said.value)
    assert words in str(said.value) and "\n" not in str(said.value)


def test_a_six_card_hand_or_a_bad_table_is_refused():
    from analyzer.core.cards import CardError

    with pytest.raises(CardError, match="dealt 5"):
        keep_to_win("5H 5S 6D JC QS KH", True, (40, 50, 60), samples=64, variant="three-player")
    with pytest.raises(ValueError, match=r"\(3, 122, 122, 122\)"):
        keep_to_win(HAND, True, (40, 50, 60), samples=64, variant="three-player",
                    odds=np.zeros((122, 122)))


# --------------------------------------------------------------------------- the command line


def test_cli_keep_score_three_player(capsys):
    from analyzer.cli import main

    argv = ["keep", *HAND.split(), "--pone", "--score", "119", "60", "70", "--variant",
            "three-player", "--position", "first", "--samples", "256"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == ("hand AS 2C 9H 9S KD as first (on the dealer's left), three-player, you "
                        "119, on your left 60, on your right 70: P(win) from 256 samples of the "
                        "rest of the deal (seed 0)")
    assert lines[1].split() == ["keep", "discard", "net", "P(win)", "±se"]
    assert len(lines) == 2 + 5 + 2
    assert lines[2].startswith("  * AS 2C 9H 9S") and lines[2].endswith("1.0000  0.0000")
    assert lines[-2] == "points keep: AS 2C 9H 9S (P(win) 1.0000)"
    argv = ["keep", *HAND.split(), "--dealer", "--score", "100", "95", "110", "--variant",
            "three-player", "--samples", "128", "--top", "2", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    df = keep_to_win(HAND, True, (100, 95, 110), samples=128, variant="three-player")
    assert out["variant"] == "three-player" and out["position"] == "dealer"
    assert out["score"] == [100, 95, 110] and out["samples"] == 128 and len(out["rows"]) == 2
    assert [r["p_win"] for r in out["rows"]] == df["p_win"].iloc[:2].tolist()
    assert out["win_keep"] == df.attrs["win_keep"]


@pytest.mark.parametrize(("argv", "says"), [
    (["--variant", "three-player", "--score", "40", "50"],
     "crib keep: --score: three-player takes three scores, yours, the player's on your left and "
     "the player's on your right (got 2)"),
    (["--variant", "four-player", "--score", "40", "50", "60"],
     "crib keep: --score: four-player takes two scores, your side's and the other side's (got "
     "3)"),
    (["--score", "40", "50", "60"],
     "crib keep: --score: six-card takes two scores, yours and the opponent's (got 3)"),
    (["--variant", "three-player", "--score", "40", "50", "60", "--position", "third"],
     "crib keep: --score: position: one of dealer, first, second in three-player (your place "
     "from the dealer round to the left), got 'third'"),
    (["--variant", "three-player", "--score", "40", "50", "60", "--position", "second"],
     "crib keep: --score: position second: another player deals, but the role given is the "
     "dealer's"),
    (["--variant", "three-player", "--score", "40", "50", "121"], "must be at most 120, got 121"),
    (["--variant", "five-card", "--score", "40", "50", "--position", "first"],
     "crib keep: --position is for three-player and four-player, not five-card"),
])
def test_cli_bad_scores_are_one_line_and_status_2(capsys, argv, says):
    from analyzer.cli import main

    cards = HAND.split() + ([] if "--variant" in argv else ["QC"])
    assert main(["keep", *cards, "--dealer", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and says in err and "Traceback" not in err


def test_keep_help_says_three_scores_in_three_player(capsys):
    from analyzer.cli import main

    with pytest.raises(SystemExit) as done:
        main(["keep", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "three-player: ME LEFT RIGHT" in text and "not three-player" not in text


# --------------------------------------------------------------------------- crib serve


@pytest.fixture(scope="module")
def client():
    pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
    pytest.importorskip("httpx2", reason="FastAPI's TestClient needs httpx2 (the test extra)")
    from fastapi.testclient import TestClient

    from analyzer.web.app import create_app

    return TestClient(create_app())


@pytest.mark.parametrize(("role", "score", "params"), [
    ("dealer", (100, 95, 110), {"samples": 128, "seed": 3}),
    ("pone", (119, 60, 70), {"position": "first", "samples": 64}),
    ("pone", (104, 110, 99), {"position": "second", "crib": "uniform", "samples": 192}),
])
def test_the_api_is_crib_keep_score_json(client, capsys, role, score, params):
    from analyzer.cli import main

    argv = [a for k, v in params.items() for a in (f"--{k}", str(v))]
    assert main(["keep", *HAND.split(), f"--{role}", "--score", *map(str, score), "--variant",
                 "three-player", *argv, "--json"]) == 0
    want = json.loads(capsys.readouterr().out)
    me, opp, third = score
    r = client.get("/api/keep/win", params={"hand": HAND, "role": role, "me": me, "opp": opp,
                                            "third": third, "variant": "three-player",
                                            **params})
    assert r.status_code == 200, r.text
    d = r.json()
    cards = ("hand", "points_keep", "win_keep", "rival_keep")
    for key, value in want.items():
        if key != "rows":
            assert (" ".join(d[key]) if key in cards else d[key]) == value, key
    assert len(d["rows"]) == len(want["rows"]) == 5
    for row, printed in zip(d["rows"], want["rows"], strict=True):
        for key, value in printed.items():
            assert (" ".join(row[key]) if key in ("keep", "discard") else row[key]) == value, key


@pytest.mark.parametrize(("params", "argv", "field"), [
    ({"variant": "three-player"}, ["--variant", "three-player", "--score", "40", "50"], "third"),
    ({"third": 60}, ["--score", "40", "50", "60", "--variant", "five-card"], "third"),
    ({"variant": "three-player", "third": 60, "position": "third"},
     ["--variant", "three-player", "--score", "40", "50", "60", "--position", "third"],
     "position"),
    ({"variant": "three-player", "third": 60, "position": "first"},
     ["--variant", "three-player", "--score", "40", "50", "60", "--position", "first"],
     "position"),
])
def test_a_score_the_command_line_refuses_the_api_refuses_in_its_words(client, capsys, params,
                                                                      argv, field):
    from analyzer.cli import main

    variant = params.get("variant", "five-card")
    assert main(["keep", *HAND.split(), "--dealer", *argv]) == 2
    err = capsys.readouterr().err
    prefix = "crib keep: --score: "
    assert err.startswith(prefix) and err.count("\n") == 1
    query = {"hand": HAND, "role": "dealer", "me": 40, "opp": 50, **params, "variant": variant}
    r = client.get("/api/keep/win", params=query)
    assert r.status_code == 422, r.text
    body = r.json()
    assert body == {"error": err[len(prefix):].rstrip("\n"), "field": field}
    # a score past 120 is the API's own words, as for the other scores
    r = client.get("/api/keep/win", params={**query, "third": 121, "variant": "three-player"})
    assert r.status_code == 422 and r.json() == {"error": "third: 121 is more than 120",
                                                 "field": "third"}
