"""Which card to lay in the other forms: the searched play of five-card, three- and four-player.

:mod:`analyzer.play.search` searches the play of the two-player six-card game. This module does
the same for every other form of :data:`analyzer.core.game.VARIANTS` with one kernel, one
signature for all of them (the form is in the arrays' shapes and a few int64 and bool
arguments, never in a literal): five-card (two players, three cards each, one count, to 61),
three players (four cards each) and four players in two partnerships (four cards each).

:func:`_search_forms` values each legal card of the player to lay by **determinized rollouts**.
A sample deals every other player's cards still held from the cards the player has not seen
(not its own kept and thrown, not the starter, not laid by anyone, so the card the pack gave the
crib and the others' throws are among them), each player's cards worth at least the least value
its goes allow (a player who said go at count ``c`` holds only cards worth more than ``31 -
c``). The players with the highest such floor are dealt first, so every deal the goes allow is
possible. The same samples serve every candidate card.

**What the others' discards say** (``infer``, on in the engine's ``best``:
:data:`BEST_INFER_FORMS`): each other player's hand is drawn from its posterior given that it
discarded as the engine's ``ev`` policy does in the form, partners included, by the six-card
search's rejection idea (:func:`analyzer.play.search._draw_posterior`). A draw
(:func:`_draw_seat`) deals the seat five cards, those it has laid and others from the cards
still unseen, asks the form's ``ev`` discard (one card thrown with the form's card values in
three- and four-player, two with the pair crib values in five-card: the engine's kernels,
:func:`analyzer.play.players._choose_throw` and :func:`analyzer.play.players._choose_keep3`)
and counts if the keep holds every card laid and its other cards fit the seat's goes (and the
seats still to deal can still be dealt); its throw is its crib cards in the sample (the pack's
card in three-player and the throws of a seat not read stay uniform). The seats are drawn in
turn, the highest floor first, each from what the ones before left (each seat's posterior
given the others drawn before it, not the exact joint one); a seat none of whose
``_INFER_TRIES`` draws fits (:mod:`analyzer.play.searchcommon`, 64, as in six-card) is dealt
uniformly over what its goes allow. Without ``infer`` every player is dealt uniformly from
what its goes allow. Against ``ev+lookahead`` it lifted ``best``'s share of 100,000 games by
1.04 points in five-card (+0.61 to +1.47), 0.61 in four-player (+0.17 to +1.05) and 0.49 in
three-player (+0.03 to +0.95), the games 6 to 22% slower (docs/simulate-and-tables.md).

For each sample and candidate the play is played on to its end by the engine's rules
(:func:`_greedy_rollout_n`: every player lays as ``greedy``, round the table, go, 31, last
card, and with ``one_count`` the five-card play that ends at the first go or 31).

A card's value is **points**: what it pegs now plus its side's pegging in the rest of the play
minus the other sides' (their mean, with three players; the partners' pegging counts for the
side). A card that reaches the target now wins the game and comes first. Given the form's
win-odds table (:func:`analyzer.play.reads.search_odds`: five-card's and four-player's of two
needs, three-player's of three), it is **score-aware** as the six-card search is: each rollout
stops at the target, the show is counted in order and the next deal's chance read from the
table; a card's value is its probability of winning (in three-player, the player's own chance
of the three).

The engine's ``best`` pegging policy calls :func:`_best_play_forms` in these forms (the
``lookahead`` card as the reference, the search's card only where it is ahead by more than
:data:`analyzer.play.searchcommon.BEST_MARGIN` standard errors, as in two-player);
:func:`advise_play_forms` is the public wrapper (``advise_play(..., variant=)``) with the
position given as the seat API's history.
"""

from __future__ import annotations

import numpy as np

from ..core import rules
from ..core.apart import compiled_apart
from ..core.borrow import _borrowed, _keep_alive
from ..core.choices import ADVISE_SAMPLES, DISCARD_POLICIES, PEGGING_POLICIES
from ..core.jit import njit
from ..core.rng import _randint
from ..core.scoring import _peg_points, _rank, _score_one, _score_three_by_row, _value
from .players import _THROW_TWO_OF_FIVE, _choose_keep3, _choose_play, _choose_throw
from .playstep import _lay
from .searchcommon import (
    _AGAINST,
    _DIFF,
    _DIFF_SE,
    _FOR,
    _INFER_TRIES,
    _LEGAL,
    _N_OUT,
    _NET_SE,
    _NO_KEY,
    _NOW,
    _WIN,
    _WIN_SE,
    _WINS_NOW,
    BEST_FIRST_SAMPLES,
    BEST_MARGIN,
    BEST_SAMPLES,
    _beats,
    _greedy_key,
    _one_rank,
    _substream,
    _summarise,
)

__all__ = ["BEST_INFER_FORMS", "advise_play_forms"]

#: Whether the search draws each other seat's hand as its discard suggests (the posterior given
#: that it keeps what ``ev`` keeps in the form; False: uniform over the deals the goes allow).
#: See :func:`_search_forms`.
BEST_INFER_FORMS = True
_PEG_LOOKAHEAD = PEGGING_POLICIES["lookahead"]
_DISCARD_EV = DISCARD_POLICIES["ev"]
# No rollout of the points search stops at a target (it values the play's points).
_NO_TARGET = np.int64(1) << 40


@njit(cache=True)
def _greedy_rollout_n(kept, laid, left, seq, nseq, count, turn, last, passes, scores, one_count,
                      target, pegged):
    """Play the play on from a position to its end with every player laying as ``greedy``, by
    the engine's rules (:func:`analyzer.play.deal._play_with`) for any number of players.

    ``kept`` int64 (players, cards) the hands, ``laid`` bool (players, cards) the cards laid,
    ``left`` int64 (players,) cards each still holds, ``seq[:nseq]`` the ranks of the current
    count (read, not written), ``count``, ``turn`` (who is to lay), ``last`` (who laid last),
    ``passes`` (goes said since), ``scores`` int64 (sides,) (player ``p`` scores for side ``p %
    sides``), ``one_count`` the five-card play (it ends at the first go or 31). Points go to
    ``scores`` and ``pegged`` (players,); the play stops the moment a side reaches ``target``.
    Returns the winning side or -1. Greedy's card is the highest
    :func:`analyzer.play.searchcommon._greedy_key`, the count's ranks kept in one integer, as in
    :func:`analyzer.play.search._greedy_rollout`.
    """
    n_players = kept.shape[0]
    n_sides = scores.shape[0]
    n_cards = kept.shape[1]
    total_left = np.int64(0)
    for q in range(n_players):
        total_left += left[q]
    packed = np.int64(0)  # the count's ranks, four bits each, the last laid in bits 0..3
    for k in range(nseq):
        packed = (packed << 4) | seq[k]
    while total_left > 0:
        p = turn
        nxt = (p + 1) % n_players
        choice = -1
        greedy_points = np.int64(0)
        if left[p] > 0:
            last_card = total_left - left[p] == 0 and left[p] == 1
            best_key = np.int64(_NO_KEY)
            # written out in both rollouts: a helper given the hands would count references
            for i in range(n_cards):
                if not laid[p, i]:
                    key, points = _greedy_key(packed, nseq, count, kept[p, i], last_card)
                    if key > best_key:
                        best_key, choice, greedy_points = key, i, points
        if choice < 0:  # go (or no cards left)
            passes += 1
            if passes >= n_players:  # nobody can lay: the last to lay pegs the go
                scores[last % n_sides] += rules.GO_POINTS
                pegged[last] += rules.GO_POINTS
                if scores[last % n_sides] >= target:
                    return last % n_sides
                if one_count:
                    return -1
                count = 0
                nseq = 0
                packed = 0
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
        packed = (packed << 4) | _rank(card)
        nseq += 1
        scores[p % n_sides] += greedy_points
        pegged[p] += greedy_points
        if scores[p % n_sides] >= target:
            return p % n_sides
        last = p
        passes = 0
        if count == rules.MAX_COUNT:
            if one_count:
                return -1
            count = 0
            nseq = 0
            packed = 0
        turn = nxt
    return -1


