"""The uniform crib-value table: the shipped file against a fresh exact enumeration."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import analyzer.keeping.crib
from analyzer import score_hands
from analyzer.keeping.crib import (
    SHIPPED_FILES,
    UNIFORM_FILE,
    _read_uniform,
    build_uniform_crib_values,
    shipped_file,
    shipped_folder,
    write_uniform_crib_values,
)
from analyzer.keeping.crib import crib_values as load_crib_values


def test_shipped_uniform_table_equals_recomputation():
    shipped = _read_uniform(shipped_file(UNIFORM_FILE))
    fresh = build_uniform_crib_values()
    assert shipped.keys() == fresh.keys() and len(fresh) == 169
    for key, value in fresh.items():
        assert shipped[key] == pytest.approx(value, abs=1e-9), key


def test_one_throw_by_independent_enumeration():
    # 5C 5D thrown: every other two of the remaining 50 cards, every starter of the 48 left.
    a, b = 16, 17
    rest = [c for c in range(52) if c not in (a, b)]
    cribs, starters = [], []
    for c, d in itertools.combinations(rest, 2):
        for s in rest:
            if s not in (c, d):
                cribs.append((a, b, c, d))
                starters.append(s)
    want = score_hands(np.array(cribs), np.array(starters), crib=True).mean()
    table = load_crib_values("uniform")
    assert table[0, 4, 4, 0] == pytest.approx(want, abs=1e-12)
    assert table[1, 4, 4, 0] == table[0, 4, 4, 0]  # the uniform table does not depend on role


def test_table_layout_is_symmetric_and_the_mean_is_the_census_mean():
    table = load_crib_values("uniform")
    assert np.array_equal(table, table.transpose(0, 2, 1, 3))
    # Averaged over all throws, weighted by how many card pairs each kind has, the crib is the
    # census crib mean, 4.7348 (docs/rules.md).
    total = weight = 0.0
    for r1 in range(13):
        for r2 in range(r1, 13):
            if r1 == r2:
                total += 6 * table[0, r1, r2, 0]
                weight += 6
            else:
                total += 4 * table[0, r1, r2, 1] + 12 * table[0, r1, r2, 0]
                weight += 16
    assert weight == 1326
    assert total / weight == pytest.approx(4.7348, abs=5e-5)


def test_every_shipped_file_is_package_data():
    assert len(SHIPPED_FILES) == 6
    for name in SHIPPED_FILES:
        assert shipped_file(name).is_file(), name
    assert (shipped_folder() / SHIPPED_FILES[0]).is_file()


def test_loading_never_writes(tmp_path, monkeypatch):
    # The shipped uniform file missing: the values are computed in memory, nothing is written.
    shipped = np.array(load_crib_values("uniform"))
    monkeypatch.setattr(analyzer.keeping.crib, "shipped_file", lambda name: tmp_path / name)
    fresh = load_crib_values.__wrapped__("uniform")
    assert list(tmp_path.iterdir()) == []
    assert np.allclose(fresh, shipped, rtol=0, atol=1e-9)
    # an unreadable file is the same
    (tmp_path / UNIFORM_FILE).write_text("card1,card2,suited,mean\nA,A,0,oops\n")
    assert np.allclose(load_crib_values.__wrapped__("uniform"), shipped, rtol=0, atol=1e-9)
    assert [p.name for p in tmp_path.iterdir()] == [UNIFORM_FILE]


def test_write_uniform_crib_values_writes_where_it_is_told(tmp_path):
    paths = write_uniform_crib_values(tmp_path / "out")
    assert [p.name for p in paths] == [UNIFORM_FILE, "crib_values_uniform.json"]
    assert _read_uniform(paths[0]) == pytest.approx(_read_uniform(shipped_file(UNIFORM_FILE)),
                                                    abs=1e-12)
    before = sorted((p.name, p.stat().st_mtime_ns) for p in shipped_folder().iterdir())
    with pytest.raises(FileExistsError, match="overwrite_shipped"):
        write_uniform_crib_values(shipped_folder())
    assert sorted((p.name, p.stat().st_mtime_ns) for p in shipped_folder().iterdir()) == before
