"""Which card to lay: determinized rollouts over the opponent's unseen cards, compiled.

For a position in the play of the two-player six-card game, :func:`_search` values each legal
card by **determinized rollouts**. It draws ``samples`` deals of the cards the player has not
seen (not in its own six, not the starter, not laid by anyone), each consistent with what it
knows: the opponent holds ``opp_left`` cards, every one worth more than ``31 - count`` at any
count where it said go; the two it threw to the crib (and the player's own two, when unknown)
are any of the rest. The same samples serve every candidate card (common random numbers). For
each sample and candidate, the play is played on to its end by a fast continuation policy for
both players (one of the engine's, :func:`analyzer.play.players._choose_play`), with the engine's
rules of go, 31 and last card (:mod:`analyzer.play.playstep`). A card's value is the points it pegs
now plus the mean pegging for minus against in the rest of the play.

**Score-aware mode** (a win-odds table ``odds`` of shape (122, 122) given, ``D[nd, np]`` the
probability that the dealer wins from the start of a deal needing ``nd`` and ``np``): each
rollout stops the moment a player reaches the target, as the game does; otherwise the show is
counted in order (the pone's hand, the dealer's hand, the crib: in the sample all are known), and
if nobody has won, the value is the next deal's probability from the table, roles swapped. The
card's value is then its mean probability of winning.

The engine's ``best`` pegging policy calls :func:`_best_play` (forced moves skip the search);
:func:`advise_play` is the Python wrapper with the position given as the cards laid so far.

Cost: a decision costs ``samples * legal cards`` rollouts of a few cards each (a whole play of
greedy rollout about 0.3 microseconds), and with ``infer`` a draw of the ``ev`` keep (15 keeps
valued, about 0.2 to 0.4 microseconds) for each sample tried, 2.8 tries a sample on average in
games. The engine's ``best`` looks after every :data:`BEST_FIRST_SAMPLES` = 8 samples (8, 16,
24) and stops when no card is ahead of the ``lookahead`` card, else goes on to
:data:`BEST_SAMPLES` = 32: about 14.6 samples a searched decision, 25 searched decisions a game
(docs/benchmarks.md, sessions 10 and 15, has the figures). :func:`advise_play` draws
:data:`ADVISE_SAMPLES` = 4,000 samples by default (tens of milliseconds), without stopping early.

**What the opponent's discard says** (``infer``, on in the engine's ``best``): the samples are
drawn from the posterior of the opponent's hand given that it discards as the ``ev`` policy does.
A draw deals it six cards (those it has laid and others from the unseen), ``ev`` keeps four, and
the draw counts only if that keep holds every card it has laid and fits its goes; its two thrown
are its crib cards. Early in the play nearly every draw fits; a draw that fits is tried up to
:data:`_INFER_TRIES` times. Without it the samples are uniform over the deals its goes allow.
Of keeps equally good (a card and another of its rank, of suits alike), ``ev`` keeps the one
first in the order it was dealt the cards: any of them, each alike, so a draw fits with the
share of them that hold its laid cards.

**What its lays say** (with ``infer``, six-card): a player who held a card that pegged more at
one of its lays than the card it laid most likely did not hold it. A draw that fits the discard
is kept with the probability :mod:`analyzer.play.playread` gives its hand (1 if it passed up no
points; one time in four, or less, for each lay where it did).
"""

from __future__ import annotations

import numpy as np

from ..core import rules
from ..core.apart import compiled_apart
from ..core.borrow import _borrowed, _keep_alive
from ..core.choices import ADVISE_SAMPLES, PEGGING_POLICIES
from ..core.jit import njit
from ..core.rng import _randint, _uniform
from ..core.scoring import _rank, _score_one, _value
from ..keeping.discard import _DISCARD_TABLE, _KEEP_TABLE
from ..keeping.winodds import check_probabilities
from .players import _choose_play, _choose_play_inline, _keep_value, _unseen_counts
from .playread import _plays_weight, _read_masks
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

__all__ = ["ADVISE_SAMPLES", "BEST_CONTINUATION", "BEST_FIRST_SAMPLES", "BEST_INFER",
           "BEST_MARGIN", "BEST_SAMPLES", "advise_play", "model_win_table"]

#: The continuation policy of the rollouts (both players), as a pegging-policy name.
BEST_CONTINUATION = "greedy"
# ... as _search takes it: None for greedy (a search compiled without the policies' rollout),
# else a pegging-policy code
_BEST_CONT = (None if BEST_CONTINUATION == "greedy"
              else np.int64(PEGGING_POLICIES[BEST_CONTINUATION]))
#: Whether the search draws the opponent's hand as its discard suggests (the posterior given
#: that it keeps what ``ev`` keeps; False: uniform over the deals its goes allow). See
#: :func:`_search`.
BEST_INFER = True
_PEG_LOOKAHEAD = PEGGING_POLICIES["lookahead"]
_PEG_GREEDY = PEGGING_POLICIES["greedy"]


@compiled_apart
@njit(cache=True)
def _rollout(kept, laid, left, seq, nseq, count, turn, last, passes, unseen, pol, scores,
             target, st, pegged):
    """Play the two-player play on from a position to its end, as the engine's ``_play`` does.

    ``kept`` int64 (2, cards) both hands (laid cards marked in ``laid`` bool (2, cards)),
    ``left`` int64 (2,) cards each still holds, ``seq[:nseq]`` the ranks of the current count
    (room for every card), ``count``, ``turn`` (who is to lay), ``last`` (who laid last),
    ``passes`` (goes said since), ``unseen`` int64 (2, 13) what each has not seen by rank.
    Player ``p`` lays by pegging policy ``pol[p]`` (int64 (2,); ``best`` lays as ``lookahead``).
    Points go to ``scores`` (2,) and ``pegged`` (2,); the play stops the moment a score reaches
    ``target``. Returns the winner or -1. Every array is updated. The search plays on from its
    positions with it, and :func:`analyzer.play.winkeep._rest_of_deal` plays whole plays
    (``last`` -1: nobody has laid yet).
    """
    n_cards = kept.shape[1]
    total_left = left[0] + left[1]
    while total_left > 0:
        p = turn
        nxt = 1 - p
        choice = -1
        if left[p] > 0:
            choice = _choose_play_inline(pol[p], kept[p], n_cards, laid[p], seq, nseq, count,
                                         unseen[p], left[nxt], left[nxt] == 0 and left[p] == 1,
                                         st)
        if choice < 0:  # go
            passes += 1
            if passes >= 2:
                scores[last] += rules.GO_POINTS
                pegged[last] += rules.GO_POINTS
                if scores[last] >= target:
                    return last
                count = 0
                nseq = 0
                passes = 0
                turn = 1 - last
            else:
                turn = nxt
            continue
        card = kept[p, choice]
        laid[p, choice] = True
        left[p] -= 1
        total_left -= 1
        count, nseq, points = _lay(seq, nseq, count, card, total_left)
        unseen[nxt, _rank(card)] -= 1
        scores[p] += points
        pegged[p] += points
        if scores[p] >= target:
            return p
        last = p
        passes = 0
        if count == rules.MAX_COUNT:
            count = 0
            nseq = 0
        turn = nxt
    return -1


