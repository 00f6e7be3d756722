"""The three-player win-odds table (analyzer.research.odds3, analyzer.keeping.winodds): the
tallies against a recount of the engine's recorded deals, the recursion against the direct
value of a made-up game worked deal by deal, a small build's sums and order, the shipped table,
its reader and ``crib odds`` / ``crib tables odds`` in three-player."""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from test_odds import run  # the crib command in a subprocess, as the two-player table's tests

from analyzer import simulate
from analyzer.keeping import winodds
from analyzer.keeping.crib import shipped_file
from analyzer.play.engine import DEAL, PLAY
from analyzer.research import odds, odds3

# Builds of the three-player table, small and seeded (make test-all); the shipped tables' shape,
# edges and monotony are make test's (test_odds_forms.py)
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def small():
    return odds3.build_odds_table3(4_096, seed=5, workers=2, jackknife=False)


# --------------------------------------------------------------------------- the tallies


def _events(row) -> list[tuple[int, int]]:
    """(seat, points) of a recorded deal row in the order points arrive: his heels (seat 0
    deals), each card laid, the hands from the dealer's left (seat 1) round to the dealer, the
    crib."""
    row = row.tolist()
    out = [(0, row[DEAL.heels])]
    for k in range(row[DEAL.n_plays]):
        base = DEAL.plays + PLAY.size * k
        out.append((row[base + PLAY.player], row[base + PLAY.points]))
    show = row[DEAL.show:DEAL.show + 4]
    out += [(1, show[0]), (2, show[1]), (0, show[2]), (0, show[3])]
    return out


def _recount(deals, target: int = 121):
    """W and H of deals given as events, by the first-reach time of each need of each seat: a
    different computation from the kernel's difference arrays."""
    size = target + 1
    needs = np.arange(1, size)
    w = np.zeros((3, size, size, size), np.int64)
    h = np.zeros((size, size, size), np.int64)
    for ev in deals:
        first = []
        for s in range(3):
            a = np.cumsum([pts if seat == s else 0 for seat, pts in ev])
            # a need never reached is reached "after the last event"
            first.append(np.where(needs <= a[-1], np.searchsorted(a, needs), len(ev)))
        f0, f1, f2 = first[0][:, None, None], first[1][None, :, None], first[2][None, None, :]
        w[0, 1:, 1:, 1:] += (f0 < f1) & (f0 < f2)
        w[1, 1:, 1:, 1:] += (f1 < f0) & (f1 < f2)
        w[2, 1:, 1:, 1:] += (f2 < f0) & (f2 < f1)
        totals = [min(sum(p for seat, p in ev if seat == s), target) for s in range(3)]
        h[tuple(totals)] += 1
    return w, h


def test_tallies_match_a_recount_of_the_recorded_deals():
    deals, seed = 96, 17
    sizes, groups = odds._layout(deals)
    tallies = odds3.tally_deals3(deals, seed, workers=2)
    recorded = [odds3.record_deals3(int(n), seed, chunk=i) for i, n in enumerate(sizes)]
    assert sum(len(c) for c in recorded) == deals
    for row in recorded[0]:  # the engine's record of a three-player deal, seat 0 dealing
        assert row[DEAL.dealer] == 0 and row[DEAL.n_show] == 4
    for g in (0, 7, 31):
        mine = [_events(row) for i, chunk in enumerate(recorded) if groups[i] == g
                for row in chunk]
        w, h = _recount(mine)
        assert (tallies["w"][g] == w).all()
        assert (tallies["h"][g] == h).all()
    assert tallies["h"][:, 0, 0, 0].sum() == 0  # every deal scores (at least the last card)


def test_every_state_counts_every_deal_once_and_a_broken_tally_is_refused():
    t = odds3.tally_deals3(2_048, seed=2, workers=1)
    w, h = t["w"].sum(axis=0, dtype=np.int64), t["h"].sum(axis=0, dtype=np.int64)
    rng = np.random.default_rng(0)
    for n in [(1, 1, 1), (121, 121, 121), (121, 1, 60), *rng.integers(1, 122, (20, 3))]:
        n0, n1, n2 = (int(x) for x in n)
        neither = h[:n0, :n1, :n2].sum()
        assert w[0, n0, n1, n2] + w[1, n0, n1, n2] + w[2, n0, n1, n2] + neither == 2_048
    w[1, 50, 60, 70] += 1
    with pytest.raises(ValueError, match="needs 50, 60, 70"):
        odds3.solve3(w, h)