@njit(cache=True)
def _is_aware(odds, target, n_sides, starter):
    """Whether :func:`_search_forms` values the probability of winning: the starter is known
    and ``odds`` is the form's win-odds table as :func:`analyzer.play.reads.search_odds` gives
    it, ``(target + 1, target + 1)`` with two sides, ``(3 (target + 1)**2, target + 1)`` with
    three (any other array, such as a (1, 1), means points)."""
    m = target + 1
    if starter < 0 or odds.shape[1] != m:
        return False
    if n_sides == 2:
        return odds.shape[0] == m
    return n_sides == 3 and odds.shape[0] == 3 * m * m


@njit(cache=True)
def _finish_forms(shown, dealer, n_players, scores, target, odds, side):
    """The probability that side ``side`` wins, from the end of a play nobody won: the show in
    order (``shown`` int64 (players + 1,): the hands from the dealer's left round to
    ``dealer``, then the crib, the dealer's side's), each to its side's score in ``scores``
    (updated) until a side reaches ``target``; then ``odds`` for the next deal, dealt by the
    player on the dealer's left. Two sides: ``D[nd, np]``, the chance of the side that deals
    next. Three (three-player, a side a player): ``V[i, n0, n1, n2]`` as rows
    (:func:`analyzer.play.reads.search_odds`), the chance of the player ``i`` places left of
    the next dealer when the next dealer needs ``n0``, his left ``n1`` and the third ``n2``."""
    n_sides = scores.shape[0]
    for k in range(n_players + 1):
        q = (dealer + 1 + k) % n_players if k < n_players else dealer
        scores[q % n_sides] += shown[k]
        if scores[q % n_sides] >= target:
            return 1.0 if q % n_sides == side else 0.0
    nd = (dealer + 1) % n_players  # the next dealer
    if n_sides == 2:
        nxt = nd % 2  # the side that deals next
        p = odds[target - scores[nxt], target - scores[1 - nxt]]
        return p if nxt == side else 1.0 - p
    m = target + 1
    row = (((side - nd) % 3) * m + target - scores[nd]) * m + target - scores[(nd + 1) % 3]
    return odds[row, target - scores[(nd + 2) % 3]]


@njit(cache=True)
def _goes_fit(work, rest, order, k0, n_order, left0, floor):
    """Whether ``work[:rest]`` can still deal the seats ``order[k0:n_order]`` (highest floor
    first) their ``left0`` cards, each worth at least its ``floor``: the nested counts (enough
    cards for the highest floor, then for the two highest together, ...)."""
    need = 0
    for k in range(k0, n_order):
        q = order[k]
        need += left0[q]
        n_elig = 0
        for i in range(rest):
            if _value(work[i]) >= floor[q]:
                n_elig += 1
        if n_elig < need:
            return False
    return True


@njit(cache=True)
def _draw_seat(work, rest, hand, n_laid, own, order, k, n_order, left0, floor, crib_values,
               card_values, hand_table, st, five, throw):
    """Draw seat ``order[k]``'s unseen cards from their posterior if it discarded as ``ev``.

    A try deals the seat five cards, its ``n_laid`` laid cards (``hand[:n_laid]``) and others
    from ``work[:rest]`` (moved to the end of it), in a random order (the order of a deal: ev
    breaks ties by it), and asks the ``ev`` discard of the form
    (:func:`analyzer.play.players._choose_throw`, one card, with ``card_values`` when ``hand``
    keeps four; :func:`analyzer.play.players._choose_keep3`, two, with ``crib_values`` when it
    keeps three; ``own`` the crib is the seat's side's, ``hand_table`` the kept-hand table).
    The try fits if the keep holds every laid card, its other cards are each worth the seat's
    ``floor`` or more, and the rest of ``work`` can still deal the seats after it
    (:func:`_goes_fit`). Up to ``_INFER_TRIES`` tries; on a fit writes the kept cards not laid
    into ``hand[n_laid:]``, the thrown into ``throw``, and returns the cards left in ``work``
    (the drawn five taken out); -1 when no try fits. ``five`` int64 (5,) scratch."""
    q = order[k]
    n_cards = hand.shape[0]
    n_thrown = 2 if n_cards == 3 else 1
    n_draw = n_cards + n_thrown - n_laid
    if rest < n_draw:
        return -1
    end = rest - n_draw  # the drawn cards are work[end:rest]
    for _ in range(_INFER_TRIES):
        for i in range(n_draw):
            j = _randint(st, rest - i)
            work[j], work[rest - 1 - i] = work[rest - 1 - i], work[j]
        for i in range(n_laid):
            five[i] = hand[i]
        for i in range(n_draw):
            five[n_laid + i] = work[end + i]
        for i in range(4, 0, -1):
            j = _randint(st, i + 1)
            five[i], five[j] = five[j], five[i]
        if n_thrown == 1:
            d = _choose_throw(np.int64(_DISCARD_EV), five, own, card_values, hand_table, st)
            throw[0] = five[d]
        else:
            d = _choose_keep3(np.int64(_DISCARD_EV), five, own, crib_values, hand_table, st)
            throw[0] = five[_THROW_TWO_OF_FIVE[d][0]]
            throw[1] = five[_THROW_TWO_OF_FIVE[d][1]]
        fits = True
        for t in range(n_thrown):
            for i in range(n_laid):
                if hand[i] == throw[t]:
                    fits = False
        if not fits:
            continue
        for i in range(n_draw):
            c = work[end + i]
            if c != throw[0] and (n_thrown == 1 or c != throw[1]) and _value(c) < floor[q]:
                fits = False
        if not fits:
            continue
        if k + 1 < n_order and floor[order[k + 1]] > 1 \
                and not _goes_fit(work, end, order, k + 1, n_order, left0, floor):
            continue
        m = n_laid
        for i in range(n_draw):
            c = work[end + i]
            if c != throw[0] and (n_thrown == 1 or c != throw[1]):
                hand[m] = c
                m += 1
        return end
    return -1


