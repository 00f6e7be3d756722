"""Self-play crib tables, the shipped data, keep's crib modes and the discard tables."""

from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from reference import SCHELL

from analyzer import keep, parse_cards, score_hands
from analyzer.keeping.crib import crib_values, shipped_file, shipped_folder
from analyzer.keeping.discard import _pair_weights
from analyzer.research.tables import (
    build_crib_table,
    canonical_hands,
    compare_crib_tables,
    load_rank_table,
)


@pytest.fixture(scope="module")
def small_tables():
    a = build_crib_table(deals=30_000, seed=5, max_iterations=3, workers=2, chunk_size=5_000)
    b = build_crib_table(deals=30_000, seed=5, max_iterations=3, workers=1, chunk_size=5_000)
    return a, b


def test_same_seed_same_table_whatever_the_workers(small_tables):
    a, b = small_tables
    assert np.array_equal(a.mean, b.mean) and np.array_equal(a.n, b.n)
    assert a.deltas == b.deltas and a.iterations == 3


def test_table_is_symmetric_and_counts_every_crib(small_tables):
    a, _ = small_tables
    for arr in (a.mean, a.n):
        assert np.array_equal(arr, arr.transpose(0, 2, 1, 3))
    table = a.table
    assert len(table) == 169
    assert table["dealer_n"].sum() == 30_000 and table["pone_n"].sum() == 30_000
    # the first step replaces the uniform values by what was measured: it moves far
    assert a.deltas[0] > 0.5 and a.deltas[1] < a.deltas[0]


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir()}


def test_save_writes_where_told_and_never_over_the_shipped_tables(small_tables, tmp_path):
    a, _ = small_tables
    written = a.save(tmp_path / "out", command="test")
    assert sorted(p.name for p in written) == [
        "crib_values.csv", "crib_values.json", "crib_values_rank.csv", "crib_values_rank.json"]
    assert all(p.parent == tmp_path / "out" for p in written)
    before = _snapshot(shipped_folder())
    with pytest.raises(FileExistsError, match="overwrite_shipped"):
        a.save(shipped_folder(), command="test")
    assert _snapshot(shipped_folder()) == before


def test_standard_errors_shrink_with_more_deals():
    small = build_crib_table(deals=20_000, seed=3, max_iterations=1, chunk_size=5_000)
    large = build_crib_table(deals=320_000, seed=3, max_iterations=1, chunk_size=5_000)
    ok = (small.n >= 50) & (large.n >= 50)
    ratio = np.median(small.se[ok] / large.se[ok])
    assert 3.0 < ratio < 5.5  # sqrt(16) = 4


def test_shipped_table_files_and_provenance():
    full = pd.read_csv(shipped_file("crib_values.csv"))
    assert list(full.columns) == ["card1", "card2", "suited", "dealer", "dealer_se", "dealer_n",
                                  "pone", "pone_se", "pone_n"]
    assert len(full) == 169
    rank = pd.read_csv(shipped_file("crib_values_rank.csv"), dtype={"card1": str, "card2": str})
    assert list(rank.columns) == list(pd.read_csv(SCHELL, nrows=0).columns)
    assert len(rank) == 91
    for name in ("crib_values.json", "crib_values_rank.json"):
        provenance = json.loads(shipped_file(name).read_text())
        assert provenance["converged"] is True and provenance["deals"] >= 1_000_000
        assert {"seed", "package_version", "command", "date", "iterations"} <= set(provenance)
    # the rank table pools suited and unsuited throws by how often each was thrown
    row = full[(full.card1 == "5") & (full.card2 == "6")].set_index("suited")
    pooled = (row["dealer"] * row["dealer_n"]).sum() / row["dealer_n"].sum()
    five_six = rank[(rank.card1 == "5") & (rank.card2 == "6")]["dealer"].item()
    assert five_six == pytest.approx(pooled, abs=1e-5)
    # well-sampled entries are precise
    assert full.loc[full.dealer_n > 100_000, "dealer_se"].max() < 0.02


def test_shipped_table_is_close_to_schells_published_one():
    ours, schell = load_rank_table(), load_rank_table(SCHELL)
    result = compare_crib_tables(ours, schell)
    assert result["pairs"] == 91
    for role in ("dealer", "pone"):
        assert result["mean_abs_diff"][role] < 0.35, result
    # a pair of fives is the most valuable throw into one's own crib, as in Schell's table
    assert ours.sort_values("dealer").iloc[-1][["card1", "card2"]].tolist() == ["5", "5"]


