"""Game records (JSON Lines: format 1 for the six-card game, format 2 for the other forms), their
replay counted out, and each decision of a record from its seat's view (:func:`decisions`). A
large run's records can be a Parquet table instead, one row a deal
(:mod:`analyzer.sim.recordtable`); :func:`read_records` reads both into the same dicts.

One game a line (format 1)::

    {"format": 1, "game": 0, "first_dealer": 0|1, "winner": 0|1, "scores": [a, b],
     "skunk": 0..3, "deals": [DEAL, ...]}

    DEAL = {"dealer": 0|1, "hands": [[six of player 0], [six of player 1]],
            "discards": [[two], [two]], "starter": "JD", "heels": 0|2,
            "plays": [[player, card, points], ...], "show": [pone hand, dealer hand, crib],
            "scores": [a, b]}

Cards are written as :func:`analyzer.core.cards.format_card` writes them. ``plays`` lists every card
laid, in order; its points are all that card pegged, the go or last-card point included. When the
game ends inside a deal, that deal's ``plays`` and ``show`` stop at the winning moment, and
``scores`` are the totals after the deal or at the winning moment, the winner's the target
(points past it are not scored; records written before that rule keep them, and read as
before). A game longer than the
recorded deals (128) carries ``"truncated": true``.

Optional keys describe a game played by people (``crib play``): ``"seats"``, the name of
the player in each seat (``"you"`` for a person, else a player spec such as ``"best"``),
``"level"``, the level the person chose (``null`` for an opponent chosen by its player spec),
and ``"unfinished": true`` for a game stopped before anyone reached the target: its ``winner`` is
``null``, its ``skunk`` 0, and it holds the deals played to the end of the crib count. A game
played with muggins (two sides) has ``"claims"`` in each deal, beside ``"show"``: for each count,
the points its owner claimed, or ``null`` for a count made for its owner. A claim too low pegs
the claim, and the other side takes the rest ("muggins"); a claim too high pegs the true count.

A game played by people may also carry (:class:`analyzer.table.tabletop.Table` writes them):
``"partial_deal"``, in an unfinished game, the deal in progress when it stopped: a DEAL as far
as it went (``"discards"`` of a seat ``[]`` before it threw; no ``"starter"``, ``"heels"``,
``"plays"`` or ``"show"`` before the cut; the plays and counts made so far), its ``"scores"``
the live ones, which are then the game's ``"scores"``; ``"table"``, how the game was set up
(``{"seed": S, "first": "cut" or the first dealer, "muggins": bool}``), so that it can be
replayed and resumed (``crib play --resume``); and ``"undos"``, how many decisions a person took
back.

:func:`read_records` checks what it reads (:func:`validate_record`): the format version, the
structure, and everything the cards decide, re-scored with the package's own scoring: the heels,
each card's pegging points (with at most the go or last-card point, due exactly when the count
resets or the play ends), the show counts, the running scores, the winner and the skunk. A record
that contradicts its cards is refused with the first inconsistency.
"""

from __future__ import annotations

import json
import textwrap
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..core import rules
from ..core.cards import CARD_TEXTS, RANKS, SUITS, card_value, format_card, parse_cards
from ..core.choices import PERSON
from ..core.files import atomic_write_all, provenance_item
from ..core.game import MAX_DEALT, MAX_THROWN, STANDARD, Game
from ..play.engine import DEAL, GAME_RECORD, MAX_RECORDED_DEALS, PLAY, POSITIONS
from . import recordtable
from .recordtable import is_parquet, read_record_table

__all__ = ["FORMAT", "RecordError", "decisions", "format_game", "game_records", "read_records",
           "record_form", "record_format", "validate_record", "write_records"]

FORMAT = 1
#: The records of the three- and four-player games (and, later, the five-card game).
FORMAT_FORMS = 2


class RecordError(ValueError):
    """A records file that cannot be read, or a game that is not in it."""


def record_format(game: Game) -> int:
    """The format of a game's records: 1 for the six-card game, 2 for the other forms."""
    return FORMAT if game == STANDARD else FORMAT_FORMS


def count_games(path: str | Path) -> int:
    """How many games a Parquet records file holds, or :class:`RecordError`."""
    try:
        return recordtable.count_games(path)
    except ValueError as exc:
        raise RecordError(f"{path}: {exc}") from None