@compiled_apart
@njit(cache=True)
def _search_forms(kept0, laid0, p, seen, floor, seq, nseq, count, one_count, scores, target,
                  n_samples, st, ref, out, n_first, dealer, starter, table, hand_table, odds,
                  crib_values, card_values, infer):
    """Value every card of player ``p``'s hand by determinized rollouts (see the module).

    ``kept0`` int64 (players, cards): row ``p`` the player's kept cards, every other row the
    cards that player has laid in its first slots (the rest are drawn); ``laid0`` bool
    (players, cards) marks the cards laid; ``seen`` bool (52,) the cards the player has seen
    (its kept and thrown, the starter, every card laid); ``floor`` int64 (players,) the least
    value each player's cards can have (its goes; 0 if none); ``seq[:nseq]`` the ranks of the
    current count (``seq`` has room for every card and one more), ``count`` the count,
    ``one_count`` the five-card play; ``scores`` int64 (sides,) as the game stands, ``target``
    the game's. ``st`` the xoshiro256** state the samples are drawn from.

    With ``infer`` (bool) each other player's cards are drawn from their posterior given that
    it discarded as ``ev`` does (see the module; :func:`_draw_seat`): ``crib_values`` float64
    (2, 13, 13, 2), the pair thrown (five-card), ``card_values`` float64 (2, 13), one card
    thrown (three and four players), and ``hand_table`` the kept-hand table of the form (three
    cards in five-card), the engine's players' tables (:func:`analyzer.play.reads.player_tables`);
    without it they are dealt uniformly over what the goes allow and the tables are not read.

    **Score-aware** when ``odds`` is the form's win-odds table (:func:`_is_aware`: target + 1
    square with two sides, three-player's of three needs as rows with three,
    :func:`analyzer.play.reads.search_odds`) and the ``starter`` is known: a sample also
    deals the crib cards the player has not seen (the others' throws and the pack's card; its
    own throw is what it has seen besides its hand, the starter and the cards laid) from what
    is left; each rollout stops the moment a side reaches ``target``;
    otherwise the show is counted in order (the hands from the dealer's left round to
    ``dealer``, three-card hands from ``hand_table``, four-card ones and the crib from the rank
    ``table``) and, if nobody has won, the next deal's chance is read from ``odds`` (the deal
    passes to the left; :func:`_finish_forms`). A card's value is then its probability of
    winning. Otherwise (``odds`` any other array, such as a (1, 1)) it values points.

    Stopping early as :func:`analyzer.play.search._search` (``n_first`` below ``n_samples`` and
    ``ref`` a legal card: after ``n_first`` samples, if no card's mean paired difference from
    ``ref``'s is above zero, the search stops).

    Fills ``out`` float64 (cards, :data:`analyzer.play.search._N_OUT`) by hand index in the
    columns of :func:`analyzer.play.search._search`: legal, points now, mean pegging for (the
    side's) and against (the other sides', their mean) in the rest of the play, the standard
    error of their difference, NaN for the probability of winning and its error, the paired
    difference from ``ref`` and its error, and 1 if the card reaches the target now (with
    ``odds``, the mean probability of winning and its error in place of the NaNs). Returns
    the number of legal cards, or -1 if no deal of the unseen cards fits the goes.
    """
    kept0, laid0, seen, floor = _borrowed(kept0), _borrowed(laid0), _borrowed(seen), \
        _borrowed(floor)
    seq, scores, st, out = _borrowed(seq), _borrowed(scores), _borrowed(st), _borrowed(out)
    table, hand_table, odds = _borrowed(table), _borrowed(hand_table), _borrowed(odds)
    crib_values, card_values = _borrowed(crib_values), _borrowed(card_values)
    n_players, n_cards = kept0.shape
    n_sides = scores.shape[0]
    side = p % n_sides
    ints_owner = np.empty(2 * 52 + 2 * n_players * n_cards + 4 * n_players + seq.shape[0]
                          + n_sides + 3 * n_cards + 4 + n_players + 1 + 7, np.int64)
    bools_owner = np.zeros(n_players * n_cards, np.bool_)
    floats_owner = np.zeros(n_cards * 5 + n_samples * n_cards + n_cards)
    ints, bools, floats = _borrowed(ints_owner), _borrowed(bools_owner), _borrowed(floats_owner)
    pool, o = ints[:52], 52
    work, o = ints[o:o + 52], o + 52
    hands0, o = ints[o:o + n_players * n_cards].reshape((n_players, n_cards)), \
        o + n_players * n_cards
    kept, o = ints[o:o + n_players * n_cards].reshape((n_players, n_cards)), \
        o + n_players * n_cards
    left0, o = ints[o:o + n_players], o + n_players
    left, o = ints[o:o + n_players], o + n_players
    order, o = ints[o:o + n_players], o + n_players
    pegged, o = ints[o:o + n_players], o + n_players
    seq2, o = ints[o:o + seq.shape[0]], o + seq.shape[0]
    sc, o = ints[o:o + n_sides], o + n_sides
    twin, o = ints[o:o + n_cards], o + n_cards
    got_for, o = ints[o:o + n_cards], o + n_cards
    got_against, o = ints[o:o + n_cards], o + n_cards
    crib, o = ints[o:o + 4], o + 4  # the crib: the player's throw, then the cards drawn
    shown, o = ints[o:o + n_players + 1], o + n_players + 1  # the show: hands, then the crib
    five, o = ints[o:o + 5], o + 5  # a posterior draw's dealt hand
    throw = ints[o:o + 2]  # ... and what ev throws of it
    laid = bools[:n_players * n_cards].reshape((n_players, n_cards))
    sums = floats[:n_cards * 5].reshape((n_cards, 5))  # for, against, net^2, win, win^2
    vals = floats[n_cards * 5:n_cards * 5 + n_samples * n_cards].reshape((n_samples, n_cards))
    got_win = floats[n_cards * 5 + n_samples * n_cards:]
    aware = _is_aware(odds, target, n_sides, starter)
    stop = target if aware else _NO_TARGET
    n_own = 0  # the player's throw, as far as known
    for c in range(52):
        if seen[c] and c != starter:
            is_known = False
            for q in range(n_players):
                for i in range(n_cards):
                    if (q == p or laid0[q, i]) and kept0[q, i] == c:
                        is_known = True
            if not is_known and n_own < 4:  # seen, not in play, not the starter: its throw
                crib[n_own] = c
                n_own += 1
    out[:, :] = 0.0
    # the unseen cards, highest value first (a go's floor takes a prefix of them)
    n_pool = np.int64(0)
    for v in range(10, 0, -1):
        for c in range(52):
            if not seen[c] and _value(c) == v:
                pool[n_pool] = c
                n_pool += 1
    # the others in order of their floors, highest first (ties in seat order)
    n_order = np.int64(0)  # not a literal: _draw_seat compiled once
    for q in range(n_players):
        left0[q] = 0
        for i in range(n_cards):
            hands0[q, i] = kept0[q, i]
            if not laid0[q, i]:
                left0[q] += 1
        if q == p or left0[q] == 0:
            continue
        k = n_order
        while k > 0 and floor[order[k - 1]] < floor[q]:
            order[k] = order[k - 1]
            k -= 1
        order[k] = q
        n_order += 1
    # is there a deal at all? (nested floors: enough cards for the highest, then for the two
    # highest together, ...)
    if not _goes_fit(pool, n_pool, order, np.int64(0), np.int64(n_order), left0, floor):
        _keep_alive(ints_owner)
        _keep_alive(bools_owner)
        _keep_alive(floats_owner)
        return -1
    n_legal = 0
    for i in range(n_cards):
        if not laid0[p, i] and count + _value(kept0[p, i]) <= rules.MAX_COUNT:
            out[i, _LEGAL] = 1.0
            n_legal += 1
    if n_legal == 0:
        _keep_alive(ints_owner)
        _keep_alive(bools_owner)
        _keep_alive(floats_owner)
        return 0
    # cards of one rank lead to the same play (greedy sees ranks and lays the first of equals)
    for i in range(n_cards):
        twin[i] = -1
        if out[i, _LEGAL] != 0.0:
            for j in range(i):
                if out[j, _LEGAL] != 0.0 and _rank(kept0[p, j]) == _rank(kept0[p, i]):
                    twin[i] = j
                    break
    total0 = np.int64(0)
    for q in range(n_players):
        total0 += left0[q]
    check = n_first if 0 < n_first < n_samples and ref >= 0 and out[ref, _LEGAL] != 0.0 else -1
    n = n_samples
    for s in range(n_samples):
        if s == check and not _beats(vals, s, ref, out):
            n = s  # no card is ahead of ref: it stands
            break
        for i in range(n_pool):
            work[i] = pool[i]
        rest = n_pool
        n_known = n_own  # the crib cards this sample knows
        if infer:
            # each other seat's hand from its posterior given the ev discard, highest floor
            # first; a seat none of whose draws fits is dealt uniformly from the cards its goes
            # allow (``work`` unordered: the eligible counted)
            for k in range(n_order):
                q = order[k]
                slot = n_cards - left0[q]
                got = _draw_seat(work, rest, hands0[q], slot, q % n_sides == dealer % n_sides,
                                 order, k, n_order, left0, floor, crib_values, card_values,
                                 hand_table, st, five, throw)
                if got >= 0:
                    rest = got
                    for t in range(2 if n_cards == 3 else 1):  # its throw to the crib
                        if n_known < 4:
                            crib[n_known] = throw[t]
                            n_known += 1
                    continue
                n_elig = 0
                for i in range(rest):
                    if _value(work[i]) >= floor[q]:
                        n_elig += 1
                for _ in range(left0[q]):
                    t = _randint(st, n_elig)
                    j = 0
                    while True:
                        if _value(work[j]) >= floor[q]:
                            if t == 0:
                                break
                            t -= 1
                        j += 1
                    hands0[q, slot] = work[j]
                    slot += 1
                    rest -= 1
                    work[j] = work[rest]
                    n_elig -= 1
        else:
            # uniform: highest floor first, each from the unseen cards it may hold (``work``
            # keeps the values highest first while a floor above 1 reads it)
            for k in range(n_order):
                q = order[k]
                slot = n_cards - left0[q]
                if floor[q] > 1:
                    n_elig = 0
                    while n_elig < rest and _value(work[n_elig]) >= floor[q]:
                        n_elig += 1
                    for _ in range(left0[q]):
                        j = _randint(st, n_elig)
                        hands0[q, slot] = work[j]
                        slot += 1
                        for i in range(j, rest - 1):
                            work[i] = work[i + 1]
                        rest -= 1
                        n_elig -= 1
                else:  # every card fits: the rest are dealt uniformly, order no longer matters
                    for _ in range(left0[q]):
                        j = _randint(st, rest)
                        hands0[q, slot] = work[j]
                        slot += 1
                        rest -= 1
                        work[j] = work[rest]
        if aware:  # the crib cards unseen, then the show: the same for every card searched
            for i in range(n_known, 4):
                j = _randint(st, rest)
                crib[i] = work[j]
                rest -= 1
                work[j] = work[rest]
            for k in range(n_players):
                q = (dealer + 1 + k) % n_players
                if n_cards == 3:
                    shown[k] = _score_three_by_row(hands0[q, 0], hands0[q, 1], hands0[q, 2],
                                                   starter, hand_table)
                else:
                    shown[k] = _score_one(hands0[q, 0], hands0[q, 1], hands0[q, 2],
                                          hands0[q, 3], starter, False, table)
            shown[n_players] = _score_one(crib[0], crib[1], crib[2], crib[3], starter, True,
                                          table)
        for i in range(n_cards):
            if out[i, _LEGAL] == 0.0:
                continue
            j = twin[i]
            if j >= 0:
                out[i, _NOW] = out[j, _NOW]
                out[i, _WINS_NOW] = out[j, _WINS_NOW]
                net = got_for[j] - got_against[j] / (n_sides - 1)
                sums[i, 0] += got_for[j]
                sums[i, 1] += got_against[j] / (n_sides - 1)
                sums[i, 2] += net * net
                sums[i, 3] += got_win[j]
                sums[i, 4] += got_win[j] * got_win[j]
                vals[s, i] = vals[s, j]
                continue
            for q in range(n_players):  # loops, not slice assignments
                left[q] = left0[q]
                pegged[q] = 0
                for k in range(n_cards):
                    kept[q, k] = hands0[q, k]
                    laid[q, k] = laid0[q, k]
            for k in range(nseq):
                seq2[k] = seq[k]
            for k in range(n_sides):
                sc[k] = scores[k]
            laid[p, i] = True
            left[p] -= 1
            c2, n2, now = _lay(seq2, nseq, count, kept0[p, i], total0 - 1)
            out[i, _NOW] = now
            sc[side] += now
            win = 0.0
            w = np.int64(-1)
            if sc[side] >= target:
                out[i, _WINS_NOW] = 1.0
                w = side
            if c2 == rules.MAX_COUNT and not one_count:
                c2 = 0
                n2 = 0
            if w < 0 and not (c2 == rules.MAX_COUNT and one_count):
                w = _greedy_rollout_n(kept, laid, left, seq2, n2, c2, (p + 1) % n_players, p,
                                      np.int64(0), sc, one_count, stop, pegged)
            if aware:
                if w >= 0:
                    win = 1.0 if w == side else 0.0
                else:
                    win = _finish_forms(shown, dealer, n_players, sc, target, odds, side)
            f = 0
            a = 0
            for q in range(n_players):
                if q % n_sides == side:
                    f += pegged[q]
                else:
                    a += pegged[q]
            got_for[i] = f
            got_against[i] = a
            net = f - a / (n_sides - 1)
            sums[i, 0] += f
            sums[i, 1] += a / (n_sides - 1)
            sums[i, 2] += net * net
            sums[i, 3] += win
            sums[i, 4] += win * win
            got_win[i] = win
            vals[s, i] = win if aware else now + net
    _summarise(out, sums, vals, n, n_cards, ref, aware)
    _keep_alive(ints_owner)
    _keep_alive(bools_owner)
    _keep_alive(floats_owner)
    return n_legal


