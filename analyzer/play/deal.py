"""The play and the show of one deal, compiled: the steps the engine and the simulations of a
deal's end share.

* :func:`_his_heels`: a Jack turned as the starter pegs 2 to the dealer;
* :func:`_play`: the play, round the table from the dealer's left, with go, 31 and last card,
  each player laying by its pegging policy (:mod:`analyzer.play.players`, or the search of
  :mod:`analyzer.play.search` for ``best``);
* :func:`_show`: the hands counted round the table from the dealer's left, then the crib.

Both stop the moment a side reaches the target. :mod:`analyzer.play.engine` plays whole games from
them; :mod:`analyzer.play.winkeep` plays a deal's end for each keep of a hand.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from ..core import rules
from ..core.apart import compiled_apart
from ..core.borrow import _borrowed, _keep_alive
from ..core.choices import PEGGING_POLICIES
from ..core.game import layout
from ..core.jit import njit
from ..core.scoring import _rank, _score_one, _score_three_by_row
from .players import _choose_play_inline, _greedy_choice
from .playstep import _go_floor, _lay
from .search import _best_play
from .searchforms import _best_play_forms

__all__ = ["PLAY"]

_PEG_BEST = PEGGING_POLICIES["best"]
_PEG_GREEDY = PEGGING_POLICIES["greedy"]

#: One card laid in the play, as recorded.
PLAY = layout("Play", [("player", 1), ("card", 1), ("points", 1)])


def _searched_play(kept, laid, p, thrown, starter, seq, nseq, count, floor, unseen_p, scores,
                   target, one_count, dealer, table, peg_values, odds, crib_values, card_values,
                   hand_table, st, plays, n_plays):
    """``best``'s card, by the search of the form: six-card's
    (:func:`analyzer.play.search._best_play`) when a pegging table is given, the other forms'
    (:func:`analyzer.play.searchforms._best_play_forms`) when ``peg_values`` is None. Chosen by
    the argument's type as the caller is compiled (below), so that a kernel compiles only the
    search it is given the tables of: numba removes a branch on ``x is None`` only when ``x``
    is None, not when it is an array."""
    raise NotImplementedError("called from compiled code only")


@overload(_searched_play)
def _searched_play_of_the_form(kept, laid, p, thrown, starter, seq, nseq, count, floor,
                               unseen_p, scores, target, one_count, dealer, table, peg_values,
                               odds, crib_values, card_values, hand_table, st, plays, n_plays):
    # the search's caller itself, not a function that calls it: one compiled level fewer
    if isinstance(peg_values, types.NoneType):
        return _best_play_forms
    return _best_play


def _play_tables(peg_values, odds):
    """``peg_values`` as the play reads it: only ``best``'s search does, so when no seat
    searches (``odds`` None) the play is given None, and the ``pegging`` discard's games
    (a pegging table, no search) play with the same compiled play as the others rather than a
    version of their own. Chosen by the argument's type as the caller is compiled."""
    raise NotImplementedError("called from compiled code only")


@overload(_play_tables, inline="always")
def _play_tables_of_the_run(peg_values, odds):
    if isinstance(odds, types.NoneType):
        return lambda peg_values, odds: None
    return lambda peg_values, odds: peg_values


@njit(cache=True, inline="always")
def _his_heels(starter):
    """What the dealer pegs for the starter: 2 for a Jack (his heels), else 0."""
    return rules.HEELS_POINTS if _rank(starter) == rules.JACK else 0


@compiled_apart
@njit(cache=True)
def _play(kept, dealer, peg_pol, unseen_rank, scores, target, st, plays, pegged, one_count,
          thrown, starter, table, peg_values, odds, crib_values, card_values, hand_table):
    """The play of one deal. Returns ``(number of cards laid, winning side or -1)``.

    ``kept`` int64 (players, cards): the hands; ``peg_pol`` int64 (players,): pegging policies;
    ``unseen_rank`` int64 (players, 13): what each player has not seen, by rank (updated as cards
    are laid); ``scores`` int64 (sides,): each side's score (player ``p`` scores for side
    ``p % sides``: partners sit opposite), updated as points are pegged, stopping the moment one
    reaches ``target``. Writes ``plays`` int64 (players * cards, PLAY.size): player, card, points
    (the go or last-card point included), and adds each player's pegging points to ``pegged``.
    Turns go round from the dealer's left. A player who cannot lay a card says go and the next
    one able to goes on; when nobody can, the last to lay pegs the go and the count restarts
    with the player after them. With ``one_count`` (five-card) the play ends there, and at 31.

    The ``best`` policy searches (:func:`analyzer.play.search._best_play` in the two-player
    six-card game, :func:`analyzer.play.searchforms._best_play_forms` in the others) and reads
    what its player may see besides: ``thrown`` int64 (players, thrown) its own cards in the
    crib, the ``starter`` (-1 if unknown), the rank ``table``, ``odds`` the form's win-odds
    table (any smaller array: it values pegging points, not wins; a (1, 1) array in
    three-player, which has none), and the ``crib_values``, ``card_values`` and ``hand_table``
    its model of the others' discards reads. The other policies ignore them. ``odds`` ``None``
    says that no player searches: ``best`` then lays as ``lookahead``, and numba compiles the
    play without the search (a branch on an argument that is ``None`` is removed before
    typing), which is most of its compile time. ``peg_values``, the pegging table (any array),
    says which search: six-card's when given, the other forms' when ``None``; so a run compiles
    only the one it can use. (In the statistics' play-out past a winning moment, where
    ``target`` is out of reach, ``best`` values pegging points, so it may lay otherwise than in
    the game.) Laying and the last card follow :func:`analyzer.play.playstep._lay`.
    """
    n_players, n_cards = kept.shape
    laid = np.zeros((n_players, n_cards), np.bool_)
    ints = np.zeros(_play_ints(n_players, n_cards), np.int64)
    out = _play_with(kept, dealer, peg_pol, unseen_rank, scores, target, st, plays, pegged,
                     one_count, thrown, starter, table, peg_values, odds, crib_values,
                     card_values, hand_table, _borrowed(laid), _borrowed(ints))
    _keep_alive(laid)
    _keep_alive(ints)
    return out


