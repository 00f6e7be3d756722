"""Compiled loops over ranges on threads (analyzer.core.choices.over_ranges): every index once,
an error raised where it is asked, and the same results whatever the threads."""

from __future__ import annotations

import threading

import numba
import numpy as np
import pytest

from analyzer import keep_many, score_hands, show_census
from analyzer.core.choices import numba_threads, over_ranges
from analyzer.keeping.crib import build_uniform_crib_values


def _ranges(n: int, threads: int, least: int, monkeypatch) -> list[tuple[int, int, str]]:
    monkeypatch.setattr(numba, "get_num_threads", lambda: threads)
    seen = []
    lock = threading.Lock()

    def kernel(lo, hi, tag):
        with lock:
            seen.append((lo, hi, tag, threading.current_thread().name))

    over_ranges(kernel, n, "t", least=least)
    return seen


@pytest.mark.parametrize("threads", [1, 2, 3, 8])
@pytest.mark.parametrize("n, least", [(0, 1), (1, 1), (5, 1), (52, 1), (1000, 16), (20, 16)])
def test_the_ranges_cover_every_index_once(n, least, threads, monkeypatch):
    # 3 and 8 threads ask more helpers than the process's pool has (numba's threads less one):
    # those not started are dropped once this thread has run the ranges
    seen = _ranges(n, threads, least, monkeypatch)
    spans = sorted((lo, hi) for lo, hi, tag, _ in seen)
    assert all(tag == "t" for _, _, tag, _ in seen)
    covered = [i for lo, hi in spans for i in range(lo, hi)]
    assert covered == list(range(n))
    parts = max(1, min(n // least, threads))
    assert len(spans) == parts  # as even as they can be: one each
    assert max(hi - lo for lo, hi in spans) - min(hi - lo for lo, hi in spans) <= 1
    if parts == 1:
        assert [name for *_, name in seen] == [threading.current_thread().name]


def test_an_error_in_a_range_is_raised_here(monkeypatch):
    monkeypatch.setattr(numba, "get_num_threads", lambda: 2)

    def kernel(lo, hi):
        if lo > 0:
            raise ValueError(f"range {lo}")

    with pytest.raises(ValueError, match="range 5"):
        over_ranges(kernel, 10)


def test_the_loops_give_the_same_results_on_one_thread_and_two():
    rng = np.random.default_rng(31)
    dealt = np.array([rng.permutation(52)[:6] for _ in range(300)])
    runs = []
    for threads in (1, 2):
        with numba_threads(threads):
            runs.append([
                show_census(), show_census(crib=True), show_census(variant="five-card"),
                score_hands(dealt[:, :4], dealt[:, 4]),
                score_hands(dealt[:, :3], dealt[:, 5], variant="five-card"),
                keep_many(dealt[:40], dealer=True, crib="uniform")["crib_mean"].to_numpy(),
                keep_many(dealt[:20], dealer=False)["hand_mean"].to_numpy(),
                keep_many(dealt[:20, :5], dealer=True, crib="uniform",
                          variant="five-card")["crib_mean"].to_numpy(),
                np.array(list(build_uniform_crib_values().values())),
            ])
    for one, two in zip(*runs, strict=True):
        assert np.array_equal(one, two)
    assert int(runs[0][0].sum()) == 12_994_800 and int(runs[0][2].sum()) == 1_082_900
