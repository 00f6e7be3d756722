"""The figures: what each plot draws (axes, titles, labels, legends, the numbers behind the bars)
and ``crib plot`` as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.container import BarContainer
from matplotlib.figure import Figure
from reference import SCHELL

from analyzer import keep, plots, show_census, simulate

CRIB = Path(sys.executable).parent / "crib"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def main_axes(fig: Figure) -> list:
    """The figure's axes without its colour bars."""
    return [ax for ax in fig.axes if ax.get_label() != "<colorbar>"]


def check_labels(fig: Figure) -> None:
    assert isinstance(fig, Figure)
    assert fig.get_suptitle() or all(ax.get_title() for ax in main_axes(fig))
    for ax in main_axes(fig):
        assert ax.get_title(), ax
        assert ax.get_xlabel(), ax.get_title()
        # a panel sharing its rows with a labelled one needs no label of its own
        assert any(a.get_ylabel() for a in ax.get_shared_y_axes().get_siblings(ax)), ax.get_title()


def bars(ax) -> list[BarContainer]:
    """The bar groups drawn on ``ax``, in order (error bars left out)."""
    return [c for c in ax.containers if isinstance(c, BarContainer)]


def legend_labels(legend) -> list[str]:
    assert legend is not None
    return [t.get_text() for t in legend.get_texts()]


@pytest.fixture(scope="module")
def schell() -> pd.DataFrame:
    return pd.read_csv(SCHELL, dtype={"card1": str, "card2": str})


@pytest.fixture(scope="module")
def results() -> list:
    return [simulate(400, seed=11, players=("ev+greedy", "ev+greedy")),
            simulate(400, seed=11, players=("random+random", "random+random"))]


# --------------------------------------------------------------------------- census


def test_show_distribution_bars_are_the_census_shares():
    fig = plots.show_distribution()
    check_labels(fig)
    (ax,) = main_axes(fig)
    assert ax.get_ylabel() == "share of cases" and "points" in ax.get_xlabel()
    hand_bars, crib_bars = bars(ax)
    for group, crib in ((hand_bars, False), (crib_bars, True)):
        census = show_census(crib)
        heights = np.array([patch.get_height() for patch in group])
        np.testing.assert_allclose(heights, census / census.sum(), rtol=0, atol=1e-15)
    labels = legend_labels(ax.get_legend())
    assert sorted(label.split()[0] for label in labels) == ["crib", "hand", "impossible:"]
    assert "impossible: 19, 25, 26, 27" in labels


def test_show_distribution_accepts_counts_and_a_log_axis():
    counts = np.zeros(30, np.int64)
    counts[[0, 2, 4]] = [1, 2, 1]
    fig = plots.show_distribution(counts, counts, log=True)
    (ax,) = main_axes(fig)
    assert ax.get_yscale() == "log"
    assert [p.get_height() for p in bars(ax)[0]][:5] == [0.25, 0, 0.5, 0, 0.25]


# --------------------------------------------------------------------------- crib tables


def test_crib_heatmap_of_schell(schell):
    fig = plots.crib_heatmap(schell, title="Schell's crib values")
    check_labels(fig)
    assert fig.get_suptitle() == "Schell's crib values"
    dealer_ax, pone_ax = main_axes(fig)
    assert len(fig.axes) == 3  # and one colour bar
    for ax, role in ((dealer_ax, "dealer"), (pone_ax, "pone")):
        m = np.asarray(ax.images[0].get_array())
        assert m.shape == (13, 13) and np.allclose(m, m.T)
        five_jack = schell[(schell.card1 == "5") & (schell.card2 == "J")][role].item()
        assert m[4, 10] == m[10, 4] == five_jack
        assert [t.get_text() for t in ax.get_xticklabels()][9] == "10"
        assert len(ax.texts) == 169  # every cell annotated
    assert "pone" in pone_ax.get_title() and "dealer" in dealer_ax.get_title()


def test_crib_heatmap_reads_t_for_ten(schell):
    t = schell.replace({"card1": {"10": "T"}, "card2": {"10": "T"}})
    a = main_axes(plots.crib_heatmap(schell))[0].images[0].get_array()
    b = main_axes(plots.crib_heatmap(t))[0].images[0].get_array()
    np.testing.assert_array_equal(a, b)


def test_crib_heatmap_with_a_reference_adds_the_difference(schell):
    other = schell.assign(dealer=schell["dealer"] + 0.25)
    fig = plots.crib_heatmap(other, reference=schell, reference_label="Schell")
    check_labels(fig)
    axes = main_axes(fig)
    assert len(axes) == 4 and len(fig.axes) == 6  # two colour bars
    np.testing.assert_allclose(axes[2].images[0].get_array(), 0.25)  # dealer difference
    np.testing.assert_allclose(axes[3].images[0].get_array(), 0.0)  # pone difference
    assert axes[2].images[0].norm.vcenter == 0
    assert "minus Schell" in axes[2].get_title()


