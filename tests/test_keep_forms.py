"""keep() in the forms dealing five cards: exact hand statistics against the naive oracle, the
uniform crib against a plain-Python enumeration of every crib, ordering, refusals."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import cards, naive_score

from analyzer import CardError, keep, keep_many, parse_cards, score_hands
from analyzer.core.game import VARIANTS
from analyzer.keeping.discard import COLUMNS, evaluate_discards

FORMS = ["three-player", "four-player", "five-card"]
WAYS = {"three-player": 5, "four-player": 5, "five-card": 10}
five_cards = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@settings(max_examples=15, deadline=None)
@given(five_cards, st.booleans(), st.sampled_from(FORMS))
def test_hand_statistics_equal_naive_over_47_starters(five, dealer, variant):
    df = keep(five, dealer=dealer, variant=variant)
    assert len(df) == WAYS[variant] and list(df.columns) == list(COLUMNS)
    starters = [c for c in range(52) if c not in five]
    assert len(starters) == 47
    for row in df.itertuples(index=False):
        kept = parse_cards(row.keep).tolist()
        assert len(kept) == (3 if variant == "five-card" else 4)
        scores = np.array([naive_score(kept, s) for s in starters])
        assert row.hand_mean == pytest.approx(scores.mean(), abs=1e-12)
        assert (row.hand_min, row.hand_max) == (scores.min(), scores.max())
        assert row.hand_std == pytest.approx(scores.std(), abs=1e-12)
        assert sorted(kept + parse_cards(row.discard).tolist()) == sorted(five)


def enumerated_crib_mean(five: list[int], thrown: list[int]) -> tuple[float, int]:
    """Every crib, one by one: the cards nobody has seen (4 - thrown of them) any of the 47
    unseen, the starter any unseen card left; each scored as a crib by the vectorized scorer
    (itself checked against the naive oracle). Returns the mean and the number of cribs."""
    unseen = np.array([c for c in range(52) if c not in five], np.int64)
    hidden = np.array(list(itertools.combinations(unseen.tolist(), 4 - len(thrown))), np.int64)
    # each set of hidden cards with each unseen card not among them as the starter
    free = ~(hidden[:, :, None] == unseen[None, None, :]).any(axis=1)
    h, s = np.nonzero(free)
    cribs = np.concatenate([np.broadcast_to(np.array(thrown, np.int64), (len(h), len(thrown))),
                            hidden[h]], axis=1)
    scores = score_hands(cribs.astype(np.uint8), unseen[s].astype(np.uint8), crib=True)
    return float(scores.mean(dtype=np.float64)), len(cribs)


def test_five_card_crib_is_the_exact_enumeration_for_every_throw():
    five = cards("5H 5S 6D JC KH")
    df = keep(five, dealer=True, variant="five-card", crib="uniform")
    assert df.attrs["crib_mode"] == "uniform"
    for row in df.itertuples(index=False):
        want, n = enumerated_crib_mean(five, parse_cards(row.discard).tolist())
        assert n == 1081 * 45  # the opponent's two: C(47, 2); the starter: 45 left
        assert row.crib_mean == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("variant", ["three-player", "four-player"])
def test_one_card_throw_crib_is_the_exact_enumeration(variant):
    # A Jack thrown and a flush possible: nobs and the crib flush are counted from suits.
    five = cards("JH 5H 7H 8H 2C")
    df = keep(five, dealer=False, variant=variant, crib="uniform").set_index("discard")
    want, n = enumerated_crib_mean(five, cards("JH"))
    assert n == 16215 * 44  # three unseen crib cards: C(47, 3); the starter: 44 left
    assert df.loc["JH", "crib_mean"] == pytest.approx(want, abs=1e-12)


@pytest.mark.slow
@pytest.mark.parametrize("hand", ["5H 5S 6D JC KH", "AC 2C 3C JC QD", "9S 9D 9H 9C 5D"])
def test_every_throw_crib_is_the_exact_enumeration(hand):
    five = cards(hand)
    one = keep(five, dealer=True, variant="three-player", crib="uniform")
    for row in one.itertuples(index=False):
        want, _ = enumerated_crib_mean(five, parse_cards(row.discard).tolist())
        assert row.crib_mean == pytest.approx(want, abs=1e-12)
    two = keep(five, dealer=True, variant="five-card", crib="uniform")
    for row in two.itertuples(index=False):
        want, _ = enumerated_crib_mean(five, parse_cards(row.discard).tolist())
        assert row.crib_mean == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("variant", FORMS)
def test_net_is_hand_plus_or_minus_crib_sorted_and_roles_agree(variant):
    hand = "5H 5S 6D JC KH"
    frames = {}
    for dealer, sign in ((True, 1), (False, -1)):
        df = keep(hand, dealer=dealer, variant=variant, crib="uniform")
        np.testing.assert_allclose(df["net"], df["hand_mean"] + sign * df["crib_mean"])
        assert df["net"].is_monotonic_decreasing
        assert df.attrs == {"hand": hand, "role": "dealer" if dealer else "pone",
                            "crib_mode": "uniform", "variant": variant, "pegging": False}
        frames[dealer] = df.set_index("keep").sort_index()
    # the uniform crib does not depend on whose it is
    pd.testing.assert_series_equal(frames[True]["crib_mean"], frames[False]["crib_mean"])


def test_three_and_four_player_uniform_keeps_are_the_same_computation():
    # Both: five cards, one thrown, three crib cards unseen (the others' and the pack's), 47
    # unseen starters; only whose crib it is differs, and that is --dealer/--pone. (Their
    # self-play tables differ: the players throw differently when a partner shares the crib.)
    hand = "AH 4S 6D 9C QC"
    a = keep(hand, dealer=True, variant="three-player", crib="uniform")
    b = keep(hand, dealer=True, variant="four-player", crib="uniform")
    pd.testing.assert_frame_equal(a, b)


def test_uniform_crib_averages_to_the_census_crib_mean():
    # Over random hands and all throws the uniform crib is the mean crib over all (four cards,
    # starter), 4.7348 (docs/rules.md), whatever the form. Seeded, 30 hands per form.
    rng = np.random.default_rng(11)
    for variant in ("three-player", "five-card"):
        means = [keep(rng.permutation(52)[:5], dealer=True, variant=variant,
                      crib="uniform")["crib_mean"].mean()
                 for _ in range(30)]
        assert np.mean(means) == pytest.approx(4.7348, abs=0.15), variant


@pytest.mark.parametrize("variant", FORMS)
def test_evaluate_discards_and_keep_many_match_keep(variant):
    rng = np.random.default_rng(5)
    hands = np.array([rng.permutation(52)[:5] for _ in range(8)])
    many = keep_many(hands, dealer=False, variant=variant)
    assert len(many) == WAYS[variant] * 8 and many.attrs["variant"] == variant
    for i, (text, rows) in enumerate(many.groupby("hand", sort=False)):
        one = keep(hands[i], dealer=False, variant=variant)
        assert text == one.attrs["hand"]
        assert rows["rank"].tolist() == list(range(1, WAYS[variant] + 1))
        assert rows.drop(columns=["hand", "rank"]).reset_index(drop=True).equals(one)
        result = evaluate_discards(hands[i], dealer=False, variant=variant)
        for column in COLUMNS:
            assert list(one[column]) == list(result[column])
        assert result["variant"] == variant and result["crib_mode"] == "table"
    texts = keep_many(["5H 5S 6D JC KH"], dealer=True, variant=variant)
    assert texts["net"].iloc[0] == keep("5H 5S 6D JC KH", True, variant=variant)["net"].iloc[0]


@pytest.mark.parametrize("variant", FORMS)
def test_forms_refuse_the_weighted_crib(variant):
    with pytest.raises(ValueError, match=f"crib mode 'weighted' is not available for {variant}"):
        keep("5H 5S 6D JC KH", dealer=True, crib="weighted", variant=variant)
    with pytest.raises(ValueError, match="not available"):
        keep_many(["5H 5S 6D JC KH"], dealer=True, crib="weighted", variant=variant)


@pytest.mark.parametrize("variant", FORMS)
@pytest.mark.parametrize("dealer", [True, False])
def test_forms_read_their_own_self_play_table_by_default(variant, dealer):
    from analyzer.keeping.crib import card_values, crib_values

    game = VARIANTS[variant]
    df = keep("5H 5S 6D JC KH", dealer=dealer, variant=variant)
    assert df.attrs["crib_mode"] == "table"
    role = 0 if dealer else 1
    for row in df.itertuples():
        thrown = parse_cards(row.discard).tolist()
        if game.thrown == 1:
            expected = card_values("table", variant)[role, thrown[0] // 4]
        else:
            a, b = thrown
            expected = crib_values("table", variant)[role, a // 4, b // 4, int(a % 4 == b % 4)]
        assert row.crib_mean == expected
        assert row.net == pytest.approx(row.hand_mean + (expected if dealer else -expected))
    assert keep_many(["5H 5S 6D JC KH"], dealer=dealer, variant=variant)["net"].iloc[0] == (
        df["net"].iloc[0])


@pytest.mark.parametrize(("variant", "hand", "n"), [
    ("three-player", "5H 5S 6D JC KH QS", 5), ("four-player", "5H 5S 6D JC", 5),
    ("five-card", "5H 5S 6D JC KH QS", 5), ("six-card", "5H 5S 6D JC KH", 6),
])
def test_wrong_card_counts_name_the_form(variant, hand, n):
    with pytest.raises(CardError, match=f"expected {n} cards.*a {variant} hand is dealt {n}"):
        keep(hand, dealer=True, variant=variant)
    with pytest.raises(CardError, match=f"a {variant} hand is dealt {n}"):
        keep_many(np.zeros((1, 11 - n), int), dealer=True, variant=variant)


def test_unknown_variant():
    with pytest.raises(ValueError, match="unknown variant 'nine-card'"):
        keep("5H 5S 6D JC KH", dealer=True, variant="nine-card")
