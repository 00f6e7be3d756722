"""The game loop of ``crib play`` (analyzer.table.tabletop) against the engine, and people's games.

The key test: with the AI in both seats, a game played through the table's loop (one decision at
a time, the play's turns in Python) is the engine's recorded game for the same seed, deal for
deal, card for card, point for point.
"""

from __future__ import annotations

import random

import pytest

from analyzer import peg_points, simulate
from analyzer.core.cards import card_value, format_card
from analyzer.core.counting import count_peg, say_peg
from analyzer.core.rng import chunk_states
from analyzer.sim.records import RecordError, format_game, validate_record
from analyzer.table.tabletop import QuitGame, Table


def _without_seats(record: dict) -> dict:
    return {k: v for k, v in record.items() if k != "seats"}


# Six-card and five-card; the strongest player and the simulations' default; a pair of players
# that draw from the stream at every tie (baseline) or every move (random).
CASES = [
    ("six-card", ("best", "ev+lookahead"), 1),
    ("six-card", ("ev+lookahead", "best"), 2),
    ("six-card", ("best", "best"), 3),
    ("six-card", ("baseline", "random+random"), 4),
    ("five-card", ("best", "ev+lookahead"), 5),
    ("five-card", ("ev+lookahead", "ev+lookahead"), 6),
    ("five-card", ("baseline", "random+random"), 7),
]


@pytest.mark.parametrize(("variant", "players", "seed"), CASES)
def test_the_tables_game_is_the_engines_game_first_dealer_by_the_cut(variant, players, seed):
    engine = simulate(1, seed=seed, players=players, record_games=1, variant=variant,
                      workers=1).records[0]
    record = Table(players, variant=variant, seed=seed).play()
    assert record["seats"] == list(players)
    assert _without_seats(record) == engine
    validate_record(record)


@pytest.mark.parametrize(("variant", "players", "seed"), CASES[::2])
def test_the_tables_games_are_the_engines_with_the_first_dealer_given(variant, players, seed):
    """``first_dealer="alternate"``: game 0 is dealt first by seat 0, game 1 by seat 1, both on
    chunk 0's stream one after the other: two tables on one state array play them."""
    engine = simulate(2, seed=seed, players=players, record_games=2, variant=variant,
                      first_dealer="alternate", workers=1).records
    state = chunk_states(seed, 1)[0]
    first = Table(players, variant=variant, state=state, first=0).play()
    second = Table(players, variant=variant, state=state, first=1).play()
    assert (first["first_dealer"], second["first_dealer"]) == (0, 1)
    assert _without_seats(first) == engine[0]
    assert _without_seats(second) == {**engine[1], "game": 0}


def test_events_tell_the_game_the_record_holds():
    events = []
    record = Table(("ev+lookahead", "ev+greedy"), seed=11, emit=events.append).play()
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "cut" and kinds[-1] == "end"
    assert events[0]["dealer"] == record["first_dealer"]
    laid = [[e["seat"], format_card(e["card"])] for e in events if e["kind"] == "lay"]
    assert laid == [p[:2] for d in record["deals"] for p in d["plays"]]
    pegged = sum(e["points"] for e in events if e["kind"] == "lay")
    pegged += sum(1 for e in events if e["kind"] == "go_point")
    assert pegged == sum(p[2] for d in record["deals"] for p in d["plays"])
    shows = [e["points"] for e in events if e["kind"] == "show"]
    assert shows == [s for d in record["deals"] for s in d["show"]]
    end = events[-1]
    assert end["winner"] == record["winner"] and end["scores"] == record["scores"]
    for e in events:
        if e["kind"] == "lay":
            assert e["count"] == sum(card_value(c) for c in e["cards"])
            assert sum(i.points for i in e["items"]) == e["points"]


class Scripted:
    """A person who throws the first cards of the hand, lays the first card that fits, counts
    ``claim(true count)`` with muggins, and quits at the discard of deal ``quit_at``."""

    def __init__(self, claim=None, quit_at=None):
        self.claim_rule = claim or (lambda points: points)
        self.quit_at = quit_at
        self.deals = 0
        self.claims = []

    def discard(self, table, seat):
        self.deals += 1
        if self.deals == self.quit_at:
            raise QuitGame("quit")
        return table.hand(seat)[:table.game.thrown]

    def lay(self, table, seat):
        legal = table.legal(seat)
        return legal[0] if legal else None

    def claim(self, table, seat, cards, crib):
        from analyzer import score_hand

        points = score_hand(cards, table.starter, crib=crib,
                            variant="six-card" if crib else table.game.name)
        self.claims.append(points)
        return self.claim_rule(points)


