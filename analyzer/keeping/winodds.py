"""The win-odds tables of the two-sided forms: the shipped tables read, and the chance of
winning from any score at the start of a deal.

``D[nd, np]`` is the probability that the **dealer** wins the game when, at the start of a deal
(before the starter is cut), the dealer needs ``nd`` more points and the pone ``np`` (1..121
each). The table is built by self-play and dynamic programming in
:mod:`analyzer.research.odds` (``crib tables odds``); this module only reads the shipped one,
``win_odds.csv`` in the package ``analyzer.data``, and imports no compiled code, so the players
(:mod:`analyzer.play`) and ``crib odds`` read it without loading the self-play.

The other two-sided forms have tables of the same shape for their target (:data:`ODDS_VARIANTS`):
five-card (to 61, so (62, 62), ``win_odds_five-card.csv``) and four-player (two partnerships,
the dealing side alternating, to 121, ``win_odds_four-player.csv``), ``D[nd, np]`` the dealer's
side's chance. Three-player has none: its state is three needs (121**3 states, each summing
over the deal's three totals), a table of another kind.
"""

from __future__ import annotations

import csv
import math
import os
from functools import lru_cache
from importlib.resources.abc import Traversable

import numpy as np

from ..core import rules
from ..core.game import VARIANTS
from .crib import shipped_file

__all__ = [
    "ODDS_COLUMNS",
    "ODDS_FILE",
    "ODDS_VARIANTS",
    "TARGET",
    "odds_file",
    "odds_game",
    "read_odds_table",
    "win_probability",
    "win_probability_se",
    "win_table",
    "win_table_se",
]

#: Points to win; the table's needs run 1..TARGET.
TARGET = rules.GAME_POINTS
#: The shipped table and its columns.
ODDS_FILE = "win_odds.csv"
ODDS_COLUMNS = ("dealer_needs", "pone_needs", "p_dealer_wins", "se")
#: The forms with a win-odds table: the two-sided ones.
ODDS_VARIANTS = ("six-card", "five-card", "four-player")


