"""One seat's decision (analyzer.play.seat) against the engine's recorded games, in every form.

Two checks:

* recorded engine games of deterministic players (no draw from the stream) are replayed decision
  by decision from each seat's view (analyzer.sim.records.decisions): every discard and every
  card laid or go said in the record is what :func:`discard` and :func:`lay` answer, given only
  that seat's cards, the cards laid with the goes, the starter and the scores;
* with players that draw from the stream (``best``, ``random``, ``baseline``), a game at the
  table, whose every AI decision is a call of the seat API sharing one stream, is the engine's
  game for the same seed (the same check as tests/test_tabletop.py, here in all four forms).
"""

from __future__ import annotations

import numpy as np
import pytest
from replay_check import as_said_at_the_table

from analyzer import Seat, advise_play, format_cards, parse_cards, simulate
from analyzer.core.rng import chunk_states
from analyzer.play.seat import SeatError, discard, lay
from analyzer.sim.records import decisions
from analyzer.table.tabletop import Table

DETERMINISTIC = {
    "six-card": [("ev+greedy", "ev+lookahead"), ("hand+lookahead", "ev+greedy")],
    "five-card": [("ev+lookahead", "ev+greedy")],
    "three-player": [("ev+greedy", "ev+lookahead", "hand+greedy")],
    "four-player": [("ev+lookahead", "ev+greedy", "ev+greedy", "hand+lookahead")],
}


@pytest.mark.parametrize("variant", list(DETERMINISTIC))
def test_the_seat_api_makes_the_engines_choices_in_recorded_games(variant):
    checked = {"discard": 0, "lay": 0, "go": 0}
    for k, players in enumerate(DETERMINISTIC[variant]):
        records = simulate(6, seed=40 + k, players=players, variant=variant, record_games=6,
                           workers=1).records
        for record in records:
            for d in decisions(record):
                ask = discard if d["kind"] == "discard" else lay
                assert ask(players[d["seat"]], **d["view"]) == d["answer"], (record["game"], d)
                checked["go" if d["kind"] == "lay" and d["answer"] is None else d["kind"]] += 1
    # the games reached every kind of decision, goes included
    assert min(checked.values()) > 0, checked


@pytest.mark.parametrize("variant", list(DETERMINISTIC))
def test_the_goes_as_said_at_the_table_give_the_same_answers(variant):
    """A history with only the goes said at the table (once a count, none by the last to lay)
    is the engine's history: the same answer at every card or go of recorded games."""
    players = DETERMINISTIC[variant][0]
    records = simulate(6, seed=60, players=players, variant=variant, record_games=6,
                       workers=1).records
    n, dropped = len(players), 0
    for record in records:
        for d in decisions(record):
            if d["kind"] != "lay":
                continue
            view = dict(d["view"])
            view["played"] = as_said_at_the_table(view["played"], n, len(view["hand"]))
            dropped += len(d["view"]["played"]) - len(view["played"])
            assert lay(players[d["seat"]], **view) == d["answer"], (record["game"], d, view)
    # the games had goes to leave out (five-card's one count ends at its first go: none)
    assert (dropped > 0) == (variant != "five-card"), dropped


def _outcome(ask, *args, **kwargs):
    """What ``ask`` answers, or its refusal's message."""
    try:
        return ask(*args, **kwargs)
    except SeatError as exc:
        return str(exc)


