"""A scripted person for the tests that play a whole :class:`analyzer.table.tabletop.Table`
game with a seat ``"you"``: the first cards dealt thrown, the first legal card laid (a go when
none). A test that needs muggins claims subclasses it with a ``claim``."""

from __future__ import annotations


class FirstCards:
    """The first cards of the hand thrown, the first legal card laid."""

    def discard(self, table, seat):
        return table.hand(seat)[:table.game.thrown]

    def lay(self, table, seat):
        legal = table.legal(seat)
        return legal[0] if legal else None

    def claim(self, table, seat, cards, crib):  # pragma: no cover - not asked without muggins
        raise AssertionError("a muggins claim asked of a game played without muggins")