@pytest.mark.slow
def test_the_same_seed_tallies_the_same_whatever_the_workers():
    one = odds3.tally_deals3(2_048, seed=9, workers=1)
    two = odds3.tally_deals3(2_048, seed=9, workers=2)
    assert all(np.array_equal(one[k], two[k]) for k in ("w", "h"))


# --------------------------------------------------------------------------- the recursion


# A made-up game of five kinds of deal, equally likely, each a list of (seat, points) in the
# order the points arrive, seat 0 dealing, seat 1 on his left. The game is worked deal by deal:
# the first to reach his need wins at once; if nobody does, the deal passes to the left (seat 1
# deals, seat 2 is on his left, the old dealer is third).
TOY = [[(0, 2), (1, 3), (2, 1), (0, 5), (1, 4), (2, 6), (0, 3)],
       [(1, 1), (2, 2), (0, 1), (1, 8), (2, 3), (0, 2), (0, 4)],
       [(0, 0), (2, 9), (1, 2), (0, 2)],
       [(1, 2), (0, 6), (2, 4), (1, 4), (2, 2), (0, 9)],
       [(2, 1), (1, 1), (0, 1), (1, 12)]]
TOY_TARGET = 30


@cache
def _toy_value(n0: int, n1: int, n2: int) -> tuple[float, float, float]:
    """Each seat's chance (seat 0 the dealer) with needs n0, n1, n2, worked by the rules."""
    total = [0.0, 0.0, 0.0]
    for deal in TOY:
        need = [n0, n1, n2]
        for seat, points in deal:
            need[seat] -= points
            if need[seat] <= 0:
                total[seat] += 1
                break
        else:  # the next deal: the old seat 1 deals, old seat 2 his left, old 0 third
            nxt = _toy_value(need[1], need[2], need[0])
            for old in range(3):
                total[old] += nxt[(old - 1) % 3]
    return tuple(t / len(TOY) for t in total)


def test_the_recursion_is_the_value_of_the_game_its_deals_make():
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    w, h = _recount(TOY, TOY_TARGET)
    v, rounds, gap = odds3.solve3(w, h)
    assert gap < 1e-12 and rounds < 100
    needs = range(1, TOY_TARGET + 1)
    direct = np.array([[[_toy_value(a, b, c) for c in needs] for b in needs] for a in needs])
    assert np.abs(np.moveaxis(v[:, 1:, 1:, 1:], 0, -1) - direct).max() < 1e-12
    # States worked by hand. Needs (1, 1, 1): the first to score wins; deal 0: seat 0 (2),
    # deal 1: seat 1, deal 2: seat 0's 0 reaches nothing, seat 2's 9 does, deal 3: seat 1,
    # deal 4: seat 2. So (1, 2, 2) of 5.
    assert np.allclose(v[:, 1, 1, 1], [1 / 5, 2 / 5, 2 / 5], rtol=0, atol=1e-12)
    # Needs (3, 30, 30): seat 0 reaches 3 in deals 0, 1 and 3. Deal 2 ends (2, 2, 9): the next
    # deal's needs (28, 21, 1), the old dealer third needing 1, which he scores in every deal
    # before the others reach 28 or 21. Deal 4 ends (1, 13, 1): next (17, 29, 2), where he
    # reaches 2 in deals 0 to 3; deal 4 ends (1, 13, 1) again and leaves him, now on the
    # dealer's left, needing 1 at (16, 1, 16), which he scores in every deal first. So seat 0
    # wins surely.
    assert np.allclose(v[:, 3, 30, 30], [1, 0, 0], rtol=0, atol=1e-12)


def _check_monotone3(p, tol):
    body = p[:, 1:, 1:, 1:]
    for i in range(3):
        for axis in range(3):
            step = np.diff(body[i], axis=axis)
            if axis == i:
                assert (step <= tol).all(), f"seat {i} needing more must not help him"
            else:
                assert (step >= -tol).all(), f"seat {axis} needing more must not hurt seat {i}"


