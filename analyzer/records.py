"""Game records (format v1, JSON Lines) and their replay, counted out.

One game a line::

    {"format": 1, "game": 0, "first_dealer": 0|1, "winner": 0|1, "scores": [a, b],
     "skunk": 0..3, "deals": [DEAL, ...]}

    DEAL = {"dealer": 0|1, "hands": [[six of player 0], [six of player 1]],
            "discards": [[two], [two]], "starter": "JD", "heels": 0|2,
            "plays": [[player, card, points], ...], "show": [pone hand, dealer hand, crib],
            "scores": [a, b]}

Cards are written as :func:`analyzer.cards.format_card` writes them. ``plays`` lists every card
laid, in order; its points are all that card pegged, the go or last-card point included. When the
game ends inside a deal, that deal's ``plays`` and ``show`` stop at the winning moment, and
``scores`` are the totals after the deal or at the winning moment. A game longer than the
recorded deals (128) carries ``"truncated": true``.

:func:`read_records` checks what it reads (:func:`validate_record`): the format version, the
structure, and everything the cards decide, re-scored with the package's own scoring: the heels,
each card's pegging points (with at most the go or last-card point, due exactly when the count
resets or the play ends), the show counts, the running scores, the winner and the skunk. A record
that contradicts its cards is refused with the first inconsistency.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .cards import RANKS, SUITS, card_value, format_card, parse_cards
from .engine import DEAL, GAME_RECORD, MAX_RECORDED_DEALS, PLAY
from .files import atomic_write_text
from .game import MAX_DEALT, MAX_THROWN, STANDARD, Game

__all__ = ["FORMAT", "RecordError", "format_game", "game_records", "read_records",
           "validate_record", "write_records"]

FORMAT = 1


class RecordError(ValueError):
    """A records file that cannot be read, or a game that is not in it."""


def game_records(rec_games: np.ndarray, rec_deals: np.ndarray, game: Game = STANDARD
                 ) -> list[dict]:
    """Turn the engine's record arrays into format-v1 dicts (game ``i`` is row ``i``).

    ``rec_games`` int64 (n, GAME_RECORD.size) and ``rec_deals`` int16 (n, MAX_RECORDED_DEALS,
    DEAL.size), laid out as :mod:`analyzer.engine` writes them.
    """
    seats = range(game.players)
    out = []
    for i, (header, deals) in enumerate(zip(rec_games.tolist(), rec_deals, strict=True)):
        n_deals = header[GAME_RECORD.deals]
        scores = header[GAME_RECORD.scores:GAME_RECORD.scores + game.players]
        record = {"format": FORMAT, "game": i, "first_dealer": header[GAME_RECORD.first_dealer],
                  "winner": header[GAME_RECORD.winner], "scores": scores,
                  "skunk": header[GAME_RECORD.skunk], "deals": []}
        if n_deals > MAX_RECORDED_DEALS:
            record["truncated"] = True
        for row in deals[: min(n_deals, MAX_RECORDED_DEALS)].tolist():
            n_plays, n_show = row[DEAL.n_plays], row[DEAL.n_show]
            plays = [row[DEAL.plays + PLAY.size * k: DEAL.plays + PLAY.size * (k + 1)]
                     for k in range(n_plays)]
            hands = [row[DEAL.hands + MAX_DEALT * p: DEAL.hands + MAX_DEALT * p + game.dealt]
                     for p in seats]
            thrown = [row[DEAL.discards + MAX_THROWN * p:
                          DEAL.discards + MAX_THROWN * p + game.thrown] for p in seats]
            record["deals"].append({
                "dealer": row[DEAL.dealer],
                "hands": [[format_card(c) for c in hand] for hand in hands],
                "discards": [[format_card(c) for c in cards] for cards in thrown],
                "starter": format_card(row[DEAL.starter]),
                "heels": row[DEAL.heels],
                "plays": [[p[PLAY.player], format_card(p[PLAY.card]), p[PLAY.points]]
                          for p in plays],
                "show": row[DEAL.show: DEAL.show + n_show],
                "scores": row[DEAL.scores: DEAL.scores + game.players],
            })
        out.append(record)
    return out


def write_records(path: str | Path, records: list[dict]) -> None:
    """Write records as JSON Lines, atomically."""
    atomic_write_text(path, "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records))


def read_records(path: str | Path, validate: bool = True) -> list[dict]:
    """Read a JSON Lines records file (UTF-8), checking every game (:func:`validate_record`).

    :class:`RecordError` names the file, the line and the first thing wrong: bytes that are not
    UTF-8 text, a line that is not JSON, a record of another format, a game number seen twice, or
    a game that contradicts its cards.
    """
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        kind = " (gzip-compressed?)" if data[:2] == b"\x1f\x8b" else ""
        raise RecordError(f"{path}: not UTF-8 text{kind}: byte {exc.start} is "
                          f"{data[exc.start]:#04x}") from None
    records = []
    seen: set[int] = set()
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (json.JSONDecodeError, RecursionError) as exc:
            why = exc.msg if isinstance(exc, json.JSONDecodeError) else "nested too deeply"
            raise RecordError(f"{path}:{n}: not JSON ({why})") from None
        if not isinstance(record, dict) or "deals" not in record:
            raise RecordError(f"{path}:{n}: not a game record")
        if validate:
            try:
                validate_record(record)
            except RecordError as exc:
                raise RecordError(f"{path}:{n}: {exc}") from None
            if record["game"] in seen:
                raise RecordError(f"{path}:{n}: game {record['game']} is recorded twice")
            seen.add(record["game"])
        records.append(record)
    return records


# --------------------------------------------------------------------------- validation

_CARD_IDS = {r + s: 4 * i + j for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}
_GAME_KEYS = {"format", "game", "first_dealer", "winner", "scores", "skunk", "deals"}
_DEAL_KEYS = {"dealer", "hands", "discards", "starter", "heels", "plays", "show", "scores"}


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


def _pair(x, where: str, what: str) -> list:
    if not isinstance(x, list) or len(x) != 2:
        _fail(where, f"{what} must be a list of two, got {x!r}")
    return x


def _scores(x, where: str, what: str) -> list[int]:
    return [_int(v, where, f"{what}[{p}]") for p, v in enumerate(_pair(x, where, what))]


def validate_record(record: dict) -> None:
    """Raise :class:`RecordError` at the first thing wrong with one game record (format v1).

    Checks the keys and types, that the cards are cards (13 distinct ones dealt each deal, two
    hands of six, two discards of two from each hand), and re-scores the game with
    :func:`analyzer.score_hand` and :func:`analyzer.peg_points`: the heels, every card laid (its
    points those of :func:`~analyzer.peg_points`, plus 1 exactly for a go or the last card),
    every show count, the deal and game scores, the winner and the skunk. The message names the
    game and deal.

    Examples
    --------
    >>> from analyzer import simulate
    >>> validate_record(simulate(5, seed=1, record_games=1).records[0])  # no error
    """
    from .rules import GAME_POINTS
    from .scoring import score_hand

    if not isinstance(record, dict):
        _fail("record", f"must be a JSON object, got {type(record).__name__}")
    if "format" in record and (type(record["format"]) is not int or record["format"] != FORMAT):
        _fail("record", f"format {record['format']!r} is not known (this version reads "
              f"format {FORMAT})")
    missing = sorted(_GAME_KEYS - record.keys())
    extra = sorted(record.keys() - _GAME_KEYS - {"truncated"})
    if missing or extra:
        _fail("record", "missing keys " + ", ".join(missing) if missing
              else "unknown keys " + ", ".join(extra))
    game = _int(record["game"], "record", "game", 0, 2**63 - 1)
    where = f"game {game}"
    first_dealer = _int(record["first_dealer"], where, "first_dealer", 0, 1)
    truncated = record.get("truncated", False)
    if truncated is not False and truncated is not True:
        _fail(where, f"truncated must be true or false, got {truncated!r}")
    deals = record["deals"]
    if not isinstance(deals, list) or not deals:
        _fail(where, "deals must be a non-empty list")
    scores = [0, 0]
    winner = None
    for k, deal in enumerate(deals, start=1):
        at = f"{where} deal {k}"
        if winner is not None:
            _fail(at, f"player {winner} already won in deal {k - 1}")
        winner = _validate_deal(deal, at, (first_dealer + k - 1) % 2, scores, score_hand)
    if winner is None and not truncated:
        _fail(where, f"nobody reaches {GAME_POINTS} (scores {scores[0]}-{scores[1]})")
    got = _scores(record["scores"], where, "scores")
    if got != scores:
        _fail(where, f"scores {got} are not the final scores {scores}")
    recorded_winner = _int(record["winner"], where, "winner", 0, 1)
    if winner is not None and recorded_winner != winner:
        _fail(where, f"winner is {recorded_winner}, but player {winner} reached {GAME_POINTS}")
    skunk = _int(record["skunk"], where, "skunk", 0, 3)
    if winner is not None:
        from .rules import DOUBLE_SKUNK_LINE, SKUNK_LINE, TRIPLE_SKUNK_LINE

        loser = scores[1 - winner]
        tier = sum(loser < line for line in (SKUNK_LINE, DOUBLE_SKUNK_LINE, TRIPLE_SKUNK_LINE))
        if skunk != tier:
            _fail(where, f"skunk is {skunk}, but the loser has {loser} (skunk {tier})")


def _validate_deal(deal, at: str, dealer: int, scores: list[int], score_hand) -> int | None:
    """Check one deal, adding its points to ``scores``; the winner if the game ends in it."""
    from .rules import GAME_POINTS, HEELS_POINTS, JACK, MAX_COUNT
    from .scoring import peg_points

    if not isinstance(deal, dict):
        _fail(at, f"a deal must be a JSON object, got {type(deal).__name__}")
    missing, extra = sorted(_DEAL_KEYS - deal.keys()), sorted(deal.keys() - _DEAL_KEYS)
    if missing or extra:
        _fail(at, "missing keys " + ", ".join(missing) if missing
              else "unknown keys " + ", ".join(extra))
    if _int(deal["dealer"], at, "dealer", 0, 1) != dealer:
        _fail(at, f"dealer is {deal['dealer']}, but the deal alternates: player {dealer} deals")
    pone = 1 - dealer
    hands = [_cards(h, 6, at, f"hands[{p}]") for p, h in enumerate(_pair(deal["hands"], at,
                                                                          "hands"))]
    discards = [_cards(d, 2, at, f"discards[{p}]")
                for p, d in enumerate(_pair(deal["discards"], at, "discards"))]
    starter = _cards([deal["starter"]], 1, at, "starter")[0]
    dealt = [*hands[0], *hands[1], starter]
    if len(set(dealt)) != 13:
        twice = next(format_card(c) for c in dealt if dealt.count(c) > 1)
        _fail(at, f"{twice} is dealt twice")
    for p in (0, 1):
        if discards[p][0] == discards[p][1] or not set(discards[p]) <= set(hands[p]):
            _fail(at, f"player {p} discards {' '.join(deal['discards'][p])}, not two cards of "
                  f"their hand")
    kept = [[c for c in hands[p] if c not in discards[p]] for p in (0, 1)]

    def peg(player: int, points: int) -> bool:
        scores[player] += points
        return scores[player] >= GAME_POINTS

    def check_scores() -> None:
        got = _scores(deal["scores"], at, "scores")
        if got != scores:
            _fail(at, f"scores {got} are not the running totals {scores}")

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
        return dealer

    plays = deal["plays"]
    if not isinstance(plays, list):
        _fail(at, f"plays must be a list, got {plays!r}")
    laid = []  # (player, card, points) of each entry, checked for type first
    for n, entry in enumerate(plays):
        here = f"{at} play {n + 1}"
        if not isinstance(entry, list) or len(entry) != 3:
            _fail(here, f"must be [player, card, points], got {entry!r}")
        laid.append((_int(entry[0], here, "player", 0, 1),
                     _cards([entry[1]], 1, here, "card")[0],
                     _int(entry[2], here, "points", 0, 31)))
    left = [list(kept[0]), list(kept[1])]
    count: list[int] = []
    total = 0
    for n, (entry, (player, card, points)) in enumerate(zip(plays, laid, strict=True)):
        here = f"{at} play {n + 1}"
        if card not in left[player]:
            _fail(here, f"player {player} lays {entry[1]}, not a card they hold")
        if n == 0 and player != pone:
            _fail(here, f"the pone (player {pone}) lays the first card")
        left[player].remove(card)
        if total + card_value(card) > MAX_COUNT:
            count, total = [], 0  # the previous card ended the count with a go
        count.append(card)
        total += card_value(card)
        base = peg_points(count)
        last = n == len(plays) - 1
        # What follows this card: a 31 (no extra point), the last card of the play (1), a go
        # (the next card does not fit: 1), or the next card on the same count (0).
        if total == MAX_COUNT:
            bonus = (0,)
        elif not left[0] and not left[1]:
            bonus = (1,)
        elif last:
            bonus = (0, 1)  # the game ends here (checked below)
        else:  # the next card fits on this count, or a go ended it
            bonus = (0,) if total + card_value(laid[n + 1][1]) <= MAX_COUNT else (1,)
        if points - base not in bonus:
            _fail(here, f"player {player} lays {entry[1]} making {_text(count)} "
                  f"(count {total}): pegs {points}, expected {base + bonus[0]}")
        if points - base == 1 and scores[player] + base >= GAME_POINTS and left[0] + left[1]:
            _fail(here, f"player {player} wins with {entry[1]} before any go: pegs {points}, "
                  f"expected {base}")
        if peg(player, points):
            if not last:
                _fail(here, f"player {player} reaches {scores[player]} and wins, but the play "
                      "goes on")
            ended("play")
            return player
    if left[0] or left[1]:
        _fail(at, f"the play stops with {len(left[0]) + len(left[1])} cards in hand, but "
              f"nobody reached {GAME_POINTS}")

    show = deal["show"]
    if not isinstance(show, list) or len(show) > 3:
        _fail(at, f"show must be a list of at most three counts, got {show!r}")
    crib = [*discards[0], *discards[1]]
    counts = ((pone, kept[pone], False, "the pone's hand"),
              (dealer, kept[dealer], False, "the dealer's hand"),
              (dealer, crib, True, "the crib"))
    for k, (player, cards, is_crib, label) in enumerate(counts):
        if k >= len(show):
            _fail(at, f"the show stops after {k} counts, but nobody reached {GAME_POINTS}")
        got = _int(show[k], at, f"show[{k}]", 0, 29)
        right = score_hand(cards, starter, crib=is_crib)
        if got != right:
            _fail(at, f"{label} {_text(cards)} with {deal['starter']} counts "
                  f"{right}, recorded {got}")
        if peg(player, got):
            if k != len(show) - 1:
                _fail(at, f"player {player} wins with {label}, but the show goes on")
            check_scores()
            return player
    check_scores()
    return None


def _text(ids: list[int]) -> str:
    """Card ids as record text, e.g. ``5H 5S``."""
    return " ".join(format_card(c) for c in ids)


def format_game(record: dict) -> str:
    """A recorded game, deal by deal, counted out: the text of ``crib replay``."""
    from .scoring import count_hand, say_count

    lines = [
        f"game {record['game']}: player {record['first_dealer']} deals first; player "
        f"{record['winner']} wins {record['scores'][0]}-{record['scores'][1]}"
        + ("" if not record["skunk"] else
           f" ({('skunk', 'double skunk', 'triple skunk')[record['skunk'] - 1]})")
    ]
    for k, deal in enumerate(record["deals"], start=1):
        dealer = deal["dealer"]
        pone = 1 - dealer
        lines.append("")
        lines.append(f"deal {k}: player {dealer} deals")
        for p in (pone, dealer):
            role = "dealer" if p == dealer else "pone"
            lines.append(f"  player {p} ({role}) holds {' '.join(deal['hands'][p])}, throws "
                         f"{' '.join(deal['discards'][p])}")
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
        kept = [
            [c for c in deal["hands"][p] if c not in deal["discards"][p]] for p in (0, 1)
        ]
        crib = deal["discards"][0] + deal["discards"][1]
        shows = [(f"player {pone} (pone) hand", kept[pone], False),
                 (f"player {dealer} (dealer) hand", kept[dealer], False),
                 (f"player {dealer} crib", crib, True)]
        for (label, cards, is_crib), points in zip(shows, deal["show"], strict=False):
            said = say_count(count_hand(" ".join(cards), deal["starter"], crib=is_crib))
            lines.append(f"  {label} {' '.join(cards)}: {points}  ({said})")
        lines.append(f"  scores {deal['scores'][0]}-{deal['scores'][1]}")
    return "\n".join(lines)
