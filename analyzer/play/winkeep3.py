"""The score-aware keep in three-player: which four of five to keep to win from three scores.

:func:`analyzer.play.winkeep.keep_to_win` with ``variant="three-player"`` ranks the five ways
to keep (one card thrown; the crib is the three cards thrown and one from the pack) from
:func:`win_samples3`, as the other forms rank theirs (:mod:`analyzer.play.winkeepforms`), from
samples of the rest of the deal shared by every way (common random numbers), each played with
the engine's own steps:

1. a sample deals the other two players five cards each, the pack's card to the crib and the
   starter, from the 47 cards the player cannot see; the two keep by the engine's ``ev``
   discard policy (:func:`analyzer.play.winkeepforms._ev_keep`: the form's self-play values
   of one card thrown);
2. for each of the player's five ways the deal is played on: his heels
   (:func:`analyzer.play.deal._his_heels`), the play (:func:`analyzer.play.deal._play_with`,
   every seat laying as ``greedy``, round from the dealer's left) and the show
   (:func:`analyzer.play.deal._show`: the hands from the dealer's left round to the dealer,
   then the crib), stopping the moment a player reaches 121;
3. if nobody has, the value is the player's chance at the start of the next deal, dealt by the
   player on this dealer's left, from the three-player table
   (:func:`analyzer.keeping.winodds.win_table3`): the needs rotate, the old seat ``k`` from
   the dealer being the new seat ``k - 1``.

**The scores.** ``score`` is ``(me, the player on my left, the player on my right)``: the seats
round the table to the left, the way the deal passes, as ``crib odds A B C --variant
three-player`` numbers them with you as seat 0 (seat 1 is on your left and plays after you).
``position`` is your place counted round to the left from the dealer, as the engine's
statistics name the places (:data:`analyzer.core.choices.FORM_POSITIONS`, the first three):
``"dealer"``, ``"first"`` (on the dealer's left: you lead, show first and deal next) or
``"second"`` (on the dealer's right: you show last of the hands). ``dealer=True`` is
``"dealer"``; a pone is ``"first"`` unless told ``"second"``.

The kernel, :func:`_win_samples3`, is this module's own (three scores by seat, the table of
three); it deals its samples with the other forms' helpers
(:func:`analyzer.play.winkeepforms._sample_scratch`, ``_deal_sample``, ``_set_way``) and calls
the engine's steps with the argument types four-player's samples give them, so it links the
versions four-player has compiled.
"""

from __future__ import annotations

import numpy as np

from ..core.apart import compiled_apart
from ..core.choices import FORM_POSITIONS, PEGGING_POLICIES
from ..core.errors import ArgumentError
from ..core.game import GAME
from ..core.jit import njit
from ..keeping.winodds import check_probabilities
from .deal import _his_heels, _play_with, _show
from .winkeepforms import _deal_sample, _ev_keep, _sample_scratch, _set_way

__all__ = ["THREE_PLACES", "check_three", "odds3_rows", "win_samples3"]

#: The places of three-player, counted round to the left from the dealer.
THREE_PLACES = FORM_POSITIONS[:3]

_GREEDY = PEGGING_POLICIES["greedy"]
_VARIANT = "three-player"


