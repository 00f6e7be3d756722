"""Who sits where at ``crib play``'s table, in words: the seats' and the sides' names as printed.

The person is always seat 0. The deal and the play pass to the left, seat 0, 1, 2, ...:

* two players (six-card, five-card): ``you`` and ``the AI``;
* three players: ``you``, ``West`` on your left and ``East`` on your right (you sit South), each
  scoring for himself;
* four players (partnerships): ``you``, ``West`` on your left, ``your partner`` opposite (seat
  2, North) and ``East`` on your right; partners score together, so the scores are said by side:
  ``you and your partner`` against ``West and East`` (in a line of scores ``you & your
  partner`` and ``West & East``; on the board, ``us`` and ``them``).

Examples
--------
>>> from analyzer.core.game import VARIANTS
>>> table = Seating(VARIANTS["four-player"])
>>> table.scores([12, 9])
'you & your partner 12, West & East 9'
>>> table.order(3)
'East, you, West, your partner'
"""

from __future__ import annotations

__all__ = ["Seating"]

#: The seats' names by the number of players, seat 0 (the person) first.
SEAT_NAMES = {2: ("you", "the AI"), 3: ("you", "West", "East"),
              4: ("you", "West", "your partner", "East")}
#: The labels at the start of a line of the play (the two-player game's are short).
LABELS = {2: ("you", "AI")}
#: The sides' labels on the board (at most 5 characters: a board line fits 80 columns).
BOARD_LABELS = {2: ("you", "AI"), 3: ("you", "West", "East"), 4: ("us", "them")}


class Seating:
    """The names of the seats and sides of one form (a :class:`analyzer.core.game.Game`)."""

    def __init__(self, game):
        self.game = game
        self.players = game.players
        self.names = SEAT_NAMES[game.players]
        self.labels = LABELS.get(game.players, self.names)
        self.board_labels = BOARD_LABELS[game.players]
        self.partners = bool(game.partnerships)

    def who(self, seat: int) -> str:
        """The seat in a sentence: ``you``, ``the AI``, ``West``, ``your partner``."""
        return self.names[seat]

    def label(self, seat: int) -> str:
        """The seat at the start of a line of the play: ``you``, ``AI``, ``West``."""
        return self.labels[seat]

    def subject(self, seat: int) -> str:
        """The seat at the start of a sentence: ``You``, ``The AI``, ``West``."""
        name = self.names[seat]
        return name[0].upper() + name[1:]

    def verb(self, seat: int, verb: str) -> str:
        """``verb`` as the seat says it: ``lay`` for you, ``lays`` for the others."""
        return verb if seat == 0 else verb + "s"

    def possessive(self, seat: int) -> str:
        """``your``, ``the AI's``, ``West's``, ``your partner's``."""
        return "your" if seat == 0 else self.names[seat] + "'s"

    def crib_of(self, dealer: int) -> str:
        """Whose crib it is, from the person's side: ``your own``, ``your partner's``, ..."""
        return "your own" if dealer == 0 else self.possessive(dealer)

    def side_name(self, side: int) -> str:
        """A side in a sentence: a seat's name, or a partnership (``you and your partner``)."""
        if self.partners:
            return " and ".join(self.names[s] for s in range(side, self.players, 2))
        return self.names[side]

    def side_of(self, seat: int) -> int:
        return seat % self.game.teams

    def scores(self, scores) -> str:
        """The scores by side: ``you 3, AI 5``; ``you 3, West 5, East 0``; ``you & your partner
        12, West & East 9``."""
        names = (["you & your partner", "West & East"] if self.partners
                 else list(self.labels))
        return ", ".join(f"{name} {int(score)}" for name, score in zip(names, scores,
                                                                       strict=True))

    def order(self, first: int) -> str:
        """The seats in turn from ``first``, to the left: ``West, East, you``."""
        return ", ".join(self.names[(first + k) % self.players] for k in range(self.players))

    def seats_said(self) -> str:
        """Where everyone sits, in one sentence (the forms of more than two players)."""
        if self.players == 3:
            return ("You sit South, West on your left and East on your right; each scores for "
                    "himself. The deal and the play pass to the left: you, West, East.")
        return ("Your partner sits opposite you: you and your partner score together against "
                "West (on your left) and East (on your right). The deal and the play pass to "
                "the left: you, West, your partner, East.")