@pytest.mark.parametrize("variant", ["six-card", "five-card"])
def test_a_persons_whole_game_is_a_valid_record(variant):
    record = Table((Scripted(), "ev+lookahead"), variant=variant, seed=21, first=0).play()
    assert record["seats"] == ["you", "ev+lookahead"]
    assert "unfinished" not in record and record["winner"] in (0, 1)
    validate_record(record)
    for deal in record["deals"]:
        thrown = deal["discards"][0]
        assert thrown == deal["hands"][0][:len(thrown)]


def test_a_game_stopped_is_saved_unfinished_with_its_complete_deals():
    table = Table((Scripted(quit_at=4), "ev+lookahead"), seed=22)
    with pytest.raises(QuitGame):
        table.play()
    record = table.record()
    assert record["unfinished"] is True and record["winner"] is None and record["skunk"] == 0
    assert len(record["deals"]) == 3
    assert record["scores"] == record["deals"][-1]["scores"]
    validate_record(record)
    assert "stopped unfinished" in format_game(record)


def test_a_game_stopped_before_any_deal_ends_has_no_deals():
    table = Table((Scripted(quit_at=1), "ev+lookahead"), variant="five-card", seed=23, first=1)
    with pytest.raises(QuitGame):
        table.play()
    record = table.record()
    # five-card: the pone of the first deal (seat 0, the dealer is seat 1) starts with 3
    assert record["deals"] == [] and record["scores"] == [3, 0] == record["start"]
    validate_record(record)


def test_muggins_too_few_gives_the_rest_to_the_opponent():
    person = Scripted(claim=lambda points: 0)
    events = []
    record = Table((person, "ev+lookahead"), seed=24, first=0, muggins=True,
                   emit=events.append).play()
    validate_record(record)
    mine = [e for e in events if e["kind"] == "show" and e["seat"] == 0]
    assert [e["claimed"] for e in mine] == [0] * len(mine)
    assert [e["points"] for e in mine] == person.claims
    assert [e["taken"] for e in mine] == person.claims
    # every point of the person's hands and cribs went to the AI: the person scored only by
    # pegging and the heels
    person_points = sum(p[2] for d in record["deals"] for p in d["plays"] if p[0] == 0)
    person_points += sum(d["heels"] for d in record["deals"] if d["dealer"] == 0)
    assert record["scores"][0] == person_points
    assert any(e["taken"] for e in mine)
    assert "muggins" in format_game(record)


def test_muggins_too_many_is_corrected_to_the_true_count():
    person = Scripted(claim=lambda points: points + 5)
    free = Table((Scripted(), "ev+lookahead"), seed=25, first=0).play()
    counted = Table((person, "ev+lookahead"), seed=25, first=0, muggins=True).play()
    validate_record(counted)
    # the same game as without muggins: claims too high change nothing
    assert [d.pop("claims") for d in counted["deals"]]
    assert _without_seats(counted) == _without_seats(free)


def test_a_record_whose_scores_ignore_a_muggins_claim_is_refused():
    record = Table((Scripted(claim=lambda points: 0), "ev+lookahead"), seed=24, first=0,
                   muggins=True).play()
    for deal in record["deals"]:
        claims = deal["claims"]
        k = next((k for k, c in enumerate(claims) if c is not None and deal["show"][k]), None)
        if k is not None:
            claims[k] = deal["show"][k]  # as if the claim had been right
            break
    with pytest.raises(RecordError):
        validate_record(record)


def test_a_person_may_not_make_an_illegal_move():
    class Cheat(Scripted):
        def lay(self, table, seat):
            return None  # a go, whatever the hand

    with pytest.raises(ValueError, match="said go"):
        Table((Cheat(), "ev+lookahead"), seed=26, first=0).play()


# --------------------------------------------------------------------------- the play, said


