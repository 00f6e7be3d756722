"""Crib-value tables: the expected crib for each pair of cards thrown, by role.

A table is a ``float64`` array of shape ``(2, 13, 13, 2)`` indexed ``[role, rank1, rank2, suited]``
with role 0 = the thrower is the dealer (the crib is his own) and 1 = the thrower is the pone (the
crib is the opponent's); both rank orders are filled, so a kernel looks up a thrown pair without
sorting it. Entries with equal ranks and ``suited = 1`` cannot occur and hold the unsuited value.

The one table so far is the **uniform** table: for each of the 169 kinds of throw (91 rank pairs,
78 of them also suited), the exact mean crib when the other two crib cards are any two of the 50
cards left and the starter any of the 48 after them (58,800 equally likely cribs), by direct
enumeration over one representative pair per kind (suits are symmetric). It does not depend on
the role. It is computed once and cached on disk in ``data/crib_values_uniform.csv``.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

import numpy as np
from numba import njit, prange

from . import __version__
from .cards import RANKS
from .files import atomic_write_text
from .scoring import _score_one, rank_table

__all__ = ["DATA_DIR", "build_uniform_crib_values", "crib_values", "throw_key"]

DATA_DIR = Path(__file__).resolve().parents[1] / "data"
UNIFORM_FILE = "crib_values_uniform.csv"
_CRIBS_PER_THROW = 50 * 49 // 2 * 48  # 58,800


def throw_key(a: int, b: int) -> tuple[int, int, int]:
    """The table key ``(low rank, high rank, suited)`` of two thrown card ids."""
    ra, rb = int(a) // 4, int(b) // 4
    return min(ra, rb), max(ra, rb), int(int(a) % 4 == int(b) % 4)


def _throw_kinds() -> np.ndarray:
    """The 169 kinds of throw as (low rank, high rank, suited), int64 (169, 3)."""
    kinds = [(r1, r2, s) for r1 in range(13) for r2 in range(r1, 13) for s in (0, 1)
             if not (r1 == r2 and s)]
    return np.array(kinds, dtype=np.int64)


@njit(cache=True, parallel=True)
def _uniform_crib_means(kinds, table, out):
    """Mean crib (58,800 cribs each) of each kind ``(r1, r2, suited)`` in ``kinds``, to ``out``."""
    for k in prange(kinds.shape[0]):
        i = np.int64(k)
        a = kinds[i, 0] * 4
        b = kinds[i, 1] * 4 + (0 if kinds[i, 2] else 1)
        total = 0
        for c in range(52):
            if c == a or c == b:
                continue
            for d in range(c + 1, 52):
                if d == a or d == b:
                    continue
                for s in range(52):
                    if s != a and s != b and s != c and s != d:
                        total += _score_one(a, b, c, d, s, True, table)
        out[i] = total / _CRIBS_PER_THROW


def build_uniform_crib_values() -> dict[tuple[int, int, int], float]:
    """Compute the uniform crib value of every kind of throw: ``{(r1, r2, suited): mean}``.

    Examples
    --------
    >>> values = build_uniform_crib_values()
    >>> len(values), round(values[(4, 4, 0)], 3) > round(values[(9, 12, 0)], 3)  # 5-5 beats 10-K
    (169, True)
    """
    kinds = _throw_kinds()
    out = np.empty(len(kinds), np.float64)
    _uniform_crib_means(kinds, rank_table(), out)
    return {tuple(int(x) for x in kind): float(v) for kind, v in zip(kinds, out, strict=True)}


def _to_array(values: dict[tuple[int, int, int], float]) -> np.ndarray:
    table = np.zeros((2, 13, 13, 2), np.float64)
    for (r1, r2, suited), v in values.items():
        for role in (0, 1):
            for s in (0, 1) if r1 == r2 else (suited,):
                table[role, r1, r2, s] = table[role, r2, r1, s] = v
    return table


def _write_uniform(path: Path, values: dict[tuple[int, int, int], float]) -> None:
    lines = ["card1,card2,suited,mean"]
    lines += [f"{RANKS[r1]},{RANKS[r2]},{s},{v!r}" for (r1, r2, s), v in sorted(values.items())]
    provenance = {
        "what": "uniform-opponent crib value per thrown pair: exact mean over 58,800 cribs",
        "package_version": __version__,
        "command": "analyzer.crib.build_uniform_crib_values()",
        "seed": None,
        "games": None,
        "policies": None,
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    atomic_write_text(path, "\n".join(lines) + "\n")
    atomic_write_text(path.with_suffix(".json"), json.dumps(provenance, indent=2) + "\n")


def _read_uniform(path: Path) -> dict[tuple[int, int, int], float]:
    values = {}
    for line in path.read_text().splitlines()[1:]:
        c1, c2, s, v = line.split(",")
        values[(RANKS.index(c1), RANKS.index(c2), int(s))] = float(v)
    if len(values) != 169:
        raise ValueError(f"{path} holds {len(values)} kinds of throw, not 169")
    return values


@lru_cache(maxsize=4)
def crib_values(mode: str = "uniform") -> np.ndarray:
    """The crib-value table for ``mode``, ``float64 (2, 13, 13, 2)`` ``[role, r1, r2, suited]``.

    ``"uniform"`` is read from ``data/crib_values_uniform.csv`` (computed and written there, with
    a JSON provenance file, if missing). Read-only.
    """
    if mode != "uniform":
        raise ValueError(f"unknown crib table {mode!r}: choose 'uniform'")
    path = DATA_DIR / UNIFORM_FILE
    try:
        values = _read_uniform(path)
    except (OSError, ValueError):
        values = build_uniform_crib_values()
        try:
            _write_uniform(path, values)
        except OSError:
            pass  # a read-only install: use the computed values without caching them
    table = _to_array(values)
    table.setflags(write=False)
    return table
