"""The table's features in the web API (issue 24): every form and the levels replayed as the
engine's table plays them, each show's count phrase by phrase, undo, why, the review, and the
history the page writes (finished games, the trainer's sittings), against a temporary history."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx2", reason="FastAPI's TestClient needs httpx2 (the test extra)")

from fastapi.testclient import TestClient  # noqa: E402

from analyzer.core.cards import format_card, parse_card  # noqa: E402
from analyzer.core.counting import count_hand, say_count, say_count_steps  # noqa: E402
from analyzer.table.tabletop import Table  # noqa: E402
from analyzer.web.app import create_app  # noqa: E402


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    return tmp_path_factory.mktemp("history") / "history.sqlite3"


@pytest.fixture(scope="module")
def client(history):
    return TestClient(create_app(history=history))


def play(client, stop=None, **game):
    """Play through the API (the first cards, the last card that fits, the true count; a go
    is said for the person, never asked); the moves and the last answer (at the end, or at the
    first ask in ``stop``)."""
    moves: list[str] = []
    while True:
        r = client.get("/api/game", params={**game, "moves": " ".join(moves)})
        assert r.status_code == 200, r.text
        answer = r.json()
        if answer["ask"] == "over" or answer["ask"] == stop:
            return moves, answer
        s = answer["state"]
        if answer["ask"] == "throw":
            moves.append("-".join(s["hand"][:s["thrown"]]))
        elif answer["ask"] == "lay":
            moves.append(s["legal"][-1])
        else:
            assert answer["ask"] == "count"
            d = answer["ask_detail"]
            moves.append(str(sum(i.points for i in count_hand(d["cards"], d["starter"],
                                                                crib=d["crib"]))))


class Listed:
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


@pytest.mark.parametrize("variant, level, spec", [("three-player", "Casual", "baseline"),
                                                  ("four-player", "club", "ev+greedy")])
def test_the_group_forms_at_a_level_are_the_engines_game(client, variant, level, spec):
    moves, answer = play(client, variant=variant, level=level, seed=9)
    players = 3 if variant == "three-player" else 4
    record = Table((Listed(moves), *[spec] * (players - 1)), variant=variant, seed=9).play()
    assert answer["state"]["scores"] == record["scores"]
    assert answer["state"]["winner_side"] == record["winner"]
    assert answer["game"]["level"] == level.capitalize() and answer["game"]["opponent"] == spec
    assert [front for front, _ in answer["state"]["pegs"]] == record["scores"]
    assert answer["state"]["names"][:2] == ["you", "West"]


def test_each_show_is_said_phrase_by_phrase(client):
    _, answer = play(client, variant="six-card", level="Beginner", seed=4)
    shows = [e for e in answer["events"] if e["kind"] == "show"]
    assert shows
    for e in shows:
        items = count_hand(e["cards"], e["starter"], crib=e["crib"])
        steps = say_count_steps(items)
        assert [s["said"] for s in e["steps"]] == [s.said for s in steps]
        assert e["steps"][-1]["total"] == e["points"] == sum(i.points for i in items)
        said = [s["said"] for s in e["steps"]]
        joined = said[0] if len(said) == 1 else ", ".join(said[:-1]) + " and " + said[-1]
        assert joined == say_count(items) or e["points"] == 0


def test_undo_gives_the_moves_that_ask_the_decision_again(client):
    # muggins, you deal: at your crib's count, your hand's count may be taken back
    game = {"variant": "six-card", "level": "Beginner", "seed": 12, "first": "you",
            "muggins": "true"}
    moves, first = play(client, stop="count", **game)
    r = client.get("/api/game", params={**game, "moves": " ".join(moves + ["0"])}).json()
    if r["ask"] == "count":  # the crib's count: the hand's may be taken back
        assert r["state"]["undo"] == {"moves": len(moves), "refused": None}
    # after a card laid and the AI's answer, the undo is refused, with the reason
    moves, answer = play(client, stop="lay", **game)
    r = client.get("/api/game", params={**game, "moves": " ".join(moves + [
        answer["state"]["legal"][0]])}).json()
    if any(e["kind"] in ("lay", "go") and e.get("seat") == 1 for e in r["events"][
            answer["n_events"]:]):
        assert r["state"]["undo"]["moves"] is None
        assert r["state"]["undo"]["refused"].startswith("cannot undo your ")


def test_why_is_explain_deal_and_the_review_is_review_game(client):
    from analyzer.table.review import explain_deal, review_game
    from analyzer.web.game import replay_record

    game = {"variant": "five-card", "level": "Club", "seed": 11}
    assert client.get("/api/game/why", params=game).json() == {"deal": None, "rows": []}
    moves, _ = play(client, **game)
    record = replay_record("five-card", "ev+greedy", 11, "cut", False, " ".join(moves))
    why = client.get("/api/game/why", params={**game, "moves": " ".join(moves)}).json()
    want = explain_deal(record, len(record["deals"]), 1)
    assert why["deal"] == len(record["deals"])
    assert [r["done"] for r in why["rows"]] == [str(w["done"]) for w in want]
    review = client.get("/api/game/review", params={**game, "moves": " ".join(moves)}).json()
    assert review["discard_lost"] == pytest.approx(review_game(record).discard_lost)
    assert len(review["decisions"]) == len(review_game(record).decisions)


def test_a_finished_game_goes_to_the_history_once(client, history):
    from analyzer.table.history import read_games

    game = {"variant": "five-card", "level": "Beginner", "seed": 17}
    moves, _ = play(client, **game)
    early = client.post("/api/history/game", params={**game, "moves": " ".join(moves[:3])})
    assert early.status_code == 422 and "not over" in early.json()["error"]
    first = client.post("/api/history/game", params={**game, "moves": " ".join(moves)}).json()
    again = client.post("/api/history/game", params={**game, "moves": " ".join(moves)}).json()
    assert first["added"] and not again["added"] and first["id"] == again["id"]
    # a server started again (another browser) does not add it twice either
    restarted = TestClient(create_app(history=history))
    third = restarted.post("/api/history/game", params={**game, "moves": " ".join(moves)}).json()
    assert third == {"id": first["id"], "added": False}
    games = read_games(history)
    row = games[games["id"] == first["id"]].iloc[0]
    assert row["level"] == "Beginner" and row["seed"] == 17 and row["variant"] == "five-card"
    assert row["review_discard_lost"] >= 0  # reviewed
    page = client.get("/api/history").json()
    assert page["path"] == str(history)
    assert any(r["label"] == "Beginner" and r["variant"] == "five-card"
               for r in page["stats"]["levels"])


@pytest.mark.parametrize(("seed", "first", "again"), [
    (19, {"level": "Club"}, [{"opponent": "ev+greedy"}, {"level": "club"}]),
    (20, {"opponent": "ev+greedy"}, [{"level": "Club"}, {"level": "CLUB"}])])
def test_a_game_in_the_history_is_not_added_again_under_another_name(client, history, seed,
                                                                      first, again):
    # Club is ev+greedy: the same game named the other way was added a second time
    from analyzer.table.history import read_games

    game = {"variant": "five-card", "seed": seed}
    moves, _ = play(client, **game, **first)
    added = client.post("/api/history/game", params={**game, **first,
                                                     "moves": " ".join(moves)}).json()
    assert added["added"]
    for named in again:
        r = client.post("/api/history/game", params={**game, **named, "moves": " ".join(moves)})
        assert r.status_code == 200 and r.json() == {"id": added["id"], "added": False}, named
    games = read_games(history)
    assert (games["seed"] == seed).sum() == 1
    row = games[games["id"] == added["id"]].iloc[0]
    level = row["level"] if isinstance(row["level"], str) else None
    assert (level, row["opponent"]) == (first.get("level"), "ev+greedy")


def test_a_level_with_an_opponent_is_refused_and_adds_nothing(client, history):
    # it was answered 200, the level played and the opponent dropped without a word
    from analyzer.table.history import read_games

    before = len(read_games(history))
    both = {"level": "Club", "opponent": "best"}
    for method, path in (("get", "/api/game"), ("get", "/api/game/record"),
                         ("get", "/api/game/why"), ("get", "/api/game/review"),
                         ("post", "/api/history/game")):
        r = getattr(client, method)(path, params=both)
        assert r.status_code == 422, (path, r.text)
        assert r.json() == {"error": "a level or an opponent, not both: level 'Club' and "
                            "opponent 'best'", "field": "level"}, path
    assert len(read_games(history)) == before
    # either alone plays (the level in any case), neither plays best; a blank one is none
    games = [client.get("/api/game", params=p).json()["game"] for p in
             ({"level": "club"}, {"opponent": "ev+greedy"}, {}, {"level": "Club", "opponent": ""},
              {"level": "", "opponent": "ev+greedy"})]
    assert [(g["level"], g["opponent"]) for g in games] == [
        ("Club", "ev+greedy"), (None, "ev+greedy"), (None, "best"), ("Club", "ev+greedy"),
        (None, "ev+greedy")]


def test_a_game_of_the_history_is_reviewed_from_its_record(client, history):
    from analyzer.table.history import add_game, read_record
    from analyzer.table.review import review_game
    from analyzer.web.game import replay_record

    game = {"variant": "six-card", "level": "Casual", "seed": 23}
    moves, _ = play(client, **game)
    record = replay_record("six-card", "baseline", 23, "cut", False, " ".join(moves))
    game_id = add_game(record, history, seed=23)  # as crib play adds its games
    assert read_record(game_id, history) == record
    got = client.get("/api/history/review", params={"id": game_id})
    assert got.status_code == 200, got.text
    review, want = got.json(), review_game(record)
    assert review["id"] == game_id and review["scores"] == record["scores"]
    assert review["discard_lost"] == pytest.approx(want.discard_lost)
    assert [d["kind"] for d in review["decisions"]] == list(want.decisions["kind"])
    missing = client.get("/api/history/review", params={"id": game_id + 1000})
    assert missing.status_code == 422
    assert missing.json()["error"] == f"there is no game {game_id + 1000} in the history"
    assert client.get("/api/history/review", params={"id": 0}).status_code == 422


def test_the_trainers_sitting_is_kept(client, history):
    from analyzer import keep
    from analyzer.web import trainer

    for k in (0, 1, 2):
        six, dealer = trainer.deal(3, k)
        throw = keep(six, dealer=dealer)["discard"].iloc[2]
        r = client.post("/api/trainer/record", params={"sitting": "t1", "seed": 3, "k": k,
                                                       "throw": throw})
        assert r.status_code == 200
    answers = client.get("/api/trainer/sitting", params={"sitting": "t1"}).json()["answers"]
    assert [a["k"] for a in answers] == [0, 1, 2]
    assert all(a["rank"] == trainer.grade(3, a["k"], " ".join(a["throw"]))["rank"]
               for a in answers)
    page = client.get("/api/history").json()
    assert [s["deals"] for s in page["sittings"] if s["sitting"] == "t1"] == [3]
    bad = client.post("/api/trainer/record", params={"sitting": "a b", "seed": 3, "k": 0,
                                                     "throw": "AS 2S"})
    assert bad.status_code == 422 and bad.json()["field"] == "sitting"
    assert format_card(parse_card("AS")) == "AS"


def test_a_damaged_history_is_the_servers_fault_and_the_rest_goes_on(tmp_path):
    """A history file that is not SQLite: 503 with the reason and no field (no input of the
    request is wrong); the pages that do not read it answer as before."""
    damaged = tmp_path / "history.sqlite3"
    damaged.write_bytes(b"not a database, " * 64)
    client = TestClient(create_app(history=damaged))
    for method, path, params, doing in (  # a read says read (the sitting's was "written")
            ("get", "/api/history", {}, "read"),
            ("get", "/api/history/review", {"id": 1}, "read"),
            ("post", "/api/trainer/record", {"sitting": "t1", "seed": 3, "k": 0,
                                             "throw": "3D 4D"}, "written"),
            ("get", "/api/trainer/sitting", {"sitting": "t1"}, "read")):
        r = getattr(client, method)(path, params=params)
        assert r.status_code == 503, (path, r.text)
        body = r.json()
        assert "field" not in body
        assert body["error"].startswith(f"the history cannot be {doing}: {damaged} "), body
    assert client.get("/api/count", params={"hand": "5H 5C 5S JD", "starter": "5D"}
                      ).json()["total"] == 29
    assert damaged.read_bytes() == b"not a database, " * 64  # left as it was


def test_a_long_value_is_not_echoed_whole(client):
    r = client.get("/api/count", params={"hand": "5H 5C 5S JD", "starter": "5D",
                                         "variant": "x" * 5000})
    assert r.status_code == 422
    assert r.json() == {"error": "variant: too long: at most 40 characters", "field": "variant"}
    r = client.get("/api/game", params={"seed": "9" * 5000})
    assert r.status_code == 422 and len(r.text) < 200, r.text
    # in words: it was pydantic's "Unable to parse input string as an integer, exceeded ..."
    assert r.json()["error"] == f"seed: {'9' * 27}... is out of range (too many digits)"
