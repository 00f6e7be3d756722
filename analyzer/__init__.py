"""analyzer: a Monte Carlo strategy analyzer for cribbage.

Exact show scoring, the hand counter, "which four to keep", AI-against-AI simulation,
crib-value, pegging and discard tables from self-play, and the odds of winning from any score.
Card ids are ``rank * 4 + suit`` (see :mod:`analyzer.cards`). Every name is imported on first
use (numpy and the numba-heavy parts with it), so ``import analyzer`` (and ``crib --help``)
stays fast.

>>> from analyzer import score_hand
>>> score_hand("5H 5C 5S JD", "5D")
29
"""

from importlib import import_module

_LAZY = {
    "CardError": "errors",
    "format_cards": "cards",
    "parse_cards": "cards",
    "score_hand": "scoring",
    "score_hands": "scoring",
    "count_hand": "counting",
    "say_count": "counting",
    "peg_points": "scoring",
    "show_census": "scoring",
    "ScoreItem": "counting",
    "keep": "discard",
    "keep_many": "discard",
    "crib_distribution": "discard",
    "keep_to_win": "winkeep",
    "simulate": "harness",
    "play_hands": "harness",
    "advise_play": "search",
    "SimulationResult": "harness",
    "duel": "duel",
    "DuelResult": "duel",
    "read_records": "records",
    "crib_values": "crib",
    "build_crib_table": "tables",
    "build_discard_table": "tables",
    "canonical_hands": "tables",
    "compare_crib_tables": "tables",
    "load_rank_table": "tables",
    "build_pegging_table": "pegging",
    "peg_table": "pegtable",
    "peg_values": "pegtable",
    "format_game": "records",
    "review_game": "review",
    "format_review": "review",
    "Review": "review",
    "build_odds_table": "odds",
    "win_probability": "odds",
    "win_table": "odds",
}

__all__ = ["__version__", *_LAZY]


def _installed_version() -> str:
    """The version in the installed metadata (pyproject.toml), read on first use: reading it
    costs more than the rest of ``crib --help``."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("analyzer")
    except PackageNotFoundError:  # imported from a source tree that was never installed
        return "0+unknown"


def __getattr__(name):
    if name == "__version__":
        globals()[name] = _installed_version()
        return globals()[name]
    if name in _LAZY:
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
