"""Win odds: the tallies against a plain recount of recorded deals, the table's shape and
consistency, its standard errors across seeds, whole games played from a score, the loaders and
the commands."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import numpy as np
import pytest
from replay_check import _Deal

from analyzer import simulate
from analyzer.core.cards import format_card
from analyzer.core.game import MAX_DEALT, MAX_THROWN
from analyzer.keeping.crib import shipped_file
from analyzer.play.engine import DEAL, PLAY
from analyzer.research import odds

CRIB = Path(sys.executable).parent / "crib"
EPS = 1e-12


def run(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    return subprocess.run([str(CRIB), *args], capture_output=True, text=True, env=env,
                          timeout=1800)  # a hang guard only


@pytest.fixture(scope="module")
def small():
    return odds.build_odds_table(20_000, seed=5, workers=2)


# --------------------------------------------------------------------------- the tallies


def _deal_dict(row) -> dict:
    """A recorded deal row as a record-format deal, for the replay checker."""
    row = row.tolist()
    n_plays = row[DEAL.n_plays]
    return {
        "dealer": row[DEAL.dealer],
        "hands": [[format_card(c) for c in row[DEAL.hands + MAX_DEALT * p:
                                                DEAL.hands + MAX_DEALT * (p + 1)]] for p in (0, 1)],
        "discards": [[format_card(c) for c in row[DEAL.discards + MAX_THROWN * p:
                                                   DEAL.discards + MAX_THROWN * (p + 1)]]
                     for p in (0, 1)],
        "starter": format_card(row[DEAL.starter]),
        "heels": row[DEAL.heels],
        "plays": [[row[DEAL.plays + PLAY.size * k + PLAY.player],
                   format_card(row[DEAL.plays + PLAY.size * k + PLAY.card]),
                   row[DEAL.plays + PLAY.size * k + PLAY.points]] for k in range(n_plays)],
        "show": row[DEAL.show:DEAL.show + row[DEAL.n_show]],
        "scores": row[DEAL.scores:DEAL.scores + 2],
    }


def _events(deal: dict) -> list[tuple[int, int]]:
    """(player, points) in the order points arrive; seat 0 deals."""
    return ([(0, deal["heels"])] + [(p, pts) for p, _, pts in deal["plays"]]
            + [(1, deal["show"][0]), (0, deal["show"][1]), (0, deal["show"][2])])


def _recount(deals: list[list[tuple[int, int]]]):
    """Wd, Wp and H of deals given as events, by first-reach times: a different computation
    from the kernel's."""
    needs = np.arange(1, 122)
    wd = np.zeros((122, 122), np.int64)
    wp = np.zeros((122, 122), np.int64)
    h = np.zeros((122, 122), np.int64)
    for ev in deals:
        a = np.cumsum([pts if p == 0 else 0 for p, pts in ev])
        b = np.cumsum([pts if p == 1 else 0 for p, pts in ev])
        never = len(ev)  # a need never reached is reached "after the last event"
        first_a = np.where(needs <= a[-1], np.searchsorted(a, needs), never)
        first_b = np.where(needs <= b[-1], np.searchsorted(b, needs), never)
        # each event scores for one player only, so two reach times differ unless both never
        wd[1:, 1:] += first_a[:, None] < first_b[None, :]
        wp[1:, 1:] += first_b[:, None] < first_a[None, :]
        h[min(a[-1], 121), min(b[-1], 121)] += 1
    return wd, wp, h


def test_tallies_match_a_recount_of_the_recorded_deals():
    deals, seed = 320, 17
    sizes, groups = odds._layout(deals)
    tallies = odds.tally_deals(deals, seed, workers=2)
    recorded = [[_deal_dict(row) for row in odds.record_deals(int(n), seed, chunk=i)]
                for i, n in enumerate(sizes)]
    for i, chunk in enumerate(recorded):
        for k, deal in enumerate(chunk):  # every deal follows the rules (an independent check)
            _Deal(f"chunk {i} deal {k}", deal, 0, [0, 0]).check()
    assert sum(len(c) for c in recorded) == deals
    for g in range(odds.GROUPS):  # each group's tallies, from its chunks
        mine = [d for i, chunk in enumerate(recorded) if groups[i] == g for d in chunk]
        wd, wp, h = _recount([_events(d) for d in mine])
        assert (tallies["wd"][g] == wd).all()
        assert (tallies["wp"][g] == wp).all()
        assert (tallies["h"][g] == h).all()
    assert tallies["h"][:, 0, 0].sum() == 0  # every deal scores (at least the last card)


