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
``scores`` are the totals after the deal or at the winning moment.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .cards import card_value, format_card, parse_cards
from .engine import DEAL, GAME_RECORD, MAX_RECORDED_DEALS, PLAY
from .files import atomic_write_text
from .game import MAX_DEALT, MAX_THROWN, STANDARD, Game

__all__ = ["FORMAT", "RecordError", "format_game", "game_records", "read_records",
           "write_records"]

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


def read_records(path: str | Path) -> list[dict]:
    """Read a JSON Lines records file; :class:`RecordError` names the line that cannot be read."""
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as exc:
        raise RecordError(f"cannot read {path}: {exc.strerror or exc}") from None
    records = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}:{n}: not JSON ({exc.msg})") from None
        if not isinstance(record, dict) or "deals" not in record:
            raise RecordError(f"{path}:{n}: not a game record")
        records.append(record)
    return records


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
