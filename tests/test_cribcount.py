"""The crib counted by rank class (analyzer.keeping.cribcount) against every crib enumerated, bit
for bit:
the means keep gives, the enumeration kept in analyzer.keeping.discard, and the exact
distribution."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from crib_enumeration import card_weights, enumerate_cribs
from naive import cards

from analyzer import CardError, keep, keep_many
from analyzer.core.choices import numba_threads
from analyzer.core.scoring import hand_table, rank_table
from analyzer.keeping.crib import throw_counts
from analyzer.keeping.cribcount import SCORES, _crib_counts, _rank_pair_weights
from analyzer.keeping.discard import (
    DISCARDS,
    _crib_means_enumerated,
    _discard_crib_means,
    _pair_weights,
    crib_distribution,
)

# (crib mode, dealer) of each weighting of crib_enumeration.card_weights()
MODES = (("uniform", True), ("weighted", True), ("weighted", False))

# Hands where flushes and nobs matter most: all six of one suit with its jack, two and four
# jacks, the jacks and fives of 29, no jack at all, four of a kind, a run in one suit.
SPECIAL = [cards(h) for h in (
    "AH 3H 5H 7H 9H JH", "5C 5D 5H JS JC KD", "JC JD JH JS 5C 5D", "5C 5D 5H 5S JD QD",
    "2C 4D 6H 8S TC QD", "7C 7D 7H 7S 8C 8D", "3S 4S 5S 6S 7S 8S", "AC 2C 3D 4D 5H JC",
)]


def _random_hands(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.sort(np.argsort(rng.random((n, 52)), axis=1)[:, :6], axis=1).astype(np.int64)


def _pattern_hands() -> np.ndarray:
    """One hand of each of the 18,395 rank patterns of six cards (no rank five times), suits
    chosen deterministically: every other pattern as suited as it can be (the first card of
    each rank of one suit, so flushes are there to count), the others at random (seeded)."""
    rng = np.random.default_rng(13)
    hands = []
    for i, ranks in enumerate(itertools.combinations_with_replacement(range(13), 6)):
        counts = np.bincount(ranks, minlength=13)
        if counts.max() > 4:
            continue
        hand = []
        for r in np.flatnonzero(counts):
            suits = ((i // 2 + np.arange(counts[r])) % 4 if i % 2 == 0
                     else rng.permutation(4)[:counts[r]])
            hand.extend(4 * r + suits)
        hands.append(sorted(hand))
    return np.array(hands, np.int64)


def _counts(sixes: np.ndarray, crib: str, dealer: bool) -> np.ndarray:
    """The counted distribution (n, 15, 30) of each hand, by the kernel crib_distribution calls."""
    out = np.empty((len(sixes), 15, SCORES), np.int64)
    weights, hands = _rank_pair_weights(crib, dealer), hand_table()
    for i, six in enumerate(sixes):
        _crib_counts(six, DISCARDS, weights, hands, out[i])
    return out


def _check_against_enumeration(sixes: np.ndarray) -> None:
    hist, means = enumerate_cribs(sixes, card_weights())
    for q, (crib, dealer) in enumerate(MODES):
        # bit for bit: == on floats, not isclose
        counted = _discard_crib_means(sixes, dealer, crib, rank_table())  # keep_many's path
        bad = np.argwhere(counted != means[:, q])
        assert bad.size == 0, (crib, dealer, sixes[bad[0, 0]], DISCARDS[bad[0, 1]])
        assert np.array_equal(_counts(sixes, crib, dealer), hist[:, q]), (crib, dealer)
    assert (hist[:, 0].sum(axis=-1) == 45_540).all()  # uniform: every crib once


def test_counted_crib_equals_the_enumeration_on_fifty_hands():
    sixes = np.concatenate([np.sort(np.array(SPECIAL), axis=1), _random_hands(42, seed=5)])
    _check_against_enumeration(sixes)
    # the enumeration kept in analyzer.keeping.discard, and keep() one hand at a time, give the
    # same bits
    weights = card_weights()
    out = np.empty(15)
    for six in sixes[:12]:
        for q, (crib, dealer) in enumerate(MODES):
            _crib_means_enumerated(0, len(DISCARDS), six, DISCARDS, weights[q], rank_table(), out)
            df = keep(six, dealer=dealer, crib=crib).set_index("discard")
            dist = crib_distribution(six, dealer=dealer, crib=crib)
            assert (df.loc[dist.discard, "crib_mean"].to_numpy() == out).all()
            assert (dist.mean == out).all()


PARTS = 8


@pytest.mark.slow
@pytest.mark.parametrize("part", [pytest.param(p, marks=[pytest.mark.exhaustive] if p else [])
                                  for p in range(PARTS)])
def test_counted_crib_equals_the_enumeration_on_every_rank_pattern_and_2000_hands(part):
    """A hand of every rank pattern (half of them as suited as they can be) and 2,000 seeded
    random hands, both roles, uniform and weighted: the means and the whole distributions, bit
    for bit. In eight parts of every eighth hand, one thread each, so that the test workers
    share them (the enumeration scores 45,540 cribs x 15 discards a hand: about two minutes of
    CPU in all). Part 0, an even sample of the patterns, always runs; the other seven with
    ``--exhaustive`` (``make test-all``)."""
    patterns = _pattern_hands()
    assert len(patterns) == 18_395
    assert len({tuple(r) for r in patterns // 4}) == 18_395
    sixes = np.concatenate([patterns, _random_hands(2_000, seed=2024)])[part::PARTS]
    with numba_threads(1):
        for start in range(0, len(sixes), 1_000):
            _check_against_enumeration(sixes[start:start + 1_000])


def test_distribution_sums_to_one_and_its_mean_is_keeps():
    for six in SPECIAL[:4]:
        for crib, dealer in (*MODES, ("uniform", False)):
            dist = crib_distribution(six, dealer=dealer, crib=crib)
            assert dist.weights.shape == (15, SCORES) and (dist.weights >= 0).all()
            assert np.allclose(dist.probability.sum(axis=1), 1.0, rtol=0, atol=1e-14)
            assert (dist.total == dist.weights.sum(axis=1)).all()
            df = keep(six, dealer=dealer, crib=crib).set_index("discard")
            assert (df.loc[dist.discard, "crib_mean"].to_numpy() == dist.mean).all()
            assert dist.role == ("dealer" if dealer else "pone") and dist.crib_mode == crib
    uniform = crib_distribution("5H 5S 6D JC QS KH", dealer=False)
    assert (uniform.total == 45_540).all()
    # the pone's opponent throws as the dealer does: weighted differs from uniform, and by role
    weighted = crib_distribution("5H 5S 6D JC QS KH", dealer=False, crib="weighted")
    assert not np.array_equal(weighted.probability, uniform.probability)
    assert not np.array_equal(
        weighted.weights, crib_distribution("5H 5S 6D JC QS KH", True, "weighted").weights)


def test_distribution_of_a_worked_example():
    # Holding 5H 5S 6D JC QS KH, the only crib of 29 is 5H 5S thrown, the opponent's 5C JD and
    # the starter 5D (5C 5D 5H 5S JC would need the JC, which the player keeps).
    dist = crib_distribution("KH QS JC 6D 5S 5H", dealer=True)
    assert dist.hand == "5H 5S 6D JC QS KH"
    assert dist.discard[0] == "5H 5S" and dist.weights[0, 29] == 1
    assert (dist.weights[1:, 29] == 0).all()  # no other discard holds two fives
    # a crib can never score 19, 25, 26 or 27
    assert (dist.weights[:, [19, 25, 26, 27]] == 0).all()


def test_integer_pair_weights_are_twelve_times_self_play_frequencies():
    for dealer, role in ((True, 1), (False, 0)):
        counts = throw_counts()[role]
        weights = _pair_weights(dealer)
        ranks = _rank_pair_weights("weighted", dealer)
        for c, e in itertools.combinations(range(52), 2):
            r, s = sorted((c // 4, e // 4))
            suited = int(c % 4 == e % 4)
            kinds = 6 if r == s else (4 if suited else 12)
            assert weights[c, e] == weights[e, c] == 12 * counts[r, s, suited if r != s else 0] \
                // kinds
            assert weights[c, e] * kinds == 12 * counts[r, s, suited if r != s else 0]
            assert ranks[c // 4, e // 4, suited] == weights[c, e]
        assert (np.diag(weights) == 0).all()
    assert (_rank_pair_weights("uniform", True) == 1).all()


def test_crib_distribution_refuses_the_table_and_bad_hands():
    with pytest.raises(ValueError, match="no distribution"):
        crib_distribution("5H 5S 6D JC QS KH", dealer=True, crib="table")
    with pytest.raises(CardError, match="expected 6 cards"):
        crib_distribution("5H 5S 6D JC QS", dealer=True)


def test_keep_many_counts_hands_in_parallel_as_keep_does_one_by_one():
    sixes = _random_hands(30, seed=9)
    for crib in ("uniform", "weighted"):
        with numba_threads(2):
            many = keep_many(sixes, dealer=False, crib=crib)
        for i, (_, rows) in enumerate(many.groupby("hand", sort=False)):
            one = keep(sixes[i], dealer=False, crib=crib)
            assert (rows["crib_mean"].to_numpy() == one["crib_mean"].to_numpy()).all()
