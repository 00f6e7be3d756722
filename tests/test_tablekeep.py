"""keep with the table crib in numpy alone (analyzer.keeping.tablekeep), against the compiled path.

The compiled scorer and :func:`analyzer.keeping.discard.evaluate_discards` are the oracles: every
rank multiset of the rank tables, seeded batches of shows, and seeded hands of every form, compared
to the bit. Then the commands that use the light modules are checked to import no compiled code.
"""

from __future__ import annotations

import itertools
import subprocess
import sys

import numpy as np
import pytest

from analyzer.core.cards import CardError
from analyzer.core.scoring import score_hands
from analyzer.keeping.discard import evaluate_discards
from analyzer.keeping.tablekeep import COLUMNS, _show_scores, table_discards

FORMS = (("six-card", 6), ("three-player", 5), ("four-player", 5), ("five-card", 5))


@pytest.mark.parametrize("crib", [False, True])
def test_show_scores_equal_the_compiled_scorer(crib):
    rng = np.random.default_rng(11 + crib)
    deals = rng.random((100_000, 52)).argsort(axis=1)[:, :5].astype(np.int64)
    # flushes and nobs are rare in random deals: add hands of one suit with Jacks
    suited = np.array([[c * 4 + s for c in cs] + [cut * 4 + t]
                       for s in range(4) for t in range(4)
                       for cs in ([0, 4, 10, 12], [3, 5, 9, 10], [1, 2, 10, 11])
                       for cut in (6, 7)], np.int64)
    deals = np.concatenate([deals, suited])
    got = _show_scores(deals[:, :4], deals[:, 4], crib=crib)
    assert np.array_equal(got, score_hands(deals[:, :4], deals[:, 4], crib=crib))
    assert got.max() >= 20 and (got == 0).any()


def test_three_card_show_scores_equal_the_compiled_scorer():
    rng = np.random.default_rng(12)
    deals = rng.random((50_000, 52)).argsort(axis=1)[:, :4].astype(np.int64)
    suited = np.array([[c * 4 + s for c in cs] + [cut * 4 + t] for s in range(4)
                       for t in range(4) for cs in ([4, 9, 10], [0, 3, 10]) for cut in (4, 8)],
                      np.int64)
    deals = np.concatenate([deals, suited])
    got = _show_scores(deals[:, :3], deals[:, 3])
    assert np.array_equal(got, score_hands(deals[:, :3], deals[:, 3], variant="five-card"))


def _same(a: dict, b: dict) -> None:
    """Every field equal, arrays to the bit (float64 compared as their bit patterns)."""
    assert a.keys() == b.keys()
    for key, x in a.items():
        y = b[key]
        if isinstance(x, np.ndarray):
            assert x.dtype == y.dtype and x.shape == y.shape, key
            if x.dtype == np.float64:
                x, y = x.view(np.int64), y.view(np.int64)
            assert np.array_equal(x, y), key
        else:
            assert x == y, key


def _check_hands(variant: str, hands, start: int = 0) -> None:
    for i, cards in enumerate(hands, start):
        dealer, pegging = bool(i & 1), bool(i & 2)
        _same(table_discards(cards, dealer, variant, pegging),
              evaluate_discards(cards, dealer, "table", variant, pegging))


@pytest.mark.parametrize(("variant", "dealt"), FORMS)
def test_table_discards_equal_the_compiled_path_to_the_bit(variant, dealt):
    rng = np.random.default_rng(dealt * 7 + len(variant))
    n = 600 if variant == "six-card" else 200
    hands = [rng.permutation(52)[:dealt] for _ in range(n)]
    hands += [["5H", "5S", "6D", "JC", "QS", "KH"][:dealt], ["JH", "JD", "JC", "JS", "5S", "5D"][
        :dealt], ["AC", "2C", "3C", "4C", "5C", "6C"][:dealt], ["5C", "5D", "5H", "5S", "JC",
                                                               "JD"][:dealt]]
    _check_hands(variant, hands)


PARTS = 8


@pytest.mark.slow
@pytest.mark.parametrize("part", [pytest.param(p, marks=[pytest.mark.exhaustive] if p else [])
                                  for p in range(PARTS)])
def test_table_discards_equal_the_compiled_path_on_every_rank_pattern(part):
    # One hand of each of the 18,395 six-card rank patterns, suits drawn at random (a seeded
    # choice among the suits left for each rank), the role and the pegging column taking their
    # four combinations in turn. In eight parts, each every eighth run of four hands (so each
    # part has all four combinations), which the test workers share; part 0 always runs, the
    # others with --exhaustive (make test-all).
    rng = np.random.default_rng(2)
    hands = []
    for ranks in itertools.combinations_with_replacement(range(13), 6):
        if max(ranks.count(r) for r in ranks) > 4:
            continue
        cards = []
        for r in sorted(set(ranks)):
            suits = rng.permutation(4)[:ranks.count(r)]
            cards += [r * 4 + int(s) for s in suits]
        hands.append(cards)
    assert len(hands) == 18_395
    for start in range(4 * part, len(hands), 4 * PARTS):
        _check_hands("six-card", hands[start:start + 4], start)


def test_table_discards_refuse_what_keep_refuses():
    for variant, dealt in FORMS:
        for cards in ("5H 5S 6D JC", "5H 5S 6D JC QS KH AS"[:3 * (dealt + 1) - 1]):
            with pytest.raises(CardError) as light:
                table_discards(cards, True, variant)
            with pytest.raises(CardError) as compiled:
                evaluate_discards(cards, True, "table", variant)
            assert str(light.value) == str(compiled.value)
    with pytest.raises(CardError, match="duplicate card 5H"):
        table_discards("5H 5H 6D JC QS KH", True)


def test_the_columns_are_keeps_columns():
    from analyzer import keep

    assert tuple(keep("5H 5S 6D JC QS KH", dealer=True).columns) == COLUMNS


@pytest.mark.parametrize("argv", [
    ["keep", "5H", "5S", "6D", "JC", "QS", "KH", "--dealer"],
    ["keep", "5H", "5S", "6D", "JC", "QS", "KH", "--pone", "--json", "--no-pegging"],
    ["keep", "5H", "5S", "6D", "JC", "KH", "--pone", "--variant", "three-player"],
    ["keep", "5H", "5S", "6D", "JC", "KH", "--dealer", "--variant", "five-card", "--json"],
    ["count", "5H", "5C", "5S", "JD", "--starter", "5D"],
    ["count", "4H", "5H", "6H", "--starter", "5S", "--variant", "five-card", "--json"],
])
def test_keep_and_count_import_no_compiled_code_nor_pandas(argv):
    code = ("import sys\nfrom analyzer.cli import main\nstatus = main(sys.argv[1:])\n"
            "loaded = [m for m in ('numba', 'pandas', 'pyarrow', 'matplotlib') if m in "
            "sys.modules]\nsys.exit(f'loaded {loaded}' if loaded else status)")
    result = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip()


def test_the_exact_cribs_still_go_to_the_compiled_path():
    result = subprocess.run([sys.executable, "-m", "analyzer", "keep", "5H", "5S", "6D", "JC",
                             "QS", "KH", "--dealer", "--crib", "uniform", "--json"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    import json

    out = json.loads(result.stdout)
    exact = evaluate_discards("5H 5S 6D JC QS KH", True, "uniform")
    assert out["crib_mode"] == "uniform"
    assert [row["crib_mean"] for row in out["rows"]] == exact["crib_mean"].tolist()
