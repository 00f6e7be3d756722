"""The exact uniform crib values by enumeration: the compiled kernels behind
:func:`analyzer.keeping.crib.build_uniform_crib_values` (the shipped ``crib_values_uniform.csv``)
and :func:`analyzer.keeping.crib.card_crib_values`.

Kept apart from :mod:`analyzer.keeping.crib` so that reading the shipped tables imports no compiled
code; the wrappers there import this module when they compute.
"""

from __future__ import annotations

from ..core.jit import njit
from ..core.scoring import _score_one

__all__: list[str] = []

_CRIBS_PER_THROW = 50 * 49 // 2 * 48  # 58,800


@njit(cache=True, nogil=True)
def _uniform_crib_means(lo, hi, kinds, table, out):
    """Mean crib (58,800 cribs each) of each kind ``(r1, r2, suited)`` in ``kinds``, to ``out``:
    the kinds ``lo`` to ``hi - 1`` (run over ranges on threads:
    :func:`analyzer.core.choices.over_ranges`)."""
    for i in range(lo, hi):
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


@njit(cache=True, nogil=True)
def _card_crib_means(lo, hi, table, out):
    """Mean crib holding one card of each rank with any three of the other 51 cards and any
    starter of the 48 left (20,825 x 48 cribs a rank), to ``out`` float64 (13,): the ranks
    ``lo`` to ``hi - 1`` (run as :func:`_uniform_crib_means`)."""
    for r in range(lo, hi):
        a = r * 4
        total = 0
        n = 0
        for b in range(52):
            if b == a:
                continue
            for c in range(b + 1, 52):
                if c == a:
                    continue
                for d in range(c + 1, 52):
                    if d == a:
                        continue
                    for s in range(52):
                        if s != a and s != b and s != c and s != d:
                            total += _score_one(a, b, c, d, s, True, table)
                            n += 1
        out[r] = total / n
