"""Golden playthroughs: seeded games saved in ``tests/data/golden/``, replayed by the suite.

For each pairing of players in :data:`PAIRINGS`, a few seeded games are kept whole as records
(``<name>.jsonl``, format v1, one game a line) and a larger seeded run is kept as its figures
(``<name>.json``: the summary, the margin and game-length histograms and every crib outcome,
all counts, so equality is bit for bit). ``test_golden.py`` plays them again and compares; a
change to how the engine plays shows up as a readable diff of games or figures.

Regenerate (only when a change of play is intended, and say so in the commit)::

    .venv/bin/python tests/golden.py

The files were first written by the engine before the game became a description (issue 10), so
they hold the two-player game as it was played then.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent / "data" / "golden"

#: name -> (seat 0, seat 1, crib table the ev policy reads, seed)
PAIRINGS = {
    "lookahead_vs_lookahead": ("ev+lookahead", "ev+lookahead", "table", 101),
    "greedy_vs_lookahead": ("ev+greedy", "ev+lookahead", "table", 102),
    "hand_vs_ev": ("hand+greedy", "ev+greedy", "table", 103),
    "random_vs_lookahead": ("random+random", "ev+lookahead", "table", 104),
    "ordered_vs_random": ("random+ordered", "hand+random", "table", 105),
    "uniform_crib": ("ev+greedy", "ev+greedy", "uniform", 106),
}
RECORDED_GAMES = 6
STATS_GAMES = 4_000
CHUNK = 1_000


def recorded(name: str) -> list[dict]:
    """The recorded games of pairing ``name``, played now."""
    from analyzer import simulate

    a, b, crib, seed = PAIRINGS[name]
    result = simulate(RECORDED_GAMES, seed=seed, players=(a, b), crib=crib, chunk_size=CHUNK,
                      record_games=RECORDED_GAMES, workers=1)
    return result.records


def figures(name: str) -> dict:
    """The figures of pairing ``name``'s larger run, played now: counts only, layout-free."""
    from analyzer import simulate

    a, b, crib, seed = PAIRINGS[name]
    result = simulate(STATS_GAMES, seed=seed + 1000, players=(a, b), crib=crib,
                      chunk_size=CHUNK)
    summary = result.to_dict()
    keep = ("games", "seed", "players", "crib_values", "first_dealer_win_rate",
            "seat0_win_rate", "skunk_rate", "double_skunk_rate", "triple_skunk_rate",
            "mean_deals", "points_per_deal")
    cribs = result.crib_outcomes
    return {
        "summary": {k: summary[k] for k in keep},
        "margins": [int(x) for x in result.margins],
        "game_lengths": [int(x) for x in result.game_lengths],
        "crib_outcomes": [[r.role, r.card1, r.card2, int(r.suited), int(r.n), float(r.mean)]
                          for r in cribs.itertuples(index=False)],
    }


def records_text(records: list[dict]) -> str:
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)


def figures_text(data: dict) -> str:
    return json.dumps(data, indent=1) + "\n"


def main() -> int:
    GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
    for name in PAIRINGS:
        (GOLDEN_DIR / f"{name}.jsonl").write_text(records_text(recorded(name)))
        (GOLDEN_DIR / f"{name}.json").write_text(figures_text(figures(name)))
        print(f"wrote {name}.jsonl and {name}.json", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