@pytest.mark.parametrize("variant", list(DETERMINISTIC))
def test_a_program_that_asks_as_the_table_does_gets_the_engines_cards(variant):
    """``lay(goes="table")``: the history as a table says it (goes once a count, none by the
    last to lay, even at the end). At every card and go of recorded games, the engine's
    answer; where the engine's order has a seat that said go in this count say go again, the
    table asks it for the next count's lead: the engine's answer once that go is said (or the
    same refusal, where another seat leads, as in three-player after the last to lay)."""
    players = DETERMINISTIC[variant][0]
    records = simulate(6, seed=61, players=players, variant=variant, record_games=6,
                       workers=1).records
    n, asked, leads = len(players), 0, 0
    for record in records:
        for d in decisions(record):
            if d["kind"] != "lay":
                continue
            view = dict(d["view"])
            view["played"] = as_said_at_the_table(view["played"], n, len(view["hand"]),
                                                  last_go=False)
            answer = _outcome(lay, players[d["seat"]], **view, goes="table")
            asked += 1
            if answer != d["answer"]:  # a go said again, in the engine's order
                assert d["answer"] is None, (record["game"], d, view, answer)
                again = {**d["view"], "played": [*d["view"]["played"], (d["seat"], None)]}
                assert answer == _outcome(lay, players[d["seat"]], **again), (d, view)
                leads += isinstance(answer, int)
    # the games held such leads (not five-card: its one count ends at the first go)
    assert asked > 0 and (leads > 0) == (variant != "five-card"), (asked, leads)
    # the position where the engine's order answers go: seat 1 said go at 28, the dealer laid
    # 2S for 30 and can lay no more; at the table seat 1 is asked only to lead the next count
    six = ("6D JH 4H 7C", "1:JH 0:5S 1:7C 0:6H 1:go 0:2S")
    if variant == "six-card":
        kw = dict(seat=1, dealer=0, starter="5H", thrown="QC KD")
        assert lay("ev+greedy", *six, **kw) is None
        assert lay("ev+greedy", *six, **kw, goes="table") == lay(
            "ev+greedy", six[0], six[1] + " 1:go", **kw) == parse_cards("4H")[0]
        with pytest.raises(SeatError, match="goes: 'engine' or 'table'"):
            lay("ev+greedy", *six, **kw, goes="tabel")
        # the last to lay, none of its cards fitting and the other seat out of cards: at the
        # table it pegs the go and leads again (asked for its go, it looped for ever), and a
        # table's history goes on with that lead, its go unsaid
        last = ("KS TS QS JC", "1:3C 0:KS 1:TD 0:go 1:5D 0:TS 1:4D 0:QS")
        kw = dict(seat=0, dealer=0, starter="2C", thrown="7H 8H")
        assert lay("ev+greedy", *last, **kw) is None
        assert lay("ev+greedy", *last, **kw, goes="table") == lay(
            "ev+greedy", last[0], last[1] + " 0:go", **kw) == parse_cards("JC")[0]
        with pytest.raises(SeatError, match="the play is over"):
            lay("ev+greedy", last[0], last[1] + " 0:JC", **kw)


def test_a_card_a_go_says_was_not_held_is_refused():
    # seat 1 said go at 25 (then 30): a 6 (an ace) would have fitted
    view = dict(seat=0, dealer=1, starter="2C", thrown="6D KH")
    with pytest.raises(SeatError, match=r"played\[7\]: seat 1 cannot hold 6H: it said go where "
                                        "a card of 6 or less would have fitted"):
        lay("best", "5H 5S JC QS", [(0, "QS"), (1, "TD"), (0, "5H"), (1, None), (0, "5S"),
                                    (1, None), (0, None), (1, "6H")], **view)
    with pytest.raises(SeatError, match="cannot hold AD"):
        lay("best", "5H 5S JC QS", [(0, "QS"), (1, "TD"), (0, "JC"), (1, None), (0, None),
                                    (1, "AD")], **view)
    # a 7 would not have fitted at 25: the same history with 7H is a position
    assert lay("ev+greedy", "5H 5S JC QS", [(0, "QS"), (1, "TD"), (0, "5H"), (1, None),
                                            (0, "5S"), (1, None), (0, None), (1, "7H")],
               **view) is not None


# The players that draw from the stream, in every form: a game at the table (each AI decision a
# call of the seat API, on the table's one stream) is the engine's game for the same seed.
STREAM_CASES = [
    ("six-card", ("best", "ev+lookahead"), 11),
    ("six-card", ("best", "best"), 12),
    ("six-card", ("baseline", "random+random"), 13),
    ("five-card", ("best", "random+random"), 14),
    ("three-player", ("best", "random+random", "baseline"), 15),
    ("four-player", ("baseline", "best", "random+random", "ev+lookahead"), 16),
]


