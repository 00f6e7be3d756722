"""Borrowed arrays (analyzer.core.borrow): the same memory as the owner, without reference
counts."""

from __future__ import annotations

import numpy as np
from numba import njit

from analyzer.core.borrow import _borrowed, _keep_alive


@njit(cache=True)
def _write_through_borrowed(a):
    b = _borrowed(a)
    row = b[1]  # a view of a borrowed array is borrowed too
    row[:] = 7
    return b.shape[0], b.shape[1], b.strides[0]


@njit(cache=True)
def _borrowed_scratch(n):
    owner = np.zeros(n, np.int64)
    b = _borrowed(owner)
    for i in range(n):
        b[i] = i * i
    total = 0
    for i in range(n):
        total += b[i]
    _keep_alive(owner)
    return total


def test_a_borrowed_array_is_the_owners_memory():
    a = np.zeros((3, 4), np.int64)
    assert _write_through_borrowed(a) == (3, 4, 32)
    assert a[1].tolist() == [7, 7, 7, 7]
    assert a[0].tolist() == [0, 0, 0, 0] and a[2].tolist() == [0, 0, 0, 0]


def test_scratch_kept_alive_holds_its_values():
    assert _borrowed_scratch(1000) == sum(i * i for i in range(1000))
