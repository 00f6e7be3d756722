"""The review of a recorded game (analyzer.table.review, crib review) against independent truth: the
discard values recomputed from the naive scorer and the shipped tables' text, a deal worked by
hand, players whose discards are the measure itself (they lose nothing), a fifteen missed in the
play, and the command line."""

from __future__ import annotations

import copy
import csv
import json
from itertools import combinations
from pathlib import Path

import pytest

from analyzer import simulate
from analyzer.cli import main
from analyzer.sim.records import RecordError, write_records
from analyzer.table.review import COLUMNS, format_review, review_game
from tests.naive import card, naive_score, value

DATA = Path(__file__).resolve().parents[1] / "data"
RANK_LABELS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SAMPLES = 256  # the play's rollouts in most tests: the values are not what they check
TOL = 1e-9


# --------------------------------------------------------------------------- independent values


def _crib_table() -> dict:
    """The shipped self-play crib values, read from the CSV text: (low rank, high rank, suited)
    -> (dealer, pone)."""
    out = {}
    with open(DATA / "crib_values.csv", newline="") as f:
        for row in csv.DictReader(f):
            key = (RANK_LABELS.index(row["card1"]), RANK_LABELS.index(row["card2"]),
                   int(row["suited"]))
            out[key] = (float(row["dealer"]), float(row["pone"]))
    return out


def _peg_table() -> dict:
    """The shipped pegging values (peg_net), from the CSV text: (role, sorted ranks) -> value."""
    out = {}
    with open(DATA / "pegging_values.csv", newline="") as f:
        for row in csv.DictReader(f):
            ranks = tuple(sorted(RANK_LABELS.index(t) for t in row["ranks"].split("-")))
            out[(row["role"], ranks)] = float(row["peg_net"])
    return out


CRIB, PEG = _crib_table(), _peg_table()