def test_a_small_build_adds_up_and_is_monotone(small):
    assert small.p.shape == (3, 122, 122, 122)
    assert small.sum_gap < 1e-12
    _check_monotone3(small.p, 1e-12)  # exact up to the FFT's rounding
    p = small.p
    assert (p[:, 0] == 0).all() and (p[:, :, 0] == 0).all() and (p[:, :, :, 0] == 0).all()
    assert p[0, 1, 121, 121] > 0.999 and p[1, 121, 1, 121] > 0.99 and p[2, 121, 121, 1] > 0.99
    assert np.isnan(small.se[:, 1:, 1:, 1:]).all()  # no jackknife asked for


def test_the_corner_of_the_table_is_solved_alone_exactly(small):
    # a state's chance depends only on states needing no more: the corner solved alone (its
    # totals clipped) equals the whole table's corner
    corner = odds3.build_odds_table3(4_096, seed=5, workers=2, jackknife=False, needs=40)
    assert corner.p.shape == (3, 41, 41, 41)
    assert np.abs(corner.p - small.p[:, :41, :41, :41]).max() < 1e-12
    assert corner.sum_gap < 1e-12


@pytest.mark.slow
def test_jackknife_errors_are_sized_as_the_spread_across_seeds():
    # one build's jackknife errors against the spread of eight builds of other seeds, in the
    # corner of needs up to 40 (exactly the whole table's there, and 40 times quicker to solve)
    said = []
    jack = odds3.build_odds_table3(2_048, seed=99, workers=2, needs=40,
                                   solve_progress=lambda *a: said.append(a))
    # the jackknife's 32 solves two at a time, summed in the groups' order: said as they go,
    # and the same errors, bit for bit, as one at a time
    assert said == [(0, 33), (1, 33), *((1 + d, 33) for d in range(2, 33, 2))]
    alone = odds3.build_odds_table3(2_048, seed=99, workers=1, needs=40)
    assert np.array_equal(alone.se, jack.se) and np.array_equal(alone.p, jack.p)
    builds = [odds3.build_odds_table3(2_048, seed=100 + s, workers=2, jackknife=False,
                                      needs=40) for s in range(8)]
    for n in [(40, 40, 40), (25, 25, 25), (30, 15, 20), (12, 20, 8)]:
        for i in range(3):
            spread = np.std([b.p[(i, *n)] for b in builds], ddof=1)
            ratio = spread / jack.se[(i, *n)]
            assert 0.4 < ratio < 2.2, (n, i, ratio)  # eight seeds: the spread to about 25%


# --------------------------------------------------------------------------- the file


def test_a_saved_table_reads_back(small, tmp_path):
    se = np.zeros_like(small.p)
    se[:, 1:, 1:, 1:] = 0.001 * np.linspace(0.5, 1.5, 121)  # errors of several sizes
    small = dataclasses.replace(small, se=se)
    paths = small.save(tmp_path / "odds3.npz", command="test")
    table = winodds.read_odds_table3(paths[0])
    assert np.abs(table["p"] - small.p).max() <= 0.5 / 65535 + 1e-12
    assert np.allclose(table["se"], small.se, rtol=0.026, atol=0)  # steps of 5%
    _check_monotone3(table["p"], 0)  # rounding keeps the order
    provenance = json.loads(paths[1].read_text())
    assert provenance["deals"] == 4_096 and provenance["seed"] == 5
    assert provenance["variant"] == "three-player" and provenance["command"] == "test"
    folder = Path(shipped_file(winodds.ODDS3_FILE)).parent
    with pytest.raises(FileExistsError):
        small.save(folder / "x.npz")


