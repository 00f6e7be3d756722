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
side's chance.

Three-player's state is three needs, a table of another kind (built by
:mod:`analyzer.research.odds3`): ``V[i, n0, n1, n2]``, the chance of the player ``i`` places to
the left of the dealer (0 the dealer, 1 the player on his left, who deals next) when the dealer
needs ``n0``, his left ``n1`` and the third ``n2``. Its 3 x 121**3 entries and their standard
errors are shipped quantized to 16 bits in ``win_odds_three-player.npz`` (a probability to
within 1 / 131070, 7.6e-6, far below its standard error; rounding keeps the order of the
entries, so the table stays monotone, and the three chances of a state add to one within
2.3e-5). :func:`win_table3` reads it and :func:`win_probability3` gives each seat's chance from
the three scores and the dealer's seat.
"""

from __future__ import annotations

import csv
import math
import os
from functools import lru_cache
from importlib.resources.abc import Traversable

import numpy as np

from ..core import rules
from ..core.choices import check_flag, check_reachable
from ..core.game import VARIANTS
from .crib import shipped_file

__all__ = [
    "ODDS_COLUMNS",
    "check_probabilities",
    "ODDS_FILE",
    "ODDS_VARIANTS",
    "TARGET",
    "ODDS3_FILE",
    "odds_file",
    "odds_game",
    "pack_odds_table3",
    "read_odds_table",
    "read_odds_table3",
    "win_probability",
    "win_probability3",
    "win_probability3_se",
    "win_probability_se",
    "win_table",
    "win_table3",
    "win_table3_se",
    "win_table_se",
]

#: Points to win; the table's needs run 1..TARGET.
TARGET = rules.GAME_POINTS
#: The shipped table and its columns.
ODDS_FILE = "win_odds.csv"
ODDS_COLUMNS = ("dealer_needs", "pone_needs", "p_dealer_wins", "se")
#: The forms with a two-sided win-odds table ``D[nd, np]``.
ODDS_VARIANTS = ("six-card", "five-card", "four-player")
#: Three-player's table (three needs) and the integer a probability of 1 is stored as.
ODDS3_FILE = "win_odds_three-player.npz"
_ODDS3_VARIANT = "three-player"
_ONE = 65535
_SE_STEP = 1.05  # the ratio of one standard error's code to the next


def odds_game(variant: str = "six-card"):
    """The :class:`~analyzer.core.game.Game` of a form with a win-odds table, or ValueError."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}: choose one of {', '.join(VARIANTS)}")
    if variant not in ODDS_VARIANTS:
        raise ValueError(f"no win-odds table for {variant} of two sides: its state is three "
                         "players' needs (its own table: win_table3, win_probability3)")
    return VARIANTS[variant]


def odds_file(variant: str = "six-card") -> str:
    """The shipped table's file name for a form: :data:`ODDS_FILE` for six-card, else
    ``win_odds_{variant}.csv``."""
    odds_game(variant)
    return ODDS_FILE if variant == "six-card" else f"win_odds_{variant}.csv"



def check_probabilities(table: np.ndarray, what: str = "odds") -> None:
    """Refuse a win-odds table given by a caller with an entry that is not a probability (NaN,
    or outside 0..1): the players read it unchecked, and a P(win) of -6 or NaN is no answer.

    >>> check_probabilities(np.full((2, 2), 0.5))
    >>> check_probabilities(np.array([[0.5, 7.0]]))
    Traceback (most recent call last):
    ...
    ValueError: odds: every entry a probability from 0 to 1; odds[0, 1] is 7.0
    """
    bad = ~((table >= 0) & (table <= 1))
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{what}: every entry a probability from 0 to 1; {what}"
                         f"[{', '.join(map(str, where))}] is {float(table[where])}")


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
    game = odds_game(variant)
    target = game.target
    me, opp = _check_score("me", me, target), _check_score("opp", opp, target)
    dealer = check_flag("dealer", dealer)
    check_reachable(game, (me, opp), pone=1 if dealer else 0)
    return target - me, target - opp, dealer


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


# --------------------------------------------------------------------------- three players


def pack_odds_table3(p: np.ndarray, se: np.ndarray) -> dict[str, np.ndarray]:
    """The arrays the three-player table is stored as, from ``p`` and ``se`` float64 (3, T+1,
    T+1, T+1) (index 0 of a need unused); the inverse of :func:`read_odds_table3`'s decoding.

    ``p``: the probability rounded to a multiple of 1/65535, uint16 (3, T, T, T), stored as its
    differences along each need's axis in turn (wrapping, exactly undone by sums), which
    compress to a fifth. ``se``: 0 for a zero error, else ``k`` in 1..255 for ``se_unit *
    1.05**(k - 1)``, the largest error 255 (a step of 5%; the error itself is known to about
    13%; an error below ``se_unit``, 4.2e-6 of the largest, is read as ``se_unit``),
    likewise differenced. ``se_unit`` and ``target`` beside them."""
    body = (slice(None), slice(1, None), slice(1, None), slice(1, None))
    q = np.rint(np.clip(p[body], 0.0, 1.0) * _ONE).astype(np.uint16)
    e = np.nan_to_num(se[body], nan=0.0)
    top = float(e.max())
    unit = top / _SE_STEP ** 254 if top > 0 else 1.0
    with np.errstate(divide="ignore"):
        k = np.rint(np.log(np.maximum(e, 0.0) / unit) / math.log(_SE_STEP)) + 1
    code = np.where(e > 0, np.clip(k, 1, 255), 0).astype(np.uint8)
    for axis in (1, 2, 3):
        q = np.diff(q, axis=axis, prepend=np.uint16(0))
        code = np.diff(code, axis=axis, prepend=np.uint8(0))
    return {"p": q, "se": code, "se_unit": np.float64(unit), "target": np.int64(p.shape[1] - 1)}


