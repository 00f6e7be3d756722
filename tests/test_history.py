"""The history of games (analyzer.table.history) and ``crib stats``: rows and statistics against
figures worked out by hand, the Wilson interval, schema migrations, damaged and locked files."""

from __future__ import annotations

import json
import math
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import platformdirs
import pytest

from analyzer.table.history import (
    HISTORY_ENV,
    MIGRATIONS,
    SCHEMA_VERSION,
    HistoryError,
    add_game,
    add_review,
    connect,
    default_path,
    game_row,
    history_stats,
    read_games,
    read_record,
    summarize,
    wilson_interval,
)
from analyzer.table.tabletop import Table
from tests.persons import FirstCards

CRIB = Path(sys.executable).parent / "crib"

# Three games, stripped to what the history reads (the seats, the level, the result and each
# deal's points): you in seat 0. Each deal's show is [pone's hand, dealer's hand, dealer's crib].
WON = {  # at Club, won with the AI under 91: a single skunk given
    "seats": ["you", "ev+greedy"], "level": "Club", "winner": 0, "scores": [121, 80],
    "skunk": 1, "first_dealer": 0,
    "deals": [
        # you deal: his heels 2 to you; you peg 2 and 1, the AI 4; AI's hand 8, yours 12, your
        # crib 5
        {"dealer": 0, "heels": 2, "plays": [[1, "5H", 4], [0, "TD", 2], [0, "6S", 1]],
         "show": [8, 12, 5]},
        # the AI deals: you peg 1, the AI 2; your hand 10, the AI's 6, its crib 3
        {"dealer": 1, "heels": 0, "plays": [[0, "4C", 1], [1, "AC", 2]], "show": [10, 6, 3]},
    ]}
LOST = {  # at Club, with muggins, lost under 61: a double skunk taken
    "seats": ["you", "ev+greedy"], "level": "Club", "winner": 1, "scores": [60, 121],
    "skunk": 2, "first_dealer": 0,
    # you deal; the AI pegs 3; its hand 6; your hand counts 9 but you claim 7 (muggins: the AI
    # takes 2); your crib 4, claimed right
    "deals": [{"dealer": 0, "heels": 0, "plays": [[1, "7H", 3]], "show": [6, 9, 4],
               "claims": [None, 7, 4]}]}
STOPPED = {  # against a player chosen by spec, stopped after one deal
    "seats": ["you", "ev+lookahead"], "level": None, "winner": None, "scores": [9, 5],
    "skunk": 0, "unfinished": True, "first_dealer": 1,
    # the AI deals: his heels 2 to it; you peg 5, it 1; your hand 4, its hand 2, its crib 0
    "deals": [{"dealer": 1, "heels": 2, "plays": [[0, "5D", 5], [1, "TS", 1]],
               "show": [4, 2, 0]}]}
CUT = {  # won by the AI in the play of the second deal: that deal's show never came
    "seats": ["you", "ev+greedy"], "level": "Club", "winner": 1, "scores": [100, 121],
    "skunk": 0, "first_dealer": 0,
    "deals": [{"dealer": 0, "heels": 0, "plays": [[1, "5H", 2], [0, "TD", 2]], "show": [6, 10, 4]},
              {"dealer": 1, "heels": 2, "plays": [[0, "4C", 1], [1, "AC", 3]], "show": []}]}
# The review's losses of the two finished games: 1.25 + 2.5 and 0.5 + 1.0 points.
REVIEWS = (SimpleNamespace(discard_lost=1.25, play_lost=2.5),
           SimpleNamespace(discard_lost=0.5, play_lost=1.0))


def _three_games(path: Path) -> None:
    add_game(WON, path, seed=1, review=REVIEWS[0], played_at="2025-01-01T10:00:00+00:00")
    game = add_game(LOST, path, seed=2, played_at="2025-01-02T10:00:00+00:00")
    add_review(game, REVIEWS[1], path)
    add_game(STOPPED, path, seed=3, played_at="2025-01-03T10:00:00+00:00")


def run_crib(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(CRIB), *args], capture_output=True, text=True, timeout=1800,
                          **kwargs)


# --------------------------------------------------------------------------- where it lives


def test_the_suite_never_writes_the_users_own_history():
    moved = os.environ.get(HISTORY_ENV)
    assert moved, "tests/conftest.py points ANALYZER_HISTORY at a temporary file"
    assert default_path() == Path(moved)
    assert not Path(moved).is_relative_to(platformdirs.user_data_dir("analyzer"))


def test_without_the_variable_the_history_is_in_the_users_data_folder(monkeypatch):
    monkeypatch.delenv(HISTORY_ENV)
    assert default_path() == Path(platformdirs.user_data_dir("analyzer")) / "history.sqlite3"