@njit(cache=True)
def _greedy_rollout(kept, laid, left, seq, nseq, count, turn, last, passes, scores, target,
                    pegged):
    """:func:`_rollout` with both players ``greedy``, the engine's ``best`` continuation: the
    same play, card for card, at a fraction of the cost: no policy dispatch, no unseen ranks
    (greedy does not read them), each card's key and points by
    :func:`analyzer.play.searchcommon._greedy_key` (in whole numbers; the points counted once, as
    greedy weighs the card, not again as it is laid), and the count's ranks kept in one integer,
    so that nothing inlined takes an array and numba counts no references card by card (about
    a quarter of the rollout's time, measured with ``perf``). Arguments as :func:`_rollout`
    without ``unseen``, ``pol`` and ``st``; ``seq`` is read, not written.
    """
    total_left = left[0] + left[1]
    n_cards = kept.shape[1]
    packed = np.int64(0)  # the count's ranks, four bits each, the last laid in bits 0..3
    for k in range(nseq):
        packed = (packed << 4) | seq[k]
    while total_left > 0:
        p = turn
        nxt = 1 - p
        choice = -1
        greedy_points = np.int64(0)
        if left[p] > 0:
            last_card = left[nxt] == 0 and left[p] == 1
            best_key = np.int64(_NO_KEY)
            # written out in both rollouts: a helper given the hands would count references
            for i in range(n_cards):
                if not laid[p, i]:
                    key, points = _greedy_key(packed, nseq, count, kept[p, i], last_card)
                    if key > best_key:
                        best_key, choice, greedy_points = key, i, points
        if choice < 0:  # go
            passes += 1
            if passes >= 2:
                scores[last] += rules.GO_POINTS
                pegged[last] += rules.GO_POINTS
                if scores[last] >= target:
                    return last
                count = 0
                nseq = 0
                packed = 0
                passes = 0
                turn = 1 - last
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
        scores[p] += greedy_points
        pegged[p] += greedy_points
        if scores[p] >= target:
            return p
        last = p
        passes = 0
        if count == rules.MAX_COUNT:
            count = 0
            nseq = 0
            packed = 0
        turn = nxt
    return -1


@njit(cache=True)
def _finish(shown, dealer, scores, target, odds):
    """The probability that player 0 wins, from the end of a play nobody won: the show in order
    (pone's hand, dealer's hand, the crib), then ``odds`` for the next deal, roles swapped.

    ``shown`` int64 (3,): the show's points, player 0's hand, player 1's hand, the crib (the
    dealer's). They do not depend on the card searched: the search counts them once a sample
    (the hands with the starter, :func:`analyzer.core.scoring._score_one`)."""
    pone = 1 - dealer
    for who in (pone, dealer):
        scores[who] += shown[who]
        if scores[who] >= target:
            return 1.0 if who == 0 else 0.0
    scores[dealer] += shown[2]
    if scores[dealer] >= target:
        return 1.0 if dealer == 0 else 0.0
    need_me, need_opp = target - scores[0], target - scores[1]
    if pone == 0:  # player 0 deals next
        return odds[need_me, need_opp]
    return 1.0 - odds[need_opp, need_me]


@njit(cache=True, inline="always")
def _holds(d, n_laid):
    """Whether keep ``d`` (``DISCARDS`` order) of a six whose first ``n_laid`` cards are laid
    keeps all of them."""
    held = 0
    for slot in _KEEP_TABLE[d]:
        if slot < n_laid:
            held += 1
    return held == n_laid


@njit(cache=True)
def _draw_posterior(pool, n_pool, opp_laid, opp_floor, n_extra, opp_dealer, crib_values,
                    hand_table, st, work, opp_six, hand_out, crib_out, read_beats, read_fits,
                    read_known, spare):
    """Draw the opponent's unseen cards from their posterior if it discards as ``ev`` does
    and lays as :mod:`analyzer.play.playread` reads it.

    ``pool[:n_pool]`` the cards the player has not seen; ``opp_laid`` int64 the cards the
    opponent has laid, ``opp_floor`` the least value its other cards can have (its goes), and
    ``opp_dealer`` whether the crib is its own. A draw deals it six cards (``opp_laid`` and
    others from the pool), lets the ``ev`` policy keep four (``crib_values``, ``hand_table``,
    :func:`analyzer.play.players._keep_value`; of keeps equally good, each alike, as the order
    of a deal makes them) and is accepted if that keep holds every laid card and its other
    cards are each worth ``opp_floor`` or more. Up to :data:`_INFER_TRIES` draws;
    on success writes the kept cards it has not laid into ``hand_out``, its two thrown into
    ``crib_out[:2]`` and ``n_extra`` more cards from the pool (crib cards the player does not
    know) into ``crib_out[2:]``, and returns True. ``work`` int64 (52,) and ``opp_six`` int64 (6,)
    are scratch. The keeps that hold the laid cards are valued first, then the others until one
    is better (a rejected draw seldom needs all 15 values).

    Once the opponent has laid, a draw that fits is kept with probability the read's weight of
    its keep (:func:`analyzer.play.playread._plays_weight`, from its lays so far:
    ``read_beats``, ``read_fits``, ``read_known`` of :func:`analyzer.play.playread._read_masks`,
    all 0 before it lays); if none is kept within the tries, the first that fitted stands.
    ``spare`` int64 (6,) is scratch. Before it lays the draws are those of the discard alone,
    the same draws from ``st``.
    """
    n_laid = opp_laid.shape[0]
    n_draw = 6 - n_laid
    holding = 0  # bit d: keep d holds every laid card
    for d in range(15):
        if _holds(d, n_laid):
            holding |= 1 << d
    read = (read_known >> 16) & 7 > 0  # the opponent has laid: read its lays (playread)
    spare_top = -1
    chosen = -1
    for _ in range(_INFER_TRIES):
        for i in range(n_pool):
            work[i] = pool[i]
        for i in range(n_draw):
            j = i + _randint(st, n_pool - i)
            work[i], work[j] = work[j], work[i]
        for i in range(n_laid):
            opp_six[i] = opp_laid[i]
        for i in range(n_draw):
            opp_six[n_laid + i] = work[i]
        # ev keeps the first best of the 15 in the order it was dealt them
        # (analyzer.play.players._keep_value: the same values, bit for bit), so of keeps
        # equally good (a card and another of its rank, of suits alike) any one, each as often
        # as the others: the deal's order is random. The draw fits if that keep holds every
        # laid card and fits the goes: one of the best keeps that hold them, and no other keep
        # better; with m other keeps as good as the n_top that hold them, n_top times in
        # n_top + m. The keeps that hold them are valued first; the others one by one, until one
        # beats them. (_keep_value is given the cards: a helper given the six made best 0.94
        # times as fast.)
        unseen = _unseen_counts(opp_six)
        top = -1
        top_value = -np.inf
        n_top = 0
        for d in range(15):
            if holding >> d & 1:
                keep, throw = _KEEP_TABLE[d], _DISCARD_TABLE[d]
                v = _keep_value(opp_six[keep[0]], opp_six[keep[1]], opp_six[keep[2]],
                                opp_six[keep[3]], opp_six[throw[0]], opp_six[throw[1]], unseen,
                                opp_dealer, crib_values, hand_table, True)
                if v > top_value:
                    top_value = v
                    top = d
                    n_top = 1
                elif v == top_value:  # as good: each of the n_top alike
                    n_top += 1
                    if _randint(st, n_top) == 0:
                        top = d
        fits = True
        for slot in _KEEP_TABLE[top]:
            if slot >= n_laid and _value(opp_six[slot]) < opp_floor:
                fits = False
        if not fits:
            continue
        n_tied = 0
        for d in range(15):
            if not holding >> d & 1:
                keep, throw = _KEEP_TABLE[d], _DISCARD_TABLE[d]
                v = _keep_value(opp_six[keep[0]], opp_six[keep[1]], opp_six[keep[2]],
                                opp_six[keep[3]], opp_six[throw[0]], opp_six[throw[1]], unseen,
                                opp_dealer, crib_values, hand_table, True)
                if v > top_value:
                    fits = False
                    break
                if v == top_value:
                    n_tied += 1
        if not fits or (n_tied > 0 and _randint(st, n_top + n_tied) >= n_top):
            continue
        if read:
            if spare_top < 0:  # the first draw that fits: it stands if the read keeps none
                spare_top = top
                for i in range(6):
                    spare[i] = opp_six[i]
            ranks = 0  # the ranks of the kept cards not laid, four bits each
            k = 0
            for slot in _KEEP_TABLE[top]:
                if slot >= n_laid:
                    ranks |= _rank(opp_six[slot]) << (4 * k)
                    k += 1
            weight = _plays_weight(read_beats, read_fits, read_known, ranks, k)
            if weight < 1.0 and _uniform(st) >= weight:
                continue
        chosen = top
        break
    if chosen < 0:
        if spare_top < 0:
            return False
        chosen = spare_top  # the work's first cards made the spare's, as its try left them
        for i in range(n_pool):
            work[i] = pool[i]
        for i in range(n_draw):
            opp_six[n_laid + i] = spare[n_laid + i]
            for j in range(i, n_pool):
                if work[j] == spare[n_laid + i]:
                    work[i], work[j] = work[j], work[i]
                    break
    k = 0
    for slot in _KEEP_TABLE[chosen]:
        if slot >= n_laid:
            hand_out[k] = opp_six[slot]
            k += 1
    crib_out[0] = opp_six[_DISCARD_TABLE[chosen][0]]
    crib_out[1] = opp_six[_DISCARD_TABLE[chosen][1]]
    for i in range(n_draw, n_draw + n_extra):  # the player's own thrown, if unknown
        j = i + _randint(st, n_pool - i)
        work[i], work[j] = work[j], work[i]
        crib_out[2 + i - n_draw] = work[i]
    return True