def test_keep_table_mode_looks_up_the_table():
    values = crib_values("table")
    for dealer, role in ((True, 0), (False, 1)):
        df = keep("5H 5S 6D JC QS KH", dealer=dealer)
        assert df.attrs["crib_mode"] == "table"
        for row in df.itertuples(index=False):
            a, b = parse_cards(row.discard).tolist()
            assert row.crib_mean == values[role, a // 4, b // 4, int(a % 4 == b % 4)]


def test_weighted_mode_by_independent_enumeration():
    six = parse_cards("5H 5S 6D JC QS KH").tolist()
    thrown = parse_cards("6D KH").tolist()
    weights = _pair_weights(dealer=False)  # the opponent (dealer) throws as self-play does
    unseen = [c for c in range(52) if c not in six]
    cribs, starters, w = [], [], []
    for c, d in itertools.combinations(unseen, 2):
        for s in unseen:
            if s not in (c, d):
                cribs.append([*thrown, c, d])
                starters.append(s)
                w.append(weights[c, d])
    points = score_hands(np.array(cribs), np.array(starters), crib=True)
    want = np.average(points, weights=w)
    df = keep(six, dealer=False, crib="weighted").set_index("discard")
    assert df.loc["6D KH", "crib_mean"] == pytest.approx(want, abs=1e-9)
    assert df.attrs["crib_mode"] == "weighted"
    # weights come from the table's throw counts: a 5-5 is thrown by the dealer far more often
    # than J-K unsuited, card pair for card pair
    assert weights[16, 17] > weights[40, 49]


def _orbits_of_six_card_hands() -> int:
    """Burnside: hands fixed by a suit permutation are unions of its card cycles."""
    total = 0
    for perm in itertools.permutations(range(4)):
        seen, lengths = set(), []
        for s in range(4):
            if s not in seen:
                n, t = 0, s
                while t not in seen:
                    seen.add(t)
                    t = perm[t]
                    n += 1
                lengths.append(n)
        poly = np.zeros(7, dtype=object)
        poly[0] = 1
        for length in lengths:  # each rank contributes (1 + x^length) per suit cycle
            for _ in range(13):
                new = poly.copy()
                for k in range(7 - length):
                    new[k + length] += poly[k]
                poly = new
        total += poly[6]
    assert total % 24 == 0
    return total // 24


def test_canonical_hands_cover_every_hand_once():
    hands, mult = canonical_hands()
    assert int(mult.sum()) == math.comb(52, 6)
    assert len(hands) == _orbits_of_six_card_hands()
    assert set(np.unique(mult).tolist()) <= {1, 4, 6, 12, 24}


def _kernel_results(cards):
    from analyzer.core.scoring import hand_table
    from analyzer.research.tables import _best_keeps

    n = len(cards)
    best_d, best_hand, best_net = np.zeros((n, 2), np.int8), np.zeros((n, 2)), np.zeros((n, 2))
    _best_keeps(0, n, cards, crib_values("table"), hand_table(), best_d, best_hand, best_net)
    return best_d, best_hand, best_net


def _same_frames_and_bytes(cards, mult, tmp_path):
    # The discard table's frames as built now and as built before (tests/
    # discard_table_reference.py): equal exactly, and written to the same Parquet and CSV bytes.
    from discard_table_reference import reference_frames

    from analyzer.research.tables import _discard_frames

    results = _kernel_results(cards)
    hands, ranks = _discard_frames(cards, mult, *results)
    old_hands, old_ranks = reference_frames(cards, mult, *results)
    pd.testing.assert_frame_equal(hands, old_hands, check_exact=True)
    pd.testing.assert_frame_equal(ranks, old_ranks, check_exact=True)
    for name, df in (("new", hands), ("old", old_hands)):
        df.to_parquet(tmp_path / f"{name}.parquet", index=False)
    assert (tmp_path / "new.parquet").read_bytes() == (tmp_path / "old.parquet").read_bytes()
    assert ranks.to_csv(index=False, float_format="%.4f") == old_ranks.to_csv(
        index=False, float_format="%.4f")
    return hands, ranks


def test_canonical_hands_come_sorted_by_card_ids():
    from discard_table_reference import reference_order

    hands, _ = canonical_hands()
    assert np.array_equal(reference_order(hands), np.arange(len(hands)))
    assert (np.diff(hands.astype(np.int64), axis=1) > 0).all()


def test_discard_table_frames_as_before_on_a_subset(tmp_path):
    # Every 61st distinct hand and a block of consecutive ones (whole rank patterns share
    # their rows there, so the summary's ties and sums are exercised).
    cards, mult = canonical_hands()
    rows = np.unique(np.concatenate([np.arange(0, len(cards), 61), np.arange(400_000, 415_000)]))
    hands, ranks = _same_frames_and_bytes(cards[rows], mult[rows], tmp_path)
    assert hands["hand"].iloc[0] == "AC AD AH AS 2C 2D"  # cards 0..5, the first hand
    assert (ranks["dealer_share"] > 0).all() and (ranks["dealer_share"] <= 1).all()


@pytest.mark.slow
def test_discard_table_frames_as_before_in_full(tmp_path):
    cards, mult = canonical_hands()
    hands, ranks = _same_frames_and_bytes(cards, mult, tmp_path)
    assert len(hands) == 962_988 and len(ranks) == 18_395


@pytest.mark.slow
def test_discard_table_cli_against_keep(tmp_path):
    # The whole table through the installed command, then a seeded sample of hands checked
    # against keep() with the same crib table, the points alone (the discard table does not
    # count the play): same best net and hand mean for each role.
    import subprocess
    import sys

    out = tmp_path / "keeps.parquet"
    crib = Path(sys.executable).parent / "crib"
    result = subprocess.run([str(crib), "tables", "keep", "--out", str(out)], capture_output=True,
                            text=True, timeout=1800)
    assert result.returncode == 0, result.stderr
    hands = pd.read_parquet(out)
    ranks = pd.read_csv(tmp_path / "keeps_ranks.csv")
    assert len(ranks) == 18_395 and ranks["n_hands"].sum() == math.comb(52, 6)
    assert hands["n_hands"].sum() == math.comb(52, 6)
    sample = hands.sample(40, random_state=1)
    for row in sample.itertuples(index=False):
        for role, dealer in (("dealer", True), ("pone", False)):
            best = keep(row.hand, dealer=dealer, pegging=False).iloc[0]
            assert getattr(row, f"{role}_net") == pytest.approx(best["net"], abs=1e-9)
            kept = keep(row.hand, dealer=dealer, pegging=False).set_index("keep").loc[
                getattr(row, f"{role}_keep")]
            assert kept["net"] == pytest.approx(best["net"], abs=1e-9)
            assert getattr(row, f"{role}_hand_mean") == pytest.approx(kept["hand_mean"],
                                                                       abs=1e-9)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "keeps.json", "keeps.parquet", "keeps_ranks.csv", "keeps_ranks.json"]
    for name, written in (("keeps.json", "keeps.parquet"), ("keeps_ranks.json", "keeps_ranks.csv")):
        provenance = json.loads((tmp_path / name).read_text())
        assert provenance["file"] == written and provenance["crib"] == "table"
        assert provenance["hands"] == math.comb(52, 6)
        assert provenance["distinct_hands"] == len(hands)


