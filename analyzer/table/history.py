"""The history of a person's games: one SQLite database, and the statistics ``crib stats`` shows.

Every game ``crib play`` finishes or stops is added (:func:`add_game`) as one row of the table
``games``: when, the form, the level and the opponent's player spec, the seed, the result (won,
lost or unfinished), the final scores, the skunk each way (none, single, double, triple), the
points of each side by phase (pegging, hand, crib, his heels) and the number of deals (and the
same over the deals played out whole, which ``crib stats`` averages), the points given away by
muggins, the undos, the review's totals for a finished game
(:func:`add_review`: the points the review of the person's decisions says they lost, by discard
and by the play, among the decisions valued in points, and the P(win) lost by those valued in
P(win), :mod:`analyzer.table.objective`; the points its muggins counts gave away are
``muggins_given``), and the game record itself as JSON, so nothing is lost.

Where it lives: :func:`default_path`, ``history.sqlite3`` in the user's data folder
(``platformdirs.user_data_dir("analyzer")``), unless the environment variable
:data:`HISTORY_ENV` names another file.

**Schema.** The database's ``PRAGMA user_version`` is the number of :data:`MIGRATIONS` applied.
Opening it (:func:`connect`) applies the missing steps in order, all in one transaction: a
database is at one version or the next, never between. A database of a newer version than this
package knows is refused.

**Failures.** A file that is not a SQLite database, one another connection holds locked past
:data:`LOCK_TIMEOUT` seconds, or one that cannot be opened is a :class:`HistoryError` with a
one-line reason; every write is one transaction, so a failure leaves the database as it was.

**Statistics.** :func:`read_games` reads the rows as a DataFrame and :func:`summarize` (or
:func:`history_stats`, both at once) computes what ``crib stats`` prints, and the web page may
show: win rates by level with their Wilson score intervals (:func:`wilson_interval`), skunks,
average points per deal by phase for the person and for the computer, and the trend of the
points lost per reviewed game.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["HISTORY_ENV", "LOCK_TIMEOUT", "MIGRATIONS", "PHASES", "SCHEMA_VERSION", "SKUNKS",
           "HistoryError", "HistoryStats", "add_game", "add_review", "check_history", "connect",
           "default_path", "add_trainer_answer", "fill_review", "find_game", "game_row",
           "history_stats", "read_games", "read_record", "read_trainer", "summarize",
           "trainer_sittings", "wilson_interval"]

#: The environment variable that moves the history to another file.
HISTORY_ENV = "ANALYZER_HISTORY"
#: The history's file name in the user's data folder.
FILE_NAME = "history.sqlite3"
#: Seconds to wait for another connection's lock before giving up.
LOCK_TIMEOUT = 2.0
#: The phases of a deal the points are counted by.
PHASES = ("pegging", "hand", "crib", "heels")
#: The skunk tiers, by the loser's tier 0..3.
SKUNKS = ("none", "single", "double", "triple")
#: The 95% normal quantile.
_Z = 1.959964

_SIDES = ("your", "computer")
_SKUNK_CHECK = ", ".join(f"'{s}'" for s in SKUNKS)
#: Step 5's columns: the deals played out whole, and each side's points by phase in them.
_WHOLE_COLUMNS = ("whole_deals", *(f"{side}_{phase}_whole" for side in _SIDES for phase in PHASES))

#: The schema's steps, in order: step ``k`` takes a database from ``user_version`` k to k + 1.
#: Each is a tuple of SQL statements, or of callables given the connection and what was read
#: before the write lock (a step that fills new columns in from the records: step 5's values,
#: :func:`_migrate`). Never edit a step once released: add one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    # 1: the games
    ("CREATE TABLE games ("
     " id INTEGER PRIMARY KEY,"
     " played_at TEXT NOT NULL,"  # ISO 8601, local time with its UTC offset
     " variant TEXT NOT NULL,"
     " level TEXT,"  # null: a player chosen by its spec
     " opponent TEXT NOT NULL,"
     " seed INTEGER,"
     " result TEXT NOT NULL CHECK (result IN ('won', 'lost', 'unfinished')),"
     " your_score INTEGER NOT NULL,"
     " computer_score INTEGER NOT NULL,"
     f" skunk_given TEXT NOT NULL CHECK (skunk_given IN ({_SKUNK_CHECK})),"
     f" skunk_taken TEXT NOT NULL CHECK (skunk_taken IN ({_SKUNK_CHECK})),"
     " deals INTEGER NOT NULL,"
     + "".join(f" {side}_{phase} INTEGER NOT NULL," for side in _SIDES for phase in PHASES)
     + " muggins_given INTEGER,"  # null: played without muggins
     " review_discard_lost REAL,"  # null: not reviewed (an unfinished game)
     " review_play_lost REAL,"
     " record TEXT NOT NULL)",),
    # 2: the undos of a game (issue 23's undo), and the games by time
    ("ALTER TABLE games ADD COLUMN undos INTEGER NOT NULL DEFAULT 0",
     "CREATE INDEX games_played_at ON games (played_at)"),
    # 3: the review's P(win) lost near the end (issue 23's one objective); null: not reviewed,
    # or reviewed before this step
    ("ALTER TABLE games ADD COLUMN review_p_win_lost REAL",),
    # 4: the discard trainer's answers (crib serve's /trainer), by sitting
    ("CREATE TABLE trainer ("
     " id INTEGER PRIMARY KEY,"
     " answered_at TEXT NOT NULL,"  # ISO 8601, local time with its UTC offset
     " sitting TEXT NOT NULL,"  # the page's name for one sitting
     " seed INTEGER NOT NULL,"
     " k INTEGER NOT NULL,"  # the deal of the seed's stream
     " role TEXT NOT NULL CHECK (role IN ('dealer', 'pone')),"
     " throw TEXT NOT NULL,"
     " rank INTEGER NOT NULL,"
     " lost REAL NOT NULL,"
     " UNIQUE (sitting, seed, k))",
     "CREATE INDEX trainer_sitting ON trainer (sitting, id)"),
    # 5: the deals played out whole and the points by phase in them (crib stats' averages a
    # deal, which the deal a game is won in, cut short, leaned to its winner), filled in for
    # the games already kept from their records
    (*(f"ALTER TABLE games ADD COLUMN {name} INTEGER" for name in _WHOLE_COLUMNS),
     lambda conn, early: _fill_whole(conn, early)),
)
#: The step that fills in the whole deals (:func:`_fill_whole`): its values are worked out
#: before the write lock is taken (:func:`_migrate`).
_WHOLE_STEP = 5
#: The version of the schema this package writes.
SCHEMA_VERSION = len(MIGRATIONS)

#: The columns :func:`read_games` returns (all but the record), in the table's order.
COLUMNS = ("id", "played_at", "variant", "level", "opponent", "seed", "result", "your_score",
           "computer_score", "skunk_given", "skunk_taken", "deals",
           *(f"{side}_{phase}" for side in _SIDES for phase in PHASES), "muggins_given",
           "review_discard_lost", "review_play_lost", "undos", "review_p_win_lost",
           *_WHOLE_COLUMNS)


class HistoryError(Exception):
    """The history cannot be read or written: a one-line reason."""


def default_path() -> Path:
    """Where the history is: the file :data:`HISTORY_ENV` names, else ``history.sqlite3`` in
    ``platformdirs.user_data_dir("analyzer")``."""
    named = os.environ.get(HISTORY_ENV)
    return Path(named).expanduser() if named else _in_data_folder()


def _in_data_folder() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("analyzer")) / FILE_NAME


# --------------------------------------------------------------------------- the database


def _reason(path: Path, exc: sqlite3.Error) -> str:
    """A one-line reason for a sqlite3 error on the history at ``path``."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return f"{path} is locked by another program ({text})"
    damaged = "not a database" in text or "malformed" in text
    if damaged or not isinstance(exc, sqlite3.OperationalError):
        return f"{path} is not a readable SQLite database ({text})"
    return f"{path}: {text}"


