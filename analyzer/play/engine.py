"""The game engine: whole games of cribbage, compiled with numba, as small steps.

One game runs entirely inside numba (:func:`_play_game`). It reads the form of the game from a
description (:class:`analyzer.core.game.Game`, as the array
:meth:`~analyzer.core.game.Game.as_array` makes) and goes deal after deal through short steps,
each a kernel of its own:

* :func:`_cut_for_deal` (:func:`_cut_cards`): the cut for the first deal (the lowest card
  deals, ties cut again), or a first dealer given by the run (duels alternate it,
  :data:`FIRST_DEALER_MODES`);
* :func:`_deal`: shuffle, deal each player's cards, turn the starter;
* :func:`_discards` (:func:`_discard_one`: one seat's, for the seat API,
  :mod:`analyzer.play.seat`): each player keeps some cards and throws the rest to the crib
  (discard policy; ``best`` keeps to win near the end, :mod:`analyzer.play.winkeep`, and in
  five-card and four-player :mod:`analyzer.play.winkeepforms`);
* his heels, the play and the show (:mod:`analyzer.play.deal`, shared with the simulations of a
  deal's end): a Jack turned pegs 2 to the dealer; the play round the table from the dealer's
  left with go, 31 and last card (pegging policy); the hands round the table, then the crib;
* :func:`_tally_deal`, :func:`_tally_game`: the statistics; :func:`_record_deal`,
  :func:`_record_game`: the game record.

The game stops the moment a player reaches the target, in the cut, the play or the show. Chance is
explicit: every step that draws takes a xoshiro256** state (:mod:`analyzer.core.rng`). The deal and
the discards go in seat order (the discards are made at the same time at the table; seat order is
the order the random stream is drawn in); the play and the show go in turn order from the dealer's
left.

Memory shared with :mod:`analyzer.sim.runs`, :mod:`analyzer.sim.harness` and
:mod:`analyzer.sim.records` is
laid out once each, by :func:`analyzer.core.game.layout`: the per-chunk accumulators (:data:`ACC`),
the crib outcomes (:data:`CRIB_ACC_SHAPE`), and the game records (:data:`GAME_RECORD` per game,
:data:`DEAL` per deal, :data:`PLAY` per card laid).

The steps loop over the players the description names, so every form of
:data:`analyzer.core.game.VARIANTS` is played by the same kernels: six cards dealt and two
thrown, five dealt and one thrown (three and four players, with a card from the pack to the
crib), or five dealt and two thrown (five-card, one count in the play, to 61).

Speed. Numba counts references to an array with an atomic instruction on its memory block each
time a compiled function takes it as an argument or makes a view of it. Measured with ``perf``,
those counts were two thirds of a game's time (about 80 increments and as many decrements a
deal), and two threads reading one table contended for its block. So the games read borrowed
arrays (:mod:`analyzer.core.borrow`): :func:`_run_chunk` borrows the tables its caller owns, a
game's arrays are views of one borrowed buffer (the play's workspace with them: a deal allocates
nothing), and each chunk keeps its own accumulators. The pegging policy is inlined into the
play (:func:`analyzer.play.players._choose_play_inline`).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import overload

from ..core.apart import compiled_apart
from ..core.borrow import _borrowed, _keep_alive
from ..core.choices import DISCARD_POLICIES
from ..core.game import GAME, MAX_DEALT, MAX_KEPT, MAX_PACK, MAX_PLAYERS, MAX_THROWN, layout
from ..core.jit import njit
from ..core.rng import _randint, _shuffle_prefix
from ..core.scoring import _rank, _throw_key
from ..keeping.discard import _DISCARD_TABLE, _KEEP_TABLE
from .deal import PLAY, _his_heels, _play, _play_ints, _play_tables, _play_with, _show
from .players import (
    _KEEP_THREE_OF_FIVE,
    _THROW_TWO_OF_FIVE,
    _choose_discard,
    _choose_keep3,
    _choose_throw,
)
from .winkeep import (
    BEST_DISCARD_CANDIDATES,
    BEST_DISCARD_FIRST,
    BEST_DISCARD_REACH,
    BEST_DISCARD_SAMPLES,
    ENGINE_SWITCH_Z,
    _best_discard,
)
from .winkeepforms import (
    FOUR_PLAYER_FIRST,
    FOUR_PLAYER_REACH,
    FOUR_PLAYER_SAMPLES,
    FOUR_PLAYER_Z,
    _best_discard_forms,
    _take_way,
)

__all__ = [
    "ACC", "CRIB_ACC_SHAPE", "CRIB_STAT", "DEAL", "FIRST_DEALER_MODES", "GAME_RECORD",
    "MAX_RECORDED_DEALS", "PHASE", "PHASES", "PLAY", "SKUNK_TIERS", "cut_for_deal", "deal_cards",
]

MAX_MARGIN = 256
_DISCARD_EV = DISCARD_POLICIES["ev"]
_DISCARD_PEGGING = DISCARD_POLICIES["pegging"]  # and every code after it: "best"
_DISCARD_BEST = DISCARD_POLICIES["best"]
MAX_DEALS_HIST = 128

#: The phases of a deal that score: a block of these for each position at the table.
PHASE = layout("Phase", [("pegging", 1), ("hand", 1), ("crib", 1), ("heels", 1)])
#: The positions at the table by the number of players: the dealer, then round from his left.
POSITIONS = {2: ("dealer", "pone"), 3: ("dealer", "first", "second"),
             4: ("dealer", "first", "second", "third")}
#: Which phases each position can score (the crib and his heels are the dealer's).
PHASES_OF = {"dealer": ("pegging", "hand", "crib", "heels")}


def phases(players: int) -> tuple[tuple[str, str, int], ...]:
    """``(position, phase, offset in a phase block)`` of every phase that scores, for a table of
    ``players``: the dealer's four, then two for each other player.

    >>> phases(2)[-1]
    ('pone', 'hand', 5)
    """
    out = []
    for k, name in enumerate(POSITIONS[players]):
        for phase in PHASES_OF.get(name, ("pegging", "hand")):
            out.append((name, phase, k * PHASE.size + getattr(PHASE, phase)))
    return tuple(out)


#: The two-player phases as ``(role, phase)`` pairs.
PHASES = tuple((role, phase) for role, phase, _ in phases(2))
#: The skunk tiers, in the order of the game's skunk lines.
SKUNK_TIERS = ("skunk", "double_skunk", "triple_skunk")
_N_TIERS = len(SKUNK_TIERS)

#: The per-chunk accumulator vector (int64).
ACC = layout("Acc", [
    ("games", 1),
    ("first_dealer_wins", 1),      # games won by the first dealer (or his side)
    ("side_wins", MAX_PLAYERS),    # games won by each side (a player, or a partnership)
    ("skunks", _N_TIERS),  # losers under each line (a deeper skunk counts in each)
    ("deals", 1),                  # every deal started
    ("complete_deals", 1),         # deals the game played to the end of the crib count
    ("phase_sum", MAX_PLAYERS * PHASE.size),  # points by position and phase, every deal whole
    ("phase_sumsq", MAX_PLAYERS * PHASE.size),  # their squares, for standard errors
    ("margin", MAX_MARGIN),        # games by winner's minus runner-up's final score
    ("deals_hist", MAX_DEALS_HIST),  # games by deals played (last bin: that or more)
    ("first_deals", MAX_PLAYERS),  # games each seat dealt first
    # games won by each side, by the skunk tier of the best-placed loser (0: none, 1: skunk, 2:
    # double, 3: triple): side q's block of _N_TIERS + 1 at q * (_N_TIERS + 1)
    ("tier_wins", MAX_PLAYERS * (_N_TIERS + 1)),
])

#: How the first dealer of each game is chosen, as :func:`_run_chunk` reads it: by the cut
#: (every run before duels), or seat ``index % players`` for game ``index`` (a duel: each player
#: deals first in turn, so exactly half the games each of an even number).
FIRST_DEALER_MODES = {"cut": -1, "alternate": -2}
_ALTERNATE = FIRST_DEALER_MODES["alternate"]

#: What is tallied of the cribs of one kind of throw: how many, their sum, their sum of squares.
CRIB_STAT = layout("CribStat", [("n", 1), ("sum", 1), ("sumsq", 1)])
#: Crib outcomes per chunk: ``[role, rank1, rank2, suited, CRIB_STAT]``, role 0 = thrown by the
#: dealer into his own crib, 1 = thrown by the pone; rank1 <= rank2.
CRIB_ACC_SHAPE = (2, 13, 13, 2, CRIB_STAT.size)

MAX_RECORDED_DEALS = 128
#: One recorded deal (int16); hands and discards by seat, ``MAX_DEALT`` and ``MAX_THROWN`` apart.
DEAL = layout("Deal", [
    ("dealer", 1), ("hands", MAX_PLAYERS * MAX_DEALT), ("discards", MAX_PLAYERS * MAX_THROWN),
    ("pack", MAX_PACK), ("starter", 1), ("heels", 1), ("n_plays", 1),
    ("plays", PLAY.size * MAX_PLAYERS * MAX_KEPT), ("n_show", 1), ("show", MAX_PLAYERS + 1),
    ("scores", MAX_PLAYERS),
])
#: One recorded game's header (int64).
GAME_RECORD = layout("GameRecord", [("first_dealer", 1), ("winner", 1),
                                    ("scores", MAX_PLAYERS), ("skunk", MAX_PLAYERS), ("deals", 1)])


# --------------------------------------------------------------------------- the steps


@njit(cache=True)
def _cut_for_deal(st, n_players):
    """The first dealer by the cut: each player cuts a card, the lowest rank deals, ties re-cut
    (:func:`_cut_cards`)."""
    cut = np.empty(n_players, np.int64)
    return _cut_cards(st, cut)


@njit(cache=True)
def _cut_cards(st, cut):
    """The cut for the first deal into ``cut`` int64 (players,): each player in seat order cuts
    a card, the lowest rank deals, ties cut again (``cut`` holds the last round). Returns the
    first dealer's seat.

    Card ``k`` of the cut is uniform over the ``52 - k`` cards not yet cut.
    """
    n_players = cut.shape[0]
    while True:
        for p in range(n_players):
            k = _randint(st, 52 - p)  # the k-th of the cards not yet cut
            for c in range(52):
                taken = False
                for q in range(p):
                    taken = taken or cut[q] == c
                if not taken:
                    if k == 0:
                        cut[p] = c
                        break
                    k -= 1
        low = 0
        ties = 0
        for p in range(1, n_players):
            if _rank(cut[p]) < _rank(cut[low]):
                low = p
                ties = 0
            elif _rank(cut[p]) == _rank(cut[low]):
                ties += 1
        if ties == 0:
            return low


@njit(cache=True)
def _deal(st, game, deck, hands):
    """Shuffle enough of ``deck`` (int64 (52,), any order), deal ``hands`` (players, dealt) and
    the cards the pack adds to the crib; return the starter."""
    n_players, n_dealt = game[GAME.players], game[GAME.dealt]
    n_cards = n_players * n_dealt + game[GAME.crib_from_pack]
    _shuffle_prefix(st, deck, n_cards + 1)
    for p in range(n_players):
        for i in range(n_dealt):
            hands[p, i] = deck[p * n_dealt + i]
    return deck[n_cards]


def cut_for_deal(st: np.ndarray, cut: np.ndarray) -> int:
    """The cut for the first deal, as the engine's games make it (:func:`_cut_cards`), for a
    game played in Python (:class:`analyzer.table.tabletop.Table`): each player in seat order
    cuts a card, the lowest rank deals, ties cut again. ``st`` uint64 (4,) a xoshiro256**
    state (:func:`analyzer.core.rng.chunk_states`), advanced in place; ``cut`` int64 (players,)
    gets the last round's cards. Returns the first dealer's seat.

    >>> from analyzer.core.rng import chunk_states
    >>> cut = np.zeros(2, np.int64)
    >>> seat = cut_for_deal(chunk_states(7, 1)[0], cut)
    >>> seat == int(np.argmin(cut // 4))
    True
    """
    from ..core.rng import check_state

    return int(_cut_cards(check_state("st", st), cut))  # an all-zero state ties for ever


def deal_cards(st: np.ndarray, game: np.ndarray, deck: np.ndarray, hands: np.ndarray) -> int:
    """Shuffle and deal as the engine's games do (:func:`_deal`), for a game played in Python:
    ``game`` the form as the engine's array (:meth:`analyzer.core.game.Game.as_array`),
    ``deck`` int64 (52,) in any order (the dealt cards, then those the pack adds to the crib,
    come first after it), ``hands`` int64 (players, dealt) gets the hands. ``st`` as
    :func:`cut_for_deal`. Returns the starter.

    >>> from analyzer.core.game import STANDARD
    >>> from analyzer.core.rng import chunk_states
    >>> hands = np.zeros((2, 6), np.int64)
    >>> starter = deal_cards(chunk_states(7, 1)[0], STANDARD.as_array(), np.arange(52), hands)
    >>> len(set(hands.ravel().tolist()) | {starter})
    13
    """
    return int(_deal(st, game, deck, hands))


@compiled_apart
@njit(cache=True)
def _discards(st, game, hands, dealer, starter, deck, dpol, crib_values, card_values,
              hand_table, kept, thrown, crib, unseen_rank, scores, table, peg_values, odds):
    """Each player, in seat order, keeps ``kept`` and throws ``thrown`` by its discard policy
    (:func:`_discard_one`, the step a game at the table makes for one seat).

    Fills ``crib`` (4,) with the cards thrown, in seat order, then those from the pack, and
    ``unseen_rank`` (players, 13) with what each player has not seen, by rank.
    """
    n_players, n_dealt = game[GAME.players], game[GAME.dealt]
    n_thrown, n_sides = game[GAME.thrown], game[GAME.teams]
    n = 0
    for p in range(n_players):
        own = p % n_sides == dealer % n_sides  # the crib is this player's side's
        _discard_one(st, game, hands[p], own, dpol[p], scores, p, dealer, crib_values,
                     card_values, hand_table, table, peg_values, odds, kept[p], thrown[p])
        for i in range(n_thrown):
            crib[n] = thrown[p, i]
            n += 1
    for i in range(game[GAME.crib_from_pack]):
        crib[n] = deck[n_players * n_dealt + i]
        n += 1
    for p in range(n_players):
        unseen_rank[p, :] = 4
        for i in range(n_dealt):
            unseen_rank[p, _rank(hands[p, i])] -= 1
        unseen_rank[p, _rank(starter)] -= 1


def _forms_discard(game, hand, place, pol, me, opp, st, crib_values, card_values, table,
                   hand_table, peg_values, odds):
    """``best``'s discard in five-card and four-player
    (:func:`analyzer.play.winkeepforms._best_discard_forms`), or -1 where it does not apply
    (another policy; three-player, whose table of three needs the engine does not read; no
    win-odds table): the way to keep, in the order of
    :func:`analyzer.play.winkeepforms._ways`. Chosen by the types of the tables as the caller
    is compiled (as :func:`analyzer.play.deal._searched_play`): only the forms' ``best``
    (``peg_values`` None, ``odds`` an array: :func:`analyzer.play.reads.score_tables`) compiles
    it; six-card and runs without ``best`` compile a constant -1. Five-card samples as six-card
    does (:data:`analyzer.play.winkeep.BEST_DISCARD_SAMPLES` and the rest), four-player by
    :data:`analyzer.play.winkeepforms.FOUR_PLAYER_SAMPLES` and the rest (more samples, closer
    to the end)."""
    raise NotImplementedError("called from compiled code only")


@overload(_forms_discard)
def _forms_discard_of_the_tables(game, hand, place, pol, me, opp, st, crib_values, card_values,
                                 table, hand_table, peg_values, odds):
    if isinstance(peg_values, types.NoneType) and isinstance(odds, types.Array):
        def searched(game, hand, place, pol, me, opp, st, crib_values, card_values, table,
                     hand_table, peg_values, odds):
            if (pol != _DISCARD_BEST or game[GAME.teams] != 2
                    or odds.shape[0] != game[GAME.target] + 1):
                return -1
            if game[GAME.players] == 4:
                return _best_discard_forms(game, hand, place, me, opp, st, crib_values,
                                           card_values, table, hand_table, odds,
                                           np.int64(FOUR_PLAYER_SAMPLES),
                                           np.int64(FOUR_PLAYER_REACH),
                                           np.int64(FOUR_PLAYER_FIRST), FOUR_PLAYER_Z)
            return _best_discard_forms(game, hand, place, me, opp, st, crib_values,
                                       card_values, table, hand_table, odds,
                                       np.int64(BEST_DISCARD_SAMPLES),
                                       np.int64(BEST_DISCARD_REACH),
                                       np.int64(BEST_DISCARD_FIRST), ENGINE_SWITCH_Z)
        return searched

    def none(game, hand, place, pol, me, opp, st, crib_values, card_values, table, hand_table,
             peg_values, odds):
        return -1
    return none


@compiled_apart
@njit(cache=True)
def _discard_one(st, game, hand, own, pol, scores, p, dealer, crib_values, card_values,
                 hand_table, table, peg_values, odds, kept, thrown):
    """One player's discard (:func:`_discards` makes each in seat order): from ``hand`` int64
    (dealt,), by discard policy ``pol``, write the cards kept into ``kept`` (kept,) and those
    thrown into ``thrown`` (thrown,), each in the order of the hand. ``own``: the crib is the
    player's side's; ``scores`` (by side), ``p``, the player's seat, and ``dealer``, the
    dealer's, are what ``best`` reads (with two players, side and seat are one; in four-player
    the player's side is ``p % 2``). Draws from ``st`` only as the policy does.

    ``best`` keeps to win near the end: in six-card by
    :func:`analyzer.play.winkeep._best_discard`, in five-card and four-player by
    :func:`analyzer.play.winkeepforms._best_discard_forms` (when given the form's win-odds
    table), else (three-player: keeping to win from its table of three needs gained nothing
    measurable, docs/simulate-and-tables.md) as ``ev``; ``pegging`` is ``ev`` outside
    six-card."""
    n_players, n_dealt = game[GAME.players], game[GAME.dealt]
    n_kept, n_thrown = game[GAME.kept], game[GAME.thrown]
    if pol >= _DISCARD_PEGGING and (n_players != 2 or n_dealt != 6):
        side = p % 2
        d = _forms_discard(game, hand, (p - dealer + n_players) % n_players, pol, scores[side],
                           scores[1 - side], st, crib_values, card_values, table, hand_table,
                           peg_values, odds)
        if d >= 0:
            _take_way(hand, d, kept, thrown)
            return
        pol = _DISCARD_EV  # the pegging table and the search are the six-card game's
    if peg_values is not None and pol >= _DISCARD_PEGGING:
        samples = BEST_DISCARD_SAMPLES if pol == _DISCARD_BEST else 0
        d = _best_discard(hand, own, scores[p], scores[1 - p], st, crib_values, peg_values,
                          table, hand_table, odds, samples, np.int64(BEST_DISCARD_REACH),
                          np.int64(BEST_DISCARD_CANDIDATES))
        for i in range(n_kept):
            kept[i] = hand[_KEEP_TABLE[d][i]]
        for i in range(n_thrown):
            thrown[i] = hand[_DISCARD_TABLE[d][i]]
    elif n_dealt == 6:
        d = _choose_discard(pol, hand, own, crib_values, hand_table, st)
        for i in range(n_kept):
            kept[i] = hand[_KEEP_TABLE[d][i]]
        for i in range(n_thrown):
            thrown[i] = hand[_DISCARD_TABLE[d][i]]
    elif n_thrown == 1:  # five dealt, one thrown (three and four players)
        d = _choose_throw(pol, hand, own, card_values, hand_table, st)
        j = 0
        for i in range(n_dealt):
            if i == d:
                thrown[0] = hand[i]
            else:
                kept[j] = hand[i]
                j += 1
    else:  # five dealt, two thrown, three kept (five-card; hand_table is the hand3 table)
        d = _choose_keep3(pol, hand, own, crib_values, hand_table, st)
        for i in range(n_kept):
            kept[i] = hand[_KEEP_THREE_OF_FIVE[d][i]]
        for i in range(n_thrown):
            thrown[i] = hand[_THROW_TWO_OF_FIVE[d][i]]


@njit(cache=True, inline="always")
def _add_crib_outcome(crib_acc, role, a, b, points):
    r1, r2, suited = _throw_key(a, b)
    crib_acc[role, r1, r2, suited, CRIB_STAT.n] += 1
    crib_acc[role, r1, r2, suited, CRIB_STAT.sum] += points
    crib_acc[role, r1, r2, suited, CRIB_STAT.sumsq] += points * points


@njit(cache=True)
def _tally_deal(acc, crib_acc, dealer, pegged, show, heels, thrown, phase):
    """Add one deal, played out whole, to the accumulators: points by position and phase (the
    dealer first, then round from his left), and the crib outcomes of two-card throws."""
    n_players = pegged.shape[0]
    phase[:] = 0
    for k in range(n_players):  # k: the position from the dealer, 0 the dealer himself
        p = (dealer + k) % n_players
        block = k * PHASE.size
        phase[block + PHASE.pegging] = pegged[p]
        phase[block + PHASE.hand] = show[(k + n_players - 1) % n_players]
    phase[PHASE.crib] = show[n_players]
    phase[PHASE.heels] = heels
    for k in range(n_players * PHASE.size):
        acc[ACC.phase_sum + k] += phase[k]
        acc[ACC.phase_sumsq + k] += phase[k] * phase[k]
    if thrown.shape[1] == 2:
        for p in range(n_players):
            _add_crib_outcome(crib_acc, 0 if p == dealer else 1, thrown[p, 0], thrown[p, 1],
                              show[n_players])


@njit(cache=True, inline="always")
def _skunk_tier(loser_score, game):
    """How many of the game's skunk lines ``loser_score`` is under (0..3)."""
    tier = 0
    for t in range(_N_TIERS):
        if loser_score < game[GAME.skunk_lines + t]:
            tier = t + 1
    return tier


@njit(cache=True)
def _tally_game(acc, game, scores, winner, first_dealer, deals, tiers):
    """Add one finished game to the accumulators; write each side's skunk tier into ``tiers``
    (0 for the winner). ``scores`` and ``winner`` are by side, ``first_dealer`` a seat. The win
    is also counted by the tier of the best-placed loser (the only loser of two sides)."""
    runner_up = -1
    for q in range(scores.shape[0]):
        tiers[q] = 0
        if q != winner:
            runner_up = max(runner_up, scores[q])
            tiers[q] = _skunk_tier(scores[q], game)
            for k in range(tiers[q]):
                acc[ACC.skunks + k] += 1
    acc[ACC.games] += 1
    acc[ACC.first_deals + first_dealer] += 1
    acc[ACC.tier_wins + winner * (_N_TIERS + 1) + _skunk_tier(runner_up, game)] += 1
    if winner == first_dealer % scores.shape[0]:
        acc[ACC.first_dealer_wins] += 1
    acc[ACC.side_wins + winner] += 1
    acc[ACC.deals] += deals
    acc[ACC.margin + min(scores[winner] - runner_up, MAX_MARGIN - 1)] += 1
    acc[ACC.deals_hist + min(deals, MAX_DEALS_HIST - 1)] += 1


@njit(cache=True)
def _record_deal(row, dealer, hands, thrown, crib, starter, heels, plays, n_plays, show, shown,
                 scores):
    """Write one deal into ``row`` int16 (DEAL.size,); ``scores`` by side."""
    row[DEAL.dealer] = dealer
    for p in range(hands.shape[0]):
        for i in range(hands.shape[1]):
            row[DEAL.hands + p * MAX_DEALT + i] = hands[p, i]
        for i in range(thrown.shape[1]):
            row[DEAL.discards + p * MAX_THROWN + i] = thrown[p, i]
    for q in range(scores.shape[0]):
        row[DEAL.scores + q] = scores[q]
    n_thrown = hands.shape[0] * thrown.shape[1]
    for i in range(4 - n_thrown):  # the cards the pack gave the crib
        row[DEAL.pack + i] = crib[n_thrown + i]
    row[DEAL.starter] = starter
    row[DEAL.heels] = heels
    row[DEAL.n_plays] = n_plays
    for i in range(n_plays):
        for j in range(PLAY.size):
            row[DEAL.plays + PLAY.size * i + j] = plays[i, j]
    row[DEAL.n_show] = shown
    for i in range(shown):
        row[DEAL.show + i] = show[i]


@njit(cache=True)
def _record_game(rec, first_dealer, winner, scores, tiers, deals):
    """Write one game's header into ``rec`` int64 (GAME_RECORD.size,); scores and tiers by side."""
    rec[GAME_RECORD.first_dealer] = first_dealer
    rec[GAME_RECORD.winner] = winner
    for q in range(scores.shape[0]):
        rec[GAME_RECORD.scores + q] = scores[q]
        rec[GAME_RECORD.skunk + q] = tiers[q]
    rec[GAME_RECORD.deals] = deals


# --------------------------------------------------------------------------- a whole game


@njit(cache=True, inline="always")
def _play_game(st, game, dpol, ppol, crib_values, card_values, table, hand_table, peg_values,
               odds, acc, crib_acc, rec_game, rec_deals, record, first):
    """Play one whole game; add it to ``acc`` and ``crib_acc``; write the record if ``record``.

    ``game`` is the description (:meth:`analyzer.core.game.Game.as_array`); ``dpol`` and ``ppol``
    int64 (players,) the discard and pegging policy of each seat; ``crib_values`` (two cards
    thrown) and ``card_values`` (one card) the tables the ``ev`` policy reads; ``table`` the rank
    table, ``hand_table`` the same by kept hand (:func:`analyzer.core.scoring.hand_table`).
    ``rec_game`` int64 (GAME_RECORD.size,) and ``rec_deals`` int16 (MAX_RECORDED_DEALS,
    DEAL.size) receive the record. ``peg_values`` and ``odds`` are the pegging table and the
    win-odds table the ``pegging`` and ``best`` policies read (:func:`_discards`,
    :func:`analyzer.play.deal._play`). Scores are kept by side: seat ``p`` scores for side
    ``p % sides`` (partners sit opposite). ``first`` is the seat that deals first, or -1 for
    the cut (which draws from ``st``; a given first dealer draws nothing for it). The winner's
    final score is the target: a side that reaches it wins at once, and points past it are
    not counted (docs/rules.md).
    """
    n_players, n_dealt = game[GAME.players], game[GAME.dealt]
    n_kept, n_thrown, target = game[GAME.kept], game[GAME.thrown], game[GAME.target]
    one_count, n_sides = game[GAME.one_count] != 0, game[GAME.teams]
    # The game's arrays are views of one zeroed buffer (and the generator copies of another):
    # two allocations a game instead of seventeen.
    n_plays_max = n_players * n_kept
    n_ints = (52 + 3 * n_sides + n_players * (n_dealt + n_kept + n_thrown + 2 * 13 + 2) + 5
              + MAX_PLAYERS * PHASE.size + 2 * n_plays_max * PLAY.size)
    n_play_ints = _play_ints(n_players, n_kept)
    owner = np.zeros(n_ints + n_play_ints, np.int64)
    buf = _borrowed(owner)  # views of it count no references (analyzer.core.borrow)
    deck, o = buf[0:52], 52
    for c in range(52):
        deck[c] = c
    scores, o = buf[o:o + n_sides], o + n_sides
    hands, o = buf[o:o + n_players * n_dealt].reshape((n_players, n_dealt)), o + n_players * n_dealt
    kept, o = buf[o:o + n_players * n_kept].reshape((n_players, n_kept)), o + n_players * n_kept
    thrown = buf[o:o + n_players * n_thrown].reshape((n_players, n_thrown))
    o += n_players * n_thrown
    crib, o = buf[o:o + 4], o + 4
    unseen_rank, o = buf[o:o + n_players * 13].reshape((n_players, 13)), o + n_players * 13
    unseen_saved, o = buf[o:o + n_players * 13].reshape((n_players, 13)), o + n_players * 13
    plays = buf[o:o + n_plays_max * PLAY.size].reshape((n_plays_max, PLAY.size))
    o += n_plays_max * PLAY.size
    stat_plays = buf[o:o + n_plays_max * PLAY.size].reshape((n_plays_max, PLAY.size))
    o += n_plays_max * PLAY.size
    pegged, o = buf[o:o + n_players], o + n_players
    show, o = buf[o:o + n_players + 1], o + n_players + 1
    phase, o = buf[o:o + MAX_PLAYERS * PHASE.size], o + MAX_PLAYERS * PHASE.size
    tiers, o = buf[o:o + n_sides], o + n_sides
    stat_scores, o = buf[o:o + n_sides], o + n_sides
    play_ints = buf[o:o + n_play_ints]
    laid_owner = np.zeros((n_players, n_kept), np.bool_)
    laid = _borrowed(laid_owner)
    states_owner = np.empty(2 * st.shape[0], st.dtype)
    states = _borrowed(states_owner)
    st_saved = states[:st.shape[0]]
    st_stats = states[st.shape[0]:]
    peg_play = _play_tables(peg_values, odds)  # None unless a seat searches
    first_dealer = _cut_for_deal(st, n_players) if first < 0 else first
    scores[(first_dealer + 1) % n_sides] += game[GAME.start_points]
    dealer = first_dealer
    winner = -1
    deals = 0
    while winner < 0:
        starter = _deal(st, game, deck, hands)
        _discards(st, game, hands, dealer, starter, deck, dpol, crib_values, card_values,
                  hand_table, kept, thrown, crib, unseen_rank, scores, table, peg_values, odds)
        pegged[:] = 0
        n_plays = 0
        for k in range(st.shape[0]):  # for the statistics' play-out of a deal the game ends in
            st_saved[k] = st[k]
        for k in range(unseen_rank.shape[0]):
            for r in range(13):
                unseen_saved[k, r] = unseen_rank[k, r]
        heels = _his_heels(starter)
        scores[dealer % n_sides] += heels
        if scores[dealer % n_sides] >= target:
            winner = dealer % n_sides
        play_complete = False
        if winner < 0:
            laid[:, :] = False
            play_ints[:] = 0
            n_plays, winner = _play_with(kept, dealer, ppol, unseen_rank, scores, target, st,
                                         plays, pegged, one_count, thrown, starter, table,
                                         peg_play, odds, crib_values, card_values,
                                         hand_table, laid, play_ints)
            play_complete = winner < 0
        shown, winner = _show(kept, crib, starter, dealer, table, hand_table, scores, target,
                              winner, show)
        if winner >= 0:  # the winner pegs out in the game hole: nothing past the target counts
            scores[winner] = min(scores[winner], target)
        deals += 1
        if shown == n_players + 1:
            acc[ACC.complete_deals] += 1
        # The statistics see every deal whole. When the game ends in the cut or the play, the play
        # is played out again past the winning moment, from the same generator state, on copies
        # (the game itself, its generator and its record are untouched).
        if not play_complete:
            for k in range(st_saved.shape[0]):
                st_stats[k] = st_saved[k]
            stat_scores[:] = 0
            pegged[:] = 0
            laid[:, :] = False
            play_ints[:] = 0
            _play_with(kept, dealer, ppol, unseen_saved, stat_scores, np.int64(1 << 30), st_stats,
                       stat_plays, pegged, one_count, thrown, starter, table, peg_play, odds,
                       crib_values, card_values, hand_table, laid, play_ints)
        _tally_deal(acc, crib_acc, dealer, pegged, show, heels, thrown, phase)
        if record and deals <= MAX_RECORDED_DEALS:
            _record_deal(rec_deals[deals - 1], dealer, hands, thrown, crib, starter, heels, plays,
                         n_plays, show, shown, scores)
        dealer = (dealer + 1) % n_players
    _tally_game(acc, game, scores, winner, first_dealer, deals, tiers)
    if record:
        _record_game(rec_game, first_dealer, winner, scores, tiers, deals)
    _keep_alive(owner)
    _keep_alive(laid_owner)
    _keep_alive(states_owner)


@njit(cache=True, nogil=True)
def _run_chunk(state, n_games, first_game, game, dpol, ppol, crib_values, card_values, table,
               hand_table, peg_values, odds, acc, crib_acc, rec_games, rec_deals, rec_lo, rec_hi,
               first_mode):
    """Play one chunk of ``n_games`` games, the first of them game number ``first_game``, and add
    them to ``acc`` int64 (ACC.size,) and ``crib_acc`` int64 CRIB_ACC_SHAPE.

    ``state`` uint64 (4,): the chunk's generator state (copied, never changed). Games with index
    in ``[rec_lo, rec_hi)`` are recorded into row ``index - rec_lo`` of ``rec_games`` (rows,
    GAME_RECORD.size) and ``rec_deals`` (rows, MAX_RECORDED_DEALS, DEAL.size). ``first_mode``
    (:data:`FIRST_DEALER_MODES`): -1, the first dealer by the cut; -2, seat ``index % players``
    for game ``index``. The result depends only on the state, the size, the first game and the
    mode, so chunks may run on any threads in any order (:func:`analyzer.sim.runs.run_plan` runs
    them on Python threads: the kernel releases the GIL). The other arguments are
    :func:`_play_game`'s.

    The games read every array through borrowed views (:mod:`analyzer.core.borrow`): the caller
    owns them until the call returns, and no thread touches a shared reference count.
    """
    n_players = game[GAME.players]
    game_, dpol_, ppol_ = _borrowed(game), _borrowed(dpol), _borrowed(ppol)
    crib_, card_ = _borrowed(crib_values), _borrowed(card_values)
    table_, hands_ = _borrowed(table), _borrowed(hand_table)
    peg_, odds_ = _borrowed(peg_values), _borrowed(odds)
    rec_games_, rec_deals_ = _borrowed(rec_games), _borrowed(rec_deals)
    acc_, crib_acc_ = _borrowed(acc), _borrowed(crib_acc)
    st_owner = state.copy()
    st = _borrowed(st_owner)
    for g in range(n_games):
        index = first_game + g
        record = rec_lo <= index < rec_hi
        slot = index - rec_lo if record else 0
        first = index % n_players if first_mode == _ALTERNATE else -1
        _play_game(st, game_, dpol_, ppol_, crib_, card_, table_, hands_, peg_, odds_, acc_,
                   crib_acc_, rec_games_[slot], rec_deals_[slot], record, first)
    _keep_alive(st_owner)


@njit(cache=True)
def _play_deal(kept, dealer, peg_pol, starter, target, scores, st, one_count, table, crib_values,
               card_values, hand_table, peg_values, odds):
    """The play of one deal from given kept hands (for :func:`analyzer.sim.harness.play_hands`);
    ``best`` sees no thrown cards and values pegging points (``odds`` any (1, 1) array; ``None``
    when no seat plays ``best``); ``crib_values``, ``card_values`` and ``hand_table`` are its
    model of the others' discards."""
    n_players, n_cards = kept.shape
    unseen_rank = np.full((n_players, 13), 4, np.int64)
    for p in range(n_players):
        for i in range(n_cards):
            unseen_rank[p, _rank(kept[p, i])] -= 1
        if starter >= 0:
            unseen_rank[p, _rank(starter)] -= 1
    plays = np.zeros((n_players * n_cards, PLAY.size), np.int64)
    pegged = np.zeros(n_players, np.int64)
    thrown = np.empty((n_players, 0), np.int64)
    n_plays, winner = _play(kept, dealer, peg_pol, unseen_rank, scores, target, st, plays, pegged,
                            one_count, thrown, starter, table, peg_values, odds, crib_values,
                            card_values, hand_table)
    return plays[:n_plays], pegged, winner