def game_records(rec_games: np.ndarray, rec_deals: np.ndarray, game: Game = STANDARD,
                 index=None) -> list[dict]:
    """Turn the engine's record arrays into record dicts (game ``index[i]`` is row ``i``; game
    ``i`` without ``index``, the games' numbers in the run): format 1 for
    the six-card game, format 2 (which names the variant, the cards the pack gave the crib, the
    scores and skunk tiers by side, and the points given before the first deal) for the others.

    ``rec_games`` int64 (n, GAME_RECORD.size), laid out as :mod:`analyzer.play.engine` writes
    them, and ``rec_deals`` int16 (deals, DEAL.size) the games' recorded deals one after another
    (``min(deals, MAX_RECORDED_DEALS)`` rows a game, as
    :meth:`analyzer.sim.runs.ChunkResult.sorted_records` gives them).
    """
    seats, sides = range(game.players), game.teams
    v1 = game == STANDARD
    text = CARD_TEXTS  # the engine's ids, 0..51: their text by index (a game's many cards)
    hand_at = [DEAL.hands + MAX_DEALT * p for p in seats]
    thrown_at = [DEAL.discards + MAX_THROWN * p for p in seats]
    pack_at, pack_end = DEAL.pack, DEAL.pack + game.crib_from_pack
    out = []
    done = 0  # the deals of the games before
    numbers = range(len(rec_games)) if index is None else np.asarray(index).tolist()
    for i, header in zip(numbers, rec_games.tolist(), strict=True):
        n_deals = header[GAME_RECORD.deals]
        deals = rec_deals[done: done + min(n_deals, MAX_RECORDED_DEALS)]
        done += len(deals)
        scores = header[GAME_RECORD.scores:GAME_RECORD.scores + sides]
        tiers = header[GAME_RECORD.skunk:GAME_RECORD.skunk + sides]
        first = header[GAME_RECORD.first_dealer]
        record = {"format": record_format(game), "game": i, "first_dealer": first,
                  "winner": header[GAME_RECORD.winner], "scores": scores,
                  "skunk": max(tiers) if v1 else tiers, "deals": []}
        if not v1:
            start = [0] * sides
            start[(first + 1) % sides] = game.start_points
            record = {"format": FORMAT_FORMS, "variant": game.name, **record, "start": start}
        if n_deals > MAX_RECORDED_DEALS:
            record["truncated"] = True
        for row in deals.tolist():
            n_plays, n_show = row[DEAL.n_plays], row[DEAL.n_show]
            laid = row[DEAL.plays: DEAL.plays + PLAY.size * n_plays]
            deal = {
                "dealer": row[DEAL.dealer],
                "hands": [[text[c] for c in row[at: at + game.dealt]] for at in hand_at],
                "discards": [[text[c] for c in row[at: at + game.thrown]] for at in thrown_at],
                **({} if v1 else {"pack": [text[c] for c in row[pack_at: pack_end]]}),
                "starter": text[row[DEAL.starter]],
                "heels": row[DEAL.heels],
                "plays": [[laid[k + PLAY.player], text[laid[k + PLAY.card]],
                           laid[k + PLAY.points]] for k in range(0, len(laid), PLAY.size)],
                "show": row[DEAL.show: DEAL.show + n_show],
                "scores": row[DEAL.scores: DEAL.scores + sides],
            }
            record["deals"].append(deal)
        out.append(record)
    if done != len(rec_deals):
        raise ValueError(f"{len(rec_deals)} deals given for games that recorded {done}")
    return out


def write_records(path: str | Path, records, provenance: dict | None = None) -> None:
    """Write records atomically: a list of record dicts as JSON Lines, or the table of a run's
    records (:meth:`analyzer.sim.harness.SimulationResult.record_table`, a ``pyarrow.Table``)
    as Parquet, which a path ending in ``.parquet`` asks for. With ``provenance`` (a dict: how
    the games were played, :func:`analyzer.core.version.provenance`), also that as JSON beside
    the file (:func:`analyzer.core.files.provenance_file`), both or neither."""
    table = hasattr(records, "schema")  # a pyarrow.Table
    if Path(path).suffix.lower() == ".parquet":
        if not table or (records.schema.metadata or {}).get(recordtable.META_KEY) is None:
            raise ValueError(f"{path}: Parquet records are a run's record table "
                             "(SimulationResult.record_table()); record dicts are written as "
                             "JSON Lines")
        import pyarrow.parquet as pq

        items = [(path, lambda tmp: pq.write_table(records, tmp))]
    else:
        records = [] if table else list(records)
        if table or not all(isinstance(r, dict) for r in records):
            raise ValueError(f"{path}: JSON Lines records are record dicts (a record table is "
                             "written as Parquet, to a .parquet file)")
        text = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
        items = [(path, lambda tmp: tmp.write_text(text))]
    if provenance is not None:
        items.append(provenance_item(path, provenance))
    atomic_write_all(items)


def read_records(path: str | Path, validate: bool = True, games=None) -> list[dict]:
    """Read a records file, checking every game (:func:`validate_record`): JSON Lines (UTF-8),
    or the Parquet table of a run's records (:mod:`analyzer.sim.recordtable`: a ``.parquet``
    file, or any file that begins as Parquet does). With ``games`` (game numbers), only those
    games are kept (a Parquet file reads only their rows).

    :class:`RecordError` names the file, the line (the game, in Parquet) and the first thing
    wrong: bytes that are not UTF-8 text, a line that is not JSON, a record of another format, a
    game number seen twice, or a game that contradicts its cards.
    """
    path = Path(path)
    wanted = None if games is None else {int(g) for g in games}
    if is_parquet(path) and path.is_file():
        try:
            found = read_record_table(path, games=wanted)
        except ValueError as exc:
            raise RecordError(f"{path}: {exc}") from None
        seen: set[int] = set()
        for record in found if validate else ():
            _check(record, str(path), seen)  # its messages name the game
        return found
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8-sig")  # a byte-order mark (some Windows editors) is no text
    except UnicodeDecodeError as exc:
        kind = " (gzip-compressed?)" if data[:2] == b"\x1f\x8b" else ""
        raise RecordError(f"{path}: not UTF-8 text{kind}: byte {exc.start} is "
                          f"{data[exc.start]:#04x}") from None
    records = []
    seen = set()
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError) as exc:  # ValueError: JSON's, or a number too long
            raise RecordError(_not_json(path, n, text, exc)) from None
        if not isinstance(record, dict) or "deals" not in record:
            raise RecordError(f"{path}:{n}: not a game record")
        if validate:
            _check(record, f"{path}:{n}", seen)
        if wanted is None or record.get("game") in wanted:
            records.append(record)
    return records


