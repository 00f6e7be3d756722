"""Win odds of the three-player game from any score at the start of a deal.

The table ``V[i, n0, n1, n2]`` is the probability that player ``i`` wins when, at the start of a
deal (before the starter is cut), the dealer needs ``n0`` more points, the player on his left
(who leads, shows first and deals next) ``n1`` and the third player ``n2`` (1..121 each); ``i``
counts from the dealer round to the left as the needs do. Built as the two-sided tables are
(:mod:`analyzer.research.odds`), in two steps.

**Self-play deals** (:func:`_odds3_chunk`). Deals of the three-player form played whole with the
engine's own steps (each player dealt five and one card from the pack to the crib, each throws
one, his heels, the play from the dealer's left, the show from the dealer's left round to the
dealer, then the crib), the same player in every seat (``ev+lookahead`` by default). Seat 0
deals. Along the order the points arrive the seats' running totals ``a0, a1, a2`` grow, and as
only one seat scores at each event, seat ``i`` wins the deal for needs ``n`` exactly when its
total reaches ``n_i`` while the others are still below theirs. When seat ``i``'s total first
reaches ``n_i`` the others have ``b_j``, ``b_k``: the deal counts for every ``n_j > b_j``, ``n_k
> b_k``, one +1 in a difference array at ``[n_i, b_j + 1, b_k + 1]`` (seat ``i``'s need on axis
``i``), summed along the other two axes afterwards. So each deal adds, in time proportional to
its points:

* ``W[i, n0, n1, n2]``: the deals in which seat ``i`` reaches its need first;
* ``H[x0, x1, x2]``: the deal's totals (clipped at 121).

For every state a deal is exactly one of: seat 0, 1 or 2 reaches first, or nobody reaches
(``x < n`` in every seat): ``W[0] + W[1] + W[2] + sum_{x<n} H = N`` for ``N`` deals, checked
for every state (:func:`solve3`).

**Dynamic programming** (:func:`solve3`). If nobody reaches, the deal passes to the left: the old
seat 1 deals, the old seat 2 is on his left and the old dealer third, needing ``n1 - x1``, ``n2 -
x2``, ``n0 - x0``; the old seat ``i`` is the new seat ``i - 1`` (mod 3)::

    V[i, n] = W[i, n] / N + sum_{x<n} H[x] / N * V[i - 1, n1 - x1, n2 - x2, n0 - x0]

With ``U[j][m0, m1, m2] = V[j, m1, m2, m0]`` (zero where a need is 0 or less, so ``x < n`` is
implied) the sum is the 3-D convolution ``(H / N) * U[i - 1]`` at ``n``. 121**3 = 1.77M states
times the deal totals' support (over 9,000 cells in 64,000 deals, more with more) is too much to
sum directly, so the convolution is made by FFT (numpy's real FFT over each axis padded to ``121
+ the largest total`` that can matter, so nothing wraps round). Every deal scores at least a
point (the last card), so the recursion runs down the total need: it is solved by iterating the
three equations in turn, ``V[0]`` from ``V[2]``, ``V[1]`` from the new ``V[0]``, ``V[2]`` from
the new ``V[1]``, from ``V = 0``. After ``k`` rounds ``V`` is the chance of winning within the
first ``3k`` deals or so; the change of a round is the chance of a game lasting that long, and
the rounds stop when it is below :data:`TOLERANCE` (1e-12: 8 rounds, 6 s on one core), which
bounds what is left out. Beside that truncation the only departures from the exact value of a
game whose deals are drawn independently from the self-play deals are the FFT's rounding, about
1e-15: the table sums to one and is monotone (needing fewer points never lowers one's chance,
another needing fewer never raises it) to within those, which the build checks for the sums and
the tests for the order.

**Uncertainty.** As for the two-sided tables: chunk ``c`` of the deals (its own xoshiro256**
stream) belongs to group ``c % 32``; the standard error of each entry is the delete-one-group
jackknife over the 32 groups, the table solved again without each group in turn (each solve
started from the whole table's values, which saves a few rounds). With 32 groups the standard
error is itself known to about 13%.

Chunks are tallied on threads one per group at a time, so no two threads add to one group's
tallies; the tallies are integer counts, so the table is the same whatever the number of
threads. The per-group tallies are int32, 29 MB a group, 0.9 GB for a build.

The shipped table, ``win_odds_three-player.npz`` in the package ``analyzer.data`` (``crib tables
odds --variant three-player``), holds the probabilities and their standard errors quantized to
16 bits and is read by :mod:`analyzer.keeping.winodds` (:func:`win_table3`,
:func:`win_probability3`), which imports no compiled code.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from ..core import rules
from ..core.borrow import _borrowed, _keep_alive
from ..core.choices import (
    DEFAULT_PLAYER,
    MAX_DEALS,
    MAX_GAMES,
    MAX_SEED,
    check_number,
    on_threads,
    resolve_workers,
)
from ..core.files import atomic_write_all
from ..core.game import VARIANTS
from ..core.jit import njit
from ..core.rng import chunk_states
from ..core.version import git_commit, package_version
from ..keeping.crib import is_shipped_folder
from ..keeping.winodds import ODDS3_FILE, _state3, pack_odds_table3
from ..play.engine import DEAL, PLAY
from .odds import (
    GROUPS,
    _games_by_side,
    _layout,
    _one_deal,
    _player_arrays,
    _record_odds_deals,
    _scratch,
)

__all__ = [
    "ODDS3_FILE",
    "OddsTable3",
    "TOLERANCE",
    "build_odds_table3",
    "corner",
    "play_from_score3",
    "prepare_tallies3",
    "record_deals3",
    "solve3",
    "tally_deals3",
]

#: The form.
VARIANT = "three-player"
#: The rounds of the recursion stop when a round changes no entry by more than this.
TOLERANCE = 1e-12
#: At most this many rounds (each three convolutions); a game lasts far fewer deals.
MAX_ROUNDS = 200
#: The jackknife's solves run at most this many at once (about 0.25 GB each).
SOLVE_THREADS = 4
_PLAYERS = 3


# --------------------------------------------------------------------------- the tallies


@njit(cache=True, inline="always")
def _reach3(w, a, s, gain):
    """Seat ``s`` gains ``gain`` while the seats' totals are ``a`` int64 (3,): every need
    ``a[s] < n <= a[s] + gain`` is reached now, before the others' needs above their totals
    (``+1`` in ``w[s]``'s difference array at ``n`` on axis ``s`` and the others' totals + 1 on
    theirs). Adds ``gain`` to ``a[s]``."""
    target = w.shape[1] - 1
    j, k = (s + 1) % 3, (s + 2) % 3
    if a[j] < target and a[k] < target:
        top = min(a[s] + gain, target)
        if s == 0:
            for n in range(a[0] + 1, top + 1):
                w[0, n, a[1] + 1, a[2] + 1] += 1
        elif s == 1:
            for n in range(a[1] + 1, top + 1):
                w[1, a[0] + 1, n, a[2] + 1] += 1
        else:
            for n in range(a[2] + 1, top + 1):
                w[2, a[0] + 1, a[1] + 1, n] += 1
    a[s] += gain


@njit(cache=True, inline="always")
def _tally_deal3(heels, plays, n_plays, show, a, w, h):
    """Add one deal's events, in order, to the difference arrays ``w`` int32 (3, T+1, T+1, T+1)
    and to ``h`` int32 (T+1, T+1, T+1): his heels (seat 0), each card laid with what it pegged,
    the hands from the dealer's left (``show[0]``, seat 1) round to the dealer (``show[2]``),
    the crib (``show[3]``, seat 0). ``a`` int64 (3,) is scratch."""
    target = h.shape[0] - 1
    a[:] = 0
    _reach3(w, a, 0, heels)
    for i in range(n_plays):
        _reach3(w, a, plays[i, PLAY.player], plays[i, PLAY.points])
    for k in range(_PLAYERS):
        _reach3(w, a, (1 + k) % _PLAYERS, show[k])
    _reach3(w, a, 0, show[_PLAYERS])
    h[min(a[0], target), min(a[1], target), min(a[2], target)] += 1


@njit(cache=True, nogil=True)
def _odds3_chunk(st, size, game, dpol, ppol, values, cards, table, hands_t, w, h):
    """Play and tally one chunk of ``size`` three-player deals from generator state ``st``
    (advanced in place) into its group's ``w`` int32 (3, 122, 122, 122) and ``h`` int32 (122,
    122, 122) (see the module). The tallies of a chunk depend only on its state and size;
    chunks run on threads (:func:`tally_deals3`), as the GIL is released."""
    deck, hands, kept, thrown, crib, unseen, scores, plays, pegged, show = _scratch(game)
    a = np.zeros(_PLAYERS, np.int64)
    b_st, b_game, b_dpol, b_ppol = _borrowed(st), _borrowed(game), _borrowed(dpol), _borrowed(ppol)
    b_values, b_cards, b_table = _borrowed(values), _borrowed(cards), _borrowed(table)
    b_hands_t, b_deck, b_hands = _borrowed(hands_t), _borrowed(deck), _borrowed(hands)
    b_kept, b_thrown, b_crib = _borrowed(kept), _borrowed(thrown), _borrowed(crib)
    b_unseen, b_scores, b_plays = _borrowed(unseen), _borrowed(scores), _borrowed(plays)
    b_pegged, b_show = _borrowed(pegged), _borrowed(show)
    for _ in range(size):
        _, heels, n_plays = _one_deal(b_st, b_game, b_dpol, b_ppol, b_values, b_cards, b_table,
                                      b_hands_t, b_deck, b_hands, b_kept, b_thrown, b_crib,
                                      b_unseen, b_scores, b_plays, b_pegged, b_show)
        _tally_deal3(heels, b_plays, n_plays, b_show, a, w, h)
    _keep_alive(deck)  # the owners of the borrowed scratch live to here
    _keep_alive(hands)
    _keep_alive(kept)
    _keep_alive(thrown)
    _keep_alive(crib)
    _keep_alive(unseen)
    _keep_alive(scores)
    _keep_alive(plays)
    _keep_alive(pegged)
    _keep_alive(show)


def _form3():
    """The three-player game array and the tables its players read."""
    from ..play.reads import player_tables

    form = VARIANTS[VARIANT]
    t = player_tables(VARIANT, [DEFAULT_PLAYER])
    return form, form.as_array(), t.crib_values, t.card_values, t.rank_table, t.hand_table


def _cumulate3(w: np.ndarray) -> None:
    """The reach tallies from their difference arrays, in place: ``w[..., s, :, :, :]`` summed
    along the two axes other than seat ``s``'s own."""
    for s in range(_PLAYERS):
        seat = w[..., s, :, :, :]
        for axis in range(3):
            if axis != s:
                np.cumsum(seat, axis=seat.ndim - 3 + axis, out=seat)