def _migrate(conn: sqlite3.Connection, path: Path, upto: int) -> None:
    """Apply the missing steps of :data:`MIGRATIONS` (to version ``upto``) in one transaction."""
    version = _schema_read(conn, path)
    if version >= upto:
        return
    # Step 5's values are read from every game's record, about half a millisecond a game:
    # worked out before the write lock, so that another program opening the history meanwhile
    # is not kept waiting past its lock timeout (a review's: 11,192 games)
    early = _whole_values(conn) if 1 <= version < _WHOLE_STEP <= upto else {}
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]  # another may have migrated
        if version == 0:
            _check_not_foreign(conn, path)
        for step in MIGRATIONS[version:upto]:
            for statement in step:
                if callable(statement):
                    statement(conn, early)
                else:
                    conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {max(version, upto)}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _whole_values(conn: sqlite3.Connection, skip=()) -> dict:
    """Each game's (but those of ``skip``, by id) deals played out whole and its points by
    phase in them (:func:`game_row`, in :data:`_WHOLE_COLUMNS`' order), from its record, by
    id; None for a record that cannot be read so (edited by hand)."""
    values = {}
    for row_id, text in conn.execute("SELECT id, record FROM games").fetchall():
        if row_id in skip:
            continue
        try:
            row = game_row(json.loads(text), played_at="-")
        except (ValueError, KeyError, TypeError, IndexError, AttributeError):
            values[row_id] = None
            continue
        values[row_id] = [row[n] for n in _WHOLE_COLUMNS]
    return values


def _fill_whole(conn: sqlite3.Connection, early: dict) -> None:
    """Migration 5's data: each game's deals played out whole and its points by phase in them,
    from ``early`` (:func:`_whole_values`, read before the lock) and, for a game added since,
    from its record. A record that cannot be read so keeps them null: that game is left out of
    the averages, and the history still opens."""
    values = {**early, **_whole_values(conn, skip=early)}
    conn.executemany(f"UPDATE games SET {', '.join(f'{n} = ?' for n in _WHOLE_COLUMNS)} "
                     "WHERE id = ?",
                     [[*row, row_id] for row_id, row in values.items() if row is not None])