@njit(cache=True)
def _pick_forms(out, aware):
    """The hand index of the best legal card in :func:`_search_forms`'s ``out``: a card that
    reaches the target now, then (``aware``) the highest probability of winning, then the most
    points now plus pegging for minus against, then the first. -1 when none is legal."""
    best = -1
    for i in range(out.shape[0]):
        if out[i, _LEGAL] == 0.0:
            continue
        if best < 0:
            best = i
            continue
        if out[i, _WINS_NOW] != out[best, _WINS_NOW]:
            if out[i, _WINS_NOW] > out[best, _WINS_NOW]:
                best = i
            continue
        if aware and out[i, _WIN] != out[best, _WIN]:
            if out[i, _WIN] > out[best, _WIN]:
                best = i
            continue
        v = out[i, _NOW] + out[i, _FOR] - out[i, _AGAINST]
        vb = out[best, _NOW] + out[best, _FOR] - out[best, _AGAINST]
        if v > vb:
            best = i
    return best


_SEARCH = -2  # _forms_inputs: more than one card is legal, the search decides


@njit(cache=True)
def _forms_inputs(kept, laid, p, thrown, starter, seq, nseq, floor, scores, count):
    """What :func:`_best_play_forms` knows before it searches: ``(forced, view, view_laid,
    seen, floors, opp_left, seq_s, sc)``.

    ``forced`` is the card to lay without search (its index into ``kept[p]``, or -1 for a go)
    when at most one card is legal, else ``_SEARCH``; ``view`` and ``view_laid`` the hands as
    seat ``p`` sees them (its own, and each other seat's laid cards in card order: the order a
    seat holds them in is not ours to see); ``seen`` the cards it has seen; ``floors`` each
    seat's least card value after its goes; ``opp_left`` the cards the next seat holds;
    ``seq_s`` the ranks of the count with room for the whole play; ``sc`` the scores."""
    n_players, n_cards = kept.shape
    n_legal = 0
    forced = -1
    for i in range(n_cards):
        if not laid[p, i] and count + _value(kept[p, i]) <= rules.MAX_COUNT:
            n_legal += 1
            forced = i
    if n_legal > 1:
        forced = _SEARCH
    view = np.zeros((n_players, n_cards), np.int64)
    view_laid = np.zeros((n_players, n_cards), np.bool_)
    seen = np.zeros(52, np.bool_)
    floors = np.empty(n_players, np.int64)
    for q in range(n_players):
        floors[q] = floor[q]
    for i in range(n_cards):
        view[p, i] = kept[p, i]
        view_laid[p, i] = laid[p, i]
        seen[kept[p, i]] = True
    for i in range(thrown.shape[1]):
        seen[thrown[p, i]] = True
    if starter >= 0:
        seen[starter] = True
    for q in range(n_players):
        if q == p:
            continue
        k = 0
        for i in range(n_cards):
            if laid[q, i]:
                c = kept[q, i]
                seen[c] = True
                j = k - 1
                while j >= 0 and view[q, j] > c:
                    view[q, j + 1] = view[q, j]
                    j -= 1
                view[q, j + 1] = c
                view_laid[q, k] = True
                k += 1
    nxt = (p + 1) % n_players
    opp_left = np.int64(0)
    for i in range(n_cards):
        if not laid[nxt, i]:
            opp_left += 1
    seq_s = np.zeros(n_players * n_cards + 1, np.int64)
    for i in range(nseq):
        seq_s[i] = seq[i]
    sc = np.empty(scores.shape[0], np.int64)
    for k in range(scores.shape[0]):
        sc[k] = scores[k]
    return forced, view, view_laid, seen, floors, opp_left, seq_s, sc