@pytest.mark.slow
def test_tables_crib_and_compare_cli(tmp_path):
    import subprocess
    import sys

    crib = Path(sys.executable).parent / "crib"
    run = subprocess.run([str(crib), "tables", "crib", "--deals", "20000", "--seed", "3",
                          "--max-iterations", "2", "--out", str(tmp_path), "--quiet"],
                         capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "crib_values.csv", "crib_values.json", "crib_values_rank.csv", "crib_values_rank.json"]
    provenance = json.loads((tmp_path / "crib_values.json").read_text())
    assert provenance["seed"] == 3 and provenance["deals"] == 20_000
    assert provenance["iterations"] == 2 and provenance["converged"] is False
    assert re.fullmatch("[0-9a-f]{40}", provenance["git_commit"])  # run from a git checkout
    compare = subprocess.run([str(crib), "tables", "compare", "--reference", str(SCHELL),
                              "--json"], capture_output=True, text=True, timeout=1800)
    assert compare.returncode == 0, compare.stderr
    result = json.loads(compare.stdout)
    assert result["pairs"] == 91 and set(result["mean_abs_diff"]) == {"dealer", "pone"}
    shipped, before = shipped_folder(), _snapshot(shipped_folder())
    for args, message in ((["tables", "crib", "--deals", "0", "--out", str(tmp_path)], "--deals"),
                          (["tables", "crib", "--deals", "100"], "--out"),
                          (["tables", "crib", "--deals", "100", "--out", str(shipped)], "--force"),
                          (["tables", "crib", "--deals", "100", "--out", str(shipped / ".")],
                           "--force"),
                          (["tables", "compare", "--reference", "/no/such.csv"], "no such file"),
                          (["tables", "keep", "--out", "/proc/nope/x.parquet"], "--out"),
                          # the formats the names say, and never the package's data folder
                          (["tables", "keep", "--out", str(tmp_path / "k.csv")],
                           "--out " + str(tmp_path / "k.csv") + ": it is written as a .parquet"),
                          (["tables", "keep", "--out", str(tmp_path / "k.parquet"), "--ranks",
                            str(tmp_path / "k.parquet")], "it is written as a .csv file"),
                          (["tables", "keep", "--out", str(shipped / "k.parquet")],
                           "is in the package's own data folder"),
                          (["tables"], "choose crib, pegging, keep, compare or odds")):
        bad = subprocess.run([str(crib), *args], capture_output=True, text=True, timeout=1800)
        assert bad.returncode == 2 and "Traceback" not in bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1 and message in bad.stderr, bad.stderr
    assert _snapshot(shipped) == before  # the refusals wrote nothing there
