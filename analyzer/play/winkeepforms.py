"""The score-aware keep in five-card and four-player: which cards to keep to win from a score.

:func:`analyzer.play.winkeep.keep_to_win` with ``variant="five-card"`` or ``"four-player"`` ranks
the keeps from :func:`win_samples_forms`. It answers as in the six-card game, from samples of the
rest of the deal shared by every keep (common random numbers), each played with the engine's own
steps for the form:

1. a sample deals every other seat five cards and turns the starter, from the 47 cards the
   player cannot see; each other seat keeps by the engine's ``ev`` discard policy (the
   players' kernels :func:`analyzer.play.engine._discard_one` calls, :func:`_ev_keep`: the
   form's self-play crib values);
2. for each way to keep (ten in five-card, three of five; five in four-player, four of five)
   the deal is played on: his heels (:func:`analyzer.play.deal._his_heels`), the play
   (:func:`analyzer.play.deal._play_with`, every seat laying as ``greedy``; the five-card play
   is one count) and the show (:func:`analyzer.play.deal._show`: the hands from the dealer's
   left round to the dealer, then the crib), stopping the moment a side reaches the target
   (61 in five-card, 121 in four-player);
3. if no side has, the value is the chance of winning from the new scores at the start of the
   next deal, dealt by the seat on the dealer's left (the other side), from the form's
   win-odds table (:func:`analyzer.keeping.winodds.win_table`).

Scores are by side: yours (you and your partner in four-player) and the other side's. In
four-player where you sit matters (who leads, who counts first): ``position`` is your place
counted round to the left from the dealer, as the engine's statistics name the places
(:data:`analyzer.core.choices.FORM_POSITIONS`): ``"dealer"``, ``"first"`` (on the dealer's
left: you lead and count first), ``"second"`` (the dealer's partner) or ``"third"`` (on the
dealer's right). In five-card the pone's three for last is pegged before the first deal: the score
given is the score at the deal, those three included, so one side has at least 3.

Three-player's state is three scores, its table of another kind: its keep is
:mod:`analyzer.play.winkeep3`'s (:func:`check_forms` refuses it).

The engine's ``best`` discard policy in these forms is :func:`_best_discard_forms` (reached from
:func:`analyzer.play.engine._discard_one`): the ``ev`` keep, left for a keep that wins more often
by enough standard errors of the same samples, drawn only when the game can end in the deal
(five-card as six-card, 64 samples within 30 points; four-player 256 within 20,
:data:`FOUR_PLAYER_SAMPLES`).
"""

from __future__ import annotations

import numpy as np

from ..core.apart import compiled_apart
from ..core.choices import DISCARD_POLICIES, FORM_POSITIONS, PEGGING_POLICIES
from ..core.errors import ArgumentError
from ..core.game import GAME
from ..core.jit import njit
from ..core.rng import _shuffle_prefix
from ..core.scoring import _rank
from ..keeping.winodds import check_probabilities
from .deal import PLAY, _his_heels, _play_ints, _play_with, _show
from .players import _KEEP_THREE_OF_FIVE, _THROW_TWO_OF_FIVE, _choose_keep3, _choose_throw

__all__ = ["check_forms", "win_samples_forms"]

#: The engine's ``best`` discard in four-player (:func:`_best_discard_forms`; five-card's is
#: six-card's, :data:`analyzer.play.winkeep.BEST_DISCARD_SAMPLES` and the rest): the samples are
#: drawn only when a side needs at most ``FOUR_PLAYER_REACH`` points, ``FOUR_PLAYER_SAMPLES`` of
#: them, stopping after ``FOUR_PLAYER_FIRST`` with the ev keep if no way is ahead of it, and a way
#: replaces the ev keep when it wins more by ``FOUR_PLAYER_Z`` standard errors. One card of five
#: thrown moves a side's chance to win by little (a tenth of a point of P(win) at most, on
#: average, when a side needs 21 to 45; half a point within 20): 64 samples within 30 found a
#: better way in 2.5% of decisions and gained nothing measurable, these gain a quarter of a point
#: of the games (+0.25, +0.04 to +0.47, over 400,000; docs/simulate-and-tables.md). 1 sample
#: switches it off: the ev keep, and the very games of ev (measured so).
FOUR_PLAYER_SAMPLES = 256
FOUR_PLAYER_REACH = 20
FOUR_PLAYER_FIRST = 32
FOUR_PLAYER_Z = 1.0

