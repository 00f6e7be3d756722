"""The score-aware keep: which four to keep to win from a given score, not to score most.

Near the end of a game the keep that scores most on average is not always the one that wins most
often: a pone who needs 9 may prefer a hand sure of 8 plus a peg to one worth 12 on average; a
dealer the pone will count out may keep pegging cards. :func:`keep_to_win` answers by simulating
the rest of the deal for every keep from the same samples (common random numbers):

1. a sample is the opponent's six cards and the starter, drawn uniformly from the 46 cards the
   player cannot see; the opponent keeps four by the engine's ``ev`` discard policy (the
   self-play crib-value table);
2. for each of the 15 keeps the deal is played out with the engine's own steps
   (:mod:`analyzer.play.engine`): his heels, the play (both players with the ``lookahead`` pegging
   policy), the pone's hand, the dealer's hand and the crib, in that order, stopping the moment
   a player reaches 121;
3. if nobody has won, the value is the probability of winning from the new score at the start of
   the next deal, with the roles swapped, from the win-odds table (:mod:`analyzer.research.odds`).

So the joint distribution of hand, crib and pegging points is used, not their means, and the
order in which points arrive decides a race. The probability of each keep is the mean over the
samples; the difference between two keeps is estimated on the same samples, so its standard error
is small.

**The choice.** The score-aware keep is the keep with the highest probability of winning, but it
replaces the points keep (the best ``net`` of :func:`analyzer.keep`) only when its advantage is
at least :data:`SWITCH_Z` standard errors: a difference the samples cannot tell from noise is not
a reason to give up points. Far from the end (at 0 to 0) the two therefore agree.

The engine's ``best`` discard policy runs the same kernel with fewer samples and the greedy
pegging policy in the deals where the game can end (:mod:`analyzer.play.players`).
"""

from __future__ import annotations

import numba
import numpy as np

from ..core import rules
from ..core.apart import compiled_apart
from ..core.borrow import _borrowed, _keep_alive
from ..core.choices import (
    DEFAULT_SAMPLES,
    DISCARD_POLICIES,
    PEGGING_POLICIES,
    SWITCH_Z,
    check_flag,
    check_number,
    on_threads,
)
from ..core.errors import ArgumentError
from ..core.jit import njit
from ..core.rng import _shuffle_prefix
from ..core.scoring import _rank, _score_one, _sort4_index
from ..keeping.discard import _DISCARD_TABLE, _KEEP_TABLE
from ..keeping.winodds import check_probabilities
from .deal import _his_heels
from .players import _choose_discard, _keep_values
from .search import _greedy_rollout, _rollout

__all__ = ["check_win_keep", "keep_to_win"]

#: The engine's ``best`` discard policy: samples of the rest of the deal, drawn only when a
#: player needs at most ``BEST_DISCARD_REACH`` points (the game can end in the deal), for the
#: ``BEST_DISCARD_CANDIDATES`` keeps best by points; it leaves the points keep for one that wins
#: more by at least ``ENGINE_SWITCH_Z`` standard errors.
BEST_DISCARD_SAMPLES = 64
#: After this many samples, and after every as many more, the ``best`` discard keeps the points
#: keep if no other keep is ahead of it (a mean paired difference above zero), without drawing
#: the rest.
BEST_DISCARD_FIRST = 16
BEST_DISCARD_REACH = 30
BEST_DISCARD_CANDIDATES = 5
ENGINE_SWITCH_Z = 2.0

_TARGET = rules.GAME_POINTS
_EV = DISCARD_POLICIES["ev"]
_LOOKAHEAD = PEGGING_POLICIES["lookahead"]
_GREEDY = PEGGING_POLICIES["greedy"]


@njit(cache=True, inline="always")
def _next_deal_win(me, opp, dealer, odds):
    """P(the player wins) from scores ``me``, ``opp`` at the start of the next deal, where the
    player deals iff he did not deal this one (``dealer`` is this deal's role)."""
    need_me, need_opp = _TARGET - me, _TARGET - opp
    if dealer:  # the opponent deals next
        return 1.0 - odds[need_opp, need_me]
    return odds[need_me, need_opp]


@njit(cache=True)
def _unseen_deck(six):
    """The 46 cards not in ``six``, int64, in id order."""
    deck = np.empty(46, np.int64)
    n = 0
    for c in range(52):
        mine = False
        for i in range(6):
            mine = mine or six[i] == c
        if not mine:
            deck[n] = c
            n += 1
    return deck


