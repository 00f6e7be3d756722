"""Crib-value tables: the expected crib for each pair of cards thrown, by role.

A table is a ``float64`` array of shape ``(2, 13, 13, 2)`` indexed ``[role, rank1, rank2, suited]``
with role 0 = the thrower is the dealer (the crib is his own) and 1 = the thrower is the pone (the
crib is the opponent's); both rank orders are filled, so a kernel looks up a thrown pair without
sorting it. Entries with equal ranks and ``suited = 1`` cannot occur and hold the unsuited value.

Two tables exist:

* **table** (the default): the project's self-play table, ``crib_values.csv``, built by
  :func:`analyzer.research.tables.build_crib_table` from deals in which both players discard with
  the ``ev`` policy using the table itself, iterated to a fixed point. Per kind of throw and role it
  holds the mean crib, its standard error and how many cribs it rests on.
* **uniform**: for each of the 169 kinds of throw (91 rank pairs, 78 of them also suited), the
  exact mean crib when the other two crib cards are any two of the 50 cards left and the starter
  any of the 48 after them (58,800 equally likely cribs), by direct enumeration over one
  representative pair per kind (suits are symmetric). It does not depend on the role. It is
  shipped as ``crib_values_uniform.csv`` (rebuilt with :func:`write_uniform_crib_values`).

The shipped tables are package data: the repository's top-level ``data/`` folder is installed as
the package ``analyzer.data`` and read through :mod:`importlib.resources` (:func:`shipped_file`),
so an installed package finds them wherever it lives. Loading a table never writes anything.
Files are read with the ``csv`` module (no pandas), and this module imports no compiled code
(the enumerations behind the uniform values are in :mod:`analyzer.keeping.cribenum`, imported when
they run), so ``crib keep`` starts quickly.
"""

from __future__ import annotations

import csv
import json
import os
from datetime import UTC, datetime
from functools import lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

import numpy as np

from ..core.cards import RANK_LABELS, rank_label_index
from ..core.choices import TABLE_MODES, over_ranges, variant_game
from ..core.files import atomic_write_all
from ..core.version import git_commit, package_version

__all__ = [
    "CRIB_TABLE_COLUMNS",
    "DATA_PACKAGE",
    "SHIPPED_FILES",
    "TABLE_MODES",
    "CARD_TABLE_COLUMNS",
    "build_uniform_crib_values",
    "card_crib_values",
    "card_values",
    "read_card_table",
    "table_file",
    "crib_values",
    "is_shipped_folder",
    "read_crib_table",
    "shipped_file",
    "shipped_folder",
    "throw_counts",
    "write_uniform_crib_values",
]

#: The package the shipped tables are installed as (the repository's top-level ``data/``).
DATA_PACKAGE = "analyzer.data"
UNIFORM_FILE = "crib_values_uniform.csv"
TABLE_FILE = "crib_values.csv"
RANK_FILE = "crib_values_rank.csv"
#: Every file shipped in :data:`DATA_PACKAGE`: the tables and their JSON provenance.
SHIPPED_FILES = tuple(name for table in (TABLE_FILE, RANK_FILE, UNIFORM_FILE)
                      for name in (table, table.removesuffix(".csv") + ".json"))
#: Columns of a one-card table (three and four players), one row per rank.
CARD_TABLE_COLUMNS = ("card", "own", "own_se", "own_n", "other", "other_se", "other_n")
#: Columns of the self-play table file, one row per kind of throw.
CRIB_TABLE_COLUMNS = ("card1", "card2", "suited", "dealer", "dealer_se", "dealer_n", "pone",
                      "pone_se", "pone_n")


def shipped_file(name: str) -> Traversable:
    """A file shipped with the package, read-only: ``files("analyzer.data") / name``.

    Examples
    --------
    >>> shipped_file("crib_values.csv").is_file()
    True
    """
    return files(DATA_PACKAGE) / name


