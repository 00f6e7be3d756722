"""Game records as a Parquet table, one row a deal: the records of a large run.

The JSON Lines records (:mod:`analyzer.sim.records`) are one object a game, easy to read by eye
and slow to write by the hundred thousand. A run of many games writes the same records as
Parquet (``crib simulate --record games.parquet``), built from the engine's record arrays column
by column, without a Python loop per game or deal, and read by pandas, pyarrow or any Parquet
reader. Each row is one deal of one game:

=================================  ============================================================
column                             what it holds
=================================  ============================================================
``game``, ``deal``                 the game's index in the run; the deal's, from 0
``first_dealer``, ``winner``       the game's first dealer and winner (a seat; a side in
                                   four-player), on every row of the game
``final_S``, ``skunk_S``           side ``S``'s score at the end of the game, and the skunk tier
                                   it suffered (0 none, 1 skunk, 2 double, 3 triple)
``game_deals``                     how many deals the game had (more than its rows only in a
                                   game longer than the 128 deals recorded)
``dealer``                         the deal's dealer
``hand_P``, ``discard_P``          the cards seat ``P`` was dealt and threw, as text ("5H 5S")
``pack``                           three-player: the card the pack gave the crib
``starter``, ``heels``             the starter, and the dealer's points for a jack turned
``play_seat``, ``play_card``,      every card laid, in order: who laid it, the card, and all it
``play_points``                    pegged, the go or last-card point included (lists)
``show``                           the counts in the order made: the hands from the dealer's
                                   left, the dealer's hand, the crib (a list)
``score_S``                        side ``S``'s score after the deal (or at the winning moment)
=================================  ============================================================

The form and the record format are in the file's metadata (key ``analyzer``), so
:func:`read_record_table` gives back the very dicts the JSON Lines file would hold (formats 1
and 2), and ``crib replay`` and ``crib review`` read either file.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..core.cards import CARD_TEXTS
from ..core.game import MAX_DEALT, MAX_THROWN, STANDARD, VARIANTS, Game
from ..play.engine import DEAL, GAME_RECORD, MAX_RECORDED_DEALS, PLAY

__all__ = ["count_games", "deal_numbers", "is_parquet", "read_record_table", "record_table",
           "recorded_deals"]

#: The key of the file's metadata that names the form and the record format.
META_KEY = b"analyzer"
_PARQUET_MAGIC = b"PAR1"


def recorded_deals(rec_games: np.ndarray) -> np.ndarray:
    """How many deals of each game are recorded: its deals, at most MAX_RECORDED_DEALS."""
    return np.minimum(rec_games[:, GAME_RECORD.deals], MAX_RECORDED_DEALS)


def deal_numbers(counts: np.ndarray) -> np.ndarray:
    """Each recorded deal's number in its game, from 0, for games of ``counts`` deals one
    after another: ``[0, 1, 2, 0, 1]`` for ``[3, 2]``."""
    return np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)


def is_parquet(path: str | Path) -> bool:
    """Whether ``path`` names a Parquet records file: by its suffix, or (a file there) by the
    four bytes every Parquet file begins with."""
    path = Path(path)
    if path.suffix.lower() == ".parquet":
        return True
    try:
        with open(path, "rb") as f:
            return f.read(4) == _PARQUET_MAGIC
    except OSError:
        return False


def record_table(rec_games: np.ndarray, rec_deals: np.ndarray, game: Game, fmt: int,
                 index=None):
    """The records of the engine's arrays as a ``pyarrow.Table``, one row a deal (the module's
    columns), game ``index[i]`` being row ``i`` of ``rec_games`` (game ``i`` without ``index``:
    the games' numbers in the run); ``fmt`` the record format the table stands for
    (:func:`analyzer.sim.records.record_format`), kept in its metadata.

    ``rec_games`` int64 (n, GAME_RECORD.size) and ``rec_deals`` int16 (deals, DEAL.size), the
    games' recorded deals one after another, as :func:`analyzer.sim.records.game_records` takes
    them.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    counts = recorded_deals(rec_games)
    if int(counts.sum()) != len(rec_deals):
        raise ValueError(f"{len(rec_deals)} deals given for games that recorded "
                         f"{int(counts.sum())}")
    rows = len(rec_deals)
    row_game = np.repeat(np.arange(len(rec_games)), counts)  # each row's game, by row of games
    numbers = np.arange(len(rec_games)) if index is None else np.asarray(index, np.int64)
    head = rec_games[row_game]
    deals = rec_deals
    texts = pa.array(CARD_TEXTS, pa.string())

    def cards(at: int, n: int):
        """The n cards from column ``at`` of each deal, as one text ("5H 5S")."""
        columns = [pc.take(texts, pa.array(deals[:, at + k])) for k in range(n)]
        if n == 1:
            return columns[0]
        return pc.binary_join_element_wise(*columns, " ")

    def listed(first: int, size: int, n_at: int, step: int, fields: list[tuple[int, object]]):
        """List columns of the entries ``[first, first + step * n)`` of each deal, ``n`` its
        column ``n_at``: one list column for each (offset in the entry, type)."""
        n = deals[:, n_at].astype(np.int64)
        offsets = pa.array(np.concatenate([[0], np.cumsum(n)]).astype(np.int32))
        block = deals[:, first: first + step * size].reshape(rows, size, step)
        flat = block[np.arange(size) < n[:, None]]
        out = []
        for k, kind in fields:
            values = (pc.take(texts, pa.array(flat[:, k])) if kind == "card"
                      else pa.array(flat[:, k].astype(kind)))
            out.append(pa.ListArray.from_arrays(offsets, values))
        return out

    seats, sides = range(game.players), range(game.teams)
    columns = {
        "game": pa.array(numbers[row_game]),
        "deal": pa.array(deal_numbers(counts).astype(np.int16)),
        "first_dealer": pa.array(head[:, GAME_RECORD.first_dealer].astype(np.int8)),
        "winner": pa.array(head[:, GAME_RECORD.winner].astype(np.int8)),
    }
    for t in sides:
        columns[f"final_{t}"] = pa.array(head[:, GAME_RECORD.scores + t].astype(np.int16))
    for t in sides:
        columns[f"skunk_{t}"] = pa.array(head[:, GAME_RECORD.skunk + t].astype(np.int8))
    columns["game_deals"] = pa.array(head[:, GAME_RECORD.deals].astype(np.int32))
    columns["dealer"] = pa.array(deals[:, DEAL.dealer].astype(np.int8))
    for p in seats:
        columns[f"hand_{p}"] = cards(DEAL.hands + MAX_DEALT * p, game.dealt)
    for p in seats:
        columns[f"discard_{p}"] = cards(DEAL.discards + MAX_THROWN * p, game.thrown)
    if game.crib_from_pack:
        columns["pack"] = cards(DEAL.pack, game.crib_from_pack)
    columns["starter"] = cards(DEAL.starter, 1)
    columns["heels"] = pa.array(deals[:, DEAL.heels].astype(np.int8))
    play_room = (DEAL.n_show - DEAL.plays) // PLAY.size
    (columns["play_seat"], columns["play_card"], columns["play_points"]) = listed(
        DEAL.plays, play_room, DEAL.n_plays, PLAY.size,
        [(PLAY.player, np.int8), (PLAY.card, "card"), (PLAY.points, np.int8)])
    (columns["show"],) = listed(DEAL.show, DEAL.scores - DEAL.show, DEAL.n_show, 1,
                                [(0, np.int16)])
    for t in sides:
        columns[f"score_{t}"] = pa.array(deals[:, DEAL.scores + t].astype(np.int16))
    meta = {"format": int(fmt), "variant": game.name}
    return pa.table(columns).replace_schema_metadata({META_KEY: json.dumps(meta)})


def read_record_table(path: str | Path, games=None) -> list[dict]:
    """The record dicts (formats 1 and 2, as the JSON Lines records) of a Parquet records file,
    in the order of its rows, unchecked; with ``games`` (game indices), only those games'.
    :func:`analyzer.sim.records.read_records` reads and checks them.

    Raises ``ValueError`` for a file that is not such a table.
    """
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    try:
        schema = pq.read_schema(path)
    except (OSError, ValueError) as exc:
        raise ValueError(f"not a Parquet file ({exc})") from None
    try:
        meta = json.loads((schema.metadata or {})[META_KEY])
        game = VARIANTS[meta["variant"]]
        fmt = int(meta["format"])
    except (KeyError, TypeError, ValueError):
        raise ValueError("a Parquet file, but not game records written by crib simulate "
                         "(no form in its metadata)") from None
    written = _schema(game, fmt)
    for field in written:  # the types read below are the ones written
        if field.name not in schema.names:
            raise ValueError(f"no column {field.name!r}: not game records of {game.name}")
        kind = schema.field(field.name).type
        if not kind.equals(field.type):
            raise ValueError(f"column {field.name!r} holds {kind}, not {field.type}: not game "
                             "records as crib simulate writes them")
    filters = None if games is None else [("game", "in", [int(g) for g in games])]
    try:
        table = pq.read_table(path, filters=filters)
    except (OSError, ValueError, KeyError) as exc:
        raise ValueError(f"cannot read its table ({exc})") from None
    for name in written.names:
        column = table.column(name)
        if column.null_count or (hasattr(column.type, "value_type")
                                 and pc.list_flatten(column).null_count):
            raise ValueError(f"column {name!r} has an empty value (null)")
    return _dicts(table.to_pydict(), game, fmt)


def _schema(game: Game, fmt: int):
    """The columns :func:`record_table` writes for ``game``, with their types."""
    return record_table(np.zeros((0, GAME_RECORD.size), np.int64),
                        np.zeros((0, DEAL.size), np.int16), game, fmt).schema


def count_games(path: str | Path) -> int:
    """How many games a Parquet records file holds (its rows of a first deal), read from one
    column."""
    import pyarrow.parquet as pq

    try:
        deal = pq.read_table(path, columns=["deal"]).column("deal").to_numpy()
        return int(np.count_nonzero(deal == 0))
    except (OSError, ValueError, KeyError) as exc:
        raise ValueError(f"cannot read its table ({exc})") from None


def _dicts(c: dict, game: Game, fmt: int) -> list[dict]:
    """Rows (deals) grouped into games' record dicts, as ``game_records`` makes them; a game's
    own columns must be the same on each of its rows, its deals numbered 0, 1, ... in order
    and as many as it had (128 of a longer game), or ValueError."""
    seats, sides = range(game.players), range(game.teams)
    v1 = game == STANDARD  # format 1: the six-card game's, without the forms' keys
    own = ["game", "first_dealer", "winner", "game_deals", *(f"final_{t}" for t in sides),
           *(f"skunk_{t}" for t in sides)]
    out: list[dict] = []
    first = -1  # the row of the game's first deal

    def ended(record) -> None:
        n, played = len(record["deals"]), c["game_deals"][first]
        if n != min(played, MAX_RECORDED_DEALS):
            raise ValueError(f"game {record['game']}: {n} deals, not its {played}")

    for r in range(len(c["game"])):
        if first < 0 or c["game"][r] != c["game"][first] or c["deal"][r] == 0:
            if out:
                ended(out[-1])
            first = r
            dealer0 = c["first_dealer"][r]
            tiers = [c[f"skunk_{t}"][r] for t in sides]
            record = {"format": fmt, "game": c["game"][r], "first_dealer": dealer0,
                      "winner": c["winner"][r], "scores": [c[f"final_{t}"][r] for t in sides],
                      "skunk": max(tiers) if v1 else tiers, "deals": []}
            if not v1:
                start = [0] * game.teams
                start[(dealer0 + 1) % game.teams] = game.start_points
                record = {"format": fmt, "variant": game.name, **record, "start": start}
            if c["game_deals"][r] > MAX_RECORDED_DEALS:
                record["truncated"] = True
            out.append(record)
        record = out[-1]
        n = len(record["deals"])
        if c["deal"][r] != n:
            raise ValueError(f"game {record['game']}: column deal holds {c['deal'][r]} where "
                             f"{n} comes next (deals count from 0)")
        at = f"game {record['game']} deal {n + 1}"  # as the checks and the replay say a deal
        differ = [name for name in own if c[name][r] != c[name][first]]
        if differ:
            raise ValueError(f"{at}: its {differ[0]} is not its game's")
        laid = (c["play_seat"][r], c["play_card"][r], c["play_points"][r])
        if len({len(x) for x in laid}) != 1:
            raise ValueError(f"{at}: its play_seat, play_card and play_points are not as long")
        record["deals"].append({
            "dealer": c["dealer"][r],
            "hands": [c[f"hand_{p}"][r].split() for p in seats],
            "discards": [c[f"discard_{p}"][r].split() for p in seats],
            **({} if v1 else {"pack": c["pack"][r].split() if game.crib_from_pack else []}),
            "starter": c["starter"][r],
            "heels": c["heels"][r],
            "plays": [list(p) for p in zip(*laid, strict=True)],
            "show": c["show"][r],
            "scores": [c[f"score_{t}"][r] for t in sides],
        })
    if out:
        ended(out[-1])
    return out