@njit(cache=True)
def _forms_verdict(out, n, ref, aware):
    """The card :func:`_best_play_forms` lays after its search: the reference ``ref`` if it
    reaches the target now (or the search found no sample, ``n < 0``, which a real game cannot
    reach); else the search's best card (``aware``: by the probability of winning) if it
    reaches the target now or beats the reference by more than
    :data:`analyzer.play.searchcommon.BEST_MARGIN` standard errors of their paired difference;
    else ``ref``."""
    if n < 0:
        return ref
    if out[ref, _WINS_NOW] != 0.0:
        return ref
    best = _pick_forms(out, aware)
    if best != ref and out[best, _WINS_NOW] == 0.0 \
            and out[best, _DIFF] <= BEST_MARGIN * out[best, _DIFF_SE]:
        return ref
    return best


def _best_play_forms(kept, laid, p, thrown, starter, seq, nseq, count, floor, unseen_p, scores,
                     target, one_count, dealer, table, peg_values, odds, crib_values, card_values,
                     hand_table, st, plays, n_plays):
    """The engine's ``best`` pegging policy for seat ``p`` in five-card, three- and four-player:
    the index into ``kept[p]`` of the card to lay, or -1 for a go.

    Not a kernel of its own: the implementation of :func:`analyzer.play.deal._searched_play`
    (whose arguments it takes; ``peg_values``, None in these forms, is not read) in these
    forms, compiled into the engine's play, with no compiled level between the play and
    :func:`_search_forms` (as :func:`analyzer.play.search._best_play`). ``crib_values`` and
    ``card_values`` are the ``ev`` discard's tables the search reads the others' hands by.

    It sees only what the seat may see: its own hand and ``thrown[p]``, the starter, the cards
    each other seat has laid (taken in card order, not the order of its hand), how many each
    holds and the least value they can have (``floor``, from their goes), and ``scores`` by
    side. A forced move is laid without search, and so is the ``lookahead`` card when every
    legal card is of one rank. Otherwise the ``lookahead`` card (from ``unseen_p``, the seat's
    unseen cards by rank) is the reference and :func:`_search_forms`
    values every card with up to :data:`analyzer.play.searchcommon.BEST_SAMPLES` samples from a
    sub-stream seeded by ``st``, stopping after
    :data:`analyzer.play.searchcommon.BEST_FIRST_SAMPLES` when no card is ahead of the reference.
    A card that reaches the target now is laid; else the search's best card if it beats the
    reference by more than :data:`analyzer.play.searchcommon.BEST_MARGIN` standard errors of their
    paired difference, else the reference. Score-aware (the probability of winning) when
    ``odds`` is the form's win-odds table (:func:`_is_aware`), else points. Arguments as
    :func:`analyzer.play.deal._searched_play`, ``one_count`` the five-card play, ``hand_table``
    the three-card hand table in five-card; the play so far (``plays``, ``n_plays``) is not
    read here.
    """
    forced, view, view_laid, seen, floors, opp_left, seq_s, sc = _forms_inputs(
        kept, laid, p, thrown, starter, seq, nseq, floor, scores, count)
    if forced != _SEARCH:
        return forced
    n_cards = kept.shape[1]
    # np.int64 and np.bool_, not literals: the versions search._best_play compiles
    ref = _choose_play(np.int64(_PEG_LOOKAHEAD), kept[p], n_cards, laid[p], seq, nseq, count,
                       unseen_p, opp_left, np.bool_(False), st)
    local = np.empty(4, np.uint64)
    _substream(st, local)
    if _one_rank(kept[p], laid[p], count):
        return ref
    out = np.empty((n_cards, _N_OUT))
    n = _search_forms(view, view_laid, p, seen, floors, seq_s, nseq, count, one_count, sc,
                      target, np.int64(BEST_SAMPLES), local, ref, out,
                      np.int64(BEST_FIRST_SAMPLES), dealer, starter, table, hand_table, odds,
                      crib_values, card_values, np.bool_(BEST_INFER_FORMS))
    return _forms_verdict(out, n, ref, _is_aware(odds, target, scores.shape[0], starter))


