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

from .cards import format_card, parse_cards
from .engine import (
    F_DEALER,
    F_DISCARDS,
    F_HANDS,
    F_HEELS,
    F_NPLAYS,
    F_NSHOW,
    F_PLAYS,
    F_SCORES,
    F_SHOW,
    F_STARTER,
    MAX_RECORDED_DEALS,
)
from .files import atomic_write_text

__all__ = ["FORMAT", "RecordError", "format_game", "game_records", "read_records",
           "write_records"]

FORMAT = 1


class RecordError(ValueError):
    """A records file that cannot be read, or a game that is not in it."""


def game_records(rec_games: np.ndarray, rec_deals: np.ndarray) -> list[dict]:
    """Turn the engine's record arrays into format-v1 dicts (game ``i`` is row ``i``)."""
    out = []
    for i, (header, deals) in enumerate(zip(rec_games.tolist(), rec_deals, strict=True)):
        first_dealer, winner, s0, s1, skunk, n_deals = header
        game = {"format": FORMAT, "game": i, "first_dealer": first_dealer, "winner": winner,
                "scores": [s0, s1], "skunk": skunk, "deals": []}
        if n_deals > MAX_RECORDED_DEALS:
            game["truncated"] = True
        for row in deals[: min(n_deals, MAX_RECORDED_DEALS)].tolist():
            n_plays, n_show = row[F_NPLAYS], row[F_NSHOW]
            plays = [row[F_PLAYS + 3 * k: F_PLAYS + 3 * k + 3] for k in range(n_plays)]
            game["deals"].append({
                "dealer": row[F_DEALER],
                "hands": [[format_card(c) for c in row[F_HANDS + 6 * p: F_HANDS + 6 * p + 6]]
                          for p in (0, 1)],
                "discards": [[format_card(c) for c in row[F_DISCARDS + 2 * p:
                                                         F_DISCARDS + 2 * p + 2]]
                             for p in (0, 1)],
                "starter": format_card(row[F_STARTER]),
                "heels": row[F_HEELS],
                "plays": [[p, format_card(c), pts] for p, c, pts in plays],
                "show": row[F_SHOW: F_SHOW + n_show],
                "scores": row[F_SCORES: F_SCORES + 2],
            })
        out.append(game)
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
            value = min(parse_cards(card)[0] // 4 + 1, 10)
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
