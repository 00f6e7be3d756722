"""The shipped pegging table: its layout, and reading it (no compiled code, so ``crib keep``
starts quickly).

:mod:`analyzer.research.pegging` builds the table by self-play and explains what it measures; this
module holds what a reader needs. The table is indexed ``[role, ((a*13+b)*13+c)*13+d]``: role 0
the dealer, 1 the pone, and the four kept ranks sorted ``a <= b <= c <= d`` (0 = Ace .. 12 =
King), one of 1,820 **rank patterns**. :func:`peg_table` reads the shipped
``data/pegging_values.csv`` once; :func:`peg_values` looks patterns up for any ranks. Loading
never writes anything.
"""

from __future__ import annotations

import csv
import math
import os
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..core.cards import RANK_LABELS, rank_label_index
from .crib import _open_text, shipped_file

__all__ = [
    "N_INDEX",
    "N_PATTERNS",
    "PEGGING_FILE",
    "PEGGING_TABLE_COLUMNS",
    "ROLES",
    "pattern_index",
    "pattern_text",
    "peg_table",
    "peg_values",
    "read_pegging_table",
]

#: The shipped pegging table (and ``pegging_values.json``, its provenance) in ``analyzer.data``.
PEGGING_FILE = "pegging_values.csv"
#: Columns of the table file, one row per role and rank pattern (2 x 1,820).
PEGGING_TABLE_COLUMNS = ("role", "ranks", "n", "peg_for", "peg_against", "peg_net", "se_for",
                         "se_against", "se_net", "peg_net_raw")
ROLES = ("dealer", "pone")
#: Entries of the full rank index ``((a*13+b)*13+c)*13+d``.
N_INDEX = 13**4
#: The sorted rank patterns of four cards.
N_PATTERNS = 1820


def _patterns() -> tuple[np.ndarray, np.ndarray]:
    """The 1,820 sorted patterns, int64 (1820, 4) in index order, and the map from the full
    index (28,561) to the pattern number (-1 for unsorted indices)."""
    pats = np.array([(a, b, c, d) for a in range(13) for b in range(a, 13)
                     for c in range(b, 13) for d in range(c, 13)], np.int64)
    full = ((pats[:, 0] * 13 + pats[:, 1]) * 13 + pats[:, 2]) * 13 + pats[:, 3]
    number = np.full(N_INDEX, -1, np.int64)
    number[full] = np.arange(len(pats))
    return pats, number


_PATTERNS, _PATTERN_NUMBER = _patterns()
_PATTERN_INDEX = ((_PATTERNS[:, 0] * 13 + _PATTERNS[:, 1]) * 13 + _PATTERNS[:, 2]) * 13 \
    + _PATTERNS[:, 3]


def pattern_index(ranks) -> np.ndarray:
    """The full index ``((a*13+b)*13+c)*13+d`` of four ranks (0..12, any order), sorted first;
    ``ranks`` array-like (..., 4), or one pattern as text in rank labels (``"5 5 10 J"``, or
    :func:`pattern_text`'s ``"5-5-10-J"``). Returns int64 (...).

    >>> int(pattern_index([4, 4, 9, 10])), int(pattern_index([10, 9, 4, 4]))
    (9591, 9591)
    >>> int(pattern_index("5 5 10 J")), int(pattern_index("J-10-5-5"))
    (9591, 9591)
    """
    if isinstance(ranks, str):
        ranks = [rank_label_index(label) for label in ranks.replace("-", " ").split()]
    r = np.sort(np.asarray(ranks, np.int64), axis=-1)
    if r.shape[-1:] != (4,):
        raise ValueError(f"expected ranks in groups of four, shape (..., 4), got shape {r.shape}")
    if r.size and (r.min() < 0 or r.max() > 12):
        bad = int(r.min()) if r.min() < 0 else int(r.max())
        raise ValueError(f"expected ranks 0..12 (A..K), got {bad}")
    return ((r[..., 0] * 13 + r[..., 1]) * 13 + r[..., 2]) * 13 + r[..., 3]


def pattern_text(a: int, b: int, c: int, d: int) -> str:
    """``"5-5-10-J"``: a pattern in the project's rank labels.

    >>> pattern_text(4, 4, 9, 10)
    '5-5-10-J'
    """
    return "-".join(RANK_LABELS[r] for r in (a, b, c, d))