def _schema_read(conn: sqlite3.Connection, path: Path) -> int:
    """The history's schema version, or :class:`HistoryError` for one newer than this package
    reads."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > len(MIGRATIONS):
        raise HistoryError(f"{path} has history schema {version}, newer than this version of "
                           f"analyzer reads ({len(MIGRATIONS)}): upgrade analyzer")
    return version


def _check_not_foreign(conn: sqlite3.Connection, path: Path) -> None:
    """A database with no history schema (version 0) that holds tables is another program's:
    :class:`HistoryError`, rather than our tables added to it."""
    names = [row[0] for row in conn.execute(
        "SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name")]
    if names:
        shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
        raise HistoryError(f"{path} is another program's SQLite database (it holds {shown}), "
                           "not a history of games")


def check_history(path=None) -> None:
    """Raise :class:`HistoryError` before a game if the history at ``path`` (default
    :func:`default_path`) could not take it: a file that is not a SQLite database, another
    program's database, or a history of a newer schema. Nothing is written; a history missing
    or empty is made when the game is added, and a lock held now is no matter (it is waited
    for then)."""
    path = default_path() if path is None else Path(path)
    if path.is_dir():
        raise HistoryError(f"{path}: is a folder, not a file")
    if not path.is_file() or path.stat().st_size == 0:
        return
    try:
        with closing(sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                     timeout=0, isolation_level=None)) as conn:
            if _schema_read(conn, path) == 0:
                _check_not_foreign(conn, path)
    except sqlite3.Error as exc:
        reason = _reason(path, exc)
        if "locked by another program" not in reason:
            raise HistoryError(reason) from None


def connect(path=None, *, timeout: float = LOCK_TIMEOUT,
            version: int = SCHEMA_VERSION) -> sqlite3.Connection:
    """Open the history at ``path`` (default :func:`default_path`), creating it if it is
    missing, and bring its schema up to ``version`` (:data:`SCHEMA_VERSION`; an older step only
    to make an old database in tests). The connection is in autocommit mode: each write is its
    own explicit transaction. Raises :class:`HistoryError`.

    The folder of the user data folder's history is made if it is missing; any other path's
    folder must exist.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     conn = connect(Path(folder) / "h.sqlite3")
    ...     conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    ...     conn.close()
    True
    """
    path = default_path() if path is None else Path(path)
    if path == _in_data_folder():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise HistoryError(f"{path}: cannot make its folder ({exc.strerror or exc})") \
                from None
    if not path.parent.is_dir():
        raise HistoryError(f"{path}: no folder {path.parent}")
    if path.is_dir():
        raise HistoryError(f"{path}: is a folder, not a file")
    try:
        conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    except sqlite3.Error as exc:
        raise HistoryError(_reason(path, exc)) from None
    try:
        _migrate(conn, path, version)
    except sqlite3.Error as exc:
        conn.close()
        raise HistoryError(_reason(path, exc)) from None
    except BaseException:
        conn.close()
        raise
    return conn


def _write(path, timeout: float, sql: str, values, before=()) -> int:
    """One statement (after the ``before`` statements, ``(sql, values)`` pairs) in its own
    transaction; the row id it wrote."""
    path = default_path() if path is None else Path(path)
    with closing(connect(path, timeout=timeout)) as conn:
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                for first, first_values in before:
                    conn.execute(first, first_values)
                cursor = conn.execute(sql, values)
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise HistoryError(_reason(path, exc)) from None
        return cursor.lastrowid


# --------------------------------------------------------------------------- a game's row


def _person(record: dict, players: int = 2) -> int:
    seats = record.get("seats") or []
    mine = [p for p, name in enumerate(seats) if name == "you"]
    if len(seats) != players or len(mine) != 1:
        raise ValueError(f"the history holds games with one seat named 'you' ({players} seats "
                         f"in this form), got seats {seats!r}")
    return mine[0]


def _points(record: dict, game) -> tuple[dict, int, dict, int, list[int]]:
    """Each side's points by phase (``{phase: [side 0, side 1, ...]}``; a side is a seat, or a
    partnership of four-player) and the points the person's muggins claims gave away, from the
    deals of a record of ``game`` (a :class:`analyzer.core.game.Game`); then the same points in
    the deals played out whole, and how many those are; then each side's score with every point
    pegged, muggins takes too, none stopped at the target. A deal is whole when every hand and
    the crib were counted: the deal a game is won in stops at the winning moment, and its points
    lean to the winner (the counts left out are most often the loser's)."""
    n, sides = game.players, game.teams
    points = {phase: [0] * sides for phase in PHASES}
    whole = {phase: [0] * sides for phase in PHASES}
    scores = list(record.get("start", [0] * sides))
    given = whole_deals = 0
    for deal in record["deals"]:
        dealer = deal["dealer"]
        mine = {phase: [0] * sides for phase in PHASES}
        mine["heels"][dealer % sides] += deal["heels"]
        scores[dealer % sides] += deal["heels"]
        for seat, _, pegged in deal["plays"]:
            mine["pegging"][seat % sides] += pegged
            scores[seat % sides] += pegged
        claims = deal.get("claims") or [None] * len(deal["show"])
        for k, (count, claimed) in enumerate(zip(deal["show"], claims, strict=False)):
            crib = k == n  # each hand from the dealer's left round to the dealer, then the crib
            owner = (dealer if crib else (dealer + 1 + k) % n) % sides
            pegged = count if claimed is None else min(claimed, count)
            mine["crib" if crib else "hand"][owner] += pegged
            scores[owner] += pegged
            if scores[owner] < game.target and claimed is not None and claimed < count:
                given += count - claimed  # muggins (two sides): the other takes what was missed
                scores[1 - owner] += count - claimed
        played_out = len(deal["show"]) == n + 1
        whole_deals += played_out
        for phase in PHASES:
            for side in range(sides):
                points[phase][side] += mine[phase][side]
                whole[phase][side] += mine[phase][side] if played_out else 0
    return points, given, whole, whole_deals, scores


def game_row(record: dict, *, seed: int | None = None, review=None,
             played_at: str | None = None) -> dict:
    """The history's row of one game record of ``crib play`` (one seat ``"you"``, any form): a
    dict of the columns of the table ``games`` (:data:`COLUMNS` without ``id``, and
    ``record``, the record as JSON).

    The columns ``your_*`` are the person's side's, ``computer_*`` the other sides': in
    four-player, you and your partner against the other partnership; in three-player, the two
    AIs' points by phase together (``crib stats`` divides by two) and ``computer_score`` the
    higher of their scores. The result is the person's side's, won or lost; ``skunk_given`` the
    worst tier among the sides that lost to it. ``whole_deals`` counts the deals played out
    whole (every hand and the crib counted; not the deal the game was won in, when the win cut
    it short), and the columns ``*_whole`` are the points by phase in those deals: the
    averages a deal of ``crib stats``.

    ``review`` is the :class:`analyzer.table.review.Review` of a finished game, or None;
    ``played_at`` defaults to now (ISO 8601, local time). The level is the record's ``"level"``
    (null for a player chosen by spec), the undos its ``"undos"`` (0 if none).

    Examples
    --------
    >>> deal = {"dealer": 1, "heels": 2, "plays": [[0, "5H", 0], [1, "TD", 2]],
    ...         "show": [8, 4, 6]}
    >>> record = {"seats": ["you", "best"], "level": "Expert", "winner": None,
    ...           "scores": [8, 14], "skunk": 0, "unfinished": True, "deals": [deal]}
    >>> row = game_row(record, seed=7, played_at="2025-01-01T12:00:00+00:00")
    >>> row["result"], row["your_hand"], row["computer_pegging"], row["computer_crib"]
    ('unfinished', 8, 2, 6)
    """
    from ..core.choices import variant_game

    game = variant_game(record.get("variant", "six-card"))
    me = _person(record, game.players) % game.teams  # the person's side
    others = [s for s in range(game.teams) if s != me]
    opponent = next(name for name in record["seats"] if name != "you")
    points, given, whole, whole_deals, _ = _points(record, game)
    winner = record.get("winner")
    result = "unfinished" if winner is None else "won" if winner == me else "lost"
    skunk = record.get("skunk", 0)
    tiers = skunk if isinstance(skunk, list) else [0 if winner == p else skunk for p in (0, 1)]
    # played with muggins: as the game was set up (a game stopped before its first show has no
    # claims yet, and gave 0 away), else as its deals' claims say (a record without its setup)
    muggins = (record.get("table") or {}).get("muggins")
    if muggins is None:
        muggins = any("claims" in deal for deal in record["deals"])
    row = {
        "played_at": played_at or datetime.now().astimezone().isoformat(timespec="seconds"),
        "variant": game.name,
        "level": record.get("level"),
        "opponent": opponent,
        "seed": seed,
        "result": result,
        "your_score": int(record["scores"][me]),
        "computer_score": max(int(record["scores"][s]) for s in others),
        "skunk_given": SKUNKS[max(tiers[s] for s in others)] if result == "won" else "none",
        "skunk_taken": SKUNKS[tiers[me]] if result == "lost" else "none",
        "deals": len(record["deals"]),
    }
    for phase in PHASES:
        row[f"your_{phase}"] = points[phase][me]
        row[f"computer_{phase}"] = sum(points[phase][s] for s in others)
    row["whole_deals"] = whole_deals
    for phase in PHASES:
        row[f"your_{phase}_whole"] = whole[phase][me]
        row[f"computer_{phase}_whole"] = sum(whole[phase][s] for s in others)
    row["muggins_given"] = given if muggins else None
    row["review_discard_lost"] = None if review is None else float(review.discard_lost)
    row["review_play_lost"] = None if review is None else float(review.play_lost)
    row["review_p_win_lost"] = None if review is None else _p_win_lost(review)
    row["undos"] = int(record.get("undos", 0))
    row["record"] = _record_text(record)
    return row


def _record_text(record: dict) -> str:
    """A record as the history keeps it (and finds it again): compact JSON, as saved."""
    return json.dumps(record, separators=(",", ":"))


def add_game(record: dict, path=None, *, seed: int | None = None, review=None,
             played_at: str | None = None, timeout: float = LOCK_TIMEOUT,
             resumed: dict | None = None) -> int:
    """Add one game (its record, as ``crib play`` saves it) to the history at ``path`` (default
    :func:`default_path`), in one transaction; return its row id. Arguments as
    :func:`game_row`. ``resumed``: the unfinished record the game went on from (``crib play
    --resume``), whose row (the unfinished game of that seed with exactly that record) it
    replaces in the same transaction, so a game is counted once; another game of the same seed
    keeps its row. Raises :class:`HistoryError` if the history cannot be written (then nothing
    is changed) and ValueError for a record of no person's two-player game."""
    row = game_row(record, seed=seed, review=review, played_at=played_at)
    names = ", ".join(row)
    marks = ", ".join(f":{name}" for name in row)
    before = []
    if resumed is not None:
        if not isinstance(resumed, dict):
            raise TypeError(f"resumed: the record resumed from (a dict), got "
                            f"{type(resumed).__name__}")
        before.append(("DELETE FROM games WHERE id = (SELECT id FROM games WHERE result = "
                       "'unfinished' AND seed IS :seed AND record = :record ORDER BY id DESC "
                       "LIMIT 1)", {"seed": row["seed"],
                                    "record": _record_text(resumed)}))
    return _write(path, timeout, f"INSERT INTO games ({names}) VALUES ({marks})", row, before)


def _namings(record: dict) -> list[str]:
    """The texts of ``record`` under each name its AI player goes by: as it is, and with the
    other ``"level"`` the same player would have been recorded with (none, for the player
    named by its spec; a level's name, for the spec of that level). The game, its seats'
    players and every decision are the same in each. A record with no person (no level) or
    whose AIs play different players has its one text. Each comes as written before the
    winner's score stopped at the target too, when that differs (:func:`_uncapped`)."""
    from .levels import LEVELS

    players = sorted({name for name in record.get("seats") or [] if name != "you"})
    levels = ([None, *(level.name for level in LEVELS if level.player == players[0])]
              if "level" in record and len(players) == 1 else [])
    texts = []
    for one in [record, *_uncapped(record)]:  # as it is, then as written before the cap
        for text in (_record_text(one),  # a level's key stays in its place
                     *(_record_text({**one, "level": level}) for level in levels)):
            if text not in texts:
                texts.append(text)
    return texts


def _uncapped(record: dict) -> list[dict]:
    """``record`` as the table wrote it before the winner's score stopped at the target (the
    winning count's points past it in the final scores and the last deal's), when that differs:
    one record, or none. So a game finished then and sent again is found, not added twice."""
    from ..core.choices import variant_game

    winner, deals = record.get("winner"), record.get("deals") or []
    if winner is None or not deals or "scores" not in deals[-1]:
        return []
    scores = _points(record, variant_game(record.get("variant", "six-card")))[-1]
    if scores[winner] <= record["scores"][winner]:
        return []
    final = list(record["scores"])
    final[winner] = scores[winner]
    last = {**deals[-1], "scores": final}
    return [{**record, "scores": final, "deals": [*deals[:-1], last]}]


def find_game(record: dict, path=None, *, timeout: float = LOCK_TIMEOUT) -> int | None:
    """The row id of a game in the history at ``path`` whose record is ``record`` (the same
    game, the same decisions), or None (and None for a missing file, which is not made). The
    AI's player may be named either way: a game played at a level is found as the same game
    played against the level's player by its spec, and the other way round. Raises
    :class:`HistoryError`.

    Examples
    --------
    >>> import tempfile
    >>> record = {"seats": ["you", "ev+greedy"], "level": None, "winner": None,
    ...           "scores": [0, 0], "skunk": 0, "unfinished": True, "deals": []}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "h.sqlite3"
    ...     before = find_game(record, path)
    ...     added = add_game(record, path)
    ...     at_club = find_game({**record, "level": "Club"}, path)  # Club is ev+greedy
    ...     before, find_game(record, path) == added, at_club == added
    (None, True, True)
    """
    texts = _namings(record)
    marks = ", ".join("?" * len(texts))
    row = _read_one(path, timeout, f"SELECT id FROM games WHERE record IN ({marks}) ORDER BY id "
                    "LIMIT 1", tuple(texts))
    return None if row is None else int(row[0])


def read_record(game_id: int, path=None, *, timeout: float = LOCK_TIMEOUT) -> dict | None:
    """The record of the game ``game_id`` of the history at ``path`` (as ``crib play`` saved
    it, or as ``/play`` replayed it), or None when there is no such game (and None for a
    missing file, which is not made). Raises :class:`HistoryError`.

    Examples
    --------
    >>> import tempfile
    >>> record = {"seats": ["you", "best"], "winner": None, "scores": [0, 0], "skunk": 0,
    ...           "unfinished": True, "deals": []}
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "h.sqlite3"
    ...     added = add_game(record, path)
    ...     read_record(added, path) == record, read_record(added + 1, path)
    (True, None)
    """
    row = _read_one(path, timeout, "SELECT record FROM games WHERE id = ?", (int(game_id),))
    return None if row is None else json.loads(row[0])


def _nothing_there(path: Path) -> bool:
    """A history the readers find no rows in without opening it: a missing file, or an empty
    one (which opening would make a database of: reading writes nothing). Raises
    :class:`HistoryError` for what is not a file (a folder, a named pipe: a pipe's size is 0,
    and it is no history without games)."""
    import stat

    from ..core.files import special_kind

    try:
        status = path.stat()
    except FileNotFoundError:
        return True
    if stat.S_ISDIR(status.st_mode):
        raise HistoryError(f"{path}: is a folder, not a file")
    if (kind := special_kind(status.st_mode)) is not None:
        raise HistoryError(f"{path}: is {kind}, not a file")
    return status.st_size == 0


def _read_one(path, timeout: float, sql: str, values) -> tuple | None:
    """The first row ``sql`` selects from the history at ``path`` (default
    :func:`default_path`), or None (and None for a missing file, which is not made)."""
    path = default_path() if path is None else Path(path)
    if _nothing_there(path):
        return None
    with closing(connect(path, timeout=timeout)) as conn:
        try:
            return conn.execute(sql, values).fetchone()
        except sqlite3.Error as exc:
            raise HistoryError(_reason(path, exc)) from None


def add_review(game_id: int, review, path=None, *, timeout: float = LOCK_TIMEOUT) -> None:
    """Add the review's totals (an :class:`analyzer.table.review.Review`) to the game
    ``game_id`` of the history (:func:`add_game` gives the id). Raises :class:`HistoryError`."""
    _write(path, timeout, "UPDATE games SET review_discard_lost = ?, review_play_lost = ?, "
           "review_p_win_lost = ? WHERE id = ?",
           (float(review.discard_lost), float(review.play_lost), _p_win_lost(review),
            int(game_id)))


def fill_review(record: dict, review, path=None, *, timeout: float = LOCK_TIMEOUT) -> int | None:
    """Add the review's totals to the history's row of the finished game ``record`` (found by
    its record, under either name of its AI player, as :func:`find_game` finds it) when that
    row has none (its review was stopped at the end of the game); the row's id, or None when
    there is no such row or it has its totals already (and for a missing file, which is not
    made). Raises :class:`HistoryError`."""
    texts = _namings(record)
    marks = ", ".join("?" * len(texts))
    row = _read_one(path, timeout, f"SELECT id FROM games WHERE record IN ({marks}) AND result "
                    "!= 'unfinished' AND review_discard_lost IS NULL ORDER BY id LIMIT 1",
                    tuple(texts))
    if row is None:
        return None
    add_review(int(row[0]), review, path, timeout=timeout)
    return int(row[0])


def _p_win_lost(review) -> float | None:
    """The review's P(win) lost, None for a review that has none (older reviews)."""
    value = getattr(review, "p_win_lost", None)
    return None if value is None else float(value)


# --------------------------------------------------------------------------- the trainer

#: The columns :func:`read_trainer` returns, in the table's order.
TRAINER_COLUMNS = ("id", "answered_at", "sitting", "seed", "k", "role", "throw", "rank", "lost")


def add_trainer_answer(sitting: str, seed: int, k: int, role: str, throw: str, rank: int,
                       lost: float, path=None, *, answered_at: str | None = None,
                       timeout: float = LOCK_TIMEOUT) -> int:
    """Add one answer of the discard trainer (``crib serve``'s ``/trainer``) to the history at
    ``path``: the sitting (a name the page gives it), deal ``k`` of ``seed``'s stream, the
    role, the two cards thrown, the keep's rank among the 15 and the points lost. A deal
    answered again in the same sitting replaces its answer. Returns the row id; raises
    :class:`HistoryError`."""
    at = answered_at or datetime.now().astimezone().isoformat(timespec="seconds")
    return _write(path, timeout, "INSERT OR REPLACE INTO trainer (answered_at, sitting, seed, k, "
                  "role, throw, rank, lost) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                  (at, str(sitting), int(seed), int(k), str(role), str(throw), int(rank),
                   float(lost)))