def _not_json(path, n: int, text: str, exc: Exception) -> str:
    """Why line ``n`` of the JSON Lines file ``path`` (whole: ``text``) is not read."""
    if isinstance(exc, json.JSONDecodeError):
        try:
            json.loads(text)
        except (ValueError, RecursionError):
            pass
        else:  # a file of JSON written over several lines: a provenance, say
            return (f"{path}: JSON, but not JSON Lines of game records (one game on each "
                    "line, as crib simulate --record and crib play --save write them)")
        return f"{path}:{n}: not JSON ({exc.msg})"
    if isinstance(exc, RecursionError):
        return f"{path}:{n}: not JSON (nested too deeply)"
    return f"{path}:{n}: not a game record (a number of more than 4,300 digits)"


def _check(record: dict, where: str, seen: set[int]) -> None:
    """:func:`validate_record`, and a game number not in ``seen`` (then added to it): else
    :class:`RecordError` after ``where``."""
    try:
        validate_record(record)
    except RecordError as exc:
        raise RecordError(f"{where}: {exc}") from None
    if record["game"] in seen:
        raise RecordError(f"{where}: game {record['game']} is recorded twice")
    seen.add(record["game"])


# --------------------------------------------------------------------------- validation

_CARD_IDS = {r + s: 4 * i + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}
_GAME_KEYS = {"format", "game", "first_dealer", "winner", "scores", "skunk", "deals"}
_DEAL_KEYS = {"dealer", "hands", "discards", "starter", "heels", "plays", "show", "scores"}
#: The optional keys of a record: a long game cut short, and those of a game played by people.
_PEOPLE_KEYS = {"truncated", "seats", "unfinished", "partial_deal", "table", "undos", "level"}


def decisions(record: dict):
    """Every decision of a recorded game, each from its seat's view, in the order made.

    Yields dicts: ``"kind"`` (``"discard"`` or ``"lay"``), ``"deal"`` (its index), ``"seat"``,
    ``"view"`` (the keyword arguments of :func:`analyzer.play.seat.discard` or
    :func:`analyzer.play.seat.lay`: what that seat knows then, and nothing else) and
    ``"answer"`` (what the record shows it did: the card ids thrown, in the order of the hand;
    the card laid; None for a go). A seat holding cards that did not lay in its turn said go;
    the record's hands tell (and it is checked) that none of its cards fitted. The goes said
    after the last card a deal's record lays are not listed (they decide nothing). The form of
    the game is in each view (``"variant"``).
    """
    from ..core.cards import parse_card

    game = record_form(record)
    n, sides = game.players, game.teams
    # the scores before each deal: the deal before's, or the start (the pone's three for last
    # in five-card); not the deal's own less what it scored, which the winning deal's are not
    after = [0] * sides
    after[(record["first_dealer"] + 1) % sides] = game.start_points
    for number, deal in enumerate(record["deals"]):
        dealer = deal["dealer"]
        before, after = after, list(deal["scores"])
        hands = [[parse_card(c) for c in h] for h in deal["hands"]]
        thrown = [[parse_card(c) for c in t] for t in deal["discards"]]
        for p in range(n):
            mine = p % sides
            yield {"kind": "discard", "deal": number, "seat": p, "answer": thrown[p],
                   "view": {"hand": hands[p], "own_crib": mine == dealer % sides,
                            "scores": (before[mine], before[(mine + 1) % sides]),
                            "position": (p - dealer) % n, "variant": game.name}}
        kept = [[c for c in hands[p] if c not in thrown[p]] for p in range(n)]
        starter = parse_card(deal["starter"])
        start = list(before)
        start[dealer % sides] += deal["heels"]
        plays = [(seat, parse_card(card)) for seat, card, _ in deal["plays"]]
        left = [list(k) for k in kept]
        history: list = []
        turn, count, passes, last, k = (dealer + 1) % n, 0, 0, -1, 0
        while k < len(plays):
            p = turn
            laid = False
            if left[p]:
                view = {"hand": kept[p], "played": list(history), "seat": p, "dealer": dealer,
                        "starter": starter, "thrown": thrown[p], "scores": tuple(start),
                        "variant": game.name}
                if plays[k][0] == p and count + card_value(plays[k][1]) <= rules.MAX_COUNT:
                    card = plays[k][1]
                    yield {"kind": "lay", "deal": number, "seat": p, "view": view,
                           "answer": card}
                    history.append((p, card))
                    left[p].remove(card)
                    count += card_value(card)
                    k += 1
                    laid = True
                else:
                    if any(count + card_value(c) <= rules.MAX_COUNT for c in left[p]):
                        _fail(f"game {record['game']} deal {number + 1}",
                              f"seat {p} did not lay a card that fitted")
                    yield {"kind": "lay", "deal": number, "seat": p, "view": view,
                           "answer": None}
                    history.append((p, None))
            if laid:
                last, passes = p, 0
                if count == rules.MAX_COUNT:
                    count = 0
            else:
                passes += 1
                if passes >= n:  # nobody can lay: the count starts again after the last to lay
                    count, passes = 0, 0
                    turn = (last + 1) % n
                    continue
            turn = (p + 1) % n