@compiled_apart
@njit(cache=True)
def _search(hand, laid_mine, thrown, starter, opp_laid, opp_left, opp_floor, seq, nseq, count,
            me_dealer, me_score, opp_score, target, table, odds, n_samples, policy, st, ref,
            out, crib_values, hand_table, infer, n_first, read_beats, read_fits, read_known):
    """Value every card of ``hand`` by determinized rollouts (see the module docstring).

    ``hand`` int64 (4,) the player's kept cards, ``laid_mine`` bool (4,) those already laid;
    ``thrown`` int64 (0..2,) the player's cards in the crib as far as known; ``starter`` (or -1:
    unknown, pegging values only); ``opp_laid`` int64 the cards the opponent has laid,
    ``opp_left`` how many it holds, ``opp_floor`` the least value they can have (from its goes;
    0 if none); ``seq[:nseq]`` the ranks of the current count (``seq`` has room for 9),
    ``count`` the count. Scores and ``target`` as the game stands; ``table`` the rank table;
    ``odds`` the (122, 122) win-odds table, or any smaller array for pegging values only.
    ``st`` the xoshiro256** state the samples are drawn from. ``policy`` the continuation
    of the rollouts, both players: None for ``greedy`` (the engine's and ``advise_play``'s
    default), played on by :func:`_greedy_rollout`, in a version of the search compiled
    without the policies' rollout (numba prunes the branches on ``policy is None`` by its
    type); or a pegging-policy code, int64, played on by :func:`_rollout` (``crib peg
    --continuation lookahead``; greedy's code by :func:`_greedy_rollout`, a branch at run
    time), a second version compiled only when used. :func:`_rollout` is compiled apart
    (:mod:`analyzer.core.apart`); :func:`_greedy_rollout`, small and called for every card of
    every sample, is linked, so that LLVM may inline it. The late discard's
    :func:`analyzer.play.winkeep._rest_of_deal` calls the same two.

    With ``infer`` the samples follow what the opponent's discard says about its cards: each
    sample deals the opponent six cards (the cards it has laid and others from the unseen),
    lets the ``ev`` discard policy keep four of them (``crib_values``, ``hand_table``), and is
    accepted only if that keep holds every card the opponent has laid and every other kept card
    is worth at least ``opp_floor``; the two it throws are its crib cards. This is rejection
    sampling from the posterior of its hand given its plays and goes, if it discards as ``ev``
    does. After :data:`_INFER_TRIES` rejected draws a sample falls back to the uniform draw.
    With ``infer`` the opponent's lays are read too (``read_beats``, ``read_fits``,
    ``read_known``: :func:`analyzer.play.playread._read_masks`; all 0 for no read): a draw is
    kept with the probability the read gives its hand.

    **Stopping early** (``n_first`` below ``n_samples``, and ``ref`` a legal card): after the
    first ``n_first`` samples, and after every ``n_first`` more, if no card's mean paired
    difference from ``ref``'s is above zero, the search stops there (``ref`` stands: the
    engine's ``best`` lays it) and the figures in ``out`` are those of the samples drawn;
    otherwise it goes on, to ``n_samples`` at most. The samples drawn are the same either way
    (the same draws from ``st``).

    Fills ``out`` float64 (4, 10) by hand index: legal (1/0), points now, mean pegging for and
    against in the rest of the play, the standard error of their difference, the mean
    probability of winning (score-aware, else NaN) and its standard error; when ``ref`` is
    a legal index, the mean difference of the card's value (the probability of winning, or
    points now plus for minus against) from card ``ref``'s over the same samples, and its
    standard error; and 1 if the card wins the game now (score-aware). Returns the number of
    legal cards, or -1 if no deal of the unseen cards fits what is known.
    """
    # Every array below is borrowed (analyzer.core.borrow): the rollouts take them hundreds of times
    # a decision, and counting references to them was half the search's time. The arguments'
    # owners are the caller's; the scratch lives in three buffers kept alive to the end.
    hand, laid_mine, thrown, opp_laid = (_borrowed(hand), _borrowed(laid_mine), _borrowed(thrown),
                                         _borrowed(opp_laid))
    seq, table, odds, st, out = (_borrowed(seq), _borrowed(table), _borrowed(odds), _borrowed(st),
                                 _borrowed(out))
    crib_values, hand_table = _borrowed(crib_values), _borrowed(hand_table)
    n_hand = hand.shape[0]
    n_cards = n_hand
    ints_owner = np.empty(52 * 2 + 2 * n_cards + 2 * 2 + 2 * 2 * 13 + 2 * n_cards + 1 + 2 * 2 + 4
                          + 6 + 3 + 3 * n_hand + 2 + 6, np.int64)
    bools_owner = np.zeros(52 + 2 * 2 * n_cards, np.bool_)
    floats_owner = np.zeros(n_hand * 5 + n_samples * n_hand + n_hand)
    ints, bools, floats = _borrowed(ints_owner), _borrowed(bools_owner), _borrowed(floats_owner)
    out[:, :] = 0.0
    seen, o = bools[:52], 52
    laid0, o = bools[o:o + 2 * n_cards].reshape((2, n_cards)), o + 2 * n_cards
    laid = bools[o:o + 2 * n_cards].reshape((2, n_cards))
    pool, o = ints[:52], 52
    work, o = ints[o:o + 52], o + 52
    kept, o = ints[o:o + 2 * n_cards].reshape((2, n_cards)), o + 2 * n_cards
    left0, o = ints[o:o + 2], o + 2
    left, o = ints[o:o + 2], o + 2
    unseen0, o = ints[o:o + 26].reshape((2, 13)), o + 26
    unseen, o = ints[o:o + 26].reshape((2, 13)), o + 26
    seq2, o = ints[o:o + 2 * n_cards + 1], o + 2 * n_cards + 1
    scores, o = ints[o:o + 2], o + 2
    pegged, o = ints[o:o + 2], o + 2
    crib, o = ints[o:o + 4], o + 4
    opp_six, o = ints[o:o + 6], o + 6
    shown, o = ints[o:o + 3], o + 3  # the show: player 0's hand, player 1's, the crib
    twin, o = ints[o:o + n_hand], o + n_hand  # an earlier legal card of the same rank, or -1
    got_for, o = ints[o:o + n_hand], o + n_hand  # this sample's pegging, for and against
    got_against, o = ints[o:o + n_hand], o + n_hand
    pols, o = ints[o:o + 2], o + 2  # both players' continuation policy
    spare = ints[o:o + 6]  # the read's first fitting draw
    sums = floats[:n_hand * 5].reshape((n_hand, 5))  # for, against, net^2, win, win^2
    # each sample's value of each card, for differences
    o = n_hand * 5 + n_samples * n_hand
    vals = floats[n_hand * 5:o].reshape((n_samples, n_hand))
    got_win = floats[o:o + n_hand]  # this sample's probability of winning
    for c in hand:
        seen[c] = True
    for c in thrown:
        seen[c] = True
    for c in opp_laid:
        seen[c] = True
    if starter >= 0:
        seen[starter] = True
    n_pool = np.int64(0)  # not a literal 0: one version of the kernels it is passed to
    for c in range(52):
        if not seen[c] and _value(c) >= opp_floor:
            pool[n_pool] = c
            n_pool += 1
    n_elig = n_pool
    for c in range(52):
        if not seen[c] and _value(c) < opp_floor:
            pool[n_pool] = c
            n_pool += 1
    n_crib = 4 - thrown.shape[0]  # crib cards the player does not know
    if n_elig < opp_left or n_pool < opp_left + n_crib:
        _keep_alive(ints_owner)
        _keep_alive(bools_owner)
        _keep_alive(floats_owner)
        return -1
    n_legal = 0
    for i in range(n_hand):
        if not laid_mine[i] and count + _value(hand[i]) <= rules.MAX_COUNT:
            out[i, _LEGAL] = 1.0
            n_legal += 1
    if n_legal == 0:
        _keep_alive(ints_owner)
        _keep_alive(bools_owner)
        _keep_alive(floats_owner)
        return 0
    aware = odds.shape[0] > target and starter >= 0
    stop = target if aware else np.int64(1) << 40
    dealer = 0 if me_dealer else 1
    # Cards of one rank lead to the same play (the policies see ranks; of equal cards they lay
    # the first) and the same show: a card of a rank searched already takes its values, when
    # the rollouts draw nothing from the stream (greedy, lookahead).
    if policy is None:  # greedy, by its type: the branches on it pruned before typing
        code = np.int64(_PEG_GREEDY)
    else:
        code = np.int64(policy)
    same = code == _PEG_GREEDY or code == _PEG_LOOKAHEAD
    greedy = code == _PEG_GREEDY
    for i in range(n_hand):
        twin[i] = -1
        if out[i, _LEGAL] != 0.0 and same:
            for j in range(i):
                if out[j, _LEGAL] != 0.0 and _rank(hand[j]) == _rank(hand[i]):
                    twin[i] = j
                    break
    pols[0] = code
    pols[1] = code
    if aware:  # the player's own hand at the show: the same in every sample
        shown[0] = _score_one(hand[0], hand[1], hand[2], hand[3], starter, False, table)
    n_opp_laid = opp_laid.shape[0]
    left0[0] = 0
    for i in range(n_hand):
        kept[0, i] = hand[i]
        laid0[0, i] = laid_mine[i]
        if not laid_mine[i]:
            left0[0] += 1
    left0[1] = opp_left
    for i in range(n_opp_laid):
        kept[1, i] = opp_laid[i]
        laid0[1, i] = True
    for i in range(thrown.shape[0]):
        crib[i] = thrown[i]
    # what the player has not seen, by rank (its own view does not depend on the sample)
    unseen0[0, :] = 4
    for c in range(52):
        if seen[c]:
            unseen0[0, _rank(c)] -= 1
    n_draw = 6 - n_opp_laid  # the opponent's cards a posterior draw deals it
    check = n_first if 0 < n_first < n_samples and ref >= 0 and out[ref, _LEGAL] != 0.0 else -1
    n = n_samples
    for s in range(n_samples):
        if 0 < check <= s and s % check == 0 and not _beats(vals, s, ref, out):
            n = s  # no card is ahead of ref: it stands
            break
        accepted = False
        if infer and n_pool >= n_draw + n_crib - 2:
            accepted = _draw_posterior(pool, n_pool, opp_laid, opp_floor, n_crib - 2,
                                       not me_dealer, crib_values, hand_table, st, work, opp_six,
                                       kept[1, n_opp_laid:], crib[thrown.shape[0]:],
                                       read_beats, read_fits, read_known, spare)
        if not accepted:
            # uniform over the deals consistent with the goes (also the fallback when no
            # posterior draw fits within _INFER_TRIES)
            for i in range(n_pool):
                work[i] = pool[i]
            for i in range(opp_left):  # the opponent's hand from the cards it can hold
                j = i + _randint(st, n_elig - i)
                work[i], work[j] = work[j], work[i]
            for i in range(opp_left, opp_left + n_crib):  # the unknown crib cards from the rest
                j = i + _randint(st, n_pool - i)
                work[i], work[j] = work[j], work[i]
            for i in range(opp_left):
                kept[1, n_opp_laid + i] = work[i]
            for i in range(n_crib):
                crib[thrown.shape[0] + i] = work[opp_left + i]
        # the opponent's view: not its six (its four and its two thrown, the first two unknown
        # crib cards), not the starter, not the player's cards laid
        if not greedy:  # (greedy rollouts do not read them)
            unseen0[1, :] = 4
            for i in range(n_cards):
                unseen0[1, _rank(kept[1, i])] -= 1
                if laid_mine[i]:
                    unseen0[1, _rank(hand[i])] -= 1
            for i in range(2):
                unseen0[1, _rank(crib[thrown.shape[0] + i])] -= 1
            if starter >= 0:
                unseen0[1, _rank(starter)] -= 1
        if aware:  # the opponent's hand and the crib: the same for every card searched
            shown[1] = _score_one(kept[1, 0], kept[1, 1], kept[1, 2], kept[1, 3], starter, False,
                                  table)
            shown[2] = _score_one(crib[0], crib[1], crib[2], crib[3], starter, True, table)
        for i in range(n_hand):
            if out[i, _LEGAL] == 0.0:
                continue
            j = twin[i]
            if j >= 0:
                out[i, _NOW] = out[j, _NOW]
                out[i, _WINS_NOW] = out[j, _WINS_NOW]
                net = got_for[j] - got_against[j]
                sums[i, 0] += got_for[j]
                sums[i, 1] += got_against[j]
                sums[i, 2] += net * net
                sums[i, 3] += got_win[j]
                sums[i, 4] += got_win[j] * got_win[j]
                vals[s, i] = vals[s, j]
                continue
            for a in range(2):  # loops, not slice assignments: no shape-error path to compile
                left[a] = left0[a]
                for k in range(n_cards):
                    laid[a, k] = laid0[a, k]
                if not greedy:  # greedy does not read the unseen ranks
                    for r in range(13):
                        unseen[a, r] = unseen0[a, r]
            for k in range(nseq):
                seq2[k] = seq[k]
            scores[0] = me_score
            scores[1] = opp_score
            pegged[:] = 0
            laid[0, i] = True
            left[0] -= 1
            c2, n2, now = _lay(seq2, nseq, count, hand[i], left[0] + left[1])
            unseen[1, _rank(hand[i])] -= 1
            scores[0] += now
            out[i, _NOW] = now
            win = 0.0
            if scores[0] >= stop:
                win = 1.0
                out[i, _WINS_NOW] = 1.0
            else:
                if c2 == rules.MAX_COUNT:
                    c2 = 0
                    n2 = 0
                if policy is None or greedy:  # (policy None: no _rollout in this version)
                    w = _greedy_rollout(kept, laid, left, seq2, n2, c2, np.int64(1),
                                        np.int64(0), np.int64(0), scores, stop, pegged)
                else:
                    w = _rollout(kept, laid, left, seq2, n2, c2, np.int64(1), np.int64(0),
                                 np.int64(0), unseen, pols, scores, stop, st, pegged)
                if aware:
                    if w >= 0:
                        win = 1.0 if w == 0 else 0.0
                    else:
                        win = _finish(shown, dealer, scores, target, odds)
            got_for[i] = pegged[0]
            got_against[i] = pegged[1]
            got_win[i] = win
            net = pegged[0] - pegged[1]
            sums[i, 0] += pegged[0]
            sums[i, 1] += pegged[1]
            sums[i, 2] += net * net
            sums[i, 3] += win
            sums[i, 4] += win * win
            vals[s, i] = win if aware else now + net
    _summarise(out, sums, vals, n, n_hand, ref, aware)
    _keep_alive(ints_owner)
    _keep_alive(bools_owner)
    _keep_alive(floats_owner)
    return n_legal