_EV = DISCARD_POLICIES["ev"]
_GREEDY = PEGGING_POLICIES["greedy"]


@njit(cache=True)
def _ev_way(hand, own, n_thrown, crib_values, card_values, hand_table, st):
    """The ``ev`` discard of a five-card hand ``hand`` int64 (5,), by the players' kernels the
    engine's step (:func:`analyzer.play.engine._discard_one`) calls: the index of the way in
    :func:`_ways` order (the card thrown with ``n_thrown`` 1, four-player; the pair thrown of
    :data:`analyzer.play.players._THROW_TWO_OF_FIVE` with 2, five-card). ``own``: the crib is
    the player's side's."""
    if n_thrown == 1:
        return _choose_throw(np.int64(_EV), hand, own, card_values, hand_table, st)
    return _choose_keep3(np.int64(_EV), hand, own, crib_values, hand_table, st)


@njit(cache=True)
def _ev_keep(hand, own, crib_values, card_values, hand_table, st, kept, thrown):
    """The ``ev`` discard (:func:`_ev_way`) written into ``kept`` and ``thrown`` in the order
    of the hand, as the engine's step writes them (a test holds them equal)."""
    d = _ev_way(hand, own, thrown.shape[0], crib_values, card_values, hand_table, st)
    _take_way(hand, d, kept, thrown)


@njit(cache=True, inline="always")
def _take_way(hand, d, kept, thrown):
    """Way ``d`` (:func:`_ways` order) of the five cards ``hand``: the cards kept and thrown, in
    the order of the hand."""
    if thrown.shape[0] == 1:
        j = 0
        for i in range(hand.shape[0]):
            if i == d:
                thrown[0] = hand[i]
            else:
                kept[j] = hand[i]
                j += 1
    else:
        for i in range(3):
            kept[i] = hand[_KEEP_THREE_OF_FIVE[d][i]]
        for i in range(2):
            thrown[i] = hand[_THROW_TWO_OF_FIVE[d][i]]


@njit(cache=True)
def _ways(n_thrown):
    """The ways to keep of five cards, as index arrays ``keeps`` int64 (ways, kept) and
    ``throws`` int64 (ways, thrown): with ``n_thrown`` 1 the card ``d`` thrown (five ways),
    with 2 the pairs of :data:`analyzer.play.players._THROW_TWO_OF_FIVE` (ten): the order of
    the players' kernels and of :func:`analyzer.keeping.discard._form_discards`."""
    n_ways = 5 if n_thrown == 1 else 10
    keeps = np.empty((n_ways, 5 - n_thrown), np.int64)
    throws = np.empty((n_ways, n_thrown), np.int64)
    for d in range(n_ways):
        if n_thrown == 1:
            throws[d, 0] = d
            j = 0
            for i in range(5):
                if i != d:
                    keeps[d, j] = i
                    j += 1
        else:
            for i in range(3):
                keeps[d, i] = _KEEP_THREE_OF_FIVE[d][i]
            for i in range(2):
                throws[d, i] = _THROW_TWO_OF_FIVE[d][i]
    return keeps, throws