def test_crib_difference_heatmap(schell):
    fig = plots.crib_difference_heatmap(schell, schell, reference_label="itself")
    check_labels(fig)
    assert len(main_axes(fig)) == 2
    np.testing.assert_array_equal(main_axes(fig)[0].images[0].get_array(), 0.0)


def test_crib_heatmap_rejects_bad_tables():
    with pytest.raises(ValueError, match="columns"):
        plots.crib_heatmap(pd.DataFrame({"card1": ["A"], "card2": ["2"], "mean": [4.0]}))
    with pytest.raises(ValueError, match="unknown rank"):
        plots.crib_heatmap(pd.DataFrame({"card1": ["X"], "card2": ["2"], "dealer": [4.0],
                                         "pone": [4.0]}))


# --------------------------------------------------------------------------- keep


@pytest.mark.parametrize("dealer", [True, False])
def test_discard_chart_ranks_the_fifteen_discards(dealer):
    df = keep("5H 5S 6D JC QS KH", dealer=dealer, crib="uniform")
    fig = plots.discard_chart(df)
    check_labels(fig)
    net_ax, hand_ax = main_axes(fig)
    labels = [t.get_text() for t in net_ax.get_yticklabels()]
    assert labels[0] == f"keep {df.iloc[0]['keep']}, throw {df.iloc[0]['discard']}"
    assert len(labels) == 15
    assert net_ax.yaxis_inverted()  # best at the top
    widths = [patch.get_width() for patch in bars(net_ax)[0]]
    np.testing.assert_allclose(widths, df["net"])
    assert df.attrs["hand"] in fig.get_suptitle()
    assert ("dealer" if dealer else "pone") in fig.get_suptitle()
    (legend,) = fig.legends
    assert any("minimum to maximum" in t for t in legend_labels(legend))


@pytest.mark.parametrize(("variant", "dealer", "words"), [
    ("five-card", False, ("Which three to keep", "the 10 ways to keep three", 47,
                          "the two thrown (the opponent's)")),
    ("three-player", False, ("Which four to keep", "the 5 ways to keep four", 47,
                             "the card thrown (the dealer's)")),
    ("four-player", True, ("Which four to keep", "the 5 ways to keep four", 47,
                           "the card thrown (your side's)")),
])
def test_discard_chart_says_the_forms_keeps(variant, dealer, words):
    # it said which four of fifteen, over 46 starters, the two thrown, in every form
    title, ways, starters, crib = words
    df = keep("5H 5S 6D JC QS", dealer=dealer, variant=variant)
    fig = plots.discard_chart(df)
    net_ax, hand_ax = main_axes(fig)
    assert fig.get_suptitle().startswith(title) and f"in {variant}" in fig.get_suptitle()
    assert net_ax.get_ylabel() == f"{ways}, best first" and len(net_ax.get_yticklabels()) == len(df)
    assert f"over the {starters} possible starters" in hand_ax.get_title()
    assert f"crib: expected value of {crib}" in legend_labels(fig.legends[0])


# --------------------------------------------------------------------------- simulation results


def test_three_players_skunk_rates_are_labelled_losers_a_game():
    # an audit's three-player figure drew 37% skunks on an axis of "share of games": 31% of
    # games had one; the rate counts the two losers of a game (docs/simulate-and-tables.md)
    three = simulate(200, seed=5, variant="three-player", workers=1)
    two = simulate(200, seed=5, workers=1)
    for result, label in ((three, "skunked losers a game"), (two, "share of games"),
                          ([two, three], "share of games (three-player: skunked losers a game)")):
        first, skunks = main_axes(plots.game_rates(result))
        assert skunks.get_ylabel() == label
        assert first.get_legend() is not None  # the even share of each form, named


def test_game_rates_one_and_several(results):
    fig = plots.game_rates(results[0])
    check_labels(fig)
    first, skunks = main_axes(fig)
    assert first.get_ylabel() == "share of games"
    assert any("55.5%" in t for t in legend_labels(first.get_legend()))
    reference_lines = sorted(line.get_ydata()[0] for line in first.get_lines()
                             if len(line.get_ydata()) == 2)
    assert reference_lines == [0.5, plots.PUBLISHED_FIRST_DEALER_WIN_RATE]
    height = bars(first)[0].patches[0].get_height()
    assert height == results[0].summary.loc["first_dealer_win_rate", "value"]

    fig = plots.game_rates(results, labels=["strong", "random"])
    first, skunks = main_axes(fig)
    assert legend_labels(skunks.get_legend()) == ["strong", "random"]
    skunk_bars = bars(skunks)[0]
    assert skunk_bars.patches[0].get_height() == results[0].summary.loc["skunk_rate", "value"]
    with pytest.raises(ValueError, match="labels"):
        plots.game_rates(results, labels=["one"])