@njit(cache=True)
def _pick(out, aware):
    """The hand index of the best legal card in a search's ``out``: score-aware, a card that
    wins the game now, then the highest probability of winning; then the most points now plus
    pegging for minus against, then the first. -1 when none is legal. (A card that wins now is
    certain; another may win in every sample and still lose.)"""
    best = -1
    for i in range(out.shape[0]):
        if out[i, _LEGAL] == 0.0:
            continue
        if best < 0:
            best = i
            continue
        v = out[i, _NOW] + out[i, _FOR] - out[i, _AGAINST]
        vb = out[best, _NOW] + out[best, _FOR] - out[best, _AGAINST]
        if aware and out[i, _WINS_NOW] != out[best, _WINS_NOW]:
            if out[i, _WINS_NOW] > out[best, _WINS_NOW]:
                best = i
        elif aware and out[i, _WIN] != out[best, _WIN]:
            if out[i, _WIN] > out[best, _WIN]:
                best = i
        elif v > vb:
            best = i
    return best


_SEARCH = -2  # _best_inputs: more than one card is legal, the search decides


@njit(cache=True)
def _best_inputs(kept, laid, p, seq, nseq, count):
    """What :func:`_best_play` knows before it searches: ``(forced, opp_laid, seq9)``.

    ``forced`` is the card to lay without search (its index into ``kept[p]``, or -1 for a go)
    when at most one card is legal, else ``_SEARCH``; ``opp_laid`` the opponent's laid cards
    in card order (the order it holds them in is not the player's to see); ``seq9`` the ranks
    of the count, in an array with room for the rest of the play."""
    n_cards = kept.shape[1]
    n_legal = 0
    forced = -1
    for i in range(n_cards):
        if not laid[p, i] and count + _value(kept[p, i]) <= rules.MAX_COUNT:
            n_legal += 1
            forced = i
    if n_legal > 1:
        forced = _SEARCH
    q = 1 - p
    n_opp_laid = 0
    for i in range(n_cards):
        if laid[q, i]:
            n_opp_laid += 1
    opp_laid = np.empty(n_opp_laid, np.int64)
    k = 0
    for i in range(n_cards):
        if laid[q, i]:
            opp_laid[k] = kept[q, i]
            k += 1
    for i in range(1, n_opp_laid):
        c = opp_laid[i]
        j = i - 1
        while j >= 0 and opp_laid[j] > c:
            opp_laid[j + 1] = opp_laid[j]
            j -= 1
        opp_laid[j + 1] = c
    seq9 = np.empty(2 * n_cards + 1, np.int64)
    for i in range(nseq):
        seq9[i] = seq[i]
    return forced, opp_laid, seq9