@compiled_apart
@njit(cache=True)
def _sample_keeps(six, dealer, me, opp, st, deck, ppol, crib_values, table, hand_table, odds,
                  keeps, out):
    """One sample of the rest of the deal for each keep of ``six`` in ``keeps`` (indices 0..14):
    the player's probability of winning after it, into ``out`` (len(keeps),).

    ``deck`` int64 (46,): the cards the player cannot see (shuffled in place): the opponent's six
    and the starter are drawn from it, and the opponent keeps four by the ``ev`` policy.
    """
    _shuffle_prefix(st, deck, np.int64(7))  # np.int64, not literals: one version each
    opp_six = deck[:6].copy()
    d_opp = _choose_discard(np.int64(_EV), opp_six, not dealer, crib_values, hand_table, st)
    _rest_of_deal(six, opp_six, d_opp, deck[6], dealer, me, opp, st, ppol, table, hand_table,
                  odds, crib_values, keeps, out)


@compiled_apart
@njit(cache=True)
def _rest_of_deal(six, opp_six, d_opp, starter, dealer, me, opp, st, ppol, table, hand_table,
                  odds, crib_values, keeps, out):
    """The deal played out for each keep in ``keeps`` of ``six`` against the opponent's
    ``opp_six`` kept by discard ``d_opp``, with ``starter``: the player's probability of winning
    after it into ``out``: 1 or 0 if a player reaches 121 in it, else the next deal's from
    ``odds``. The player is seat 0 (``me``), the opponent seat 1 (``opp``); ``ppol`` (2,) their
    pegging policies (``best`` lays as ``lookahead``: no search inside a sample).

    His heels, the play (the two-player play of :func:`analyzer.play.search._rollout`, the
    engine's rules; :func:`analyzer.play.search._greedy_rollout` when both are greedy) and the
    show in order: the pone's hand, the dealer's, the crib. The opponent's hand is counted once
    for all keeps. ``crib_values`` is not read (the opponent's discard is given). The arrays are
    borrowed (:mod:`analyzer.core.borrow`): no reference counts in the loop."""
    six, opp_six, st, ppol = _borrowed(six), _borrowed(opp_six), _borrowed(st), _borrowed(ppol)
    table, odds = _borrowed(table), _borrowed(odds)
    keeps, out = _borrowed(keeps), _borrowed(out)
    owner = np.zeros(8 + 4 + 26 + 26 + 2 + 2 + 2 * 4 + 1 + 2, np.int64)
    bools_owner = np.zeros(8, np.bool_)
    ints, laid = _borrowed(owner), _borrowed(bools_owner).reshape((2, 4))
    kept, o = ints[:8].reshape((2, 4)), 8
    crib, o = ints[o:o + 4], o + 4
    base_unseen, o = ints[o:o + 26].reshape((2, 13)), o + 26
    unseen, o = ints[o:o + 26].reshape((2, 13)), o + 26
    scores, o = ints[o:o + 2], o + 2
    pegged, o = ints[o:o + 2], o + 2
    seq, o = ints[o:o + 2 * 4 + 1], o + 2 * 4 + 1
    left = ints[o:o + 2]
    for i in range(4):
        kept[1, i] = opp_six[_KEEP_TABLE[d_opp][i]]
    crib[2] = opp_six[_DISCARD_TABLE[d_opp][0]]
    crib[3] = opp_six[_DISCARD_TABLE[d_opp][1]]
    base_unseen[:, :] = 4
    for i in range(6):
        base_unseen[0, _rank(six[i])] -= 1
        base_unseen[1, _rank(opp_six[i])] -= 1
    base_unseen[0, _rank(starter)] -= 1
    base_unseen[1, _rank(starter)] -= 1
    dealer_seat = 0 if dealer else 1
    pone = 1 - dealer_seat
    heels = _his_heels(starter)
    greedy = ppol[0] == _GREEDY and ppol[1] == _GREEDY  # best's discard: the fast rollout
    opp_hand = _score_one(kept[1, 0], kept[1, 1], kept[1, 2], kept[1, 3], starter, False, table)
    for j in range(keeps.shape[0]):
        d = keeps[j]
        for i in range(4):
            kept[0, i] = six[_KEEP_TABLE[d][i]]
            laid[0, i] = False
            laid[1, i] = False
        crib[0] = six[_DISCARD_TABLE[d][0]]
        crib[1] = six[_DISCARD_TABLE[d][1]]
        for a in range(2):
            left[a] = 4
            for r in range(13):
                unseen[a, r] = base_unseen[a, r]
        scores[0] = me
        scores[1] = opp
        scores[dealer_seat] += heels
        winner = dealer_seat if scores[dealer_seat] >= _TARGET else -1
        if winner < 0 and greedy:
            winner = _greedy_rollout(kept, laid, left, seq, np.int64(0), np.int64(0), pone,
                                     np.int64(-1), np.int64(0), scores, np.int64(_TARGET),
                                     pegged)
        elif winner < 0:
            winner = _rollout(kept, laid, left, seq, np.int64(0), np.int64(0), pone,
                              np.int64(-1), np.int64(0), unseen, ppol, scores,
                              np.int64(_TARGET), st, pegged)
        if winner < 0:  # the show: the pone's hand, the dealer's, the crib (the dealer's)
            mine = _score_one(kept[0, 0], kept[0, 1], kept[0, 2], kept[0, 3], starter, False,
                              table)
            for who in (pone, dealer_seat):
                scores[who] += mine if who == 0 else opp_hand
                if scores[who] >= _TARGET:
                    winner = who
                    break
            if winner < 0:
                scores[dealer_seat] += _score_one(crib[0], crib[1], crib[2], crib[3], starter,
                                                  True, table)
                if scores[dealer_seat] >= _TARGET:
                    winner = dealer_seat
        if winner == 0:
            out[j] = 1.0
        elif winner == 1:
            out[j] = 0.0
        else:
            out[j] = _next_deal_win(scores[0], scores[1], dealer, odds)
    _keep_alive(owner)
    _keep_alive(bools_owner)