@compiled_apart
@njit(cache=True)
def _best_discard_forms(game, hand, place, me, opp, st, crib_values, card_values, table,
                        hand_table, odds, samples, reach, first, z):
    """The engine's ``best`` discard in five-card and four-player: the way (:func:`_ways`
    order) to keep of ``hand`` int64 (5,), in the order of the hand.

    The ``ev`` keep (:func:`_ev_way`) unless the game can end in this deal (a side needs at
    most ``reach`` points) and ``samples`` samples of the rest of the deal
    (:func:`_forms_win_samples`: the others keep by ev, everyone pegs greedy, the form's
    win-odds table ``odds`` after the deal) find a way more likely to win by at least ``z``
    standard errors of the paired difference. After ``first`` samples it stops, with the ev
    keep, if no way is ahead of it. ``place`` the player's seat counted from the dealer,
    ``me``, ``opp`` its side's and the other side's scores; the rest as
    :func:`_forms_win_samples` (``st`` is advanced by the samples only). The six-card game's
    :func:`analyzer.play.winkeep._best_discard` decides the same way (its candidates there are
    the points keep's rivals; here every way is one: ten or five).
    """
    n_thrown, target = game[GAME.thrown], game[GAME.target]
    ref = _ev_way(hand, place % 2 == 0, n_thrown, crib_values, card_values, hand_table, st)
    if samples <= 1 or (target - me > reach and target - opp > reach):
        return ref
    keeps, throws = _ways(n_thrown)
    m = keeps.shape[0]
    out = np.empty((1, m), np.float64)
    s1 = np.zeros(m, np.float64)
    s2 = np.zeros(m, np.float64)
    for k in range(samples):
        if k == first:  # stop when no way is ahead of the ev keep
            ahead = False
            for j in range(m):
                ahead = ahead or s1[j] > 0.0
            if not ahead:
                return ref
        _forms_win_samples(game, hand, place, me, opp, st, keeps, throws, crib_values,
                           card_values, table, hand_table, odds, out)
        for j in range(m):
            x = out[0, j] - out[0, ref]
            s1[j] += x
            s2[j] += x * x
    top = ref
    for j in range(m):
        if s1[j] > s1[top]:
            top = j
    if top == ref:
        return ref
    mean = s1[top] / samples
    var = (s2[top] - samples * mean * mean) / (samples - 1)
    if mean > 0 and mean * mean * samples >= z * z * max(var, 0.0):
        return top
    return ref


@njit(cache=True)
def _sample_scratch(game, dealt):
    """The arrays a kernel of deal samples (:func:`_forms_win_samples`,
    :func:`analyzer.play.winkeep3._win_samples3`) works in, for the form ``game`` and the
    player's ``dealt`` cards: ``(deck, hands, kept, thrown, crib, unseen, plays, pegged, show,
    laid, ints, ppol)``, ``deck`` the cards not dealt to the player (in id order; the samples
    shuffle it), ``ppol`` every seat pegging ``greedy``, the rest the engine's play's scratch."""
    n_players, n_dealt = game[GAME.players], game[GAME.dealt]
    n_kept, n_thrown = game[GAME.kept], game[GAME.thrown]
    deck = np.empty(52 - n_dealt, np.int64)
    n = 0
    for c in range(52):
        held = False
        for i in range(n_dealt):
            held = held or dealt[i] == c
        if not held:
            deck[n] = c
            n += 1
    hands = np.empty((n_players, n_dealt), np.int64)
    kept = np.empty((n_players, n_kept), np.int64)
    thrown = np.empty((n_players, n_thrown), np.int64)
    crib = np.empty(4, np.int64)
    unseen = np.empty((n_players, 13), np.int64)
    plays = np.zeros((n_players * n_kept, PLAY.size), np.int64)
    pegged = np.zeros(n_players, np.int64)
    show = np.zeros(n_players + 1, np.int64)
    laid = np.zeros((n_players, n_kept), np.bool_)
    ints = np.zeros(_play_ints(n_players, n_kept), np.int64)
    ppol = np.full(n_players, _GREEDY, np.int64)
    return deck, hands, kept, thrown, crib, unseen, plays, pegged, show, laid, ints, ppol