def odds_game(variant: str = "six-card"):
    """The :class:`~analyzer.core.game.Game` of a form with a win-odds table, or ValueError."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: choose one of {', '.join(VARIANTS)}")
    if variant not in ODDS_VARIANTS:
        raise ValueError(f"no win-odds table for {variant}: its state is three players' needs "
                         f"(tables for {', '.join(ODDS_VARIANTS)})")
    return VARIANTS[variant]


def odds_file(variant: str = "six-card") -> str:
    """The shipped table's file name for a form: :data:`ODDS_FILE` for six-card, else
    ``win_odds_{variant}.csv``."""
    odds_game(variant)
    return ODDS_FILE if variant == "six-card" else f"win_odds_{variant}.csv"



def read_odds_table(path: str | os.PathLike | Traversable | None = None,
                    variant: str = "six-card") -> dict[str, np.ndarray]:
    """Read a win-odds CSV (default: the shipped table of ``variant``, ``win_odds.csv`` for
    six-card) into ``{"p", "se"}``, float64 (target + 1, target + 1) each, (122, 122) in
    six-card, indexed ``[dealer needs, pone needs]`` (row 0 of ``p`` is 1, column 0 is 0).

    Every state 1..target x 1..target must be given once, with a probability in [0, 1] and a
    finite standard error; ``ValueError`` names the file and what is wrong, ``OSError`` a
    missing file.
    """
    target = odds_game(variant).target
    size = target + 1
    path = shipped_file(odds_file(variant)) if path is None else path
    p = np.full((size, size), np.nan)
    se = np.full((size, size), np.nan)
    opener = open(path, newline="") if isinstance(path, str | os.PathLike) else \
        path.open("r", newline="")
    with opener as f:
        reader = csv.DictReader(f)
        missing = set(ODDS_COLUMNS) - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{path}: missing columns {', '.join(sorted(missing))}")
        for line, row in enumerate(reader, start=2):
            try:
                nd, np_ = int(row["dealer_needs"]), int(row["pone_needs"])
                value, error = float(row["p_dealer_wins"]), float(row["se"])
            except (TypeError, ValueError):
                raise ValueError(f"{path}:{line}: not a state and two numbers") from None
            if not (1 <= nd <= target and 1 <= np_ <= target):
                raise ValueError(f"{path}:{line}: needs {nd}, {np_} outside 1..{target}")
            if not (0 <= value <= 1 and math.isfinite(error) and error >= 0):
                raise ValueError(f"{path}:{line}: probability {value} or error {error} out of "
                                 "range")
            if not math.isnan(p[nd, np_]):
                raise ValueError(f"{path}:{line}: state {nd}, {np_} given twice")
            p[nd, np_], se[nd, np_] = value, error
    lacking = np.argwhere(np.isnan(p[1:, 1:]))
    if len(lacking):
        nd, np_ = lacking[0] + 1
        raise ValueError(f"{path}: {len(lacking)} states missing, e.g. {nd}, {np_}")
    p[0, :], p[:, 0], p[0, 0] = 1.0, 0.0, 1.0
    se[0, :] = se[:, 0] = 0.0
    return {"p": p, "se": se}


@lru_cache(maxsize=4)
def _shipped(variant: str = "six-card") -> dict[str, np.ndarray]:
    table = read_odds_table(variant=variant)
    for a in table.values():
        a.setflags(write=False)
    return table


def win_table(variant: str = "six-card") -> np.ndarray:
    """The shipped win-odds table ``D`` of ``variant``, float64 (target + 1, target + 1),
    read-only: ``D[nd, np]`` is the probability that the dealer (his side) wins when, at the
    start of a deal, he needs ``nd`` more points and the pone ``np`` (1..target; ``D[0, :] =
    1``, ``D[:, 0] = 0``). Read once, never written.

    Examples
    --------
    >>> D = win_table()
    >>> D.shape, bool(0.5 < D[121, 121] < 0.6)  # the first dealer's edge at 0-0
    ((122, 122), True)
    >>> win_table("five-card").shape
    (62, 62)
    """
    odds_game(variant)
    return _shipped(variant)["p"]


def win_table_se(variant: str = "six-card") -> np.ndarray:
    """The standard errors of :func:`win_table`, read-only."""
    odds_game(variant)
    return _shipped(variant)["se"]


def _check_score(name: str, score, target: int = TARGET) -> int:
    if isinstance(score, bool) or not isinstance(score, int | np.integer):
        raise ValueError(f"{name}: a score is a whole number 0 to {target - 1}, got {score!r}")
    if not 0 <= score < target:
        raise ValueError(f"{name}: a score is 0 to {target - 1} (at {target} the game is over), "
                         f"got {score}")
    return int(score)


def _state(me, opp, dealer, variant: str = "six-card") -> tuple[int, int, bool]:
    target = odds_game(variant).target
    me, opp = _check_score("me", me, target), _check_score("opp", opp, target)
    if not isinstance(dealer, bool | np.bool_):
        raise ValueError(f"dealer: True (you deal this deal) or False (you are the pone), got "
                         f"{dealer!r}")
    return target - me, target - opp, bool(dealer)


def win_probability(me: int, opp: int, dealer: bool, variant: str = "six-card") -> float:
    """The probability of winning with ``me`` points against ``opp`` (0..120 each) at the start
    of a deal, as its dealer (``dealer=True``) or its pone, from the shipped table: ``D[121 - me,
    121 - opp]`` as dealer, ``1 - D[121 - opp, 121 - me]`` as pone. ``variant``: a form of
    :data:`ODDS_VARIANTS` (scores 0..60 in five-card; by side in four-player).

    Examples
    --------
    >>> round(win_probability(0, 0, True) + win_probability(0, 0, False), 12)
    1.0
    """
    n_me, n_opp, dealer = _state(me, opp, dealer, variant)
    d = win_table(variant)
    return float(d[n_me, n_opp]) if dealer else float(1.0 - d[n_opp, n_me])


def win_probability_se(me: int, opp: int, dealer: bool, variant: str = "six-card") -> float:
    """The standard error of :func:`win_probability` (the same for both players)."""
    n_me, n_opp, dealer = _state(me, opp, dealer, variant)
    se = win_table_se(variant)
    return float(se[n_me, n_opp] if dealer else se[n_opp, n_me])