def test_every_state_counts_every_deal_once():
    t = {k: v.sum(axis=0) for k, v in odds.tally_deals(3_000, seed=2, workers=1).items()}
    rng = np.random.default_rng(0)
    for nd, np_ in [(1, 1), (121, 121), (121, 1), (1, 121), *rng.integers(1, 122, (20, 2))]:
        neither = t["h"][:nd, :np_].sum()
        assert t["wd"][nd, np_] + t["wp"][np_, nd] + neither == 3_000


def test_the_recursion_is_the_value_of_the_game_its_deals_make():
    # A made-up game of five kinds of deal, equally likely, each a list of (player, points) in
    # order (0 deals): the probability the dealer wins, by direct recursion over the deals, one
    # after another with the roles swapped, against the table solved from their tallies.
    deals = [[(0, 2), (1, 3), (0, 5), (1, 10), (0, 12), (0, 4)],
             [(1, 1), (0, 1), (1, 8), (0, 20)],
             [(0, 0), (1, 30), (0, 2)],
             [(1, 2), (0, 6), (1, 4), (0, 9), (0, 9)],
             [(0, 2), (0, 3), (1, 1), (1, 25), (0, 1), (0, 14)]]

    @cache
    def dealer_wins(nd: int, np_: int) -> float:
        total = 0.0
        for deal in deals:
            need = [nd, np_]
            for player, points in deal:
                need[player] -= points
                if need[player] <= 0:
                    total += player == 0
                    break
            else:
                total += 1 - dealer_wins(need[1], need[0])
        return total / len(deals)

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    d, pone = odds.solve(*_recount(deals))
    direct = np.array([[dealer_wins(nd, np_) for np_ in range(1, 122)] for nd in range(1, 122)])
    assert np.abs(d[1:, 1:] - direct).max() < 1e-12
    assert np.abs(pone[1:, 1:] - (1 - direct)).max() < 1e-12


def test_solve_refuses_tallies_that_do_not_add_up():
    t = {k: v.sum(axis=0) for k, v in odds.tally_deals(2_000, seed=2, workers=1).items()}
    wd = t["wd"].copy()
    wd[50, 60] += 1
    with pytest.raises(ValueError, match="dealer needs 50, pone needs 60"):
        odds.solve(wd, t["wp"], t["h"])


# --------------------------------------------------------------------------- the table


def _check_monotone(p, tol):
    body = p[1:, 1:]
    assert (np.diff(body, axis=0) <= tol).all(), "the dealer needing more must not help him"
    assert (np.diff(body, axis=1) >= -tol).all(), "the pone needing more must not hurt the dealer"


def test_small_table_is_monotone(small):
    # The recursion is the exact value of a game whose deals are drawn from the sampled ones,
    # so monotonicity holds exactly, not only within the standard errors.
    _check_monotone(small.p, 1e-12)


def test_dealer_and_pone_probabilities_add_to_one(small):
    assert np.abs(small.p[1:, 1:] + small.pone[1:, 1:] - 1).max() < 1e-12
    assert small.sum_gap < 1e-12


def test_ends_of_the_table(small):
    p = small.p
    assert p[1, 121] > 0.999 and 1 - p[121, 1] > 0.999  # 120 to 0, dealing or not
    assert p[121, 1] < 0.001 and 1 - p[1, 121] < 0.001  # 0 to 120
    assert (p[0, 1:] == 1).all() and (p[1:, 0] == 0).all()


def test_same_seed_same_table_whatever_the_workers():
    one = odds.build_odds_table(4_096, seed=9, workers=1)
    two = odds.build_odds_table(4_096, seed=9, workers=2)
    assert np.array_equal(one.p, two.p) and np.array_equal(one.se, two.se)
    other = odds.build_odds_table(4_096, seed=10, workers=2)
    assert not np.array_equal(one.p, other.p)