#: Each card's counting value (ace 1, court cards 10), by id.
_VALUES = tuple(card_value(c) for c in range(52))


@lru_cache(maxsize=1 << 16)
def _count_points(ranks: tuple[int, ...]) -> int:
    """:func:`analyzer.peg_points` of a count given by the ranks of its cards, remembered: a
    file of games lays the same few counts again and again. Suits never peg, so the cards of a
    rank are given the suits in turn."""
    from ..core.scoring import peg_points

    return peg_points([4 * r + ranks[:i].count(r) for i, r in enumerate(ranks)])


def _fail(where: str, message: str):
    raise RecordError(f"{where}: {message}")


def _int(x, where: str, what: str, low: int = 0, high: int = 10**6) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or not low <= x <= high:
        _fail(where, f"{what} must be a whole number {low}..{high}, got {x!r}")
    return x


def _cards(x, n: int, where: str, what: str) -> list[int]:
    if not isinstance(x, list) or len(x) != n:
        _fail(where, f"{what} must be a list of {n} cards, got {x!r}")
    ids = []
    for c in x:
        if not isinstance(c, str) or c not in _CARD_IDS:
            _fail(where, f"{what}: {c!r} is not a card (written like 5H, TD, AS)")
        ids.append(_CARD_IDS[c])
    return ids


def _list(x, n: int, where: str, what: str) -> list:
    if not isinstance(x, list) or len(x) != n:
        _fail(where, f"{what} must be a list of {'two' if n == 2 else n}, got {x!r}")
    return x


def _scores(x, where: str, what: str, n: int = 2) -> list[int]:
    return [_int(v, where, f"{what}[{p}]") for p, v in enumerate(_list(x, n, where, what))]


def record_form(record: dict) -> Game:
    """The form of the game a record is of (:class:`analyzer.core.game.Game`): format 1 is the
    six-card game; format 2 names its variant. A :class:`RecordError` when neither.

    >>> record_form({"format": 2, "variant": "five-card"}).name
    'five-card'
    """
    from ..core.game import VARIANTS

    fmt = record.get("format", FORMAT)
    if type(fmt) is not int or fmt not in (FORMAT, FORMAT_FORMS):
        _fail("record", f"format {fmt!r} is not known (this version reads formats {FORMAT} and "
              f"{FORMAT_FORMS})")
    if fmt == FORMAT:
        return STANDARD
    variant = record.get("variant")
    if not isinstance(variant, str) or variant not in VARIANTS or VARIANTS[variant] == STANDARD:
        _fail("record", f"variant {variant!r} is not a form of format {FORMAT_FORMS} records "
              f"(one of {', '.join(v for v in VARIANTS if v != STANDARD.name)})")
    return VARIANTS[variant]