def tally_deals3(deals: int, seed: int, workers: int | None = None,
                 players: str = DEFAULT_PLAYER, progress=None,
                 needs: int = rules.GAME_POINTS) -> dict[str, np.ndarray]:
    """Play ``deals`` three-player self-play deals and return their tallies by group.

    Returns ``{"w", "h"}``: ``w`` int32 (GROUPS, 3, 122, 122, 122), ``w[g, i, n0, n1, n2]`` the
    deals of group ``g`` in which seat ``i`` (0 the dealer, 1 his left) reaches its need first;
    ``h`` int32 (GROUPS, 122, 122, 122), the deals with totals ``x0, x1, x2`` (clipped at 121).
    ``progress(done, deals)`` is called after each block of chunks.

    With ``needs`` below 121, the tallies of the states where every seat needs at most
    ``needs`` only, as :func:`corner` cuts them (``needs + 1`` along each need and total): cut
    before the reach tallies are summed from their difference arrays, whose first
    ``needs + 1`` entries along each axis are all that their sums there read, so the sums
    run over the corner only (a corner of 40 is some 25 times less memory to sum).
    """
    needs = check_number("needs", needs, low=1, high=rules.GAME_POINTS, integer=True)
    deals = check_number("deals", deals, low=1, high=MAX_DEALS, integer=True)
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    form, game, values, cards, table, hands_t = _form3()
    dpol, ppol = _player_arrays(players, form.players)
    sizes, groups = _layout(deals)
    size = form.target + 1
    w = np.zeros((GROUPS, _PLAYERS, size, size, size), np.int32)
    h = np.zeros((GROUPS, size, size, size), np.int32)
    done = 0
    threads = resolve_workers(workers)
    for lo in range(0, len(sizes), GROUPS):  # one chunk per group at a time: no shared tally
        chunks = np.arange(lo, min(lo + GROUPS, len(sizes)))
        states = chunk_states(seed, chunks)

        def run(b, chunks=chunks, states=states):
            c, g = chunks[b], groups[chunks[b]]
            _odds3_chunk(states[b], sizes[c], game, dpol, ppol, values, cards, table, hands_t,
                         w[g], h[g])

        on_threads(run, len(chunks), threads)
        done += int(sizes[chunks].sum())
        if progress is not None:
            progress(done, deals)
    if needs < form.target:
        k = needs + 1
        w = np.ascontiguousarray(w[..., :k, :k, :k])
        h = np.stack([corner(w[g], h[g], needs)[1] for g in range(GROUPS)])
    _cumulate3(w)
    return {"w": w, "h": h}


