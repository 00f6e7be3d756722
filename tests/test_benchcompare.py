"""``crib bench --against REV``: the other commit checked out beside this one, both benchmarked
in turn, the figures compared; the temporary worktree never left behind. And the figures'
inputs: best's cost per decision, the scorer's random batch."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from test_cli import run

from analyzer.cli import benchcompare

ROOT = Path(benchcompare.__file__).resolve().parents[2]  # the checkout: analyzer/cli/..


def _worktrees() -> list[str]:
    out = subprocess.run(["git", "-C", str(ROOT), "worktree", "list", "--porcelain"],
                         capture_output=True, text=True, check=True).stdout
    return [line for line in out.splitlines() if line.startswith("worktree ")]


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="needs a git checkout")
def test_both_sides_run_in_turn_and_the_worktree_is_removed(monkeypatch):
    """The other side runs with the other commit's source first on PYTHONPATH (checked out
    in a worktree that holds this package and its tables); medians and ratios per figure."""
    calls = []
    before = _worktrees()

    def fake_bench(argv, env, what, cwd):
        other = env.get("PYTHONPATH", "").split(":")[0] if what != "this checkout" else ""
        assert cwd == (Path(other) if other else ROOT)  # python -m reads the working folder first
        if other:
            assert (Path(other) / "analyzer" / "__init__.py").exists()
            assert (Path(other) / "analyzer" / "data" / "win_odds.csv").exists()
            assert _worktrees() != before  # the worktree exists while it runs
        calls.append("before" if other else "after")
        k = len(calls)
        rate = 100.0 if other else 150.0
        seconds = 2.0 if other else 1.0
        figures = [{"name": "games/s", "value": rate + k, "unit": "games/s", "note": ""},
                   {"name": "start-up", "value": seconds, "unit": "s", "note": ""}]
        if not other:
            figures.append({"name": "new figure", "value": 1.0, "unit": "s", "note": ""})
        return {"threads": 2, "figures": figures}

    monkeypatch.setattr(benchcompare, "_bench_json", fake_bench)
    result = benchcompare.compare_with_commit("HEAD", rounds=2)
    assert calls == ["before", "after", "before", "after"]
    assert _worktrees() == before
    by_name = {f["name"]: f for f in result["figures"]}
    games = by_name["games/s"]
    assert games["before_all"] == [101.0, 103.0] and games["after_all"] == [152.0, 154.0]
    assert games["before"] == 102.0 and games["after"] == 153.0
    assert games["ratio"] == pytest.approx(1.5)  # a rate: after / before
    assert by_name["start-up"]["ratio"] == pytest.approx(2.0)  # a time: before / after
    assert by_name["new figure"]["before"] is None and by_name["new figure"]["ratio"] is None
    lines = benchcompare.format_comparison(result)
    assert any(line.startswith("games/s") and line.rstrip().endswith("1.50") for line in lines)


def test_a_bad_revision_is_one_line():
    before = _worktrees() if (ROOT / ".git").exists() else None
    result = run("bench", "--against", "no-such-commit-anywhere")
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    if before is not None:  # a checkout: the revision is what is wrong
        assert "no-such-commit-anywhere" in result.stderr
        assert _worktrees() == before
    else:
        assert "git checkout" in result.stderr


def test_bench_reports_what_best_costs_a_decision():
    """crib bench's figures of best's cost: every decision best makes in its recorded games
    is timed (no speed is asserted), each kind counted as the records say."""
    from analyzer import simulate
    from analyzer.cli.bench import _best_figures
    from analyzer.sim.records import decisions

    figures = []
    _best_figures(lambda name, value, unit, note="": figures.append((name, value, unit, note)),
                  1)
    assert [f[0] for f in figures] == ["best's card searched, 1 thread",
                                       "best's decision, mean, 1 thread"]
    assert all(unit == "us a decision" and value > 0 for _, value, unit, _ in figures)
    records = simulate(8, seed=0, players=("best", "ev+lookahead"), record_games=8,
                       workers=1).records
    mine = [d for r in records for d in decisions(r) if d["seat"] == 0]
    discards = sum(d["kind"] == "discard" for d in mine)
    assert f"{len(mine) / 8:.1f} decisions a game ({discards / 8:.1f} discards" in figures[1][3]


def test_the_scorers_random_hands_are_distinct_cards_drawn_evenly():
    """``crib bench``'s batch for ``score_hands``: five distinct cards a row, every card as
    often in every place (200,000 rows, seeded: each place's chi-square over the 52 cards
    below 110, on 51 degrees of freedom a chance of about 5 in a million), and two places'
    suits alike as often as in a dealt hand (12/51, within six standard deviations)."""
    from analyzer.cli.bench import _random_hands

    hands = _random_hands(200_000, 5, np.random.default_rng(3))
    assert hands.dtype == np.uint8 and hands.shape == (200_000, 5)
    ranked = np.sort(hands, axis=1)
    assert not (ranked[:, 1:] == ranked[:, :-1]).any()
    for place in range(5):
        counts = np.bincount(hands[:, place], minlength=52)
        expected = 200_000 / 52
        assert counts.shape == (52,) and ((counts - expected) ** 2 / expected).sum() < 110
    same_suit = (hands[:, 0] // 13 == hands[:, 4] // 13).mean()
    assert abs(same_suit - 12 / 51) < 0.006