def validate_record(record: dict) -> None:
    """Raise :class:`RecordError` at the first thing wrong with one game record.

    Format 1 is the six-card game, format 2 the other forms (named by ``variant``). Checks the
    keys and types, that the cards are cards (every card dealt once each deal, hands of the
    form's size, discards from each hand, the pack's cards to the crib), and re-scores the game
    with :func:`analyzer.score_hand` and :func:`analyzer.peg_points`: the heels, every card laid
    (its points those of :func:`~analyzer.peg_points`, plus 1 exactly for a go or the last card),
    every show count, the deal and game scores by side, the winner and the skunk. The message
    names the game and deal.

    Examples
    --------
    >>> from analyzer import simulate
    >>> validate_record(simulate(5, seed=1, record_games=1).records[0])  # no error
    """
    from ..core.scoring import score_hand

    if not isinstance(record, dict):
        _fail("record", f"must be a JSON object, got {type(record).__name__}")
    game = record_form(record)
    keys = _GAME_KEYS if game == STANDARD else _GAME_KEYS | {"variant", "start"}
    missing = sorted(keys - record.keys())
    extra = sorted(record.keys() - keys - _PEOPLE_KEYS)
    if missing or extra:
        _fail("record", "missing keys " + ", ".join(missing) if missing
              else "unknown keys " + ", ".join(extra))
    number = _int(record["game"], "record", "game", 0, 2**63 - 1)
    where = f"game {number}"
    first_dealer = _int(record["first_dealer"], where, "first_dealer", 0, game.players - 1)
    truncated = record.get("truncated", False)
    if truncated is not False and truncated is not True:
        _fail(where, f"truncated must be true or false, got {truncated!r}")
    unfinished = record.get("unfinished", False)
    if unfinished is not False and unfinished is not True:
        _fail(where, f"unfinished must be true or false, got {unfinished!r}")
    if "seats" in record:
        seats = _list(record["seats"], game.players, where, "seats")
        if not all(isinstance(name, str) and name for name in seats):
            _fail(where, f"seats must be {game.players} names, got {seats!r}")
    level = record.get("level")
    if level is not None and not (isinstance(level, str) and level):
        _fail(where, f"level must be a level's name or null, got {level!r}")
    _validate_setup(record, where, game)
    deals = record["deals"]
    if not isinstance(deals, list) or (not deals and not unfinished):
        _fail(where, "deals must be a non-empty list")
    scores = [0] * game.teams
    scores[(first_dealer + 1) % game.teams] = game.start_points
    if game != STANDARD and _scores(record["start"], where, "start", game.teams) != scores:
        _fail(where, f"start is {record['start']}, but the form gives {scores}")
    winner = None
    for k, deal in enumerate(deals, start=1):
        at = f"{where} deal {k}"
        if winner is not None:
            _fail(at, f"{_side(game, winner)} already won in deal {k - 1}")
        winner = _validate_deal(deal, at, (first_dealer + k - 1) % game.players, scores,
                                score_hand, game)
    if "partial_deal" in record:
        at = f"{where} partial deal"
        if not unfinished:
            _fail(where, "has a partial deal, but is not unfinished")
        if winner is not None:
            _fail(at, f"{_side(game, winner)} already won in deal {len(deals)}")
        winner = _validate_deal(record["partial_deal"], at,
                                (first_dealer + len(deals)) % game.players, scores, score_hand,
                                game, partial=True)
    if winner is not None and unfinished:
        _fail(where, f"is unfinished, but {_side(game, winner)} reached {game.target}")
    if winner is None and not truncated and not unfinished:
        _fail(where, f"nobody reaches {game.target} (scores {'-'.join(map(str, scores))})")
    got = _scores(record["scores"], where, "scores", game.teams)
    if not _agree(got, scores, game.target):
        _fail(where, f"scores {got} are not the final scores {_capped(scores, game.target)}")
    if deals and "partial_deal" not in record and got != deals[-1]["scores"]:
        # each may be as written before or after the winner's score stopped at the target, but
        # a record is all of one or all of the other
        _fail(where, f"scores {got} are not its last deal's {deals[-1]['scores']}")
    if unfinished:
        if record["winner"] is not None:
            _fail(where, f"winner of an unfinished game must be null, got {record['winner']!r}")
        no_skunk = 0 if game == STANDARD else [0] * game.teams
        if record["skunk"] != no_skunk:
            _fail(where, f"skunk of an unfinished game must be {no_skunk}, got "
                  f"{record['skunk']!r}")
        return
    recorded_winner = _int(record["winner"], where, "winner", 0, game.teams - 1)
    if winner is not None and recorded_winner != winner:
        _fail(where, f"winner is {recorded_winner}, but {_side(game, winner)} reached "
              f"{game.target}")
    tiers = [sum(score < line for line in game.skunk_lines) if q != winner else 0
             for q, score in enumerate(scores)]
    if game == STANDARD:
        skunk = _int(record["skunk"], where, "skunk", 0, 3)
        if winner is not None and skunk != max(tiers):
            _fail(where, f"skunk is {skunk}, but the loser has {scores[1 - winner]} "
                  f"(skunk {max(tiers)})")
    else:
        skunk = [_int(t, where, f"skunk[{q}]", 0, 3)
                 for q, t in enumerate(_list(record["skunk"], game.teams, where, "skunk"))]
        if winner is not None and skunk != tiers:
            _fail(where, f"skunk is {skunk}, but the scores {scores} give {tiers}")


def _validate_setup(record: dict, where: str, game: Game) -> None:
    """Check the keys of a game played by people: ``"table"`` and ``"undos"``."""
    if "undos" in record:
        _int(record["undos"], where, "undos")
    if "table" not in record:
        return
    setup = record["table"]
    if not isinstance(setup, dict) or set(setup) != {"seed", "first", "muggins"}:
        _fail(where, f"table must be an object of seed, first and muggins, got {setup!r}")
    _int(setup["seed"], where, "table seed", 0, 2**63 - 1)
    first = setup["first"]
    if first != "cut":
        _int(first, where, "table first (a seat, or \"cut\")", 0, game.players - 1)
        if first != record["first_dealer"]:
            _fail(where, f"table first is {first}, but player {record['first_dealer']} deals "
                  "first")
    if not isinstance(setup["muggins"], bool):
        _fail(where, f"table muggins must be true or false, got {setup['muggins']!r}")


def _side(game: Game, side: int) -> str:
    return f"side {side}" if game.partnerships else f"player {side}"