@njit(cache=True)
def _best_verdict(out, n, ref, aware):
    """The card :func:`_best_play` lays after its search: the search's best card (``aware``:
    by the probability of winning) if it beats the reference ``ref`` by more than
    :data:`BEST_MARGIN` standard errors of their paired difference, else ``ref`` (also when the
    search found no sample, ``n < 0``, which a real game cannot reach)."""
    if n < 0:
        return ref
    best = _pick(out, aware)
    if best != ref and out[best, _DIFF] <= BEST_MARGIN * out[best, _DIFF_SE]:
        return ref
    return best


def _best_play(kept, laid, p, thrown, starter, seq, nseq, count, floor, unseen_p, scores,
               target, one_count, dealer, table, peg_values, odds, crib_values, card_values,
               hand_table, st, plays, n_plays):
    """The engine's ``best`` pegging policy for seat ``p`` of a two-player play: the index into
    ``kept[p]`` of the card to lay, or -1 for a go.

    Not a kernel of its own: the implementation of :func:`analyzer.play.deal._searched_play`
    (whose arguments it takes; ``one_count``, ``peg_values`` and ``card_values`` are not read)
    in the six-card game, compiled into the engine's play. Numba optimizes a compiled function
    with everything it calls, so a compiled level between the play and :func:`_search` would
    optimize the search once more (about a second of a first run).

    It sees only what the player may see: its own hand and thrown, the starter, the cards laid
    (the opponent's taken in card order, not the order of its hand), how many the opponent holds
    and the least value they can have (``floor[1 - p]``, from its goes). A forced move (one
    legal card) is laid without search, and so is the ``lookahead`` card when every legal card
    is of one rank (:func:`analyzer.play.searchcommon._one_rank`). Otherwise the ``lookahead``
    policy's card (from ``unseen_p``, the player's unseen cards by rank) is the reference, and
    :func:`_search` values every card with up to :data:`BEST_SAMPLES` samples from a sub-stream
    seeded by ``st`` and the :data:`BEST_CONTINUATION` policy, score-aware when ``odds`` is the
    (122, 122) table, stopping after :data:`BEST_FIRST_SAMPLES` (or as many more) when no card
    is ahead of the reference (it is laid then), reading the opponent's lays so far (the deal's
    ``plays[:n_plays]``, :data:`analyzer.play.deal.PLAY` rows: :mod:`analyzer.play.playread`).
    The best card by the search is laid if it beats
    the reference by more than :data:`BEST_MARGIN` standard errors of their paired difference,
    else the reference: the search overrules the one-ply policy only where its samples say so
    clearly.
    """
    forced, opp_laid, seq9 = _best_inputs(kept, laid, p, seq, nseq, count)
    if forced != _SEARCH:
        return forced
    n_cards = kept.shape[1]
    q = 1 - p
    n_opp_left = n_cards - opp_laid.shape[0]
    # np.int64 and np.bool_, not literals: the kernels called are the versions advise_play's
    ref = _choose_play(np.int64(_PEG_LOOKAHEAD), kept[p], n_cards, laid[p], seq, nseq, count,
                       unseen_p, n_opp_left, np.bool_(False), st)
    local = np.empty(4, np.uint64)
    _substream(st, local)
    if _one_rank(kept[p], laid[p], count):
        return ref
    out = np.empty((n_cards, _N_OUT))
    beats, fits, known = _read_masks(plays, n_plays, p)
    n = _search(kept[p], laid[p], thrown[p], starter, opp_laid, n_opp_left, floor[q],
                seq9, nseq, count, p == dealer, scores[p], scores[q], target, table, odds,
                np.int64(BEST_SAMPLES), _BEST_CONT, local, ref, out, crib_values,
                hand_table, np.bool_(BEST_INFER), np.int64(BEST_FIRST_SAMPLES), beats, fits,
                known)
    return _best_verdict(out, n, ref, odds.shape[0] > target and starter >= 0)