def prepare_tallies3() -> None:
    """Compile the tally kernel of :func:`tally_deals3` into numba's cache (or load it) without
    the tallies' memory: one deal, tallied into one group's arrays (28 MB, not the 0.9 GB of a
    build's 32 groups) and thrown away. ``crib warmup --all`` calls it.

    >>> prepare_tallies3()
    """
    form, game, values, cards, table, hands_t = _form3()
    dpol, ppol = _player_arrays(DEFAULT_PLAYER, form.players)
    size = form.target + 1
    w = np.zeros((_PLAYERS, size, size, size), np.int32)
    h = np.zeros((size, size, size), np.int32)
    _odds3_chunk(chunk_states(0, np.arange(1))[0], 1, game, dpol, ppol, values, cards, table,
                 hands_t, w, h)


def record_deals3(n: int, seed: int, chunk: int = 0, players: str = DEFAULT_PLAYER) -> np.ndarray:
    """The first ``n`` deals of chunk ``chunk`` of a three-player build with ``seed``, as the
    engine records a deal: int16 (n, :data:`analyzer.play.engine.DEAL` size), seat 0 dealing,
    ``show`` whole (for the tests: an independent recount of the tallies)."""
    form, game, values, cards, table, hands_t = _form3()
    dpol, ppol = _player_arrays(players, form.players)
    rows = np.zeros((n, DEAL.size), np.int16)
    _record_odds_deals(chunk_states(seed, [chunk])[0], n, game, dpol, ppol, values, cards,
                       table, hands_t, rows)
    return rows