@pytest.mark.parametrize(("variant", "players", "seed"), STREAM_CASES)
def test_games_made_of_seat_api_calls_are_the_engines_games(variant, players, seed):
    engine = simulate(1, seed=seed, players=players, record_games=1, variant=variant,
                      workers=1).records[0]
    record = Table(players, variant=variant, seed=seed).play()
    assert {k: v for k, v in record.items() if k != "seats"} == engine


def test_a_seat_draws_from_its_own_stream_reproducibly():
    a, b = Seat("random+random", seed=5), Seat("random+random", seed=5)
    hands = ["5H 5S 6D JC QS KH", "AC 2D 3H 4S 9C TD", "7C 7D 8H 8S JD QC"]
    assert [a.discard(h, dealer=0) for h in hands] == [b.discard(h, dealer=0) for h in hands]
    state = chunk_states(5, 1)[0]
    assert discard("random+random", hands[0], own_crib=True, rng=state) == \
        Seat("random+random", seed=5).discard(hands[0], dealer=0)


def test_a_hand_of_held_cards_is_the_same_as_the_whole_kept_hand():
    played = [(1, "9C"), (0, "5S"), (1, "2C")]
    whole = lay("ev+lookahead", "5S JC QS KH", played, dealer=0, starter="2D", thrown="5H 6D")
    held = lay("ev+lookahead", "JC QS KH", played, dealer=0, starter="2D", thrown="5H 6D")
    assert whole == held and format_cards([whole]) in {"JC", "QS", "KH"}


@pytest.mark.parametrize(("played", "message"), [
    ([(1, "9C")], "it was seat 0's turn"),                       # the pone (seat 0) leads
    ([(0, "JC"), (1, "JC")], "JC is not in play"),             # a card laid twice
    ([(0, "JC"), (1, "KD"), (0, "QS"), (1, "5C")], "5C takes the count past 31"),
    ([(0, "JC"), (1, "5H")], "5H is not in play"),               # the starter
    ([(0, "8H")], "8H is not one of your kept cards"),
    ([(0, None)], "said go with a card that fits"),
])
def test_a_position_the_game_cannot_reach_is_one_clear_error(played, message):
    with pytest.raises(SeatError, match=message):
        lay("ev+greedy", "JC QS KH 2C", played, seat=0, dealer=1, starter="5H",
            thrown="3D 4D")


@pytest.mark.parametrize(("variant", "mine", "played", "goes", "low", "seat", "thrown"), [
    ("six-card", "KS 5C 4C 2D", "1:KS 0:QS 1:5C", "0:go", "1:KS 0:6S 1:5C", 1, "8H 9H"),
    ("three-player", "KC 5S 4C 2D", "1:KS 2:KC 0:5D", "1:go", "1:KS 2:KC 0:AD", 2, "8H"),
    ("four-player", "KS 5C 4C 2D", "1:KS 2:QS 3:5D", "0:go", "1:KS 2:QS 3:AD", 1, "8H"),
])
def test_the_seats_before_the_one_asked_are_taken_to_say_go_from_a_count_of_22(
        variant, mine, played, goes, low, seat, thrown):
    # as api.md and lay's docstring say; an audit's lay at a count of 25 was refused ("it is
    # seat 0's turn") unless the goes were written out
    view = dict(seat=seat, dealer=0, starter="7H", thrown=thrown, variant=variant)
    assumed = lay("ev+greedy", mine, played, **view)
    assert assumed == lay("ev+greedy", mine, f"{played} {goes}", **view)
    laid = {card.split(":")[1] for card in played.split()}
    assert format_cards([assumed]) in set(mine.split()) - laid - {"KS", "KC"}  # fits 25
    # at a count of 21 no go is taken: a ten-card may fit
    with pytest.raises(SeatError, match=r"turn, not seat \d's \(a seat is taken to say go "
                                        r"only at a count of 22 or more; the count is 21\)$"):
        lay("ev+greedy", mine, low, **view)