def _validate_deal(deal, at: str, dealer: int, scores: list[int], score_hand,
                   game: Game = STANDARD, partial: bool = False) -> int | None:
    """Check one deal, adding its points to ``scores`` (by side); the winning side if the game
    ends in it. ``partial``: the deal in progress when an unfinished game stopped, checked as
    far as it went."""
    from ..core.rules import HEELS_POINTS, JACK, MAX_COUNT

    n, sides, target = game.players, game.teams, game.target
    keys = _DEAL_KEYS if game == STANDARD else _DEAL_KEYS | {"pack"}
    if not isinstance(deal, dict):
        _fail(at, f"a deal must be a JSON object, got {type(deal).__name__}")
    if partial and "starter" not in deal:  # stopped at the discard
        keys = keys - {"starter", "heels", "plays", "show"}
    missing, extra = sorted(keys - deal.keys()), sorted(deal.keys() - keys - {"claims"})
    if missing or extra:
        _fail(at, "missing keys " + ", ".join(missing) if missing
              else "unknown keys " + ", ".join(extra))
    if _int(deal["dealer"], at, "dealer", 0, n - 1) != dealer:
        _fail(at, f"dealer is {deal['dealer']}, but the deal passes round: player {dealer} "
              "deals (it alternates between two)")
    first = (dealer + 1) % n
    hands = [_cards(h, game.dealt, at, f"hands[{p}]")
             for p, h in enumerate(_list(deal["hands"], n, at, "hands"))]
    discards = [_cards(d, 0 if partial and d == [] and "starter" not in deal else game.thrown,
                       at, f"discards[{p}]")
                for p, d in enumerate(_list(deal["discards"], n, at, "discards"))]
    pack = [] if game == STANDARD else _cards(deal["pack"], game.crib_from_pack, at, "pack")
    if "starter" not in deal:  # a partial deal stopped at the discard
        dealt = [c for hand in hands for c in hand] + pack
        if len(set(dealt)) != len(dealt):
            _fail(at, f"{next(format_card(c) for c in dealt if dealt.count(c) > 1)} is dealt "
                  "twice")
        for p in range(n):
            if discards[p] and not set(discards[p]) <= set(hands[p]):
                _fail(at, f"player {p} discards {' '.join(deal['discards'][p])}, not cards of "
                      "their hand")
        got = _scores(deal["scores"], at, "scores", sides)
        if got != scores:
            _fail(at, f"scores {got} are not the running totals {scores}")
        return None
    starter = _cards([deal["starter"]], 1, at, "starter")[0]
    dealt = [c for hand in hands for c in hand] + pack + [starter]
    if len(set(dealt)) != len(dealt):
        twice = next(format_card(c) for c in dealt if dealt.count(c) > 1)
        _fail(at, f"{twice} is dealt twice")
    for p in range(n):
        if len(set(discards[p])) != game.thrown or not set(discards[p]) <= set(hands[p]):
            _fail(at, f"player {p} discards {' '.join(deal['discards'][p])}, not "
                  f"{game.thrown} cards of their hand")
    kept = [[c for c in hands[p] if c not in discards[p]] for p in range(n)]

    def peg(player: int, points: int) -> bool:
        scores[player % sides] += points
        return scores[player % sides] >= target

    def check_scores() -> None:
        got = _scores(deal["scores"], at, "scores", sides)
        if not _agree(got, scores, target):
            _fail(at, f"scores {got} are not the running totals {_capped(scores, target)}")

    def ended(what: str) -> None:
        if what == "heels" and deal["plays"] != []:
            _fail(at, f"player {dealer} won on the heels, but cards are laid after")
        if deal["show"] != []:
            _fail(at, f"the game ended in the {what}, but the show is {deal['show']!r}")
        check_scores()

    heels = _int(deal["heels"], at, "heels", 0, HEELS_POINTS)
    expected = HEELS_POINTS if starter // 4 == JACK else 0
    if heels != expected:
        _fail(at, f"heels is {heels} with the starter {deal['starter']} (must be {expected})")
    if heels and peg(dealer, heels):
        ended("heels")
        return dealer % sides

    plays = deal["plays"]
    if not isinstance(plays, list):
        _fail(at, f"plays must be a list, got {plays!r}")
    laid = []  # (player, card, points) of each entry, checked for type first
    for k, entry in enumerate(plays):
        here = f"{at} play {k + 1}"
        if not isinstance(entry, list) or len(entry) != 3:
            _fail(here, f"must be [player, card, points], got {entry!r}")
        laid.append((_int(entry[0], here, "player", 0, n - 1),
                     _cards([entry[1]], 1, here, "card")[0],
                     _int(entry[2], here, "points", 0, 31)))
    left = [list(cards) for cards in kept]
    count: list[int] = []
    total = 0
    for k, (entry, (player, card, points)) in enumerate(zip(plays, laid, strict=True)):
        here = f"{at} play {k + 1}"
        if card not in left[player]:
            _fail(here, f"player {player} lays {entry[1]}, not a card they hold")
        if k == 0 and player != first:
            _fail(here, f"the player on the dealer's left (player {first}) lays the first card")
        left[player].remove(card)
        if total + _VALUES[card] > MAX_COUNT:
            count, total = [], 0  # the previous card ended the count with a go
        count.append(card)
        total += _VALUES[card]
        base = _count_points(tuple(c // 4 for c in count))
        last = k == len(plays) - 1
        # What follows this card: a 31 (no extra point), the last card of the play (1), a go
        # (the next card does not fit: 1), or the next card on the same count (0).
        if total == MAX_COUNT:
            bonus = (0,)
        elif not any(left):
            bonus = (1,)
        elif last and partial:  # the go is pegged once nobody can lay on this count
            stuck = not any(total + _VALUES[c] <= MAX_COUNT for h in left for c in h)
            bonus = (0, 1) if stuck else (0,)
        elif last and game.one_count:  # the single count ends with the go (or the game)
            stuck = not any(total + _VALUES[c] <= MAX_COUNT for h in left for c in h)
            wins = scores[player % sides] + base >= target
            bonus = (1,) if stuck and not wins else (0,) if wins else (0, 1)
        elif last:
            bonus = (0, 1)  # the game ends here (checked below)
        else:  # the next card fits on this count, or a go ended it
            bonus = (0,) if total + _VALUES[laid[k + 1][1]] <= MAX_COUNT else (1,)
        if game.one_count and not last and (total == MAX_COUNT or bonus == (1,)):
            _fail(here, f"the count ends at {total}, but cards are laid after it: the "
                  f"{game.name} play is one count")
        if points - base not in bonus:
            _fail(here, f"player {player} lays {entry[1]} making {_text(count)} "
                  f"(count {total}): pegs {points}, expected {base + bonus[0]}")
        if points - base == 1 and scores[player % sides] + base >= target and any(left):
            _fail(here, f"player {player} wins with {entry[1]} before any go: pegs {points}, "
                  f"expected {base}")
        if peg(player, points):
            if not last:
                _fail(here, f"player {player} reaches {scores[player % sides]} and wins, but "
                      "the play goes on")
            ended("play")
            return player % sides
    playable = [c for h in left for c in h if total + _VALUES[c] <= MAX_COUNT]
    show = deal["show"]
    if not isinstance(show, list) or len(show) > n + 1:
        _fail(at, f"show must be a list of at most {n + 1} counts, got {show!r}")
    if any(left) and not (game.one_count and (total == MAX_COUNT or not playable)):
        if partial and not show:  # stopped in the play
            check_scores()
            return None
        _fail(at, f"the play stops with {sum(map(len, left))} cards in hand, but nobody "
              f"reached {target}")
    claims = deal.get("claims")
    if claims is not None:
        if sides != 2:
            _fail(at, "claims (muggins) are made between two sides")
        _list(claims, len(show), at, "claims")
        for k, claim in enumerate(claims):
            if claim is not None:
                _int(claim, at, f"claims[{k}]", 0, 29)
    crib = [c for cards in discards for c in cards] + pack
    order = [(dealer + 1 + k) % n for k in range(n)]
    names = {first: "the pone's hand" if n == 2 else f"player {first}'s hand",
             dealer: "the dealer's hand"}
    counts = [(p, kept[p], False, names.get(p, f"player {p}'s hand")) for p in order]
    counts.append((dealer, crib, True, "the crib"))
    for k, (player, cards, is_crib, label) in enumerate(counts):
        if k >= len(show):
            if partial:  # stopped in the show
                break
            _fail(at, f"the show stops after {k} counts, but nobody reached {target}")
        got = _int(show[k], at, f"show[{k}]", 0, 29)
        right = score_hand(cards, starter, crib=is_crib,
                           variant="six-card" if is_crib else game.name)
        if got != right:
            _fail(at, f"{label} {_text(cards)} with {deal['starter']} counts "
                  f"{right}, recorded {got}")
        claim = None if claims is None else claims[k]
        taken = 0 if claim is None else max(got - claim, 0)  # muggins: to the other side
        for who, points in ((player, got if claim is None else min(claim, got)),
                            ((player + 1) % n, taken)):
            if points and peg(who, points):
                if k != len(show) - 1:
                    _fail(at, f"player {who} wins with {label}, but the show goes on")
                check_scores()
                return who % sides
    check_scores()
    return None


def _capped(scores: list[int], target: int) -> list[int]:
    """The scores as a game ends: a side that reaches the target scores the target (the game
    hole), whatever its winning count made past it."""
    return [min(s, target) for s in scores]


def _agree(got: list[int], scores: list[int], target: int) -> bool:
    """Whether recorded scores are the replayed ones: the winner's at the target, or (records
    written before the winner's score stopped at the target) with the winning count's points
    past it."""
    return got == _capped(scores, target) or got == scores


def _text(ids: list[int]) -> str:
    """Card ids as record text, e.g. ``5H 5S``."""
    return " ".join(format_card(c) for c in ids)


def format_game(record: dict) -> str:
    """A recorded game, deal by deal, counted out: the text of ``crib replay``.

    The record is checked first (:func:`validate_record`), so it prints only games that hold.
    """
    from ..core.scoring import count_hand, say_count

    validate_record(record)
    game = record_form(record)
    n = game.players
    tiers = record["skunk"] if isinstance(record["skunk"], list) else [record["skunk"]]
    skunk = max(tiers)
    form = "" if game == STANDARD else f" ({game.name}"
    form += ", partners 0 and 2 against 1 and 3)" if game.partnerships else ")" if form else ""
    if record.get("unfinished", False):
        outcome = "stopped unfinished at " + "-".join(map(str, record["scores"]))
    else:
        outcome = (f"{_side(game, record['winner'])} wins " + "-".join(map(str, record["scores"]))
                   + ("" if not skunk
                      else f" ({('skunk', 'double skunk', 'triple skunk')[skunk - 1]})"))
    lines = [f"game {record['game']}{form}: player {record['first_dealer']} deals first; "
             f"{outcome}"]
    if "seats" in record:
        lines.append("seats: " + ", ".join(f"player {p} {name}"
                                           for p, name in enumerate(record["seats"])))
    if record.get("undos"):
        undos = record["undos"]
        lines.append(f"{undos} decision{'s' if undos > 1 else ''} taken back (undo)")
    for side, points in enumerate(record.get("start", [])):
        if points:
            lines.append(f"{_side(game, side)} pegs {points} before the first deal (three for "
                         "last)")
    deals = record["deals"] + ([record["partial_deal"]] if "partial_deal" in record else [])
    for k, deal in enumerate(deals, start=1):
        dealer = deal["dealer"]
        order = [(dealer + 1 + j) % n for j in range(n)]  # the dealer's left first, dealer last
        stopped = "partial_deal" in record and k == len(deals)
        lines.append("")
        lines.append(f"deal {k}: player {dealer} deals"
                     + ("; the game stopped in this deal" if stopped else ""))
        hidden = _hidden_seats(record) if stopped else set()
        for p in order:
            role = POSITIONS[n][(p - dealer) % n]
            if p in hidden:  # the person may resume: the others' cards are not shown yet
                n_thrown = len(deal["discards"][p])
                thrown = ("a card" if n_thrown == 1 else f"{n_thrown} cards" if n_thrown
                          else "nothing yet")
                lines.append(f"  player {p} ({role}) holds {len(deal['hands'][p])} cards, "
                             f"unseen, throws {thrown}")
                continue
            thrown = " ".join(deal["discards"][p]) or "nothing yet"
            lines.append(f"  player {p} ({role}) holds {' '.join(deal['hands'][p])}, throws "
                         f"{thrown}")
        if hidden:
            lines.append("  (cards not yet seen at the table are left out: the game may be "
                         "resumed)")
        pack = deal.get("pack", [])
        if pack and not hidden:
            lines.append(f"  the pack gives the crib {' '.join(pack)}")
        elif pack:
            lines.append("  the pack gives the crib a card, unseen")
        if "starter" not in deal:  # stopped at the discard
            lines.append(f"  {_scores_label(game)} {'-'.join(map(str, deal['scores']))}")
            continue
        lines.append(f"  starter {deal['starter']}"
                     + (f": his heels, 2 to player {dealer}" if deal["heels"] else ""))
        count = 0
        for who, card, pts in deal["plays"]:
            value = card_value(int(parse_cards(card)[0]))
            if count + value > 31:
                count = 0
            count += value
            lines.append(f"    player {who} lays {card}  count {count:2d}"
                         + (f"  pegs {pts}" if pts else ""))
            if count == 31:
                count = 0
        kept = [[c for c in deal["hands"][p] if c not in deal["discards"][p]] for p in range(n)]
        crib = [c for cards in deal["discards"] for c in cards] + pack
        shows = [(f"player {p} ({POSITIONS[n][(p - dealer) % n]}) hand", kept[p], False)
                 for p in order]
        shows.append((f"player {dealer} crib", crib, True))
        claims = deal.get("claims") or [None] * len(deal["show"])
        for (label, cards, is_crib), points, claim in zip(shows, deal["show"], claims,
                                                          strict=False):
            said = say_count(count_hand(" ".join(cards), deal["starter"], crib=is_crib,
                                        variant="six-card" if is_crib else game.name))
            line = f"  {label} {' '.join(cards)}: {points}  ({said})"
            if len(line) <= _WIDTH:
                lines.append(line)
            else:  # within the width: the count said goes under its hand, indented
                lines.append(f"  {label} {' '.join(cards)}: {points}")
                lines.extend(textwrap.wrap(f"({said})", width=_WIDTH, initial_indent=" " * 6,
                                           subsequent_indent=" " * 6, break_on_hyphens=False))
            if claim is not None and claim < points:
                lines.append(f"    claimed {claim}: muggins, the other side takes "
                             f"{points - claim}")
            elif claim is not None:
                lines.append(f"    claimed {claim}" + (f", corrected to {points}"
                                                       if claim > points else ""))
        lines.append(f"  {_scores_label(game)} {'-'.join(map(str, deal['scores']))}")
    return "\n".join(lines)


def _hidden_seats(record: dict) -> set[int]:
    """The seats whose cards a replay of a stopped game's last deal leaves unseen: all but the
    person's (the game may be resumed, and the person would see them before the show); none
    in a game with no person."""
    seats = record.get("seats") or []
    if PERSON not in seats:
        return set()
    return {p for p, name in enumerate(seats) if name != PERSON}


#: The columns a replay's line takes at most (a long count said is wrapped under its hand).
_WIDTH = 80


def _scores_label(game: Game) -> str:
    """What the scores of a deal are called in a replay: by side with partners."""
    return "sides" if game.partnerships else "scores"