# --------------------------------------------------------------------------- the recursion


def _fast_len(n: int) -> int:
    """The least 2**a 3**b 5**c at least ``n`` (an FFT length numpy does quickly)."""
    best = 1 << max(n - 1, 0).bit_length()
    p5 = 1
    while p5 < 2 * n:
        p35 = p5
        while p35 < 2 * n:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def _check_tallies(w: np.ndarray, h: np.ndarray) -> int:
    """``N``, after checking that every state counts every deal once (see the module)."""
    n = int(h.sum(dtype=np.int64))
    if n <= 0:
        raise ValueError("no deals tallied")
    if h[0, 0, 0]:
        raise ValueError(f"{int(h[0, 0, 0])} deals scored no point, which cannot happen")
    neither = h.astype(np.int64).cumsum(0).cumsum(1).cumsum(2)  # sum of h[:x0+1, :x1+1, :x2+1]
    total = w[:, 1:, 1:, 1:].sum(axis=0, dtype=np.int64) + neither[:-1, :-1, :-1]
    if not (total == n).all():
        n0, n1, n2 = np.argwhere(total != n)[0] + 1
        raise ValueError(f"the tallies do not add up at needs {n0}, {n1}, {n2}: "
                         f"{int(total[n0 - 1, n1 - 1, n2 - 1])} of {n} deals")
    return n


