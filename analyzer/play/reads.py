"""What the engine's players read: the tables of a form of the game, as the runs pass them.

Every game the engine plays, a game at the table and one seat's decision
(:mod:`analyzer.play.seat`) hand the players the same arrays, made here: the crib values of a
pair thrown, of one card thrown, the rank table, the kept-hand table (three cards in
five-card), the pegging table and the win-odds table. The last two are read by the ``pegging``
and ``best`` players of the two-player six-card game (``best``'s search of the play in the
other forms reads the form's win-odds table and no pegging table, :func:`score_tables`);
``None`` stands for a table nobody reads. The kernels are compiled for what they are given:
with ``None`` numba removes the branches that read the table before typing them, so a run
without ``pegging`` or ``best`` compiles neither ``best``'s search of the play nor its samples
of the deal's end (most of the engine's compile time) nor the pegging-table discard, a run of
``pegging`` without ``best`` not the first two, and a run in six-card not the other forms'
search, nor theirs six-card's. A six-card run with ``best`` in it, in either half of a player,
is given both tables.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.choices import DISCARD_POLICIES, PEGGING_POLICIES, parse_player
from ..core.game import VARIANTS

__all__ = ["NO_CARD_VALUES", "PlayerTables", "crib_pairs", "player_tables",
           "score_tables", "search_odds"]

#: The forms that throw two cards never read one card's crib value.
NO_CARD_VALUES = np.zeros((2, 13), np.float64)
NO_CARD_VALUES.setflags(write=False)  # as the shipped tables are: one signature for the kernels


class PlayerTables(NamedTuple):
    """The arrays a form's players read, in the order the kernels take them."""

    crib_values: np.ndarray  #: float64 (2, 13, 13, 2): a pair thrown
    card_values: np.ndarray  #: float64 (2, 13): one card thrown (three and four players)
    rank_table: np.ndarray  #: the show's rank table (:func:`analyzer.core.scoring.rank_table`)
    hand_table: np.ndarray  #: the kept-hand table (three cards in five-card)
    peg_values: np.ndarray | None  #: float64 (2, 13**4), or None when no player reads it
    odds: np.ndarray | None  #: the win-odds table (:func:`search_odds`), or None


def crib_pairs(crib: str, variant: str) -> np.ndarray:
    """The pair crib values the ``ev`` players of a form read: the form's table of two cards
    thrown in mode ``crib`` (the uniform values for the forms that throw one card, whose players
    read :func:`analyzer.keeping.crib.card_values` instead)."""
    from ..keeping.crib import crib_values

    pairs = VARIANTS[variant].thrown == 2
    return crib_values(crib, variant) if pairs else crib_values("uniform")


def score_tables(variant: str, players) -> tuple[np.ndarray | None, np.ndarray | None]:
    """The pegging table and the win-odds table the ``players`` (specs) read, as writable copies
    (:func:`analyzer.keeping.pegtable.peg_table`, :func:`analyzer.keeping.winodds.win_table`):
    the ``pegging`` and ``best`` discard policies read the first, ``best`` (discard or pegging)
    the second, in the two-player six-card game; in the other forms ``best`` (its pegging; its
    discard in five-card and four-player) reads the form's win-odds table
    (:func:`search_odds`; three-player's discard is ``ev``) and no pegging table (None): the
    play kernels search as
    the six-card game does when they are given a pegging table and as the other forms do when
    not, so that numba compiles only the search a run can use (``best`` in six-card does not
    compile the other forms' search, nor they six-card's); ``None`` for a table no player reads.
    A six-card game with ``best`` in it is given both (its pegging half alone reads no pegging
    table), so that it runs the version ``best`` against anyone compiles, not one of its own;
    so is one with the ``pegging`` discard and no ``best``, with a (1, 1) array of zeros for
    the win-odds table, which it never reads (the discard near the end samples only for
    ``best``; nobody searches): the rarely used pegging discard compiles no version of the
    engine of its own, and the plain games compile none of it.
    """
    codes = [parse_player(p) for p in players]
    if VARIANTS[variant].name != "six-card":
        # best searches the play of the other forms (analyzer.play.searchforms) with the form's
        # win-odds table (three-player's, of three needs, as rows: search_odds) and keeps to
        # win near the end with it (analyzer.play.winkeepforms; five-card and four-player;
        # three-player's discard is ev: its table's shape says so); no pegging table: the
        # engine's version for best in these forms compiles only their search and discard,
        # and six-card's version only six-card's
        from ..keeping.winodds import ODDS_VARIANTS

        name = VARIANTS[variant].name
        searches = any(g == PEGGING_POLICIES["best"] for _, g in codes)
        keeps = name in ODDS_VARIANTS and any(d == DISCARD_POLICIES["best"] for d, _ in codes)
        if not (searches or keeps):
            return None, None
        return None, search_odds(name)
    pegging = any(d >= DISCARD_POLICIES["pegging"] for d, _ in codes)
    odds = any(d == DISCARD_POLICIES["best"] or g == PEGGING_POLICIES["best"] for d, g in codes)
    peg_values = odds_table = None
    if pegging or odds:
        from ..keeping.pegtable import peg_table

        peg_values = np.array(peg_table())
    if odds:
        from ..keeping.winodds import win_table

        odds_table = np.array(win_table())
    elif pegging:
        odds_table = np.zeros((1, 1))  # never read: best's version of the engine, not a fourth
    return peg_values, odds_table


def search_odds(variant: str) -> np.ndarray:
    """The win-odds table the other forms' search of the play reads
    (:func:`analyzer.play.searchforms._search_forms`), a writable float64 copy of two
    dimensions, so that every form's search is one compiled version: five-card's and
    four-player's ``D[nd, np]`` (:func:`analyzer.keeping.winodds.win_table`), and three-player's
    ``V[i, n0, n1, n2]`` (:func:`analyzer.keeping.winodds.win_table3`) as rows ``(i * m + n0) *
    m + n1`` of ``m = target + 1`` columns ``n2``: (3 m**2, m).

    Examples
    --------
    >>> search_odds("three-player").shape, search_odds("five-card").shape
    ((44652, 122), (62, 62))
    """
    from ..keeping.winodds import win_table, win_table3

    name = VARIANTS[variant].name
    if name == "three-player":
        table = win_table3()
        return np.array(table).reshape(-1, table.shape[-1])
    return np.array(win_table(name))


def player_tables(variant: str, players, crib: str = "table") -> PlayerTables:
    """Everything the ``players`` (specs) of ``variant`` read, crib mode ``crib``."""
    from ..core.scoring import hand3_table, hand_table, rank_table
    from ..keeping.crib import card_values

    game = VARIANTS[variant]
    cards = card_values(crib, game.name) if game.thrown == 1 else NO_CARD_VALUES
    hands = hand3_table() if game.kept == 3 else hand_table()
    return PlayerTables(crib_pairs(crib, variant), cards, rank_table(), hands,
                        *score_tables(variant, players))
