"""keep(): exact hand statistics against the naive oracle, the crib enumeration, the ordering."""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from naive import cards, naive_score

from analyzer import CardError, format_cards, keep, keep_many, parse_cards, score_hands
from analyzer.keeping.discard import COLUMNS, evaluate_discards

six_cards = st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True)


@settings(max_examples=25)
@given(six_cards, st.booleans())
def test_hand_statistics_equal_naive_over_46_starters(six, dealer):
    df = keep(six, dealer=dealer)
    assert len(df) == 15 and list(df.columns) == list(COLUMNS)
    for row in df.itertuples(index=False):
        kept = parse_cards(row.keep).tolist()
        starters = [c for c in range(52) if c not in six]
        scores = np.array([naive_score(kept, s) for s in starters])
        assert len(starters) == 46
        assert row.hand_mean == pytest.approx(scores.mean(), abs=1e-12)
        assert (row.hand_min, row.hand_max) == (scores.min(), scores.max())
        assert row.hand_std == pytest.approx(scores.std(), abs=1e-12)
        assert sorted(kept + parse_cards(row.discard).tolist()) == sorted(six)


def test_crib_mean_is_the_exact_uniform_enumeration():
    # An independent enumeration: every opponent pair from the 46 unseen cards, every starter from
    # the 44 left, scored by the vectorized scorer (itself checked against the naive oracle).
    six = cards("5H 5S 6D JC QS KH")
    thrown = cards("5H 6D")
    unseen = [c for c in range(52) if c not in six]
    cribs, starters = [], []
    for c, d in itertools.combinations(unseen, 2):
        for s in unseen:
            if s not in (c, d):
                cribs.append([*thrown, c, d])
                starters.append(s)
    assert len(cribs) == 45_540
    want = score_hands(np.array(cribs), np.array(starters), crib=True).mean()
    df = keep(six, dealer=True, crib="uniform")
    assert df.set_index("discard").loc["5H 6D", "crib_mean"] == pytest.approx(want, abs=1e-12)


def test_uniform_crib_mean_averages_to_the_census_crib_mean():
    # Averaged over random six-card hands and all their discards, the uniform crib expectation is
    # the mean crib over all (four cards, starter): 4.7348 (docs/rules.md). Seeded, 40 hands x 15.
    rng = np.random.default_rng(7)
    means = [keep(rng.permutation(52)[:6], dealer=True, crib="uniform")["crib_mean"].mean()
             for _ in range(40)]
    assert np.mean(means) == pytest.approx(4.7348, abs=0.12)


def test_net_is_hand_plus_or_minus_crib_and_sorted():
    # The points of the show alone (pegging=False); the net with the play is tested in
    # test_pegging.py.
    hand = "5H 5S 6D JC QS KH"
    for dealer, sign in ((True, 1), (False, -1)):
        for crib in ("table", "uniform", "weighted"):
            df = keep(hand, dealer=dealer, crib=crib, pegging=False)
            np.testing.assert_allclose(df["net"], df["hand_mean"] + sign * df["crib_mean"])
            assert df["net"].is_monotonic_decreasing
            assert df.attrs == {"hand": hand, "role": "dealer" if dealer else "pone",
                                "crib_mode": crib, "variant": "six-card", "pegging": False}
    # As dealer throw the 5 and 6 into your own crib; as pone keep the pair of 5s.
    assert keep(hand, dealer=True, pegging=False).iloc[0]["discard"] in {"5H 6D", "5S 6D"}
    assert keep(hand, dealer=False, pegging=False).iloc[0]["keep"] == "5H 5S JC QS"


def _exact_show_net(six: list[int], kept: list[int], dealer: bool) -> Fraction:
    """The hand's mean over the unseen starters plus (minus as pone) the uniform crib's mean,
    as exact fractions: the naive oracle for the hand, every crib enumerated for the crib."""
    unseen = [c for c in range(52) if c not in six]
    thrown = [c for c in six if c not in kept]
    hand = Fraction(sum(naive_score(kept, s) for s in unseen), len(unseen))
    cribs, starters = [], []
    for others in itertools.combinations(unseen, 4 - len(thrown)):
        for s in unseen:
            if s not in others:
                cribs.append([*thrown, *others])
                starters.append(s)
    total = int(score_hands(np.array(cribs), np.array(starters), crib=True).sum())
    crib = Fraction(total, len(cribs))
    return hand + crib if dealer else hand - crib


