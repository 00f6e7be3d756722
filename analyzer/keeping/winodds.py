"""The win-odds table of the two-player six-card game: the shipped table read, and the chance
of winning from any score at the start of a deal.

``D[nd, np]`` is the probability that the **dealer** wins the game when, at the start of a deal
(before the starter is cut), the dealer needs ``nd`` more points and the pone ``np`` (1..121
each). The table is built by self-play and dynamic programming in
:mod:`analyzer.research.odds` (``crib tables odds``); this module only reads the shipped one,
``win_odds.csv`` in the package ``analyzer.data``, and imports no compiled code, so the players
(:mod:`analyzer.play`) and ``crib odds`` read it without loading the self-play.
"""

from __future__ import annotations

import csv
import math
import os
from functools import lru_cache
from importlib.resources.abc import Traversable

import numpy as np

from ..core import rules
from .crib import shipped_file

__all__ = [
    "ODDS_COLUMNS",
    "ODDS_FILE",
    "TARGET",
    "read_odds_table",
    "win_probability",
    "win_probability_se",
    "win_table",
    "win_table_se",
]

#: Points to win; the table's needs run 1..TARGET.
TARGET = rules.GAME_POINTS
_SIZE = TARGET + 1
#: The shipped table and its columns.
ODDS_FILE = "win_odds.csv"
ODDS_COLUMNS = ("dealer_needs", "pone_needs", "p_dealer_wins", "se")



def read_odds_table(path: str | os.PathLike | Traversable | None = None
                    ) -> dict[str, np.ndarray]:
    """Read a win-odds CSV (default: the shipped ``win_odds.csv``) into ``{"p", "se"}``, float64
    (122, 122) each, indexed ``[dealer needs, pone needs]`` (row 0 of ``p`` is 1, column 0 is 0).

    Every state 1..121 x 1..121 must be given once, with a probability in [0, 1] and a finite
    standard error; ``ValueError`` names the file and what is wrong, ``OSError`` a missing file.
    """
    path = shipped_file(ODDS_FILE) if path is None else path
    p = np.full((_SIZE, _SIZE), np.nan)
    se = np.full((_SIZE, _SIZE), np.nan)
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
            if not (1 <= nd <= TARGET and 1 <= np_ <= TARGET):
                raise ValueError(f"{path}:{line}: needs {nd}, {np_} outside 1..{TARGET}")
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


@lru_cache(maxsize=1)
def _shipped() -> dict[str, np.ndarray]:
    table = read_odds_table()
    for a in table.values():
        a.setflags(write=False)
    return table


def win_table() -> np.ndarray:
    """The shipped win-odds table ``D``, float64 (122, 122), read-only: ``D[nd, np]`` is the
    probability that the dealer wins when, at the start of a deal, he needs ``nd`` more points
    and the pone ``np`` (1..121; ``D[0, :] = 1``, ``D[:, 0] = 0``). Read once, never written.

    Examples
    --------
    >>> D = win_table()
    >>> D.shape, bool(0.5 < D[121, 121] < 0.6)  # the first dealer's edge at 0-0
    ((122, 122), True)
    """
    return _shipped()["p"]


def win_table_se() -> np.ndarray:
    """The standard errors of :func:`win_table`, float64 (122, 122), read-only."""
    return _shipped()["se"]


def _check_score(name: str, score) -> int:
    if isinstance(score, bool) or not isinstance(score, int | np.integer):
        raise ValueError(f"{name}: a score is a whole number 0 to {TARGET - 1}, got {score!r}")
    if not 0 <= score < TARGET:
        raise ValueError(f"{name}: a score is 0 to {TARGET - 1} (at {TARGET} the game is over), "
                         f"got {score}")
    return int(score)


def _state(me, opp, dealer) -> tuple[int, int, bool]:
    me, opp = _check_score("me", me), _check_score("opp", opp)
    if not isinstance(dealer, bool | np.bool_):
        raise ValueError(f"dealer: True (you deal this deal) or False (you are the pone), got "
                         f"{dealer!r}")
    return TARGET - me, TARGET - opp, bool(dealer)


def win_probability(me: int, opp: int, dealer: bool) -> float:
    """The probability of winning with ``me`` points against ``opp`` (0..120 each) at the start
    of a deal, as its dealer (``dealer=True``) or its pone, from the shipped table: ``D[121 - me,
    121 - opp]`` as dealer, ``1 - D[121 - opp, 121 - me]`` as pone.

    Examples
    --------
    >>> round(win_probability(0, 0, True) + win_probability(0, 0, False), 12)
    1.0
    """
    n_me, n_opp, dealer = _state(me, opp, dealer)
    d = win_table()
    return float(d[n_me, n_opp]) if dealer else float(1.0 - d[n_opp, n_me])


def win_probability_se(me: int, opp: int, dealer: bool) -> float:
    """The standard error of :func:`win_probability` (the same for both players)."""
    n_me, n_opp, dealer = _state(me, opp, dealer)
    se = win_table_se()
    return float(se[n_me, n_opp] if dealer else se[n_opp, n_me])