@compiled_apart
@njit(cache=True, nogil=True)
def _keep_win_samples(six, dealer, me, opp, st, ppol, crib_values, table, hand_table, odds, out):
    """``out`` float64 (n, 15): ``n`` samples' win probability per keep, drawn from ``st`` (a
    block's state, advanced in place: the result is the same on any threads). Blocks run on
    threads (:func:`keep_to_win`), as the GIL is released."""
    deck = _unseen_deck(six)
    keeps = np.arange(15)
    for s in range(out.shape[0]):
        _sample_keeps(six, dealer, me, opp, st, deck, ppol, crib_values, table, hand_table, odds,
                      keeps, out[s])


@compiled_apart
@njit(cache=True)
def _points_values(six, dealer, crib_values, peg_values, hand_table, values):
    """The points value of each keep into ``values`` (15,): the exact hand mean over the 46
    unseen starters, plus (dealer) or minus (pone) the crib value of the thrown pair, plus the
    expected pegging difference of the kept ranks in that role (``peg_values`` (2, 13**4),
    :func:`analyzer.research.pegging.peg_table`). Returns the index of the best (the first of
    equals)."""
    _keep_values(six, dealer, crib_values, hand_table, True, values)
    role = 0 if dealer else 1
    best = 0
    for d in range(15):
        k = _KEEP_TABLE[d]
        values[d] += peg_values[role, _sort4_index(_rank(six[k[0]]), _rank(six[k[1]]),
                                                   _rank(six[k[2]]), _rank(six[k[3]]))]
        if values[d] > values[best]:
            best = d
    return best