@njit(cache=True)
def _deal_sample(game, dealt, place, st, deck, hands):
    """One sample's deal: ``deck`` shuffled as far as the deal needs, the others' hands dealt
    from it into ``hands`` round the table (the player's, seat ``place``, is ``dealt``).
    Returns ``(pack, starter)``: where the pack's cards for the crib start in ``deck``, and the
    starter, the card after them."""
    n_players, n_dealt = game[GAME.players], game[GAME.dealt]
    n_pack = game[GAME.crib_from_pack]
    _shuffle_prefix(st, deck, np.int64((n_players - 1) * n_dealt + n_pack + 1))
    k = 0
    for q in range(n_players):
        for i in range(n_dealt):
            if q == place:
                hands[q, i] = dealt[i]
            else:
                hands[q, i] = deck[k]
                k += 1
    return k, deck[k + n_pack]


@njit(cache=True)
def _set_way(game, dealt, place, keeps, throws, d, hands, deck, pack, starter, kept, thrown,
             crib, unseen):
    """The player (seat ``place``) keeps way ``d`` of ``dealt`` (``keeps``, ``throws``): its
    row of ``kept`` and ``thrown``, the crib in seat order and then the pack's cards
    (``deck[pack:]``), and every seat's unseen ranks (its hand and the starter seen)."""
    n_players, n_dealt = game[GAME.players], game[GAME.dealt]
    n_kept, n_thrown = game[GAME.kept], game[GAME.thrown]
    n_pack = game[GAME.crib_from_pack]
    for i in range(n_kept):
        kept[place, i] = dealt[keeps[d, i]]
    for i in range(n_thrown):
        thrown[place, i] = dealt[throws[d, i]]
    c = 0
    for q in range(n_players):  # the crib in seat order, then the pack's cards
        for i in range(n_thrown):
            crib[c] = thrown[q, i]
            c += 1
    for i in range(n_pack):
        crib[c] = deck[pack + i]
        c += 1
    for q in range(n_players):
        for r in range(13):
            unseen[q, r] = 4
        for i in range(n_dealt):
            unseen[q, _rank(hands[q, i])] -= 1
        unseen[q, _rank(starter)] -= 1


@compiled_apart
@njit(cache=True, nogil=True)
def _forms_win_samples(game, dealt, place, me, opp, st, keeps, throws, crib_values, card_values,
                       table, hand_table, odds, out):
    """``out`` float64 (n, ways): for ``n`` samples of the rest of the deal, the probability
    that the player's side wins after each way to keep of ``dealt``.

    ``game`` int64 (:meth:`analyzer.core.game.Game.as_array`, two sides); ``dealt`` int64
    (dealt,) the player's cards; ``place`` the player's seat, the dealer being seat 0 (seat
    ``q`` scores for side ``q % 2``); ``me``, ``opp`` the player's side's and the other side's
    scores at the deal; ``keeps`` int64 (ways, kept) and ``throws`` int64 (ways, thrown) index
    ``dealt``; ``crib_values``, ``card_values``, ``table``, ``hand_table`` as the engine's
    ``ev`` players and show read them (the three-card hand table in five-card); ``odds`` the
    form's win-odds table (target + 1 square). ``st`` uint64 (4,) is advanced in place: the
    samples are drawn from it, the same for every way (the others' cards, the starter, their
    keeps), and ``greedy`` draws nothing, so ways differ only by the player's keep.
    """
    n_players, target = game[GAME.players], game[GAME.target]
    one_count = game[GAME.one_count] != 0
    n_sides = game[GAME.teams]
    mine = place % n_sides
    dealer = np.int64(0)  # np.int64, not a literal: the engine's versions of the steps
    deck, hands, kept, thrown, crib, unseen, plays, pegged, show, laid, ints, ppol = \
        _sample_scratch(game, dealt)
    scores = np.empty(n_sides, np.int64)
    for s in range(out.shape[0]):
        pack, starter = _deal_sample(game, dealt, place, st, deck, hands)
        for q in range(n_players):  # the others keep by ev, once for every way of the player
            if q != place:
                _ev_keep(hands[q], q % n_sides == dealer, crib_values, card_values, hand_table,
                         st, kept[q], thrown[q])
        heels = _his_heels(starter)
        for d in range(keeps.shape[0]):
            _set_way(game, dealt, place, keeps, throws, d, hands, deck, pack, starter, kept,
                     thrown, crib, unseen)
            scores[mine] = me
            scores[1 - mine] = opp
            scores[0] += heels  # the dealer's side
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
                out[s, d] = 1.0 if winner == mine else 0.0
            else:  # the next deal is dealt by seat 1, of side 1
                p = odds[target - scores[1], target - scores[0]]
                out[s, d] = p if mine == 1 else 1.0 - p


