"""The game as a description: a frozen :class:`Game`, and the memory layouts the kernels share.

A form of cribbage is data, not code paths: how many players, how many cards each is dealt and
keeps, how many cards the pack adds to the crib, whether partners score together, the target and
the skunk lines, and any points given at the start. :meth:`Game.as_array` turns a description into
the ``int64`` array the compiled engine reads, laid out as :data:`GAME`, in this one place.

:func:`layout` makes the named offsets of a flat array from one list of ``(field, size)`` pairs.
The engine's accumulators, its game records and this description are each laid out by one call,
so no kernel writes an offset by hand: ``acc[ACC.margin + m]``, ``row[DEAL.hands + ...]``. The
offsets are a namedtuple of ints, which numba compiles as constants.

:data:`VARIANTS` describes the four forms of ``docs/rules.md`` the engine plays: the standard
game, :data:`STANDARD` (two players, six cards, to 121), five-card cribbage (to 61), and the
three-player and four-player (partnership) games.
"""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import rules

if TYPE_CHECKING:  # numpy is imported where an array is made: crib --help does without it
    import numpy as np

__all__ = ["GAME", "MAX_PLAYERS", "STANDARD", "VARIANTS", "Game", "layout"]

#: The most players any form has (four in partnership); record layouts are sized for it.
MAX_PLAYERS = 4
#: The most cards any form deals to a player.
MAX_DEALT = 6
#: The most cards any form has a player throw to the crib.
MAX_THROWN = 2
#: The most cards any form has a player keep for the play and the show.
MAX_KEPT = 4
#: The most cards any form adds to the crib from the pack.
MAX_PACK = 1


def layout(name: str, fields) -> tuple:
    """Offsets of a flat array holding ``fields`` (``(field, size)`` pairs) one after another.

    Returns a namedtuple with each field's offset and ``size``, the total length.

    Examples
    --------
    >>> acc = layout("Acc", [("games", 1), ("margin", 256)])
    >>> acc.games, acc.margin, acc.size
    (0, 1, 257)
    """
    names = [f for f, _ in fields]
    offsets, at = [], 0
    for _, size in fields:
        offsets.append(at)
        at += int(size)
    return namedtuple(name, [*names, "size"])(*offsets, at)


#: Layout of :meth:`Game.as_array`.
GAME = layout("GameFields", [
    ("players", 1), ("dealt", 1), ("kept", 1), ("thrown", 1), ("crib_from_pack", 1),
    ("teams", 1), ("target", 1), ("skunk_lines", 3), ("start_points", 1), ("one_count", 1),
])


@dataclass(frozen=True)
class Game:
    """One form of cribbage, described.

    Parameters
    ----------
    name
        What players call it, e.g. ``"six-card"``.
    players
        Players at the table.
    dealt, kept
        Cards dealt to each player, and kept by each for the play and the show; each throws the
        rest to the crib.
    crib_from_pack
        Cards the dealer adds to the crib from the top of the pack after the deal.
    partnerships
        Partners sit opposite and score as one team (four players).
    target
        The first to reach this wins at once.
    skunk_lines
        The loser's score under each line is a skunk, a double, a triple skunk; a line of 0 is
        a tier the form does not have (no score is under it).
    start_points
        Points pegged by the first dealer's opponent (the pone) before the first deal.
    one_count
        The play is a single count: when nobody can lay a card (or the count reaches 31) the go
        (or the 31) is pegged and the play ends, cards still held unplayed (five-card).

    Examples
    --------
    >>> STANDARD.players, STANDARD.thrown, STANDARD.crib_size, STANDARD.teams
    (2, 2, 4, 2)
    """

    name: str
    players: int = 2
    dealt: int = 6
    kept: int = 4
    crib_from_pack: int = 0
    partnerships: bool = False
    target: int = rules.GAME_POINTS
    skunk_lines: tuple[int, int, int] = (rules.SKUNK_LINE, rules.DOUBLE_SKUNK_LINE,
                                         rules.TRIPLE_SKUNK_LINE)
    start_points: int = 0
    one_count: bool = False

    def __post_init__(self):
        if not 2 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"{self.name}: {self.players} players; forms have 2 to {MAX_PLAYERS}")
        if not (0 < self.kept < self.dealt <= MAX_DEALT and self.thrown <= MAX_THROWN
                and self.kept <= MAX_KEPT):
            raise ValueError(f"{self.name}: cannot deal {self.dealt} and keep {self.kept}")
        if self.crib_size != 4:
            raise ValueError(f"{self.name}: the crib would hold {self.crib_size} cards, not 4")
        if self.crib_from_pack > MAX_PACK or self.players * self.dealt + self.crib_from_pack >= 52:
            raise ValueError(f"{self.name}: the pack holds too few cards for the deal")
        if self.partnerships and self.players != 4:
            raise ValueError(f"{self.name}: partnerships need four players")
        if len(self.skunk_lines) != 3 or not (self.target > self.skunk_lines[0]
                                              >= self.skunk_lines[1] >= self.skunk_lines[2]):
            raise ValueError(f"{self.name}: skunk lines {self.skunk_lines} must fall below "
                             f"the target {self.target}")

    @property
    def skunk_tiers(self) -> int:
        """How many skunk tiers the form has: its lines above 0 (3 in the games to 121, 1 in
        five-card's to 61)."""
        return sum(line > 0 for line in self.skunk_lines)

    @property
    def thrown(self) -> int:
        """Cards each player throws to the crib."""
        return self.dealt - self.kept

    @property
    def crib_size(self) -> int:
        return self.players * self.thrown + self.crib_from_pack

    @property
    def teams(self) -> int:
        """Sides that score: the players, or two partnerships."""
        return 2 if self.partnerships else self.players

    def as_array(self) -> np.ndarray:
        """The description as the engine reads it: ``int64`` laid out as :data:`GAME`."""
        import numpy as np

        values = {
            "players": self.players, "dealt": self.dealt, "kept": self.kept,
            "thrown": self.thrown, "crib_from_pack": self.crib_from_pack, "teams": self.teams,
            "target": self.target, "start_points": self.start_points,
            "one_count": int(self.one_count),
        }
        out = np.zeros(GAME.size, np.int64)
        for field, value in values.items():
            out[getattr(GAME, field)] = value
        out[GAME.skunk_lines:GAME.skunk_lines + 3] = self.skunk_lines
        out.setflags(write=False)
        return out


#: The standard game: two players, six cards dealt, four kept, to 121.
STANDARD = Game("six-card")

#: Every form in docs/rules.md, by the name the ``--variant`` option takes. The five-card game to
#: 61 has one skunk line, the old "lurch": a loser under 31, not past the halfway mark, loses a
#: double game (Hoyle; Dawson), and no deeper tier.
VARIANTS = {
    "six-card": STANDARD,
    "three-player": Game("three-player", players=3, dealt=5, kept=4, crib_from_pack=1),
    "four-player": Game("four-player", players=4, dealt=5, kept=4, partnerships=True),
    "five-card": Game("five-card", dealt=5, kept=3, target=61, skunk_lines=(31, 0, 0),
                      start_points=3, one_count=True),
}