def read_trainer(path=None, *, sitting: str | None = None,
                 timeout: float = LOCK_TIMEOUT) -> pd.DataFrame:
    """The trainer's answers in the history at ``path`` (one ``sitting``'s, or all), in the
    order answered: a DataFrame with the columns :data:`TRAINER_COLUMNS`. A missing file has
    none. Raises :class:`HistoryError`.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "h.sqlite3"
    ...     _ = add_trainer_answer("s1", 7, 0, "pone", "JS KD", 6, 2.51, path)
    ...     read_trainer(path, sitting="s1")[["k", "rank", "lost"]].values.tolist()
    [[0.0, 6.0, 2.51]]
    """
    import pandas as pd

    path = default_path() if path is None else Path(path)
    if _nothing_there(path):
        return pd.DataFrame({name: [] for name in TRAINER_COLUMNS})
    where, values = ("WHERE sitting = ?", (str(sitting),)) if sitting is not None else ("", ())
    with closing(connect(path, timeout=timeout)) as conn:
        try:
            rows = conn.execute(f"SELECT {', '.join(TRAINER_COLUMNS)} FROM trainer {where} "
                                "ORDER BY id", values).fetchall()
        except sqlite3.Error as exc:
            raise HistoryError(_reason(path, exc)) from None
    return pd.DataFrame(rows, columns=list(TRAINER_COLUMNS))