def shipped_folder() -> Path | None:
    """The folder on disk that holds the shipped tables (for an editable install, the
    repository's ``data/``), or ``None`` when they are not plain files (a zipped package)."""
    try:
        return Path(os.fspath(shipped_file(TABLE_FILE))).resolve().parent
    except TypeError:
        return None


def is_shipped_folder(path: str | os.PathLike) -> bool:
    """Whether ``path`` is the folder of the shipped tables (writing there replaces them)."""
    folder = shipped_folder()
    try:
        return folder is not None and os.path.samefile(path, folder)
    except OSError:  # path does not exist (yet): not the shipped folder
        return False


def _open_text(source: str | os.PathLike | Traversable):
    if isinstance(source, str | os.PathLike):
        return open(source, newline="")
    return source.open("r", newline="")


def _throw_kinds() -> np.ndarray:
    """The 169 kinds of throw as (low rank, high rank, suited), int64 (169, 3), in table order
    (by ranks, unsuited before suited)."""
    kinds = [(r1, r2, s) for r1 in range(13) for r2 in range(r1, 13) for s in (0, 1)
             if not (r1 == r2 and s)]
    return np.array(kinds, dtype=np.int64)


@lru_cache(maxsize=1)
def card_crib_values() -> np.ndarray:
    """The exact uniform crib value of one card thrown, by rank: ``float64 (13,)``, read-only.

    For the forms in which each player throws one card (three players, with one card from the
    pack; four players): the crib is that card, three cards nobody has seen and the starter, each
    equally likely (20,825 x 48 cribs a rank). Computed when first asked for (about a tenth of a
    second), never written.

    Examples
    --------
    >>> values = card_crib_values()
    >>> bool(values[4] == values.max())  # a five is the best card to give a crib
    True
    """
    from ..core.scoring import rank_table
    from .cribenum import _card_crib_means

    out = np.empty(13, np.float64)
    over_ranges(_card_crib_means, 13, rank_table(), out)
    out.setflags(write=False)
    return out


def build_uniform_crib_values() -> dict[tuple[int, int, int], float]:
    """Compute the uniform crib value of every kind of throw: ``{(r1, r2, suited): mean}``.

    Examples
    --------
    >>> values = build_uniform_crib_values()
    >>> len(values), round(values[(4, 4, 0)], 3) > round(values[(9, 12, 0)], 3)  # 5-5 beats 10-K
    (169, True)
    """
    from ..core.scoring import rank_table
    from .cribenum import _uniform_crib_means

    kinds = _throw_kinds()
    out = np.empty(len(kinds), np.float64)
    over_ranges(_uniform_crib_means, len(kinds), kinds, rank_table(), out)
    return {tuple(int(x) for x in kind): float(v) for kind, v in zip(kinds, out, strict=True)}


def _to_array(values: dict[tuple[int, int, int], float]) -> np.ndarray:
    table = np.zeros((2, 13, 13, 2), np.float64)
    for (r1, r2, suited), v in values.items():
        for role in (0, 1):
            for s in (0, 1) if r1 == r2 else (suited,):
                table[role, r1, r2, s] = table[role, r2, r1, s] = v
    return table


def write_uniform_crib_values(out_dir: str | os.PathLike, *,
                              overwrite_shipped: bool = False) -> list[Path]:
    """Compute the uniform table and write ``crib_values_uniform.csv`` and its JSON provenance
    to ``out_dir`` (atomically). Returns the paths written. This is how the shipped file is made;
    loading never writes. Refuses (``FileExistsError``) to write into the package's own data
    folder unless ``overwrite_shipped`` is true."""
    if not overwrite_shipped and is_shipped_folder(out_dir):
        raise FileExistsError(f"{out_dir} is the package's own data folder: the shipped tables "
                              "are not overwritten without overwrite_shipped=True")
    path = Path(out_dir) / UNIFORM_FILE
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    _write_uniform(path, build_uniform_crib_values())
    return [path, path.with_suffix(".json")]