def _place(game, dealer: bool, position) -> int:
    """The player's seat with the dealer at seat 0, from ``dealer`` and ``position``."""
    if game.players == 2:
        if position is not None:  # as crib keep --position and six-card refuse it
            raise ArgumentError("position", f"position: for three-player and four-player; in "
                                f"{game.name} say dealer=True or False (got position "
                                f"{position!r})")
        return 0 if dealer else 1
    if position is None:
        return 0 if dealer else 1
    if position not in FORM_POSITIONS:
        raise ArgumentError("position", f"position: one of {', '.join(FORM_POSITIONS)} (your "
                            f"place from the dealer round to the left), got {position!r}")
    place = FORM_POSITIONS.index(position)
    if (place % 2 == 0) != bool(dealer):
        side = "your side deals" if place % 2 == 0 else "the other side deals"
        raise ArgumentError("position", f"position {position}: {side}, but the role given is "
                            f"the {'dealer' if dealer else 'pone'}'s")
    return place


def _check_scores(game, score, dealer: bool) -> tuple[int, int]:
    from ..core.choices import check_number, check_reachable

    try:
        me, opp = score
    except (TypeError, ValueError):
        raise ArgumentError("score", f"score must be two numbers (yours, the other side's), "
                            f"got {score!r}") from None
    top = game.target - 1
    checked = []
    for argument, name, value in (("me", "your score", me),
                                  ("opp", "the other side's score", opp)):
        try:
            checked.append(check_number(name, value, low=0, high=top, integer=True))
        except ValueError as exc:
            raise ArgumentError(argument, str(exc)) from None
    me, opp = checked
    try:
        check_reachable(game, (me, opp), pone=1 if dealer else 0)
    except ValueError as exc:
        raise ArgumentError("score", str(exc)) from None
    return me, opp


def check_forms(variant: str, dealer: bool, score, position=None):
    """What :func:`win_samples_forms` checks before the cards: the form (one with a win-odds
    table, played by two sides), the seat (``position`` agreeing with ``dealer``) and the
    score in the form's range.

    Returns ``(game, place, me, opp)``: the :class:`~analyzer.core.game.Game`, the player's seat
    counted from the dealer, and the scores. Raises
    :class:`~analyzer.core.errors.ArgumentError` naming ``"variant"``, ``"position"``,
    ``"me"``, ``"opp"`` or ``"score"``.

    Examples
    --------
    >>> game, place, me, opp = check_forms("four-player", False, (100, 95), "third")
    >>> game.name, place, me, opp
    ('four-player', 3, 100, 95)
    """
    from ..core.choices import variant_game
    from ..keeping.winodds import odds_game

    try:
        game = variant_game(variant)
        odds_game(game.name)  # three-player: no table
    except ValueError as exc:
        raise ArgumentError("variant", str(exc)) from None
    if game.teams != 2:
        raise ArgumentError("variant", f"keep_to_win: {game.name} is not played by two sides")
    place = _place(game, dealer, position)
    me, opp = _check_scores(game, score, bool(dealer))
    return game, place, me, opp