def corner(w: np.ndarray, h: np.ndarray, needs: int) -> tuple[np.ndarray, np.ndarray]:
    """The tallies of the states where every seat needs at most ``needs``: ``w`` cut to
    ``[:, :needs + 1, :needs + 1, :needs + 1]``, and ``h`` with every total of ``needs`` or more
    clipped to ``needs`` (which a state of the corner never counts: it needs ``x < n``), so that
    every deal is still counted once. A state's chance depends only on states that need no
    more, so :func:`solve3` of the corner is the whole table's corner, exactly."""
    k = needs + 1
    clipped = h
    for axis in range(3):  # each total below needs alone, the rest summed into needs
        clipped = np.add.reduceat(clipped, np.arange(k), axis=axis)
    return w[:, :k, :k, :k], clipped


def _inverse_corner(x: np.ndarray, lengths: tuple[int, int, int], size: int) -> np.ndarray:
    """``np.fft.irfftn(x, s=lengths)[:size, :size, :size]``, the same numbers, without the rest:
    numpy's ``irfftn`` is the inverse along the first axis, then the second, then the real one
    along the last, each line by itself, so the lines past ``size`` are dropped after each
    (about a quarter of the inverse's work)."""
    x = np.fft.ifft(x, lengths[0], axis=0)[:size]
    x = np.fft.ifft(x, lengths[1], axis=1)[:, :size]
    return np.fft.irfft(x, lengths[2], axis=2)[:, :, :size]


def solve3(w: np.ndarray, h: np.ndarray, start: np.ndarray | None = None,
           tol: float = TOLERANCE) -> tuple[np.ndarray, int, float]:
    """The three players' win tables from the tallies of some deals (see the module).

    Parameters
    ----------
    w
        int (3, T+1, T+1, T+1): ``w[i, n0, n1, n2]`` the deals in which seat ``i`` reaches its
        need first (already summed from the difference arrays).
    h
        int (T+1, T+1, T+1): the deals by their totals, clipped at the target ``T``.
    start
        float64 (3, T+1, T+1, T+1), where the rounds start (default zeros); the answer does
        not depend on it, only the rounds it takes.
    tol
        The rounds stop when none changes an entry by more than this.

    Returns
    -------
    (V, rounds, gap)
        ``V`` float64 (3, T+1, T+1, T+1), ``V[i, n0, n1, n2]`` seat ``i``'s chance (0 wherever a
        need is 0); the rounds made; the largest ``|V[0] + V[1] + V[2] - 1|`` over the states.
        ``ValueError`` for tallies that do not add up, or rounds that do not settle.
    """
    n = _check_tallies(w, h)
    size = h.shape[0]
    target = size - 1
    p = h[:target, :target, :target] / n  # a total of the target in a seat never counts
    support = np.nonzero(p)
    lengths = tuple(_fast_len(target + int(ax.max(initial=0)) + 1) for ax in support)
    axes = (0, 1, 2)
    p_hat = np.fft.rfftn(p, s=lengths, axes=axes)
    base = w / n
    v = np.zeros((_PLAYERS, size, size, size)) if start is None else start.copy()
    rounds, change = 0, 1.0
    while change > tol:
        if rounds == MAX_ROUNDS:
            raise ValueError(f"the rounds did not settle in {MAX_ROUNDS}: last change "
                             f"{change:.3g}")
        rounds += 1
        change = 0.0
        for i in range(_PLAYERS):
            u = v[(i - 1) % _PLAYERS].transpose(2, 0, 1)  # u[m0, m1, m2] = v[m1, m2, m0]
            conv = _inverse_corner(np.fft.rfftn(u, s=lengths, axes=axes) * p_hat, lengths, size)
            new = base[i] + conv
            new[0, :, :] = new[:, 0, :] = new[:, :, 0] = 0.0
            np.clip(new, 0.0, 1.0, out=new)
            change = max(change, float(np.abs(new - v[i]).max()))
            v[i] = new
    gap = float(np.abs(v[:, 1:, 1:, 1:].sum(axis=0) - 1.0).max())
    return v, rounds, gap


