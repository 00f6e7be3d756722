"""analyzer: a Monte Carlo strategy analyzer for cribbage.

Exact show scoring, the hand counter, "which four to keep", AI-against-AI simulation,
crib-value, pegging and discard tables from self-play, and the odds of winning from any score.
Card ids are ``rank * 4 + suit`` (see :mod:`analyzer.core.cards`). Every name is imported on first
use (numpy and the numba-heavy parts with it), so ``import analyzer`` (and ``crib --help``)
stays fast.

>>> from analyzer import score_hand
>>> score_hand("5H 5C 5S JD", "5D")
29
"""

from importlib import import_module as _import_module

_LAZY = {
    "CardError": "core.errors",
    "format_cards": "core.cards",
    "parse_cards": "core.cards",
    "score_hand": "core.scoring",
    "score_hands": "core.scoring",
    "count_hand": "core.counting",
    "say_count": "core.counting",
    "say_count_steps": "core.counting",
    "peg_points": "core.scoring",
    "show_census": "core.scoring",
    "ScoreItem": "core.counting",
    "keep": "keeping.discard",
    "keep_many": "keeping.discard",
    "keep_to_win": "play.winkeep",
    "simulate": "sim.harness",
    "play_hands": "sim.harness",
    "advise_play": "play.search",
    "Seat": "play.seat",
    "SeatError": "play.seat",
    "SimulationResult": "sim.harness",
    "duel": "sim.duel",
    "DuelResult": "sim.duel",
    "read_records": "sim.records",
    "crib_values": "keeping.crib",
    "build_crib_table": "research.tables",
    "build_discard_table": "research.tables",
    "canonical_hands": "research.tables",
    "compare_crib_tables": "research.tables",
    "load_rank_table": "research.tables",
    "build_pegging_table": "research.pegging",
    "peg_table": "keeping.pegtable",
    "peg_values": "keeping.pegtable",
    "format_game": "sim.records",
    "review_game": "table.review",
    "format_review": "table.review",
    "Review": "table.review",
    "build_odds_table": "research.odds",
    "win_probability": "keeping.winodds",
    "win_table": "keeping.winodds",
    "play_from_score": "research.odds",
    "crib_distribution": "keeping.discard",
    "crib_means": "keeping.discard",
    "evaluate_discards": "keeping.discard",
    "Game": "core.game",
    "VARIANTS": "core.game",
    "STANDARD": "core.game",
    "pattern_text": "keeping.pegtable",
    "read_pegging_table": "keeping.pegtable",
    "read_odds_table": "keeping.winodds",
    "win_probability_se": "keeping.winodds",
    "win_probability3": "keeping.winodds",
    "win_table3": "keeping.winodds",
    "build_odds_table3": "research.odds3",
    "play_from_score3": "research.odds3",
}

#: Modules of the wings offered at the top level (``from analyzer import plots``).
_MODULES = {"plots": "research.plots"}

__all__ = ["__version__", *_LAZY, *_MODULES]


def __getattr__(name):
    if name == "__version__":
        from .core.version import package_version

        globals()[name] = package_version()
        return globals()[name]
    if name in _MODULES:
        globals()[name] = _import_module(f".{_MODULES[name]}", __name__)
        return globals()[name]
    if name in _LAZY:
        value = getattr(_import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