@pytest.mark.slow
def test_standard_errors_match_the_spread_across_seeds():
    builds = [odds.build_odds_table(4_096, seed=100 + s, workers=2) for s in range(12)]
    states = [(121, 121), (60, 60), (30, 15), (15, 30), (90, 100), (8, 5)]
    for nd, np_ in states:
        values = np.array([b.p[nd, np_] for b in builds])
        errors = np.array([b.se[nd, np_] for b in builds])
        ratio = values.std(ddof=1) / np.median(errors)
        assert 0.5 < ratio < 2.0, (nd, np_, ratio)


# --------------------------------------------------------------------------- the shipped table


def test_shipped_table_is_monotone_and_consistent():
    p, se = odds.win_table(), odds.win_table_se()
    assert p.shape == se.shape == (122, 122)
    _check_monotone(p, 0)  # exact, and rounding to the 7 decimals written keeps the order
    assert se[1:, 1:].max() < 0.002 and (se[1:, 1:] >= 0).all()
    assert not p.flags.writeable
    for dealer in (True, False):
        assert odds.win_probability(120, 0, dealer) > 0.999
        assert odds.win_probability(0, 120, dealer) < 0.001


@pytest.mark.parametrize("me, opp, dealer", [(96, 110, True), (60, 70, False), (110, 96, False)])
def test_whole_games_from_a_score_agree_with_the_table(me, opp, dealer):
    games = odds.play_from_score(me, opp, dealer, games=4_000, seed=me * 1000 + opp)
    p = odds.win_probability(me, opp, dealer)
    se = np.hypot(games["se"], odds.win_probability_se(me, opp, dealer))
    assert abs(games["p"] - p) < 4 * se, (games, p)


def test_the_engines_first_dealer_wins_as_the_table_says():
    result = simulate(20_000, seed=12, players=("ev+lookahead",), workers=2)
    rate = result.first_dealer_win_rate
    se = np.hypot(np.sqrt(rate * (1 - rate) / 20_000), odds.win_table_se()[121, 121])
    assert abs(rate - odds.win_table()[121, 121]) < 4 * se


def test_play_from_score_is_the_same_whatever_the_workers():
    one = odds.play_from_score(100, 100, True, games=3_000, seed=4, workers=1)
    two = odds.play_from_score(100, 100, True, games=3_000, seed=4, workers=2)
    assert one == two


def test_win_probability_reads_the_table_by_role():
    d = odds.win_table()
    assert odds.win_probability(96, 110, True) == d[25, 11]
    assert odds.win_probability(96, 110, False) == 1 - d[11, 25]
    assert odds.win_probability_se(96, 110, False) == odds.win_table_se()[11, 25]
    assert odds.win_probability(0, 0, True) + odds.win_probability(0, 0, False) == \
        pytest.approx(1, abs=EPS)


@pytest.mark.parametrize("me, opp, dealer, message", [
    (121, 0, True, "0 to 120"), (-1, 0, True, "0 to 120"), (5, 1.5, True, "whole number"),
    (True, 0, True, "whole number"), ("5", 0, True, "whole number"), (5, 5, "yes", "dealer"),
])
def test_win_probability_refuses_bad_input(me, opp, dealer, message):
    with pytest.raises(ValueError, match=message):
        odds.win_probability(me, opp, dealer)


def test_a_saved_table_reads_back(small, tmp_path):
    paths = small.save(tmp_path / "odds.csv", command="test")
    table = odds.read_odds_table(paths[0])
    assert np.abs(table["p"] - small.p).max() <= 5e-8 + EPS  # written to 7 decimals
    assert np.allclose(table["se"], small.se, rtol=5e-3, atol=0)  # to 3 digits
    provenance = json.loads(paths[1].read_text())
    assert provenance["deals"] == 20_000 and provenance["seed"] == 5
    assert provenance["players"] == "ev+lookahead" and provenance["command"] == "test"


def test_save_refuses_the_shipped_folder(small):
    folder = Path(shipped_file(odds.ODDS_FILE)).parent
    with pytest.raises(FileExistsError):
        small.save(folder / "x.csv")