def trainer_sittings(answers: pd.DataFrame) -> pd.DataFrame:
    """The trainer's sittings (:func:`read_trainer`'s answers), in the order begun: ``sitting``,
    ``started`` (the first answer's time), ``deals``, ``best`` (keeps ranked first), ``lost``
    (points in all) and ``per_deal``.

    Examples
    --------
    >>> import pandas as pd
    >>> answers = pd.DataFrame({"sitting": ["a", "a", "b"], "answered_at": ["1", "2", "3"],
    ...                         "rank": [1, 4, 1], "lost": [0.0, 1.5, 0.0]})
    >>> trainer_sittings(answers)[["sitting", "deals", "best", "lost"]].values.tolist()
    [['a', 2, 1, 1.5], ['b', 1, 1, 0.0]]
    """
    import pandas as pd

    rows = []
    for sitting in dict.fromkeys(answers["sitting"]):  # in the order first answered
        mine = answers[answers["sitting"] == sitting]
        deals, lost = len(mine), float(mine["lost"].sum())
        rows.append({"sitting": sitting, "started": mine["answered_at"].iloc[0],
                     "deals": deals, "best": int((mine["rank"] == 1).sum()), "lost": lost,
                     "per_deal": lost / deals})
    return pd.DataFrame(rows, columns=["sitting", "started", "deals", "best", "lost",
                                       "per_deal"])


