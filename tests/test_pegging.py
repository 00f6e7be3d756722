"""The pegging table: the kernel's tallies against a plain-Python recount of recorded deals, the
shrinkage rule, the shipped table against the simulation, keep's peg_mean, and the CLI."""

from __future__ import annotations

import json
from collections import defaultdict

import numpy as np
import pytest
from naive import naive_play

from analyzer import keep, keep_many, parse_cards, simulate
from analyzer.cli import main
from analyzer.keeping.crib import shipped_file, shipped_folder
from analyzer.research.pegging import (
    N_INDEX,
    PEGGING_FILE,
    PEGGING_TABLE_COLUMNS,
    STAT_N,
    _play_deals,
    build_pegging_table,
    pattern_index,
    peg_table,
    peg_values,
    read_pegging_table,
)

PLAYERS = ("ev+lookahead", "ev+lookahead")


@pytest.fixture(scope="module")
def recorded():
    """600 deals in three chunks of 200, every deal recorded."""
    return _play_deals(600, seed=11, players=PLAYERS, workers=2, chunk_size=200, record=200)


def test_tallies_equal_a_plain_python_recount_of_the_recorded_deals(recorded):
    stats, rec = recorded
    assert len(rec["n_plays"]) == 600
    want = defaultdict(lambda: np.zeros(7, np.int64))
    for i in range(600):
        dealt, kept = rec["dealt"][i], rec["kept"][i]
        plays = rec["plays"][i][:rec["n_plays"][i]]
        assert len(plays) == 8  # every card laid: no target stops the play
        # Replay the recorded order through the naive play (player 0 the pone = seat 1, 1 the
        # dealer = seat 0): it checks every card was legal and recounts every point itself.
        order = {0: [int(c) for p, c, _ in plays if p == 1],
                 1: [int(c) for p, c, _ in plays if p == 0]}

        def follow(player, playable, history, order=order):
            return order[player].pop(0)

        events, (pone, dealer) = naive_play(kept[1].tolist(), kept[0].tolist(), follow)
        assert [(1 - p, c, pts) for p, c, pts in events] == [tuple(x) for x in plays.tolist()]
        for seat, (mine, theirs) in enumerate(((dealer, pone), (pone, dealer))):
            assert set(kept[seat].tolist()) <= set(dealt[seat].tolist())
            key = (seat, tuple(sorted(c // 4 for c in kept[seat].tolist())))
            net = mine - theirs
            want[key] += [1, mine, mine * mine, theirs, theirs * theirs, net, net * net]
    got = {}
    patterns = [(a, b, c, d) for a in range(13) for b in range(a, 13) for c in range(b, 13)
                for d in range(c, 13)]
    for role in (0, 1):
        for j, pattern in enumerate(patterns):
            if stats[role, j, STAT_N]:
                got[(role, pattern)] = stats[role, j].tolist()
    assert got == {k: v.tolist() for k, v in want.items()}


def test_the_recorded_keeps_are_the_ev_players_keeps(recorded):
    # seat 0 deals: its keep is the best net with the crib added, seat 1's with it taken off
    _, rec = recorded
    for i in range(40):
        for seat in (0, 1):
            dealt, kept = rec["dealt"][i, seat], sorted(rec["kept"][i, seat].tolist())
            df = keep(dealt, dealer=seat == 0, pegging=False)
            mine = df[[sorted(parse_cards(k).tolist()) == kept for k in df["keep"]]]
            assert mine["net"].iloc[0] == pytest.approx(df["net"].iloc[0], abs=1e-12)


def test_same_seed_same_table_whatever_the_workers():
    one = build_pegging_table(deals=3_000, seed=4, workers=1, chunk_size=700)
    two = build_pegging_table(deals=3_000, seed=4, workers=2, chunk_size=700)
    assert np.array_equal(one.stats, two.stats)
    other = build_pegging_table(deals=3_000, seed=5, workers=2, chunk_size=700)
    assert not np.array_equal(one.stats, other.stats)
    assert int(one.stats[..., STAT_N].sum()) == 6_000


def test_table_columns_follow_the_stated_shrinkage_rule():
    result = build_pegging_table(deals=300_000, seed=2, workers=2)
    df = result.table
    assert list(df.columns) == list(PEGGING_TABLE_COLUMNS) and len(df) == 3640
    for role, k in zip(("dealer", "pone"), result.k, strict=True):
        rows = df[df.role == role]
        n = rows["n"].to_numpy(float)
        prior = (rows["peg_net_raw"].fillna(0) * n).sum() / n.sum()
        assert prior == pytest.approx(result.role_mean[0 if role == "dealer" else 1], abs=1e-12)
        assert 0 < k < np.inf
        want = np.where(n > 0, (n * rows["peg_net_raw"].fillna(0) + k * prior) / (n + k), prior)
        np.testing.assert_allclose(rows["peg_net"], want, atol=1e-12)
        np.testing.assert_allclose(rows["peg_net"], rows["peg_for"] - rows["peg_against"],
                                   atol=1e-12)
    # every deal is zero-sum between the two players
    assert result.role_mean[0] == pytest.approx(-result.role_mean[1], abs=1e-12)
    # too few deals to estimate K: no shrinkage, the raw means (the role's mean where n = 0)
    small = build_pegging_table(deals=2_000, seed=2, workers=2)
    assert small.k == (0.0, 0.0)
    df = small.table
    seen = df["n"] > 0
    np.testing.assert_allclose(df.loc[seen, "peg_net"], df.loc[seen, "peg_net_raw"], atol=1e-12)
    for role, mean in zip(("dealer", "pone"), small.role_mean, strict=True):
        assert (df.loc[~seen & (df.role == role), "peg_net"] == mean).all()


def test_bad_arguments():
    for kwargs, match in (({"deals": 0}, "deals"), ({"seed": -1}, "seed"),
                          ({"players": "ev+psychic"}, "psychic")):
        with pytest.raises(ValueError, match=match):
            build_pegging_table(**kwargs)
    with pytest.raises(ValueError, match="role"):
        peg_values([1, 2, 3, 4], "dealers")
    with pytest.raises(ValueError, match="ranks"):
        peg_values([1, 2, 3, 13], 0)


# --------------------------------------------------------------------------- the shipped table


def test_shipped_table_shape_and_provenance():
    before = sorted((p.name, p.stat().st_mtime_ns) for p in shipped_folder().iterdir())
    table = peg_table.__wrapped__()  # a fresh read: loading never writes anything
    assert sorted((p.name, p.stat().st_mtime_ns) for p in shipped_folder().iterdir()) == before
    assert np.array_equal(table, peg_table())
    assert table.shape == (2, N_INDEX) and table.dtype == np.float64
    assert not table.flags.writeable
    arrays = read_pegging_table()
    patterns = np.array([pattern_index([a, b, c, d]) for a in range(13) for b in range(a, 13)
                         for c in range(b, 13) for d in range(c, 13)])
    unsorted = np.setdiff1d(np.arange(N_INDEX), patterns)
    assert len(patterns) == 1820 and (table[:, unsorted] == 0).all()
    meta = json.loads(shipped_file(PEGGING_FILE.replace(".csv", ".json")).read_text())
    for key in ("command", "seed", "deals", "players", "date", "git_commit", "shrinkage_k"):
        assert key in meta
    n = arrays["n"][:, patterns]
    assert (n.sum(axis=1) == meta["deals"]).all()  # one dealer and one pone sample a deal
    # the patterns kept most often rest on many deals and have small standard errors
    common = n >= 20_000
    assert common.sum() > 1000
    assert (arrays["se_net"][:, patterns][common] < 0.05).all()
    assert np.isfinite(arrays["se_net"][:, patterns][n > 1]).all()


def test_shipped_role_means_agree_with_the_simulation():
    # The dealer pegs more (the pone leads, the dealer often gets the last card). The table's
    # role means (n-weighted; shrinking moves a rare pattern only, so the weighted mean barely
    # moves) against the pegging figures of whole games between the same players, whose every
    # deal counts whole.
    arrays = read_pegging_table()
    n = arrays["n"].astype(float)
    mean = {name: [float((arrays[name][r] * n[r]).sum() / n[r].sum()) for r in (0, 1)]
            for name in ("for", "against", "net")}
    meta = json.loads(shipped_file(PEGGING_FILE.replace(".csv", ".json")).read_text())
    assert mean["net"][0] == pytest.approx(meta["role_mean_net"]["dealer"], abs=0.005)
    assert mean["net"][0] > 0.5 and mean["net"][1] < -0.5
    assert mean["net"][0] == pytest.approx(-mean["net"][1], abs=0.005)
    assert mean["for"][0] == pytest.approx(mean["against"][1], abs=0.005)
    summary = simulate(3_000, seed=8, players="ev+lookahead", workers=2).summary
    sim = {}
    for role, name in ((0, "dealer"), (1, "pone")):
        row = summary.loc[f"points_per_deal.{name}.pegging"]
        sim[role] = row["value"]
        half = (row["ci_high"] - row["ci_low"]) / 2
        assert mean["for"][role] == pytest.approx(row["value"], abs=2 * half + 0.01), name
    assert mean["net"][0] == pytest.approx(sim[0] - sim[1], abs=0.1)


# --------------------------------------------------------------------------- keep


def test_keep_peg_mean_is_the_table_lookup_and_counts_in_the_net():
    rng = np.random.default_rng(3)
    table = peg_table()
    for _ in range(30):
        six = rng.permutation(52)[:6]
        for dealer, sign in ((True, 1), (False, -1)):
            df = keep(six, dealer=dealer)
            assert df.attrs["pegging"] is True
            for row in df.itertuples(index=False):
                ranks = sorted(c // 4 for c in parse_cards(row.keep).tolist())
                a, b, c, d = ranks
                assert row.peg_mean == table[0 if dealer else 1, ((a * 13 + b) * 13 + c) * 13 + d]
                assert row.peg_mean == peg_values(ranks, "dealer" if dealer else "pone")
                assert row.net == row.hand_mean + sign * row.crib_mean + row.peg_mean
            assert df["net"].is_monotonic_decreasing


def test_keep_without_pegging_is_the_points_ranking():
    rng = np.random.default_rng(4)
    for _ in range(30):
        six = rng.permutation(52)[:6]
        for dealer, sign in ((True, 1), (False, -1)):
            off, on = keep(six, dealer=dealer, pegging=False), keep(six, dealer=dealer)
            assert off.attrs["pegging"] is False
            assert (off["net"] == off["hand_mean"] + sign * off["crib_mean"]).all()
            # the same 15 rows, ranked by the points alone (ties: hand mean, then discard order)
            key = ["keep", "discard", "hand_mean", "hand_min", "hand_max", "hand_std",
                   "crib_mean", "peg_mean"]
            a = off[key].sort_values(["keep", "discard"]).reset_index(drop=True)
            b = on[key].sort_values(["keep", "discard"]).reset_index(drop=True)
            assert a.equals(b)
            pairs = list(zip(-off["net"], -off["hand_mean"], strict=True))
            assert pairs == sorted(pairs)
            many = keep_many(six[None, :], dealer=dealer, pegging=False)
            assert many.drop(columns=["hand", "rank"]).equals(off)


def test_other_forms_have_no_pegging():
    for variant in ("three-player", "five-card"):
        on = keep("5H 5S 6D JC KH", dealer=True, variant=variant)
        off = keep("5H 5S 6D JC KH", dealer=True, variant=variant, pegging=False)
        assert on.equals(off) and on.attrs["pegging"] is False
        assert (on["peg_mean"] == 0).all()
        assert (keep_many(["5H 5S 6D JC KH"], dealer=True, variant=variant)["peg_mean"]
                == 0).all()


# --------------------------------------------------------------------------- the CLI


def test_cli_keep_pegging(capsys):
    assert main(["keep", "5H", "5S", "6D", "JC", "QS", "KH", "--pone", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    df = keep("5H 5S 6D JC QS KH", dealer=False)
    assert out["pegging"] is True and out["rows"][0]["keep"] == df["keep"].iloc[0]
    assert [r["peg_mean"] for r in out["rows"]] == df["peg_mean"].tolist()
    assert main(["keep", "5H", "5S", "6D", "JC", "QS", "KH", "--pone", "--no-pegging"]) == 0
    text = capsys.readouterr().out
    assert "peg not counted" in text
    best = keep("5H 5S 6D JC QS KH", dealer=False, pegging=False).iloc[0]
    assert f"best: keep {best['keep']}, throw {best['discard']} (net {best['net']:.3f})" in text
    assert main(["keep", "5H", "5S", "6D", "JC", "KH", "--pone", "--variant", "five-card",
                 "--no-pegging"]) == 0
    assert "peg" not in capsys.readouterr().out.splitlines()[1]
    assert main(["keep", "5H", "5S", "6D", "JC", "KH", "--pone", "--variant", "five-card",
                 "--pegging"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no pegging table" in err[0]


def test_cli_tables_pegging(tmp_path, capsys):
    out = tmp_path / "peg.csv"
    assert main(["tables", "pegging", "--out", str(out), "--deals", "5000", "--seed", "9",
                 "--workers", "2"]) == 0
    captured = capsys.readouterr()
    assert "5,000 of 5,000 deals" in captured.err and "wrote" in captured.out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["peg.csv", "peg.json"]
    meta = json.loads((tmp_path / "peg.json").read_text())
    assert meta["seed"] == 9 and meta["deals"] == 5000 and meta["command"].startswith("crib ")
    arrays = read_pegging_table(out)
    same = build_pegging_table(deals=5000, seed=9, workers=1)
    np.testing.assert_allclose(arrays["net"][0, pattern_index([4, 4, 9, 10])],
                               same.table.set_index(["role", "ranks"]).loc[
                                   ("dealer", "5-5-10-J"), "peg_net"], atol=1e-6)
    before = sorted((p.name, p.stat().st_mtime_ns) for p in shipped_folder().iterdir())
    for argv, message in (
            (["--out", str(shipped_folder() / PEGGING_FILE), "--deals", "10"], "--force"),
            (["--out", str(tmp_path / "peg.json"), "--deals", "10"], ".csv"),
            (["--out", str(tmp_path / "no" / "peg.csv"), "--deals", "10"], "--out"),
            (["--out", str(out), "--deals", "0"], "--deals"),
            (["--deals", "10"], "--out")):
        assert main(["tables", "pegging", *argv]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0], err
    assert sorted((p.name, p.stat().st_mtime_ns) for p in shipped_folder().iterdir()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["peg.csv", "peg.json"]


def test_reading_a_bad_table_names_the_problem(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text(",".join(PEGGING_TABLE_COLUMNS) + "\n")
    with pytest.raises(ValueError, match="0 rows"):
        read_pegging_table(bad)
    bad.write_text("role,ranks\ndealer,A-A-A-A\n")
    with pytest.raises(ValueError, match="missing columns"):
        read_pegging_table(bad)
    row = "dealer,A-A-A-Z,1,0,0,0,0,0,0,0\n"
    bad.write_text(",".join(PEGGING_TABLE_COLUMNS) + "\n" + row)
    with pytest.raises(ValueError, match=":2:"):
        read_pegging_table(bad)
