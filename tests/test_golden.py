"""Golden playthroughs: the saved seeded games and figures are played again, bit for bit.

A failure prints a unified diff of the games (one JSON object per deal) or of the figures, so the
first move that changed is easy to find. See ``golden.py`` to regenerate after an intended change.
"""

from __future__ import annotations

import difflib
import json

import pytest
from golden import GOLDEN_DIR, PAIRINGS, figures, figures_text, recorded


def _deal_lines(records: list[dict]) -> list[str]:
    lines = []
    for game in records:
        head = {k: v for k, v in game.items() if k != "deals"}
        lines.append(json.dumps(head))
        lines += [json.dumps(deal) for deal in game["deals"]]
    return lines


def _assert_same(expected: list[str], actual: list[str], what: str) -> None:
    if expected != actual:
        diff = "\n".join(difflib.unified_diff(expected, actual, "golden", "now", lineterm="",
                                              n=1))
        pytest.fail(f"{what} changed:\n{diff[:6000]}")


@pytest.mark.parametrize("name", PAIRINGS)
def test_golden_games_replay_the_same(name):
    saved = [json.loads(line) for line in
             (GOLDEN_DIR / f"{name}.jsonl").read_text().splitlines()]
    assert saved, name
    _assert_same(_deal_lines(saved), _deal_lines(recorded(name)), f"{name} games")


@pytest.mark.parametrize("name", PAIRINGS)
def test_golden_figures_are_the_same(name):
    saved = (GOLDEN_DIR / f"{name}.json").read_text()
    _assert_same(saved.splitlines(), figures_text(figures(name)).splitlines(),
                 f"{name} figures")
