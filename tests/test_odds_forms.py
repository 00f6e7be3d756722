"""Win odds of the other two-sided forms (five-card to 61, four-player partnerships): the tallies
against a plain recount of recorded deals, the recursion's exactness (monotone), the shipped
tables, the engine's first dealer against them, and ``crib odds --variant``.

Three-player has no table (its state is three needs): asked for one, every reader says so in
one line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from analyzer import simulate
from analyzer.core.game import VARIANTS
from analyzer.keeping import winodds
from analyzer.keeping.crib import shipped_file
from analyzer.research import odds

CRIB = Path(sys.executable).parent / "crib"
FORMS = ["five-card", "four-player"]


def run(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    return subprocess.run([str(CRIB), *args], capture_output=True, text=True, env=env,
                          timeout=1800)  # a hang guard only


def _events(row, n_players: int) -> list[tuple[int, int]]:
    """(side, points) of a recorded deal row in the order points arrive: his heels, each card
    laid, the hands from the dealer's left round to the dealer (seat 0), the crib. Side 0 is the
    dealer's (seats 0 and 2), side 1 the other."""
    from analyzer.play.engine import DEAL, PLAY

    row = row.tolist()
    out = [(0, row[DEAL.heels])]
    for k in range(row[DEAL.n_plays]):
        base = DEAL.plays + PLAY.size * k
        out.append((row[base + PLAY.player] % 2, row[base + PLAY.points]))
    show = row[DEAL.show:DEAL.show + n_players + 1]
    for k in range(n_players):
        out.append(((1 + k) % n_players % 2, show[k]))
    out.append((0, show[n_players]))
    return out


def _recount(deals, target: int):
    """Wd, Wp and H by first-reach times (a different computation from the kernel's)."""
    size = target + 1
    needs = np.arange(1, size)
    wd = np.zeros((size, size), np.int64)
    wp = np.zeros((size, size), np.int64)
    h = np.zeros((size, size), np.int64)
    for ev in deals:
        a = np.cumsum([pts if s == 0 else 0 for s, pts in ev])
        b = np.cumsum([pts if s == 1 else 0 for s, pts in ev])
        never = len(ev)
        first_a = np.where(needs <= a[-1], np.searchsorted(a, needs), never)
        first_b = np.where(needs <= b[-1], np.searchsorted(b, needs), never)
        wd[1:, 1:] += first_a[:, None] < first_b[None, :]
        wp[1:, 1:] += first_b[:, None] < first_a[None, :]
        h[min(a[-1], target), min(b[-1], target)] += 1
    return wd, wp, h


@pytest.mark.parametrize("variant", FORMS)
def test_tallies_match_a_recount_of_the_recorded_deals(variant):
    game = VARIANTS[variant]
    deals, seed = 128, 17
    sizes, groups = odds._layout(deals)
    tallies = odds.tally_deals(deals, seed, workers=2, variant=variant)
    recorded = [odds.record_deals(int(n), seed, chunk=i, variant=variant)
                for i, n in enumerate(sizes)]
    assert sum(len(c) for c in recorded) == deals
    for g in range(odds.GROUPS):
        mine = [_events(row, game.players) for i, chunk in enumerate(recorded)
                if groups[i] == g for row in chunk]
        wd, wp, h = _recount(mine, game.target)
        assert (tallies["wd"][g] == wd).all()
        assert (tallies["wp"][g] == wp).all()
        assert (tallies["h"][g] == h).all()


def _check_monotone(p, tol):
    body = p[1:, 1:]
    assert (np.diff(body, axis=0) <= tol).all(), "the dealer needing more must not help him"
    assert (np.diff(body, axis=1) >= -tol).all(), "the pone needing more must not hurt the dealer"


@pytest.mark.parametrize("variant", FORMS)
def test_a_small_build_is_exactly_monotone_and_adds_up(variant):
    t = odds.build_odds_table(4_096, seed=5, workers=2, variant=variant)
    size = VARIANTS[variant].target + 1
    assert t.p.shape == (size, size)
    _check_monotone(t.p, 1e-12)
    assert t.sum_gap < 1e-12


