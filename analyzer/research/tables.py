"""Crib-value tables by self-play, discard tables for every hand, and the comparison with Schell.

**Self-play crib tables** (:func:`build_crib_table`). The value of two cards thrown to a crib
depends on what the other player throws with them, so the table is built from deals in which both
players discard with the ``ev`` policy using the table itself. Start from the exact
uniform-opponent values ``v0``; at iteration ``k`` (from 0) simulate ``deals`` deals (six cards
each, a starter), record every crib by the kind of throw (rank pair, suited or not) and the
thrower's role, and move each value toward the mean crib observed, ``T(v)``, by the step
``1 / (k + 1)``: ``v[k+1] = v[k] + (T(v[k]) - v[k]) / (k + 1)``. The first step replaces the
uniform values outright; later steps average the tables measured so far (fictitious play), which
damps the two-cycles that plain replacement falls into (a throw that looks cheap is thrown more,
measures dearer, is thrown less...). Stop when no entry moves by more than ``tol``. Every iteration
plays the same deals (one seed: common random numbers), so the only change between iterations is the
change of the policy. The result reports the self-consistency gap ``max |T(v) - v|`` at the end,
over all entries and over entries resting on at least 1,000 cribs. A kind of throw that self-play
never makes in a role keeps its previous value, with a count of 0.

**Discard tables** (:func:`build_discard_table`): the best keep, its hand mean and net for each
role, for every distinct six-card hand up to suit symmetry (all 20,358,520 hands reduced by
permuting suits), and a rank-only summary.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from importlib.resources.abc import Traversable
from pathlib import Path

import numpy as np

from ..core.cards import RANK_LABELS, RANKS, SUITS, rank_label_index
from ..core.choices import (
    CRIB_TABLE_DEALS,
    CRIB_TABLE_MAX_ITERATIONS,
    CRIB_TABLE_TOL,
    DISCARD_POLICIES,
    MAX_DEALS,
    MAX_ITERATIONS,
    MAX_SEED,
    check_frame,
    check_number,
    numba_threads,
    on_threads,
    over_ranges,
    resolve_workers,
)
from ..core.files import atomic_write_all
from ..core.jit import njit
from ..core.rng import _shuffle_prefix, chunk_states
from ..core.rules import MAX_SHOW_SCORE
from ..core.scoring import _score_one, _throw_key, hand3_table, hand_table, rank_table
from ..core.version import git_commit, package_version
from ..keeping.crib import (
    CARD_TABLE_COLUMNS,
    CRIB_TABLE_COLUMNS,
    RANK_FILE,
    _throw_kinds,
    crib_values,
    is_shipped_folder,
    shipped_file,
    table_file,
)
from ..keeping.discard import _DISCARD_TABLE, _KEEP_TABLE
from ..play.engine import CRIB_ACC_SHAPE, CRIB_STAT, _add_crib_outcome
from ..play.players import (
    _THROW_TWO_OF_FIVE,
    _choose_discard,
    _choose_keep3,
    _choose_throw,
    _hand_total,
    _unseen_counts,
)

__all__ = [
    "CribTableResult",
    "build_crib_table",
    "build_discard_table",
    "compare_crib_tables",
    "load_rank_table",
]

_EV = DISCARD_POLICIES["ev"]


# --------------------------------------------------------------------------- self-play


@njit(cache=True, nogil=True)
def _selfplay_cribs(st, n_deals, values, table, hands, acc):
    """Deal, discard with ``ev`` on both sides, and tally the crib by throw and role: one chunk
    of ``n_deals`` deals from generator state ``st`` (advanced in place).

    ``values`` the crib-value table the players use; ``table`` and ``hands`` the rank table and
    the hand table (:func:`analyzer.core.scoring.hand_table`); ``acc`` int64 (CRIB_ACC_SHAPE),
    zeroed: ``[role, r1, r2, suited] -> (count, sum, sum of squares)`` of the crib score.
    Chunks run on threads (:func:`build_crib_table`), as the GIL is released.
    """
    ev, deck = np.int64(_EV), np.arange(52, dtype=np.int64)
    for _ in range(n_deals):
        _shuffle_prefix(st, deck, np.int64(13))
        dd = _choose_discard(ev, deck[0:6], np.bool_(True), values, hands, st)
        dp = _choose_discard(ev, deck[6:12], np.bool_(False), values, hands, st)
        a = deck[_DISCARD_TABLE[dd][0]]
        c = deck[_DISCARD_TABLE[dd][1]]
        e = deck[6 + _DISCARD_TABLE[dp][0]]
        f = deck[6 + _DISCARD_TABLE[dp][1]]
        points = _score_one(a, c, e, f, deck[12], True, table)
        _add_crib_outcome(acc, 0, a, c, points)
        _add_crib_outcome(acc, 1, e, f, points)


@njit(cache=True, nogil=True)
def _selfplay_cribs_five(st, n_deals, values, table, hands3, acc):
    """:func:`_selfplay_cribs` for five-card cribbage: five cards each, both keep three with
    ``ev`` (``hands3`` the three-card hand table), the four thrown and the starter the crib."""
    ev, deck = np.int64(_EV), np.arange(52, dtype=np.int64)
    for _ in range(n_deals):
        _shuffle_prefix(st, deck, np.int64(11))
        dd = _choose_keep3(ev, deck[0:5], np.bool_(True), values, hands3, st)
        dp = _choose_keep3(ev, deck[5:10], np.bool_(False), values, hands3, st)
        a = deck[_THROW_TWO_OF_FIVE[dd][0]]
        c = deck[_THROW_TWO_OF_FIVE[dd][1]]
        e = deck[5 + _THROW_TWO_OF_FIVE[dp][0]]
        f = deck[5 + _THROW_TWO_OF_FIVE[dp][1]]
        points = _score_one(a, c, e, f, deck[10], True, table)
        _add_crib_outcome(acc, 0, a, c, points)
        _add_crib_outcome(acc, 1, e, f, points)


@njit(cache=True, nogil=True)
def _selfplay_cards(st, n_deals, n_players, sides, from_pack, card_values, table, hands, acc):
    """Deal five cards to each of ``n_players`` (and ``from_pack`` cards to the crib), each
    throws one with ``ev`` valuing it by ``card_values`` (2, 13); tally the crib by the card's
    rank and whose crib it was: ``acc`` int64 (2, 13, CRIB_STAT.size), role 0 the thrower's
    side's crib (seat 0 deals), 1 another's. One chunk, as :func:`_selfplay_cribs`."""
    ev, deck = np.int64(_EV), np.arange(52, dtype=np.int64)
    crib = np.empty(4, np.int64)
    for _ in range(n_deals):
        _shuffle_prefix(st, deck, np.int64(5 * n_players + from_pack + 1))
        for p in range(n_players):
            d = _choose_throw(ev, deck[5 * p:5 * p + 5], p % sides == 0, card_values, hands, st)
            crib[p] = deck[5 * p + d]
        for i in range(from_pack):
            crib[n_players + i] = deck[5 * n_players + i]
        points = _score_one(crib[0], crib[1], crib[2], crib[3],
                            deck[5 * n_players + from_pack], True, table)
        for p in range(n_players):
            role = 0 if p % sides == 0 else 1
            r = crib[p] >> 2
            acc[role, r, CRIB_STAT.n] += 1
            acc[role, r, CRIB_STAT.sum] += points
            acc[role, r, CRIB_STAT.sumsq] += points * points


@dataclass
class CribTableResult:
    """A self-play crib table and how it was made.

    ``mean``, ``se`` float64 and ``n`` int64 are ``(2, 13, 13, 2)`` ``[role, r1, r2, suited]``
    (role 0: thrown into one's own crib as dealer; 1: into the opponent's as pone) for the forms
    that throw two cards (six-card, five-card), and ``(2, 13)`` ``[role, rank]`` for those that
    throw one (three and four players; role 0: into one's own side's crib).
    ``deltas`` holds the largest change of any entry at each iteration.
    """

    mean: np.ndarray
    se: np.ndarray
    n: np.ndarray
    deals: int
    seed: int
    tol: float
    deltas: list[float] = field(default_factory=list)
    converged: bool = False
    elapsed_seconds: float = 0.0
    #: The self-consistency gap max |T(v) - v| at the last iteration: over all entries, and over
    #: entries resting on at least 1,000 cribs (NaN when none does).
    gaps: tuple[float, float] = (math.nan, math.nan)
    variant: str = "six-card"

    @property
    def iterations(self) -> int:
        return len(self.deltas)

    def _check_throw(self, one: bool) -> None:
        """:class:`ValueError` for a table of the other kind of throw than the one asked."""
        if one and self.mean.ndim != 2:
            raise ValueError(f"{self.variant} throws two cards to the crib: its tables are "
                             "table (a row per kind of throw) and rank_table, not card_table")
        if not one and self.mean.ndim == 2:
            raise ValueError(f"{self.variant} throws one card to the crib: its table is "
                             "card_table (a row per rank), not table or rank_table")

    @property
    def card_table(self):
        """The one-card table (three and four players): a row per rank, ``card`` and for each
        role (``own``: the crib is one's side's; ``other``) the mean crib, its standard error and
        the count: the columns of ``crib_values_<variant>.csv``."""
        import pandas as pd

        self._check_throw(one=True)
        rows = [[RANK_LABELS[r]] + [x for role in (0, 1) for x in
                                    (self.mean[role, r], self.se[role, r], int(self.n[role, r]))]
                for r in range(13)]
        return pd.DataFrame(rows, columns=list(CARD_TABLE_COLUMNS))

    @property
    def table(self):
        """The full table: one row per kind of throw (169), the columns of ``crib_values.csv``
        (the forms that throw two cards; :attr:`card_table` for the others)."""
        import pandas as pd

        self._check_throw(one=False)
        rows = []
        for r1, r2, s in _throw_kinds().tolist():
            row = [RANK_LABELS[r1], RANK_LABELS[r2], s]
            for role in (0, 1):
                row += [self.mean[role, r1, r2, s], self.se[role, r1, r2, s],
                        int(self.n[role, r1, r2, s])]
            rows.append(row)
        return pd.DataFrame(rows, columns=list(CRIB_TABLE_COLUMNS))

    @property
    def rank_table(self):
        """Rank-only values (91 rows, ``card1, card2, dealer, pone``): suited and unsuited throws
        of a rank pair pooled, weighted by how often each was thrown (the forms that throw two
        cards; :attr:`card_table` for the others)."""
        import pandas as pd

        self._check_throw(one=False)
        rows = []
        for r1 in range(13):
            for r2 in range(r1, 13):
                row = [RANK_LABELS[r1], RANK_LABELS[r2]]
                for role in (0, 1):
                    n = self.n[role, r1, r2, :].astype(float)
                    if r1 == r2:
                        n = np.array([n[0], 0.0])
                    m = self.mean[role, r1, r2, :]
                    row.append(float((n * m).sum() / n.sum()) if n.sum() else float(m[0]))
                rows.append(row)
        return pd.DataFrame(rows, columns=["card1", "card2", "dealer", "pone"])

    def save(self, out_dir: str | os.PathLike, command: str = "", *,
             overwrite_shipped: bool = False) -> list[Path]:
        """Write ``crib_values.csv`` and ``crib_values_rank.csv`` (other forms:
        ``crib_values_<variant>.csv``, and for five-card its ``_rank`` table), each with a JSON
        provenance file, atomically, to ``out_dir``. Returns the paths written.

        Refuses (``FileExistsError``, nothing written) to write into the package's own data
        folder, over the shipped tables, unless ``overwrite_shipped`` is true.
        """
        out = Path(out_dir)
        if not overwrite_shipped and is_shipped_folder(out):
            raise FileExistsError(f"{out} is the package's own data folder: the shipped tables "
                                  "are not overwritten without overwrite_shipped=True")
        out.mkdir(parents=True, exist_ok=True)
        provenance = {
            "package_version": package_version(),
            "command": command,
            "seed": self.seed,
            "deals": self.deals,
            "games": None,
            "policies": "ev+ev discards on both sides, using the table being built",
            "method": "fictitious-play iteration from the uniform-opponent table, v += "
                      "(measured - v) / (k + 1) at iteration k; the same deals every iteration",
            "tol": self.tol,
            "iterations": self.iterations,
            "max_change_per_iteration": self.deltas,
            "converged": self.converged,
            "self_consistency_gap": {"all_entries": self.gaps[0],
                                     "entries_with_1000_cribs_or_more":
                                         None if math.isnan(self.gaps[1]) else self.gaps[1]},
            "elapsed_seconds": self.elapsed_seconds,
            "git_commit": git_commit(),
            "date": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        provenance["variant"] = self.variant
        if self.mean.ndim == 2:
            files = ((table_file(self.variant), self.card_table),)
            provenance["policies"] = ("ev on every seat, the one card thrown valued by the table "
                                      "being built")
        else:
            files = ((table_file(self.variant), self.table),
                     (table_file(self.variant, rank=True), self.rank_table))
        items = []
        for name, df in files:
            text = json.dumps({**provenance, "file": name}, indent=2) + "\n"
            items += [(out / name, lambda tmp, df=df: df.to_csv(tmp, index=False,
                                                               float_format="%.6f")),
                      ((out / name).with_suffix(".json"), lambda tmp, t=text: tmp.write_text(t))]
        atomic_write_all(items)  # the tables and their provenance: all or none
        return [path for path, _ in items]


def build_crib_table(deals: int = CRIB_TABLE_DEALS, seed: int = 0, tol: float = CRIB_TABLE_TOL,
                     max_iterations: int = CRIB_TABLE_MAX_ITERATIONS, workers: int | None = None,
                     chunk_size: int = 50_000, progress=None,
                     variant: str = "six-card") -> CribTableResult:
    """Build the self-play crib-value table of a form of the game (see the module docstring).

    Parameters
    ----------
    deals
        Deals simulated per iteration, 1 to 10**9.
    seed
        Seed of the deals (the same deals every iteration), 0 to 2**63 - 1. Same seed, same
        table, whatever ``workers``.
    tol
        Stop when no entry moves by more than this: a finite number above 0.
    max_iterations
        Stop after this many iterations (1 to 10,000) even if not converged
        (``result.converged`` says).
    workers
        Threads; default all cores.
    progress
        Optional callable ``progress(iteration, delta)`` called after each iteration.
    variant
        The form (:data:`analyzer.core.game.VARIANTS`). Six-card and five-card tables value the pair
        thrown, by ranks, suitedness and whose crib; three- and four-player tables the one card
        thrown, by rank and whose crib (the thrower's side's or another's). Each starts from the
        exact uniform values and plays its own form's deals with ``ev`` in every seat.

    Examples
    --------
    >>> result = build_crib_table(deals=20_000, seed=1, max_iterations=2)
    >>> result.iterations, int(result.table["dealer_n"].sum())  # one dealer throw per deal
    (2, 20000)
    """
    from ..core.choices import variant_game
    from ..keeping.crib import card_values

    game = variant_game(variant)
    deals = check_number("deals", deals, low=1, high=MAX_DEALS, integer=True)
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    tol = check_number("tol", tol, low=0, low_open=True)
    max_iterations = check_number("max_iterations", max_iterations, low=1, high=MAX_ITERATIONS,
                                  integer=True)
    chunk_size = check_number("chunk_size", chunk_size, low=1, integer=True)
    workers = resolve_workers(workers)
    n_chunks = -(-deals // chunk_size)
    states = chunk_states(seed, n_chunks)
    sizes = np.full(n_chunks, chunk_size, np.int64)
    sizes[-1] = deals - chunk_size * (n_chunks - 1)
    table = rank_table()
    if game.thrown == 1:
        values = np.array(card_values("uniform", variant))  # a writable copy
        shape = (n_chunks, 2, 13, CRIB_STAT.size)

        def chunk(c, v, acc):
            _selfplay_cards(states[c].copy(), sizes[c], game.players, game.teams,
                            game.crib_from_pack, v, table, hands, acc[c])
    else:
        values = np.array(crib_values("uniform"))
        shape = (n_chunks, *CRIB_ACC_SHAPE)
        selfplay = _selfplay_cribs_five if game.kept == 3 else _selfplay_cribs

        def chunk(c, v, acc):
            selfplay(states[c].copy(), sizes[c], v, table, hands, acc[c])
    hands = hand3_table() if game.kept == 3 and game.thrown != 1 else hand_table()

    def run(v, acc):
        v = v.view()
        v.flags.writeable = False  # read-only, as the shipped tables the players read: one version
        on_threads(lambda c: chunk(c, v, acc), n_chunks, workers)

    pairs = values.ndim == 4
    deltas: list[float] = []
    start = time.perf_counter()
    converged = False
    for _ in range(max_iterations):
        acc = np.zeros(shape, np.int64)
        run(values, acc)
        total = acc.sum(axis=0)
        n = total[..., CRIB_STAT.n]
        s = total[..., CRIB_STAT.sum].astype(float)
        ss = total[..., CRIB_STAT.sumsq].astype(float)
        if pairs:
            n, s, ss = _symmetric(n), _symmetric(s), _symmetric(ss)
        measured = np.where(n > 0, s / np.maximum(n, 1), values)
        if pairs:
            measured[:, range(13), range(13), 1] = measured[:, range(13), range(13), 0]
        gap = np.abs(measured - values)
        step = (measured - values) / (len(deltas) + 1)
        delta = float(np.abs(step).max())
        deltas.append(delta)
        # NaN when no entry rests on 1,000 cribs (a small build): no gap there to measure
        gaps = (float(gap.max()), float(gap[n >= 1000].max()) if (n >= 1000).any()
                else math.nan)
        values = values + step
        if progress is not None:
            progress(len(deltas), delta)
        if delta <= tol:
            converged = True
            break
    with np.errstate(invalid="ignore", divide="ignore"):
        var = (ss - n * values**2) / (n - 1)
        se = np.where(n > 1, np.sqrt(np.maximum(var, 0) / np.maximum(n, 1)), np.nan)
    if pairs:
        n[:, range(13), range(13), 1] = 0
    return CribTableResult(values, se, n, int(deals), int(seed), float(tol), deltas, converged,
                           time.perf_counter() - start, gaps, variant)


def _symmetric(a: np.ndarray) -> np.ndarray:
    """Fill ``[.., r2, r1, ..]`` from the ``r1 <= r2`` tallies (the kernels store r1 <= r2)."""
    out = a.copy()
    lower = np.tril_indices(13, -1)
    out[:, lower[0], lower[1], :] = a[:, lower[1], lower[0], :]
    return out


# --------------------------------------------------------------------------- comparison


RANK_TABLE_COLUMNS = ("card1", "card2", "dealer", "pone")
#: Rank pairs of a complete rank-only table: 13 pairs of a rank and 78 of two ranks.
RANK_PAIRS = 91


def load_rank_table(path: str | os.PathLike | Traversable | None = None,
                    complete: bool = False):
    """A rank-only crib table CSV (``card1, card2, dealer, pone``) as a DataFrame, ranks as
    ``A 2 .. 10 J Q K``, one row per rank pair with ``card1`` the lower rank.

    Without ``path``, the project's shipped self-play table ``crib_values_rank.csv``.
    The file is checked as it is read, and :class:`ValueError` names the file, the line and what
    is wrong: bytes that are not UTF-8 text, a missing or duplicated column, an unknown rank, a
    value that is not a finite number or not a crib's points (0 to 29), a rank pair given twice
    (``A,5`` and ``5,A`` are the same pair), no rows at all, or (with ``complete``) fewer than
    all 91 rank pairs. Other columns are ignored.

    Examples
    --------
    >>> table = load_rank_table()
    >>> len(table), list(table.columns)
    (91, ['card1', 'card2', 'dealer', 'pone'])
    """
    import csv
    import io

    import pandas as pd

    from ..core.cards import CardError

    if path is None:
        path = shipped_file(RANK_FILE)
    elif isinstance(path, str | os.PathLike):
        path = Path(path)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start} is "
                         f"{data[exc.start]:#04x})") from None
    try:
        rows = list(csv.reader(io.StringIO(text, newline="")))
    except csv.Error as exc:
        raise ValueError(f"{path}: not a CSV file ({exc})") from None
    rows = [(n, row) for n, row in enumerate(rows, start=1) if any(c.strip() for c in row)]
    if not rows:
        raise ValueError(f"{path}: empty, expected the columns {', '.join(RANK_TABLE_COLUMNS)}")
    header = [c.strip() for c in rows[0][1]]
    for name in RANK_TABLE_COLUMNS:
        if header.count(name) != 1:
            raise ValueError(f"{path}: column {name} is " + ("missing" if name not in header
                             else "given twice") + f" (columns {', '.join(RANK_TABLE_COLUMNS)})")
    where = [header.index(name) for name in RANK_TABLE_COLUMNS]
    seen: dict[tuple[int, int], int] = {}
    out: dict[str, list] = {name: [] for name in RANK_TABLE_COLUMNS}
    for n, row in rows[1:]:
        if len(row) != len(header):
            raise ValueError(f"{path}:{n}: {len(row)} fields, the header has {len(header)}")
        try:
            a, b = sorted(rank_label_index(row[i]) for i in where[:2])
        except CardError as exc:
            raise ValueError(f"{path}:{n}: {exc}") from None
        if (a, b) in seen:
            raise ValueError(f"{path}:{n}: the rank pair {RANK_LABELS[a]}-{RANK_LABELS[b]} "
                             f"is given twice (line {seen[a, b]})")
        seen[a, b] = n
        out["card1"].append(RANK_LABELS[a])
        out["card2"].append(RANK_LABELS[b])
        for name, i in zip(("dealer", "pone"), where[2:], strict=True):
            try:
                value = float(row[i])
            except ValueError:
                raise ValueError(f"{path}:{n}: {name} {row[i].strip()[:20]!r} is not a "
                                 "number") from None
            if not math.isfinite(value):
                raise ValueError(f"{path}:{n}: {name} is {row[i].strip()}, not a finite number")
            if not 0 <= value <= MAX_SHOW_SCORE:  # a mean of crib scores, each 0 to 29
                raise ValueError(f"{path}:{n}: {name} is {row[i].strip()}, not a crib's "
                                 f"points (0 to {MAX_SHOW_SCORE})")
            out[name].append(value)
    if not seen:
        raise ValueError(f"{path}: no rows, only the header")
    if complete and len(seen) < RANK_PAIRS:
        lack = next(f"{RANK_LABELS[a]}-{RANK_LABELS[b]}" for a in range(13)
                    for b in range(a, 13) if (a, b) not in seen)
        raise ValueError(f"{path}: {len(seen)} of the {RANK_PAIRS} rank pairs, {lack} missing "
                         "(a complete table is needed)")
    return pd.DataFrame(out)


def compare_crib_tables(ours, reference, top: int = 10) -> dict:
    """Compare two rank-only crib tables (``card1, card2, dealer, pone``).

    The comparison is over the reference's rank pairs, all of which ``ours`` must hold
    (:class:`ValueError` names the first missing); ``"pairs"`` says how many were compared.

    Returns ``{"pairs": n, "mean_abs_diff": {"dealer", "pone"}, "max_abs_diff": {...},
    "biggest": DataFrame}``: the per-role mean and largest absolute difference (ours minus
    reference), and the ``top`` biggest differences.
    """
    top = check_number("top", top, low=1, integer=True)
    for name, table in (("ours", ours), ("the reference", reference)):
        check_frame(f"{name} (a rank-only crib table)", table,
                    ["card1", "card2", "dealer", "pone"], rows=name == "the reference")
    merged = reference.merge(ours, on=["card1", "card2"], how="left", suffixes=("_ref", ""),
                             indicator=True)
    lacking = merged[merged["_merge"] != "both"]
    if len(lacking):
        first = lacking.iloc[0]
        raise ValueError(f"the table lacks {len(lacking)} of the reference's {len(reference)} "
                         f"rank pairs, e.g. {first['card1']}-{first['card2']}")
    merged = merged[["card1", "card2", "dealer", "pone", "dealer_ref", "pone_ref"]]
    out = {"pairs": len(merged), "mean_abs_diff": {}, "max_abs_diff": {}}
    for role in ("dealer", "pone"):
        merged[f"{role}_diff"] = merged[role] - merged[f"{role}_ref"]
        out["mean_abs_diff"][role] = float(merged[f"{role}_diff"].abs().mean())
        out["max_abs_diff"][role] = float(merged[f"{role}_diff"].abs().max())
    merged["biggest"] = merged[["dealer_diff", "pone_diff"]].abs().max(axis=1)
    out["biggest"] = merged.sort_values("biggest", ascending=False, kind="stable").head(
        top).drop(columns="biggest").reset_index(drop=True)
    return out


# --------------------------------------------------------------------------- discard tables


_SUIT_PERMS = np.array(list(itertools.permutations(range(4))), np.int64)
_SUIT_BITS = np.uint64(sum(1 << (4 * r) for r in range(13)))


@njit(cache=True)
def _image(mask, perm, suit_bits):
    """The 52-bit hand ``mask`` with suit s relabelled perm[s]."""
    out = np.uint64(0)
    for s in range(4):
        out |= ((mask >> np.uint64(s)) & suit_bits) << np.uint64(perm[s])
    return out


@njit(cache=True)
def _canonical_in(a, b, perms, suit_bits, out_cards, out_mult, start):
    """Canonical six-card hands whose two lowest cards are ``a < b``; returns how many.

    A hand is canonical when its card mask is the smallest of its 24 suit relabellings; its
    multiplicity is the number of distinct relabellings (how many of all hands it stands for).
    The hands come in increasing order of their cards. Writes each hand's cards (ascending) to
    ``out_cards`` uint8 (n, 6) and its multiplicity to ``out_mult`` from row ``start``, when
    ``out_cards`` has rows (a first pass only counts).
    """
    count = 0
    write = out_cards.shape[0] > 0
    for c in range(b + 1, 52):
        for d in range(c + 1, 52):
            for e in range(d + 1, 52):
                for f in range(e + 1, 52):
                    mask = ((np.uint64(1) << np.uint64(a)) | (np.uint64(1) << np.uint64(b))
                            | (np.uint64(1) << np.uint64(c)) | (np.uint64(1) << np.uint64(d))
                            | (np.uint64(1) << np.uint64(e)) | (np.uint64(1) << np.uint64(f)))
                    fixed = 0
                    canonical = True
                    for p in range(24):
                        img = _image(mask, perms[p], suit_bits)
                        if img < mask:
                            canonical = False
                            break
                        if img == mask:
                            fixed += 1
                    if canonical:
                        if write:
                            row = out_cards[start + count]
                            row[0], row[1], row[2], row[3], row[4], row[5] = a, b, c, d, e, f
                            out_mult[start + count] = 24 // fixed
                        count += 1
    return count


@njit(cache=True, nogil=True)
def _canonical_hands(lo, hi, pairs, perms, suit_bits, counts, offsets, out_cards, out_mult):
    """Both passes over the (a, b) prefixes ``lo`` to ``hi - 1`` in ``pairs`` int64 (P, 2):
    count, or write (run over ranges on threads: :func:`analyzer.core.choices.over_ranges`)."""
    for i in range(lo, hi):
        counts[i] = _canonical_in(pairs[i, 0], pairs[i, 1], perms, suit_bits, out_cards,
                                  out_mult, offsets[i])


@njit(cache=True, nogil=True)
def _best_keeps(lo, hi, cards, values, hands, best_d, best_hand, best_net):
    """For each hand ``lo`` to ``hi - 1`` (a row of ``cards`` uint8 (n, 6), ascending), the best
    discard for each role (run over ranges on threads).

    Writes ``best_d`` int8 (n, 2), ``best_hand`` and ``best_net`` float64 (n, 2), role 0 dealer
    and 1 pone; ``values`` is the crib-value table, ``hands`` the hand table
    (:func:`analyzer.core.scoring.hand_table`). Ties go to the first discard.
    """
    for i in range(lo, hi):
        six = np.empty(6, np.int64)
        for j in range(6):
            six[j] = cards[i, j]
        unseen = _unseen_counts(six)
        for role in range(2):
            best_net[i, role] = -1e300
        for d in range(15):
            keep = _KEEP_TABLE[d]
            hand = _hand_total(six[keep[0]], six[keep[1]], six[keep[2]], six[keep[3]], unseen,
                               46, hands) / 46.0
            r1, r2, suited = _throw_key(six[_DISCARD_TABLE[d][0]], six[_DISCARD_TABLE[d][1]])
            for role in range(2):
                v = values[role, r1, r2, suited]
                net = hand + v if role == 0 else hand - v
                if net > best_net[i, role]:
                    best_net[i, role] = net
                    best_hand[i, role] = hand
                    best_d[i, role] = d


def _prefix_pairs() -> np.ndarray:
    """(a, b) prefixes of six-card hands, heavy and light interleaved to balance the threads."""
    pairs = [(a, b) for a in range(47) for b in range(a + 1, 48)]
    pairs.sort(key=lambda p: -math.comb(51 - p[1], 4))
    order = []
    lo, hi = 0, len(pairs) - 1
    while lo <= hi:
        order.append(pairs[lo])
        if lo != hi:
            order.append(pairs[hi])
        lo, hi = lo + 1, hi - 1
    return np.array(order, np.int64)


#: The fewest hands the discard table's kernels give a thread (a microsecond or less a hand).
_HANDS_A_RANGE = 4096


def canonical_hands() -> tuple[np.ndarray, np.ndarray]:
    """Every six-card hand up to suit symmetry: ``(cards uint8 (n, 6), multiplicity int64)``.

    Multiplicities add up to all 20,358,520 hands. Sorted by card ids: each prefix's hands are
    found in order and written where the prefixes before it (in card order) end, so the threads
    share the prefixes in any order and no sort is needed.

    Examples
    --------
    >>> hands, mult = canonical_hands()
    >>> int(mult.sum())
    20358520
    """
    pairs = _prefix_pairs()
    counts = np.zeros(len(pairs), np.int64)
    empty_c, empty_m = np.zeros((0, 6), np.uint8), np.zeros(0, np.int64)
    over_ranges(_canonical_hands, len(pairs), pairs, _SUIT_PERMS, _SUIT_BITS, counts, counts,
                empty_c, empty_m)
    by_cards = np.lexsort((pairs[:, 1], pairs[:, 0]))  # the prefixes in card order
    offsets = np.empty(len(pairs), np.int64)
    offsets[by_cards] = np.concatenate([[0], np.cumsum(counts[by_cards])[:-1]])
    cards = np.zeros((int(counts.sum()), 6), np.uint8)
    mult = np.zeros(len(cards), np.int64)
    over_ranges(_canonical_hands, len(pairs), pairs, _SUIT_PERMS, _SUIT_BITS, counts, offsets,
                cards, mult)
    return cards, mult


def build_discard_table(crib: str = "table", workers: int | None = None):
    """The best keep of every six-card hand up to suit symmetry, for each role.

    Returns ``(hands, ranks)``: ``hands`` a DataFrame, one row per distinct hand (its cards in id
    order, ``n_hands`` how many of all 20,358,520 hands it stands for, and for each role
    ``dealer_keep``, ``dealer_discard``, ``dealer_hand_mean``, ``dealer_net``, likewise
    ``pone_*``); ``ranks`` the rank-only summary, one row per rank pattern (18,395): for each role
    the rank keep that is best for the most hands of the pattern (``*_keep``, with ``*_share`` of
    the pattern's hands, ties to the keep whose text sorts first), and the hand-weighted mean of
    the best hand mean and net.
    """
    with numba_threads(resolve_workers(workers)):
        cards, mult = canonical_hands()
        n = len(cards)
        best_d = np.zeros((n, 2), np.int8)
        best_hand = np.zeros((n, 2))
        best_net = np.zeros((n, 2))
        over_ranges(_best_keeps, n, cards, crib_values(crib), hand_table(), best_d, best_hand,
                    best_net, least=_HANDS_A_RANGE)
    return _discard_frames(cards, mult, best_d, best_hand, best_net)


#: Each card's text as bytes: every card is two characters (``5H``, ``TD``).
_CARD_BYTES = np.array([[ord(RANKS[c // 4]), ord(SUITS[c % 4])] for c in range(52)], np.uint8)
_SPACE = ord(" ")


@njit(cache=True, inline="always")
def _write_cards(cards, i, picks, card_bytes, out):
    """Write the text of cards ``cards[i, picks[j]]`` into ``out`` (bytes): two characters
    each, a space between."""
    for j in range(len(picks)):
        c = cards[i, picks[j]]
        out[3 * j] = card_bytes[c, 0]
        out[3 * j + 1] = card_bytes[c, 1]
        if j + 1 < len(picks):
            out[3 * j + 2] = _SPACE


@njit(cache=True, nogil=True)
def _table_text(lo, hi, cards, best_d, card_bytes, hand_text, keep_text, discard_text, pattern,
                keep_code):
    """The text and rank keys of the discard table, the hands ``lo`` to ``hi - 1`` (one pass
    over the hands in ranges on threads).

    ``cards`` uint8 (n, 6) ascending rows; ``best_d`` int8 (n, 2) the best discard of each role
    (an index into the 15). Writes the bytes of each hand's text to ``hand_text`` uint8 (n,
    17), of each role's keep and discard to ``keep_text`` (2, n, 11) and ``discard_text`` (2,
    n, 5); the hand's ranks as one base-13 number to ``pattern`` int64 (n,), and the kept
    ranks likewise to ``keep_code`` (2, n).
    """
    everything = (0, 1, 2, 3, 4, 5)
    for i in range(lo, hi):
        _write_cards(cards, i, everything, card_bytes, hand_text[i])
        code = np.int64(0)
        for j in range(6):
            code = code * 13 + cards[i, j] // 4
        pattern[i] = code
        for role in range(2):
            d = np.int64(best_d[i, role])
            keep = _KEEP_TABLE[d]
            _write_cards(cards, i, keep, card_bytes, keep_text[role, i])
            _write_cards(cards, i, _DISCARD_TABLE[d], card_bytes, discard_text[role, i])
            code = np.int64(0)
            for j in range(4):
                code = code * 13 + cards[i, keep[j]] // 4
            keep_code[role, i] = code


def _text_column(text: np.ndarray):
    """Rows of bytes (n, width), each one string, as pandas' default ``str`` column
    (Arrow-backed), built on the bytes without a copy per string."""
    import pandas as pd
    import pyarrow as pa

    n, width = text.shape
    offsets = np.arange(n + 1, dtype=np.int64) * width
    array = pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets),
                                             pa.py_buffer(np.ascontiguousarray(text)))
    return pd.arrays.ArrowStringArray(array, dtype=pd.StringDtype("pyarrow", na_value=np.nan))


_CODE_DIGITS = {k: 13 ** np.arange(k - 1, -1, -1, dtype=np.int64) for k in (4, 6)}


def _code_text(codes: np.ndarray, k: int) -> list[str]:
    """The rank text (``"5 5 J Q"``) of each base-13 code of ``k`` ranks."""
    digits = (np.asarray(codes, np.int64)[:, None] // _CODE_DIGITS[k]) % 13
    return [" ".join(row) for row in np.array(RANK_LABELS, object)[digits].tolist()]


def _discard_frames(cards, mult, best_d, best_hand, best_net):
    """The two frames of :func:`build_discard_table` from the kernel's results (``cards``
    uint8 (n, 6), ascending rows, in id order)."""
    import pandas as pd

    n = len(cards)
    hand_text = np.empty((n, 17), np.uint8)
    keep_text = np.empty((2, n, 11), np.uint8)
    discard_text = np.empty((2, n, 5), np.uint8)
    pattern = np.empty(n, np.int64)
    keep_code = np.empty((2, n), np.int64)
    over_ranges(_table_text, n, cards, best_d, _CARD_BYTES, hand_text, keep_text, discard_text,
                pattern, keep_code, least=_HANDS_A_RANGE)
    columns = {"hand": _text_column(hand_text), "n_hands": mult.astype(np.int32)}
    for role, name in enumerate(("dealer", "pone")):
        columns[f"{name}_keep"] = _text_column(keep_text[role])
        columns[f"{name}_discard"] = _text_column(discard_text[role])
        columns[f"{name}_hand_mean"] = best_hand[:, role]
        columns[f"{name}_net"] = best_net[:, role]
    hands = pd.DataFrame(columns)
    return hands, _rank_summary(pattern, keep_code, columns["n_hands"], best_hand, best_net)


#: The most distinct rank keeps a six-card rank pattern has (four of six ranks kept).
_KEEPS_A_PATTERN = 15


@njit(cache=True)
def _rank_tallies(pattern, keep_code, weight, best_hand, best_net, text_rank):
    """The sums behind the rank-only summary, one pass over the hands in table order.

    ``pattern`` int64 (n,) each hand's ranks as a base-13 number; ``keep_code`` int64 (2, n)
    the kept ranks of each role's best keep, likewise; ``weight`` (n,) the hands each row
    stands for; ``best_hand``, ``best_net`` float64 (n, 2); ``text_rank`` int64 (13**4,) the
    order of the keeps' text. Returns, for the G patterns in increasing order: their codes
    (G,), the hands of each (G,), and for each role (2, G): the keep best for the most hands
    (ties to the keep whose text sorts first), its hands, and the weighted sums of the hand mean
    and the net. The sums are compensated (Kahan) row by row in table order, the way pandas'
    grouped ``sum`` adds them.
    """
    seen = np.zeros(13**6, np.int32)
    for i in range(pattern.shape[0]):
        seen[pattern[i]] = 1
    groups = 0
    for c in range(seen.shape[0]):  # number the patterns in increasing order
        if seen[c]:
            groups += 1
            seen[c] = groups
    codes = np.empty(groups, np.int64)
    total = np.zeros(groups, np.int64)
    sums = np.zeros((2, 2, groups))  # [role, hand or net, group]
    carry = np.zeros((2, 2, groups))
    slot_code = np.full((2, groups, _KEEPS_A_PATTERN), -1, np.int64)
    slot_hands = np.zeros((2, groups, _KEEPS_A_PATTERN), np.int64)
    for i in range(pattern.shape[0]):
        g = seen[pattern[i]] - 1
        codes[g] = pattern[i]
        w = weight[i]
        total[g] += w
        for role in range(2):
            for j in range(2):
                value = (best_hand[i, role] if j == 0 else best_net[i, role]) * w
                y = value - carry[role, j, g]
                t = sums[role, j, g] + y
                carry[role, j, g] = t - sums[role, j, g] - y
                if carry[role, j, g] != carry[role, j, g]:  # an infinite value: no carry
                    carry[role, j, g] = 0.0
                sums[role, j, g] = t
            k = 0
            while slot_code[role, g, k] != keep_code[role, i] and slot_code[role, g, k] >= 0:
                k += 1
            slot_code[role, g, k] = keep_code[role, i]
            slot_hands[role, g, k] += w
    best = np.empty((2, groups), np.int64)
    best_hands = np.empty((2, groups), np.int64)
    for role in range(2):
        for g in range(groups):
            top = 0
            for k in range(1, _KEEPS_A_PATTERN):
                code = slot_code[role, g, k]
                if code < 0:
                    break
                if slot_hands[role, g, k] > slot_hands[role, g, top] or (
                        slot_hands[role, g, k] == slot_hands[role, g, top]
                        and text_rank[code] < text_rank[slot_code[role, g, top]]):
                    top = k
            best[role, g] = slot_code[role, g, top]
            best_hands[role, g] = slot_hands[role, g, top]
    return codes, total, best, best_hands, sums


def _keep_text_rank() -> tuple[np.ndarray, dict[int, str]]:
    """The text of every sorted four-rank keep by its base-13 code, and the order of the texts
    (``text_rank[code]``, int64 (13**4,); 0 for codes of no sorted keep)."""
    codes = np.array([((a * 13 + b) * 13 + c) * 13 + d for a, b, c, d in
                      itertools.combinations_with_replacement(range(13), 4)], np.int64)
    texts = _code_text(codes, 4)
    text_rank = np.zeros(13**4, np.int64)
    text_rank[codes[np.argsort(np.array(texts), kind="stable")]] = np.arange(len(codes))
    return text_rank, dict(zip(codes.tolist(), texts, strict=True))


def _rank_summary(pattern, keep_code, weight, best_hand, best_net):
    """The rank-only summary: one row per rank pattern (``pattern``, base-13 codes of each
    hand's ranks), for each role the keep best for the most hands (``keep_code``; a tie goes
    to the keep whose text sorts first), its share and the hand-weighted means
    (:func:`_rank_tallies`)."""
    import pandas as pd

    text_rank, keep_text = _keep_text_rank()
    codes, total, best, best_hands, sums = _rank_tallies(pattern, keep_code, weight, best_hand,
                                                         best_net, text_rank)
    out = {"ranks": _code_text(codes, 6), "n_hands": total.astype(weight.dtype)}
    for role, name in enumerate(("dealer", "pone")):
        out[f"{name}_keep"] = [keep_text[c] for c in best[role].tolist()]
        out[f"{name}_share"] = best_hands[role] / total
        out[f"{name}_hand_mean"] = sums[role, 0] / total
        out[f"{name}_net"] = sums[role, 1] / total
    return pd.DataFrame(out)