def test_game_rates_takes_a_dict(results):
    fig = plots.game_rates({"a": results[0], "b": results[1]})
    assert legend_labels(main_axes(fig)[1].get_legend()) == ["a", "b"]


def test_points_per_deal(results):
    r = results[0]
    fig = plots.points_per_deal(r)
    check_labels(fig)
    phase_ax, total_ax = main_axes(fig)
    assert legend_labels(phase_ax.get_legend()) == ["dealer", "pone"]
    assert legend_labels(total_ax.get_legend()) == ["pegging", "hand", "crib", "heels"]
    dealer_bars, pone_bars = bars(phase_ax)
    ppd = r.points_per_deal
    np.testing.assert_allclose([p.get_height() for p in dealer_bars],
                               [ppd["dealer"][k] for k in ("pegging", "hand", "crib", "heels")])
    np.testing.assert_allclose([p.get_height() for p in pone_bars],
                               [ppd["pone"][k] for k in ("pegging", "hand")])


def test_margin_distribution_and_game_length(results):
    r = results[0]
    fig = plots.margin_distribution(r)
    check_labels(fig)
    (ax,) = main_axes(fig)
    assert sum(p.get_height() for p in bars(ax)[0]) == r.games
    assert ax.get_ylabel() == "games" and ax.get_legend() is not None

    fig = plots.game_length(r)
    check_labels(fig)
    (ax,) = main_axes(fig)
    assert sum(p.get_height() for p in bars(ax)[0]) == r.games
    assert "mean" in legend_labels(ax.get_legend())[0]


def test_game_report(results):
    fig = plots.game_report(results[0])
    check_labels(fig)
    assert len(main_axes(fig)) == 4


def test_policy_comparison_from_results_and_from_a_table(results):
    pair = {("ev+greedy", "random+random"): simulate(300, seed=5,
                                                     players=("ev+greedy", "random+random"))}
    for given in (pair, pd.DataFrame({
        "player_a": ["ev+greedy"], "player_b": ["random+random"],
        "value": [pair[("ev+greedy", "random+random")].summary.loc["seat0_win_rate", "value"]],
        "ci_low": [0.8], "ci_high": [0.99]})):
        fig = plots.policy_comparison(given)
        check_labels(fig)
        matrix_ax, dots_ax = main_axes(fig)
        m = np.asarray(matrix_ax.images[0].get_array())
        assert m.shape == (2, 2) and np.isclose(m[0, 1] + m[1, 0], 1.0)
        assert np.isnan(m[0, 0]) and np.isnan(m[1, 1])
        assert [t.get_text() for t in dots_ax.get_yticklabels()] == ["ev+greedy vs random+random"]
        assert dots_ax.get_legend() is not None
    with pytest.raises(ValueError, match="player_a"):
        plots.policy_comparison(pd.DataFrame({"value": [0.5]}))


# --------------------------------------------------------------------------- crib plot


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONWARNINGS="ignore", MPLBACKEND="Agg")
    return subprocess.run([str(CRIB), *args], capture_output=True, text=True, env=env,
                          timeout=1800, cwd=cwd)  # a hang guard only


def test_crib_plot_census_writes_a_png(tmp_path):
    out = tmp_path / "census.png"
    result = run("plot", "census", "--out", str(out), "--dpi", "50")
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == PNG_SIGNATURE
    assert str(out) in result.stdout
    # no temporary file left; the figure's provenance beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["census.json", "census.png"]


@pytest.mark.slow
def test_crib_plot_crib_table_with_reference(tmp_path, schell):
    table = tmp_path / "mine.csv"
    schell.assign(pone=schell["pone"] - 0.1).to_csv(table, index=False)
    out = tmp_path / "crib.png"
    result = run("plot", "crib", "--table", str(table), "--reference", str(SCHELL),
                 "--out", str(out), "--dpi", "40")
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == PNG_SIGNATURE