@compiled_apart
@njit(cache=True)
def _best_discard(six, dealer, me, opp, st, crib_values, peg_values, table, hand_table, odds,
                  samples, reach, candidates):
    """The ``best`` discard policy: index 0..14 of the discard it makes of ``six``.

    The points choice (:func:`_points_values`: hand, crib and pegging) unless the game can end in
    this deal (either player needs at most ``reach`` points) and ``samples`` samples of the rest
    of the deal, both players pegging greedily, find among the ``candidates`` keeps best by
    points one more likely to win by at least :data:`ENGINE_SWITCH_Z` standard errors of the
    paired difference. After :data:`BEST_DISCARD_FIRST` samples, and after every as many more,
    it stops, with the points keep, if no other keep is ahead of it. ``me``, ``opp``: the
    scores. ``odds`` ``None`` (the ``pegging`` policy, no win-odds table) is the points choice
    always, compiled without the samples.
    """
    values = np.empty(15, np.float64)
    best = _points_values(six, dealer, crib_values, peg_values, hand_table, values)
    if odds is None:
        return best
    if samples <= 1 or (_TARGET - me > reach and _TARGET - opp > reach):
        return best
    keeps = np.argsort(-values, kind="mergesort")[:candidates]  # keeps[0] == best
    deck = _unseen_deck(six)
    ppol = np.full(2, _GREEDY, np.int64)
    m = keeps.shape[0]
    out = np.empty(m, np.float64)
    s1 = np.zeros(m, np.float64)
    s2 = np.zeros(m, np.float64)
    for k in range(samples):
        if k > 0 and k % BEST_DISCARD_FIRST == 0:  # stop when no keep is ahead of the
            # points keep (looking after 16 samples, 32 and 48)
            ahead = False
            for j in range(1, m):
                ahead = ahead or s1[j] > 0.0
            if not ahead:
                return best
        _sample_keeps(six, dealer, me, opp, st, deck, ppol, crib_values, table, hand_table, odds,
                      keeps, out)
        for j in range(m):
            x = out[j] - out[0]
            s1[j] += x
            s2[j] += x * x
    top = 0
    for j in range(m):
        if s1[j] > s1[top]:
            top = j
    if top == 0:
        return best
    mean = s1[top] / samples
    var = (s2[top] - samples * mean * mean) / (samples - 1)
    if mean > 0 and mean * mean * samples >= ENGINE_SWITCH_Z * ENGINE_SWITCH_Z * max(var, 0.0):
        return keeps[top]
    return best