def _write_uniform(path: Path, values: dict[tuple[int, int, int], float]) -> None:
    lines = ["card1,card2,suited,mean"]
    lines += [f"{RANK_LABELS[r1]},{RANK_LABELS[r2]},{s},{v!r}"  # "10", as every table writes
              for (r1, r2, s), v in sorted(values.items())]
    provenance = {
        "what": "uniform-opponent crib value per thrown pair: exact mean over 58,800 cribs",
        "package_version": package_version(), "command":
        "analyzer.keeping.crib.write_uniform_crib_values()", "seed": None,
        "games": None,
        "policies": None,
        "git_commit": git_commit(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    table, meta = "\n".join(lines) + "\n", json.dumps(provenance, indent=2) + "\n"
    atomic_write_all([(path, lambda tmp: tmp.write_text(table)),
                      (path.with_suffix(".json"), lambda tmp: tmp.write_text(meta))])


def _read_uniform(path: Path | Traversable) -> dict[tuple[int, int, int], float]:
    values = {}
    for line in path.read_text().splitlines()[1:]:
        c1, c2, s, v = line.split(",")
        values[(rank_label_index(c1), rank_label_index(c2), int(s))] = float(v)
    if len(values) != 169:
        raise ValueError(f"{path} holds {len(values)} kinds of throw, not 169")
    return values


def read_crib_table(path: str | os.PathLike | None = None) -> dict[str, np.ndarray]:
    """Read a self-play crib table file (default: the shipped ``crib_values.csv``) into arrays.

    Returns ``{"mean": (2, 13, 13, 2), "se": ..., "n": ...}`` indexed ``[role, r1, r2, suited]``
    (role 0 dealer, 1 pone; both rank orders filled). Raises ``ValueError`` for a malformed file
    and ``OSError`` for a missing one.
    """
    path = shipped_file(TABLE_FILE) if path is None else Path(path)
    mean = np.zeros((2, 13, 13, 2), np.float64)
    se = np.full((2, 13, 13, 2), np.nan)
    n = np.zeros((2, 13, 13, 2), np.int64)
    seen = set()
    with _open_text(path) as f:
        reader = csv.DictReader(f)
        missing = set(CRIB_TABLE_COLUMNS) - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{path}: missing columns {', '.join(sorted(missing))}")
        for row in reader:
            r1, r2 = rank_label_index(row["card1"]), rank_label_index(row["card2"])
            suited = int(row["suited"])
            seen.add((min(r1, r2), max(r1, r2), suited))
            for role, name in enumerate(("dealer", "pone")):
                for s in (0, 1) if r1 == r2 else (suited,):
                    for a, b in ((r1, r2), (r2, r1)):
                        mean[role, a, b, s] = float(row[name])
                        se[role, a, b, s] = float(row[f"{name}_se"] or "nan")
                        n[role, a, b, s] = int(row[f"{name}_n"])
    if len(seen) != 169:
        raise ValueError(f"{path} holds {len(seen)} kinds of throw, not 169")
    return {"mean": mean, "se": se, "n": n}


@lru_cache(maxsize=8)
def crib_values(mode: str = "table", variant: str = "six-card") -> np.ndarray:
    """The crib-value table for ``mode``, ``float64 (2, 13, 13, 2)`` ``[role, r1, r2, suited]``.

    ``"table"``: the self-play table shipped as ``crib_values.csv`` (``variant="five-card"``:
    ``crib_values_five-card.csv``, built from five-card deals). ``"uniform"``: the
    uniform-opponent expectation, read from the shipped ``crib_values_uniform.csv``; if that file
    is missing or unreadable the values are computed in memory instead (exact, a second or two),
    and nothing is written. Loading never writes anything.

    Raises
    ------
    ValueError
        An unknown ``mode`` or form, or a form in which each player throws one card
        (three- and four-player: their table is :func:`card_values`).

    Examples
    --------
    >>> values = crib_values("uniform")
    >>> values.shape, bool(values[0, 4, 4, 0] == values[1, 4, 4, 0])  # role-blind
    ((2, 13, 13, 2), True)
    """
    if variant_game(variant).thrown != 2:
        raise ValueError(f"{variant} throws one card: its table is "
                         "analyzer.keeping.crib.card_values(), not crib_values()")
    if mode == "table":
        table = read_crib_table(None if variant == "six-card" else
                                shipped_file(table_file(variant)))["mean"]
    elif mode == "uniform":
        try:
            values = _read_uniform(shipped_file(UNIFORM_FILE))
        except (OSError, ValueError):
            values = build_uniform_crib_values()  # exact; kept in memory, never written
        table = _to_array(values)
    else:
        raise ValueError(f"unknown crib table {mode!r}: choose one of {', '.join(TABLE_MODES)}")
    table.setflags(write=False)
    return table


@lru_cache(maxsize=4)
def card_values(mode: str = "table", variant: str = "three-player") -> np.ndarray:
    """The crib value of one card thrown, ``float64 (2, 13)`` ``[role, rank]`` (role 0: into the
    thrower's side's crib, 1: another's), for the forms in which each player throws one card.

    ``"table"``: the self-play table shipped as ``crib_values_<variant>.csv``; ``"uniform"``:
    :func:`card_crib_values` for both roles. Read-only; loading never writes anything.

    Examples
    --------
    >>> card_values("uniform").shape
    (2, 13)
    """
    if variant_game(variant).thrown != 1:
        raise ValueError(f"{variant} throws two cards: its table is crib_values(), not "
                         "card_values()")
    if mode == "uniform":
        out = np.stack([card_crib_values(), card_crib_values()])
    elif mode == "table":
        out = read_card_table(shipped_file(table_file(variant)))["mean"]
    else:
        raise ValueError(f"unknown crib table {mode!r}: choose one of {', '.join(TABLE_MODES)}")
    out.setflags(write=False)
    return out


def table_file(variant: str = "six-card", rank: bool = False) -> str:
    """The name of a form's self-play crib table (``rank``: its rank-only summary).

    >>> table_file(), table_file("three-player"), table_file("five-card", rank=True)
    ('crib_values.csv', 'crib_values_three-player.csv', 'crib_values_five-card_rank.csv')
    """
    if variant == "six-card":
        return RANK_FILE if rank else TABLE_FILE
    return f"crib_values_{variant}{'_rank' if rank else ''}.csv"


def read_card_table(path: str | os.PathLike | Traversable) -> dict[str, np.ndarray]:
    """Read a one-card table (``crib_values_<variant>.csv``: a row per rank, the columns of
    :data:`CARD_TABLE_COLUMNS`) into ``{"mean", "se", "n"}`` arrays ``(2, 13)`` ``[role, rank]``.
    Raises ``ValueError`` for a malformed file and ``OSError`` for a missing one."""
    mean = np.zeros((2, 13), np.float64)
    se = np.full((2, 13), np.nan)
    n = np.zeros((2, 13), np.int64)
    seen = set()
    with _open_text(path) as f:
        reader = csv.DictReader(f)
        missing = set(CARD_TABLE_COLUMNS) - set(reader.fieldnames or ())
        if missing:
            raise ValueError(f"{path}: missing columns {', '.join(sorted(missing))}")
        for row in reader:
            r = rank_label_index(row["card"])
            if r in seen:
                raise ValueError(f"{path}: rank {row['card']} given twice")
            seen.add(r)
            for role, name in enumerate(("own", "other")):
                mean[role, r] = float(row[name])
                se[role, r] = float(row[f"{name}_se"] or "nan")
                n[role, r] = int(row[f"{name}_n"])
    if len(seen) != 13 or not np.isfinite(mean).all():
        raise ValueError(f"{path} holds {len(seen)} finite ranks, not 13")
    return {"mean": mean, "se": se, "n": n}


@lru_cache(maxsize=1)
def throw_counts() -> np.ndarray:
    """How often self-play threw each kind of pair, by role: ``int64 (2, 13, 13, 2)``.

    From the counts of the shipped table; used to weight the opponent's possible throws.
    """
    counts = read_crib_table()["n"]
    counts.setflags(write=False)
    return counts
