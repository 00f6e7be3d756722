"""Explicit random streams for the compiled game loop: xoshiro256** with per-chunk seeds.

Randomness is handled at the boundary: :func:`chunk_states` turns a user's seed into one
independent 256-bit state per chunk of games, the chunk's ``numpy.random.SeedSequence(seed)``
spawned child; kernels receive a state array and advance it themselves (no hidden global generator,
no state shared between threads). The same seed gives the same games whatever the number of workers.

xoshiro256** is the generator of Blackman and Vigna (2018), "Scrambled linear pseudorandom number
generators"; bounded integers use the multiply-shift mapping of the high 32 bits (bias below
``n / 2**32``, far under anything a simulation of this size could see).
"""

from __future__ import annotations

import numpy as np

from . import cacheload
from .jit import njit

cacheload.install()  # before any kernel is loaded from the cache

__all__ = ["check_state", "chunk_states"]


def chunk_states(seed: int, chunks) -> np.ndarray:
    """The xoshiro256** states of the given chunks, ``uint64`` (len(chunks), 4).

    Chunk ``i`` is seeded by ``SeedSequence(seed).spawn(n)[i]`` for any ``n > i``, built directly
    as ``SeedSequence(seed, spawn_key=(i,))`` (the same sequence), so one chunk's state costs the
    same whatever the size of the run. ``chunks`` is a count (chunks ``0..chunks-1``) or indices.

    Examples
    --------
    >>> chunk_states(7, 3).shape
    (3, 4)
    >>> bool((chunk_states(7, [2]) == chunk_states(7, 3)[2]).all())
    True
    """
    indices = range(chunks) if np.isscalar(chunks) else np.asarray(chunks).tolist()
    states = np.empty((len(indices), 4), np.uint64)
    for row, i in enumerate(indices):
        state = np.random.SeedSequence(seed, spawn_key=(int(i),)).generate_state(4, np.uint64)
        if not state.any():  # the all-zero state is the one fixed point of the generator
            state[0] = 1
        states[row] = state
    return states


def check_state(name: str, state) -> np.ndarray:
    """``state`` if it is a stream the kernels can advance: a writable, C-ordered ``uint64``
    (4,) xoshiro256** state, not all zero (the generator's one fixed point, which draws the
    same number for ever: a cut for deal that ties for ever). Else :class:`ValueError` naming
    ``name``.

    >>> check_state("state", np.zeros(4, np.uint64))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: state: an all-zero state draws the same number for ever: seed it ...
    """
    if not isinstance(state, np.ndarray) or state.dtype != np.uint64 or state.shape != (4,) \
            or not state.flags.c_contiguous or not state.flags.writeable:
        raise ValueError(f"{name}: a writable uint64 (4,) xoshiro256** state, advanced in "
                         f"place (analyzer.core.rng.chunk_states), got {state!r}"[:300])
    if not state.any():
        raise ValueError(f"{name}: an all-zero state draws the same number for ever: seed it "
                         "(analyzer.core.rng.chunk_states, or seed=)")
    return state


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@njit(cache=True)
def _next(st):
    """Advance ``st`` (uint64 (4,)) and return the next 64 random bits (uint64)."""
    s0, s1, s2, s3 = st[0], st[1], st[2], st[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    st[0], st[1], st[2], st[3] = s0, s1, s2, s3
    return result


@njit(cache=True)
def _randint(st, n):
    """A uniform integer in ``0..n-1`` (``1 <= n < 2**32``), as int64."""
    return np.int64(((_next(st) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True)
def _uniform(st):
    """A uniform float in ``[0, 1)``: the top 53 of the next 64 bits."""
    return np.float64(_next(st) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _shuffle_prefix(st, deck, k):
    """Fisher-Yates on the first ``k`` positions of ``deck`` (int64 (m,)): a uniform k-prefix."""
    m = deck.shape[0]
    for i in range(k):
        j = i + _randint(st, m - i)
        deck[i], deck[j] = deck[j], deck[i]