def test_bad_arguments_are_refused_in_one_line():
    view = dict(dealer=1, starter="5H", thrown="3D 4D")
    with pytest.raises(SeatError, match="turn, not seat 1's"):
        lay("ev+greedy", "JC QS KH 2C", [], seat=1, **view)
    with pytest.raises(SeatError, match="unknown discard policy"):
        discard("nope+greedy", "5H 5S 6D JC QS KH", own_crib=True)
    with pytest.raises(SeatError, match="hand"):
        discard("ev+greedy", "5H 5S 6D JC QS", own_crib=True)
    with pytest.raises(SeatError, match="rng"):
        discard("ev+greedy", "5H 5S 6D JC QS KH", own_crib=True, rng=np.zeros(4))
    with pytest.raises(SeatError, match="share a card"):
        lay("ev+greedy", "JC QS KH 2C", [], seat=0, dealer=1, starter="JC", thrown="3D 4D")
    with pytest.raises(SeatError, match="seat 0..1"):
        lay("ev+greedy", "JC QS KH 2C", [], seat=2, **view)
    with pytest.raises(SeatError, match="played: the play so far"):
        lay("ev+greedy", "JC QS KH 2C", None, seat=0, **view)
    # cards alone, no seats: "QS" was read as seat "Q" laying "S"
    with pytest.raises(SeatError, match=r"^played\[0\]: a \(seat, card\) pair, card None for "
                                        r"a go \(or the whole play as text, '1:7C 2:go'\), "
                                        r"got 'QS'$"):
        lay("ev+greedy", "JC KH 2C 3S", ["QS", "9D"], seat=0, **view)
    with pytest.raises(ValueError, match=r"^played\[0\]: a \(seat, card\) pair.*, got 'QS'$"):
        advise_play("JC KH 2C 3S", ["QS", "9D"], seat=0, dealer=1, starter="5H",
                    thrown="3D", variant="three-player")
    with pytest.raises(SeatError, match="all-zero"):  # xoshiro's state that never moves
        discard("random+random", "5H 5S 6D JC QS KH", own_crib=True,
                rng=np.zeros(4, np.uint64))
    with pytest.raises(SeatError, match="JC is laid in played"):
        lay("ev+greedy", "JC QS KH", [(0, "JC"), (1, "9D")], seat=0, **view)
    # the position is checked whatever the player and the scores (best far from the end
    # asks no sample of the deal, but its position is read all the same)
    for player, scores in (("best", (0, 0)), ("pegging+greedy", (0, 0)),
                           ("best", (110, 110)), ("ev+greedy", (0, 0))):
        with pytest.raises(SeatError, match="position"):
            discard(player, "5H 5S 6D JC QS KH", own_crib=True, position=1, scores=scores)
    # five-card's pone pegs 3 before the first deal: no deal is played at 0-0 or 1-2, as
    # keep_to_win says; given no scores, the seat is far from the end
    five = dict(own_crib=False, variant="five-card")
    for scores in ((0, 0), (1, 2)):
        with pytest.raises(SeatError, match="pegs 3 before the first deal"):
            discard("best", "5H 5S 6D JC KH", scores=scores, **five)
        with pytest.raises(SeatError, match="pegs 3 before the first deal"):
            lay("best", "5H 6D JC", [], seat=1, dealer=0, starter="2C", thrown="KH KD",
                variant="five-card", scores=scores)
    assert discard("best", "5H 5S 6D JC KH", **five) == \
        discard("best", "5H 5S 6D JC KH", scores=(3, 0), **five)  # the pone's 3
    # 3 points in all are the first deal's: the pone's, never the dealer's
    with pytest.raises(SeatError, match="3 points in all are the first deal's"):
        discard("best", "5H 5S 6D JC KH", scores=(0, 3), **five)


def test_the_play_over_is_refused():
    # JC TD QS make 30, both say go; then 9D KH 9H 2C make 30, seat 1 says go and leads 5C:
    # every card is laid
    hand = "JC QS KH 2C"
    played = [(0, "JC"), (1, "TD"), (0, "QS"), (1, None), (0, None), (1, "9D"), (0, "KH"),
              (1, "9H"), (0, "2C"), (1, None), (1, "5C")]
    with pytest.raises(SeatError, match="over"):
        lay("ev+greedy", hand, played, seat=0, dealer=1, starter="5H", thrown="3D 4D")
