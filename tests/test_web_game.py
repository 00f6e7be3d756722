"""The game against the AI through the web API (``/api/game``, ``/api/game/record``): the game
the API replays from a list of moves is the game :class:`analyzer.table.tabletop.Table` plays with a
person giving the same answers; a whole game to its end; bad moves refused with one line; the
endpoint fuzzed with hypothesis."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx2", reason="FastAPI's TestClient needs httpx2 (the test extra)")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from analyzer.core.cards import format_card, parse_card  # noqa: E402
from analyzer.core.counting import count_hand  # noqa: E402
from analyzer.sim.records import validate_record  # noqa: E402
from analyzer.table.tabletop import Table  # noqa: E402
from analyzer.web.app import create_app  # noqa: E402

CLIENT = TestClient(create_app())


def get(path="/api/game", **params):
    return CLIENT.get(path, params=params)


def choose(answer: dict, pick: int) -> str:
    """A move for what is asked: the throw of cards ``pick`` and ``pick + 1`` of the hand (mod
    its size), the ``pick``-th legal card, or the true count less ``pick % 3`` (muggins); a go is
    never asked (it is said for the person)."""
    s, ask = answer["state"], answer["ask"]
    if ask == "throw":
        hand = s["hand"]
        return f"{hand[pick % len(hand)]}-{hand[(pick + 1) % len(hand)]}"
    if ask == "lay":
        return s["legal"][pick % len(s["legal"])]
    assert ask == "count"
    d = answer["ask_detail"]
    true = sum(i.points for i in count_hand(d["cards"], s["starter"], crib=d["crib"],
                                            variant=answer["game"]["variant"]))
    return str(max(0, true - pick % 3))


def play_api(variant, opponent, seed, first="cut", muggins=False, picks=(0,), limit=None):
    """Play through the API, each answer from the state it gives; stop at the end (or after
    ``limit`` moves). Returns the moves and the last answer."""
    moves: list[str] = []
    while True:
        r = get(variant=variant, opponent=opponent, seed=seed, first=first, muggins=muggins,
                moves=" ".join(moves))
        assert r.status_code == 200, r.text
        answer = r.json()
        if answer["ask"] == "over" or (limit is not None and len(moves) >= limit):
            return moves, answer
        moves.append(choose(answer, picks[len(moves) % len(picks)]))


class Listed:
    """A person at a :class:`Table` answering from a list of moves (the test's own reading)."""

    def __init__(self, moves):
        self.moves = list(moves)

    def discard(self, table, seat):
        return [parse_card(c) for c in self.moves.pop(0).split("-")]

    def lay(self, table, seat):
        if not table.legal(seat):  # the go, said for the person: no move
            return None
        return parse_card(self.moves.pop(0))

    def claim(self, table, seat, cards, crib):
        return int(self.moves.pop(0))


class Asked(Listed):
    """The same person, also writing each answer down as the page took moves when it asked
    for every go (a ``go`` at each)."""

    def __init__(self, moves):
        super().__init__(moves)
        self.written: list[str] = []

    def discard(self, table, seat):
        cards = super().discard(table, seat)
        self.written.append("-".join(format_card(c) for c in cards))
        return cards

    def lay(self, table, seat):
        card = super().lay(table, seat)
        self.written.append("go" if card is None else format_card(card))
        return card

    def claim(self, table, seat, cards, crib):
        points = super().claim(table, seat, cards, crib)
        self.written.append(str(points))
        return points


@pytest.mark.parametrize(("variant", "opponent", "seed", "first", "muggins", "picks"), [
    ("five-card", "ev+lookahead", 11, "cut", False, (0, 1, 2)),
    ("six-card", "best", 4, "you", False, (1, 0)),
    ("six-card", "ev+greedy", 9, "ai", True, (2, 0, 1)),
])
def test_a_whole_game_through_the_api_is_the_tables_game(variant, opponent, seed, first,
                                                          muggins, picks):
    moves, answer = play_api(variant, opponent, seed, first, muggins, picks)
    assert answer["ask"] == "over"
    seat_first = {"cut": "cut", "you": 0, "ai": 1}[first]
    events = []
    table = Table((Listed(moves), opponent), variant=variant, seed=seed, first=seat_first,
                  muggins=muggins, emit=events.append)
    record = table.play()
    s = answer["state"]
    assert s["scores"] == record["scores"] and max(s["scores"]) >= s["target"]
    assert s["winner"] == ("you", "ai")[record["winner"]]
    assert answer["n_events"] == len(events) and answer["events"][-1]["kind"] == "end"
    # every card the AI laid, with its points, as the table laid them
    ai_lays = [(format_card(e["card"]), e["points"]) for e in events
               if e["kind"] == "lay" and e["seat"] == 1]
    assert [(e["card"], e["points"]) for e in answer["events"]
            if e["kind"] == "lay" and e["seat"] == 1] == ai_lays
    # the download: the record, one JSON line, accepted by the validator, the table's own
    r = get("/api/game/record", variant=variant, opponent=opponent, seed=seed, first=first,
            muggins=muggins, moves=" ".join(moves))
    assert r.status_code == 200
    assert r.headers["content-disposition"] == f'attachment; filename="crib-game-{seed}.jsonl"'
    lines = r.text.splitlines()
    assert len(lines) == 1 and r.text.endswith("\n")
    got = json.loads(lines[0])
    validate_record(got)
    assert got == json.loads(json.dumps(record)) and "unfinished" not in got
    assert got["seats"] == ["you", opponent]
    # an AI named in another case is written as the players read it, as crib play writes it
    # (a review's: a record's seats differed by case between the page and the terminal)
    shouted = get("/api/game/record", variant=variant, opponent=f" {opponent.upper()}",
                  seed=seed, first=first, muggins=muggins, moves=" ".join(moves))
    assert shouted.status_code == 200 and json.loads(shouted.text) == got


@pytest.mark.parametrize(("variant", "opponent", "seed"), [
    ("six-card", "ev+greedy", 21), ("five-card", "ev+lookahead", 11)])
def test_no_go_is_asked_and_moves_written_with_each_go_give_the_same_game(variant, opponent,
                                                                          seed):
    """The go is said for the person whenever no card of theirs fits, as crib play says it: the
    page never asks for it, and it is no move. Moves written when each go was asked (the page
    asked before), a ``go`` at each, are read as the same game."""
    moves, answer = play_api(variant, opponent, seed)
    asked = Asked(moves)
    events = []
    Table((asked, opponent), variant=variant, seed=seed, emit=events.append).play()
    mine = [e for e in events if e["kind"] == "go" and e["seat"] == 0]
    assert mine and "go" not in moves  # the person said go, and never as a move
    assert asked.written.count("go") >= len(mine)  # one each time the table turned to them
    new = get("/api/game/record", variant=variant, opponent=opponent, seed=seed,
              moves=" ".join(moves))
    old = get("/api/game/record", variant=variant, opponent=opponent, seed=seed,
              moves=" ".join(asked.written))
    assert new.status_code == old.status_code == 200 and new.text == old.text


def test_each_position_of_a_game_is_the_tables_position():
    moves, _ = play_api("six-card", "best", 21, picks=(0, 2, 1), limit=14)
    for k in range(len(moves) + 1):
        answer = get(seed=21, moves=" ".join(moves[:k])).json()

        class Stop(Exception):
            pass

        class Upto(Listed):  # the table stopped where the list ends
            def _check(self):
                if not self.moves:
                    raise Stop

            def discard(self, table, seat):
                self._check()
                return super().discard(table, seat)

            def lay(self, table, seat):
                if table.legal(seat):  # a go is said for the person: not a move
                    self._check()
                return super().lay(table, seat)

        table = Table((Upto(moves[:k]), "best"), seed=21)
        with pytest.raises(Stop):
            table.play()
        s = answer["state"]
        assert s["hand"] == [format_card(c) for c in table.hand(0)]
        assert s["scores"] == table.scores.tolist() and s["count"] == table.count
        assert s["count_cards"] == [format_card(c) for c in table.count_cards]
        assert answer["ask"] in ("throw", "lay", "count")  # never a go
        if answer["ask"] == "lay":
            assert s["legal"] == [format_card(c) for c in table.legal(0)] and s["legal"]


def test_the_ais_hand_is_not_shown_before_the_show():
    hand = get(seed=2, first="ai", moves="").json()["state"]["hand"]
    answer = get(seed=2, first="ai", moves=f"{hand[0]}-{hand[1]}").json()
    mine, theirs = [e for e in answer["events"] if e["kind"] == "discard"]
    assert mine["seat"] == 0 and mine["thrown"] == hand[:2] and mine["kept"] == hand[2:]
    assert theirs == {"kind": "discard", "seat": 1}
    # the AI's kept cards are in no field of the answer but the events (the cards it laid)
    text = json.dumps({k: v for k, v in answer.items() if k != "events"})
    assert all(format_card(c) not in text for c in _ai_kept(hand, 2))


def _ai_kept(hand, seed):
    """The AI's kept cards of the first deal, from the table itself."""

    class Once(Listed):
        def lay(self, table, seat):
            raise LookupError(table.kept(1))

    try:
        Table((Once([f"{hand[0]}-{hand[1]}"]), "best"), seed=seed, first=1).play()
    except LookupError as stop:
        return stop.args[0]
    raise AssertionError("the play never reached the person")


def test_advice_on_request():
    answer = get(seed=3, first="you", advice=True).json()
    assert answer["ask"] == "throw" and len(answer["advice"]) == 3
    best = answer["advice"][0]
    assert sorted(best["keep"] + best["discard"]) == sorted(answer["state"]["hand"])
    assert best["net"] >= answer["advice"][1]["net"]
    assert "advice" not in get(seed=3, first="you").json()


#: Seed 103 against Club, six-card: your throw at 107 to 109, pone, late in the game. By P(win)
#: the first keep (AC 6C 6S 9S) has fewer points than the next two.
LATE_THROW = ("5C-KS JH AC 7D 9D 6C-8H 3H 3S 4D 5D 2D-TH 6D 6S 8D 8S TS-KH 3C 9S 2S 4H 3C-KH 7H "
              "TS QC QD 4S-3C 4D 6H 4H 9C 8C-JH KD 5D 4S 6D JC-KD 3D 3H 7S 6D 7H-9C TS 2H 3H 4C")


def test_the_keep_advice_near_the_end_is_by_p_win_as_the_review_values_it():
    """The keeps advised late in a six-card game carry their objective, P(win), and each
    keep's P(win): the values the review gives the same discard once it is made (both with
    the terminal's samples), in its order; the points still add up (pone: the crib against)."""
    from analyzer.core.choices import ADVISE_SAMPLES
    from analyzer.table.objective import P_WIN

    params = {"seed": 103, "level": "Club", "variant": "six-card"}
    answer = get(**params, moves=LATE_THROW, advice="true").json()
    assert answer["ask"] == "throw" and answer["state"]["scores"] == [107, 109]
    assert answer["state"]["crib"] == "ai"
    advice = answer["advice"]
    assert [r["objective"] for r in advice] == [P_WIN] * 3
    p_wins = [r["p_win"] for r in advice]
    assert p_wins == sorted(p_wins, reverse=True) and all(0 < p < 1 for p in p_wins)
    assert advice[0]["net"] < min(r["net"] for r in advice[1:])  # why P(win) must be said
    for r in advice:
        assert r["net"] == pytest.approx(r["hand"] - r["crib"] + r["peg"])
    # the review of that discard, once made (the game played on past the deal's show)
    moves = LATE_THROW + " " + "-".join(advice[0]["discard"])
    while (later := get(**params, moves=moves).json())["ask"] == "lay":
        moves += " " + later["state"]["legal"][0]
    deal = max(e["number"] for e in answer["events"] if e["kind"] == "deal")
    review = get("/api/game/review", **params, moves=moves).json()
    row = next(d for d in review["decisions"] if d["kind"] == "discard" and d["deal"] == deal)
    assert row["objective"] == P_WIN and row["done"].split() == advice[0]["keep"]
    assert [frozenset(keep.split()) for keep, _ in row["alternatives"]] == \
        [frozenset(r["keep"]) for r in advice]
    assert [value for _, value in row["alternatives"]] == p_wins
    from analyzer.cli import terminal

    assert terminal.ADVICE_SAMPLES == ADVISE_SAMPLES  # the terminal's `?` values them alike


@pytest.mark.parametrize(("variant", "first", "crib"), [("six-card", "you", "you"),
                                                        ("five-card", "ai", "ai"),
                                                        ("three-player", "ai", "ai")])
def test_the_keep_advice_far_from_the_end_is_by_points(variant, first, crib):
    """By points: no P(win); the net is the hand plus (your crib) or minus (another's) the
    crib, plus the play, which is valued in six-card only."""
    answer = get(variant=variant, level="Club", seed=5, first=first, advice="true").json()
    assert answer["ask"] == "throw" and answer["state"]["crib"] == crib
    sign = 1 if crib == "you" else -1
    for r in answer["advice"]:
        assert (r["objective"], r["p_win"]) == ("points", None)
        assert r["net"] == pytest.approx(r["hand"] + sign * r["crib"] + r["peg"])
        assert (r["peg"] != 0) == (variant == "six-card")


@pytest.mark.parametrize(("variant", "seed"), [("four-player", 3), ("three-player", 8),
                                               ("five-card", 5)])
def test_play_advice_on_request_in_the_other_forms(variant, seed):
    """The advice for a card to lay: the cards that fit (recounted here), valued as
    :func:`analyzer.advise_play` values them asked directly with the position rebuilt from the
    answer's events by the rules; P(win) where the form has a win-odds table."""
    from test_play_advice_forms import history_by_hand, next_turn_passes

    from analyzer import advise_play
    from analyzer.core.cards import card_value
    from analyzer.core.choices import ADVISE_SAMPLES, variant_game

    game = variant_game(variant)
    moves: list[str] = []
    for _ in range(60):  # throw the first cards, lay the first that fits: to a choice after a go
        answer = get(variant=variant, opponent="ev+greedy", seed=seed, moves=" ".join(moves),
                     advice=True).json()
        s = answer["state"]
        count = sum(card_value(parse_card(c)) for c in s["count_cards"])
        fits = [c for c in s["hand"] if count + card_value(parse_card(c)) <= 31]
        events = answer["events"][max(k for k, e in enumerate(answer["events"])
                                      if e["kind"] == "deal"):]  # this deal's
        after_go = any(e["kind"] == "go" for e in events) or game.one_count  # five-card: one
        if answer["ask"] == "lay" and len(fits) > 1 and after_go:
            break
        assert answer["ask"] != "over"
        ask = answer["ask"]
        moves.append("-".join(s["hand"][:game.thrown]) if ask == "throw" else s["legal"][0])
    else:
        pytest.fail("no card to choose after a go")
    advice = answer["advice"]
    assert sorted(r["card"] for r in advice) == sorted(fits) == sorted(s["legal"])
    lays = [(e["seat"], parse_card(e["card"])) for e in events if e["kind"] == "lay"]
    since = events[max(k for k, e in enumerate(events) if e["kind"] == "lay"):]
    reset_now = any(e["kind"] == "new_count" for e in since) and since[0]["count"] != 31
    dealer = s["dealer_seat"]
    history = history_by_hand(lays, dealer, game.players, game.kept, reset_now)
    if not reset_now:
        next_turn_passes(history, lays, 0, dealer, game.players, game.kept)
    mine = next(e for e in events if e["kind"] == "discard" and e["seat"] == 0)
    before = next(e for e in events if e["kind"] == "starter")["scores"]
    direct = advise_play(mine["kept"], history, dealer=dealer, seat=0, starter=s["starter"],
                         thrown=mine["thrown"], score=before, samples=ADVISE_SAMPLES,
                         variant=variant).set_index("card")
    for r in advice:
        want = direct.loc[r["card"]]
        assert (r["now"], r["total"], r["wins_now"]) == (want["now"], want["total"],
                                                          want["wins_now"])
        assert r["objective"] == "points"
        assert r["p_win"] == want["p_win"]
    assert [r["total"] for r in advice] == sorted((r["total"] for r in advice), reverse=True)


def refused(response, words):
    assert response.status_code == 422, (response.status_code, response.text)
    body = response.json()
    assert set(body) <= {"error", "field"} and "\n" not in body["error"]
    assert words in body["error"], body["error"]
    return body


def test_bad_moves_are_refused_with_one_line():
    start = get(seed=5, first="you").json()
    hand = start["state"]["hand"]
    other = next(format_card(c) for c in range(52) if format_card(c) not in hand)
    body = refused(get(seed=5, first="you", moves=f"{hand[0]}-{other}"), "not in your hand")
    assert body["field"] == "moves" and body["error"].startswith(f"move 1 '{hand[0]}-{other}'")
    refused(get(seed=5, first="you", moves=f"{hand[0]}-{hand[1]}-{hand[2]}"), "2 different")
    refused(get(seed=5, first="you", moves=f"{hand[0]}-{hand[0]}"), "2 different")
    refused(get(seed=5, first="you", moves="XX-5H"), "unknown rank in 'XX'")
    refused(get(seed=5, first="you", moves="go"), "throw 2 cards to the crib, not go")
    # in the play: a card not held, and go with a card that fits
    moves, answer = play_api("six-card", "best", 5, "you", limit=1)
    assert answer["ask"] == "lay"
    refused(get(seed=5, first="you", moves=f"{moves[0]} go"), "cannot say go")
    held = answer["state"]["hand"]
    stranger = next(format_card(c) for c in range(52) if format_card(c) not in held)
    refused(get(seed=5, first="you", moves=f"{moves[0]} {stranger}"), "move 2")
    # a move after the end
    moves, _ = play_api("five-card", "ev+lookahead", 11, picks=(0, 1, 2))
    refused(get(variant="five-card", opponent="ev+lookahead", seed=11,
                moves=" ".join(moves + ["go"])), "the game is over")
    assert refused(get(variant="three-player", muggins=True), "two sides")["field"] == "muggins"
    assert refused(get(level="Wizard"), "unknown level")["field"] == "level"
    assert refused(get(variant="seven-card"), "unknown variant")["field"] == "variant"
    assert refused(get(opponent="nobody"), "")["field"] == "opponent"
    assert refused(get(first="me"), "cut, you or ai")["field"] == "first"
    assert refused(get(seed=-1), "seed")["field"] == "seed"


def test_an_unfinished_record_is_valid():
    moves, _ = play_api("six-card", "best", 8, limit=12)
    r = get("/api/game/record", seed=8, moves=" ".join(moves))
    record = json.loads(r.text)
    validate_record(record)
    assert record["unfinished"] is True


anything = st.one_of(st.text(max_size=12), st.sampled_from(
    ["go", "5H", "5H-6D", "12", "-", "--", "AS-AS", "10H", "TH", "0", "99", "six-card"]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(params=st.fixed_dictionaries({}, optional={
    "variant": st.sampled_from(["six-card", "five-card", "three-player", "x", ""]),
    "opponent": st.sampled_from(["best", "ev+greedy", "random+random", "nobody", ""]),
    "seed": st.one_of(st.integers(-5, 2**64), st.text(max_size=5)),
    "first": st.sampled_from(["cut", "you", "ai", "me", ""]),
    "muggins": st.sampled_from(["true", "false", "x"]),
    "since": st.one_of(st.integers(-3, 20_000), st.text(max_size=3)),
    "advice": st.sampled_from(["true", "false", "x"]),
    "level": st.sampled_from(["Beginner", "expert", "Wizard", ""]),
    "moves": st.lists(anything, max_size=6).map(" ".join)}),
    path=st.sampled_from(["/api/game", "/api/game/record", "/api/game/why"]))
def test_fuzz_the_game_endpoints(params, path):
    response = CLIENT.get(path, params=params)
    assert response.status_code in (200, 422), (params, response.status_code, response.text)
    if response.status_code == 422:
        body = response.json()
        assert body["error"] and "\n" not in body["error"]


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(picks=st.lists(st.integers(0, 5), min_size=1, max_size=6), cut=st.integers(0, 40),
       junk=anything)
@pytest.mark.slow
def test_fuzz_a_real_game_with_a_stray_move(picks, cut, junk):
    moves, _ = play_api("five-card", "random+random", 13, picks=tuple(picks), limit=cut)
    response = get(variant="five-card", opponent="random+random", seed=13,
                   moves=" ".join(moves + [junk]))
    assert response.status_code in (200, 422), response.text