@pytest.mark.parametrize("args", [
    ["plot", "pie", "--out", "x.png"],
    ["plot", "census"],
    ["plot", "census", "--out", "no/such/folder/x.png"],
    ["plot", "census", "--out", "."],
    ["plot", "keep", "--out", "x.png"],
    ["plot", "keep", "--hand", "5H", "5S", "6D", "JC", "QS", "KH", "--out", "x.png"],
    ["plot", "keep", "--hand", "5H", "5S", "6D", "JC", "QS", "XH", "--pone", "--out", "x.png"],
    ["plot", "crib", "--out", "x.png"],
    ["plot", "crib", "--table", "missing.csv", "--out", "x.png"],
    ["plot", "games", "--players", "ev+dance", "ev+greedy", "--out", "x.png"],
    ["plot", "games", "--games", "0", "--out", "x.png"],
], ids=["kind", "no-out", "no-folder", "out-is-folder", "no-hand", "no-role", "bad-card",
        "no-table", "missing-table", "bad-player", "no-games"])
def test_crib_plot_bad_input_is_one_line_and_status_2(args, tmp_path):
    result = run(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "x.png").exists()


def test_crib_plot_rejects_a_table_without_the_columns(tmp_path):
    table = tmp_path / "t.csv"
    table.write_text("card1,card2,mean\nA,A,5.5\n")
    result = run("plot", "crib", "--table", str(table), "--out", str(tmp_path / "x.png"))
    assert result.returncode == 2 and "card1, card2, dealer, pone" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_crib_comparison_draws_both_tables_and_the_difference(schell):
    ours = schell.assign(dealer=schell["dealer"] + 0.25)
    fig = plots.crib_comparison(ours, schell, table_label="ours", reference_label="Schell")
    check_labels(fig)
    axes = main_axes(fig)
    assert len(axes) == 6
    assert axes[0].get_title().startswith("ours") and axes[2].get_title().startswith("Schell")
    assert "root mean square 0.250" in axes[4].get_title()  # dealer: +0.25 everywhere
    assert "root mean square 0.000" in axes[5].get_title()


@pytest.mark.slow
def test_tables_compare_plot_writes_a_png(tmp_path, schell):
    out = tmp_path / "compare.png"
    result = run("tables", "compare", "--reference", str(SCHELL), "--plot", str(out))
    assert result.returncode == 0, result.stderr
    assert out.read_bytes()[:8] == PNG_SIGNATURE
    assert "mean |difference|" in result.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["compare.json", "compare.png"]


@pytest.mark.parametrize("variant, roles, line", [("three-player", 3, "91"),
                                                  ("four-player", 4, "91"),
                                                  ("five-card", 2, "31")])
def test_game_report_draws_every_form(variant, roles, line):
    from analyzer import plots, simulate

    result = simulate(400, seed=2, variant=variant)
    fig = plots.game_report(result)
    titles = {ax.get_title(): ax for ax in fig.axes}
    phases = titles["points per deal by phase and role (95% CI)"]
    assert len(phases.get_legend().get_texts()) == roles
    skunks = titles["skunks: each rate counts the deeper skunks too (95% CI)"]
    labels = [t.get_text() for t in skunks.get_xticklabels()]
    assert f"loser under {line}" in labels[0]


def test_census_figure_of_the_five_card_game():
    from analyzer import plots

    ax = plots.show_distribution(variant="five-card").axes[0]
    title = ax.get_title()
    assert "1,082,900 (three cards, starter)" in title and "five-card" in title
    # three cards and the starter make 0 to 15 or 20 (four fives: 8 for fifteens, 12 for the
    # double pair royal), so beside the scores no hand or crib makes, the hand never makes
    # 16 to 18, 21 to 24, 28 or 29; a crib of four cards makes them all
    said = [t.get_text() for t in ax.get_legend().get_texts()]
    assert said == ["impossible: 19, 25, 26, 27",
                    "hand (mean 2.592 points; also never 16-18, 21-24, 28-29)",
                    "crib (mean 4.735 points)"]


@pytest.mark.parametrize("fmt", ["svg", "pdf", "eps", "svgz"])
def test_a_figure_file_is_the_same_bytes_each_time(tmp_path, fmt):
    # same seed, same result: SVG drew random element ids, and SVG, PDF and PostScript carried
    # the date (PostScript its temporary file's name too; SVGZ its gzip header's time)
    import gzip

    from analyzer.cli.common import save_figure

    fig = plots.show_distribution()
    for name in ("a", "b"):
        save_figure(fig, str(tmp_path / f"{name}.{fmt}"), fmt, 60, "--out", "crib plot")
    first, second = ((tmp_path / f"{n}.{fmt}").read_bytes() for n in "ab")
    assert first == second
    text = gzip.decompress(first) if fmt == "svgz" else first
    for dated in (b"<dc:date>", b"CreationDate (D:", b"%%Title", b".tmp"):
        assert dated not in text
