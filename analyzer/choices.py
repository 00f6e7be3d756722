"""What a user chooses for a run, checked in one place: players, crib values, workers, threads.

This module is low and light: it imports numba only inside the functions that need it, so the
command line can take its defaults and choices from here and ``crib --help`` stays instant.

* Players are ``"DISCARD+PEGGING"`` (e.g. ``"ev+greedy"``); :func:`parse_player` turns one into the
  two policy codes the compiled engine reads. The codes are the positions in
  :data:`DISCARD_POLICY_NAMES` and :data:`PEGGING_POLICY_NAMES`, and nowhere else.
* :func:`resolve_workers` is the number of workers a run gets; :func:`numba_threads` sets numba's
  thread count for a block and restores it afterwards.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

import numpy as np

__all__ = [
    "CRIB_MODES",
    "DEFAULT_PLAYER",
    "DISCARD_POLICIES",
    "DISCARD_POLICY_NAMES",
    "PEGGING_POLICIES",
    "PEGGING_POLICY_NAMES",
    "PlayerError",
    "TABLE_MODES",
    "numba_threads",
    "parse_player",
    "policy_arrays",
    "resolve_workers",
]

#: Discard policies of the engine, in code order (see :mod:`analyzer.players`).
DISCARD_POLICY_NAMES = ("random", "hand", "ev")
#: Pegging policies of the engine, in code order (``ordered`` is a scripted player for tests).
PEGGING_POLICY_NAMES = ("random", "greedy", "lookahead", "ordered")
DISCARD_POLICIES = {name: code for code, name in enumerate(DISCARD_POLICY_NAMES)}
PEGGING_POLICIES = {name: code for code, name in enumerate(PEGGING_POLICY_NAMES)}

#: The strongest player: ev discards (crib table) and lookahead pegging.
DEFAULT_PLAYER = "ev+lookahead"

#: Ways :func:`analyzer.keep` values the two cards thrown to the crib.
CRIB_MODES = ("table", "uniform", "weighted")
#: Crib-value tables the engine's ``ev`` policy (and the table builders) can read.
TABLE_MODES = ("table", "uniform")


class PlayerError(ValueError):
    """An unknown player or policy name."""


def parse_player(name: str) -> tuple[int, int]:
    """``"DISCARD+PEGGING"`` (e.g. ``"ev+greedy"``) into the two policy codes.

    Discard policies: ``random``, ``hand``, ``ev``; pegging: ``random``, ``greedy``,
    ``lookahead`` (and ``ordered``, a scripted player for tests).

    Examples
    --------
    >>> parse_player("ev+greedy")
    (2, 1)
    """
    parts = str(name).strip().lower().split("+")
    if len(parts) != 2:
        raise PlayerError(f"player {name!r} is not DISCARD+PEGGING, e.g. ev+greedy")
    discard, pegging = parts
    if discard not in DISCARD_POLICIES:
        raise PlayerError(f"unknown discard policy {discard!r} in {name!r}: choose one of "
                          f"{', '.join(DISCARD_POLICY_NAMES)}")
    if pegging not in PEGGING_POLICIES:
        raise PlayerError(f"unknown pegging policy {pegging!r} in {name!r}: choose one of "
                          f"{', '.join(PEGGING_POLICY_NAMES)}")
    return DISCARD_POLICIES[discard], PEGGING_POLICIES[pegging]


def policy_arrays(players, n_players: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The discard and pegging policy codes of each seat, int64 ``(n_players,)`` each."""
    if len(players) != n_players:
        raise PlayerError(f"{n_players} players are needed, got {len(players)}")
    codes = [parse_player(p) for p in players]
    return (np.array([c[0] for c in codes], np.int64), np.array([c[1] for c in codes], np.int64))


def resolve_workers(workers: int | None, backend: str = "local") -> int:
    """Workers to use: by default the cores; threads are capped at what numba can start.

    Examples
    --------
    >>> resolve_workers(1)
    1
    """
    import numba

    available = numba.config.NUMBA_NUM_THREADS
    if workers is None:
        return min(available, os.cpu_count() or 1)
    workers = int(workers)
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    return workers if backend == "dask" else min(workers, available)


@contextmanager
def numba_threads(threads: int):
    """Run the block with numba's parallel kernels on ``threads`` threads, then restore.

    Examples
    --------
    >>> import numba
    >>> with numba_threads(1):
    ...     numba.get_num_threads()
    1
    """
    import numba

    previous = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        yield
    finally:
        numba.set_num_threads(previous)