def read_pegging_table(path: str | os.PathLike | None = None) -> dict[str, np.ndarray]:
    """Read a pegging table file (default: the shipped ``pegging_values.csv``) into arrays.

    Returns ``{"net", "for", "against", "se_net", "n"}``, each ``(2, 28561)`` indexed
    ``[role, ((a*13+b)*13+c)*13+d]`` (role 0 dealer, 1 pone; ranks sorted ascending; entries of
    unsorted indices 0, or NaN for ``se_net``). ``ValueError`` for a malformed file (a missing
    column, an unknown role or rank, a pattern given twice, not all 2 x 1,820 rows, a value that
    is not finite), ``OSError`` for a missing one. Loading never writes anything.
    """
    source = shipped_file(PEGGING_FILE) if path is None else Path(path)
    out = {name: np.zeros((2, N_INDEX), np.float64) for name in ("net", "for", "against")}
    out["se_net"] = np.full((2, N_INDEX), np.nan)
    out["n"] = np.zeros((2, N_INDEX), np.int64)
    seen = set()
    rank_of: dict[str, int] = {}  # the rank of each label met so far (rank_label_index's)
    roles, indices, values, counts = [], [], [], []
    with _open_text(source) as f:
        reader = csv.DictReader(f)
        missing = set(PEGGING_TABLE_COLUMNS) - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{source}: missing columns {', '.join(sorted(missing))}")
        for line, row in enumerate(reader, start=2):
            try:
                role = ROLES.index(row["role"].strip())
                ranks = []
                for token in row["ranks"].split("-"):
                    rank = rank_of.get(token)
                    if rank is None:
                        rank = rank_of[token] = rank_label_index(token)
                    ranks.append(rank)
                if len(ranks) != 4:
                    raise ValueError(f"{row['ranks']!r} is not four ranks")
                ranks.sort()
                index = ((ranks[0] * 13 + ranks[1]) * 13 + ranks[2]) * 13 + ranks[3]
                value = (float(row["peg_net"]), float(row["peg_for"]),
                         float(row["peg_against"]), float(row["se_net"] or "nan"))
                n = int(row["n"])
            except (ValueError, KeyError) as exc:  # CardError is a ValueError
                raise ValueError(f"{source}:{line}: {exc}") from None
            if (role, index) in seen:
                raise ValueError(f"{source}:{line}: {row['role']} {row['ranks']} given twice")
            if not all(math.isfinite(v) for v in value[:3]):
                raise ValueError(f"{source}:{line}: a value is not a finite number")
            seen.add((role, index))
            roles.append(role)
            indices.append(index)
            values.append(value)
            counts.append(n)
    where = (np.array(roles, np.int64), np.array(indices, np.int64))
    columns = np.array(values, np.float64).reshape(-1, 4)
    for j, name in enumerate(("net", "for", "against", "se_net")):
        out[name][where] = columns[:, j]
    out["n"][where] = np.array(counts, np.int64)
    if len(seen) != 2 * N_PATTERNS:
        raise ValueError(f"{source} holds {len(seen)} rows, not {2 * N_PATTERNS} (2 roles x "
                         f"{N_PATTERNS} rank patterns)")
    return out


@lru_cache(maxsize=1)
def peg_table() -> np.ndarray:
    """The shipped pegging values: ``float64 (2, 28561)``, read-only.

    ``[role, ((a*13+b)*13+c)*13+d]`` is the expected pegging points for minus against of a
    player over one whole play, as dealer (role 0) or pone (1), who kept four cards of ranks
    ``a <= b <= c <= d`` (0 = Ace .. 12 = King); entries of unsorted indices are 0.

    Examples
    --------
    >>> table = peg_table()
    >>> five_five_j_k = ((4 * 13 + 4) * 13 + 10) * 13 + 12  # kept 5 5 J K
    >>> table.shape, bool(table[0, five_five_j_k] > table[1, five_five_j_k])
    ((2, 28561), True)
    """
    out = read_pegging_table()["net"]
    out.setflags(write=False)
    return out


def peg_values(ranks, role) -> np.ndarray | float:
    """The pegging value (for minus against) of kept ranks, from :func:`peg_table`.

    Parameters
    ----------
    ranks
        Four ranks (0 = Ace .. 12 = King, any order), or an array of them (..., 4), or one
        pattern as text (``"5 5 10 J"``: :func:`pattern_index`).
    role
        ``0`` or ``"dealer"``, ``1`` or ``"pone"`` (or a bool: True for the dealer).

    Returns
    -------
    float or numpy.ndarray
        A float for one hand, else float64 (...).

    Examples
    --------
    >>> v = peg_values([4, 4, 9, 10], "dealer")  # 5-5-10-J as dealer
    >>> v == float(peg_table()[0, ((4 * 13 + 4) * 13 + 9) * 13 + 10]), type(v)
    (True, <class 'float'>)
    >>> peg_values([[4, 4, 9, 10], [0, 1, 2, 3]], "pone").shape
    (2,)
    """
    if isinstance(role, bool | np.bool_):
        r = 0 if role else 1
    elif isinstance(role, str) and role in ROLES:
        r = ROLES.index(role)
    elif role in (0, 1):
        r = int(role)
    else:
        raise ValueError(f"role must be 0 or 'dealer', 1 or 'pone', got {role!r}")
    out = peg_table()[r, pattern_index(ranks)]
    return float(out) if np.ndim(out) == 0 else out
