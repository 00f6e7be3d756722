"""Levels in plain words: the opponents ``crib play`` offers a newcomer, weakest first.

Each level is one of the engine's players (a player spec,
:func:`analyzer.core.choices.parse_player`) described in a few words. The four are strictly
ordered in strength, each beating the one below it in both forms ``crib play`` offers:

* **Beginner** is ``hand+random``: it keeps the four cards with the best hand (their exact mean
  over the starters), whatever the crib, and lays any card that fits. Its keeps are sound; its
  play gives away the fifteens, pairs and runs a player learns first to take and to deny.
* **Casual** is ``baseline``: it keeps the cards that score most on their own (the thrown pair's
  points counted for its own crib, against the other's) and lays the card that pegs most now.
  Taking the points on offer in the play is what lifts it over Beginner.
* **Club** is ``ev+greedy``: every keep valued by the hand's exact mean over the starters and the
  crib's self-play value (what ``crib keep`` ranks first, the play aside), and the card that pegs
  most now with a few safety rules (no 5 led, the count not left at 5 or 21).
* **Expert** is ``best``, the strongest player: keeps valued with the play, keeping to win near
  the end, and a play searched by rollouts.

``ev+lookahead`` (the simulations' default) is between Club and Expert but is no level: in the
five-card game ``best`` played as ``ev+lookahead`` when the levels were chosen (it now searches
the play there, :mod:`analyzer.play.searchforms`, and keeps as ``ev`` until the game can end in
the deal, :mod:`analyzer.play.winkeepforms`). ``hand+greedy`` would
be no beginner: it beats ``baseline`` (57.5% of 20,000 duels).

The upper level's share of wins, each step (seed 20261130; six-card: ``crib duel``, each player
dealing first in half the games; five-card: ``crib simulate --variant five-card``, seat 0 the
upper level, the first dealer cut for):

============================  ==================================  =========================
step                          six-card                            five-card (100,000 games)
============================  ==================================  =========================
Casual over Beginner          61.42% (61.11 to 61.72), 100,000    55.78%
Club over Casual              61.87% (61.57 to 62.17), 100,000    60.11%
Expert over Club              60.06% (59.10 to 61.02), 10,000     52.42%
============================  ==================================  =========================

(a five-card share of 100,000 games is within about 0.31 points of the true one, 95%).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "LevelError", "find_level"]


@dataclass(frozen=True)
class Level:
    """One level: its ``name``, the ``player`` spec that plays it, and ``about``, what it does
    in a few words (a line of ``crib play --help`` with the name and the spec)."""

    name: str
    player: str
    about: str


#: The levels, weakest first.
LEVELS = (
    Level("Beginner", "hand+random",
          "keeps its best hand, ignores the crib, lays any card"),
    Level("Casual", "baseline",
          "keeps the cards that score, takes the points it sees"),
    Level("Club", "ev+greedy",
          "weighs the crib and the cut, leads and pegs safely"),
    Level("Expert", "best",
          "the strongest: thinks ahead in the play, plays to win"),
)

#: The level ``crib play`` plays at when none is named: the strongest.
DEFAULT_LEVEL = LEVELS[-1].name


class LevelError(ValueError):
    """A level name that is not one of :data:`LEVELS`."""


def find_level(name: str) -> Level:
    """The level called ``name`` (any case), or :class:`LevelError` listing the levels.

    Examples
    --------
    >>> find_level("club").player
    'ev+greedy'
    >>> try:
    ...     find_level("wizard")
    ... except LevelError as exc:
    ...     print(exc)
    unknown level 'wizard': choose one of Beginner, Casual, Club, Expert
    """
    text = str(name).strip().lower()
    for level in LEVELS:
        if level.name.lower() == text:
            return level
    raise LevelError(f"unknown level {name!r}: choose one of "
                     f"{', '.join(level.name for level in LEVELS)}")