def win_samples_forms(cards, dealer: bool, score, samples: int, seed: int, crib: str | None,
                      variant: str, position=None, odds=None):
    """The samples behind the score-aware keep of a five-card or four-player hand:
    :func:`analyzer.play.winkeep.keep_to_win` with ``variant=`` calls it and ranks the keeps
    from them (it documents the arguments).

    ``score`` is (your side's, the other side's) at the deal; ``dealer``: your side deals (the
    crib is yours); ``position`` (four-player): your place from the dealer,
    :data:`analyzer.core.choices.FORM_POSITIONS` (default ``"dealer"`` when your side deals,
    ``"first"`` when not).

    Returns ``(points, keep_text, out, me, opp, seed, position)``: the :func:`analyzer.keep`
    frame of the hand, the text of each way to keep (as the frame writes it), the samples'
    P(win) float64 (samples, ways) in that order, the checked scores and seed, and the
    position's name (``"dealer"`` or ``"pone"`` in five-card).

    Examples
    --------
    >>> points, keeps, out, *_ = win_samples_forms("5H 5S 6D JC KH", True, (30, 30), 64, 0,
    ...                                            None, "five-card")
    >>> out.shape, len(keeps), len(points)
    ((64, 10), 10, 10)
    """
    from ..core.cards import CardError, as_cards, format_card
    from ..core.choices import check_number, on_threads
    from ..core.rng import chunk_states
    from ..core.scoring import hand3_table, hand_table, rank_table
    from ..keeping.crib import card_values as card_value_table
    from ..keeping.discard import _form_discards, keep
    from ..keeping.winodds import win_table
    from .reads import NO_CARD_VALUES, crib_pairs

    game, place, me, opp = check_forms(variant, dealer, score, position)
    samples = check_number("samples", samples, low=1, high=10**7, integer=True)
    seed = check_number("seed", seed, low=0, high=2**63 - 1, integer=True)
    points = keep(cards, bool(dealer), crib=crib, variant=game.name)
    ids = [int(c) for c in as_cards(cards)]
    if len(ids) != game.dealt or len(set(ids)) != game.dealt:
        raise CardError(f"a {game.name} hand is dealt {game.dealt} distinct cards, got "
                        f"{len(set(ids))}")
    dealt = np.array(sorted(ids), np.int64)
    keeps, throws = _form_discards(game.dealt, game.kept)
    if odds is None:
        odds = win_table(game.name)
    odds = np.array(odds, np.float64)
    if odds.shape != (game.target + 1, game.target + 1):
        raise ValueError(f"odds: a ({game.target + 1}, {game.target + 1}) table for "
                         f"{game.name}, got shape {odds.shape}")
    check_probabilities(odds)
    mode = points.attrs["crib_mode"]
    pairs = crib_pairs(mode, game.name)
    cards_table = card_value_table(mode, game.name) if game.thrown == 1 else NO_CARD_VALUES
    hands = hand3_table() if game.kept == 3 else hand_table()
    per_block = 64
    blocks = -(-samples // per_block)
    states = chunk_states(seed, np.arange(blocks))
    out = np.empty((blocks * per_block, len(keeps)), np.float64)
    game_array, table = game.as_array(), rank_table()
    keeps_a, throws_a = np.array(keeps), np.array(throws)

    def run(b):
        _forms_win_samples(game_array, dealt, np.int64(place), np.int64(me), np.int64(opp),
                           states[b], keeps_a, throws_a, pairs, cards_table, table, hands, odds,
                           out[b * per_block:(b + 1) * per_block])

    import numba

    on_threads(run, blocks, numba.get_num_threads())
    names = [format_card(c) for c in dealt]
    keep_text = [" ".join(names[k] for k in row) for row in keeps]
    where = FORM_POSITIONS[place] if game.players == 4 else ("dealer" if place == 0 else "pone")
    return points, keep_text, out, me, opp, seed, where