@pytest.mark.parametrize("edit, message", [
    (lambda lines: [lines[0].replace("se", "sd")] + lines[1:], "missing columns se"),
    (lambda lines: lines[:-1], "1 states missing"),
    (lambda lines: lines + [lines[1]], "given twice"),
    (lambda lines: [lines[0], "1,1,1.5,0.0"] + lines[2:], "out of range"),
    (lambda lines: [lines[0], "0,1,0.5,0.0"] + lines[2:], "outside 1..121"),
    (lambda lines: [lines[0], "1,1,half,0.0"] + lines[2:], "not a state"),
])
def test_a_damaged_table_is_refused(small, tmp_path, edit, message):
    path = tmp_path / "odds.csv"
    path.write_text("\n".join(edit(small.rows())) + "\n")
    with pytest.raises(ValueError, match=message):
        odds.read_odds_table(path)


# --------------------------------------------------------------------------- the commands


def test_crib_odds_prints_the_probability_and_its_error():
    result = run("odds", "96", "110", "--dealer")
    assert result.returncode == 0, result.stderr
    p, se = odds.win_probability(96, 110, True), odds.win_probability_se(96, 110, True)
    match = re.fullmatch(r"P\(win\) = (0\.\d+) ± (0\.\d+) \(you 96, opponent 110, you deal; "
                         r"± is one standard error\)\n", result.stdout)
    assert match, result.stdout
    shown_p, shown_se = match.groups()
    assert 6 <= len(shown_p) == len(shown_se) <= 9  # 4 to 7 decimals, as the error needs
    assert abs(float(shown_p) - p) <= 0.5 * 10 ** (2 - len(shown_p))
    assert abs(float(shown_se) - se) <= 0.5 * 10 ** (2 - len(shown_se))
    assert float(shown_se) > 0 and len(shown_se.strip("0.")) >= 2  # two significant digits
    data = json.loads(run("odds", "96", "110", "--pone", "--json").stdout)
    assert data["role"] == "pone" and data["p_win"] == odds.win_probability(96, 110, False)
    assert data["ci95"][0] < data["p_win"] < data["ci95"][1]


@pytest.mark.parametrize("args, message", [
    (("96", "110"), "one of the arguments --dealer --pone is required"),
    (("96", "121", "--dealer"), "OPP: must be at most 120"),
    (("x", "110", "--pone"), "ME: 'x' is not a whole number"),
    (("96", "1.5", "--pone"), "OPP: '1.5' is not a whole number"),
    (("96", "110", "--dealer", "--pone"), "not allowed with"),
    (("96",), "required"),
])
def test_crib_odds_bad_input_is_one_line(args, message):
    result = run("odds", *args)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and message in result.stderr, result.stderr


def test_crib_tables_odds_writes_the_table_and_its_provenance(tmp_path):
    out = tmp_path / "odds.csv"
    result = run("tables", "odds", "--out", str(out), "--deals", "2048", "--seed", "3",
                 "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert "2,048 of 2,048 deals" in result.stderr and "wrote" in result.stdout
    table = odds.read_odds_table(out)
    direct = odds.build_odds_table(2048, seed=3, workers=2)
    assert np.abs(table["p"] - direct.p).max() <= 5e-8 + EPS
    provenance = json.loads(out.with_suffix(".json").read_text())
    assert provenance["command"].startswith("crib tables odds --out")
    assert provenance["deals"] == 2048


@pytest.mark.parametrize("args, message", [
    (("--out", "{shipped}"), "add --force"),
    (("--out", "{tmp}/odds.txt"), "is a .csv file"),
    (("--out", "{tmp}/no/odds.csv"), "no folder"),
    (("--out", "{tmp}/odds.csv", "--deals", "100"), "at least 1024"),
    (("--out", "{tmp}/odds.csv", "--seed", "-1"), "at least 0"),
])
def test_crib_tables_odds_refuses_before_any_work(tmp_path, args, message):
    shipped = str(Path(shipped_file(odds.ODDS_FILE)))
    args = [a.format(tmp=tmp_path, shipped=shipped) for a in args]
    result = run("tables", "odds", *args)
    assert result.returncode == 2 and message in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_crib_plot_odds_draws_the_table(tmp_path):
    out = tmp_path / "odds.png"
    result = run("plot", "odds", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert re.match(r"wrote .*odds\.png \(\d+ x \d+ pixels\)", result.stdout)
    refused = run("plot", "odds", "--out", str(tmp_path / "x.png"), "--log")
    assert refused.returncode == 2 and "--log is for crib plot census" in refused.stderr