@pytest.mark.parametrize("edit, message", [
    (lambda a: a.pop("se"), "missing array"),
    (lambda a: a.update(p=a["p"][:, :-1]), "not uint16"),
    (lambda a: a.update(se=a["se"].astype(np.uint16)), "not uint8"),
    (lambda a: a.update(target=np.int64(61)), "a table to 61"),
    (lambda a: a.update(se_unit=np.float64(np.nan)), "se_unit"),
])
def test_a_damaged_table_is_refused(small, tmp_path, edit, message):
    arrays = winodds.pack_odds_table3(small.p, np.zeros_like(small.p))
    edit(arrays)
    path = tmp_path / "bad.npz"
    np.savez_compressed(path, **arrays)
    with pytest.raises(ValueError, match=message):
        winodds.read_odds_table3(path)
    (tmp_path / "junk.npz").write_bytes(b"not a table")
    with pytest.raises(ValueError, match="not a win-odds table"):
        winodds.read_odds_table3(tmp_path / "junk.npz")


# --------------------------------------------------------------------------- the shipped table


def test_the_shipped_table_adds_up_and_is_monotone():
    p, se = winodds.win_table3(), winodds.win_table3_se()
    assert p.shape == se.shape == (3, 122, 122, 122)
    assert not p.flags.writeable
    _check_monotone3(p, 0)  # exact, and the 16-bit rounding keeps the order
    assert np.abs(p[:, 1:, 1:, 1:].sum(axis=0) - 1).max() <= 1.5 / 65535 + 1e-12
    assert se[:, 1:, 1:, 1:].max() < 0.002 and (se >= 0).all()
    provenance = json.loads(Path(shipped_file(winodds.ODDS3_FILE)).with_suffix(".json")
                            .read_text())
    assert provenance["deals"] >= 1_000_000 and provenance["variant"] == "three-player"
    assert os.path.getsize(Path(shipped_file(winodds.ODDS3_FILE))) < 4_000_000


def test_win_probability3_reads_the_table_by_seat():
    v, se = winodds.win_table3(), winodds.win_table3_se()
    # seat 1 deals: seat 2 is on his left, seat 0 third; needs from the dealer round
    p = winodds.win_probability3((100, 90, 80), dealer=1)
    assert p == (v[2, 31, 41, 21], v[0, 31, 41, 21], v[1, 31, 41, 21])
    assert winodds.win_probability3_se((100, 90, 80), dealer=1)[0] == se[2, 31, 41, 21]
    # the same state from any seat: the seats relabelled, the chances follow them
    for dealer in range(3):
        scores = [0, 0, 0]
        for k, s in enumerate((100, 90, 80)):
            scores[(dealer + k) % 3] = s
        q = winodds.win_probability3(scores, dealer)
        assert [q[(dealer + k) % 3] for k in range(3)] == list(v[:, 21, 31, 41])
    assert winodds.win_probability3((120, 0, 0), dealer=0)[0] > 0.999


@pytest.mark.parametrize("scores, dealer, message", [
    ((121, 0, 0), 0, "0 to 120"), ((0, -1, 0), 0, "0 to 120"), ((0, 0), 0, "three scores"),
    ((0, 0, 1.5), 0, "whole number"), ((0, 0, 0), 3, "dealer"), ((0, 0, 0), True, "dealer"),
    ("abc", 0, "three scores"),
])
def test_win_probability3_refuses_bad_input(scores, dealer, message):
    with pytest.raises(ValueError, match=message):
        winodds.win_probability3(scores, dealer)


def test_the_engines_first_dealer_wins_as_the_table_says():
    # whole three-player games of ev+lookahead (the table's player) from the start
    games = 6_000
    result = simulate(games, seed=12, players=("ev+lookahead",), variant="three-player",
                      workers=2)
    rate = result.first_dealer_win_rate
    p = winodds.win_table3()[0, 121, 121, 121]
    se = np.hypot(np.sqrt(rate * (1 - rate) / games), winodds.win_table3_se()[0, 121, 121, 121])
    assert abs(rate - p) < 4 * se, (rate, p, se)


@pytest.mark.parametrize("scores, dealer", [((100, 90, 80), 0), ((60, 60, 60), 1),
                                             ((110, 116, 104), 2)])
def test_whole_games_from_a_score_agree_with_the_table(scores, dealer):
    games = odds3.play_from_score3(scores, dealer, games=3_000, seed=sum(scores) + dealer)
    p = winodds.win_probability3(scores, dealer)
    se = winodds.win_probability3_se(scores, dealer)
    assert sum(games["wins"]) == 3_000
    for seat in range(3):
        tol = 4 * np.hypot(games["se"][seat], se[seat])
        assert abs(games["p"][seat] - p[seat]) < tol, (seat, games, p)


