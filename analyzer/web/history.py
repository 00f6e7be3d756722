"""The history in the browser: the games played on ``/play`` and the trainer's answers, kept in
the same SQLite history as ``crib play``'s games (:mod:`analyzer.table.history`), and what the
``/history`` page shows of it, the statistics of ``crib stats``.

The history is the file the terminal uses: the one the environment variable
:data:`analyzer.table.history.HISTORY_ENV` names, else ``history.sqlite3`` in the user's data
folder (:func:`analyzer.table.history.default_path`); :class:`History` takes another path (the
tests' temporary ones). A path of None is read again at each request, so the variable is
honoured as the terminal honours it.

* A finished game of ``/play`` is added once (:meth:`History.add_game`): the game is replayed
  from its moves on the server (the page sends what it sends for a move, never a record), its
  row and its review's totals written as ``crib play`` writes them. The same game sent again
  (a reload at the end, another browser, a server started again) is not added twice: a game
  whose record is in the history already (:func:`analyzer.table.history.find_game`) is not
  added, whether its AI was named by a level or by the level's player (``Club`` or
  ``ev+greedy``: the same player, the same game).
* Any game of the history, the terminal's too, is reviewed from its record
  (:meth:`History.review`): ``/review?game=ID``, linked from ``/history``'s list of games.
* Each answer of the trainer is added to its sitting (:meth:`History.add_trainer`), graded again
  on the server; a page reloaded reads its sitting back (:meth:`History.sitting`).
"""

from __future__ import annotations

import re
import threading

from . import game as web_game
from . import trainer
from .answers import InputError

__all__ = ["History", "HistoryUnavailable"]

_SITTING = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


class HistoryUnavailable(Exception):
    """The history file cannot be read or written (damaged, locked, not allowed): the server's
    fault, not the request's (``503``, with no field)."""


class History:
    """The history file of one server (``path`` None: the terminal's, looked up each time)."""

    def __init__(self, path=None):
        self.path = path
        self._lock = threading.Lock()  # one finished game looked for and added at a time

    def _error(self, exc, doing: str = "written") -> HistoryUnavailable:
        """The history's failure as the server's (``doing``: ``"read"`` or ``"written"``)."""
        return HistoryUnavailable(f"the history cannot be {doing}: {exc}")

    # ------------------------------------------------------------------ games

    def add_game(self, variant: str, opponent: str | None, seed: int, first: str, muggins: bool,
                 moves: str, level: str | None = None) -> dict:
        """Add the finished game to the history with its review's totals: ``id`` (its row) and
        ``added`` (False when the game was in the history already, its AI named either way:
        :func:`analyzer.table.history.find_game`)."""
        from ..table.history import HistoryError, add_game, add_review, find_game
        from ..table.review import review_game

        record = web_game.replay_record(variant, opponent, seed, first, muggins, moves, level)
        if record.get("unfinished"):
            raise InputError("moves", "the game is not over: only a finished game is added to "
                             "the history")
        with self._lock:
            try:
                found = find_game(record, self.path)
                if found is not None:
                    return {"id": found, "added": False}
                game_id = add_game(record, self.path, seed=int(seed))
                add_review(game_id, review_game(record), self.path)
            except HistoryError as exc:
                raise self._error(exc) from None
        return {"id": game_id, "added": True}

    def review(self, game_id: int) -> dict:
        """The review of the history's game ``game_id``, as ``/api/game/review`` gives one of a
        game on ``/play`` (:func:`analyzer.web.game.review_record`), with its ``id``: any game
        of the history, the terminal's too."""
        from ..table.history import HistoryError, read_record

        try:
            record = read_record(game_id, self.path)
        except HistoryError as exc:
            raise self._error(exc, "read") from None
        if record is None:
            raise InputError("id", f"there is no game {game_id} in the history")
        review = web_game.review_record(record)
        review["id"] = int(game_id)
        return review

    # ------------------------------------------------------------------ the trainer

    def add_trainer(self, sitting: str, seed: int, k: int, throw: str) -> dict:
        """Grade the throw (:func:`analyzer.web.trainer.grade`) and add it to the sitting; the
        sitting's answers so far (:meth:`sitting`)."""
        from ..table.history import HistoryError, add_trainer_answer

        _check_sitting(sitting)
        graded = trainer.grade(seed, k, throw)
        try:
            add_trainer_answer(sitting, seed, k, graded["role"], " ".join(graded["throw"]),
                               graded["rank"], graded["lost"], self.path)
        except HistoryError as exc:
            raise self._error(exc) from None
        return self.sitting(sitting)

    def sitting(self, sitting: str) -> dict:
        """One sitting of the trainer: ``sitting`` and ``answers`` (``seed``, ``k``, ``role``,
        ``throw``, ``rank``, ``lost``), in the order answered."""
        from ..table.history import HistoryError, read_trainer

        _check_sitting(sitting)
        try:
            frame = read_trainer(self.path, sitting=sitting)
        except HistoryError as exc:
            raise self._error(exc, "read") from None
        answers = [{"seed": int(r.seed), "k": int(r.k), "role": r.role,
                    "throw": r.throw.split(), "rank": int(r.rank), "lost": float(r.lost)}
                   for r in frame.itertuples(index=False)]
        return {"sitting": sitting, "answers": answers}

    # ------------------------------------------------------------------ the page

    def summary(self) -> dict:
        """What ``/history`` shows: ``path``, the statistics of ``crib stats``
        (:meth:`analyzer.table.history.HistoryStats.to_dict`) as ``stats``, the last games
        (``games``, newest first, at most 50) and the trainer's ``sittings``."""
        from ..table.history import (
            HistoryError,
            default_path,
            read_games,
            read_trainer,
            summarize,
            trainer_sittings,
        )

        try:
            games = read_games(self.path)
            answers = read_trainer(self.path)
        except HistoryError as exc:
            raise self._error(exc, "read") from None
        stats = summarize(games).to_dict()
        last = games.tail(50).iloc[::-1]
        rows = [{k: _plain(v) for k, v in row.items()}
                for row in last[["id", "played_at", "variant", "level", "opponent", "seed",
                                 "result", "your_score", "computer_score", "deals"]]
                .to_dict("records")]
        sittings = [{k: _plain(v) for k, v in row.items()}
                    for row in trainer_sittings(answers).to_dict("records")]
        path = self.path if self.path is not None else default_path()
        return {"path": str(path), "stats": stats, "games": rows, "sittings": sittings}


def _check_sitting(sitting: str) -> None:
    if not _SITTING.match(str(sitting)):
        raise InputError("sitting", "a sitting is named by 1 to 40 letters, digits, - or _")


def _plain(value):
    import math

    value = value.item() if hasattr(value, "item") else value
    return None if isinstance(value, float) and math.isnan(value) else value