# --------------------------------------------------------------------------- the build


@dataclass
class OddsTable3:
    """The three-player win-odds table and how it was made.

    ``p`` float64 (3, 122, 122, 122): ``p[i, n0, n1, n2]`` the chance of the player ``i`` places
    left of the dealer (0 the dealer) when the dealer needs ``n0``, his left ``n1`` and the third
    ``n2`` at the start of a deal (0 wherever a need is 0); ``se`` its standard error
    (delete-one-group jackknife over :data:`GROUPS` groups); ``sum_gap`` the largest ``|p[0] +
    p[1] + p[2] - 1|``; ``rounds`` the rounds of the whole table's solve.
    """

    p: np.ndarray
    se: np.ndarray
    deals: int
    seed: int
    players: str
    elapsed_seconds: float
    solve_seconds: float
    sum_gap: float
    rounds: int
    mean_points: tuple[float, float, float]  # per deal: the dealer, his left, the third
    commit: str | None = None  # the source's git commit when the build started
    variant: str = VARIANT

    @property
    def max_se(self) -> float:
        return float(self.se[:, 1:, 1:, 1:].max())

    def save(self, path: str | os.PathLike, command: str = "",
             overwrite_shipped: bool = False) -> list[Path]:
        """Write the table to ``path`` (``.npz``: the probabilities and errors quantized to 16
        bits, :func:`analyzer.keeping.winodds.pack_odds_table3`) and its provenance beside it
        (``.json``), atomically. Refuses (``FileExistsError``) to write into the package's own
        data folder unless ``overwrite_shipped``. Returns the paths written."""
        path = Path(path)
        if not overwrite_shipped and is_shipped_folder(path.parent):
            raise FileExistsError(f"{path.parent} is the package's own data folder: the shipped "
                                  "tables are not overwritten without overwrite_shipped=True")
        packed = pack_odds_table3(self.p, self.se)
        target = self.p.shape[1] - 1

        def write(tmp: Path) -> None:
            with open(tmp, "wb") as f:
                np.savez_compressed(f, **packed)

        provenance = {
            "package_version": package_version(),
            "command": command or f"analyzer.research.odds3.build_odds_table3(deals={self.deals}, "
                                  f"seed={self.seed})",
            "variant": self.variant,
            "seed": self.seed,
            "deals": self.deals,
            "games": None,
            "players": self.players,
            "what": f"P(each player wins the {target}-point three-player game) at the start of a "
                    "deal, by the points the dealer, the player on his left and the third need, "
                    "from self-play deals made consistent by dynamic programming",
            "layout": "p uint16 (3, 121, 121, 121), [i, n0-1, n1-1, n2-1], i counting from the "
                      "dealer to the left: the probability times 65535, differenced along axes "
                      "1, 2, 3 in turn (wrapping); se uint8 likewise differenced: 0 for 0, k "
                      "for se_unit * 1.05**(k-1); see analyzer.keeping.winodds.read_odds_table3",
            "method": "per-deal reach tallies along the order points arrive (heels, the play, "
                      "the hands from the dealer's left round to the dealer, the crib) and deal "
                      "totals; V[i,n] = W[i,n]/N + sum_{x<n} H[x]/N V[i-1, n1-x1, n2-x2, n0-x0], "
                      f"by FFT convolution in rounds until no entry changes by {TOLERANCE:g}",
            "se": f"delete-one-group jackknife over {GROUPS} groups of chunks",
            "max_se": self.max_se,
            "p_at_0_0_0": [float(x) for x in self.p[:, target, target, target]],
            "max_abs_sum_minus_1": self.sum_gap,
            "rounds": self.rounds,
            "mean_points_per_deal": dict(zip(("dealer", "left", "third"), self.mean_points,
                                             strict=True)),
            "elapsed_seconds": self.elapsed_seconds,
            "solve_seconds": self.solve_seconds,
            "git_commit": self.commit,
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
            "file": path.name,
        }
        meta = json.dumps(provenance, indent=2) + "\n"
        atomic_write_all([(path, write),
                          (path.with_suffix(".json"), lambda tmp: tmp.write_text(meta))])
        return [path, path.with_suffix(".json")]