def best_play_forms_at_seat(kept, laid, p, thrown, starter, seq, nseq, count, floor,
                            unseen_rank, scores, target, one_count, dealer, table, hand_table,
                            odds, crib_values, card_values, st) -> int:
    """:func:`_best_play_forms`'s card, for one decision asked from Python (the seat API,
    :func:`analyzer.play.seat.lay`): the same steps, each its own compiled kernel called in
    turn, with the same arguments of the same types, so the same card and the same draws from
    ``st``; the search is the version :func:`advise_play_forms` and the engine compile, and no
    compiled caller optimizes it again (as :func:`analyzer.play.search.best_play_at_seat`)."""
    forced, view, view_laid, seen, floors, opp_left, seq_s, sc = _forms_inputs(
        kept, laid, p, thrown, starter, seq, nseq, floor, scores, count)
    if forced != _SEARCH:
        return int(forced)
    n_cards = kept.shape[1]
    ref = _choose_play(_PEG_LOOKAHEAD, kept[p], n_cards, laid[p], seq, nseq, count,
                       unseen_rank, opp_left, False, st)
    local = np.empty(4, np.uint64)
    _substream(st, local)
    if _one_rank(kept[p], laid[p], count):
        return int(ref)
    out = np.empty((n_cards, _N_OUT))
    n = _search_forms(view, view_laid, p, seen, floors, seq_s, nseq, count, one_count, sc,
                      target, BEST_SAMPLES, local, ref, out, BEST_FIRST_SAMPLES, dealer,
                      starter, table, hand_table, odds, crib_values, card_values,
                      np.bool_(BEST_INFER_FORMS))
    return int(_forms_verdict(out, n, ref, _is_aware(odds, target, scores.shape[0], starter)))


# --------------------------------------------------------------------------- advise_play_forms


def _played_pairs(text: str) -> list[tuple[int, str]]:
    """The play written ``"1:5H 2:go 0:JC"`` as ``[(1, "5H"), (2, "go"), (0, "JC")]`` (the
    seat API reads it so too); ValueError naming a token that is not ``SEAT:CARD``."""
    items = []
    for token in text.replace(",", " ").split():
        who, sep, card = token.partition(":")
        if not sep or not who.strip().isdigit():
            raise ValueError(f"played: {token!r} is not SEAT:CARD or SEAT:go (e.g. 1:5H)")
        items.append((int(who), card))
    return items