def test_the_data_folder_is_made_on_the_first_game(tmp_path, monkeypatch):
    monkeypatch.delenv(HISTORY_ENV)
    folder = tmp_path / "data" / "analyzer"
    monkeypatch.setattr(platformdirs, "user_data_dir", lambda app: str(tmp_path / "data" / app))
    assert history_stats().games == 0 and not folder.exists()  # reading makes nothing
    add_game(WON)
    assert read_games(folder / "history.sqlite3")["result"].tolist() == ["won"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG_DATA_HOME is Linux's")
def test_crib_play_writes_the_users_data_folder_by_default(tmp_path):
    """The real default, end to end: crib play with no ANALYZER_HISTORY, its user data folder
    moved into tmp_path by XDG_DATA_HOME (where platformdirs looks on Linux)."""
    env = {k: v for k, v in os.environ.items() if k != HISTORY_ENV}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    run = subprocess.run([sys.executable, "-m", "analyzer", "play", "--seed", "5", "--level",
                          "beginner", "--save", "g.jsonl"], input="quit\ny\n", text=True,
                         capture_output=True, cwd=tmp_path, env=env, timeout=1800)
    assert run.returncode == 0 and "history" not in run.stderr, run.stderr
    games = read_games(tmp_path / "xdg" / "analyzer" / "history.sqlite3")
    assert games["level"].tolist() == ["Beginner"]


# --------------------------------------------------------------------------- rows and stats


def test_a_rows_points_by_phase_are_the_deals(tmp_path):
    row = game_row(WON, seed=5, review=REVIEWS[0], played_at="2025-01-01T10:00:00+00:00")
    assert (row["result"], row["level"], row["opponent"], row["seed"]) == ("won", "Club",
                                                                           "ev+greedy", 5)
    assert (row["your_score"], row["computer_score"], row["deals"]) == (121, 80, 2)
    assert (row["skunk_given"], row["skunk_taken"]) == ("single", "none")
    # you: pegging 2 + 1 + 1, hand 12 + 10, crib 5, heels 2; the AI: 4 + 2, 8 + 6, 3, 0
    assert [row[f"your_{p}"] for p in ("pegging", "hand", "crib", "heels")] == [4, 22, 5, 2]
    assert [row[f"computer_{p}"] for p in ("pegging", "hand", "crib", "heels")] == [6, 14, 3, 0]
    assert row["muggins_given"] is None and row["undos"] == 0
    assert (row["review_discard_lost"], row["review_play_lost"]) == (1.25, 2.5)
    assert json.loads(row["record"]) == WON
    lost = game_row(LOST)
    assert (lost["result"], lost["skunk_given"], lost["skunk_taken"]) == ("lost", "none",
                                                                          "double")
    assert (lost["your_hand"], lost["your_crib"], lost["muggins_given"]) == (7, 4, 2)
    assert game_row({**STOPPED, "undos": 3})["undos"] == 3
    # a muggins game stopped before its first show gave nothing away: 0, not null (no muggins)
    muggins = {**STOPPED, "deals": [], "table": {"seed": 12, "first": "cut", "muggins": True}}
    assert game_row(muggins)["muggins_given"] == 0
    assert game_row({**muggins, "table": {**muggins["table"], "muggins": False}})[
        "muggins_given"] is None
    with pytest.raises(ValueError, match="one seat named 'you'"):
        game_row({**WON, "seats": ["best", "ev+greedy"]})


def test_three_games_summed_up_by_hand(tmp_path):
    path = tmp_path / "h.sqlite3"
    _three_games(path)
    games = read_games(path)
    assert games["id"].tolist() == [1, 2, 3]
    assert games["result"].tolist() == ["won", "lost", "unfinished"]
    stats = history_stats(path)
    assert (stats.games, stats.unfinished) == (3, 1)
    club, custom = stats.levels.to_dict("records")
    assert (club["label"], club["games"], club["won"], club["lost"], club["unfinished"]) == \
        ("Club", 2, 1, 1, 0)
    # 1 win of 2: the Wilson interval is 0.5 ± 1.96 √(1/8 + z²/16) / (1 + z²/2) = 0.0945..0.9055
    assert club["win_rate"] == 0.5
    assert club["win_low"] == pytest.approx(0.0945, abs=1e-4)
    assert club["win_high"] == pytest.approx(0.9055, abs=1e-4)
    assert (custom["label"], custom["level"], custom["games"], custom["unfinished"]) == \
        ("ev+lookahead", None, 1, 1)
    assert math.isnan(custom["win_rate"])
    assert stats.skunks == {"given": {"single": 1, "double": 0, "triple": 0},
                            "taken": {"single": 0, "double": 1, "triple": 0}}
    # four deals: you pegged 2+1+1 + 0 + 5 = 9, counted hands 12+10 + 7 + 4 = 33, cribs 5 + 4
    # + 0 = 9, heels 2; the AI 4+2 + 3 + 1 = 10, 8+6 + 6 + 2 = 22, 3 + 0 + 0 = 3, heels 2
    per_deal = stats.per_deal.set_index("phase")
    assert set(per_deal["variant"]) == {"six-card"} and set(per_deal["deals"]) == {4}
    assert per_deal["you"].to_dict() == {"pegging": 2.25, "hand": 8.25, "crib": 2.25,
                                         "heels": 0.5, "total": 13.25}
    assert per_deal["computer"].to_dict() == {"pegging": 2.5, "hand": 5.5, "crib": 0.75,
                                              "heels": 0.5, "total": 9.25}
    # a game won in the play of its second deal: that deal, cut short before any count, is left
    # out of the averages (its pegging, 1 to 3, and the AI's heels too); its first deal is in
    add_game(CUT, path, seed=4)
    per_deal = history_stats(path).per_deal.set_index("phase")
    assert set(per_deal["deals"]) == {5}
    assert per_deal["you"].to_dict() == {"pegging": 11 / 5, "hand": 43 / 5, "crib": 13 / 5,
                                         "heels": 2 / 5, "total": 69 / 5}
    assert per_deal["computer"].to_dict() == {"pegging": 12 / 5, "hand": 28 / 5, "crib": 3 / 5,
                                              "heels": 2 / 5, "total": 45 / 5}
    assert stats.muggins_given == 2
    # the review's losses of the two finished games, 3.75 then 1.5 + the 2 points the muggins
    # count gave away: two halves of one game each and a slope of -0.25 a game
    assert stats.losses["lost"].tolist() == [3.75, 3.5]
    assert stats.trend == {"games": 2, "first_half": 3.75, "last_half": 3.5, "slope": -0.25}
    assert stats.losses["p_win_lost"].isna().all()  # reviews of no P(win) lost (old ones)


def test_the_trend_of_five_games():
    import pandas as pd

    lost = [10.0, 6.0, 8.0, 4.0, 2.0]  # by hand: first half (10 + 6) / 2 = 8, last (4 + 2) / 2
    games = pd.DataFrame({"id": range(1, 6), "level": ["Expert"] * 5, "opponent": ["best"] * 5,
                          "result": ["won"] * 5, "variant": ["six-card"] * 5,
                          "skunk_given": ["none"] * 5, "skunk_taken": ["none"] * 5,
                          "deals": [9] * 5, "review_discard_lost": lost,
                          "review_play_lost": [0.0] * 5})
    trend = summarize(games).trend
    # slope: x - 3 = -2..2 against y - 6 = 4, 0, 2, -2, -4: (-8 + 0 + 0 - 2 - 8) / 10 = -1.8
    assert trend == {"games": 5, "first_half": 8.0, "last_half": 3.0,
                     "slope": pytest.approx(-1.8)}


def test_the_wilson_interval_worked_by_hand():
    # 7 of 10, z = 1.959964: centre (0.7 + z²/20) / (1 + z²/10) = 0.64449, half-width
    # z √(0.021 + z²/400) / (1 + z²/10) = 0.24771
    low, high = wilson_interval(7, 10)
    assert low == pytest.approx(0.39678, abs=1e-5) and high == pytest.approx(0.89221, abs=1e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    assert wilson_interval(5, 5)[1] == 1.0


def test_a_real_games_phases_add_up_to_its_scores():
    """Against the table's own scores: a whole game with muggins, the person claiming one
    point short of each count. The winner's score is 121 where its phases add up to more (the
    winning count's points past 121 are not scored)."""

    class ShortCounts(FirstCards):
        def claim(self, table, seat, cards, crib):
            from analyzer import score_hand

            return max(score_hand(cards, table.starter, crib=crib) - 1, 0)

    record = Table((ShortCounts(), "ev+greedy"), seed=11, muggins=True, level="Club").play()
    row = game_row(record)
    you = sum(row[f"your_{p}"] for p in ("pegging", "hand", "crib", "heels"))
    ai = sum(row[f"computer_{p}"] for p in ("pegging", "hand", "crib", "heels"))
    assert row["muggins_given"] > 0
    # the winner's score is 121, whatever the winning count made past it
    assert (row["your_score"], row["computer_score"]) == (min(you, 121),
                                                          min(ai + row["muggins_given"], 121))
    assert max(row["your_score"], row["computer_score"]) == 121
    assert row["level"] == "Club" and row["deals"] == len(record["deals"])


# --------------------------------------------------------------------------- the database


def test_a_resumed_game_replaces_its_unfinished_row(tmp_path):
    # crib play --resume adds the finished game in place of the row its stopped part made (the
    # row of exactly the record resumed from): a game is counted once; another unfinished game,
    # of another seed or of the same seed played again differently, keeps its row
    path = tmp_path / "h.sqlite3"
    other = {**STOPPED, "scores": [25, 36]}  # the same seed, another game
    add_game(STOPPED, path, seed=3)
    add_game(other, path, seed=3)
    add_game(STOPPED, path, seed=4)
    finished = {**STOPPED, "unfinished": False, "winner": 1, "scores": [100, 121], "skunk": 0}
    add_game(finished, path, seed=3, resumed=json.loads(json.dumps(STOPPED)))  # from its file
    games = read_games(path)  # rows 1 (STOPPED, seed 3), 2 (other), 3 (seed 4), then 4
    assert list(zip(games["id"], games["seed"], games["result"], strict=True)) == [
        (2, 3, "unfinished"), (3, 4, "unfinished"), (4, 3, "lost")]
    assert read_record(2, path) == other
    add_game(finished, path, seed=5, resumed=STOPPED)  # no row of that record left: added
    assert len(read_games(path)) == 4
    with pytest.raises(TypeError, match="the record resumed from"):
        add_game(finished, path, seed=5, resumed=True)


def test_a_game_is_found_whichever_name_its_player_was_given(tmp_path):
    # /play sent the same game with level=Club, then opponent=ev+greedy: the record differed by
    # its "level" alone, was not found, and the game was counted twice
    from analyzer.table.history import find_game

    path = tmp_path / "h.sqlite3"
    by_spec = {**WON, "level": None}
    assert find_game(WON, path) is None
    game = add_game(WON, path, seed=1)
    assert find_game(WON, path) == find_game(by_spec, path) == game
    other = add_game(STOPPED, path, seed=3)  # ev+lookahead is no level: named one way only
    assert find_game(STOPPED, path) == other
    # another player (at its level or by its spec), or another game of this one, is not found
    assert find_game({**WON, "seats": ["you", "best"]}, path) is None
    assert find_game({**WON, "seats": ["you", "best"], "level": "Expert"}, path) is None
    assert find_game({**WON, "scores": [121, 81]}, path) is None
    path.unlink()
    add_game(by_spec, path, seed=1)  # and the other way round
    assert find_game(WON, path) == find_game(by_spec, path) == 1


def test_a_game_finished_before_the_winners_score_stopped_at_121_is_found_again(tmp_path):
    # an audit's: /play re-sent a game finished before the change (its last game, reopened);
    # replayed now its record has the winner at 121, not the count past it that the history
    # holds, so it was not found and the game was added a second time
    import copy

    from analyzer.table.history import find_game

    for seed in range(1, 60):
        record = Table((FirstCards(), "ev+greedy"), seed=seed, level="Club").play()
        points = list(record.get("start", [0, 0]))  # every point, none stopped at the target
        for deal in record["deals"]:
            points[deal["dealer"]] += deal["heels"]
            for seat, _, pegged in deal["plays"]:
                points[seat] += pegged
            for k, count in enumerate(deal["show"]):  # the pone's hand, the dealer's, the crib
                points[1 - deal["dealer"] if k == 0 else deal["dealer"]] += count
        over = max(points) - 121
        if over > 0:
            break
    assert over > 0 and record["scores"][record["winner"]] == 121
    older = copy.deepcopy(record)  # as the table wrote it then
    older["scores"][record["winner"]] += over
    older["deals"][-1]["scores"][record["winner"]] += over
    path = tmp_path / "h.sqlite3"
    game = add_game(older, path, seed=seed)
    assert find_game(record, path) == game == find_game({**record, "level": None}, path)
    assert find_game(older, path) == game
    assert len(read_games(path)) == 1
    # another game of the same cards is not that one
    other = copy.deepcopy(record)
    other["scores"][1 - record["winner"]] += 1
    assert find_game(other, path) is None


@pytest.mark.slow
def test_a_review_stopped_at_the_end_is_filled_in_later(tmp_path):
    # crib play stopped in its end-of-game review: the finished game's row has no totals, and
    # crib review of its file adds them (once), as crib play would have
    from analyzer.sim.records import write_records
    from analyzer.table.history import fill_review

    path = tmp_path / "h.sqlite3"
    record = Table(("hand+random", "ev+greedy"), seed=6).play()
    record = {**record, "seats": ["you", "ev+greedy"], "level": "Club"}
    game = add_game(record, path, seed=6)
    stopped = add_game(STOPPED, path, seed=3)
    assert read_games(path)["review_discard_lost"].isna().all()
    write_records(tmp_path / "g.jsonl", [record])
    env = dict(os.environ, **{HISTORY_ENV: str(path)})
    run = run_crib("review", str(tmp_path / "g.jsonl"), env=env)
    assert run.returncode == 0, run.stderr
    assert run.stderr == f"crib review: added to game {game} of your history, whose review " \
                         "was stopped\n"
    row = read_games(path).loc[0]
    assert row["review_discard_lost"] >= 0 and row["review_play_lost"] >= 0
    again = run_crib("review", str(tmp_path / "g.jsonl"), env=env)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == run.stdout
    assert fill_review(STOPPED, REVIEWS[0], path) is None  # unfinished: nothing to fill
    assert read_games(path).set_index("id")["review_discard_lost"].isna()[stopped]
    # the same game saved with its AI named by its spec (no level) is found as find_game finds it
    other = add_game({**record, "level": "Club"}, path, seed=6)
    assert fill_review({**record, "level": None}, REVIEWS[0], path) == other
    assert read_games(path).set_index("id").loc[other, "review_discard_lost"] == 1.25
    # a history given as crib play --history gave it: crib review --history, which crib play's
    # stopped review names, as it does not name the history found without it
    from analyzer.cli.terminal import _history_option

    named = tmp_path / "named history.sqlite3"
    game = add_game(record, named, seed=6)
    env = {k: v for k, v in os.environ.items() if k != HISTORY_ENV}
    assert _history_option(named) == f" --history '{named}'" and _history_option(None) == ""
    run = run_crib("review", str(tmp_path / "g.jsonl"), "--history", str(named), env=env)
    assert run.returncode == 0 and run.stderr == f"crib review: added to game {game} of your " \
                                                 "history, whose review was stopped\n"
    assert read_games(named).loc[0, "review_discard_lost"] >= 0
    bad = run_crib("review", str(tmp_path / "g.jsonl"), "--history", str(tmp_path / "no/h"))
    assert bad.returncode == 2 and bad.stderr == f"crib review: --history {tmp_path / 'no/h'}: " \
                                                 f"no folder {tmp_path / 'no'}\n"


def test_the_points_a_deal_stay_under_their_heads_at_any_count():
    # a review's: from 100 whole deals of three-player the heads stood right of their figures
    import pandas as pd

    from analyzer.cli.stats import format_stats
    from analyzer.table.history import summarize

    for deals in (7, 1234):
        games = pd.DataFrame({"id": [1], "level": ["Club"], "opponent": ["ev+greedy"],
                              "result": ["won"], "variant": ["three-player"],
                              "skunk_given": ["none"], "skunk_taken": ["none"], "deals": [deals],
                              "review_discard_lost": [None], "review_play_lost": [None]})
        lines = format_stats(summarize(games), "h.sqlite3").splitlines()
        head = next(k for k, line in enumerate(lines) if line.startswith("points per deal"))
        ends = {len(line) for line in lines[head:head + 6]}
        assert ends == {len(lines[head])}, lines[head:head + 6]
        assert lines[head].index("you") + 3 == len(lines[head + 1]) - 10


def test_an_ai_named_in_any_case_is_one_row(tmp_path):
    # found in an audit: --opponent EV+GREEDY, EV+Greedy and ev+greedy play one AI, and were
    # three rows of crib stats
    path = tmp_path / "h.sqlite3"
    for name in ("EV+Greedy", " ev+greedy"):  # kept before crib play wrote them in lower case
        add_game({**STOPPED, "seats": ["you", name]}, path, seed=1)
    run = run_crib("play", "--opponent", "EV+GREEDY", "--seed", "3", "--history", str(path),
                   "--save", str(tmp_path / "g.jsonl"), input="1 2\nquit\ny\n")
    assert run.returncode == 0, run.stderr
    assert json.loads((tmp_path / "g.jsonl").read_text())["seats"][1] == "ev+greedy"
    [row] = history_stats(path).levels.to_dict("records")
    assert (row["label"], row["opponent"], row["games"]) == ("ev+greedy", "ev+greedy", 3)


def test_step_5_reads_the_records_before_it_locks_the_history(tmp_path, monkeypatch):
    # a review's: the step read every record holding the write lock (about 0.6 ms a game), and a
    # program opening a history of 11,192 games meanwhile gave up after its lock timeout
    from analyzer.table import history

    path = tmp_path / "old.sqlite3"
    conn = connect(path, version=4)

    def insert(conn, record):
        row = {k: v for k, v in game_row(record).items() if "whole" not in k}
        conn.execute(f"INSERT INTO games ({', '.join(row)}) VALUES "
                     f"({', '.join('?' * len(row))})", list(row.values()))

    for record in (WON, CUT):
        insert(conn, record)
    conn.close()
    real, added = history.game_row, []

    def game_row_meanwhile(record, **kw):
        if not added:  # another program (of schema 4) adds a game while the records are read
            with closing(sqlite3.connect(path, timeout=0, isolation_level=None)) as other:
                insert(other, WON)
            added.append(True)
        return real(record, **kw)

    monkeypatch.setattr(history, "game_row", game_row_meanwhile)
    games = read_games(path, timeout=0)
    assert added and games["whole_deals"].tolist() == [2, 1, 2]  # the game added too


def test_an_older_database_is_upgraded_in_place(tmp_path):
    path = tmp_path / "old.sqlite3"
    conn = connect(path, version=1)  # a history written before step 2 (no undos)
    for record in (WON, CUT, WON):
        row = {k: v for k, v in game_row(record).items()
               if k not in ("undos", "review_p_win_lost") and "whole" not in k}
        conn.execute(f"INSERT INTO games ({', '.join(row)}) VALUES "
                     f"({', '.join('?' * len(row))})", list(row.values()))
    # a record edited by hand that game_row cannot read (a review's: the step stopped every
    # opening of the history with a traceback): its whole deals stay null
    conn.execute("UPDATE games SET record = '{\"seats\": [\"you\"], \"deals\": []}' WHERE id = 3")
    conn.close()
    assert SCHEMA_VERSION == len(MIGRATIONS) == 5
    with sqlite3.connect(path) as old:
        assert old.execute("PRAGMA user_version").fetchone() == (1,)
    games = read_games(path)  # opening it applies steps 2 to 5
    # step 5 filled in each game's deals played out whole, and their points, from its record
    assert games["whole_deals"].tolist()[:2] == [2, 1] and pd.isna(games["whole_deals"][2])
    games = games.iloc[:2]
    assert games[["your_hand_whole", "computer_hand_whole", "your_pegging_whole"]].values.tolist() \
        == [[22, 14, 4], [10, 6, 2]]
    assert games[["your_pegging", "computer_pegging", "computer_heels"]].values.tolist() == \
        [[4, 6, 0], [3, 5, 2]]
    assert games["computer_heels_whole"].tolist() == [0, 0]
    assert games["undos"].tolist() == [0, 0] and games["result"].tolist() == ["won", "lost"]
    assert games["review_p_win_lost"].isna().all()  # step 3: none for an older game
    with sqlite3.connect(path) as new:
        assert new.execute("PRAGMA user_version").fetchone() == (5,)
        indexes = new.execute("SELECT name FROM sqlite_master WHERE type = 'index'").fetchall()
    assert ("games_played_at",) in indexes
    add_game({**STOPPED, "undos": 2}, path)
    assert read_games(path)["undos"].tolist() == [0, 0, 0, 2]
    per_deal = history_stats(path).per_deal.set_index("phase")  # the unread game left out
    assert per_deal.loc["hand", "deals"] == 2 + 1 + 1 and per_deal.loc["hand", "you"] == 36 / 4


def test_a_failed_migration_leaves_the_database_as_it_was(tmp_path):
    path = tmp_path / "old.sqlite3"
    connect(path, version=1).close()
    with sqlite3.connect(path) as conn:  # an index of that name makes step 2 fail half-way
        conn.execute("CREATE INDEX games_played_at ON games (variant)")
    with pytest.raises(HistoryError, match="already exists"):
        connect(path)
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (1,)
        columns = [r[1] for r in conn.execute("PRAGMA table_info(games)")]
    assert "undos" not in columns  # the ALTER TABLE before the failure is rolled back


def test_a_newer_database_is_refused(tmp_path):
    path = tmp_path / "new.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(HistoryError, match="schema 99, newer than this version"):
        add_game(WON, path)


def test_a_damaged_file_is_one_line_and_left_alone(tmp_path):
    path = tmp_path / "h.sqlite3"
    path.write_bytes(b"these are not the pages of a database\n" * 200)
    before = path.read_bytes()
    with pytest.raises(HistoryError) as error:
        add_game(WON, path)
    assert "is not a readable SQLite database" in str(error.value)
    assert "\n" not in str(error.value)
    assert path.read_bytes() == before
    with pytest.raises(HistoryError, match="not a readable SQLite database"):
        read_games(path)


def test_a_locked_database_adds_nothing(tmp_path):
    path = tmp_path / "h.sqlite3"
    add_game(WON, path)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another program in the middle of a write
    try:
        with pytest.raises(HistoryError, match="is locked by another program"):
            add_game(LOST, path, timeout=0.1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert read_games(path)["result"].tolist() == ["won"]
    add_game(LOST, path)
    assert read_games(path)["result"].tolist() == ["won", "lost"]


def test_a_missing_history_has_no_games_and_is_not_made(tmp_path):
    path = tmp_path / "none.sqlite3"
    stats = history_stats(path)
    assert (stats.games, stats.trend["games"], len(stats.levels)) == (0, 0, 0)
    assert not path.exists()
    assert json.dumps(stats.to_dict())  # plain values


# --------------------------------------------------------------------------- crib stats


def test_crib_stats_after_three_games(tmp_path):
    path = tmp_path / "h.sqlite3"
    _three_games(path)
    run = run_crib("stats", "--history", str(path))
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert max(len(line) for line in lines[1:]) <= 80  # the first names the file
    assert lines[:2] == [f"history {path}",
                         "3 games: 2 finished, 1 unfinished (stopped before the end)"]
    text = "\n".join(" ".join(line.split()) for line in lines)  # columns as single spaces
    for said in ("win rate by level, of the finished games (95% Wilson score interval):",
                 "Club 2 0 1 1 50.0% 9.5% to 90.5%",
                 "ev+lookahead 1 1 0 0 no finished game",
                 "you gave 1 0 0", "you took 0 1 0",
                 "points per deal, six-card (4 whole deals) you AI",
                 "pegging 2.25 2.50", "hand 8.25 5.50", "crib 2.25 0.75", "his heels 0.50 0.50",
                 "total 13.25 9.25",
                 "muggins: your own counts gave the other side 2 points",
                 "3.75 3.50",
                 "trend over 2 reviewed games: first half 3.75 a game, last half 3.50",
                 "least-squares slope -0.25 points a game"):
        assert said in text
    as_json = run_crib("stats", "--history", str(path), "--json")
    assert as_json.returncode == 0
    assert json.loads(as_json.stdout) == {"history": str(path),
                                          **json.loads(json.dumps(summarize(
                                              read_games(path)).to_dict()))}


def test_crib_stats_of_no_history_is_one_line(tmp_path):
    run = run_crib("stats", "--history", str(tmp_path / "none.sqlite3"))
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout == (f"crib stats: no games in the history yet ({tmp_path / 'none.sqlite3'})"
                          "; crib play adds each game\n")
    connect(tmp_path / "empty.sqlite3").close()  # a history with no games yet
    run = run_crib("stats", "--history", str(tmp_path / "empty.sqlite3"))
    assert run.returncode == 0 and run.stdout.startswith("crib stats: no games in the history")
    env = dict(os.environ, **{HISTORY_ENV: str(tmp_path / "moved.sqlite3")})
    run = run_crib("stats", env=env)
    assert "moved.sqlite3" in run.stdout and run.returncode == 0
    # an empty file (made ahead, or a wrong name): no games, and reading does not make a
    # database of it
    (tmp_path / "blank").write_bytes(b"")
    run = run_crib("stats", "--history", str(tmp_path / "blank"))
    assert run.returncode == 0 and run.stdout.startswith("crib stats: no games in the history")
    assert (tmp_path / "blank").read_bytes() == b""
    assert len(read_games(tmp_path / "blank")) == 0 and (tmp_path / "blank").stat().st_size == 0


@pytest.mark.parametrize(("make", "args", "message"), [
    (lambda p: p.write_text("not a database\n" * 100), [],
     "is not a readable SQLite database (file is not a database)"),
    (None, ["--history", "no/such/folder/h.sqlite3"],
     "crib stats: --history no/such/folder/h.sqlite3: no folder no/such/folder"),
    (None, ["--level", "club"], "unrecognized arguments: --level club"),
    # a named pipe's size is 0, as an empty history's: it said "no games in the history yet"
    (os.mkfifo, [], "h.sqlite3: is a named pipe, not a file"),
    (os.mkdir, [], "h.sqlite3: is a folder, not a file"),
])
def test_crib_stats_bad_history_is_one_line_and_status_2(tmp_path, make, args, message):
    path = tmp_path / "h.sqlite3"
    if make is not None:
        make(path)
        args = ["--history", str(path)]
    run = run_crib("stats", *args, cwd=tmp_path)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and message in run.stderr


def test_the_reviews_p_win_lost_is_kept(tmp_path):
    # the review's P(win) lost near the end (issue 23's one objective), in step 3's column
    path = tmp_path / "h.sqlite3"
    review = SimpleNamespace(discard_lost=1.0, play_lost=2.0, p_win_lost=0.0125)
    add_game(WON, path, review=review, played_at="2025-01-01T10:00:00+00:00")
    game = add_game(LOST, path, played_at="2025-01-02T10:00:00+00:00")
    add_review(game, SimpleNamespace(discard_lost=0.5, play_lost=0.0, p_win_lost=0.25), path)
    assert read_games(path)["review_p_win_lost"].tolist() == [0.0125, 0.25]
    stats = history_stats(path)
    assert stats.losses["p_win_lost"].tolist() == [0.0125, 0.25]
    assert stats.losses["lost"].tolist() == [3.0, 2.5]  # 0.5 + the 2 points muggins gave


# --------------------------------------------------------------------------- the group forms

# Three players, you in seat 0 against West (1) and East (2): each deal's show is the hands
# from the dealer's left round to the dealer, then the crib.
THREE = {
    "format": 2, "variant": "three-player", "seats": ["you", "hand+random", "hand+random"],
    "level": "Beginner", "winner": 2, "scores": [70, 95, 121], "skunk": [1, 0, 0],
    "first_dealer": 0,
    "deals": [
        # you deal: West pegs 2, East 1, you 3; West's hand 6, East's 4, yours 8, your crib 5
        {"dealer": 0, "heels": 0, "plays": [[1, "5H", 2], [2, "TD", 1], [0, "6S", 3]],
         "show": [6, 4, 8, 5]},
        # West deals, his heels 2 to him: East's hand 2, yours 10, West's 12, West's crib 7
        {"dealer": 1, "heels": 2, "plays": [], "show": [2, 10, 12, 7]},
    ]}
# Four players, you and your partner (seat 2) against West (1) and East (3): sides 0 and 1.
FOUR = {
    "format": 2, "variant": "four-player",
    "seats": ["you", "ev+greedy", "ev+greedy", "ev+greedy"], "level": "Club", "winner": 0,
    "scores": [121, 88], "skunk": [0, 1], "first_dealer": 3,
    # East deals: you peg 2, your partner 3, West 1; your hand 8, West's 4, your partner's 6,
    # East's 9, East's crib 5 (theirs)
    "deals": [{"dealer": 3, "heels": 0, "plays": [[0, "5H", 2], [1, "TD", 1], [2, "6S", 3]],
               "show": [8, 4, 6, 9, 5]}]}


def test_the_group_forms_rows_by_side_and_stats_by_form(tmp_path):
    three = game_row(THREE)
    assert (three["variant"], three["result"], three["your_score"],
            three["computer_score"]) == ("three-player", "lost", 70, 121)
    assert (three["skunk_taken"], three["skunk_given"]) == ("single", "none")
    # you: pegging 3, hand 8 + 10, crib 5; the two AIs together: pegging 2 + 1, hands 6 + 4
    # + 2 + 12, crib 7, heels 2
    assert (three["your_pegging"], three["your_hand"], three["your_crib"]) == (3, 18, 5)
    assert (three["computer_pegging"], three["computer_hand"], three["computer_crib"],
            three["computer_heels"]) == (3, 24, 7, 2)
    four = game_row(FOUR)
    assert (four["result"], four["skunk_given"], four["your_score"]) == ("won", "single", 121)
    # your side: pegging 2 + 3, hands 8 + 6; theirs: pegging 1, hands 4 + 9, crib 5
    assert (four["your_pegging"], four["your_hand"], four["your_crib"]) == (5, 14, 0)
    assert (four["computer_pegging"], four["computer_hand"],
            four["computer_crib"]) == (1, 13, 5)
    with pytest.raises(ValueError, match="one seat named 'you'"):
        game_row({**THREE, "seats": ["you", "hand+random"]})
    path = tmp_path / "h.sqlite3"
    for record in (THREE, FOUR, WON):
        add_game(record, path)
    stats = history_stats(path)
    rows = stats.levels.to_dict("records")
    assert [(r["variant"], r["label"], r["won"], r["lost"]) for r in rows] == [
        ("six-card", "Club", 1, 0), ("three-player", "Beginner", 0, 1),
        ("four-player", "Club", 1, 0)]
    assert [r["even"] for r in rows] == [0.5, pytest.approx(1 / 3), 0.5]
    per_deal = stats.per_deal.set_index(["variant", "phase"])["computer"]
    assert per_deal["three-player", "hand"] == 24 / 2 / 2  # each AI's, a deal
    assert per_deal["four-player", "hand"] == 13
    run = run_crib("stats", "--history", str(path))
    assert run.returncode == 0, run.stderr
    text = "\n".join(" ".join(line.split()) for line in run.stdout.splitlines())
    for said in ("six-card (two sides: an even game wins 1 in 2):",
                 "three-player (three sides: an even game wins 1 in 3):",
                 "four-player (two sides: an even game wins 1 in 2):",
                 "Beginner 1 0 0 1 0.0%",
                 "points per deal, three-player (2 whole deals) you each AI",
                 "points per deal, four-player (1 whole deal) us them"):
        assert said in text
    assert max(len(line) for line in run.stdout.splitlines()[1:]) <= 80