def read_odds_table3(path: str | os.PathLike | Traversable | None = None
                     ) -> dict[str, np.ndarray]:
    """Read a three-player win-odds table (default: the shipped ``win_odds_three-player.npz``,
    :func:`pack_odds_table3`) into ``{"p", "se"}``, float64 (3, 122, 122, 122) each, ``p[i, n0,
    n1, n2]`` the chance of the player ``i`` places left of the dealer when the dealer needs
    ``n0``, his left ``n1`` and the third ``n2`` (0 wherever a need is 0). ``ValueError`` names
    the file and what is wrong, ``OSError`` a missing file."""
    target = VARIANTS[_ODDS3_VARIANT].target
    path = shipped_file(ODDS3_FILE) if path is None else path
    opener = open(path, "rb") if isinstance(path, str | os.PathLike) else path.open("rb")
    with opener as f:
        try:
            with np.load(f, allow_pickle=False) as z:
                arrays = {k: z[k] for k in ("p", "se", "se_unit", "target")}
        except KeyError as exc:
            raise ValueError(f"{path}: missing array {exc}") from None
        except (ValueError, EOFError, OSError) as exc:
            raise ValueError(f"{path}: not a win-odds table ({exc})") from None
    shape = (3, target, target, target)
    if arrays["target"].shape != () or int(arrays["target"]) != target:
        raise ValueError(f"{path}: a table to {arrays['target']}, not {target}")
    for name, dtype in (("p", np.uint16), ("se", np.uint8)):
        if arrays[name].shape != shape or arrays[name].dtype != dtype:
            raise ValueError(f"{path}: {name} is {arrays[name].dtype} {arrays[name].shape}, not "
                             f"{np.dtype(dtype)} {shape}")
    unit = float(arrays["se_unit"])
    if not (math.isfinite(unit) and unit > 0):
        raise ValueError(f"{path}: se_unit {unit} is not a positive number")
    q, code = arrays["p"], arrays["se"]
    for axis in (3, 2, 1):
        q = np.cumsum(q, axis=axis, dtype=np.uint16)
        code = np.cumsum(code, axis=axis, dtype=np.uint8)
    if q.max() > _ONE:
        raise ValueError(f"{path}: a probability above 1")
    size = target + 1
    p, se = np.zeros((3, size, size, size)), np.zeros((3, size, size, size))
    p[:, 1:, 1:, 1:] = q / _ONE
    se[:, 1:, 1:, 1:] = np.where(code > 0, unit * _SE_STEP ** (code.astype(np.float64) - 1), 0.0)
    return {"p": p, "se": se}


@lru_cache(maxsize=1)
def _shipped3() -> dict[str, np.ndarray]:
    table = read_odds_table3()
    for a in table.values():
        a.setflags(write=False)
    return table


def win_table3() -> np.ndarray:
    """The shipped three-player win-odds table, float64 (3, 122, 122, 122), read-only:
    ``V[i, n0, n1, n2]`` is the chance of the player ``i`` places left of the dealer (0 the
    dealer, 1 his left, 2 the third) when, at the start of a deal, the dealer needs ``n0``
    more points, his left ``n1`` and the third ``n2`` (1..121; 0 wherever a need is 0). Read
    once, never written.

    Examples
    --------
    >>> V = win_table3()
    >>> V.shape, round(float(V[:, 121, 121, 121].sum()), 3)
    ((3, 122, 122, 122), 1.0)
    """
    return _shipped3()["p"]


def win_table3_se() -> np.ndarray:
    """The standard errors of :func:`win_table3`, read-only."""
    return _shipped3()["se"]


def _state3(scores, dealer) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The needs from the dealer round to the left, and the place of each seat from the
    dealer."""
    target = VARIANTS[_ODDS3_VARIANT].target
    # a sequence of three, in seat order (a set has none; an int or None no length)
    if isinstance(scores, str | set | frozenset | dict) or not hasattr(scores, "__len__") \
            or len(scores) != 3:
        raise ValueError(f"scores: three scores, one a seat (by seat 0, 1, 2), got {scores!r}")
    scores = [_check_score(f"seat {s}", x, target) for s, x in enumerate(scores)]
    if isinstance(dealer, bool) or not isinstance(dealer, int | np.integer) or \
            not 0 <= dealer <= 2:
        raise ValueError(f"dealer: the dealer's seat, 0, 1 or 2, got {dealer!r}")
    needs = tuple(target - scores[(int(dealer) + k) % 3] for k in range(3))
    places = tuple((s - int(dealer)) % 3 for s in range(3))
    return needs, places


def win_probability3(scores, dealer: int) -> tuple[float, float, float]:
    """Each seat's chance of winning the three-player game from ``scores`` (by seat 0, 1, 2;
    0..120 each) at the start of a deal that seat ``dealer`` deals, from the shipped table. The
    seat on the dealer's left (``dealer + 1``, mod 3) leads, shows first and deals next.

    Examples
    --------
    >>> p = win_probability3((100, 60, 60), dealer=1)
    >>> bool(p[0] > p[1] and p[0] > p[2]), round(sum(p), 3)
    (True, 1.0)
    """
    needs, places = _state3(scores, dealer)
    v = win_table3()
    return tuple(float(v[(k, *needs)]) for k in places)


def win_probability3_se(scores, dealer: int) -> tuple[float, float, float]:
    """The standard errors of :func:`win_probability3`, by seat."""
    needs, places = _state3(scores, dealer)
    se = win_table3_se()
    return tuple(float(se[(k, *needs)]) for k in places)