@compiled_apart
@njit(cache=True, nogil=True)
def _win_samples3(game, dealt, place, start, st, keeps, throws, crib_values, card_values, table,
                  hand_table, odds3, out):
    """``out`` float64 (n, ways): for ``n`` samples of the rest of a three-player deal, the
    probability that the player wins after each way to keep of ``dealt``.

    ``game`` int64 (:meth:`analyzer.core.game.Game.as_array` of three-player); ``dealt`` int64
    (5,) the player's cards; ``place`` his seat, the dealer being seat 0 and the seats counted
    round to the left; ``start`` int64 (3,) the three scores at the deal by seat; ``keeps``
    int64 (ways, 4) and ``throws`` int64 (ways, 1) index ``dealt``; ``crib_values``,
    ``card_values``, ``table``, ``hand_table`` as the engine's ``ev`` players and show read
    them; ``odds3`` float64 (3 * (target + 1)**2, target + 1), C-contiguous, read-only: the
    three-player table ``V[i, n0, n1, n2]`` (:func:`analyzer.keeping.winodds.win_table3`)
    reshaped to two axes, ``V[i, n0, n1, n2]`` at ``[(i * (target + 1) + n0) * (target + 1) +
    n1, n2]`` (:func:`odds3_rows`). ``st`` uint64 (4,) is
    advanced in place: the samples are drawn from it, the same for every way (the others'
    cards, the pack's card, the starter, their keeps), and ``greedy`` draws nothing, so the
    ways differ only by the player's keep.
    """
    n_players, target = game[GAME.players], game[GAME.target]
    one_count = game[GAME.one_count] != 0
    dealer = np.int64(0)  # np.int64, not a literal: the engine's versions of the steps
    deck, hands, kept, thrown, crib, unseen, plays, pegged, show, laid, ints, ppol = \
        _sample_scratch(game, dealt)
    scores = np.empty(n_players, np.int64)
    before = (place + n_players - 1) % n_players  # the player's seat in the next deal
    size = target + 1
    for s in range(out.shape[0]):
        pack, starter = _deal_sample(game, dealt, place, st, deck, hands)
        for q in range(n_players):  # the others keep by ev, once for every way of the player
            if q != place:
                _ev_keep(hands[q], q == dealer, crib_values, card_values, hand_table, st,
                         kept[q], thrown[q])
        heels = _his_heels(starter)
        for d in range(keeps.shape[0]):
            _set_way(game, dealt, place, keeps, throws, d, hands, deck, pack, starter, kept,
                     thrown, crib, unseen)
            for q in range(n_players):
                scores[q] = start[q]
            scores[0] += heels  # the dealer's
            winner = np.int64(0) if scores[0] >= target else np.int64(-1)
            if winner < 0:
                pegged[:] = 0
                laid[:, :] = False
                ints[:] = 0
                _, winner = _play_with(kept, dealer, ppol, unseen, scores, target, st, plays,
                                       pegged, one_count, thrown, starter, table, None, None,
                                       crib_values, card_values, hand_table, laid, ints)
            _, winner = _show(kept, crib, starter, dealer, table, hand_table, scores, target,
                              winner, show)
            if winner >= 0:
                out[s, d] = 1.0 if winner == place else 0.0
            else:  # the next deal is dealt by seat 1: the old seat k is the new k - 1
                row = (before * size + target - scores[1]) * size + target - scores[2]
                out[s, d] = odds3[row, target - scores[0]]


def odds3_rows(odds=None) -> np.ndarray:
    """The three-player table as the kernel takes it: float64 (3 * 122 * 122, 122),
    C-contiguous and read-only (one type, so one compiled version), ``V[i, n0, n1, n2]`` at
    ``[(i * 122 + n0) * 122 + n1, n2]``: a view of the shipped
    :func:`analyzer.keeping.winodds.win_table3` by default (no copy of its 44 MB), else a
    read-only copy of ``odds`` (3, 122, 122, 122).

    Examples
    --------
    >>> from analyzer.keeping.winodds import win_table3
    >>> rows = odds3_rows()
    >>> rows.shape, bool(rows[(1 * 122 + 100) * 122 + 90, 80] == win_table3()[1, 100, 90, 80])
    ((44652, 122), True)
    """
    from ..core.game import VARIANTS
    from ..keeping.winodds import win_table3

    size = VARIANTS[_VARIANT].target + 1
    given = odds is not None
    if not given:
        odds = win_table3()  # read-only, C-ordered: reshaped without a copy
    else:
        odds = np.array(odds, np.float64)  # a C-ordered copy, made read-only below
        odds.setflags(write=False)
    if odds.shape != (3, size, size, size):
        raise ValueError(f"odds: a (3, {size}, {size}, {size}) table for three-player, got "
                         f"shape {odds.shape}")
    if given:  # the shipped one is 16-bit fractions of 1 (and a check of its 5.4M is 8 ms)
        check_probabilities(odds)
    return odds.reshape(3 * size * size, size)


def _place3(dealer: bool, position) -> int:
    """The player's seat with the dealer at seat 0, from ``dealer`` and ``position``."""
    if position is None:
        return 0 if dealer else 1
    if position not in THREE_PLACES:
        raise ArgumentError("position", f"position: one of {', '.join(THREE_PLACES)} in "
                            f"three-player (your place from the dealer round to the left), got "
                            f"{position!r}")
    place = THREE_PLACES.index(position)
    if (place == 0) != bool(dealer):
        who = "you deal" if place == 0 else "another player deals"
        raise ArgumentError("position", f"position {position}: {who}, but the role given is "
                            f"the {'dealer' if dealer else 'pone'}'s")
    return place


