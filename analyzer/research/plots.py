"""Figures for the notebooks and ``crib plot``: each function draws one matplotlib ``Figure``.

Plots only draw. They take what the public API computed (a show census, a :func:`~analyzer.keep`
table, a :class:`~analyzer.SimulationResult`, a crib-value table) and run no games themselves;
:func:`show_distribution` reads the exact census (a fraction of a second) when it is not given.

Figures are built with :class:`matplotlib.figure.Figure`, not pyplot: nothing is registered with
a GUI backend, so they work headless and are freed when dropped. Save one with
``fig.savefig("name.png")``; in Jupyter, run ``%matplotlib inline`` once and a figure returned
as a cell's value is shown.

Units on the axes: ``points`` (scores and expectations), ``share of cases`` (the census),
``share of games`` (rates) and ``games`` (counts of games).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.colors import Normalize, TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from ..core.cards import RANK_LABELS, rank_label_index
from ..core.choices import check_frame, variant_game

__all__ = [
    "IMPOSSIBLE_SCORES",
    "PUBLISHED_FIRST_DEALER_WIN_RATE",
    "crib_difference_heatmap",
    "crib_heatmap",
    "discard_chart",
    "game_length",
    "game_rates",
    "game_report",
    "margin_distribution",
    "points_per_deal",
    "policy_comparison",
    "show_distribution",
    "win_odds_heatmap",
]

#: Show scores no hand or crib can make (0..29).
IMPOSSIBLE_SCORES = (19, 25, 26, 27)
#: The first dealer's share of wins published from millions of games between people (Cribbage
#: Pro's players: https://blog.cribbagepro.net/2012/10/cribbage-hand-statistics.html).
PUBLISHED_FIRST_DEALER_WIN_RATE = 0.555

#: Rank labels of crib-value tables, in rank order (10 is written "10"; "T" is accepted too).
_ROLE_TITLES = {"dealer": "dealer: thrown to his own crib",
                "pone": "pone: thrown to the opponent's crib"}
_SKUNKS = ("skunk_rate", "double_skunk_rate", "triple_skunk_rate")
_ROLE_COLOURS = {"dealer": "#1f77b4", "pone": "#ff7f0e", "first": "#ff7f0e", "second": "#8c564b",
                 "third": "#e377c2"}
_PHASE_COLOURS = {"pegging": "#2ca02c", "hand": "#1f77b4", "crib": "#9467bd", "heels": "#d62728"}


def _colour(i: int) -> str:
    return f"C{i % 10}"


# --------------------------------------------------------------------------- the show census


def _spans(values: list[int]) -> str:
    """``[16, 17, 18, 21, 22]`` as ``"16-18, 21-22"``."""
    spans: list[list[int]] = []
    for v in values:
        if spans and v == spans[-1][1] + 1:
            spans[-1][1] = v
        else:
            spans.append([v, v])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def show_distribution(hand=None, crib=None, log: bool = False,
                      variant: str = "six-card") -> Figure:
    """The exact show-score distribution of hands and cribs, side by side.

    Parameters
    ----------
    hand, crib
        ``int64[30]`` counts of each score 0..29 over the 12,994,800 (hand, starter) cases, as
        :func:`analyzer.show_census` returns them (``crib=True`` for the crib); computed when
        not given.
    log
        A logarithmic share axis, so the rare high scores show.
    variant
        The form whose census is computed when ``hand`` or ``crib`` is not given (five-card:
        hands of three cards; its crib is four cards like every other form's).

    Returns
    -------
    matplotlib.figure.Figure
        One axes: two bars per score (share of cases), the scores nothing can make marked.

    Examples
    --------
    >>> fig = show_distribution()
    >>> len(fig.axes), fig.axes[0].get_xlabel()
    (1, 'show score (points)')
    """
    from ..core.scoring import show_census

    counts = {
        "hand": np.asarray(show_census(False, variant=variant) if hand is None else hand,
                           dtype=np.int64),
        "crib": np.asarray(show_census(True, variant=variant) if crib is None else crib,
                           dtype=np.int64),
    }
    for name, c in counts.items():
        if c.shape != (30,) or (c < 0).any() or c.sum() == 0:
            raise ValueError(f"{name}: the 30 counts of show scores 0..29 that show_census "
                             f"returns, got an array of shape {c.shape}")
    scores = np.arange(counts["hand"].size)
    fig = Figure(figsize=(11, 5.2), layout="constrained")
    ax = fig.subplots()
    width = 0.4
    impossible = [int(s) for s in scores if all(c[s] == 0 for c in counts.values())]
    for i, (name, c) in enumerate(counts.items()):
        share = c / c.sum()
        mean = float((scores * c).sum() / c.sum())
        # the scores only this one never makes (five-card's hands of three: 16 to 18, 21 up)
        own = [int(s) for s in scores if c[s] == 0 and s not in impossible]
        never = f"; also never {_spans(own)}" if own else ""
        ax.bar(scores + (i - 0.5) * width, share, width, color=_colour(i),
               label=f"{name} (mean {mean:.3f} points{never})")
    for k, s in enumerate(impossible):
        ax.axvspan(s - 0.5, s + 0.5, color="0.85", zorder=0,
                   label="impossible: " + ", ".join(map(str, impossible)) if k == 0 else None)
    if log:
        ax.set_yscale("log")
    else:
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    for s in impossible:
        ax.text(s, 0.02, "never", transform=ax.get_xaxis_transform(), ha="center",
                va="bottom", rotation=90, fontsize=8, color="0.35")
    total = int(counts["hand"].sum())
    cards = "three cards" if variant == "five-card" and hand is None else "four cards"
    ax.set_title(f"Show scores over all {total:,} ({cards}, starter) hand cases: hand and crib"
                 + ("" if variant == "six-card" else f" ({variant})"))
    ax.set_xlabel("show score (points)")
    ax.set_ylabel("share of cases" + (" (log scale)" if log else ""))
    ax.set_xticks(scores)
    ax.set_xlim(-0.7, scores[-1] + 0.7)
    ax.legend(loc="upper right")  # over the high scores, which few cases make
    return fig


# --------------------------------------------------------------------------- crib-value tables


def _crib_matrices(table) -> dict[str, np.ndarray]:
    """Symmetric 13x13 matrices ``{"dealer": ..., "pone": ...}`` from a rank-only crib table."""
    missing = {"card1", "card2", "dealer", "pone"} - set(table.columns)
    if missing:
        raise ValueError(f"a crib table needs the columns card1, card2, dealer, pone (rank-only); "
                         f"missing {', '.join(sorted(missing))}")
    pairs = {frozenset((str(a), str(b))) for a, b in zip(table["card1"], table["card2"],
                                                         strict=True)}
    if len(pairs) != len(table):  # the full table's suited and unsuited rows of a pair
        raise ValueError(f"a crib table has one row per rank pair (rank-only: rank_table, "
                         f"load_rank_table), got {len(table)} rows for {len(pairs)} pairs")
    out = {}
    for role in ("dealer", "pone"):
        m = np.full((13, 13), np.nan)
        for a, b, v in zip(table["card1"], table["card2"], table[role], strict=True):
            i, j = rank_label_index(a), rank_label_index(b)
            m[i, j] = m[j, i] = float(v)
        out[role] = m
    return out


def _draw_matrix(ax, m, cmap, norm, fmt: str, fontsize: float = 6.5):
    """An annotated heatmap of the 13x13 matrix ``m`` on ``ax`` (ranks on both axes)."""
    image = ax.imshow(m, cmap=cmap, norm=norm)
    colours = image.cmap(image.norm(np.nan_to_num(m)))
    for i in range(13):
        for j in range(13):
            if np.isnan(m[i, j]):
                continue
            r, g, b = colours[i, j, :3]
            dark = 0.299 * r + 0.587 * g + 0.114 * b < 0.5
            ax.text(j, i, format(m[i, j], fmt), ha="center", va="center", fontsize=fontsize,
                    color="white" if dark else "black")
    ax.set_xticks(range(13), RANK_LABELS)
    ax.set_yticks(range(13), RANK_LABELS)
    ax.set_xlabel("one card thrown (rank)")
    ax.set_ylabel("the other card thrown (rank)")
    return image


def _draw_crib_values(fig, axes, matrices, title_prefix: str = "", norm=None) -> None:
    if norm is None:
        values = np.concatenate([m.ravel() for m in matrices.values()])
        norm = Normalize(np.nanmin(values), np.nanmax(values))
    for ax, (role, m) in zip(axes, matrices.items(), strict=True):
        image = _draw_matrix(ax, m, "viridis", norm, ".2f")
        ax.set_title(f"{title_prefix}{_ROLE_TITLES[role]}")
    fig.colorbar(image, ax=list(axes), label="expected crib (points)", shrink=0.85)


def _draw_crib_differences(fig, axes, table_m, reference_m, label: str) -> None:
    diffs = {role: table_m[role] - reference_m[role] for role in table_m}
    extent = max(float(np.nanmax(np.abs(np.concatenate([d.ravel() for d in diffs.values()])))),
                 0.01)
    norm = TwoSlopeNorm(0.0, -extent, extent)
    for ax, (role, d) in zip(axes, diffs.items(), strict=True):
        image = _draw_matrix(ax, d, "RdBu_r", norm, "+.2f")
        rms = float(np.sqrt(np.nanmean(d * d)))
        ax.set_title(f"{_ROLE_TITLES[role]}\nminus {label} (root mean square {rms:.3f} points)")
    fig.colorbar(image, ax=list(axes), label=f"this table minus {label} (points)", shrink=0.85)


def crib_heatmap(table, title: str = "Expected crib by the two cards thrown",
                 reference=None, reference_label: str = "reference") -> Figure:
    """Crib values by the ranks of the two cards thrown, for the dealer and the pone.

    Parameters
    ----------
    table
        A pandas DataFrame of rank-only crib values with columns ``card1``, ``card2``, ``dealer``
        and ``pone`` (ranks written A, 2..10, J, Q, K; T is read as 10), one row per pair of
        ranks in either order, like ``schell_crib_values.csv``.
    title
        The figure's title.
    reference
        Optional: a second table in the same format; a second row of panels then shows
        ``table - reference`` on a diverging scale centred at 0.
    reference_label
        How the reference is named in the difference panels.

    Returns
    -------
    matplotlib.figure.Figure
        Two heatmaps (dealer, pone) with one colour scale, four with ``reference``.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"card1": ["5", "5"], "card2": ["5", "T"],
    ...                   "dealer": [8.5, 7.0], "pone": [8.9, 7.4]})
    >>> fig = crib_heatmap(t)
    >>> [ax.get_title() for ax in fig.axes[:2]]
    ['dealer: thrown to his own crib', "pone: thrown to the opponent's crib"]
    """
    matrices = _crib_matrices(table)
    if reference is None:
        fig = Figure(figsize=(14, 6.4), layout="constrained")
        axes = fig.subplots(1, 2)
        _draw_crib_values(fig, axes, matrices)
    else:
        fig = Figure(figsize=(14, 12.4), layout="constrained")
        axes = fig.subplots(2, 2)
        _draw_crib_values(fig, axes[0], matrices)
        _draw_crib_differences(fig, axes[1], matrices, _crib_matrices(reference),
                               reference_label)
    fig.suptitle(title, fontsize=14)
    return fig


def crib_comparison(table, reference, table_label: str = "this table",
                    reference_label: str = "reference", title: str | None = None) -> Figure:
    """Two crib-value tables side by side by role, and their difference.

    Parameters
    ----------
    table, reference
        Rank-only crib-value tables as for :func:`crib_heatmap`.
    table_label, reference_label
        How each table is named in the panel titles.
    title
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        Three rows of two heatmaps (dealer, pone): the table, the reference (one colour scale for
        both), and ``table - reference`` on a diverging scale centred at 0.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"card1": ["A"], "card2": ["K"], "dealer": [3.5], "pone": [4.4]})
    >>> r = pd.DataFrame({"card1": ["K"], "card2": ["A"], "dealer": [3.41], "pone": [4.30]})
    >>> len(crib_comparison(t, r).axes)  # six panels and three colour bars
    9
    """
    table_m, reference_m = _crib_matrices(table), _crib_matrices(reference)
    fig = Figure(figsize=(14, 18.6), layout="constrained")
    axes = fig.subplots(3, 2)
    values = np.concatenate([m.ravel() for ms in (table_m, reference_m) for m in ms.values()])
    norm = Normalize(np.nanmin(values), np.nanmax(values))
    _draw_crib_values(fig, axes[0], table_m, title_prefix=f"{table_label}: ", norm=norm)
    _draw_crib_values(fig, axes[1], reference_m, title_prefix=f"{reference_label}: ", norm=norm)
    _draw_crib_differences(fig, axes[2], table_m, reference_m, reference_label)
    fig.suptitle(title or f"Crib values: {table_label} and {reference_label}", fontsize=14)
    return fig


def crib_difference_heatmap(table, reference, title: str | None = None,
                            reference_label: str = "reference") -> Figure:
    """``table - reference`` crib values by the two ranks thrown, for the dealer and the pone.

    Parameters
    ----------
    table, reference
        Rank-only crib-value tables as for :func:`crib_heatmap`.
    title
        The figure's title (default: says what is subtracted).
    reference_label
        How the reference is named.

    Returns
    -------
    matplotlib.figure.Figure
        Two heatmaps on a diverging colour scale centred at 0 (red: the table is higher).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"card1": ["A"], "card2": ["K"], "dealer": [3.5], "pone": [4.4]})
    >>> r = pd.DataFrame({"card1": ["K"], "card2": ["A"], "dealer": [3.41], "pone": [4.30]})
    >>> len(crib_difference_heatmap(t, r).axes)  # two panels and the colour bar
    3
    """
    fig = Figure(figsize=(14, 6.4), layout="constrained")
    axes = fig.subplots(1, 2)
    _draw_crib_differences(fig, axes, _crib_matrices(table), _crib_matrices(reference),
                           reference_label)
    fig.suptitle(title or f"Crib values: difference from {reference_label}", fontsize=14)
    return fig


# --------------------------------------------------------------------------- which four to keep


def discard_chart(df, title: str | None = None) -> Figure:
    """The 15 discards of a six-card hand ranked, with the kept hand's spread over the starters.

    Parameters
    ----------
    df
        The DataFrame :func:`analyzer.keep` returns (best first; ``df.attrs`` has ``hand``,
        ``role``, ``crib_mode`` and ``pegging``: whether the net counts the play).
    title
        The figure's title (default: the hand and the role).

    Returns
    -------
    matplotlib.figure.Figure
        Two panels sharing the rows, best discard at the top: the net expectation (a bar, with
        the hand's mean marked, so the gap is the crib term), and the kept hand over the
        unseen starters (46, or 47 in the forms dealt five: mean, mean ± standard deviation,
        minimum to maximum) beside the crib's expectation; its words are the form's (which
        three to keep in five-card, the card thrown in three- and four-player).

    Examples
    --------
    >>> from analyzer import keep
    >>> fig = discard_chart(keep("5H 5S 6D JC QS KH", dealer=False, crib="uniform"))
    >>> len(fig.axes), fig.axes[0].get_yticklabels()[0].get_text()
    (2, 'keep 5H 5S JC QS, throw 6D KH')
    """
    check_frame("discard_chart's table (analyzer.keep's)", df,
                ["keep", "discard", "net", "hand_mean", "hand_std", "hand_min", "hand_max",
                 "crib_mean"])
    if "hand" in df.columns and df["hand"].nunique() > 1:  # keep_many's frame of several
        raise ValueError(f"discard_chart draws one hand's keeps; the table holds "
                         f"{df['hand'].nunique()} hands (take one: "
                         f"df[df['hand'] == {df['hand'].iloc[0]!r}])")
    n = len(df)
    role = df.attrs.get("role", "")
    dealer = role in ("dealer", "partner")  # the crib is your side's
    game = variant_game(df.attrs.get("variant", "six-card"))
    words = {3: "three", 4: "four"}
    kept = words.get(game.kept, str(game.kept))
    thrown = "the two thrown" if game.thrown == 2 else "the card thrown"
    y = np.arange(n)
    fig = Figure(figsize=(12.5, 0.36 * n + 2.2), layout="constrained")
    ax_net, ax_hand = fig.subplots(1, 2, sharey=True, width_ratios=(1, 1.25))
    net = df["net"].to_numpy(float)
    colours = ["#2ca02c" if i == 0 else "#9ecae1" for i in range(n)]
    ax_net.barh(y, net, color=colours, label="net expectation (best in green)")
    ax_net.scatter(df["hand_mean"], y, marker="|", s=200, color="black", zorder=3,
                   label="hand mean alone")
    for yi, v in zip(y, net, strict=True):
        ax_net.annotate(f"{v:.2f}", (v, yi), xytext=(3 if v >= 0 else -3, 0),
                        textcoords="offset points", va="center", ha="left" if v >= 0 else "right",
                        fontsize=8)
    ax_net.axvline(0, color="0.3", lw=0.8)
    sign = "+" if dealer else "\u2212"
    peg = " + peg" if df.attrs.get("pegging") else ""
    ax_net.set_title(f"net = hand {sign} crib{peg}" if role else "net expectation")
    ax_net.set_xlabel("expected points")
    ax_net.set_yticks(y, [f"keep {k}, throw {d}" for k, d in zip(df["keep"], df["discard"],
                                                                   strict=True)])
    ax_net.set_ylabel(f"the {math.comb(game.dealt, game.kept)} ways to keep {kept}, best first")
    ax_net.invert_yaxis()
    low, high = min(0.0, float(net.min())), float(max(net.max(), df["hand_mean"].max()))
    ax_net.set_xlim(low - 0.12 * (high - low) * (low < 0), high + 0.15 * (high - low))

    mean, std = df["hand_mean"].to_numpy(float), df["hand_std"].to_numpy(float)
    ax_hand.hlines(y, df["hand_min"], df["hand_max"], color="0.55", lw=1,
                   label="hand: minimum to maximum")
    ax_hand.hlines(y, mean - std, mean + std, color="#1f77b4", lw=5, alpha=0.6,
                   label="hand: mean \u00b1 standard deviation")
    ax_hand.scatter(mean, y, color="#1f77b4", zorder=3, s=18, label="hand: mean")
    whose = ("your side's" if game.partnerships else "yours") if dealer else (
        "the other side's" if game.partnerships else "the dealer's" if game.players > 2
        else "the opponent's")
    ax_hand.scatter(df["crib_mean"], y, marker="D", color="#9467bd", s=22, zorder=3,
                    label=f"crib: expected value of {thrown} ({whose})")
    ax_hand.set_title(f"the kept hand over the {52 - game.dealt} possible starters, and the "
                      "crib")
    ax_hand.set_xlabel("points")
    ax_hand.grid(axis="x", color="0.9")
    ax_hand.set_axisbelow(True)
    ax_hand.set_xlim(left=0)
    fig.legend(loc="outside lower center", ncol=3, fontsize=9)
    hand = df.attrs.get("hand", "")
    mode = df.attrs.get("crib_mode")
    form = "" if game.name == "six-card" else f" in {game.name}"
    default = (f"Which {kept} to keep: {hand} as {role}{form}" if hand
               else f"Which {kept} to keep{form}")
    fig.suptitle((title or default) + (f"  (crib: {mode})" if mode else ""), fontsize=13)
    return fig


# --------------------------------------------------------------------------- simulation results


def _figure(result, name: str) -> tuple[float, float, float]:
    row = result.summary.loc[name]
    return float(row["value"]), float(row["ci_low"]), float(row["ci_high"])


def _players_label(result) -> str:
    players = list(result.players)
    form = getattr(result, "variant", "six-card")
    label = (f"{players[0]} (self-play)" if len(set(players)) == 1 else " vs ".join(players))
    return label if form == "six-card" else f"{label}, {form}"


def _simulation(result):
    """The :class:`analyzer.SimulationResult` of ``result`` (a duel's, for a
    :class:`analyzer.DuelResult`: seat 0 is its player A), or :class:`TypeError`."""
    result = getattr(result, "simulation", result)
    if not all(hasattr(result, name) for name in ("summary", "acc", "players", "games")):
        raise TypeError("expected a SimulationResult (analyzer.simulate) or a DuelResult "
                        f"(analyzer.duel), got {type(result).__name__}")
    return result


def _as_results(results, labels) -> tuple[list, list[str]]:
    if isinstance(results, Mapping):
        labels = list(results) if labels is None else list(labels)
        results = list(results.values())
    elif not isinstance(results, Sequence):
        results = [results]
    results = [_simulation(r) for r in results]
    if not results:
        raise ValueError("results: no simulation to draw (give one, a list or a dict of them)")
    labels = [_players_label(r) for r in results] if labels is None else [str(x) for x in labels]
    if len(labels) != len(results):
        raise ValueError(f"{len(labels)} labels for {len(results)} results")
    return results, labels


def _errorbar(value, low, high) -> np.ndarray:
    """Error-bar lengths ``(2, n)`` below and above ``value`` (never negative: rounding)."""
    value, low, high = (np.atleast_1d(np.asarray(x, dtype=float)) for x in (value, low, high))
    return np.maximum(np.stack([value - low, high - value]), 0.0)


def _draw_first_dealer(ax, results, labels) -> None:
    x = np.arange(len(results))
    for i, r in enumerate(results):
        v, lo, hi = _figure(r, "first_dealer_win_rate")
        ax.bar(i, v, 0.55, color=_colour(i), yerr=_errorbar(v, lo, hi), capsize=4)
        ax.annotate(f"{v:.1%}", (i, hi), xytext=(0, 3), textcoords="offset points",
                    ha="center", fontsize=9)
    sides = {len(r.side_win_rates) for r in results}
    if len(sides) == 1:
        even = 1 / sides.pop()
        ax.axhline(even, color="0.3", ls="--", lw=1, label=f"even: {even:.0%}")
    else:  # forms of two and three sides: each bar's own even share, over it
        for i, r in enumerate(results):
            ax.hlines(1 / len(r.side_win_rates), i - 0.35, i + 0.35, color="0.3", ls="--",
                      lw=1, label=None if i else "even share of each form")
    if all(getattr(r, "variant", "six-card") == "six-card" for r in results):
        ax.axhline(PUBLISHED_FIRST_DEALER_WIN_RATE, color="#d62728", ls=":", lw=1.5,
                   label=f"published, people: {PUBLISHED_FIRST_DEALER_WIN_RATE:.1%}\n"
                         "(millions of human games)")
    ax.set_xticks(x, labels, rotation=20 if len(results) > 2 else 0,
                  ha="right" if len(results) > 2 else "center", fontsize=8)
    ax.set_xlabel("players")
    ax.set_xlim(-0.7, len(results) - 0.3)
    ax.set_ylim(0, 0.85)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel("share of games")
    ax.set_title("the first dealer's win rate (95% CI)")
    ax.legend(loc="upper center", fontsize=8)


def _draw_skunks(ax, results, labels) -> None:
    k = len(results)
    width = 0.8 / k
    # the tiers each form has: five-card's game to 61 has one (game.Game.skunk_tiers)
    tiers = [_game(r).skunk_tiers for r in results]
    x = np.arange(max(tiers))
    for i, (r, label) in enumerate(zip(results, labels, strict=True)):
        rows = [_figure(r, name) for name in _SKUNKS[:tiers[i]]]
        v = np.array([row[0] for row in rows])
        err = _errorbar(*np.array(rows).T)
        pos = x[:tiers[i]] + (i - (k - 1) / 2) * width
        ax.bar(pos, v, width, color=_colour(i), yerr=err, capsize=3, label=label)
        for p, value, top in zip(pos, v, v + err[1], strict=True):
            ax.annotate(f"{value:.2%}", (p, top), xytext=(0, 2), textcoords="offset points",
                        ha="center", fontsize=7 if k > 2 else 8, rotation=90 if k > 3 else 0)
    lines = {_game(r).skunk_lines for r in results}
    if len(lines) == 1:
        line = lines.pop()
        ax.set_xticks(x, [f"skunk\n(loser under {line[0]})", f"double skunk\n(under {line[1]})",
                          f"triple skunk\n(under {line[2]})"][:len(x)])
    else:
        ax.set_xticks(x, ["skunk", "double skunk", "triple skunk"][:len(x)])
    ax.set_xlabel("how deep: the loser's final score")
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_ylim(0, ax.get_ylim()[1] * 1.15)
    # three-player's two losers a game: a rate is skunked losers a game, not a share of games
    groups = {_game(r).teams > 2 for r in results}
    ax.set_ylabel("skunked losers a game" if groups == {True} else
                  "share of games (three-player: skunked losers a game)" if len(groups) == 2
                  else "share of games")
    ax.set_title("skunks: each rate counts the deeper skunks too (95% CI)")
    if k > 1:
        ax.legend(fontsize=8)


def _games_note(results) -> str:
    games = sorted({r.games for r in results})
    text = f"{games[0]:,}" if len(games) == 1 else f"{games[0]:,} to {games[-1]:,}"
    return f"{text} games each" if len(results) > 1 else f"{text} games"


def game_rates(results, labels: Sequence[str] | None = None) -> Figure:
    """The first dealer's win rate and the skunk rates of one or several simulations.

    Parameters
    ----------
    results
        One :class:`analyzer.SimulationResult` (or :class:`analyzer.DuelResult`), a list of
        them, or a dict ``{label: result}``.
    labels
        A name for each result (default: its players).

    Returns
    -------
    matplotlib.figure.Figure
        Two panels: the first dealer's win rate (bars with 95% intervals, reference lines at
        50% and at the 55.5% published from games between people), and the skunk, double and
        triple skunk rates grouped by result.

    Examples
    --------
    >>> from analyzer import simulate
    >>> fig = game_rates(simulate(200, seed=1, players=("ev+greedy", "ev+greedy")))
    >>> len(fig.axes), fig.axes[1].get_ylabel()
    (2, 'share of games')
    """
    results, labels = _as_results(results, labels)
    fig = Figure(figsize=(12, 5.4), layout="constrained")
    ax_first, ax_skunk = fig.subplots(1, 2, width_ratios=(1, 1.6))
    _draw_first_dealer(ax_first, results, labels)
    _draw_skunks(ax_skunk, results, labels)
    fig.suptitle(f"Who wins and by how much: {_games_note(results)}", fontsize=13)
    return fig


def _game(result):
    from ..core.game import VARIANTS

    return VARIANTS[getattr(result, "variant", "six-card")]


def _roles(result) -> dict[str, tuple[str, ...]]:
    """Each position at the table and the phases it scores in, from the result itself."""
    return {role: tuple(phases) for role, phases in result.points_per_deal.items()}


def _draw_phase_bars(ax, result) -> None:
    roles = _roles(result)
    phases = roles["dealer"]
    x = np.arange(len(phases))
    width = 0.76 / len(roles)
    for k, role in enumerate(roles):
        pos, v, lows, highs = [], [], [], []
        for i, phase in enumerate(phases):
            if phase not in roles[role]:
                continue
            value, lo, hi = _figure(result, f"points_per_deal.{role}.{phase}")
            pos.append(x[i] + (k - (len(roles) - 1) / 2) * width)
            v.append(value)
            lows.append(lo)
            highs.append(hi)
        ax.bar(pos, v, width, color=_ROLE_COLOURS[role], yerr=_errorbar(v, lows, highs),
               capsize=3, label=role)
        for p, value, top in zip(pos, v, highs, strict=True):
            ax.annotate(f"{value:.2f}", (p, top), xytext=(0, 3), textcoords="offset points",
                        ha="center", fontsize=8 if len(roles) == 2 else 6)
    ax.set_xticks(x, phases)
    ax.set_xlabel("phase of the deal")
    ax.set_ylabel("points per deal")
    ax.set_title("by phase and role (95% CI)")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.1)
    ax.legend()


def _draw_role_totals(ax, result) -> None:
    roles = _roles(result)
    for i, role in enumerate(roles):
        bottom = 0.0
        for phase in roles[role]:
            value = _figure(result, f"points_per_deal.{role}.{phase}")[0]
            ax.bar(i, value, 0.55, bottom=bottom, color=_PHASE_COLOURS[phase],
                   label=phase if i == 0 else None)
            bottom += value
        ax.annotate(f"{bottom:.2f}", (i, bottom), xytext=(0, 3), textcoords="offset points",
                    ha="center", fontsize=10, fontweight="bold")
    ax.set_xticks(range(len(roles)), list(roles))
    ax.set_xlabel("role" if len(roles) == 2 else "position from the dealer")
    ax.set_ylabel("points per deal")
    ax.set_title("totals by role")
    ax.set_ylim(0, ax.get_ylim()[1] * 1.1)
    ax.legend(title="phase", fontsize=8)


def points_per_deal(result) -> Figure:
    """Mean points per deal by role (dealer, pone) and phase, with 95% intervals.

    Parameters
    ----------
    result
        A :class:`analyzer.SimulationResult` (its ``summary`` rows
        ``points_per_deal.ROLE.PHASE``), or a :class:`analyzer.DuelResult` (its games).

    Returns
    -------
    matplotlib.figure.Figure
        Two panels: grouped bars by phase (pegging, hand, crib, heels) for each role, and the
        totals by role stacked by phase.

    Examples
    --------
    >>> from analyzer import simulate
    >>> fig = points_per_deal(simulate(200, seed=1, players=("ev+greedy", "ev+greedy")))
    >>> [ax.get_ylabel() for ax in fig.axes]
    ['points per deal', 'points per deal']
    """
    result = _simulation(result)
    fig = Figure(figsize=(12, 5.2), layout="constrained")
    ax_phase, ax_total = fig.subplots(1, 2, width_ratios=(1.6, 1))
    _draw_phase_bars(ax_phase, result)
    _draw_role_totals(ax_total, result)
    fig.suptitle(f"Points per deal: {_players_label(result)}, {result.games:,} games",
                 fontsize=13)
    return fig


def _draw_margins(ax, result) -> None:
    margins = result.margins
    ax.bar(margins.index, margins.to_numpy(), 1.0, color="#1f77b4", label="games")
    mean = float((margins.index * margins).sum() / margins.sum())
    ax.axvline(mean, color="#d62728", ls="--", lw=1.2, label=f"mean margin {mean:.1f} points")
    ax.set_xlabel("final margin: winner's score minus loser's (points)")
    ax.set_ylabel("games")
    ax.set_title("final margins")
    ax.set_xlim(-0.5, margins.index.max() + 0.5)
    ax.legend()


def margin_distribution(result) -> Figure:
    """How many games ended by each final margin (winner's score minus loser's).

    Parameters
    ----------
    result
        A :class:`analyzer.SimulationResult` (its ``margins`` Series), or a
        :class:`analyzer.DuelResult` (its games).

    Returns
    -------
    matplotlib.figure.Figure
        One axes: games by margin, the mean margin marked.

    Examples
    --------
    >>> from analyzer import simulate
    >>> fig = margin_distribution(simulate(200, seed=1, players=("ev+greedy", "ev+greedy")))
    >>> fig.axes[0].get_ylabel()
    'games'
    """
    result = _simulation(result)
    fig = Figure(figsize=(11, 4.8), layout="constrained")
    _draw_margins(fig.subplots(), result)
    fig.suptitle(f"Final margins: {_players_label(result)}, {result.games:,} games", fontsize=13)
    return fig


def game_length(result) -> Figure:
    """How many games lasted each number of deals.

    From ``result.game_lengths`` (its last bin holds that many deals or more).

    Parameters
    ----------
    result
        A :class:`analyzer.SimulationResult`, or a :class:`analyzer.DuelResult` (its games).

    Returns
    -------
    matplotlib.figure.Figure
        One axes: games by deals played, the mean (with its 95% interval) marked.

    Examples
    --------
    >>> from analyzer import simulate
    >>> fig = game_length(simulate(200, seed=1, players=("ev+greedy", "ev+greedy")))
    >>> fig.axes[0].get_xlabel()
    'deals in the game'
    """
    result = _simulation(result)
    hist = result.game_lengths.to_numpy()
    seen = np.flatnonzero(hist)
    lo, hi = (int(seen.min()), int(seen.max())) if seen.size else (0, 0)
    deals = np.arange(lo, hi + 1)
    fig = Figure(figsize=(10, 4.8), layout="constrained")
    ax = fig.subplots()
    ax.bar(deals, hist[lo:hi + 1], 0.8, color="#1f77b4", label="games")
    mean, ci_low, ci_high = _figure(result, "mean_deals")
    ax.axvline(mean, color="#d62728", ls="--", lw=1.2,
               label=f"mean {mean:.2f} deals (95% CI {ci_low:.2f} to {ci_high:.2f})")
    ax.set_xticks(deals)
    ax.set_title("deals per game (a deal: six cards each, the play and the show)")
    ax.set_xlabel("deals in the game")
    ax.set_ylabel("games")
    ax.legend()
    fig.suptitle(f"Game length: {_players_label(result)}, {result.games:,} games", fontsize=13)
    return fig


def game_report(result) -> Figure:
    """One page of a simulation: the first dealer's edge, skunks, points per deal, margins.

    Parameters
    ----------
    result
        A :class:`analyzer.SimulationResult`, or a :class:`analyzer.DuelResult` (its games).

    Returns
    -------
    matplotlib.figure.Figure
        Four panels, as :func:`game_rates`, :func:`points_per_deal` (by phase) and
        :func:`margin_distribution` draw them.

    Examples
    --------
    >>> from analyzer import simulate
    >>> len(game_report(simulate(200, seed=1, players=("ev+greedy", "ev+greedy"))).axes)
    4
    """
    result = _simulation(result)
    fig = Figure(figsize=(14, 10), layout="constrained")
    (a, b), (c, d) = fig.subplots(2, 2, width_ratios=(1, 1.5))
    results, labels = [result], [_players_label(result)]
    _draw_first_dealer(a, results, labels)
    _draw_skunks(b, results, labels)
    _draw_phase_bars(c, result)
    c.set_title("points per deal by phase and role (95% CI)")
    _draw_margins(d, result)
    fig.suptitle(f"{_players_label(result)}: {result.games:,} games, seed {result.seed}",
                 fontsize=14)
    return fig


# --------------------------------------------------------------------------- policies head to head


def _head_to_head_table(results):
    """A DataFrame ``player_a, player_b, value, ci_low, ci_high`` from either input form."""
    import pandas as pd

    if isinstance(results, pd.DataFrame):
        df = results.reset_index() if "player_a" not in results.columns else results
        missing = {"player_a", "player_b", "value", "ci_low", "ci_high"} - set(df.columns)
        if missing:
            raise ValueError("a head-to-head table needs player_a, player_b, value, ci_low, "
                             f"ci_high (or a (player_a, player_b) index); missing "
                             f"{', '.join(sorted(missing))}")
        return df[["player_a", "player_b", "value", "ci_low", "ci_high"]]
    if not isinstance(results, Mapping):
        raise TypeError("expected a dict {(player_a, player_b): result} or a DataFrame of "
                        f"player_a, player_b, value, ci_low, ci_high, got {type(results).__name__}")
    if not all(isinstance(k, tuple) and len(k) == 2 for k in results):
        raise ValueError("the dict's keys are pairs of players, (player_a, player_b)")
    rows = [(a, b, *_figure(_simulation(r), "seat0_win_rate")) for (a, b), r in results.items()]
    return pd.DataFrame(rows, columns=["player_a", "player_b", "value", "ci_low", "ci_high"])


def policy_comparison(results, title: str = "Policies head to head") -> Figure:
    """Head-to-head win rates of players, as a matrix and as intervals.

    Parameters
    ----------
    results
        Either a dict ``{(player_a, player_b): result}`` (a SimulationResult with ``player_a``
        in seat 0, or a DuelResult of ``player_a`` against ``player_b``) or a
        DataFrame with columns ``player_a``, ``player_b``, ``value``, ``ci_low``, ``ci_high``
        (seat 0's win rate and its 95% interval; a ``(player_a, player_b)`` index also works).
    title
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels: the row player's win rate against the column player (a pairing played one
        way round is shown the other way round as one minus it: the first dealer is chosen by the
        cut, so the seats are alike), and every pairing's win rate with its 95% interval.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"player_a": ["ev+greedy"], "player_b": ["random+random"],
    ...                    "value": [0.9], "ci_low": [0.88], "ci_high": [0.92]})
    >>> fig = policy_comparison(df)
    >>> fig.axes[0].get_xlabel(), fig.axes[1].get_xlabel()
    ('column player (opponent)', 'share of games won by the first-named player')
    """
    df = _head_to_head_table(results)
    players = list(dict.fromkeys([*df["player_a"], *df["player_b"]]))
    n = len(players)
    m = np.full((n, n), np.nan)
    half = np.full((n, n), np.nan)
    for a, b, v, lo, hi in df.itertuples(index=False):
        i, j = players.index(a), players.index(b)
        m[i, j], half[i, j] = v, (hi - lo) / 2
        if np.isnan(m[j, i]) and i != j:
            m[j, i], half[j, i] = 1 - v, (hi - lo) / 2
    fig = Figure(figsize=(13, max(5.0, 0.75 * n + 2.5)), layout="constrained")
    ax_m, ax_d = fig.subplots(1, 2, width_ratios=(1.15, 1))
    # The scale stops at 50% +- 20 points, so that close pairings still show a colour.
    extent = min(max(float(np.nanmax(np.abs(m - 0.5))), 0.05), 0.2)
    image = ax_m.imshow(m, cmap="RdBu", norm=TwoSlopeNorm(0.5, 0.5 - extent, 0.5 + extent))
    for i in range(n):
        for j in range(n):
            text = "\u2014" if np.isnan(m[i, j]) else f"{m[i, j]:.1%}\n\u00b1{half[i, j]:.1%}"
            dark = not np.isnan(m[i, j]) and abs(m[i, j] - 0.5) > 0.6 * extent
            ax_m.text(j, i, text, ha="center", va="center", fontsize=8,
                      color="white" if dark else "black")
    ax_m.set_xticks(range(n), players, rotation=30, ha="right")
    ax_m.set_yticks(range(n), players)
    ax_m.set_xlabel("column player (opponent)")
    ax_m.set_ylabel("row player")
    ax_m.set_title("the row player's win rate (\u00b1 half the 95% CI)")
    fig.colorbar(image, ax=ax_m, label="row player's win rate (share of games)", shrink=0.8,
                 format=PercentFormatter(1.0, decimals=0), extend="both")

    # Each pairing is named winner first, so every interval sits at or above 50%.
    flip = df["value"] < 0.5
    order = df.assign(
        player_a=df["player_a"].where(~flip, df["player_b"]),
        player_b=df["player_b"].where(~flip, df["player_a"]),
        value=df["value"].where(~flip, 1 - df["value"]),
        ci_low=df["ci_low"].where(~flip, 1 - df["ci_high"]),
        ci_high=df["ci_high"].where(~flip, 1 - df["ci_low"]),
    ).sort_values("value").reset_index(drop=True)
    y = np.arange(len(order))
    ax_d.errorbar(order["value"], y, xerr=_errorbar(order["value"], order["ci_low"],
                                                    order["ci_high"]),
                  fmt="o", color="#1f77b4", capsize=3, label="win rate, 95% CI")
    ax_d.axvline(0.5, color="0.3", ls="--", lw=1, label="even: 50%")
    ax_d.set_yticks(y, [f"{a} vs {b}" for a, b in zip(order["player_a"], order["player_b"],
                                                      strict=True)], fontsize=8)
    ax_d.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax_d.set_xlabel("share of games won by the first-named player")
    ax_d.set_ylabel("pairing")
    ax_d.set_title("every pairing played, the winner named first")
    ax_d.legend(loc="lower right", fontsize=8)
    fig.suptitle(title, fontsize=13)
    return fig


# --------------------------------------------------------------------------- win odds


def win_odds_heatmap(table, levels: Sequence[float] = (0.1, 0.25, 0.5, 0.75, 0.9),
                     title: str | None = None) -> Figure:
    """The chance to win from every score, as the dealer and as the pone, with contour lines.

    Parameters
    ----------
    table
        The dealer's win table ``D`` float64 (target + 1, target + 1), ``D[nd, np]`` the
        dealer's probability when he needs ``nd`` and the pone ``np``
        (:func:`analyzer.research.odds.win_table`: (122, 122) for a game to 121, (62, 62) for
        five-card's to 61).
    levels
        The probabilities drawn as labelled contour lines.
    title
        The figure's title (default: "P(win) at the start of a deal, 121-point game", with the
        table's target).

    Returns
    -------
    matplotlib.figure.Figure
        Two heatmaps over (my score, the opponent's score), 0..target - 1 each: as dealer
        ``D[target - me, target - opp]``, as pone ``1 - D[target - opp, target - me]``, on one
        colour scale.

    Examples
    --------
    >>> D = np.zeros((122, 122)); D[0, :] = 1.0
    >>> D[1:, 1:] = 0.5
    >>> fig = win_odds_heatmap(D)
    >>> [ax.get_title() for ax in fig.axes[:2]], fig.get_suptitle()
    (['you deal', 'the opponent deals'], 'P(win) at the start of a deal, 121-point game')
    """
    d = np.asarray(table, dtype=float)
    if d.ndim != 2 or d.shape[0] != d.shape[1] or d.shape[0] < 11:
        raise ValueError(f"a win table is square, (target + 1, target + 1): (122, 122) for a "
                         f"game to 121, (62, 62) to 61; got {d.shape}")
    target = d.shape[0] - 1
    if title is None:
        title = f"P(win) at the start of a deal, {target}-point game"
    needs = target - np.arange(target)  # score 0..target-1 -> need target..1
    dealer = d[needs[:, None], needs[None, :]]        # [me, opp]
    pone = 1.0 - d[needs[None, :], needs[:, None]]    # [me, opp]
    fig = Figure(figsize=(13, 6.2), layout="constrained")
    axes = fig.subplots(1, 2, sharey=True)
    norm = Normalize(0.0, 1.0)
    scores = np.arange(target)
    top = target - 1
    step = 20 if target > 80 else 10
    for ax, m, name in zip(axes, (dealer, pone), ("you deal", "the opponent deals"),
                           strict=True):
        image = ax.imshow(m.T, origin="lower", cmap="RdBu", norm=norm, extent=(-0.5, top + 0.5,
                          -0.5, top + 0.5), interpolation="nearest")
        lines = ax.contour(scores, scores, m.T, levels=list(levels), colors="black",
                           linewidths=0.8)
        ax.clabel(lines, fmt=lambda v: f"{v:.2f}", fontsize=8)
        ax.plot([0, top], [0, top], color="grey", lw=0.6, ls=":")
        ax.set_title(name)
        ax.set_xlabel("my score")
        ax.set_xticks(range(0, target, step))
        ax.set_yticks(range(0, target, step))
    axes[0].set_ylabel("the opponent's score")
    fig.colorbar(image, ax=list(axes), label="P(I win)", shrink=0.85)
    fig.suptitle(title, fontsize=14)
    return fig