def _go_unsaid(p: int, said: set[int], last: int, passes: int, players: int, entry,
               count: int = 0) -> bool:
    """Whether seat ``p``'s turn may be a go that a history written as the table says goes
    (once a count, none by the last to lay) leaves out, where the engine says it: ``p`` said
    go in this count already, or laid last with every other seat passed since; and the next
    entry (``(seat, card id or -1)``, None at the end of the history) is another seat's, a
    card of ``p``'s after its go (the next count's), or a card of the last to lay that does
    not fit the ``count`` (the next count's, which it leads when the others are out of cards
    or gone). The caller takes the go as said only if no card ``p`` may hold fits the count.
    The seat API's replay (:func:`analyzer.play.seat._replay`) and :func:`_replay_seats` both
    read goes so."""
    if not (p in said or (p == last and passes == players - 1)):
        return False
    if entry is None or entry[0] != p:
        return True
    card = entry[1]
    return card >= 0 and (p in said or count + min(card // 4 + 1, 10) > 31)


def _asked_for_lead(p: int, said: set[int], last: int, passes: int, players: int, fits: bool,
                    one_count: bool) -> bool:
    """Whether seat ``p``, asked at the end of a history whose goes are as the table says them
    (``goes="table"``), is asked for the next count's lead, its go taken as said: it said go in
    this count, or laid last with every other seat passed since and none of its cards
    ``fits``; never in five-card's ``one_count``, which has no next count (the seat says go).
    The seat API's replay (:func:`analyzer.play.seat._replay`) and :func:`_replay_seats` both
    ask so."""
    return not one_count and (p in said or (p == last and passes == players - 1 and not fits))


def _history(played) -> list[tuple[int, int]]:
    """``played`` as ``[(seat, card id or -1 for a go), ...]``: pairs ``(seat, card or None or
    "go")``, or text ``"1:5H 2:go 0:JC"``."""
    from ..core.cards import as_cards

    items = _played_pairs(played) if isinstance(played, str) else list(played)
    out = []
    for k, event in enumerate(items):
        try:
            if isinstance(event, str):  # "QS" would unpack as seat "Q", card "S"
                raise TypeError
            who, card = event
        except (TypeError, ValueError):
            raise ValueError(f"played[{k}]: a (seat, card) pair, card None or 'go' for a go "
                             f"(or the whole play as text, '1:7C 2:go'), got {event!r}") from None
        if isinstance(who, bool) or not isinstance(who, int | np.integer):
            raise ValueError(f"played[{k}]: the seat must be a whole number, got {who!r}")
        if card is None or (isinstance(card, str) and card.strip().lower() == "go"):
            out.append((int(who), -1))
        else:
            out.append((int(who), int(as_cards(card, n=1)[0])))
    return out


def _replay_seats(game, mine: list[int], seat: int, dealer: int, history, seen: set[int],
                  lead_after_go: bool = False):
    """Go through the play's history from ``seat``'s view by the rules of
    :func:`analyzer.play.deal._play_with`; return the position at ``seat``'s turn: ``(laid by
    seat: list of card lists, count, ranks in the count, floors, scores pegged by seat)``.
    Raises ValueError for a history the game cannot reach. The goes may be as the table says
    them or as the engine records them (:func:`_go_unsaid`). With ``lead_after_go`` (the goes
    as the table says them, ``goes="table"``) a seat asked again after its go in this count,
    or that laid last with every other seat passed since and no card of its own fitting, is
    asked for the next count's lead, as the seat API's replay does (not in five-card's single
    count, which then ends)."""
    from ..core.cards import format_card

    n, n_cards = game.players, game.kept
    laid: list[list[int]] = [[] for _ in range(n)]
    left = [n_cards] * n
    floor = [0] * n
    pegged = [0] * n
    count, ranks = 0, []
    turn, last, passes = (dealer + 1) % n, -1, 0
    over = False
    e = 0
    said: set[int] = set()  # the seats that said go in this count

    def value(c: int) -> int:
        return min(c // 4 + 1, 10)

    while True:
        if over or sum(left) == 0:
            raise ValueError("the play is over: nothing left to advise")
        p = turn
        card = -1
        if left[p] > 0:
            at_end = e == len(history)
            if at_end and p == seat and not (lead_after_go and _asked_for_lead(
                    p, said, last, passes, n, any(c not in laid[p] and count + value(c) <= 31
                                                  for c in mine), game.one_count)):
                return laid, count, ranks, floor, pegged
            implied = _go_unsaid(p, said, last, passes, n, None if at_end else history[e],
                                 count) \
                and not (any(c not in laid[p] and count + value(c) <= 31 for c in mine)
                         if p == seat else count + 10 <= 31)  # a card fits: no go
            if not implied and at_end:
                raise ValueError(f"it is seat {p}'s turn to lay or say go, not seat "
                                 f"{seat}'s: add its card (or its go) to played")
            who, card = (p, -1) if implied else history[e]
            if who != p:
                raise ValueError(f"played[{e}]: it was seat {p}'s turn to lay or say go, not "
                                 f"seat {who}'s")
            name = format_card(card) if card >= 0 else "go"
            if card >= 0:
                if count + value(card) > 31:
                    raise ValueError(f"played[{e}]: {name} takes the count past 31")
                if p == seat and (card not in mine or card in laid[p]):
                    raise ValueError(f"played[{e}]: {name} is not one of your kept cards, or "
                                     "you laid it before")
                if p != seat and card in seen:
                    raise ValueError(f"played[{e}]: {name} is not in play (the starter, "
                                     "yours, thrown, or laid before)")
                if p != seat and value(card) < floor[p]:
                    raise ValueError(f"played[{e}]: seat {p} said go earlier holding it, so "
                                     f"it was worth {floor[p]} or more")
                seen.add(card)
            else:
                fits = [c for c in mine if c not in laid[p] and count + value(c) <= 31]
                if p == seat and fits:
                    raise ValueError(f"played[{e}]: you said go with {format_card(fits[0])} "
                                     "that fits")
                floor[p] = max(floor[p], 32 - count)
                said.add(p)
                if p != seat and floor[p] > 10:
                    raise ValueError(f"played[{e}]: seat {p}, holding {left[p]} cards, "
                                     f"cannot say go on count {count}")
            if not implied:
                e += 1
        if card < 0:
            passes += 1
            if passes >= n:
                pegged[last] += rules.GO_POINTS
                if game.one_count:
                    over = True
                    continue
                count, ranks, passes = 0, [], 0
                said.clear()
                turn = (last + 1) % n
            else:
                turn = (p + 1) % n
            continue
        laid[p].append(card)
        left[p] -= 1
        count += value(card)
        ranks.append(card // 4)
        points = int(_peg_points(np.array(ranks, np.int64), len(ranks), count))
        if sum(left) == 0 and count != rules.MAX_COUNT:
            points += rules.LAST_CARD_POINTS
        pegged[p] += points
        last, passes = p, 0
        if count == 31:
            if game.one_count:
                over = True
                continue
            count, ranks = 0, []
            said.clear()
        turn = (p + 1) % n


def advise_play_forms(hand, played=(), *, seat: int, dealer: int, starter, variant: str,
                      thrown=None, score=None, samples: int = ADVISE_SAMPLES, seed: int = 0,
                      infer: bool = BEST_INFER_FORMS, goes: str = "engine"):
    """Which card to lay now in five-card, three-player or four-player cribbage, by
    determinized rollouts (:func:`_search_forms`); :func:`analyzer.play.search.advise_play`
    with ``variant=`` calls it.

    Parameters
    ----------
    hand
        The cards you kept (three in five-card, else four), those you have laid included.
    played
        The play so far in order, as the seat API takes it: ``(seat, card)`` for a card laid,
        ``(seat, None)`` or ``(seat, "go")`` for a go; or text ``"1:5H 0:go"``. Seats are
        numbered round the table; a seat with no cards left is passed over without an entry.
    goes
        How the history's end is read, as the seat API's :func:`analyzer.play.seat.lay` reads
        it: ``"engine"`` (default), the engine's order, in which a seat that said go in this
        count says go again at its turn (give that go too, to ask for the next count's lead);
        ``"table"``, the goes as the table says them, once a count: such a seat, or one that
        laid last with every other seat passed since and nothing that fits, is asked for the
        next count's lead (its go pegged by the last to lay). Five-card's single count has no
        next lead: there both say go.
    seat, dealer
        Your seat and the dealer's (0 to players - 1); the seat on the dealer's left leads.
    starter, thrown
        The starter; your cards in the crib, if you give them (else they count as unseen).
    score
        Each side's score before this play, in side order (side ``s`` is seats ``s``,
        ``s + sides``, ...; default zeros): the points of ``played`` are added. A card that
        reaches the target (61 in five-card, else 121) comes first, and each card's
        probability of winning is estimated too, from the form's win-odds table
        (:func:`analyzer.keeping.winodds.win_table`, three-player's
        :func:`analyzer.keeping.winodds.win_table3`), and chosen by.
    samples, seed
        Deals of the others' cards, 1 to 1,000,000, and their seed.
    infer
        Whether each other player's hand follows what its discard says (default
        :data:`BEST_INFER_FORMS`): a sample deals it five cards, of which it keeps what the
        form's ``ev`` discard keeps, and counts only if that keep holds the cards it has laid
        (and fits its goes). False: every deal of the unseen cards the goes allow counts the
        same.

    Returns
    -------
    pandas.DataFrame
        One row per legal card, best first (a card that wins now, then ``p_win`` when
        score-aware, then ``total``): ``card``, ``now``, ``rest_for`` (your side's mean pegging
        in the rest of the play), ``rest_against`` (the other sides', their mean), ``rest``,
        ``rest_se``, ``total``, ``wins_now``, and score-aware ``p_win``, ``p_win_se`` (the
        standard errors NaN from one sample).
        ``attrs``: ``best`` (a card or ``"go"``), ``count``, ``samples``, ``score_aware``.

    Examples
    --------
    Three players; seat 1 (on the dealer's left) led 7C and seat 2 laid 8D (15): you, the
    dealer, pair the 8 with 8H:

    >>> a = advise_play_forms("8H 2C KD QS", [(1, "7C"), (2, "8D")], seat=0, dealer=0,
    ...                       starter="4S", variant="three-player", samples=200)
    >>> a.attrs["best"], int(a.loc[0, "now"])
    ('8H', 2)
    """
    import pandas as pd

    from ..core.cards import as_cards, check_apart, format_card
    from ..core.choices import MAX_SEED, check_number, check_reachable, variant_game
    from ..core.rng import chunk_states
    from .reads import player_tables, search_odds

    game = variant_game(variant)
    n = game.players
    for name, v in (("seat", seat), ("dealer", dealer)):
        if isinstance(v, bool) or not isinstance(v, int | np.integer) or not 0 <= v < n:
            raise ValueError(f"{name}: a seat 0..{n - 1} in {game.name}, got {v!r}")
    seat, dealer = int(seat), int(dealer)
    mine = [int(c) for c in as_cards(hand, n=game.kept)]
    start = int(as_cards(starter, n=1)[0])
    own_throw = [] if thrown is None else [int(c) for c in as_cards(thrown, n=game.thrown)]
    check_apart(hand=mine, starter=[start], thrown=own_throw)
    samples = check_number("samples", samples, low=1, high=1_000_000, integer=True)
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    if not isinstance(infer, bool | np.bool_):
        raise ValueError(f"infer must be True or False, got {infer!r}")
    if goes not in ("engine", "table"):
        raise ValueError(f"goes: 'engine' or 'table', got {goes!r}")
    sides = game.teams
    if score is None:
        scores = [0] * sides
    else:
        try:
            scores = [check_number("score", v, low=0, high=game.target - 1, integer=True)
                      for v in score]
        except TypeError:
            scores = []
        if len(scores) != sides:
            raise ValueError(f"score: {sides} numbers, one a side in side order, got {score!r}")
        check_reachable(game, scores, pone=(dealer + 1) % sides)
    history = _history(played)
    seen = set(mine) | {start} | set(own_throw)
    laid, count, ranks, floor, pegged = _replay_seats(game, mine, seat, dealer, history, seen,
                                                      lead_after_go=goes == "table")
    for q in range(n):
        scores[q % sides] += pegged[q]
    if max(scores) >= game.target:
        raise ValueError("a side has reached the target in the play: the game is over")
    kept = np.zeros((n, game.kept), np.int64)
    laid_mask = np.zeros((n, game.kept), np.bool_)
    kept[seat] = mine
    laid_mask[seat] = [c in laid[seat] for c in mine]
    for q in range(n):
        if q != seat:
            cards = sorted(laid[q])
            kept[q, :len(cards)] = cards
            laid_mask[q, :len(cards)] = True
    seen_mask = np.zeros(52, np.bool_)
    seen_mask[sorted(seen)] = True
    seq = np.zeros(n * game.kept + 1, np.int64)
    seq[:len(ranks)] = ranks
    out = np.empty((game.kept, _N_OUT))
    st = chunk_states(seed, 1)[0]
    aware = score is not None
    odds = search_odds(game.name) if aware else np.zeros((1, 1))
    t = player_tables(game.name, [])  # the tables the engine's players read, of the same types
    got = _search_forms(kept, laid_mask, np.int64(seat), seen_mask, np.array(floor, np.int64),
                        seq, np.int64(len(ranks)), np.int64(count), np.bool_(game.one_count),
                        np.array(scores, np.int64), np.int64(game.target), np.int64(samples),
                        st, np.int64(-1), out, np.int64(0), np.int64(dealer), np.int64(start),
                        t.rank_table, t.hand_table, odds, t.crib_values, t.card_values,
                        np.bool_(infer))
    if got < 0:
        raise ValueError("the goes said leave too few unseen cards for the others' hands")
    rows = []
    for i in np.flatnonzero(out[:, _LEGAL]):
        rows.append({"card": format_card(mine[i]), "now": int(out[i, _NOW]),
                     "rest_for": out[i, _FOR], "rest_against": out[i, _AGAINST],
                     "rest": out[i, _FOR] - out[i, _AGAINST], "rest_se": out[i, _NET_SE],
                     "total": out[i, _NOW] + out[i, _FOR] - out[i, _AGAINST],
                     "wins_now": bool(out[i, _WINS_NOW]),
                     "p_win": out[i, _WIN], "p_win_se": out[i, _WIN_SE]})
    columns = ["card", "now", "rest_for", "rest_against", "rest", "rest_se", "total",
               "wins_now", "p_win", "p_win_se"]
    frame = pd.DataFrame(rows, columns=columns)
    if not aware:
        frame = frame.drop(columns=["p_win", "p_win_se"])
    if len(frame):
        keys = ["wins_now", "p_win", "total"] if aware else ["wins_now", "total"]
        frame = frame.sort_values(keys, ascending=False, kind="stable").reset_index(drop=True)
    frame.attrs.update(best=frame.loc[0, "card"] if len(frame) else "go", count=count,
                       samples=samples, score_aware=aware, variant=game.name)
    return frame