@njit(cache=True, inline="always")
def _play_ints(n_players, n_cards):
    """The size of the integer workspace of :func:`_play_with`."""
    return 2 * n_players + n_players * n_cards + 1


@compiled_apart
@njit(cache=True)
def _play_with(kept, dealer, peg_pol, unseen_rank, scores, target, st, plays, pegged, one_count,
               thrown, starter, table, peg_values, odds, crib_values, card_values, hand_table,
               laid, ints):
    """:func:`_play` on a given workspace: ``laid`` bool (players, cards) and ``ints`` int64
    (:func:`_play_ints`), both zeroed (the engine passes borrowed ones,
    :mod:`analyzer.core.borrow`)."""
    n_players, n_cards = kept.shape
    n_sides = scores.shape[0]
    left = ints[:n_players]
    left[:] = n_cards
    floor = ints[n_players:2 * n_players]  # the least value each one's cards can have (goes)
    seq = ints[2 * n_players:]  # ranks in the current count
    total_left = n_players * n_cards
    # np.int64, not a literal 0: typing the loop, numba would otherwise compile the callees once
    # for Literal[int](0) and once for int64
    nseq = np.int64(0)
    count = np.int64(0)
    turn = (dealer + 1) % n_players
    last = -1
    passes = 0
    n_plays = 0
    while total_left > 0:
        p = turn
        nxt = (p + 1) % n_players
        choice = -1
        if left[p] > 0:
            if odds is not None and peg_pol[p] == _PEG_BEST:
                choice = _searched_play(kept, laid, p, thrown, starter, seq, nseq, count, floor,
                                        unseen_rank[p], scores, target, one_count, dealer,
                                        table, peg_values, odds, crib_values, card_values,
                                        hand_table, st, plays, np.int64(n_plays))
            elif peg_pol[p] == _PEG_GREEDY:  # the commonest, without the policy dispatch
                last_card = total_left - left[p] == 0 and left[p] == 1
                choice = _greedy_choice(kept[p], n_cards, laid[p], seq, nseq, count, last_card)
            else:
                others = total_left - left[p]
                choice = _choose_play_inline(peg_pol[p], kept[p], n_cards, laid[p], seq, nseq,
                                             count, unseen_rank[p], left[nxt],
                                             others == 0 and left[p] == 1, st)
            if choice < 0:
                floor[p] = max(floor[p], _go_floor(count))
        if choice < 0:  # go (or no cards left)
            passes += 1
            if passes >= n_players:  # nobody can lay: the last to lay pegs one for the go
                scores[last % n_sides] += rules.GO_POINTS
                pegged[last] += rules.GO_POINTS
                plays[n_plays - 1, PLAY.points] += rules.GO_POINTS
                if scores[last % n_sides] >= target:
                    return n_plays, last % n_sides
                if one_count:
                    return n_plays, -1
                count = 0
                nseq = 0
                passes = 0
                turn = (last + 1) % n_players
            else:
                turn = nxt
            continue
        card = kept[p, choice]
        laid[p, choice] = True
        left[p] -= 1
        total_left -= 1
        count, nseq, points = _lay(seq, nseq, count, card, total_left)
        plays[n_plays, PLAY.player] = p
        plays[n_plays, PLAY.card] = card
        plays[n_plays, PLAY.points] = points
        n_plays += 1
        for q in range(n_players):
            if q != p:
                unseen_rank[q, _rank(card)] -= 1
        scores[p % n_sides] += points
        pegged[p] += points
        if scores[p % n_sides] >= target:
            return n_plays, p % n_sides
        last = p
        passes = 0
        if count == rules.MAX_COUNT:  # 31: a new count, led by the next player
            if one_count:
                return n_plays, -1
            count = 0
            nseq = 0
        turn = nxt
    return n_plays, -1


@compiled_apart
@njit(cache=True)
def _show(kept, crib, starter, dealer, table, hand_table, scores, target, winner, show):
    """The show: each hand from the dealer's left round to the dealer, then the crib.

    A hand of three (five-card cribbage) is counted from ``hand_table``, the three-card hand
    table. Every count is made into ``show`` (players + 1,), in that order, for the statistics; the
    game takes them in order, each to its side's score in ``scores`` (sides,), until a side reaches
    ``target`` (none if ``winner >= 0`` already). Returns ``(counts the game took, winning side
    or -1)``.
    """
    n_players = kept.shape[0]
    n_sides = scores.shape[0]
    for k in range(n_players):
        p = (dealer + 1 + k) % n_players
        if kept.shape[1] == 3:
            show[k] = _score_three_by_row(kept[p, 0], kept[p, 1], kept[p, 2], starter,
                                          hand_table)
        else:
            show[k] = _score_one(kept[p, 0], kept[p, 1], kept[p, 2], kept[p, 3], starter, False,
                                 table)
    show[n_players] = _score_one(crib[0], crib[1], crib[2], crib[3], starter, True, table)
    shown = 0
    for k in range(n_players + 1):
        if winner >= 0:
            break
        p = (dealer + 1 + k) % n_players if k < n_players else dealer
        shown += 1
        scores[p % n_sides] += show[k]
        if scores[p % n_sides] >= target:
            winner = p % n_sides
    return shown, winner
