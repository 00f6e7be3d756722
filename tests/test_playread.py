"""The read of the opponent's plays (analyzer.play.playread) against a plain replay of the rule,
and the search's draws with it against a rejection sampler built on the public keep."""

from __future__ import annotations

import numpy as np
import pytest
from naive import naive_peg_points, rank, value
from numba import njit

from analyzer import parse_cards
from analyzer.keeping.crib import crib_values
from analyzer.play.playread import _SLIP_RATIO, PLAY_SLIP, _plays_weight, _read_masks


@njit(cache=True)
def _weight(beats, fits, known, ranks, n_ranks):
    # _plays_weight is inlined into its callers: one compiled caller for the tests
    return _plays_weight(beats, fits, known, ranks, n_ranks)


def _oracle_weight(plays, opp_hand):
    """The rule read plainly: replay the count; at each of the opponent's lays, every card of its
    hand not yet laid that fits the count is legal; if one pegs more now than the card laid, the
    weight takes PLAY_SLIP / ((1 - PLAY_SLIP) (legal - 1))."""
    weight, count_cards, laid = 1.0, [], set()
    for who, card in plays:
        if sum(value(c) for c in count_cards) + value(card) > 31:
            count_cards = []
        if who == 1:
            count = sum(value(c) for c in count_cards)
            legal = [c for c in opp_hand if c not in laid and count + value(c) <= 31]
            mine = naive_peg_points(count_cards + [card])
            if any(naive_peg_points(count_cards + [c]) > mine for c in legal):
                weight *= PLAY_SLIP / (1 - PLAY_SLIP) / (len(legal) - 1)
            laid.add(card)
        count_cards = count_cards + [card]
        if sum(value(c) for c in count_cards) == 31:
            count_cards = []
    return weight


def _ev_throw(six, rng, dealer=False):
    """The two cards ``ev`` throws from ``six`` by ``evaluate_discards`` (the crib table): of
    throws equally good (exactly: a card and another of its rank), one at random, as a random
    deal's order picks among them."""
    from analyzer.keeping.discard import evaluate_discards

    best = evaluate_discards(six, dealer=dealer, crib="table", pegging=False)
    tied = [k for k in range(len(best["net"])) if best["net"][k] == best["net"][0]]
    return {int(c) for c in parse_cards(best["discard"][tied[int(rng.integers(len(tied)))]])}


def _read(plays, opp_hand):
    arr = np.array(plays, np.int64).reshape(-1, 2)
    beats, fits, known = _read_masks(arr, len(plays), 0)
    unlaid = [c for c in opp_hand if c not in {c for w, c in plays if w == 1}]
    ranks = sum(rank(c) << (4 * i) for i, c in enumerate(unlaid))
    return _weight(beats, fits, known, ranks, len(unlaid))


def test_a_lay_that_passes_up_a_fifteen_is_read():
    """I lead 7H; the opponent lays 2C holding 8D, which made 15 for 2: its four cards fit, so the
    hand weighs PLAY_SLIP / (1 - PLAY_SLIP) / 3. Without the 8 (or any card scoring) it weighs 1,
    and before it lays there is nothing to read."""
    seven, two, eight, king, queen, four = (int(c) for c in parse_cards("7H 2C 8D KS QS 4H"))
    plays = [(0, seven), (1, two)]
    assert _read(plays, [two, eight, king, queen]) == _SLIP_RATIO / 3
    assert _read(plays, [two, four, king, queen]) == 1.0
    assert _read(plays[:1], [two, eight, king, queen]) == 1.0
    assert _read_masks(np.zeros((0, 2), np.int64), 0, 0)[2] >> 16 == 0


