"""Game records as Parquet (one row a deal): the same games as the JSON Lines records, read back
by ``crib replay`` and ``crib review``; the compact records of a run's parts and checkpoints."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analyzer import simulate
from analyzer.play.engine import ACC, CRIB_ACC_SHAPE, DEAL, GAME_RECORD, MAX_RECORDED_DEALS
from analyzer.sim.records import RecordError, read_records, write_records
from analyzer.sim.runs import ChunkResult

CRIB = Path(sys.executable).parent / "crib"
FORMS = ("six-card", "five-card", "three-player", "four-player")


def run_cli(*args, cwd) -> subprocess.CompletedProcess:
    return subprocess.run([str(CRIB), *args], capture_output=True, text=True, timeout=1800,
                          cwd=cwd)


@pytest.mark.parametrize("variant", [  # the group forms' in make test-all
    "six-card", "five-card", *(pytest.param(v, marks=pytest.mark.slow) for v in FORMS[2:])])
def test_the_parquet_records_are_the_json_lines_records_in_every_form(tmp_path, variant):
    result = simulate(400, seed=17, workers=2, chunk_size=128, record_games=300,
                      variant=variant)
    write_records(tmp_path / "g.jsonl", result.records)
    write_records(tmp_path / "g.parquet", result.record_table())
    from_json = read_records(tmp_path / "g.jsonl")
    from_table = read_records(tmp_path / "g.parquet")  # every game checked, as from JSON
    assert len(from_table) == 300 and from_table == from_json
    assert read_records(tmp_path / "g.parquet", games=[5, 299, 300]) == [from_json[5],
                                                                         from_json[299]]
    # what pandas reads: one row a deal, the game's own columns on each of its rows
    df = pd.read_parquet(tmp_path / "g.parquet")
    assert len(df) == sum(len(r["deals"]) for r in from_json)
    assert df.groupby("game").size().tolist() == [len(r["deals"]) for r in from_json]
    seats = range(result._game.players)
    for r, (_, rows) in zip(from_json, df.groupby("game"), strict=True):
        assert rows["deal"].tolist() == list(range(len(r["deals"])))
        assert set(rows["winner"]) == {r["winner"]}
        last = r["deals"][-1]
        assert [rows[f"score_{t}"].iloc[-1] for t in range(len(last["scores"]))] == \
            last["scores"] == r["scores"]
        first = r["deals"][0]
        assert [rows[f"hand_{p}"].iloc[0].split() for p in seats] == first["hands"]
        assert list(rows["play_points"].iloc[0]) == [p[2] for p in first["plays"]]


def test_a_whole_run_recorded_as_a_table_agrees_with_its_counters():
    result = simulate(3000, seed=5, players=("ev+greedy", "hand+lookahead"), record_games=3000)
    df = result.record_table().to_pandas()
    assert len(df) == result.acc[ACC.deals]
    ends = df.groupby("game").last()
    assert int((ends.winner == 0).sum()) == result.acc[ACC.side_wins]
    assert int((ends.winner == ends.first_dealer).sum()) == result.acc[ACC.first_dealer_wins]
    assert int((ends[["skunk_0", "skunk_1"]].max(axis=1) >= 1).sum()) == result.acc[ACC.skunks]
    margins = np.bincount(ends[["final_0", "final_1"]].max(axis=1)
                          - ends[["final_0", "final_1"]].min(axis=1))
    assert margins.tolist() == result.acc[ACC.margin: ACC.margin + len(margins)].tolist()
    # the heels: the starter is a jack in 4 deals of 52, whatever the hands (27,000 deals: the
    # standard error 0.0016)
    assert (df.heels == 2).mean() == pytest.approx(4 / 52, abs=0.01)


def test_parts_out_of_order_give_the_records_in_game_order():
    rng = np.random.default_rng(3)

    def part(index):
        games = np.zeros((len(index), GAME_RECORD.size), np.int64)
        games[:, GAME_RECORD.deals] = rng.integers(1, 12, len(index))
        games[0, GAME_RECORD.deals] = MAX_RECORDED_DEALS + 5  # a game longer than its record
        games[:, GAME_RECORD.winner] = index  # each header names its game
        n = np.minimum(games[:, GAME_RECORD.deals], MAX_RECORDED_DEALS)
        deals = np.zeros((int(n.sum()), DEAL.size), np.int16)
        deals[:, DEAL.dealer] = np.repeat(index, n)  # each deal names its game
        deals[:, DEAL.heels] = np.concatenate([np.arange(k) for k in n])
        return ChunkResult(np.array([index[0]]), np.zeros(ACC.size, np.int64),
                           np.zeros(CRIB_ACC_SHAPE, np.int64), np.array(index),
                           games, deals)

    total = ChunkResult.empty()
    for index in ([6, 7, 8], [0, 1, 2], [3, 4, 5]):
        total.add(part(index))
    index, games, deals = total.sorted_records()
    assert index.tolist() == games[:, GAME_RECORD.winner].tolist() == list(range(9))
    n = np.minimum(games[:, GAME_RECORD.deals], MAX_RECORDED_DEALS)
    assert deals[:, DEAL.dealer].tolist() == np.repeat(np.arange(9), n).tolist()
    assert deals[:, DEAL.heels].tolist() == np.concatenate([np.arange(k) for k in n]).tolist()


def test_a_checkpoint_of_format_3_is_refused_not_mixed(tmp_path):
    """Format 3's parts kept each game's room for 128 deals and, like format 4's, counted the
    winner's points past the target: resumed now, they would be added to games scored the new
    way. The run is refused in one line, and runs again in a new folder."""
    from analyzer.sim.runs import RunError

    args = dict(seed=8, players=("ev+greedy", "ev+lookahead"), chunk_size=500, record_games=900)
    simulate(1_500, **args, checkpoint=tmp_path, max_chunks=2)
    manifest = json.loads((tmp_path / "run.json").read_text())
    (tmp_path / "run.json").write_text(json.dumps({**manifest, "format": 3}))
    with pytest.raises(RunError, match="checkpoint format 3 is not this version's"):
        simulate(1_500, **args, checkpoint=tmp_path, resume=True)
    fresh = tmp_path / "again"
    fresh.mkdir()
    assert simulate(1_500, **args, checkpoint=fresh).records == simulate(1_500, **args).records


def test_recorded_games_keep_their_numbers_in_the_run():
    """A run's recorded games need not be its first (a Dask run stopped by its time limit
    finishes later chunks first): each keeps its own number, in the dicts and the table."""
    result = simulate(40, seed=3, chunk_size=10, record_games=40)
    index, games, deals = result.record_arrays
    n = np.minimum(games[:, GAME_RECORD.deals], MAX_RECORDED_DEALS)
    later = index >= 20  # as if only the chunks of games 20 to 39 had been played
    rows = np.repeat(later, n)
    from analyzer.sim.records import game_records
    from analyzer.sim.recordtable import record_table

    records = game_records(games[later], deals[rows], index=index[later])
    assert [r["game"] for r in records] == list(range(20, 40))
    assert records == [r for r in result.records if r["game"] >= 20]
    table = record_table(games[later], deals[rows], result._game, 1, index=index[later])
    assert sorted(set(table.column("game").to_pylist())) == list(range(20, 40))


def test_what_write_records_takes(tmp_path):
    import pyarrow as pa

    result = simulate(20, seed=1, record_games=5)
    with pytest.raises(ValueError, match="record table"):
        write_records(tmp_path / "g.parquet", result.records)
    with pytest.raises(ValueError, match="record table"):
        write_records(tmp_path / "g.parquet", pa.table({"a": [1]}))  # no records' metadata
    with pytest.raises(ValueError, match="written as Parquet"):
        write_records(tmp_path / "g.jsonl", result.record_table())
    with pytest.raises(ValueError, match="record dicts"):
        write_records(tmp_path / "g.jsonl", result.record_table().to_pandas())
    assert not list(tmp_path.iterdir())
    write_records(tmp_path / "g.jsonl", tuple(result.records))  # any iterable of dicts
    assert read_records(tmp_path / "g.jsonl") == result.records


@pytest.mark.slow
def test_crib_simulate_records_parquet_and_replay_and_review_read_it(tmp_path):
    common = ["simulate", "--games", "300", "--seed", "3", "--record-games", "300", "--quiet"]
    done = run_cli(*common, "--record", "g.parquet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "recorded 300 games in g.parquet (its provenance in g.json)" in done.stdout
    meta = json.loads((tmp_path / "g.json").read_text())
    assert meta["games_recorded"] == 300 and meta["format"] == "parquet"
    assert meta["file"] == "g.parquet"
    taken = run_cli(*common, "--record", "g.jsonl", cwd=tmp_path)
    assert taken.returncode == 2 and "g.json" in taken.stderr  # the Parquet file's provenance
    (tmp_path / "j").mkdir()
    assert run_cli(*common, "--record", "g.jsonl", cwd=tmp_path / "j").returncode == 0
    table = run_cli("replay", "g.parquet", "--game", "211", cwd=tmp_path)
    lines = run_cli("replay", "j/g.jsonl", "--game", "211", cwd=tmp_path)
    assert table.returncode == 0 and table.stdout == lines.stdout
    assert table.stdout.startswith("game 211: ")
    review = run_cli("review", "g.parquet", "--game", "4", "--seat", "1", "--samples", "200",
                     cwd=tmp_path)
    assert review.returncode == 0 and review.stdout.startswith("review of game 4 (six-card)")
    missing = run_cli("replay", "g.parquet", "--game", "300", cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stderr.strip().endswith("no game 300 in g.parquet (300 games recorded)")


def pa_string():
    import pyarrow as pa

    return pa.string()


@pytest.mark.slow
def test_what_cannot_be_a_parquet_record_is_one_line(tmp_path):
    (tmp_path / "short.parquet").write_text("PAR1")
    pd.DataFrame({"game": [0], "deal": [0]}).to_parquet(tmp_path / "other.parquet")
    result = simulate(30, seed=2, record_games=30)
    table = result.record_table()
    # a score changed: the record contradicts its cards
    i = table.column_names.index("score_0")
    scores = table.column("score_0").to_numpy().copy()
    scores[3] += 1
    write_records(tmp_path / "bad.parquet", table.set_column(i, "score_0", [scores]))
    cases = {"short.parquet": "not a Parquet file",
             "other.parquet": "not game records written by crib simulate",
             "bad.parquet": "game 0 deal 4: scores"}

    def changed(name, column, row, value, kind=None):
        """The table with one value of one column changed (or the column's type)."""
        import pyarrow as pa

        values = table.column(column).to_pylist()
        values[row] = value
        if kind is not None:
            values = [str(v) for v in values]
        array = pa.array(values, kind or table.schema.field(column).type)
        write_records(tmp_path / name, table.set_column(
            table.column_names.index(column), column, array))

    n0 = table.column("game_deals")[0].as_py()  # game 0's deals: rows 0 to n0 - 1
    changed("winner.parquet", "winner", 2, 1 - table.column("winner")[2].as_py())
    changed("final.parquet", "final_0", n0 - 1, table.column("final_0")[0].as_py() + 5)
    changed("deals.parquet", "game_deals", 0, n0 + 3)
    changed("deal.parquet", "deal", 3, 42)
    changed("null.parquet", "hand_0", 1, None)
    import pyarrow as pa

    write_records(tmp_path / "fewer.parquet",  # game 0's last deal left out
                  pa.concat_tables([table.slice(0, n0 - 1), table.slice(n0)]))
    changed("strings.parquet", "game", 0, "0", kind=pa_string())
    cases |= {"winner.parquet": "game 0 deal 3: its winner is not its game's",
              "final.parquet": f"game 0 deal {n0}: its final_0 is not its game's",
              "deals.parquet": "game 0 deal 2: its game_deals is not its game's",
              "fewer.parquet": f"game 0: {n0 - 1} deals, not its {n0}",
              "deal.parquet": "game 0: column deal holds 42 where 3 comes next",
              "null.parquet": "column 'hand_0' has an empty value",
              "strings.parquet": "column 'game' holds string, not int64"}
    for name, why in cases.items():
        with pytest.raises(RecordError, match=why):
            read_records(tmp_path / name)
        done = run_cli("replay", name, "--game", "0", cwd=tmp_path)
        assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
        assert why in done.stderr and "Traceback" not in done.stderr
    # a record over another output's provenance is refused, as a provenance over a record is
    done = run_cli("simulate", "--games", "10", "--record", "g.parquet", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    over = run_cli("simulate", "--games", "10", "--record", "g.json", cwd=tmp_path)
    assert over.returncode == 2
    assert over.stderr.strip().endswith("--record g.json: is the provenance of g.parquet: "
                                        "choose another name")
    # a JSON Lines file over the limit is refused before any game is played, pointing to Parquet
    over = run_cli("simulate", "--games", "10", "--record", "x.jsonl", "--record-games",
                   "100001", cwd=tmp_path)
    assert over.returncode == 2 and "record more as Parquet" in over.stderr
    assert not (tmp_path / "x.jsonl").exists()