def check_three(dealer: bool, score, position=None) -> tuple[int, tuple[int, int, int]]:
    """What :func:`win_samples3` checks before the cards: the seat (``position`` agreeing with
    ``dealer``) and the three scores, ``(me, my left, my right)``, each 0..120.

    Returns ``(place, scores)``: the player's seat counted from the dealer round to the left
    and the three scores checked, in the order given. Raises
    :class:`~analyzer.core.errors.ArgumentError` naming ``"position"``, ``"score"`` (not
    three numbers) or the score at fault: ``"me"``, ``"opp"`` (the player on your left, as
    the second number of ``crib odds``) or ``"third"`` (on your right).

    Examples
    --------
    >>> check_three(False, (100, 95, 118), "second")
    (2, (100, 95, 118))
    """
    from ..core.choices import check_number
    from ..core.game import VARIANTS

    place = _place3(dealer, position)
    try:
        me, left, right = score
    except (TypeError, ValueError):
        raise ArgumentError("score", f"score: three-player takes three scores (yours, the "
                            f"player's on your left, the player's on your right), got "
                            f"{score!r}") from None
    top = VARIANTS[_VARIANT].target - 1
    checked = []
    for argument, name, value in (("me", "your score", me),
                                  ("opp", "the score of the player on your left", left),
                                  ("third", "the score of the player on your right", right)):
        try:
            checked.append(check_number(name, value, low=0, high=top, integer=True))
        except ValueError as exc:
            raise ArgumentError(argument, str(exc)) from None
    return place, tuple(checked)


def win_samples3(cards, dealer: bool, score, samples: int, seed: int, crib: str | None,
                 position=None, odds=None):
    """The samples behind the score-aware keep of a three-player hand:
    :func:`analyzer.play.winkeep.keep_to_win` with ``variant="three-player"`` calls it and
    ranks the keeps from them (it documents the arguments).

    ``score`` is ``(me, the player on my left, the player on my right)`` at the deal;
    ``dealer``: you deal (the crib is yours); ``position``: your place from the dealer,
    ``"dealer"``, ``"first"`` or ``"second"`` (default ``"dealer"`` when you deal, ``"first"``
    when not); ``odds`` the three-player table, float64 (3, 122, 122, 122) (default the shipped
    :func:`analyzer.keeping.winodds.win_table3`), passed to the kernel as :func:`odds3_rows`.

    Returns ``(points, keep_text, out, scores, seed, position)``: the :func:`analyzer.keep`
    frame of the hand, the text of each way to keep (as the frame writes it), the samples'
    P(win) float64 (samples, 5) in that order, the checked scores (as given) and seed, and the
    position's name.

    Examples
    --------
    >>> points, keeps, out, *_ = win_samples3("5H 5S 6D JC KH", True, (30, 40, 50), 64, 0,
    ...                                       None)
    >>> out.shape, len(keeps), len(points)
    ((64, 5), 5, 5)
    """
    import numba

    from ..core.cards import CardError, as_cards, format_card
    from ..core.choices import check_number, on_threads
    from ..core.game import VARIANTS
    from ..core.rng import chunk_states
    from ..core.scoring import hand_table, rank_table
    from ..keeping.crib import card_values as card_value_table
    from ..keeping.discard import _form_discards, keep
    from .reads import crib_pairs

    game = VARIANTS[_VARIANT]
    place, scores = check_three(dealer, score, position)
    samples = check_number("samples", samples, low=1, high=10**7, integer=True)
    seed = check_number("seed", seed, low=0, high=2**63 - 1, integer=True)
    points = keep(cards, bool(dealer), crib=crib, variant=game.name)
    ids = [int(c) for c in as_cards(cards)]
    if len(ids) != game.dealt or len(set(ids)) != game.dealt:
        raise CardError(f"a {game.name} hand is dealt {game.dealt} distinct cards, got "
                        f"{len(set(ids))}")
    dealt = np.array(sorted(ids), np.int64)
    keeps, throws = _form_discards(game.dealt, game.kept)
    odds = odds3_rows(odds)
    # the scores by seat from the dealer: mine, then round to my left
    start = np.empty(3, np.int64)
    for k in range(3):
        start[(place + k) % 3] = scores[k]
    mode = points.attrs["crib_mode"]
    pairs = crib_pairs(mode, game.name)
    cards_table = card_value_table(mode, game.name)
    hands = hand_table()
    per_block = 64
    blocks = -(-samples // per_block)
    states = chunk_states(seed, np.arange(blocks))
    out = np.empty((blocks * per_block, len(keeps)), np.float64)
    game_array, table = game.as_array(), rank_table()
    keeps_a, throws_a = np.array(keeps), np.array(throws)

    def run(b):
        _win_samples3(game_array, dealt, np.int64(place), start, states[b], keeps_a, throws_a,
                      pairs, cards_table, table, hands, odds,
                      out[b * per_block:(b + 1) * per_block])

    on_threads(run, blocks, numba.get_num_threads())
    names = [format_card(c) for c in dealt]
    keep_text = [" ".join(names[k] for k in row) for row in keeps]
    return points, keep_text, out, scores, seed, THREE_PLACES[place]