def test_the_read_equals_the_rule_replayed_on_random_plays():
    """Random legal plays of two random hands, the opponent's read at every point of the play:
    the masks and the bit tests give the plain replay's weight."""
    rng = np.random.default_rng(29)
    read = 0
    for _ in range(3000):
        deck = rng.permutation(52)
        hands = [deck[:4].tolist(), deck[4:8].tolist()]
        plays, laid, count, turn, passes = [], [set(), set()], 0, int(rng.integers(2)), 0
        while len(plays) < 8:
            fit = [c for c in hands[turn] if c not in laid[turn] and count + value(c) <= 31]
            if not fit:
                passes += 1
                if passes >= 2:
                    count, passes = 0, 0
                turn = 1 - turn
                continue
            card = fit[int(rng.integers(len(fit)))]
            laid[turn].add(card)
            plays.append((turn, card))
            count, passes = count + value(card), 0
            if count == 31:
                count = 0
            turn = 1 - turn
        for n in range(len(plays) + 1):
            expected = _oracle_weight(plays[:n], hands[1])
            assert abs(_read(plays[:n], hands[1]) - expected) < 1e-12, (plays[:n], hands[1])
            read += expected < 1.0
    assert read > 500  # the plays often passed up points: the rule was tested where it bites


@pytest.mark.slow
def test_posterior_draws_with_the_read_agree_with_a_rejection_sampler_built_on_keep():
    """I deal; the opponent led 9S, I paired nothing with 6D (15 for me), and it laid KC on 15
    where a 6 would have pegged a pair. The search's draws of its other two cards against a plain
    sampler: deal it six with the 9S and KC, keep what ``evaluate_discards`` keeps (the crib
    table; of keeps equally good, one at random), drop the deal unless both are kept, then keep
    it with the rule's weight. The rank shares agree, and 6s are fewer than in the discard's
    draws alone."""
    from analyzer.core.scoring import hand_table
    from analyzer.play.search import _draw_posterior

    mine = [int(c) for c in parse_cards("6D 7C JH QD")]
    thrown = [int(c) for c in parse_cards("2H 3S")]
    starter = int(parse_cards("AC")[0])
    nine, king = (int(c) for c in parse_cards("9S KC"))
    plays = [(1, nine), (0, mine[0]), (1, king)]
    pool = sorted(set(range(52)) - {*mine, *thrown, starter, nine, king})
    masks = _read_masks(np.array(plays, np.int64), 3, 0)
    tables = crib_values("table"), hand_table()
    n = 6000

    def ours(read):  # the draws with the read's masks, or with none (the discard alone)
        st = np.array([7, 7, 11, 13], np.uint64)
        work, six, spare = np.empty(52, np.int64), np.empty(6, np.int64), np.empty(6, np.int64)
        hands, throw = np.empty((n, 2), np.int64), np.empty(2, np.int64)
        fitted = 0
        while fitted < n:  # (a sample whose 64 tries all miss falls back to a uniform draw)
            fitted += _draw_posterior(np.array(pool, np.int64), len(pool),
                                      np.array([nine, king], np.int64), 0, 0, False, *tables, st,
                                      work, six, hands[fitted], throw,
                                      *(masks if read else (0, 0, 0)), spare)
        return hands

    rng = np.random.default_rng(7)
    oracle = []
    while len(oracle) < n:
        six = [nine, king, *rng.choice(pool, 4, replace=False).tolist()]
        out = _ev_throw(six, rng)
        if out & {nine, king}:
            continue
        kept = [c for c in six if c not in out]
        if rng.random() < _oracle_weight(plays, kept):
            oracle.append([c for c in kept if c not in (nine, king)])

    def shares(cards):
        return np.bincount(np.asarray(cards).ravel() // 4, minlength=13) / np.asarray(cards).size

    p, q = shares(ours(True)), shares(oracle)
    se = np.sqrt(np.maximum(p * (1 - p) + q * (1 - q), 1e-12) / (2 * n))
    assert np.all(np.abs(p - q) <= 5 * se + 1e-9), (p, q)
    six_rank = rank(mine[0])
    assert p[six_rank] < 0.5 * shares(ours(False))[six_rank]  # the read says: few 6s