# --------------------------------------------------------------------------- reading


def read_games(path=None, *, timeout: float = LOCK_TIMEOUT) -> pd.DataFrame:
    """The games of the history at ``path`` (default :func:`default_path`), oldest first: a
    DataFrame with the columns :data:`COLUMNS` (the records left out). A missing file has no
    games (and is not made). Raises :class:`HistoryError`."""
    import pandas as pd

    path = default_path() if path is None else Path(path)
    if _nothing_there(path):
        return pd.DataFrame({name: [] for name in COLUMNS})
    with closing(connect(path, timeout=timeout)) as conn:
        try:
            rows = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM games ORDER BY id").fetchall()
        except sqlite3.Error as exc:
            raise HistoryError(_reason(path, exc)) from None
    return pd.DataFrame(rows, columns=list(COLUMNS))


def wilson_interval(successes: int, trials: int, z: float = _Z) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% with the default ``z``); (0, 1) for no
    trials.

    Examples
    --------
    3 wins of 4: centre (3 + z²/2) / (4 + z²) and half-width z √(3·1/4 + z²/4) / (4 + z²)

    >>> low, high = wilson_interval(3, 4)
    >>> round(low, 4), round(high, 4)
    (0.3006, 0.9544)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    z2 = z * z
    centre = (p + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(centre - half, 0.0), min(centre + half, 1.0)


# --------------------------------------------------------------------------- statistics


@dataclass
class HistoryStats:
    """What :func:`summarize` computes from the history's games.

    Attributes
    ----------
    games, unfinished
        Games in the history, and those stopped before the end.
    levels
        One row per form and level played, the forms in the order of
        :data:`analyzer.core.game.VARIANTS`, in each the levels weakest first, then the
        opponents chosen by their player spec (``level`` None): ``variant``, ``label`` (the
        level's name, or the spec), ``level``, ``opponent``, ``games``, ``unfinished``,
        ``won``, ``lost``, ``win_rate`` (of the finished games; NaN with none), ``win_low`` and
        ``win_high`` (its 95% Wilson score interval), and ``even``, the share of games a side
        wins in an even game of that form (1/2 with two sides, 1/3 in three-player).
    skunks
        ``{"given": {tier: games}, "taken": {tier: games}}``: the games the person won with the
        computer under a skunk line (given) and lost under one (taken), by tier ``single``,
        ``double``, ``triple``.
    per_deal
        Average points per deal by phase, one row per form and phase (``variant``, ``phase``:
        ``pegging``, ``hand``, ``crib``, ``heels``, ``total``), with ``you``, ``computer`` and
        ``deals`` (the deals averaged over): the deals played out whole of every game, finished
        or not (the deal a game is won in stops at the win, and would lean the averages to the
        winner: the counts it leaves out are most often the loser's). ``you`` is the
        person's side's (in four-player, with the partner), ``computer`` each other side's (in
        three-player, the two AIs' mean).
    muggins_given
        Points the person's muggins claims gave away, over the games played with muggins
        (None if none was).
    losses
        The reviewed (finished) games in order: ``id``, ``played_at``, ``variant``, ``label``,
        ``lost`` (the review's points lost by discard plus by the play, plus the points the
        muggins counts gave away) and ``p_win_lost`` (the review's P(win) lost near the end;
        NaN for a game reviewed before it was kept).
    trend
        ``{"games", "first_half", "last_half", "slope"}``: how many reviewed games, the mean
        points lost a game in the first and in the last half of them (the middle game of an odd
        number left out; None under two games), and the least-squares slope of the points lost
        against the game's number (points a game; None under two games).
    """

    games: int
    unfinished: int
    levels: pd.DataFrame
    skunks: dict
    per_deal: pd.DataFrame
    muggins_given: int | None
    losses: pd.DataFrame
    trend: dict

    def to_dict(self) -> dict:
        """The statistics as plain JSON-ready values (NaN as None)."""

        def plain(value):
            value = value.item() if hasattr(value, "item") else value
            return None if isinstance(value, float) and math.isnan(value) else value

        def rows(frame):
            return [{k: plain(v) for k, v in row.items()} for row in frame.to_dict("records")]

        return {"games": self.games, "unfinished": self.unfinished,
                "interval": "95% Wilson score", "levels": rows(self.levels),
                "skunks": self.skunks, "per_deal": rows(self.per_deal),
                "muggins_given": self.muggins_given, "losses": rows(self.losses),
                "trend": {k: plain(v) for k, v in self.trend.items()}}


def _label(level, opponent) -> str:
    """A row's name in the win rates: its level, else its AI's spec as the players read it (a
    game kept before ``crib play`` wrote ``--opponent EV+Greedy`` as ``ev+greedy``)."""
    return level if isinstance(level, str) else str(opponent).strip().lower()


def summarize(games: pd.DataFrame) -> HistoryStats:
    """The statistics of the history's games (:func:`read_games`'s DataFrame): see
    :class:`HistoryStats`.

    Examples
    --------
    >>> import pandas as pd
    >>> games = pd.DataFrame({"level": ["Club", "Club", None], "opponent": ["ev+greedy"] * 3,
    ...                       "result": ["won", "lost", "won"], "variant": ["six-card"] * 3,
    ...                       "skunk_given": ["single", "none", "none"],
    ...                       "skunk_taken": ["none"] * 3, "deals": [9, 10, 8],
    ...                       "review_discard_lost": [1.5, 0.5, None],
    ...                       "review_play_lost": [2.0, 1.0, None]},
    ...                      index=[1, 2, 3]).rename_axis("id").reset_index()
    >>> stats = summarize(games)
    >>> stats.levels[["label", "won", "lost"]].values.tolist()
    [['Club', 1, 1], ['ev+greedy', 1, 0]]
    >>> stats.trend["slope"]
    -2.0
    """
    import numpy as np
    import pandas as pd

    from ..core.game import VARIANTS
    from .levels import LEVELS

    games = games.copy()
    for side in _SIDES:
        for phase in PHASES:
            if f"{side}_{phase}" not in games:
                games[f"{side}_{phase}"] = 0
            if f"{side}_{phase}_whole" not in games:  # a frame of whole deals only
                games[f"{side}_{phase}_whole"] = games[f"{side}_{phase}"]
    if "whole_deals" not in games:
        games["whole_deals"] = games["deals"]
    for name in ("played_at", "muggins_given"):
        if name not in games:
            games[name] = None
    games["label"] = [_label(level, opp) for level, opp in zip(games["level"],
                                                                games["opponent"], strict=True)]
    order = [level.name for level in LEVELS]
    forms = list(VARIANTS)
    keys = sorted(set(zip(games["variant"], games["label"], strict=True)),
                  key=lambda k: (forms.index(k[0]) if k[0] in forms else len(forms), k[0],
                                 order.index(k[1]) if k[1] in order else len(order), k[1]))
    rows = []
    for variant, label in keys:
        mine = games[(games["variant"] == variant) & (games["label"] == label)]
        won = int((mine["result"] == "won").sum())
        lost = int((mine["result"] == "lost").sum())
        low, high = wilson_interval(won, won + lost)
        level = mine["level"].iloc[0]
        sides = VARIANTS[variant].teams if variant in VARIANTS else 2
        rows.append({"variant": variant, "label": label,
                     "level": level if isinstance(level, str) else None,
                     "opponent": (mine["opponent"].iloc[0] if isinstance(level, str)
                                  else label), "games": len(mine),
                     "unfinished": int((mine["result"] == "unfinished").sum()), "won": won,
                     "lost": lost, "win_rate": won / (won + lost) if won + lost else math.nan,
                     "win_low": low if won + lost else math.nan,
                     "win_high": high if won + lost else math.nan, "even": 1 / sides})
    levels = pd.DataFrame(rows, columns=["variant", "label", "level", "opponent", "games",
                                         "unfinished", "won", "lost", "win_rate", "win_low",
                                         "win_high", "even"])
    levels["level"] = levels["level"].astype(object).where(levels["level"].notna(), None)
    won, lost = games[games["result"] == "won"], games[games["result"] == "lost"]
    skunks = {"given": {t: int((won["skunk_given"] == t).sum()) for t in SKUNKS[1:]},
              "taken": {t: int((lost["skunk_taken"] == t).sum()) for t in SKUNKS[1:]}}
    per_deal = []
    for variant in sorted(set(games["variant"])):
        mine = games[games["variant"] == variant]
        deals = int(mine["whole_deals"].sum())
        others = (VARIANTS[variant].teams if variant in VARIANTS else 2) - 1  # other sides
        for phase in (*PHASES, "total"):
            names = PHASES if phase == "total" else (phase,)
            you = sum(int(mine[f"your_{p}_whole"].sum()) for p in names)
            computer = sum(int(mine[f"computer_{p}_whole"].sum()) for p in names) / others
            per_deal.append({"variant": variant, "phase": phase, "deals": deals,
                             "you": you / deals if deals else math.nan,
                             "computer": computer / deals if deals else math.nan})
    per_deal = pd.DataFrame(per_deal, columns=["variant", "phase", "deals", "you", "computer"])
    given = games["muggins_given"].dropna()
    reviewed = games[games["review_discard_lost"].notna() & (games["result"] != "unfinished")]
    p_win_lost = (reviewed["review_p_win_lost"] if "review_p_win_lost" in reviewed
                  else pd.Series(math.nan, index=reviewed.index))
    losses = pd.DataFrame({"id": reviewed["id"], "played_at": reviewed["played_at"],
                           "variant": reviewed["variant"], "label": reviewed["label"],
                           "lost": reviewed["review_discard_lost"].astype(float)
                           + reviewed["review_play_lost"].fillna(0).astype(float)
                           + pd.to_numeric(reviewed["muggins_given"]).fillna(0).astype(float),
                           "p_win_lost": pd.to_numeric(p_win_lost).astype(float)}
                          ).reset_index(drop=True)
    n = len(losses)
    lost_a_game = losses["lost"].to_numpy(float)
    trend = {"games": n, "first_half": None, "last_half": None, "slope": None}
    if n >= 2:
        half = n // 2
        trend["first_half"] = float(lost_a_game[:half].mean())
        trend["last_half"] = float(lost_a_game[n - half:].mean())
        x = np.arange(1, n + 1, dtype=float) - (n + 1) / 2  # centred: the slope's formula
        trend["slope"] = float((x * (lost_a_game - lost_a_game.mean())).sum() / (x * x).sum())
    return HistoryStats(games=len(games), unfinished=int((games["result"] == "unfinished").sum()),
                        levels=levels, skunks=skunks, per_deal=per_deal,
                        muggins_given=int(given.sum()) if len(given) else None,
                        losses=losses, trend=trend)


def history_stats(path=None, *, timeout: float = LOCK_TIMEOUT) -> HistoryStats:
    """:func:`summarize` of :func:`read_games` of the history at ``path`` (default
    :func:`default_path`). Raises :class:`HistoryError`."""
    return summarize(read_games(path, timeout=timeout))