@pytest.mark.parametrize("variant", [*FORMS, "six-card"])
def test_the_shipped_tables_are_monotone_in_each_score(variant):
    target = VARIANTS[variant].target
    p, se = winodds.win_table(variant), winodds.win_table_se(variant)
    assert p.shape == se.shape == (target + 1, target + 1)
    _check_monotone(p, 0)  # exact, and the 7 decimals written keep the order
    assert se[1:, 1:].max() < 0.003 and (se[1:, 1:] >= 0).all()
    assert not p.flags.writeable
    for dealer in (True, False):
        assert winodds.win_probability(target - 1, 0, dealer, variant) > 0.999
        assert winodds.win_probability(0, target - 1, dealer, variant) < 0.001
    shipped = Path(shipped_file(winodds.odds_file(variant)))
    provenance = json.loads(shipped.with_suffix(".json").read_text())
    assert provenance["deals"] >= 1_000_000


@pytest.mark.parametrize("variant", FORMS)
def test_the_engines_first_dealer_wins_as_the_table_says(variant):
    # whole games of ev+lookahead (the table's player) from the start: the first dealer's side
    # wins D[target, target - start points] (five-card: the pone pegs 3 first)
    game = VARIANTS[variant]
    games = 8_000
    result = simulate(games, seed=12, players=("ev+lookahead",), variant=variant, workers=2)
    rate = result.first_dealer_win_rate
    p = winodds.win_table(variant)[game.target, game.target - game.start_points]
    se = np.hypot(np.sqrt(rate * (1 - rate) / games), winodds.win_table_se(variant)[
        game.target, game.target - game.start_points])
    assert abs(rate - p) < 4 * se, (rate, p, se)


@pytest.mark.parametrize("variant, me, opp, dealer", [
    ("five-card", 45, 50, True), ("five-card", 30, 20, False),
    ("four-player", 100, 96, False), ("four-player", 80, 90, True),
])
def test_whole_games_from_a_score_agree_with_the_table(variant, me, opp, dealer):
    games = odds.play_from_score(me, opp, dealer, games=3_000, seed=me * 1000 + opp,
                                 variant=variant)
    p = winodds.win_probability(me, opp, dealer, variant)
    se = np.hypot(games["se"], winodds.win_probability_se(me, opp, dealer, variant))
    assert abs(games["p"] - p) < 4 * se, (games, p)


def test_play_from_score_in_the_forms_same_whatever_the_workers():
    one = odds.play_from_score(50, 55, True, games=2_000, seed=4, workers=1, variant="five-card")
    two = odds.play_from_score(50, 55, True, games=2_000, seed=4, workers=2, variant="five-card")
    assert one == two
    with pytest.raises(ValueError, match="0 to 60"):
        odds.play_from_score(61, 0, True, games=10, variant="five-card")
    with pytest.raises(ValueError, match="no win-odds table for three-player"):
        odds.play_from_score(0, 0, True, games=10, variant="three-player")


def test_three_player_has_no_two_sided_table_and_says_so():
    # its table is of three needs (tests/test_odds3.py)
    with pytest.raises(ValueError, match="no win-odds table for three-player of two sides"):
        winodds.win_table("three-player")
    result = run("odds", "50", "60", "--dealer", "--variant", "three-player")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "--dealer-seat" in result.stderr


def test_crib_odds_reads_the_forms_tables():
    result = run("odds", "50", "40", "--pone", "--variant", "five-card", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["p_win"] == winodds.win_probability(50, 40, False, "five-card")
    assert data["variant"] == "five-card"
    result = run("odds", "100", "90", "--dealer", "--variant", "four-player")
    assert result.returncode == 0 and result.stdout.startswith("four-player: P(win) = ")
    assert "your side deals" in result.stdout
    result = run("odds", "61", "40", "--pone", "--variant", "five-card")
    assert result.returncode == 2 and "0 to 60" in result.stderr
    assert result.stderr.count("\n") == 1
