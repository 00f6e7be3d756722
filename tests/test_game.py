"""The game description and the layouts made from it."""

from __future__ import annotations

import numpy as np
import pytest

from analyzer.core.game import GAME, STANDARD, VARIANTS, Game, layout
from analyzer.play.engine import ACC, DEAL, GAME_RECORD, PHASE, PHASES, PLAY, phases


def test_the_standard_game_as_the_kernels_read_it():
    g = STANDARD.as_array()
    assert g.dtype == np.int64 and len(g) == GAME.size and not g.flags.writeable
    assert (g[GAME.players], g[GAME.dealt], g[GAME.kept], g[GAME.thrown]) == (2, 6, 4, 2)
    assert (g[GAME.crib_from_pack], g[GAME.teams], g[GAME.target]) == (0, 2, 121)
    assert g[GAME.skunk_lines:GAME.skunk_lines + 3].tolist() == [91, 61, 31]
    assert g[GAME.start_points] == 0


def test_the_other_forms_of_the_rules_can_be_described():
    # docs/rules.md: three players (five each, one from the pack), four in partnership, five-card
    three, four, five = (VARIANTS[n] for n in ("three-player", "four-player", "five-card"))
    assert VARIANTS["six-card"] is STANDARD
    assert [g.crib_size for g in (three, four, five)] == [4, 4, 4]
    assert (three.teams, four.teams, five.teams) == (3, 2, 2)
    assert five.as_array()[GAME.target] == 61 and five.as_array()[GAME.one_count] == 1
    assert STANDARD.as_array()[GAME.one_count] == 0


@pytest.mark.parametrize("kwargs, message", [
    ({"players": 5}, "players"),
    ({"dealt": 6, "kept": 6}, "keep"),
    ({"dealt": 5, "kept": 4}, "crib would hold 2"),
    ({"players": 3, "dealt": 6, "kept": 4}, "crib would hold 6"),
    ({"partnerships": True}, "four players"),
    ({"skunk_lines": (91, 100, 31)}, "skunk lines"),
    ({"target": 61}, "skunk lines"),
])
def test_impossible_games_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Game("bad", **kwargs)


def test_layouts_place_fields_one_after_another_without_overlap():
    for lay in (ACC, DEAL, GAME_RECORD, PLAY, PHASE, GAME):
        offsets = list(lay)[:-1]
        assert offsets == sorted(offsets) and offsets[0] == 0 and lay.size > offsets[-1]
    assert layout("L", [("a", 2), ("b", 3)]) == (0, 2, 5)
    assert PHASES[0] == ("dealer", "pegging") and ("pone", "hand") in PHASES
    assert [p[:2] for p in phases(4)][-2:] == [("third", "pegging"), ("third", "hand")]
    offsets = [k for *_, k in phases(4)]
    assert len(set(offsets)) == len(offsets) and max(offsets) < ACC.phase_sumsq - ACC.phase_sum