def best_play_at_seat(kept, laid, p, thrown, starter, seq, nseq, count, floor, unseen_rank,
                      scores, target, dealer, table, odds, crib_values, hand_table,
                      st, plays) -> int:
    """:func:`_best_play`'s card, for one decision asked from Python (the seat API,
    :func:`analyzer.play.seat.lay`): the same steps, each its own compiled kernel called in
    turn (:func:`_best_inputs`, the ``lookahead`` reference, :func:`_search`,
    :func:`_best_verdict`), with the same arguments of the same types, so the same card and
    the same draws from ``st``. ``plays`` int64 (lays, 2): the cards laid so far in the deal,
    in order, as the engine's (:data:`analyzer.play.deal.PLAY`: the seat, the card).

    Numba optimizes a compiled function together with everything it calls, so every compiled
    level above :func:`_search` compiles the search's code again (about a second each). Called
    from here, the search is the version :func:`advise_play` and the engine compile, and a
    first game at the table waits for no caller of it."""
    forced, opp_laid, seq9 = _best_inputs(kept, laid, p, seq, nseq, count)
    if forced != _SEARCH:
        return int(forced)
    n_cards = kept.shape[1]
    q = 1 - p
    n_opp_left = n_cards - opp_laid.shape[0]
    ref = _choose_play(_PEG_LOOKAHEAD, kept[p], n_cards, laid[p], seq, nseq, count,
                       unseen_rank, n_opp_left, False, st)
    local = np.empty(4, np.uint64)
    _substream(st, local)
    if _one_rank(kept[p], laid[p], count):
        return int(ref)
    out = np.empty((n_cards, _N_OUT))
    n = _search(kept[p], laid[p], thrown[p], starter, opp_laid, n_opp_left, floor[q], seq9,
                nseq, count, p == dealer, scores[p], scores[q], target, table, odds,
                BEST_SAMPLES, _BEST_CONT, local, ref, out, crib_values, hand_table,
                BEST_INFER, BEST_FIRST_SAMPLES, *_read_masks(plays, plays.shape[0], p))
    return int(_best_verdict(out, n, ref, odds.shape[0] > target and starter >= 0))


# --------------------------------------------------------------------------- a model odds table


@njit(cache=True)
def _model_win_table(p_dealer, p_pone, target):
    n = target + 1
    d = np.zeros((n, n))
    d[0, :] = 1.0
    d[:, 0] = 0.0
    for total in range(2, 2 * target + 1):
        for nd in range(max(1, total - target), min(target, total - 1) + 1):
            np_ = total - nd
            v = 0.0
            for y in range(p_pone.shape[0]):
                if p_pone[y] == 0.0:
                    continue
                if y >= np_:
                    continue  # the pone counts first and wins: the dealer loses
                acc = 0.0
                for x in range(p_dealer.shape[0]):
                    if x >= nd:
                        acc += p_dealer[x]
                    else:
                        acc += p_dealer[x] * (1.0 - d[np_ - y, nd - x])
                v += p_pone[y] * acc
            d[nd, np_] = v
    return d


def model_win_table(dealer_mean: float = 16.0, dealer_sd: float = 6.5, pone_mean: float = 10.5,
                    pone_sd: float = 5.0, target: int = 121) -> np.ndarray:
    """A simple model of the win-odds table, float64 ``(target + 1, target + 1)``: ``D[nd, np]``
    the probability that the dealer wins from the start of a deal needing ``nd``, the pone
    ``np``, with the layout of :func:`analyzer.research.odds.win_table` (``D[0, :] = 1``, ``D[:, 0]
    = 0``).

    Each deal the dealer scores a rounded normal (``dealer_mean``, ``dealer_sd``), the pone an
    independent one, the dealer at least one (so every deal moves the game
    on); the pone's points count first. A stand-in for tests and for the engine until the
    self-play table ships, not an estimate of real play.

    Examples
    --------
    >>> d = model_win_table()
    >>> d.shape, bool(d[1, 121] > 0.99), bool(d[121, 1] < 0.01)
    ((122, 122), True, True)
    """
    def points(mean, sd):
        x = np.arange(0, 80)
        w = np.exp(-0.5 * ((x - mean) / sd) ** 2)
        return w / w.sum()

    pd, pp = points(dealer_mean, dealer_sd), points(pone_mean, pone_sd)
    pd[1] += pd[0]  # the dealer always scores: every deal moves the game on
    pd[0] = 0.0
    return _model_win_table(pd, pp, int(target))


# --------------------------------------------------------------------------- advise_play


MAX_SAMPLES = 1_000_000
TARGET = 121