def _jackknife3(t: dict[str, np.ndarray], groups: list[int], w_total: np.ndarray,
                h_total: np.ndarray, p: np.ndarray, threads: int, progress=None) -> np.ndarray:
    """The delete-one-group jackknife's standard errors of ``p`` (see the module): the table
    solved again without each of ``groups`` (those of ``t`` that have deals), each solve
    started from ``p``.

    The solves run ``threads`` at a time (at most :data:`SOLVE_THREADS`: each holds about a
    quarter of a gigabyte of transforms), numpy's FFT letting go of the GIL; their differences
    from ``p`` are summed in the order of the groups, so the errors are the same, bit for bit,
    whatever the threads. ``progress(solves done, solves)`` after each batch."""
    k = len(groups)
    dev = np.zeros_like(p)  # sums over the replicates of their difference from p
    dev2 = np.zeros_like(p)  # and of its square
    threads = max(1, min(threads, SOLVE_THREADS))
    for lo in range(0, k, threads):
        batch = groups[lo:lo + threads]
        replicates: list = [None] * len(batch)

        def run(b, batch=batch, replicates=replicates):
            g = batch[b]
            replicates[b] = solve3(w_total - t["w"][g], h_total - t["h"][g], start=p)[0]

        on_threads(run, len(batch), threads)
        for r in replicates:
            r -= p
            dev += r
            dev2 += r * r
        if progress is not None:
            progress(lo + len(batch), k)
    return np.sqrt(np.maximum((k - 1) / k * (dev2 - dev * dev / k), 0.0))