def keep_to_win(cards, dealer: bool, score, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                crib: str | None = None, pegging: bool = True, odds=None, *,
                variant: str = "six-card", position: str | None = None):
    """Rank the keeps of a hand by the probability of winning from ``score``: the 15 of a
    six-card hand, or (``variant=``) the 10 of a five-card hand, the 5 of a three-player or
    four-player one.

    Parameters
    ----------
    cards
        The cards dealt, as text or ids: six, five in five-card, three- and four-player.
    dealer
        True when the player deals this deal (the crib is his; in four-player, his side's).
    score
        ``(me, opponent)``: the scores before the deal, each 0..120 (0..60 in five-card, where
        the pone's three for last, pegged before the first deal, is in them: one side has at
        least 3). In four-player, by side: ``(my side, the other side)``. In three-player
        three scores round the table to the left: ``(me, the player on my left, the player
        on my right)`` (the player on my left plays after me; as ``crib odds`` numbers the
        seats with me as seat 0).
    samples
        Samples of the rest of the deal (the others' cards and the starter), shared by all
        the keeps; rounded up to a multiple of 64.
    seed
        Seed of the samples: the same seed gives the same answer on any number of threads.
    crib, pegging
        How the points keep is valued (as :func:`analyzer.keep`; ``pegging`` is the six-card
        game's only).
    odds
        The form's win-odds table (:func:`analyzer.keeping.winodds.win_table`; in three-player
        :func:`analyzer.keeping.winodds.win_table3`); the shipped one by default.
    variant
        ``"six-card"`` (the default), ``"five-card"``, ``"four-player"``
        (:mod:`analyzer.play.winkeepforms`) or ``"three-player"``
        (:mod:`analyzer.play.winkeep3`): in these the others keep by ``ev`` and everyone pegs
        ``greedy`` in the samples.
    position
        Four-player: where the player sits, counted round to the left from the dealer:
        ``"dealer"``, ``"first"`` (on his left: leads, counts first), ``"second"`` (his
        partner) or ``"third"`` (on his right). By default ``"dealer"`` when ``dealer`` and
        ``"first"`` when not; it must agree with ``dealer`` (dealer and second are the dealing
        side). Three-player: ``"dealer"``, ``"first"`` (on his left: leads, shows first, deals
        next) or ``"second"`` (on his right), the same defaults; only ``"dealer"`` deals. The
        two-player forms take ``dealer`` alone.

    Returns
    -------
    pandas.DataFrame
        The :func:`analyzer.keep` frame with ``p_win`` (the probability of winning with that
        keep) and ``p_win_se`` (its standard error), sorted by ``p_win`` descending.
        ``df.attrs`` holds ``points_keep`` (the best ``net``), ``rival_keep`` (the best
        ``p_win`` of the other keeps, a keep that wins in exactly the same samples left out
        unless every keep does, as when the game is won whatever is kept: then the next by
        ``net``, its gain 0),
        ``gain`` and ``gain_se`` (the rival's ``p_win`` minus the
        points keep's, on the same samples, and its standard error), ``win_keep`` (the keep
        chosen: the rival when its gain is positive and at least
        :data:`~analyzer.core.choices.SWITCH_Z` standard errors, else the points keep), ``score``
        (two scores, three in three-player), ``samples``, ``seed``, ``variant`` (and in the
        other forms ``position``).

    Examples
    --------
    >>> df = keep_to_win("5H 5S 6D JC QS KH", dealer=True, score=(0, 0), samples=256)
    >>> df.attrs["win_keep"] == df.attrs["points_keep"]
    True
    >>> df = keep_to_win("9H 9S KD 2C AS", dealer=False, score=(59, 41), samples=64,
    ...                  variant="five-card")
    >>> float(df["p_win"].iloc[0]), df.attrs["win_keep"]  # the pone counts the 9s first
    (1.0, '2C 9H 9S')
    >>> df = keep_to_win("9H 9S KD 2C AS", dealer=False, score=(119, 60, 70), samples=64,
    ...                  variant="three-player", position="first")  # first to show: the 9s
    >>> float(df["p_win"].iloc[0]), "9H 9S" in df.attrs["win_keep"], df.attrs["score"]
    (1.0, True, (119, 60, 70))
    """
    if variant == "three-player":
        from .winkeep3 import win_samples3

        points, keep_text, out, scores, seed, where = win_samples3(
            cards, dealer, score, samples, seed, crib, position, odds)
        df = _rank_by_win(points, keep_text, out, scores, seed)
        df.attrs.update(position=where)
        return df
    if variant != "six-card":
        from .winkeepforms import win_samples_forms

        points, keep_text, out, me, opp, seed, where = win_samples_forms(
            cards, dealer, score, samples, seed, crib, variant, position, odds)
        df = _rank_by_win(points, keep_text, out, (me, opp), seed)
        df.attrs.update(position=where)
        return df
    me, opp, _ = check_win_keep(dealer, score, variant, position)
    from ..core.rng import chunk_states
    from ..core.scoring import hand_table, rank_table
    from ..keeping.crib import crib_values as crib_value_table
    from ..keeping.discard import keep

    samples = check_number("samples", samples, low=1, high=10**7, integer=True)
    seed = check_number("seed", seed, low=0, high=2**63 - 1, integer=True)
    points = keep(cards, dealer, crib=crib, pegging=pegging)
    six = np.array(sorted(_ids(cards)), np.int64)
    if odds is None:
        from ..keeping.winodds import win_table

        odds = win_table()
    per_block = 64
    blocks = -(-samples // per_block)
    states = chunk_states(seed, np.arange(blocks))
    out = np.empty((blocks * per_block, 15), np.float64)
    ppol = np.array([_LOOKAHEAD, _LOOKAHEAD], np.int64)
    values, table, hands = crib_value_table("table"), rank_table(), hand_table()
    odds = np.array(odds, np.float64)  # writable, as the engine's: one version
    if odds.shape != (_TARGET + 1, _TARGET + 1):  # the kernels read it unchecked
        raise ValueError(f"odds: a ({_TARGET + 1}, {_TARGET + 1}) table for six-card, got shape "
                         f"{odds.shape}")
    check_probabilities(odds)

    def run(b):
        _keep_win_samples(six, bool(dealer), me, opp, states[b], ppol, values, table, hands,
                          odds, out[b * per_block:(b + 1) * per_block])

    on_threads(run, blocks, numba.get_num_threads())
    from ..core.cards import format_card

    names = [format_card(c) for c in six]
    keep_text = [" ".join(names[k] for k in row) for row in _KEEP_TABLE]  # six is in id order
    return _rank_by_win(points, keep_text, out, (me, opp), seed)


def _rank_by_win(points, keep_text, out, score, seed):
    """The points frame with ``p_win`` columns, re-sorted, and the choice in ``attrs``.
    ``keep_text[d]`` is the keep of column ``d`` of ``out`` (samples, ways), as the frame
    writes it; ``score`` the checked scores (two, or three in three-player)."""
    index = {frozenset(text.split()): d for d, text in enumerate(keep_text)}
    n = out.shape[0]
    order = [index[frozenset(k.split())] for k in points["keep"]]
    p = out.mean(axis=0)
    se = out.std(axis=0, ddof=1) / np.sqrt(n)
    df = points.copy()
    df["p_win"] = p[order]
    df["p_win_se"] = se[order]
    best_points = order[0]
    # the best keep but the points keep; of keeps alike in P(win), the first by net, as the
    # frame sorts them. A keep that wins in exactly the same samples (a twin by suits: 5H 5S
    # for 5D 5C) is no rival: the next best would "differ by +0.0000 ± 0.0000".
    others = [d for d in order if d != best_points]
    distinct = [d for d in others if not np.array_equal(out[:, d], out[:, best_points])]
    others = distinct or others
    rival = others[int(np.argmax(p[others]))]
    diff = out[:, rival] - out[:, best_points]
    gain = float(diff.mean())
    gain_se = float(diff.std(ddof=1) / np.sqrt(n)) if n > 1 else float("inf")
    chosen = rival if gain > 0 and gain >= SWITCH_Z * gain_se else best_points
    df = df.sort_values(["p_win", "net"], ascending=False, kind="stable").reset_index(drop=True)
    df.attrs.update(points.attrs)
    df.attrs.update(points_keep=keep_text[best_points], win_keep=keep_text[chosen],
                    rival_keep=keep_text[rival], gain=gain, gain_se=gain_se,
                    score=tuple(score), samples=n, seed=seed)
    return df


def _ids(cards):
    from ..core.cards import as_cards

    ids = as_cards(cards)
    if len(ids) != 6 or len(set(ids)) != 6:
        from ..core.cards import CardError

        raise CardError(f"a six-card hand is needed, got {len(set(ids))} distinct cards")
    return ids


def check_win_keep(dealer: bool, score, variant: str = "six-card", position: str | None = None):
    """What :func:`keep_to_win` checks before it reads the cards: the form, the seat
    (``position``, three-player's and four-player's, agreeing with ``dealer``) and the scores
    in the form's range, with the messages :func:`keep_to_win` gives.

    Returns
    -------
    tuple
        ``(me, opp, position)``: the scores as whole numbers and the player's place by name
        (``None`` in six-card; ``"dealer"`` or ``"pone"`` in five-card); in three-player
        ``(me, left, right, position)``.

    Raises
    ------
    analyzer.core.errors.ArgumentError
        A ``ValueError`` naming the argument at fault: ``"variant"``, ``"position"``, ``"me"``,
        ``"opp"``, ``"third"`` (three-player's score of the player on your right) or
        ``"score"`` (the scores together).

    Examples
    --------
    >>> check_win_keep(True, (110, 115))
    (110, 115, None)
    >>> check_win_keep(False, (100, 95), "four-player", "third")
    (100, 95, 'third')
    >>> check_win_keep(False, (100, 95, 118), "three-player", "second")
    (100, 95, 118, 'second')
    >>> try:
    ...     check_win_keep(True, (40, 50), "three-player")
    ... except ValueError as exc:
    ...     print(exc.argument, "|", str(exc)[:35])
    score | score: three-player takes three sco
    """
    dealer = check_flag("dealer", dealer)
    if variant == "three-player":
        from .winkeep3 import THREE_PLACES, check_three

        place, scores = check_three(dealer, score, position)
        return (*scores, THREE_PLACES[place])
    if variant != "six-card":
        from ..core.choices import FORM_POSITIONS
        from .winkeepforms import check_forms

        game, place, me, opp = check_forms(variant, dealer, score, position)
        where = FORM_POSITIONS[place] if game.players == 4 else ("pone", "dealer")[place == 0]
        return me, opp, where
    if position is not None:
        raise ArgumentError("position", "position: for three-player and four-player; in "
                            "six-card say dealer=True or False")
    try:
        me, opp = score
    except (TypeError, ValueError):
        raise ArgumentError("score", f"score must be two numbers (me, opponent), got "
                            f"{score!r}") from None
    checked = []
    for argument, name, value in (("me", "my score", me), ("opp", "the opponent's score", opp)):
        try:
            checked.append(check_number(name, value, low=0, high=_TARGET - 1, integer=True))
        except ValueError as exc:
            raise ArgumentError(argument, str(exc)) from None
    me, opp = checked
    return me, opp, None