def _replay(hand: list[int], played: list[int], dealer: bool):
    """Go through the cards laid so far by the rules; return the position for the player.

    The cards of ``hand`` in ``played`` are the player's, the others the opponent's. A player
    who is to lay but does not lay the next card said go; that is checked for the player (no
    card of its own fitted) and recorded for the opponent (every card it held was worth more
    than ``31 - count``). Returns ``(count, ranks in the count, opponent's laid cards, floor)``
    at the player's turn; raises ValueError for an impossible sequence.
    """
    from ..core.cards import format_card

    me, opp = 0, 1
    mine = set(hand)
    held = [set(hand), None]
    opp_laid: list[int] = []
    left = [4, 4]
    floor = 0
    count, ranks = 0, []
    turn = opp if dealer else me  # the pone leads
    last, passes = -1, 0
    who_name = ("you", "the opponent")

    def say_go(p: int, at: int) -> None:
        nonlocal floor
        if left[p] == 0:
            return
        if p == me:
            fits = [c for c in held[me] if count + _value_py(c) <= 31]
            if fits:
                raise ValueError(f"{at}: it was your turn at count {count} and you could lay "
                                 f"{format_card(min(fits))}: say which card you laid")
        else:
            floor = max(floor, 32 - count)
            if floor > 10 and at == "now":
                raise ValueError(f"it is the opponent's turn to lay on count {count} (it holds "
                                 f"{left[opp]} cards): add its card to the cards played")
            if floor > 10:
                lead = "lead" if count == 0 else f"lay on count {count}"
                raise ValueError(f"{at}: the opponent, holding {left[opp]} cards, was to {lead} "
                                 "and cannot have said go: check the order of the cards")

    def go_or_reset(at: str) -> None:
        nonlocal passes, turn, count, ranks
        say_go(turn, at)
        passes += 1
        if passes >= 2:  # nobody can lay: the count starts again after the last to lay
            count, ranks, passes = 0, [], 0
            turn = 1 - last
        else:
            turn = 1 - turn

    if dealer and played and played[0] != GO and played[0] in mine:
        raise ValueError(f"you are the dealer, so the pone leads: the first card laid, "
                         f"{format_card(played[0])}, cannot be yours")
    for k, card in enumerate(played):
        if card == GO:  # the count ends by goes: whoever is to lay, then the other, cannot
            at = f"go after card {k}"
            if not ranks:
                raise ValueError(f"{at}: no count to end (a go ends a count with cards in it)")
            go_or_reset(at)
            if passes:
                go_or_reset(at)
            continue
        who = me if card in mine else opp
        at = f"card {k + 1} of the play ({format_card(card)})"
        if left[who] == 0:
            raise ValueError(f"{at}: {who_name[who]} had no cards left to lay")
        if who == opp and _value_py(card) < floor:
            raise ValueError(f"{at}: the opponent said go earlier holding it, so it was worth "
                             f"more than {32 - floor}: check the order of the cards")
        for _ in range(4):
            if turn == who and count + _value_py(card) <= 31:
                break
            go_or_reset(at)
        else:  # pragma: no cover - at most two goes and a new count come first
            raise ValueError(f"{at}: cannot be laid")
        count += _value_py(card)
        ranks.append(card // 4)
        left[who] -= 1
        if who == me:
            held[me].discard(card)
        else:
            opp_laid.append(card)
        last, passes = who, 0
        turn = 1 - who
        if count == 31:
            count, ranks = 0, []
    if left[me] == 0:
        raise ValueError("all four of your cards are laid: nothing left to advise")
    for _ in range(4):  # the opponent, to lay now, must have said go
        if turn == me:
            break
        go_or_reset("now")
    return count, ranks, opp_laid, floor


#: A go marker in the cards played: the count ended there by goes (nobody could lay).
GO = -1


def _parse_played(played) -> list[int]:
    """The cards laid, in order, as ids, with :data:`GO` for each ``"go"`` marker."""
    from ..core.cards import as_cards

    if played is None:
        raise TypeError("played: the cards laid so far (text, ids or a list), () for none; "
                        "got None")
    if isinstance(played, str):
        items = [t for t in played.replace(",", " ").split() if t]
    elif isinstance(played, int | np.integer):
        items = [played]
    else:
        items = list(np.asarray(played, object).ravel()) if isinstance(played, np.ndarray) \
            else list(played)
    out = []
    for k, item in enumerate(items):
        if isinstance(item, str) and item.strip().lower() == "go":
            out.append(GO)
        elif isinstance(item, tuple | list) and len(item) == 2:  # (1, "9D") read as AD 9D
            raise ValueError(f"played[{k}] is {tuple(item)!r}, a (seat, card) pair: the "
                             "six-card game's play is the cards alone, in order (a card of "
                             "your hand is yours), as '5H 9D' or ['5H', '9D']; pairs are the "
                             "other forms' (variant=)")
        else:
            out.append(int(as_cards(item, n=1)[0]))
    return out


def _value_py(card: int) -> int:
    return min(card // 4 + 1, 10)


def advise_play(hand, played=(), *, dealer: bool, starter, thrown=None, score=None,
                samples: int = ADVISE_SAMPLES, seed: int = 0, continuation: str = BEST_CONTINUATION,
                odds=None, infer: bool = BEST_INFER, variant: str = "six-card",
                seat: int | None = None, goes: str = "engine"):
    """Which card to lay now, in the play of a two-player six-card game (or, with ``variant``,
    of any form), by determinized rollouts.

    Parameters
    ----------
    hand
        The four cards you kept, all of them, including those you have laid already (text such as
        ``"5H 6D JC KS"`` or ids).
    played
        Every card laid so far in this deal's play, in order, by both players (text or ids). A
        card of ``hand`` is yours, any other the opponent's. The counts, the goes and the
        opponent's cards left follow by the rules: a count starts again at 31 or when the next
        card would pass 31; a player who was to lay and did not lay the next card said go. So if
        the last card laid is yours, the opponent has said go. The word ``go`` in the sequence
        marks a count ended by goes (nobody could lay); it is needed only at the end, to ask
        about the lead of the new count (without it you are asked to lay on the old count, and
        the answer may be "go").
    dealer
        True if you dealt (the pone leads the play), False if you are the pone.
    starter
        The starter card (known during the play).
    thrown
        Your two cards in the crib, if you give them; otherwise they count as unseen cards.
    score
        ``(yours, the opponent's)`` as the game stands now (0..120): each card's probability of
        winning the game is then estimated too (score-aware), and the best card is the one most
        likely to win. With ``variant=`` another form: each side's score before this play, in
        side order (:func:`analyzer.play.searchforms.advise_play_forms`).
    samples
        Deals of the unseen cards to the opponent (its hand and its throw), 1 to 1,000,000; the
        same samples value every card.
    seed
        Seed of the samples; same seed, same advice.
    continuation
        The policy both players lay by in the rollouts: ``"greedy"`` (default) or ``"lookahead"``.
    odds
        The win-odds table for ``score`` (default :func:`analyzer.research.odds.win_table`).
    infer
        Whether the opponent's possible hands follow what its discard says (default
        :data:`BEST_INFER`): each sample deals it six cards, of which it keeps what the ``ev``
        policy keeps, and only deals whose keep holds the cards it laid (and fits its goes)
        count; in six-card its lays are read too (:mod:`analyzer.play.playread`: a hand that
        held a card pegging more than the one it laid is kept one time in four or less).
        False: every deal of the unseen cards its goes allow counts the same.
    variant, seat
        The form of the game (default ``"six-card"``). In the other forms (five-card,
        three-player, four-player) the position is given as the seat API gives it
        (:func:`analyzer.play.seat.lay`): ``seat`` is your seat, ``dealer`` the dealer's seat
        (a number, not True/False), ``played`` the ``(seat, card)`` pairs in order with ``(seat,
        None)`` for each go (or text ``"1:5H 2:go"``), ``score`` each side's score in side
        order; the search deals every other player's cards from what you have not seen (their
        goes respected, with ``infer`` each hand as that player's ``ev`` discard in the form
        suggests, the partners' pegging counted for your side) and values points, a card
        that reaches the target first, and with ``score`` the probability of winning from
        the form's shipped table (:func:`analyzer.play.searchforms.advise_play_forms`;
        ``odds`` must be None, the continuation ``greedy``).
    goes
        In the other forms, how the history's end is read, as the seat API reads it:
        ``"engine"`` (default), the engine's order (a seat that said go in this count says go
        again at its turn), or ``"table"``, the goes said once a count, as at the table: a seat
        that said go and is asked again, or that laid last with every other seat passed since
        and nothing that fits, is asked for the next count's lead (``crib peg`` reads them so).
        Six-card reads its goes from the cards (``go`` at the end asks for the lead).

    Returns
    -------
    pandas.DataFrame
        One row per legal card, best first (score-aware: a card that wins now, then by
        ``p_win``; then by ``total``): ``card``, ``now`` (points it pegs now, the last card
        included; a go, even one the card makes certain, is scored in the rest),
        ``rest_for``, ``rest_against`` (mean pegging in the rest of the play), ``rest`` (their
        difference) and ``rest_se`` (its standard error), ``total`` (``now + rest``),
        ``wins_now`` (the card reaches the target now; with no ``score`` always False), and
        with ``score``: ``p_win`` and ``p_win_se`` (the standard errors NaN from one sample,
        which has no spread). ``attrs`` holds ``best`` (a card, or ``"go"`` when no card can be
        laid: then there are no rows), ``count``, ``samples``, ``score_aware`` (whether
        ``score`` was given) and, in the other forms, ``variant``.

    Examples
    --------
    You are the pone and led 4C; the dealer laid 6D (count 10); 5H makes 15 and a run of
    three, 5 points:

    >>> advice = advise_play("4C 5H 9S KD", "4C 6D", dealer=False, starter="2S", samples=500)
    >>> advice.attrs["best"], int(advice.attrs["count"]), int(advice.loc[0, "now"])
    ('5H', 10, 5)
    """
    import pandas as pd

    from ..core.cards import as_cards, check_apart, format_card
    from ..core.choices import MAX_SEED, check_number, variant_game
    from ..core.scoring import hand_table, rank_table
    from ..keeping.crib import crib_values

    game = variant_game(variant)
    if not isinstance(infer, bool | np.bool_):
        raise ValueError(f"infer must be True or False, got {infer!r}")
    if game.name != "six-card":
        from .searchforms import advise_play_forms

        if seat is None:
            raise ValueError(f"seat: your seat (0 to {game.players - 1}) is needed in "
                             f"{game.name}")
        if odds is not None:
            raise ValueError(f"odds: in {game.name} the search reads the form's shipped "
                             "table; leave odds out")
        if continuation != "greedy":
            raise ValueError(f"continuation: only greedy in {game.name}, got {continuation!r}")
        return advise_play_forms(hand, played, seat=seat, dealer=dealer, starter=starter,
                                 variant=game.name, thrown=thrown, score=score,
                                 samples=samples, seed=seed, infer=bool(infer), goes=goes)
    if seat is not None:
        raise ValueError("seat: only in the other forms (variant=); in six-card say dealer="
                         "True or False")
    if goes != "engine":
        raise ValueError(f"goes: only in the other forms (variant=), got {goes!r}; six-card "
                         "reads its goes from the cards (end played with go to ask for the "
                         "lead)")
    mine = [int(c) for c in as_cards(hand, n=4)]
    sequence = _parse_played(played)
    laid = [c for c in sequence if c != GO]
    if len(laid) > 8:
        raise ValueError(f"at most 8 cards are laid in the play, got {len(laid)}")
    twice = [c for k, c in enumerate(laid) if c in laid[:k]]
    if twice:
        raise ValueError(f"{format_card(twice[0])} is laid twice in played")
    start = int(as_cards(starter, n=1)[0])
    own_throw = [] if thrown is None else [int(c) for c in as_cards(thrown, n=2)]
    check_apart(hand=mine, played=[c for c in laid if c not in mine], starter=[start],
                thrown=own_throw)
    if not isinstance(dealer, bool | np.bool_):
        raise ValueError(f"dealer must be True or False, got {dealer!r}")
    samples = check_number("samples", samples, low=1, high=MAX_SAMPLES, integer=True)
    seed = check_number("seed", seed, low=0, high=MAX_SEED, integer=True)
    if continuation not in ("greedy", "lookahead"):
        raise ValueError(f"continuation must be greedy or lookahead, got {continuation!r}")
    if score is not None:
        try:
            me_score, opp_score = (check_number(name, v, low=0, high=TARGET - 1, integer=True)
                                   for name, v in zip(("your score", "the opponent's score"),
                                                      score, strict=True))
        except (TypeError, ValueError) as exc:
            if isinstance(exc, ValueError) and "score" in str(exc):
                raise
            raise ValueError(f"score must be two numbers (yours, the opponent's), got "
                             f"{score!r}") from None
        if odds is None:
            from ..keeping.winodds import win_table

            table = np.array(win_table())
        else:
            table = np.ascontiguousarray(odds, np.float64)
        if table.shape != (TARGET + 1, TARGET + 1):
            raise ValueError(f"odds must have shape (122, 122), got {table.shape}")
        check_probabilities(table)
    else:
        me_score = opp_score = 0
        table = np.zeros((1, 1))
    count, ranks, opp_laid, floor = _replay(mine, sequence, bool(dealer))
    laid_mine = np.array([c in laid for c in mine], np.bool_)
    seq = np.zeros(9, np.int64)
    seq[:len(ranks)] = ranks
    out = np.empty((4, _N_OUT))
    from ..core.rng import chunk_states

    st = chunk_states(seed, 1)[0]
    n = _search(np.array(mine, np.int64), laid_mine, np.array(own_throw, np.int64), start,
                np.array(opp_laid, np.int64), 4 - len(opp_laid), floor, seq, len(ranks), count,
                bool(dealer), me_score, opp_score, TARGET, rank_table(), table, samples,
                None if continuation == "greedy" else np.int64(PEGGING_POLICIES[continuation]),
                st, -1,
                out, crib_values("table"), hand_table(),
                bool(infer), 0, *_read_masks(np.array([(int(c not in mine), c) for c in laid],
                                                      np.int64).reshape(-1, 2), len(laid), 0))
    if n < 0:
        raise ValueError(f"the opponent said go holding {4 - len(opp_laid)} cards, each worth "
                         f"{floor} or more, but not enough such cards are unseen")
    rows = []
    for i in np.flatnonzero(out[:, _LEGAL]):
        row = {"card": format_card(mine[i]), "now": int(out[i, _NOW]),
               "rest_for": out[i, _FOR], "rest_against": out[i, _AGAINST],
               "rest": out[i, _FOR] - out[i, _AGAINST], "rest_se": out[i, _NET_SE]}
        row["total"] = row["now"] + row["rest"]
        row["wins_now"] = score is not None and bool(out[i, _WINS_NOW])
        if score is not None:
            row["p_win"], row["p_win_se"] = out[i, _WIN], out[i, _WIN_SE]
        rows.append(row)
    columns = ["card", "now", "rest_for", "rest_against", "rest", "rest_se", "total",
               "wins_now"]
    columns += ["p_win", "p_win_se"] if score is not None else []
    frame = pd.DataFrame(rows, columns=columns)
    if len(frame):
        # score-aware: a card that wins now first (certain; another card may win in every
        # sample and still lose), then the probability of winning, then the points
        keys = ["wins_now", "p_win", "total"] if score is not None else ["total"]
        frame = frame.sort_values(keys, ascending=False, kind="stable").reset_index(drop=True)
    frame.attrs.update(best=frame.loc[0, "card"] if len(frame) else "go", count=count,
                       samples=samples, score_aware=score is not None)
    return frame