def test_count_peg_adds_up_to_peg_points_on_random_counts():
    rng = random.Random(5)
    seen = set()
    for _ in range(3000):
        deck = list(range(52))
        rng.shuffle(deck)
        count, cards = 0, []
        for c in deck:
            if count + card_value(c) > 31 or len(cards) == 8:
                break
            cards.append(c)
            count += card_value(c)
            last = rng.random() < 0.2
            items = count_peg(cards, last=last)
            extra = 1 if last and count != 31 else 0
            assert sum(i.points for i in items) == peg_points(cards) + extra
            seen.update(i.kind for i in items)
    assert seen == {"fifteen", "thirty-one", "pair", "run", "last"}


@pytest.mark.parametrize(("cards", "said"), [
    ("5H TD", "fifteen two"),
    ("TD 5H 6C", "twenty-one"),
    ("9C 9D 9H", "twenty-seven and a pair royal for six"),
    ("3C 4D 5H 3S", "fifteen two and a run of three is five"),
    ("AC 2D 3H", "six and a run of three for three"),
    ("KC 5D 5S", "twenty and a pair for two"),
    ("KC QD 9S 2H", "thirty-one for two"),
    ("5C 5D 5H", "fifteen two and a pair royal is eight"),
])
def test_say_peg_says_the_count_as_at_the_table(cards, said):
    count = sum(card_value(c) for c in count_peg_ids(cards))
    assert say_peg(count, count_peg(cards)) == said


def count_peg_ids(cards: str) -> list[int]:
    from analyzer.core.cards import parse_cards

    return parse_cards(cards).tolist()


def test_say_peg_the_last_card():
    assert say_peg(29, count_peg("KC QD 9S", last=True)) == "twenty-nine and one for last"
    assert say_peg(15, count_peg("KC 5S", last=True)) == ("fifteen two and one for last is "
                                                        "three")


# --------------------------------------------------------------------------- records of people


def _cut(record: dict, k: int, m: int) -> dict:
    """``record`` stopped in deal ``k`` (0-based) after ``m`` cards laid (``m`` None: at the
    discard, before any throw), as a table saves a game stopped there."""
    import copy

    out = copy.deepcopy(record)
    deals = out["deals"]
    before = deals[k - 1]["scores"] if k else [0, 0]
    deal = deals[k]
    out["deals"] = deals[:k]
    if m is None:
        partial = {key: deal[key] for key in ("dealer", "hands")}
        partial["discards"] = [[], []]
        partial["scores"] = list(before)
    else:
        partial = {**deal, "plays": deal["plays"][:m], "show": []}
        scores = list(before)
        scores[deal["dealer"]] += deal["heels"]
        for seat, _, points in partial["plays"]:
            scores[seat] += points
        partial["scores"] = scores
    out.update(partial_deal=partial, scores=partial["scores"], winner=None, skunk=0,
               unfinished=True)
    return out


def test_a_record_holds_the_deal_a_game_stopped_in():
    """``"partial_deal"``: the deal in progress of an unfinished game, checked as far as it
    went: cut at the discard and after each card laid of every deal of an engine's game, the
    record is valid and crib replay prints the deal; wrong scores, a partial deal in a finished
    game, a card laid past what fits, and malformed ``"table"`` and ``"undos"`` are refused."""
    record = simulate(1, seed=53, players=("ev+lookahead", "ev+greedy"), record_games=1,
                      workers=1).records[0]
    for k, deal in enumerate(record["deals"][:-1]):
        for m in [None, *range(len(deal["plays"]) + 1)]:
            stopped = _cut(record, k, m)
            validate_record(stopped)
        assert "the game stopped in this deal" in format_game(_cut(record, k, 3))
    stopped = _cut(record, 2, 5)
    bad = {**stopped, "partial_deal": {**stopped["partial_deal"], "scores": [0, 0]}}
    with pytest.raises(RecordError, match="partial deal: scores"):
        validate_record(bad)
    with pytest.raises(RecordError, match="not unfinished"):
        validate_record({**record, "partial_deal": stopped["partial_deal"]})
    with pytest.raises(RecordError, match="undos"):
        validate_record({**stopped, "undos": -1})
    with pytest.raises(RecordError, match="table"):
        validate_record({**stopped, "table": {"seed": 1}})
    with pytest.raises(RecordError, match="table first"):
        validate_record({**stopped, "table": {"seed": 1, "first": 1 - stopped["first_dealer"],
                                              "muggins": False}})
    validate_record({**stopped, "undos": 2, "table": {"seed": 53, "first": "cut",
                                                      "muggins": False}})
