"""The game engine: whole games of two-player cribbage to 121, compiled with numba.

One game runs entirely inside numba (:func:`_play_game`): the cut for the first deal, then deal
after deal, the dealer alternating: six cards each from a shuffled pack, two each to the crib
(discard policy), the starter and his heels, the play with go, 31 and last card (pegging policy),
the show in the order pone, dealer, crib. The game stops the moment a player reaches 121, in the
cut, the play or the show. Chance is explicit: every kernel takes a xoshiro256** state
(:mod:`analyzer.rng`).

The rules are a description, not code paths: the number of players, the cards dealt, kept and the
target are read from :data:`STANDARD` (``int64 [players, dealt, kept, target]``), and the play
and the show already loop over players in turn order from the dealer's left, so the other forms of
RULES.md (three players, four in partnership, five-card to 61) add a description, a deal step and
a discard policy for their hand sizes rather than a new engine. Only the standard game is enabled.

Per-chunk accumulators (:data:`ACC_SIZE` int64 counters and a crib-outcome array) are filled
here and summed by :mod:`analyzer.runs`. Games in a given range of indices can also be written
into record arrays (:data:`DEAL_FIELDS` per deal), turned into JSON by :mod:`analyzer.records`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from . import rules
from .discard import _DISCARD_TABLE, _KEEP_TABLE
from .players import _choose_discard, _choose_play
from .rng import _randint, _shuffle_prefix
from .scoring import _peg_points, _score_one

__all__ = ["ACC", "ACC_SIZE", "DEAL_FIELDS", "MAX_RECORDED_DEALS", "PHASES", "STANDARD"]

#: The standard game: 2 players, 6 dealt, 4 kept, to 121.
STANDARD = np.array([2, 6, 4, rules.GAME_POINTS], dtype=np.int64)

#: Scoring phases by role, in accumulator order.
PHASES = (
    ("dealer", "pegging"), ("dealer", "hand"), ("dealer", "crib"), ("dealer", "heels"),
    ("pone", "pegging"), ("pone", "hand"),
)
MAX_MARGIN = 256
MAX_DEALS_HIST = 128

#: Offsets of the per-chunk accumulator vector.
ACC = {
    "games": 0,
    "first_dealer_wins": 1,
    "seat0_wins": 2,
    "skunk": 3,          # loser under 91 (skunks of every depth)
    "double_skunk": 4,   # loser under 61
    "triple_skunk": 5,   # loser under 31
    "deals": 6,          # every deal started
    "complete_deals": 7,  # deals the game played to the end of the crib count
    "phase_sum": 8,      # 6 phases: points summed over every deal, played out whole
    "phase_sumsq": 14,   # 6 phases: squares, for standard errors
    "margin": 20,        # MAX_MARGIN bins: winner's minus loser's final score
    "deals_hist": 20 + MAX_MARGIN,  # MAX_DEALS_HIST bins: deals per game (last bin: that or more)
}
ACC_SIZE = 20 + MAX_MARGIN + MAX_DEALS_HIST

#: Crib outcomes per chunk: ``[role, rank1, rank2, suited, (count, sum, sum of squares)]``, role 0
#: = thrown by the dealer into his own crib, 1 = thrown by the pone; rank1 <= rank2.
CRIB_ACC_SHAPE = (2, 13, 13, 2, 3)

MAX_RECORDED_DEALS = 128
#: Layout of one recorded deal (int16).
DEAL_FIELDS = 50
F_DEALER, F_HANDS, F_DISCARDS, F_STARTER, F_HEELS = 0, 1, 13, 17, 18
F_NPLAYS, F_PLAYS, F_NSHOW, F_SHOW, F_SCORES = 19, 20, 44, 45, 48
#: Layout of one recorded game header (int64): first dealer, winner, two scores, skunk, deals.
GAME_FIELDS = 6


@njit(cache=True, inline="always")
def _value(card):
    return min((card >> 2) + 1, 10)


@njit(cache=True)
def _cut_for_deal(st):
    """The first dealer by the cut: each player cuts a card, the lower rank deals, ties re-cut."""
    while True:
        a = _randint(st, 52)
        b = _randint(st, 51)
        if b >= a:
            b += 1
        if (a >> 2) != (b >> 2):
            return 0 if (a >> 2) < (b >> 2) else 1


@njit(cache=True)
def _skunk_tier(loser_score):
    if loser_score < rules.TRIPLE_SKUNK_LINE:
        return 3
    if loser_score < rules.DOUBLE_SKUNK_LINE:
        return 2
    if loser_score < rules.SKUNK_LINE:
        return 1
    return 0


@njit(cache=True)
def _play(kept, dealer, peg_pol, unseen_rank, scores, target, st, plays, pegged):
    """The play of one deal. Returns ``(number of cards laid, winner or -1)``.

    ``kept`` int64 (players, cards): the hands; ``peg_pol`` int64 (players,): pegging policies;
    ``unseen_rank`` int64 (players, 13): what each player has not seen, by rank (updated as cards
    are laid); ``scores`` int64 (players,) updated as points are pegged, stopping the moment one
    reaches ``target``. Writes ``plays`` int64 (players * cards, 3): player, card, points (the go
    or last-card point included), and adds each player's pegging points to ``pegged``.
    """
    n_players, n_cards = kept.shape
    laid = np.zeros((n_players, n_cards), np.bool_)
    left = np.full(n_players, n_cards, np.int64)
    total_left = n_players * n_cards
    seq = np.empty(n_players * n_cards + 1, np.int64)  # ranks in the current count
    nseq = 0
    count = 0
    turn = (dealer + 1) % n_players
    last = -1
    passes = 0
    n_plays = 0
    while total_left > 0:
        p = turn
        nxt = (p + 1) % n_players
        choice = -1
        if left[p] > 0:
            others = total_left - left[p]
            choice = _choose_play(peg_pol[p], kept[p], n_cards, laid[p], seq, nseq, count,
                                  unseen_rank[p], left[nxt], others == 0 and left[p] == 1, st)
        if choice < 0:  # go (or no cards left)
            passes += 1
            if passes >= n_players:  # nobody can lay: the last to lay pegs one for the go
                scores[last] += rules.GO_POINTS
                pegged[last] += rules.GO_POINTS
                plays[n_plays - 1, 2] += rules.GO_POINTS
                if scores[last] >= target:
                    return n_plays, last
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
        count += _value(card)
        seq[nseq] = card >> 2
        nseq += 1
        points = _peg_points(seq, nseq, count)
        if total_left == 0 and count != rules.MAX_COUNT:
            points += rules.LAST_CARD_POINTS
        plays[n_plays, 0] = p
        plays[n_plays, 1] = card
        plays[n_plays, 2] = points
        n_plays += 1
        for q in range(n_players):
            if q != p:
                unseen_rank[q, card >> 2] -= 1
        scores[p] += points
        pegged[p] += points
        if scores[p] >= target:
            return n_plays, p
        last = p
        passes = 0
        if count == rules.MAX_COUNT:  # 31: a new count, led by the next player
            count = 0
            nseq = 0
        turn = nxt
    return n_plays, -1


@njit(cache=True)
def _add_crib_outcome(crib_acc, role, a, b, points):
    r1, r2 = a >> 2, b >> 2
    if r1 > r2:
        r1, r2 = r2, r1
    suited = 1 if (a & 3) == (b & 3) else 0
    crib_acc[role, r1, r2, suited, 0] += 1
    crib_acc[role, r1, r2, suited, 1] += points
    crib_acc[role, r1, r2, suited, 2] += points * points


@njit(cache=True)
def _play_game(st, game, dpol, ppol, crib_values, table, acc, crib_acc, rec_game, rec_deals,
               record):
    """Play one whole game; add it to ``acc`` and ``crib_acc``; write the record if ``record``.

    ``game`` is the rules description (:data:`STANDARD`); ``dpol`` and ``ppol`` int64 (2,) the
    discard and pegging policy of each seat; ``crib_values`` the table the ``ev`` policy reads;
    ``table`` the rank table. ``rec_game`` int64 (GAME_FIELDS,) and ``rec_deals`` int16
    (MAX_RECORDED_DEALS, DEAL_FIELDS) receive the record.
    """
    n_players, n_dealt, n_kept, target = game[0], game[1], game[2], game[3]
    n_thrown = n_dealt - n_kept
    deck = np.arange(52, dtype=np.int64)
    scores = np.zeros(n_players, np.int64)
    hands = np.empty((n_players, n_dealt), np.int64)
    kept = np.empty((n_players, n_kept), np.int64)
    thrown = np.empty((n_players, n_thrown), np.int64)
    unseen_rank = np.empty((n_players, 13), np.int64)
    plays = np.zeros((n_players * n_kept, 3), np.int64)
    pegged = np.zeros(n_players, np.int64)
    phase = np.zeros(6, np.int64)
    st_saved = np.empty_like(st)
    st_stats = np.empty_like(st)
    unseen_saved = np.empty_like(unseen_rank)
    stat_scores = np.zeros(n_players, np.int64)
    stat_plays = np.zeros_like(plays)
    first_dealer = _cut_for_deal(st)
    dealer = first_dealer
    winner = -1
    deals = 0
    while winner < 0:
        _shuffle_prefix(st, deck, n_players * n_dealt + 1)
        pone = (dealer + 1) % n_players
        starter = deck[n_players * n_dealt]
        for p in range(n_players):
            for i in range(n_dealt):
                hands[p, i] = deck[p * n_dealt + i]
            d = _choose_discard(dpol[p], hands[p], p == dealer, crib_values, table, st)
            for i in range(n_kept):
                kept[p, i] = hands[p, _KEEP_TABLE[d][i]]
            for i in range(n_thrown):
                thrown[p, i] = hands[p, _DISCARD_TABLE[d][i]]
            unseen_rank[p, :] = 4
            for i in range(n_dealt):
                unseen_rank[p, hands[p, i] >> 2] -= 1
            unseen_rank[p, starter >> 2] -= 1
        phase[:] = 0
        pegged[:] = 0
        n_plays = 0
        shown = 0
        show = np.zeros(3, np.int64)
        heels = 0
        st_saved[:] = st  # for the statistics' play-out of a deal the game ends in
        unseen_saved[:, :] = unseen_rank
        if (starter >> 2) == rules.JACK:  # his heels
            heels = rules.HEELS_POINTS
            scores[dealer] += heels
            if scores[dealer] >= target:
                winner = dealer
        if winner < 0:
            n_plays, winner = _play(kept, dealer, ppol, unseen_rank, scores, target, st, plays,
                                    pegged)
            play_complete = winner < 0
        else:
            play_complete = False
        for who in range(3):  # the show: pone, dealer, crib (all three, for the statistics)
            p = dealer if who else pone
            if who < 2:
                show[who] = _score_one(kept[p, 0], kept[p, 1], kept[p, 2], kept[p, 3], starter,
                                       False, table)
            else:
                show[who] = _score_one(thrown[0, 0], thrown[0, 1], thrown[1, 0], thrown[1, 1],
                                       starter, True, table)
            if winner < 0:  # the game: counted in order, stopping at the winning moment
                shown += 1
                scores[p] += show[who]
                if scores[p] >= target:
                    winner = p
        deals += 1
        if shown == 3:
            acc[7] += 1  # a deal the game played to its end
        # The statistics see every deal whole. When the game ends in the cut or the play, the play
        # is played out again past the winning moment, from the same generator state, on copies
        # (the game itself, its generator and its record are untouched).
        if not play_complete:
            st_stats[:] = st_saved
            stat_scores[:] = 0
            pegged[:] = 0
            _play(kept, dealer, ppol, unseen_saved, stat_scores, 1 << 30, st_stats,
                  stat_plays, pegged)
        phase[0] = pegged[dealer]
        phase[1] = show[1]
        phase[2] = show[2]
        phase[3] = heels
        phase[4] = pegged[pone]
        phase[5] = show[0]
        for k in range(6):
            acc[8 + k] += phase[k]
            acc[14 + k] += phase[k] * phase[k]
        _add_crib_outcome(crib_acc, 0, thrown[dealer, 0], thrown[dealer, 1], show[2])
        _add_crib_outcome(crib_acc, 1, thrown[pone, 0], thrown[pone, 1], show[2])
        if record and deals <= MAX_RECORDED_DEALS:
            row = rec_deals[deals - 1]
            row[F_DEALER] = dealer
            for p in range(2):
                for i in range(6):
                    row[F_HANDS + 6 * p + i] = hands[p, i]
                for i in range(2):
                    row[F_DISCARDS + 2 * p + i] = thrown[p, i]
            row[F_STARTER] = starter
            row[F_HEELS] = heels
            row[F_NPLAYS] = n_plays
            for i in range(n_plays):
                for j in range(3):
                    row[F_PLAYS + 3 * i + j] = plays[i, j]
            row[F_NSHOW] = shown
            for i in range(shown):
                row[F_SHOW + i] = show[i]
            row[F_SCORES] = scores[0]
            row[F_SCORES + 1] = scores[1]
        dealer = pone
    loser_score = scores[1 - winner]
    tier = _skunk_tier(loser_score)
    acc[0] += 1
    if winner == first_dealer:
        acc[1] += 1
    if winner == 0:
        acc[2] += 1
    for t in range(tier):
        acc[3 + t] += 1
    acc[6] += deals
    acc[20 + min(scores[winner] - loser_score, MAX_MARGIN - 1)] += 1
    acc[20 + MAX_MARGIN + min(deals, MAX_DEALS_HIST - 1)] += 1
    if record:
        rec_game[0] = first_dealer
        rec_game[1] = winner
        rec_game[2] = scores[0]
        rec_game[3] = scores[1]
        rec_game[4] = tier
        rec_game[5] = deals


@njit(cache=True, parallel=True, nogil=True)
def _run_chunks(states, n_games, first_game, game, dpol, ppol, crib_values, table, acc,
                crib_acc, rec_games, rec_deals, rec_lo, rec_hi):
    """Play chunk after chunk of games in parallel, one chunk per thread at a time.

    ``states`` uint64 (B, 4): each chunk's own generator state (copied, never shared);
    ``n_games`` and ``first_game`` int64 (B,): the chunk's size and the index of its first game;
    ``acc`` int64 (B, ACC_SIZE) and ``crib_acc`` int64 (B, *CRIB_ACC_SHAPE): per-chunk
    accumulators, zeroed by the caller. Games with index in ``[rec_lo, rec_hi)`` are recorded
    into row ``index - rec_lo`` of ``rec_games`` (rows, GAME_FIELDS) and ``rec_deals`` (rows,
    MAX_RECORDED_DEALS, DEAL_FIELDS). The result of a chunk depends only on its state and size.
    """
    for k in prange(states.shape[0]):
        b = np.int64(k)
        st = states[b].copy()
        for g in range(n_games[b]):
            index = first_game[b] + g
            record = rec_lo <= index < rec_hi
            slot = index - rec_lo if record else 0
            _play_game(st, game, dpol, ppol, crib_values, table, acc[b], crib_acc[b],
                       rec_games[slot], rec_deals[slot], record)


@njit(cache=True)
def _play_deal(kept, dealer, peg_pol, starter, target, scores, st):
    """The play of one deal from given kept hands (for :func:`analyzer.harness.play_hands`)."""
    n_players, n_cards = kept.shape
    unseen_rank = np.full((n_players, 13), 4, np.int64)
    for p in range(n_players):
        for i in range(n_cards):
            unseen_rank[p, kept[p, i] >> 2] -= 1
        if starter >= 0:
            unseen_rank[p, starter >> 2] -= 1
    plays = np.zeros((n_players * n_cards, 3), np.int64)
    pegged = np.zeros(n_players, np.int64)
    n_plays, winner = _play(kept, dealer, peg_pol, unseen_rank, scores, target, st, plays, pegged)
    return plays[:n_plays], pegged, winner
