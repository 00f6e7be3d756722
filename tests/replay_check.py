"""Independent plain-Python verifier of recorded games (record format v1, JSON Lines).

Re-scores every deal of a recorded game from the dealt cards, the discards, the starter and the
order in which cards were laid, using only the naive oracle in ``naive.py`` (no ``analyzer`` code).
``check_game`` raises ``AssertionError`` at the first inconsistency; ``check_file`` checks a file.

A record (one line of the file)::

    {"game": 0, "first_dealer": 0|1, "winner": 0|1, "scores": [a, b], "skunk": 0..3,
     "deals": [DEAL, ...]}
    DEAL = {"dealer": 0|1, "hands": [[6 cards], [6 cards]], "discards": [[2], [2]],
            "starter": "JD", "heels": 0|2, "plays": [[player, card, points], ...],
            "show": [pone, dealer, crib], "scores": [a, b]}

Cards are written ``5H``, ``TD``, ``AS`` (rank from ``A23456789TJQK``, suit from ``CDHS``). The
points of a play entry are everything that card pegged, the go or last-card point included. A game
stops at the first moment a player reaches 121: the heels, a card laid (with its last-card point,
which is part of laying the last card; but a go point is due only after the card, so when the
card's own points win no go point follows), a go point, or one count of the show; nothing of the
deal after that moment is recorded. An optional ``"format": 1`` key is accepted.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from naive import JACK, RANKS, SUITS, naive_peg_points, naive_score, name, rank, value

WIN = 121
GAME_KEYS = {"game", "first_dealer", "winner", "scores", "skunk", "deals"}
OPTIONAL_GAME_KEYS = {"format": 1}
DEAL_KEYS = {"dealer", "hands", "discards", "starter", "heels", "plays", "show", "scores"}
_CARD = re.compile(r"[A2-9TJQK][CDHS]")


def skunk_tier(loser_score: int) -> int:
    """3 if the loser has under 31, 2 if under 61, 1 if under 91, else 0."""
    if loser_score < 31:
        return 3
    if loser_score < 61:
        return 2
    if loser_score < 91:
        return 1
    return 0


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise AssertionError(message)


def _int(x: Any, what: str) -> int:
    _require(isinstance(x, int) and not isinstance(x, bool), f"{what} must be an int, got {x!r}")
    return x


def _player(x: Any, what: str) -> int:
    _require(_int(x, what) in (0, 1), f"{what} must be 0 or 1, got {x!r}")
    return x


def _card(x: Any, what: str) -> int:
    _require(
        isinstance(x, str) and _CARD.fullmatch(x) is not None,
        f"{what} must be a card like '5H' or 'TD', got {x!r}",
    )
    return RANKS.index(x[0]) * 4 + SUITS.index(x[1])


def _cards(x: Any, n: int, what: str) -> list[int]:
    _require(isinstance(x, list) and len(x) == n, f"{what} must be a list of {n} cards, got {x!r}")
    return [_card(c, f"{what}[{i}]") for i, c in enumerate(x)]


def _pair_list(x: Any, what: str) -> list[Any]:
    _require(isinstance(x, list) and len(x) == 2, f"{what} must be a list of two, got {x!r}")
    return x


def _names(cs: Sequence[int]) -> str:
    return " ".join(name(c) for c in cs) or "-"


class _Deal:
    """Checks one deal, adding its points to the running ``scores`` (mutated in place)."""

    def __init__(self, where: str, deal: Any, dealer: int, scores: list[int]) -> None:
        self.where = where
        self.deal = deal
        self.dealer = dealer
        self.pone = 1 - dealer
        self.scores = scores

    def fail(self, message: str) -> None:
        raise AssertionError(f"{self.where}: {message}")

    def require(self, ok: bool, message: str) -> None:
        if not ok:
            self.fail(message)

    def peg(self, player: int, points: int) -> bool:
        """Add points; True when this reaches 121 (the game is over at once, the winner's peg
        in the game hole: nothing past 121 is scored)."""
        self.scores[player] = min(self.scores[player] + points, WIN)
        return self.scores[player] >= WIN

    # --- the whole deal ------------------------------------------------------------------------

    def check(self) -> int | None:
        """Check the deal; returns the winner if the game ended in it, else None."""
        deal = self.deal
        self.require(isinstance(deal, dict), f"a deal must be an object, got {type(deal).__name__}")
        missing, extra = DEAL_KEYS - deal.keys(), deal.keys() - DEAL_KEYS
        self.require(not missing and not extra, f"deal keys: missing {missing}, unknown {extra}")
        got_dealer = _player(deal["dealer"], f"{self.where}: dealer")
        self.require(
            got_dealer == self.dealer,
            f"dealer is {got_dealer}, expected {self.dealer} "
            "(the deal alternates from first_dealer)",
        )
        self.check_cards()
        winner = self.check_heels()
        if winner is None:
            winner = self.check_play()
        if winner is None:
            winner = self.check_show()
        else:
            self.require(
                deal["show"] == [],
                f"the game ended before the show, which must be [], got {deal['show']!r}",
            )
        got = _pair_list(deal["scores"], f"{self.where}: scores")
        self.require(got == self.scores, f"deal scores {got} != running totals {self.scores}")
        return winner

    def check_cards(self) -> None:
        deal = self.deal
        hands = _pair_list(deal["hands"], f"{self.where}: hands")
        discards = _pair_list(deal["discards"], f"{self.where}: discards")
        self.hands = [_cards(hands[p], 6, f"{self.where}: hands[{p}]") for p in (0, 1)]
        self.discards = [_cards(discards[p], 2, f"{self.where}: discards[{p}]") for p in (0, 1)]
        self.starter = _card(deal["starter"], f"{self.where}: starter")
        dealt = [*self.hands[0], *self.hands[1], self.starter]
        self.require(
            len(set(dealt)) == 13,
            f"the 12 dealt cards and the starter are not 13 distinct cards: {_names(dealt)}",
        )
        for p in (0, 1):
            d = self.discards[p]
            self.require(d[0] != d[1], f"player {p} discards the same card twice: {_names(d)}")
            self.require(
                set(d) <= set(self.hands[p]),
                f"player {p} discards {_names(d)}, not 2 of their hand {_names(self.hands[p])}",
            )
        self.kept = [[c for c in self.hands[p] if c not in self.discards[p]] for p in (0, 1)]
        self.crib = [*self.discards[0], *self.discards[1]]

    def check_heels(self) -> int | None:
        heels = _int(self.deal["heels"], f"{self.where}: heels")
        jack = rank(self.starter) == JACK
        self.require(
            heels == (2 if jack else 0),
            f"heels is {heels} with starter {name(self.starter)}: "
            f"must be 2 exactly when the starter is a Jack",
        )
        if heels and self.peg(self.dealer, 2):
            self.require(
                self.deal["plays"] == [],
                f"the dealer won on his heels, so plays must be [], got {self.deal['plays']!r}",
            )
            return self.dealer
        return None

    # --- the play ------------------------------------------------------------------------------

    def check_play(self) -> int | None:
        plays = self.deal["plays"]
        self.require(isinstance(plays, list), f"plays must be a list, got {plays!r}")
        left = [list(self.kept[0]), list(self.kept[1])]
        laid: set[int] = set()
        count: list[int] = []
        total = 0
        turn: int | None = self.pone  # who must lay the next card (None: the play is over)
        leader = True  # the next card leads a new count

        def can(p: int) -> list[int]:
            return [c for c in left[p] if total + value(c) <= 31]

        for n, entry in enumerate(plays):
            at = f"play entry {n} {entry!r}"
            self.require(
                isinstance(entry, list) and len(entry) == 3, f"{at} must be [player, card, points]"
            )
            player = _player(entry[0], f"{self.where}: {at}: player")
            c = _card(entry[1], f"{self.where}: {at}: card")
            points = _int(entry[2], f"{self.where}: {at}: points")
            self.require(turn is not None, f"{at}: all 8 cards were already laid")
            self.require(c not in laid, f"{at}: {name(c)} was already laid")
            if c in self.discards[player]:
                self.fail(f"{at}: {name(c)} was discarded to the crib by player {player}")
            self.require(
                c in self.kept[player],
                f"{at}: {name(c)} is not in player {player}'s kept hand "
                f"{_names(self.kept[player])}",
            )
            self.require(
                total + value(c) <= 31, f"{at}: {name(c)} takes the count from {total} past 31"
            )
            if player != turn:
                if n == 0:
                    self.fail(f"{at}: the pone (player {self.pone}) lays the first card")
                if leader:
                    self.fail(f"{at}: player {turn} leads the new count")
                self.fail(
                    f"{at}: player {turn} holds {_names(can(turn))} playable at count "
                    f"{total} and may not say go"
                )
            left[player].remove(c)
            laid.add(c)
            count.append(c)
            total += value(c)
            card_points = naive_peg_points(count)
            seq = f"{_names(count)} (count {total})"
            # what follows at once: a 31, the last card, a go point, or the next player
            other = 1 - player
            bonus, why = 0, ""
            if total == 31:
                count, total, leader = [], 0, True
                turn = other if left[other] else (player if left[player] else None)
            elif not left[0] and not left[1]:
                bonus, why, turn = 1, " + 1 for the last card", None
            elif not can(other) and not can(player):
                bonus, why = 1, " + 1 for the go"
                count, total, leader = [], 0, True
                turn = other if left[other] else player
            else:
                leader = False
                turn = other if can(other) else player
            if turn is not None and self.scores[player] + card_points >= WIN:
                # the card itself wins before the opponent can say go: no go point is due
                bonus, why = 0, " (the card wins the game at once, before any go)"
            expected = card_points + bonus
            self.require(
                points == expected,
                f"{at}: player {player} laid {name(c)} making {seq}; "
                f"recorded {points} points, expected {card_points} for the card{why}",
            )
            if self.peg(player, points):
                self.require(
                    n == len(plays) - 1,
                    f"{at}: player {player} reached {self.scores[player]} and won, "
                    f"but {len(plays) - n - 1} more play entries follow",
                )
                return player
        self.require(
            len(laid) == 8,
            f"the play stops after {len(laid)} of 8 cards, but nobody reached {WIN} "
            f"(scores {self.scores})",
        )
        return None

    # --- the show ------------------------------------------------------------------------------

    def check_show(self) -> int | None:
        show = self.deal["show"]
        self.require(
            isinstance(show, list) and len(show) <= 3,
            f"show must be a list of at most 3 counts, got {show!r}",
        )
        counts = [
            (self.pone, self.kept[self.pone], False, "the pone's hand"),
            (self.dealer, self.kept[self.dealer], False, "the dealer's hand"),
            (self.dealer, self.crib, True, "the crib"),
        ]
        for k, (player, four, is_crib, label) in enumerate(counts):
            self.require(
                k < len(show),
                f"the show stops after {k} counts, but nobody reached {WIN} (scores {self.scores})",
            )
            got = _int(show[k], f"{self.where}: show[{k}]")
            expected = naive_score(four, self.starter, crib=is_crib)
            self.require(
                got == expected,
                f"show[{k}] ({label} {_names(four)}, starter {name(self.starter)}) "
                f"is {got}, expected {expected}",
            )
            if self.peg(player, got):
                self.require(
                    k == len(show) - 1,
                    f"player {player} won with show[{k}] ({label}), but the show goes on: {show!r}",
                )
                return player
        return None


def check_game(record: dict) -> None:
    """Raise AssertionError at the first inconsistency of one recorded game (format v1)."""
    _require(isinstance(record, dict), f"a record must be an object, got {type(record).__name__}")
    missing = GAME_KEYS - record.keys()
    extra = record.keys() - GAME_KEYS - OPTIONAL_GAME_KEYS.keys()
    _require(not missing and not extra, f"record keys: missing {missing}, unknown {extra}")
    for key, want in OPTIONAL_GAME_KEYS.items():
        _require(record.get(key, want) == want, f"{key} is {record.get(key)!r}, expected {want!r}")
    where = f"game {record['game']!r}"
    _int(record["game"], f"{where}: game")
    first_dealer = _player(record["first_dealer"], f"{where}: first_dealer")
    deals = record["deals"]
    _require(isinstance(deals, list) and deals, f"{where}: deals must be a non-empty list")
    scores = [0, 0]
    winner = None
    for i, deal in enumerate(deals):
        _require(
            winner is None,
            f"{where} deal {i}: player {winner} already won in deal {i - 1}; no deal may follow",
        )
        winner = _Deal(f"{where} deal {i}", deal, (first_dealer + i) % 2, scores).check()
    _require(
        winner is not None, f"{where}: the game never ends, nobody reached {WIN} (scores {scores})"
    )
    got_winner = _player(record["winner"], f"{where}: winner")
    _require(got_winner == winner, f"{where}: winner is {got_winner}, but player {winner} won")
    loser = 1 - winner
    _require(scores[loser] < WIN, f"{where}: the loser has {scores[loser]} (>= {WIN})")
    got_scores = _pair_list(record["scores"], f"{where}: scores")
    _require(
        got_scores == scores,
        f"{where}: game scores {got_scores} != final scores {scores} (the last deal's)",
    )
    skunk = _int(record["skunk"], f"{where}: skunk")
    expected = skunk_tier(scores[loser])
    _require(
        skunk == expected,
        f"{where}: skunk is {skunk}, but the loser has {scores[loser]} (tier {expected})",
    )


def check_file(path: str | Path) -> int:
    """Check every game (one JSON object a line) of a JSON Lines file; returns how many games."""
    games = 0
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as e:
                raise AssertionError(f"{path}:{lineno}: not JSON: {e}") from e
            try:
                check_game(record)
            except AssertionError as e:
                raise AssertionError(f"{path}:{lineno}: {e}") from e
            games += 1
    return games


def as_said_at_the_table(played, n_players: int, kept: int, last_go: bool = True,
                         said_too: bool = False):
    """The engine's history with the goes the table leaves unsaid taken out: a seat's go said
    again at its later turns of a count, and the last to lay's go, whoever leads the next
    count (kept at the end of the history, where it says that the next count is asked
    for: the seat API's replay; ``last_go=False`` leaves it out there too, as a table says
    it, for ``lay(goes="table")``). ``said_too``: also the seats that said go in the count
    at the end."""
    out, said, last, count = [], set(), -1, 0
    left = [kept] * n_players
    for k, (seat, card) in enumerate(played):
        if card is None:
            if seat in said:
                continue
            said.add(seat)
            # the last to lay says no go, even when it leads the next count itself (the
            # others out of cards)
            if seat != last or (last_go and k == len(played) - 1):
                out.append((seat, None))
        else:
            out.append((seat, card))
            left[seat] -= 1
            count += value(card)
            last = seat
            if count == 31:
                said, count = set(), 0
        if all(q in said or left[q] == 0 for q in range(n_players)):
            said, count = set(), 0
    return (out, said) if said_too else out