def naive_keep_values(six: list[str], dealer: bool) -> dict[frozenset, float]:
    """Every keep's value the way the review's docstring defines it, from the naive scorer and
    the tables' text: the hand's mean over the 46 unseen starters, plus (dealer) or minus (pone)
    the crib value of the thrown pair, plus the keep's pegging value in its role."""
    ids = [card(c) for c in six]
    starters = [s for s in range(52) if s not in ids]
    assert len(starters) == 46
    values = {}
    for kept in combinations(ids, 4):
        a, b = (c for c in ids if c not in kept)
        hand = sum(naive_score(kept, s) for s in starters) / 46
        lo, hi = sorted((a // 4, b // 4))
        crib = CRIB[(lo, hi, int(a % 4 == b % 4 and lo != hi))][0 if dealer else 1]
        peg = PEG[("dealer" if dealer else "pone", tuple(sorted(c // 4 for c in kept)))]
        values[frozenset(kept)] = hand + (crib if dealer else -crib) + peg
    return values


def with_seats(record: dict, seats=("you", "ev+greedy")) -> dict:
    return {**copy.deepcopy(record), "seats": list(seats)}


def games(seed: int, players, n: int = 3, **kwargs) -> list[dict]:
    return simulate(n, seed=seed, players=players, record_games=n, **kwargs).records


def cards_laid(record: dict, seat: int) -> int:
    return sum(p == seat for deal in record["deals"] for p, _, _ in deal["plays"])


# --------------------------------------------------------------------------- a deal by hand

# One deal, worked by hand. Player 1 deals (first_dealer 1), so "you" (seat 0) are the pone.
#   you:     KC QD 9H 3S 5H 8C, throw 5H 8C, keep KC QD 9H 3S
#   player 1: 2D 4S 6C 7D JH TH, throws JH TH, keeps 2D 4S 6C 7D;  starter AC (no heels)
# The play (count, points):
#   you 3S (3)   p1 2D (5)   you 9H (14)   p1 7D (21)   you KC (31, 2)   p1 6C (6)
#   you QD (16)  p1 4S (20, last card 1)
# You laid 9H on 5 where KC or QD made fifteen (2 points now): the card the review must find.
# Your KC at 21 made 31; either ten-card did, so it is a choice. Your QD at 6 was your last card:
# forced, not a decision. Your lead was a choice of four.
# The show: your hand KC QD 9H 3S + AC counts 0 (no fifteen: 10+3+1, 9+3+1 fall short; no run,
# pair or flush); the dealer's 2D 4S 6C 7D + AC counts 2 (2+6+7); the crib 5H 8C JH TH + AC
# counts 4 (5+J, 5+T; the JH is not the starter's suit). Scores: you 2, player 1 1+2+4 = 7.
#
# Your keep KC QD 9H 3S by hand, the 46 starters by rank (unseen: 3 of 3, 5, 8, 9, Q, K; 4 of the
# others):  A 0 | 2: K+3+2, Q+3+2 = 4 | 3: pair, 9+3+3 = 4 | 4: 0 | 5: K+5, Q+5 = 4 | 6: 9+6 = 2
#           7: 0 | 8: 0 | 9: pair 2 | T: 0 | J: run J-Q-K 3 | Q: pair 2 | K: pair 2
# total 4*4 + 3*4 + 3*4 + 4*2 + 3*2 + 4*3 + 3*2 + 3*2 = 78, so the hand's mean is 78/46.
HAND_DEAL = {
    "dealer": 1,
    "hands": [["KC", "QD", "9H", "3S", "5H", "8C"], ["2D", "4S", "6C", "7D", "JH", "TH"]],
    "discards": [["5H", "8C"], ["JH", "TH"]], "starter": "AC",
    "heels": 0,
    "plays": [[0, "3S", 0], [1, "2D", 0], [0, "9H", 0], [1, "7D", 0], [0, "KC", 2],
              [1, "6C", 0], [0, "QD", 0], [1, "4S", 1]],
    "show": [0, 2, 4],
    "scores": [2, 7],
}
HAND_RECORD = {"format": 1, "game": 0, "first_dealer": 1, "winner": None, "scores": [2, 7],
               "skunk": 0, "deals": [HAND_DEAL], "seats": ["you", "best"], "unfinished": True}


@pytest.fixture(scope="module")
def hand_review():
    return review_game(copy.deepcopy(HAND_RECORD))


def test_the_deal_worked_by_hand(hand_review):
    d = hand_review.decisions
    assert list(d.columns) == list(COLUMNS)
    assert hand_review.seat == 0 and hand_review.unfinished and hand_review.deals == 1
    assert list(d["kind"]) == ["discard", "play", "play", "play"]
    assert list(d["role"]) == ["pone"] * 4
    assert list(d["position"]) == ["KC QD 9H 3S 5H 8C", "lead", "on 5", "on 21"]
    assert list(d["done"]) == ["3S 9H QD KC", "3S", "9H", "KC"]  # a keep in card-id order
    assert hand_review.forced == 1  # the QD, the last card
    assert (d["objective"] == "points").all()  # 0-0 and 0-0..2-1: the end is far off
    # the discard: the hand's mean by hand, the crib and the pegging from the tables' text
    discard = d.iloc[0]
    crib = CRIB[(4, 7, 0)][1]  # 5 and 8, not suited, the opponent's crib
    peg = PEG[("pone", (2, 8, 11, 12))]  # 3, 9, Q, K
    assert discard["value_done"] == pytest.approx(78 / 46 - crib + peg, abs=TOL)
    values = naive_keep_values(HAND_DEAL["hands"][0], dealer=False)
    best = max(values.values())
    assert discard["value_advised"] == pytest.approx(best, abs=TOL)
    assert discard["lost"] == pytest.approx(best - (78 / 46 - crib + peg), abs=TOL)
    assert discard["lost"] > 1  # throwing a 5 to the opponent's crib, keeping no fifteen
    # the missed fifteen: 9H on 5 where a ten-card made 15
    missed = d.iloc[2]
    assert missed["done"] == "9H" and missed["advised"] in ("KC", "QD")
    assert missed["lost"] > 0.5
    assert missed["value_advised"] - missed["value_done"] == pytest.approx(missed["lost"])


def test_the_totals_and_the_worst_decision(hand_review):
    d = hand_review.decisions
    assert hand_review.discard_lost == pytest.approx(d.loc[d["kind"] == "discard", "lost"].sum())
    assert hand_review.play_lost == pytest.approx(d.loc[d["kind"] == "play", "lost"].sum())
    assert hand_review.play_lost >= d.iloc[2]["lost"] > 0
    worst = d.loc[d["lost"].idxmax()]
    assert hand_review.worst["deal"] == 1 and hand_review.worst["lost"] == worst["lost"]
    assert hand_review.worst["kind"] == worst["kind"]
    assert hand_review.worst_win is None  # no rows valued in P(win)


def test_the_text_fits_80_columns_and_says_the_totals(hand_review):
    text = format_review(hand_review)
    assert all(len(line) <= 80 for line in text.splitlines()), text
    assert text.startswith("review of game 0 (six-card), player 0 (you) against player 1 "
                           "(best)")
    assert f"lost by discard   {hand_review.discard_lost:7.3f} points; 1 of 1 discards in " \
        "points not the best" in text
    assert f"lost by the play  {hand_review.play_lost:7.3f} points; " in text
    assert "of 3 cards in points not the best" in text
    assert all(line.endswith(" points") for line in text.splitlines()[5:9])  # the objective
    assert "cards laid with no choice (not counted): 1" in text
    assert "worst decision: deal 1, " in text


def test_same_seed_same_review(hand_review):
    assert review_game(copy.deepcopy(HAND_RECORD)).decisions.equals(hand_review.decisions)
    other = review_game(copy.deepcopy(HAND_RECORD), seed=1).decisions
    first = hand_review.decisions
    assert other["value_done"].iloc[0] == first["value_done"].iloc[0]  # exact: no samples
    assert not other["value_done"].iloc[1:].equals(first["value_done"].iloc[1:])  # rollouts


# --------------------------------------------------------------------------- simulated games


@pytest.fixture(scope="module")
def random_games():
    """Seat 0 discards at random: its keeps are checked one by one against the naive values."""
    return [with_seats(r) for r in games(11, ("random+greedy", "ev+greedy"))]


def test_discards_against_the_naive_values(random_games):
    lost = []
    for record in random_games:
        review = review_game(record, samples=SAMPLES)
        rows = review.decisions[review.decisions["kind"] == "discard"]
        assert len(rows) == len(record["deals"])
        for (_, row), deal in zip(rows.iterrows(), record["deals"], strict=True):
            if row["objective"] != "points":  # near the end: P(win), tested below
                continue
            dealer = deal["dealer"] == 0
            assert row["role"] == ("dealer" if dealer else "pone")
            values = naive_keep_values(deal["hands"][0], dealer)
            kept = frozenset(card(c) for c in deal["hands"][0] if c not in deal["discards"][0])
            assert row["value_done"] == pytest.approx(values[kept], abs=TOL)
            assert row["value_advised"] == pytest.approx(max(values.values()), abs=TOL)
            assert values[frozenset(card(c) for c in row["advised"].split())] == \
                pytest.approx(max(values.values()), abs=TOL)
            assert row["lost"] == pytest.approx(max(values.values()) - values[kept], abs=TOL)
            lost.append(row["lost"])
    # a random discarder misses the best keep nearly always (1 chance in 15, ties aside)
    assert sum(x > TOL for x in lost) > 0.75 * len(lost)
    points = rows[rows["objective"] == "points"]
    assert review.discard_lost == pytest.approx(points["lost"].sum())


def test_the_points_keeper_loses_nothing_by_discard():
    # the engine's "pegging" discard policy keeps the best by the review's own measure (hand,
    # crib table, pegging table): every discard loses 0, ties and rounding aside
    for record in games(12, ("pegging+lookahead", "ev+greedy"), n=4):
        review = review_game(with_seats(record), samples=SAMPLES)
        rows = review.decisions[review.decisions["kind"] == "discard"]
        assert len(rows) == len(record["deals"])
        rows = rows[rows["objective"] == "points"]
        assert (rows["lost"] < 1e-9).all(), rows[rows["lost"] >= 1e-9]


def test_every_card_laid_is_a_decision_or_forced(random_games):
    # the positions rebuilt from the record are ones advise_play accepts (every count, go and
    # lead), and each card the seat laid is reviewed or counted forced, once
    for record in random_games:
        for seat in (0, 1):
            review = review_game(record, seat=seat, samples=SAMPLES)
            plays = review.decisions[review.decisions["kind"] == "play"]
            assert len(plays) + review.forced == cards_laid(record, seat)
            assert (plays["lost"] >= 0).all()
            assert (plays["value_advised"] >= plays["value_done"] - TOL).all()
            held = {c for deal in record["deals"] for c in deal["hands"][seat]}
            assert set(plays["done"]) <= held
            for _, row in plays.iterrows():
                if row["position"] != "lead":
                    assert 0 < int(row["position"].removeprefix("on ")) < 31


def test_leads_after_a_go_are_reviewed(random_games):
    # a count that ended by goes: the next card leads a new count (the record's "go" marker)
    found = 0
    for record in random_games:
        for seat in (0, 1):
            review = review_game(record, seat=seat, samples=SAMPLES)
            plays = review.decisions[review.decisions["kind"] == "play"]
            for deal_no, deal in enumerate(record["deals"], start=1):
                count, after_go = 0, []
                for player, c, _ in deal["plays"]:
                    if count + value(card(c)) > 31:
                        count = 0
                        after_go.append((player, c))
                    count += value(card(c))
                    count = 0 if count == 31 else count
                for player, c in after_go:
                    rows = plays[(plays["deal"] == deal_no) & (plays["done"] == c)]
                    if player == seat and len(rows):
                        assert rows["position"].tolist() == ["lead"]
                        found += 1
    assert found > 0


def test_rows_near_the_end_are_valued_in_p_win():
    # one objective: a discard where a player needs 30 or fewer is valued by keep_to_win's
    # P(win) alone, the advised keep the one of highest P(win) on the same samples
    from analyzer import keep_to_win

    record = with_seats(games(13, ("random+greedy", "ev+greedy"), n=1)[0])
    review = review_game(record, samples=128, seed=5)
    d = review.decisions
    scores = [0, 0]
    for number, deal in enumerate(record["deals"], start=1):
        row = d[(d["deal"] == number) & (d["kind"] == "discard")].iloc[0]
        near = max(scores) >= 121 - 30
        assert row["objective"] == ("P(win)" if near else "points")
        assert row["score"] == f"{scores[0]}-{scores[1]}"
        if near:
            wins = keep_to_win(deal["hands"][0], deal["dealer"] == 0, tuple(scores),
                               samples=128, seed=5)
            p = {frozenset(k.split()): v for k, v in zip(wins["keep"], wins["p_win"],
                                                          strict=True)}
            assert row["value_done"] == p[frozenset(row["done"].split())]
            assert row["value_advised"] == max(p.values())
            assert p[frozenset(row["advised"].split())] == max(p.values())
            assert row["lost"] == max(p.values()) - p[frozenset(row["done"].split())]
        scores = deal["scores"]
    aware = d[d["objective"] == "P(win)"]
    assert len(aware) > 0  # a finished game ends near 121
    assert ((aware["value_done"] >= 0) & (aware["value_done"] <= 1)).all()
    assert (aware["lost"] >= 0).all()
    assert review.p_win_lost == pytest.approx(aware["lost"].sum())
    points = d[d["objective"] == "points"]
    assert review.discard_lost + review.play_lost == pytest.approx(points["lost"].sum())
    text = format_review(review)
    assert all(len(line) <= 80 for line in text.splitlines()), text
    assert sum(line.endswith(" P(win)") for line in text.splitlines()) == len(aware)


def test_an_unfinished_game_reviews_its_complete_deals():
    record = with_seats(games(14, ("random+greedy", "ev+greedy"), n=1)[0])
    cut = copy.deepcopy(record)
    cut["deals"] = cut["deals"][:3]
    cut.update(scores=cut["deals"][-1]["scores"], winner=None, skunk=0, unfinished=True)
    review = review_game(cut, samples=SAMPLES)
    assert review.unfinished and review.deals == 3
    assert sorted(set(review.decisions["deal"])) == [1, 2, 3]
    full = review_game(record, samples=SAMPLES)
    head = full.decisions[full.decisions["deal"] <= 3].reset_index(drop=True)
    assert review.decisions.equals(head)
    cut["deals"], cut["scores"] = [], [0, 0]  # stopped before the first deal ended
    empty = review_game(cut)
    assert len(empty.decisions) == 0 and empty.worst is None and empty.discard_lost == 0
    assert "none lost points" in format_review(empty)


def test_five_card_reviews_the_discards_and_the_play():
    # the five-card ev player keeps the best by keep(variant="five-card"): it loses nothing;
    # its cards are valued as the forms' search values them (test_play_advice_forms checks
    # each against advise_play asked directly)
    for record in games(15, "ev+lookahead", n=2, variant="five-card"):
        review = review_game(with_seats(record, ("you", "ev+lookahead")), samples=SAMPLES)
        d = review.decisions
        assert review.plays_reviewed and review.notes == ()
        discards = d[d["kind"] == "discard"]
        assert set(d["kind"]) <= {"discard", "play"} and len(discards) == len(record["deals"])
        assert (discards["lost"] < 1e-9).all()
        assert all(len(k.split()) == 3 for k in discards["done"])
        assert (d["objective"] == "points").all()
        assert len(d) - len(discards) + review.forced == cards_laid(record, 0)
        text = format_review(review)
        assert "note:" not in text and "values by objective: points (a card reaching 61" in text
        assert all(len(line) <= 80 for line in text.splitlines()), text


# --------------------------------------------------------------------------- refusals


def test_which_seat_and_bad_records():
    plain = copy.deepcopy(HAND_RECORD)
    del plain["seats"]
    with pytest.raises(RecordError, match="names no seats"):
        review_game(plain)
    assert review_game(plain, seat=1, samples=SAMPLES).seat == 1
    with pytest.raises(RecordError, match="no seat named 'you'"):
        review_game({**plain, "seats": ["best", "ev+greedy"]})
    assert review_game({**plain, "seats": ["best", "you"]}, samples=SAMPLES).seat == 1
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        review_game(HAND_RECORD, seat=2)
    broken = copy.deepcopy(HAND_RECORD)
    broken["deals"][0]["plays"][2][2] = 2  # the 9H made no fifteen
    with pytest.raises(RecordError, match="pegs 2"):
        review_game(broken)
    with pytest.raises(RecordError):
        review_game([HAND_RECORD])
    three = games(16, "ev+greedy", n=1, variant="three-player")[0]
    with pytest.raises(ValueError, match="seat must be 0 to 2"):
        review_game(three, seat=3)


@pytest.mark.parametrize("variant", ["three-player", "four-player"])
def test_a_group_game_has_its_discards_reviewed_and_the_measures_own_lose_nothing(variant):
    """In the group forms the discards are reviewed (one card thrown of five), the crib valued
    for the dealer's side, and the cards laid: ``ev`` throws the card ``keep`` ranks first in
    the form, so an ``ev`` seat loses nothing by its discards, and a ``random`` one does."""
    players = 3 if variant == "three-player" else 4
    record = games(17, ("ev+greedy", *["random+greedy"] * (players - 1)), n=1,
                   variant=variant)[0]
    seats = ["you", *["random+greedy"] * (players - 1)]
    review = review_game({**record, "seats": seats}, samples=SAMPLES)
    d = review.decisions
    plays = d[d["kind"] == "play"]
    d = d[d["kind"] == "discard"]
    assert len(d) == len(record["deals"]) and len(plays) + review.forced == cards_laid(record, 0)
    assert (d["lost"] < 1e-9).all() and review.play_lost == pytest.approx(plays["lost"].sum())
    assert (review.decisions["objective"] == "points").all()  # P(win): two-player six-card
    assert review.notes == ()
    other = review_game(record, seat=1, samples=SAMPLES)
    assert other.discard_lost > 0
    roles = {"dealer": 0, "pone": 0, "partner": 0}
    for deal, role in zip(record["deals"], d["role"], strict=True):  # the discards
        dealer = deal["dealer"]
        expected = ("dealer" if dealer == 0 else
                    "partner" if players == 4 and dealer == 2 else "pone")
        assert role == expected
        roles[role] += 1
    text = format_review(review)
    assert max(len(line) for line in text.splitlines()) <= 80
    first = " ".join(" ".join(text.split("\n")[:2]).split())
    if players == 3:
        assert "player 0 (you) against player 1 (random+greedy) and player 2" in first
    else:
        assert "player 0 (you) with player 2 (random+greedy) against player 1" in first


# --------------------------------------------------------------------------- the command line


def run(argv, capsys):
    capsys.readouterr()
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_crib_review_prints_and_json(tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    write_records(path, [copy.deepcopy(HAND_RECORD)])
    status, out, err = run(["review", path], capsys)
    assert status == 0, err
    assert out == format_review(review_game(copy.deepcopy(HAND_RECORD))) + "\n"
    status, out, err = run(["review", path, "--json", "--samples", "300", "--seed", "2"], capsys)
    assert status == 0, err
    d = json.loads(out)
    api = review_game(copy.deepcopy(HAND_RECORD), samples=300, seed=2)
    assert d["discard_lost"] == api.discard_lost and d["play_lost"] == api.play_lost
    assert len(d["decisions"]) == 4 and d["forced"] == 1 and d["seat"] == 0
    assert d["decisions"][2]["done"] == "9H" and d["decisions"][0]["objective"] == "points"
    assert d["worst"]["lost"] == max(r["lost"] for r in d["decisions"])
    status, out, err = run(["review", path, "--seat", "1"], capsys)
    assert status == 0 and out.startswith("review of game 0 (six-card), player 1 against "
                                          "player 0")


@pytest.mark.parametrize(("what", "message"), [
    ("missing", "cannot read"),
    ("not json", "not JSON"),
    ("no game", "no game 7"),
    ("no seat", "names no seats: say which seat to review (--seat 0 or 1)"),
    ("bad seat", "--seat"),
])
def test_crib_review_refusals(what, message, tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    plain = copy.deepcopy(HAND_RECORD)
    del plain["seats"]
    write_records(path, [plain])
    argv = ["review", path]
    if what == "missing":
        argv = ["review", tmp_path / "nothing.jsonl"]
    elif what == "not json":
        path.write_text("{not json\n")
    elif what == "no game":
        argv += ["--game", "7"]
    elif what == "bad seat":
        argv += ["--seat", "2"]
    status, out, err = run(argv, capsys)
    assert status == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("crib review") and message in lines[0], err


def test_crib_review_of_a_three_player_record_names_its_three_seats(tmp_path, capsys):
    # an audit's three-player record: "say which seat to review (--seat 0 or 1)", though seat
    # 2 is one too
    from analyzer import simulate

    path = tmp_path / "three.jsonl"
    write_records(path, simulate(2, seed=3, variant="three-player", record_games=1,
                                 workers=1).records)
    status, out, err = run(["review", path], capsys)
    assert status == 2 and err.strip().endswith(
        "names no seats: say which seat to review (--seat 0, 1 or 2)"), err
    status, out, err = run(["review", path, "--seat", "2", "--samples", "50"], capsys)
    assert status == 0 and "player 2" in out.splitlines()[0], err


def test_a_loss_below_the_places_shown_says_so():
    # a decision lost by 0.00003 P(win) printed 0.0000, yet counted among those not the best
    from analyzer.table.review import P_WIN, POINTS, _line

    row = dict(deal=1, role="pone", kind="play", done="5H", advised="6D", value_done=0.5,
               value_advised=0.5, position="lead")
    said = [_line({**row, "lost": lost, "objective": goal}).split()[-2:]
            for lost, goal in ((3e-5, P_WIN), (2e-4, POINTS), (0.25, POINTS), (0.0, POINTS),
                               (6e-5, P_WIN))]
    assert said == [["<.0001", "P(win)"], ["<.001", "points"], ["0.250", "points"],
                    ["0.000", "points"], ["0.0001", "P(win)"]]
