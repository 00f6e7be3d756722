"""Which card to lay: the rollout search (analyzer.play.search), advise_play, crib peg, and the
engine's ``best`` pegging policy."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_cli import run

from analyzer import parse_cards, peg_points, simulate
from analyzer.core.cards import format_card
from analyzer.keeping.crib import crib_values
from analyzer.play.search import advise_play, model_win_table
from analyzer.sim.records import validate_record


def _value(card: int) -> int:
    return min(card // 4 + 1, 10)


@pytest.fixture(scope="module")
def recorded_games():
    """Games of best against lookahead, recorded: real positions with goes, 31s and last cards."""
    result = simulate(6, seed=5, players=["ev+best", "ev+lookahead"], record_games=6, workers=1)
    return result.records


def _positions(records, limit=60):
    """(hand, played, dealer, starter, thrown, card laid, cards in the count before it, last card?)
    for the cards laid in recorded deals, the count followed by a plain tally."""
    out = []
    for game in records:
        for deal in game["deals"]:
            plays = deal["plays"]
            if len(plays) < 8:
                continue  # the game ended in this play
            counted: list[int] = []
            for k, (seat, card, _points) in enumerate(plays):
                c = int(parse_cards(card)[0])
                ended = sum(_value(x) for x in counted) + _value(c) > 31
                if ended:  # nobody could lay: the count ended by goes
                    counted = []
                six = [int(x) for x in parse_cards(deal["hands"][seat])]
                thrown = [int(x) for x in parse_cards(deal["discards"][seat])]
                hand = [x for x in six if x not in thrown]
                played = [p[1] for p in plays[:k]] + (["go"] if ended else [])
                out.append((hand, played, seat == deal["dealer"], deal["starter"], thrown, c,
                            list(counted), k == len(plays) - 1))
                counted.append(c)
                if sum(_value(x) for x in counted) == 31:
                    counted = []
    return out[:limit]


def test_points_now_are_the_peg_points_of_the_count(recorded_games):
    positions = _positions(recorded_games)
    assert len(positions) >= 40
    for hand, played, dealer, starter, thrown, card, counted, last in positions:
        advice = advise_play(hand, played, dealer=dealer, starter=starter, thrown=thrown,
                             samples=4, seed=1)
        assert advice.attrs["count"] == sum(_value(x) for x in counted)
        row = advice[advice.card == format_card(card)]
        assert len(row) == 1, (hand, played, card)
        count = sum(_value(x) for x in counted) + _value(card)
        expected = peg_points([*counted, card]) + (1 if last and count != 31 else 0)
        assert int(row.now.iloc[0]) == expected
        # the legal cards are exactly the cards still held that fit the count
        held = [x for x in hand if format_card(x) not in played]
        fit = {format_card(x) for x in held
               if advice.attrs["count"] + _value(x) <= 31}
        assert set(advice.card) == fit


def test_a_card_that_wins_at_once_is_laid():
    # 119 to 100: the 5 makes 15 for 2 and wins; the others peg nothing
    advice = advise_play("5H 9S KD 2C", "TD", dealer=True, starter="3S", score=(119, 100),
                         samples=200)
    assert advice.attrs["best"] == "5H"
    assert advice.loc[0, "p_win"] == 1.0 and advice.loc[0, "p_win_se"] == 0.0


def test_a_winning_card_is_laid_whenever_there_is_one(recorded_games):
    tried = 0
    for hand, played, dealer, starter, thrown, _card, _counted, _last in _positions(
            recorded_games):
        pegging = advise_play(hand, played, dealer=dealer, starter=starter, thrown=thrown,
                              samples=4)
        top = int(pegging.now.max()) if len(pegging) else 0
        if top == 0:
            continue
        tried += 1
        # needing exactly the most any card pegs now: only such a card wins at once
        advice = advise_play(hand, played, dealer=dealer, starter=starter, thrown=thrown,
                             score=(121 - top, 60), samples=50)
        best = advice.iloc[0]
        assert best.now == top and best.p_win == 1.0
    assert tried >= 5


def test_with_the_opponent_out_of_cards_the_rest_is_counted_by_hand():
    # As dealer: the pone laid 9C, 9D, 3C and AC; the dealer QS and JH; the dealer holds TD KS
    # at count 11. Either card makes 21, the other 31 for 2 and the end of the play: the rest of
    # the play pegs exactly 2 for, 0 against, whatever the samples.
    played = "9C QS 9D 3C JH AC"
    advice = advise_play("QS JH TD KS", played, dealer=True, starter="2D", samples=50)
    assert advice.attrs["count"] == 11
    assert sorted(advice.card) == ["KS", "TD"]
    assert (advice.now == 0).all()
    assert (advice.rest_for == 2.0).all() and (advice.rest_against == 0.0).all()
    assert (advice.rest_se == 0.0).all()


def test_a_go_marker_starts_the_next_count():
    # count 28 and the pone holds 5H KD: it says go, the dealer too; "go" asks for the lead
    assert advise_play("4C 5H 9S KD", "4C JD 9S 5D", dealer=False,
                       starter="2S").attrs["best"] == "go"
    advice = advise_play("4C 5H 9S KD", "4C JD 9S 5D go", dealer=False, starter="2S",
                         samples=20)
    assert advice.attrs["count"] == 0 and set(advice.card) == {"5H", "KD"}
    with pytest.raises(ValueError, match="you could lay"):
        advise_play("4C 5H 9S KD", "4C JD go", dealer=False, starter="2S")


def test_go_when_no_card_can_be_laid():
    advice = advise_play("4C 5H 9S KD", "4C JD 9S 5D", dealer=False, starter="2S")
    assert advice.attrs["best"] == "go" and len(advice) == 0
    assert advice.attrs["count"] == 28


def test_same_seed_same_advice_and_the_samples_are_shared():
    args = ("4C 5H 9S KD", "4C 6D")
    a = advise_play(*args, dealer=False, starter="2S", samples=300, seed=3, score=(90, 95))
    b = advise_play(*args, dealer=False, starter="2S", samples=300, seed=3, score=(90, 95))
    assert a.equals(b)
    c = advise_play(*args, dealer=False, starter="2S", samples=300, seed=4, score=(90, 95))
    assert not a.equals(c)


@pytest.mark.parametrize("kwargs, words", [
    ({"hand": "4C 5H 9S", "played": ""}, "expected 4 cards"),
    ({"hand": "4C 5H 9S KD", "played": "4C 4C"}, "4C"),
    ({"hand": "4C 5H 9S KD", "played": "2S"}, "2S"),  # the starter laid
    ({"hand": "4C 5H 9S KD", "played": "4C JD 9S QD"}, "you could lay 5H"),
    ({"hand": "4C 5H 9S KD", "played": "4C JD 9S 6D 5H"}, "opponent's turn"),
    ({"hand": "4C 5H 9S KD", "played": "4C 5H", "dealer": True}, "the pone leads"),
    ({"hand": "4C 5H 9S KD", "played": "4C 6D 5H 7D 9S 8D KD"}, "all four"),
    ({"hand": "4C 5H 9S KD", "played": "4C 6D 5H 7D 9S 8D KS AD AH"}, "at most 8"),
    ({"hand": "4C 5H 9S KD", "played": "", "score": (121, 3)}, "at most 120"),
    ({"hand": "4C 5H 9S KD", "played": "", "score": (3,)}, "two numbers"),
    ({"hand": "4C 5H 9S KD", "played": "", "samples": 0}, "samples"),
    ({"hand": "4C 5H 9S KD", "played": "", "thrown": "4C 2H"}, "4C"),
    ({"hand": "4C 5H 9S KD", "played": "go"}, "no count to end"),
])
def test_bad_positions_are_refused(kwargs, words):
    kwargs = {"dealer": False, "starter": "2S", **kwargs}
    with pytest.raises(ValueError, match=words):
        advise_play(kwargs.pop("hand"), kwargs.pop("played"), **kwargs)


def test_an_opponent_go_limits_its_cards():
    # The pone led KD (10), the dealer 9C (19), the pone 8S (27): the pone is to lay again, so
    # the dealer said go, and every card it holds is worth 5 or more.
    advice = advise_play("KD 8S 4C 5H", "KD 9C 8S", dealer=False, starter="2S", samples=50)
    assert advice.attrs["count"] == 27
    assert set(advice.card) == {"4C"}  # 5H would make 32
    with pytest.raises(ValueError, match="said go earlier"):
        # after the 31 the dealer lays a 2 it held when it said go
        advise_play("KD 8S 4C 5H", "KD 9C 8S 4C 2D", dealer=False, starter="2S")
    advise_play("KD 8S 4C 5H", "KD 9C 8S 4C 6D", dealer=False, starter="2S", samples=5)


def test_model_win_table_is_a_win_table():
    d = model_win_table()
    assert d.shape == (122, 122)
    assert (d[0, 1:] == 1).all() and (d[1:, 0] == 0).all()
    inner = d[1:, 1:]
    assert ((inner >= 0) & (inner <= 1)).all()
    # the dealer's chance falls as it needs more and rises as the pone needs more
    assert (np.diff(inner, axis=0) <= 1e-12).all() and (np.diff(inner, axis=1) >= -1e-12).all()


# --------------------------------------------------------------------------- the engine


def test_best_lays_only_legal_cards_and_its_games_replay(recorded_games):
    assert len(recorded_games) == 6
    for record in recorded_games:
        validate_record(record)  # re-scores every card laid, go, 31 and last card


def test_best_games_are_reproducible_whatever_the_workers():
    a = simulate(40, seed=9, players=["ev+best", "ev+greedy"], chunk_size=10, workers=1,
                 record_games=40)
    b = simulate(40, seed=9, players=["ev+best", "ev+greedy"], chunk_size=10, workers=2,
                 record_games=40)
    assert a.records == b.records
    c = simulate(40, seed=9, players=["ev+lookahead", "ev+greedy"], chunk_size=10, workers=1,
                 record_games=40)
    assert a.records != c.records  # best is not lookahead under another name


# --------------------------------------------------------------------------- crib peg


def test_crib_peg_prints_the_cards_and_the_best():
    result = run("peg", "--hand", "4C", "5H", "9S", "KD", "--played", "4C", "6D", "--starter",
                 "2S", "--pone", "--samples", "500")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("hand 4C 5H 9S KD as pone, starter 2S; played 4C 6D (count 10)")
    assert lines[2].split()[:3] == ["*", "5H", "5"]
    assert lines[-1].startswith("best: lay 5H")


def test_crib_peg_json_and_score():
    result = run("peg", "--hand", "5H", "9S", "KD", "2C", "--played", "TD", "--starter", "3S",
                 "--dealer", "--score", "119", "100", "--samples", "100", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["best"] == "5H" and data["count"] == 10 and data["role"] == "dealer"
    assert data["rows"][0]["p_win"] == 1.0 and data["rows"][0]["now"] == 2
    assert {"card", "now", "rest_for", "rest_against", "rest", "rest_se", "total", "wins_now",
            "p_win", "p_win_se"} <= set(data["rows"][0])
    # 5H makes 15 for 2: 121, the game won now (as the other forms mark it)
    assert [row["wins_now"] for row in data["rows"]] == [True] + [False] * 3
    text = run("peg", "--hand", "5H", "9S", "KD", "2C", "--played", "TD", "--starter", "3S",
               "--dealer", "--score", "119", "100", "--samples", "100").stdout
    assert "best: lay 5H (it reaches the target)" in text
    assert [line for line in text.splitlines() if line.endswith("wins now")][0].startswith(
        "  * 5H")
    plain = run("peg", "--hand", "5H", "9S", "KD", "2C", "--played", "TD", "--starter", "3S",
                "--dealer", "--samples", "100", "--json")
    assert not any(row["wins_now"] for row in json.loads(plain.stdout)["rows"])  # no score


@pytest.mark.slow
def test_crib_peg_uniform_is_advise_play_without_the_posterior():
    args = ("peg", "--hand", "4C", "5H", "9S", "KD", "--played", "4C", "6D", "--starter", "2S",
            "--pone", "--samples", "300", "--json")
    for flags, infer, name in (((), True, "ev discard"), (("--uniform",), False, "uniform")):
        result = run(*args, *flags)
        assert result.returncode == 0, result.stderr
        data = json.loads(result.stdout)
        assert data["opponent"] == name
        advice = advise_play("4C 5H 9S KD", "4C 6D", dealer=False, starter="2S", samples=300,
                             infer=infer)
        assert [row["card"] for row in data["rows"]] == list(advice.card)
        assert [row["rest"] for row in data["rows"]] == pytest.approx(list(advice.rest),
                                                                     abs=1e-12)


def test_crib_peg_says_go():
    result = run("peg", "--hand", "4C", "5H", "9S", "KD", "--played", "4C", "JD", "9S", "5D",
                 "--starter", "2S", "--pone")
    assert result.returncode == 0
    assert "go: no card you hold can be laid on count 28" in result.stdout


def test_crib_peg_takes_go_in_played_as_the_docs_say():
    # the count ended by goes at 28 (4C JD 9S 5D, go): the pone leads the new count, and the
    # command answers as advise_play does, the go written back as given
    args = ("peg", "--hand", "4C", "5H", "9S", "KD", "--played", "4C", "jd", "9S", "5D", "GO",
            "--starter", "2S", "--pone", "--samples", "200")
    result = run(*args)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("hand 4C 5H 9S KD as pone, starter 2S; played 4C JD 9S 5D "
                                    "go (count 0)")
    data = json.loads(run(*args, "--json").stdout)
    advice = advise_play("4C 5H 9S KD", "4C JD 9S 5D go", dealer=False, starter="2S",
                         samples=200)
    assert data["played"] == "4C JD 9S 5D go" and data["count"] == 0
    assert [row["card"] for row in data["rows"]] == list(advice.card) == ["KD", "5H"]


def test_a_card_given_twice_is_named_with_where_it_was_given():
    result = run("peg", "--hand", "4C", "5H", "9S", "KD", "--starter", "2S", "--pone",
                 "--thrown", "2S", "3S")
    assert (result.returncode, result.stderr) == (2, "crib peg: 2S is both the starter and in "
                                                     "thrown\n")
    with pytest.raises(ValueError, match="^5H is both in hand and in thrown$"):
        advise_play([18, 0, 32, 48], dealer=True, starter=7, thrown=[18, 1])
    with pytest.raises(ValueError, match="^duplicate card 5H$"):
        advise_play([18, 0, 32, 18], dealer=True, starter=7)  # ids: no "'18' and '18'"


@pytest.mark.parametrize("args", [
    ("--hand", "4C", "5H", "9S", "--starter", "2S", "--pone"),
    ("--hand", "4C", "5H", "9S", "KD", "--starter", "2S", "--dealer"),
    ("--hand", "4C", "5H", "9S", "KD", "--starter", "2S", "--pone", "--score", "121", "0"),
    ("--hand", "4C", "5H", "9S", "KD", "--played", "4X", "--starter", "2S", "--pone"),
    ("--hand", "4C", "5H", "9S", "KD", "--starter", "2S"),
])
def test_crib_peg_bad_input_is_one_line(args):
    result = run("peg", *args)
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_the_samples_respect_the_opponents_go():
    # The opponent holds one card and said go at 22 earlier in the deal: it is a ten-card. We
    # lead from 5H 4C: with 5H it makes 15 for 2 and we take the last card (1); with 4C it makes
    # 14, nothing, and we take the last card. Exact whatever the samples.
    from analyzer.core.scoring import hand_table, rank_table
    from analyzer.play.search import _N_OUT, _search

    ids = [int(c) for c in parse_cards("5H 4C KH QH")]
    out = np.empty((4, _N_OUT))
    for floor, exact in ((10, True), (0, False)):
        n = _search(np.array(ids, np.int64), np.array([False, False, True, True]),
                    np.zeros(0, np.int64), int(parse_cards("2S")[0]),
                    np.array([int(c) for c in parse_cards("9S 8S 7S")], np.int64), 1, floor,
                    np.zeros(9, np.int64), 0, 0, False, 0, 0, 121, rank_table(),
                    np.zeros((1, 1)), 200, 1, np.array([1, 2, 3, 4], np.uint64), -1, out,
                    crib_values("table"), hand_table(), False, 0, 0, 0, 0)
        assert n == 2
        values = {c: tuple(out[i, 1:4]) for i, c in enumerate(["5H", "4C"])}
        if exact:
            assert values == {"5H": (0.0, 1.0, 2.0), "4C": (0.0, 1.0, 0.0)}
        else:  # any unseen card: a 6 answers 4C with 15, a 5 pairs the 5H, ...
            assert values["4C"][2] > 0.0 and out[0, 4] > 0.0


def _no_read():
    """The read's arguments of :func:`analyzer.play.search._draw_posterior` for no read: no
    play, and its scratch."""
    return 0, 0, 0, np.empty(6, np.int64)


def _posterior_draws(pool, opp_laid, floor, opp_dealer, n, seed):
    """``n`` tries of the search's own sampler of the opponent's hand and throw: the hands and
    throws of the draws that fitted, and how many fitted."""
    from analyzer.core.scoring import hand_table
    from analyzer.play.search import _draw_posterior

    st = np.array([seed, 7, 11, 13], np.uint64)
    work, six = np.empty(52, np.int64), np.empty(6, np.int64)
    hands = np.empty((n, 4 - len(opp_laid)), np.int64)
    throws = np.empty((n, 2), np.int64)
    pool = np.array(pool, np.int64)
    laid = np.array(opp_laid, np.int64)
    tables = crib_values("table"), hand_table()
    fitted = 0
    for _ in range(n):
        if _draw_posterior(pool, len(pool), laid, floor, 0, opp_dealer, *tables, st, work, six,
                           hands[fitted], throws[fitted], *_no_read()):
            fitted += 1
    return hands[:fitted], throws[:fitted], fitted


def _rank_shares(cards):
    return np.bincount(np.asarray(cards).ravel() // 4, minlength=13) / np.asarray(cards).size


def test_posterior_draws_agree_with_a_rejection_sampler_built_on_keep():
    """The opponent (the dealer) has laid 6D. The search's draws of its other three cards and
    its throw against a plain rejection sampler written with the public ``evaluate_discards``:
    deal it six with the 6D, keep what the points (with the crib table) say, keep the draw if
    the 6D is kept. The rank shares of its hand and of its throw agree; both differ clearly
    from a uniform draw of the unseen cards."""
    from analyzer.keeping.discard import evaluate_discards

    seen = parse_cards("4C 5H 9S KD 2H 3H 2S 6D")
    pool = sorted(set(range(52)) - {int(c) for c in seen})
    six_d = int(parse_cards("6D")[0])
    n = 6000
    hands, throws, fitted = _posterior_draws(pool, [six_d], 0, True, n, seed=3)
    assert fitted == n  # with one card laid and no go, a fitting draw is found at once
    rng = np.random.default_rng(3)
    o_hands, o_throws = [], []
    while len(o_hands) < n:
        six = [six_d, *rng.choice(pool, 5, replace=False)]
        best = evaluate_discards(six, dealer=True, crib="table", pegging=False)
        thrown = [int(c) for c in parse_cards(best["discard"][0])]
        if six_d in thrown:
            continue
        o_hands.append([c for c in six if c not in thrown and c != six_d])
        o_throws.append(thrown)
    for ours, oracle in ((hands, o_hands), (throws, o_throws)):
        p, q = _rank_shares(ours), _rank_shares(oracle)
        se = np.sqrt(np.maximum(p * (1 - p) + q * (1 - q), 1e-12) / np.asarray(ours).size)
        assert np.all(np.abs(p - q) <= 5 * se + 1e-9), (p, q)
    uniform = _rank_shares(pool)
    assert np.max(np.abs(_rank_shares(throws) - uniform)) > 0.05  # the throw says something


def test_posterior_draws_fit_the_goes_and_fall_back_when_none_fits():
    from analyzer.core.scoring import hand_table
    from analyzer.play.search import _draw_posterior

    seen = parse_cards("4C 5H 9S KD 2H 3H 2S 6D 8C")
    pool = sorted(set(range(52)) - {int(c) for c in seen})
    laid = [int(c) for c in parse_cards("6D 8C")]
    hands, throws, fitted = _posterior_draws(pool, laid, 7, False, 300, seed=5)
    assert fitted > 150
    assert all(_value(c) >= 7 for c in hands.ravel())
    for hand, thrown in zip(hands, throws, strict=True):
        assert len({*hand, *thrown, *laid}) == 6
    # no unseen card can be worth 11: no draw fits, and the sampler says so
    args = (np.array(pool, np.int64), len(pool), np.array(laid, np.int64), 11, 0, False,
            crib_values("table"), hand_table(), np.array([1, 2, 3, 4], np.uint64),
            np.empty(52, np.int64), np.empty(6, np.int64), np.empty(2, np.int64),
            np.empty(2, np.int64), *_no_read())
    assert not _draw_posterior(*args)


def test_advise_play_with_and_without_the_posterior():
    args = dict(dealer=False, starter="2S", samples=800, seed=4)
    posterior = advise_play("4C 5H 9S KD", "4C 6D", **args)
    assert posterior.equals(advise_play("4C 5H 9S KD", "4C 6D", infer=True, **args))
    uniform = advise_play("4C 5H 9S KD", "4C 6D", infer=False, **args)
    assert uniform.equals(advise_play("4C 5H 9S KD", "4C 6D", infer=False, **args))
    assert set(uniform.card) == set(posterior.card)
    assert (uniform.set_index("card").now == posterior.set_index("card").now).all()
    assert not np.allclose(uniform.set_index("card").rest, posterior.set_index("card").rest)
    with pytest.raises(ValueError, match="infer"):
        advise_play("4C 5H 9S KD", "4C 6D", infer=1.0, **args)


def test_the_rollouts_packed_count_scores_as_the_rules():
    """The greedy rollouts (and the engine, through ``_peg_points``) weigh each card by
    ``_peg_points_packed`` (the count's ranks packed four bits each): the naive scorer's points,
    on counts from one card to thirteen (four Aces, four 2s, four 3s and a 4: the longest a
    count can be, in the forms of four hands)."""
    from naive import naive_peg_points

    from analyzer.core.scoring import _peg_points_packed

    rng = np.random.default_rng(26)
    low = [c for c in range(52) if c // 4 <= 3]  # Aces to 4s: the long counts
    counts = 0
    for deck in [rng.permutation(52) for _ in range(1500)] + [rng.permutation(low)
                                                               for _ in range(1500)]:
        cards, total = [], 0
        for c in deck:
            value = min(int(c) // 4 + 1, 10)
            if total + value > 31:
                break
            cards.append(int(c))
            total += value
            packed = 0
            for earlier in cards[:-1]:
                packed = (packed << 4) | earlier // 4
            assert _peg_points_packed(packed, len(cards) - 1, cards[-1] // 4, total) \
                == naive_peg_points(cards), cards
            counts += 1
    assert counts > 15000


def test_the_greedy_rollout_plays_as_the_general_rollout_with_greedy():
    """best's rollouts (``_greedy_rollout``) against the general two-player rollout with the
    greedy policy for both (``_rollout``, the engine's rules and policies): the same points to
    each and the same winner, from whole plays and from plays in progress, with and without a
    target reached on the way."""
    from analyzer.core.choices import PEGGING_POLICIES
    from analyzer.play.search import _greedy_rollout, _rollout

    rng = np.random.default_rng(12)
    greedy = np.full(2, PEGGING_POLICIES["greedy"], np.int64)
    st = np.array([1, 2, 3, 4], np.uint64)
    for trial in range(3000):
        cards = rng.permutation(52)[:8].astype(np.int64)
        kept = cards.reshape(2, 4).copy()
        laid = np.zeros((2, 4), np.bool_)
        left = np.full(2, 4, np.int64)
        seq = np.zeros(9, np.int64)
        count, nseq, turn, last, passes = 0, 0, int(rng.integers(2)), -1, 0
        for _ in range(int(rng.integers(0, 5))):  # lay a few cards at random first
            p = turn
            fits = [i for i in range(4) if not laid[p, i] and count + _value(kept[p, i]) <= 31]
            if not fits:
                break
            i = int(rng.choice(fits))
            laid[p, i], left[p] = True, left[p] - 1
            count += _value(kept[p, i])
            seq[nseq], nseq = kept[p, i] // 4, nseq + 1
            last, turn = p, 1 - p
            if count == 31:
                count, nseq = 0, 0
        scores = rng.integers(90, 121, 2) if trial % 2 else np.zeros(2, np.int64)
        target = 121 if trial % 2 else 1 << 40
        results = []
        for fast in (True, False):
            a = dict(kept=kept.copy(), laid=laid.copy(), left=left.copy(), seq=seq.copy(),
                     scores=np.array(scores, np.int64), pegged=np.zeros(2, np.int64))
            args = (a["kept"], a["laid"], a["left"], a["seq"], np.int64(nseq), np.int64(count),
                    np.int64(turn), np.int64(last), np.int64(passes))
            if fast:
                w = _greedy_rollout(*args, a["scores"], np.int64(target), a["pegged"])
            else:
                w = _rollout(*args, np.full((2, 13), 4, np.int64), greedy, a["scores"],
                             np.int64(target), st, a["pegged"])
            results.append((w, *a["scores"], *a["pegged"], *a["laid"].ravel()))
        assert results[0] == results[1], (kept, laid, count)


def test_the_engines_search_looks_after_every_eight_samples():
    """``best``'s search (``n_first`` 8, at most 32 samples) stops after 8, 16 or 24 samples at
    the first look where no card's mean paired difference from the reference is above zero, and
    its figures are then those of that many samples: each answer equals the search drawn with
    exactly that many samples (the same stream), whose earlier looks each had a card ahead."""
    from analyzer.core.scoring import hand_table, rank_table
    from analyzer.keeping.winodds import win_table
    from analyzer.play.search import _BEST_CONT, _DIFF, _LEGAL, _N_OUT, _search

    odds = np.array(win_table(), np.float64)
    tables = (rank_table(), odds)

    def search(hand, thrown, starter, opp_laid, seed, n_samples, n_first):
        out = np.empty((4, _N_OUT))
        n = _search(np.array(hand, np.int64), np.zeros(4, np.bool_), np.array(thrown, np.int64),
                    starter, np.array(opp_laid, np.int64), 4 - len(opp_laid), 0,
                    np.zeros(9, np.int64), 0, 0, True, 100, 104, 121, *tables,
                    n_samples, _BEST_CONT, np.array([seed, 3, 5, 7], np.uint64), 0, out,
                    crib_values("table"), hand_table(), True, n_first, 0, 0, 0)
        assert n == 4
        return out

    def ahead(out):
        return bool(((out[1:, _DIFF] > 0.0) & (out[1:, _LEGAL] != 0.0)).any())

    stops = set()
    for seed in range(1, 41):
        hand = [int(c) for c in parse_cards(("5H 4C KH QH", "2D 3S 9C JC")[seed % 2])]
        thrown = [int(c) for c in parse_cards("7D 8D")]
        starter = int(parse_cards("AS")[0])
        got = search(hand, thrown, starter, [], seed, 32, 8)
        prefixes = {k: search(hand, thrown, starter, [], seed, k, 0) for k in (8, 16, 24, 32)}
        matches = [k for k, out in prefixes.items() if np.array_equal(out, got, equal_nan=True)]
        assert matches, seed
        k = matches[0]
        assert all(ahead(prefixes[j]) for j in (8, 16, 24) if j < k), (seed, k)
        assert k == 32 or not ahead(prefixes[k]), (seed, k)
        stops.add(k)
    assert len(stops) >= 2  # the looks both stopped and went on