@pytest.mark.parametrize("hand, variant, tied", [
    # a jack that scores nobs traded between hand and crib: the same net, other hand means
    ("3D 9D TD TS JH JS", "six-card", ("9D TD TS JH", "9D TD TS JS")),
    ("6C 9H TH JC JS", "five-card", ("6C 9H JS", "6C 9H JC")),
])
def test_keeps_worth_the_same_are_ranked_by_the_hand_not_by_rounding(hand, variant, tied):
    # Found in an audit: the two nets, equal exactly, differed in their last bit, and the keep
    # with the smaller hand mean came first and was named best.
    six = cards(hand)
    nets = [_exact_show_net(six, cards(k), True) for k in tied]
    assert nets[0] == nets[1]
    df = keep(hand, dealer=True, crib="uniform", variant=variant)
    rows = df.set_index("keep").loc[list(tied)]
    assert rows["hand_mean"].iloc[0] > rows["hand_mean"].iloc[1]
    assert list(df["keep"]).index(tied[0]) < list(df["keep"]).index(tied[1])
    many = keep_many(np.array([six]), dealer=True, crib="uniform", variant=variant)
    assert list(many["keep"]) == list(df["keep"])


def test_keep_many_ranks_nets_equal_to_nine_places_by_the_hand_mean():
    rng = np.random.default_rng(2026)
    sixes = np.array([rng.permutation(52)[:6] for _ in range(400)])
    for dealer in (True, False):
        df = keep_many(sixes, dealer=dealer, crib="uniform")
        same_hand = df["hand"].to_numpy()[1:] == df["hand"].to_numpy()[:-1]
        gap = df["net"].to_numpy()[:-1] - df["net"].to_numpy()[1:]
        tied = same_hand & (np.abs(gap) < 1e-9)
        assert tied.sum() > 0  # ties by a last bit happen in about 2% of pairs of rows
        assert (gap[same_hand & ~tied] > 0).all()
        hand_mean = df["hand_mean"].to_numpy()
        assert (hand_mean[:-1][tied] >= hand_mean[1:][tied]).all()


def test_keep_accepts_text_and_ids_alike():
    ids = cards("KH QS JC 6D 5S 5H")
    a, b = keep(ids, dealer=False), keep("5h,5s,6d,jc,qs,kh", dealer=False)
    assert a.equals(b)
    assert format_cards(parse_cards(a.attrs["hand"])) == "5H 5S 6D JC QS KH"


def test_evaluate_discards_matches_keep():
    result = evaluate_discards("AS 2D 3C 4H 5S 6D", dealer=False)
    df = keep("AS 2D 3C 4H 5S 6D", dealer=False)
    for column in COLUMNS:
        assert list(df[column]) == list(result[column])


@pytest.mark.parametrize("crib", ["table", "uniform", "weighted"])
def test_keep_frame_is_the_one_the_public_constructor_builds(crib):
    """keep() assembles its DataFrame from blocks, for speed; it must be pandas' own frame."""
    for hand, dealer in (("5H 5S 6D JC QS KH", True), ("AS 2D 3C 4H 5S 6D", False)):
        result = evaluate_discards(hand, dealer=dealer, crib=crib)
        expected = pd.DataFrame({column: result[column] for column in COLUMNS})
        df = keep(hand, dealer=dealer, crib=crib)
        pd.testing.assert_frame_equal(df, expected, check_exact=True)
        # Each call's frame is its own: renaming, writing or reshaping one leaves the next
        # untouched.
        df.columns.name = "renamed"
        df.loc[0, "net"] = -1.0
        df.insert(0, "first", 1)
        del df["hand_std"]
        df[["hand_mean", "crib_mean"]] = 0.5
        again = keep(hand, dealer=dealer, crib=crib)
        assert again.columns.name is None
        pd.testing.assert_frame_equal(again, expected, check_exact=True)


@pytest.mark.parametrize(
    ("hand", "match"),
    [("5H 5S 6D JC QS", "expected 6 cards"), ("5H 5S 6D JC QS 5H", "duplicate"),
     ("5H 5S 6D JC QS 1H", "1H")],
)
def test_keep_bad_cards(hand, match):
    with pytest.raises(CardError, match=match):
        keep(hand, dealer=True)


def test_keep_unknown_crib_mode():
    with pytest.raises(ValueError, match="crib mode"):
        keep("5H 5S 6D JC QS KH", dealer=True, crib="psychic")


def test_keep_many_equals_keep_hand_by_hand():
    rng = np.random.default_rng(12)
    sixes = np.array([rng.permutation(52)[:6] for _ in range(60)])
    for dealer in (True, False):
        many = keep_many(sixes, dealer=dealer)
        assert len(many) == 15 * 60 and many.attrs["crib_mode"] == "table"
        for i, (hand, rows) in enumerate(many.groupby("hand", sort=False)):
            one = keep(sixes[i], dealer=dealer)
            assert hand == one.attrs["hand"]
            assert rows["rank"].tolist() == list(range(1, 16))
            assert rows.drop(columns=["hand", "rank"]).reset_index(drop=True).equals(one)
    texts = keep_many(["5H 5S 6D JC QS KH", "AC 2C 3C 4C 5C 6C"], dealer=True, crib="uniform")
    assert texts.groupby("hand", sort=False).ngroups == 2
    assert texts["net"].iloc[0] == keep("5H 5S 6D JC QS KH", True, crib="uniform")["net"].iloc[0]
    with pytest.raises(CardError, match="twice"):
        keep_many(np.array([[1, 1, 2, 3, 4, 5]]), dealer=True)
