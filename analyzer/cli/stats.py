"""``crib stats``: the history's statistics as text. The numbers are
:func:`analyzer.table.history.summarize`'s; this module only lays them out, at most 80 columns."""

from __future__ import annotations

import math
import textwrap

__all__ = ["format_stats"]

#: The reviewed games whose losses are listed (the trend is over all of them).
LISTED = 20
#: The columns of the points per deal: yours (in four-player, your side's) and each other
#: side's.
_PER_DEAL_SIDES = {"three-player": ("you", "each AI"), "four-player": ("us", "them")}
_PHASE_NAMES = {"pegging": "pegging", "hand": "hand", "crib": "crib", "heels": "his heels",
                "total": "total"}


def format_stats(stats, path) -> str:
    """The text of ``crib stats``: a :class:`analyzer.table.history.HistoryStats` of the history
    at ``path``."""
    finished = stats.games - stats.unfinished
    lines = [f"history {path}",
             f"{stats.games} game{'s' * (stats.games != 1)}: {finished} finished, "
             f"{stats.unfinished} unfinished (stopped before the end)", ""]
    lines += _levels(stats.levels)
    lines += ["", f"skunks{'single':>16}{'double':>8}{'triple':>8}"]
    for said, key in (("you gave", "given"), ("you took", "taken")):
        tiers = stats.skunks[key]
        lines.append(f"  {said:<12}{tiers['single']:>8}{tiers['double']:>8}{tiers['triple']:>8}")
    from ..core.game import VARIANTS

    groups = dict(tuple(stats.per_deal.groupby("variant", sort=True)))
    order = [v for v in VARIANTS if v in groups] + [v for v in groups if v not in VARIANTS]
    for variant in order:  # the forms in the order of the win rates above (six-card first)
        frame = groups[variant]
        deals = int(frame["deals"].iloc[0])
        if not deals:
            continue
        you, them = _PER_DEAL_SIDES.get(variant, ("you", "AI"))
        said = f"points per deal, {variant} ({deals} whole deal{'s' * (deals != 1)})"
        width = max(46, len(said) + 2)  # the figures' columns under their heads, any count
        lines += ["", f"{said:<{width}}{you:>6}{them:>10}"]
        for row in frame.to_dict("records"):
            lines.append(f"  {_PHASE_NAMES[row['phase']]:<{width - 2}}{row['you']:>6.2f}"
                         f"{row['computer']:>10.2f}")
        if variant == "four-player":
            lines.append("  (us: you and your partner; them: West and East)")
    if stats.muggins_given is not None:
        given = stats.muggins_given
        lines += ["", f"muggins: your own counts gave the other side {given} "
                      f"point{'' if given == 1 else 's'}"]
    lines += [""] + _trend(stats)
    return "\n".join(lines)


#: How many sides share the wins of a form, in words.
_SIDES = {2: "two", 3: "three", 4: "four"}


def _levels(levels) -> list[str]:
    """The win rate by level, a block a form: a side of an even game wins 1 in 2 of the
    two-sided forms' games, 1 in 3 of three-player's."""
    width = max(8, *(len(label) for label in levels["label"]))
    lines = ["win rate by level, of the finished games (95% Wilson score interval):"]
    for variant, rows in levels.groupby("variant", sort=False):
        sides = round(1 / rows["even"].iloc[0])
        lines.append(f" {variant} ({_SIDES.get(sides, sides)} sides: an even game wins 1 in "
                     f"{sides}):")
        lines.append(f"  {'level':<{width}}  games  unfinished   won  lost  win rate  "
                     "95% interval")
        lines += _level_rows(rows, width)
    if levels["level"].isna().any():
        lines.append("  (an opponent chosen with --opponent is listed by its player spec)")
    return lines


def _level_rows(levels, width: int) -> list[str]:
    lines = []
    for row in levels.to_dict("records"):
        if math.isnan(row["win_rate"]):
            rate = f"{'':>8}  no finished game"
        else:
            rate = f"{row['win_rate']:8.1%}  {row['win_low']:.1%} to {row['win_high']:.1%}"
        lines.append(f"  {row['label']:<{width}}  {row['games']:>5}  {row['unfinished']:>10}"
                     f"  {row['won']:>4}  {row['lost']:>4}  {rate}")
    return lines


def _trend(stats) -> list[str]:
    trend = stats.trend
    n = trend["games"]
    if n == 0:
        return ["points your decisions lost: no finished game reviewed yet"]
    lost = stats.losses["lost"].tolist()
    lines = ["points lost a game by your decisions (the review's), oldest first:"]
    lines += textwrap.wrap(" ".join(f"{x:.2f}" for x in lost[-LISTED:]), width=78,
                           initial_indent="  ", subsequent_indent="  ")
    if n > LISTED:
        lines.append(f"  (the last {LISTED} of {n} reviewed games)")
    if trend["slope"] is None:
        lines.append("trend: from the second reviewed game on")
    else:
        lines.append(f"trend over {n} reviewed games: first half {trend['first_half']:.2f} a "
                     f"game, last half {trend['last_half']:.2f}")
        lines.append(f"  least-squares slope {trend['slope']:+.2f} points a game (below 0: "
                     "fewer points lost)")
    return lines