def test_play_from_score3_seats_and_workers():
    one = odds3.play_from_score3((0, 120, 0), dealer=2, games=2_000, seed=4, workers=1)
    two = odds3.play_from_score3((0, 120, 0), dealer=2, games=2_000, seed=4, workers=2)
    assert one == two
    assert one["wins"][1] > 1_990  # seat 1, the dealer's right, needs a point
    with pytest.raises(ValueError, match="dealer"):
        odds3.play_from_score3((0, 0, 0), dealer=3, games=10)


# --------------------------------------------------------------------------- the commands


def test_crib_odds_gives_each_seats_chance():
    result = run("odds", "100", "90", "80", "--variant", "three-player", "--dealer-seat", "1",
                 "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["p_win"] == list(winodds.win_probability3((100, 90, 80), 1))
    assert data["se"] == list(winodds.win_probability3_se((100, 90, 80), 1))
    assert data["dealer_seat"] == 1 and data["scores"] == [100, 90, 80]
    result = run("odds", "100", "90", "80", "--variant", "three-player")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "three-player, seat 0 deals (± is one standard error):"
    assert lines[1].startswith("  seat 0 (deals), 100: P(win) = 0.")
    assert lines[2].startswith("  seat 1 (leads, deals next), 90: P(win) = 0.")
    p = winodds.win_probability3((100, 90, 80), 0)
    shown = [float(line.split("= ")[1].split(" ±")[0]) for line in lines[1:]]
    assert np.allclose(shown, p, atol=5e-5, rtol=0)


@pytest.mark.parametrize("args, message", [
    (("50", "60", "--variant", "three-player"), "three scores"),
    (("50", "60", "70", "--dealer", "--variant", "three-player"), "--dealer-seat"),
    (("50", "60", "70", "--variant", "three-player", "--dealer-seat", "3"),
     "--dealer-seat: must be at most 2"),
    (("50", "60", "121", "--variant", "three-player"), "THIRD: must be at most 120"),
    (("50", "60", "70", "--dealer"), "three-player's"),
    (("50", "60", "--pone", "--dealer-seat", "1"), "three-player's"),
])
def test_crib_odds_three_player_bad_input_is_one_line(args, message):
    result = run("odds", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


def test_crib_tables_odds_refuses_a_csv_for_three_player(tmp_path):
    result = run("tables", "odds", "--variant", "three-player", "--out", str(tmp_path / "x.csv"))
    assert result.returncode == 2 and ".npz" in result.stderr
    assert result.stderr.count("\n") == 1 and not list(tmp_path.iterdir())


@pytest.mark.slow
def test_crib_tables_odds_writes_the_three_player_table(tmp_path, monkeypatch, capsys):
    # the command in this process, its build without the jackknife's 32 solves (a minute of
    # the suite's time; the jackknife is tested above, in the table's corner)
    from analyzer.cli import main

    build = odds3.build_odds_table3
    monkeypatch.setattr(odds3, "build_odds_table3",
                        lambda *a, **k: build(*a, **k, jackknife=False))
    out = tmp_path / "odds3.npz"
    status = main(["tables", "odds", "--variant", "three-player", "--deals", "1024", "--seed",
                   "3", "--workers", "2", "--out", str(out)])
    printed = capsys.readouterr()
    assert status == 0, printed.err
    # the deals, then the solve, said on stderr as they go
    assert printed.err.splitlines()[-3:] == ["1,024 of 1,024 deals",
                                             "solving the table from the deals: 1 solve, "
                                             "seconds each", "1 of 1 solves of the table"]
    assert "at 0-0-0 the dealer, his left and the third win" in printed.out
    table = winodds.read_odds_table3(out)
    assert np.abs(table["p"][:, 1:, 1:, 1:].sum(axis=0) - 1).max() <= 1.5 / 65535 + 1e-12
    provenance = json.loads(out.with_suffix(".json").read_text())
    assert provenance["deals"] == 1024 and provenance["seed"] == 3
    assert provenance["command"].startswith("crib tables odds --variant three-player")