def build_odds_table3(deals: int, seed: int = 0, workers: int | None = None,
                      players: str = DEFAULT_PLAYER, progress=None,
                      jackknife: bool = True, needs: int = 121,
                      solve_progress=None) -> OddsTable3:
    """Build the three-player win-odds table from ``deals`` self-play deals (see the module).

    Parameters
    ----------
    deals
        How many deals, 1,024 to 10^9.
    seed
        0 to 2**63 - 1; the same seed gives the same table whatever ``workers``.
    workers
        Threads for the deals and for the jackknife's solves (default: the cores; the solves
        at most :data:`SOLVE_THREADS` at once).
    players
        The player in every seat, ``"DISCARD+PEGGING"``; it must not look at the score (none of
        the engine's players does in three-player).
    progress
        Called as ``progress(deals done, deals)`` after each block of chunks.
    jackknife
        Whether to estimate the standard errors (32 more solves); without, ``se`` is NaN.
    needs
        Solve only the states where every seat needs at most this (1 to 121): the tables are
        then ``(3, needs + 1, needs + 1, needs + 1)``, equal to the whole table's corner
        (:func:`corner`), and each solve, and the summing of the tallies, is quicker by about
        ``(122 / (needs + 1)) ** 3``.
    solve_progress
        Called as ``solve_progress(solves done, solves)`` once the deals are tallied, with none
        done, then after the whole table's solve and after each batch of the jackknife's (1
        solve without the jackknife, 33 with it).

    Returns
    -------
    OddsTable3

    Examples
    --------
    >>> t = build_odds_table3(2_000, seed=1, jackknife=False, needs=40)
    >>> bool(t.p[0, 1, 40, 40] > 0.99), t.sum_gap < 1e-9
    (True, True)
    """
    deals = check_number("deals", deals, low=GROUPS * GROUPS, high=MAX_DEALS, integer=True)
    needs = check_number("needs", needs, low=1, high=rules.GAME_POINTS, integer=True)
    commit = git_commit()
    start = time.perf_counter()
    t = tally_deals3(deals, seed, workers, players, progress, needs)
    w_total = t["w"].sum(axis=0, dtype=np.int64)
    h_total = t["h"].sum(axis=0, dtype=np.int64)
    groups = [g for g in range(GROUPS) if t["h"][g].any()] if jackknife else []
    solves = 1 + len(groups)
    if solve_progress is not None:
        solve_progress(0, solves)
    solving = time.perf_counter()
    p, rounds, gap = solve3(w_total, h_total)
    solve_seconds = time.perf_counter() - solving
    if solve_progress is not None:
        solve_progress(1, solves)
    if jackknife:
        se = _jackknife3(t, groups, w_total, h_total, p, resolve_workers(workers),
                         None if solve_progress is None
                         else lambda done, n: solve_progress(1 + done, 1 + n))
    else:
        se = np.full_like(p, np.nan)
    se[:, 0, :, :] = se[:, :, 0, :] = se[:, :, :, 0] = 0.0
    n = h_total.sum()
    ticks = np.arange(h_total.shape[0])
    mean_points = tuple(float((h_total.sum(axis=tuple(a for a in range(3) if a != s)) * ticks)
                              .sum() / n) for s in range(3))
    return OddsTable3(p, se, deals, seed, players, time.perf_counter() - start, solve_seconds,
                      gap, rounds, mean_points, commit)


def play_from_score3(scores, dealer: int, games: int, seed: int = 0,
                     workers: int | None = None, players: str = DEFAULT_PLAYER) -> dict:
    """Play ``games`` whole three-player games from ``scores`` (by seat 0, 1, 2; 0..120 each),
    seat ``dealer`` dealing first, by the engine's steps (the deal passing to the left, a game
    stopping the moment a seat reaches 121), and count each seat's wins: a direct Monte Carlo
    check of the table. Returns ``{"wins", "games", "p", "se"}``, the last three by seat
    (``se`` binomial). Same seed, same result, whatever ``workers``.

    Examples
    --------
    >>> r = play_from_score3((110, 100, 90), dealer=2, games=100, seed=1)
    >>> sum(r["wins"])
    100
    """
    _state3(scores, dealer)
    games = check_number("games", games, low=1, high=MAX_GAMES, integer=True)
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    # the engine's seat k is the seat k places left of the dealer
    start = np.array([scores[(dealer + k) % 3] for k in range(3)], np.int64)
    by_place = _games_by_side(start, games, seed, workers, players, VARIANT)
    wins = [int(by_place[(s - dealer) % 3]) for s in range(3)]
    p = [w / games for w in wins]
    return {"wins": wins, "games": games, "p": p,
            "se": [float(np.sqrt(q * (1 - q) / games)) for q in p]}
