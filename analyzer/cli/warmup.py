"""``crib warmup``: compile ahead, into numba's cache, the kernels the commands use.

Each task makes the public call a command makes (so with the argument types the command passes)
on a tiny input: the compiling is the work, the answers are thrown away. ``crib warmup`` runs the
tasks of the everyday commands; ``--all`` adds what the other commands and options use: the
other forms of the game (``--variant``, ``best`` among their players too), the ``pegging``
discard's players, ``crib peg --continuation lookahead``, the research tables' self-play
(``crib tables``, ``crib plot census``) and what ``crib bench`` times besides. The Python
API's own research calls that no command makes (``record_deals``, ``play_from_score``,
``play_hands``) are not in it: they compile on their first call. A kernel already in the cache
is loaded, not compiled, so a second warmup takes seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["TASKS", "WarmupTask", "run_warmup", "warmup_tasks"]

HAND = "5H 5S 6D JC QS KH"


@dataclass(frozen=True)
class WarmupTask:
    name: str  #: what it prepares, as the progress bar says it
    run: Callable[[], object]
    everyday: bool  #: in plain ``crib warmup`` (else only with ``--all``)


def _keep() -> None:
    from ..core.choices import CRIB_MODES
    from ..keeping.discard import crib_distribution, keep

    for crib in CRIB_MODES:
        keep(HAND, dealer=True, crib=crib)
    crib_distribution(HAND, dealer=True, crib="weighted")


def _count() -> None:
    from ..core.scoring import peg_points, score_hand

    # the scorer called from Python, as crib replay checks a record's counts and its plays
    score_hand(HAND[:11], "KD")  # four cards
    score_hand(HAND[:8], "KD", variant="five-card")  # three
    peg_points(HAND[:8])


def _engine() -> None:
    from ..sim.harness import simulate

    simulate(2, seed=0, workers=1, record_games=2)


def _duel() -> None:
    from ..sim.duel import duel

    duel("best", "ev+lookahead", 2, seed=0, workers=1)


def _peg() -> None:
    from ..play.search import advise_play

    advise_play("5H 6D JC QS", dealer=False, starter="2C", samples=4)


def _peg_lookahead() -> None:
    from ..play.search import advise_play

    advise_play("5H 6D JC QS", dealer=False, starter="2C", samples=4, continuation="lookahead")


def _pegging_players() -> None:
    from ..sim.harness import simulate

    simulate(2, seed=0, workers=1, players=("pegging+lookahead", "ev+lookahead"))


def _keep_score() -> None:
    from ..play.winkeep import keep_to_win

    keep_to_win(HAND, True, (100, 100), samples=4)


def _play() -> None:
    from ..table.tabletop import Table

    Table(("best", "ev+lookahead"), seed=0).play()


def _forms() -> None:
    from ..core.choices import DEFAULT_VARIANT, FORM_CRIB_MODES, VARIANT_NAMES
    from ..keeping.discard import keep
    from ..play.search import advise_play
    from ..play.winkeep import keep_to_win
    from ..sim.harness import simulate
    from ..table.tabletop import Table

    keep_to_win("5H 5S 6D JC QS", True, (30, 30), samples=4, variant="five-card")
    keep_to_win("5H 5S 6D JC QS", True, (30, 30, 30), samples=4, variant="three-player")
    for variant in (v for v in VARIANT_NAMES if v != DEFAULT_VARIANT):
        simulate(4, seed=0, workers=1, variant=variant, record_games=4)
        for crib in FORM_CRIB_MODES:  # each crib mode has kernels of its own
            keep("5H 5S 6D JC QS", dealer=True, crib=crib, variant=variant)
    # best's games in these forms: one version of the engine for all three (the form is in the
    # arrays), with their search and their score-aware discard
    simulate(2, seed=0, workers=1, variant="five-card", players=("best", "ev+lookahead"))
    Table(("best", "ev+lookahead"), variant="five-card", seed=0).play()
    advise_play("8H 2C KD QS", "1:7C 2:8D", seat=0, dealer=0, starter="4S",
                variant="three-player", samples=4)


def _census() -> None:
    from ..core.scoring import show_census

    show_census()
    show_census(variant="five-card")  # three-card hands: kernels of their own


def _bench() -> None:
    import numpy as np

    from ..core.scoring import score_hands
    from ..keeping.discard import crib_means, keep_many

    score_hands(np.array([[0, 4, 8, 12]]), np.array([16]))
    keep_many(np.array([[0, 4, 8, 12, 16, 20]]), dealer=True)
    for crib in ("uniform", "weighted"):  # the enumeration the counted crib is timed against
        crib_means(HAND, True, crib, "enumerated")


def _pegging_table() -> None:
    from ..research.pegging import build_pegging_table

    build_pegging_table(deals=10, seed=0, workers=1)


def _odds() -> None:
    from ..research.odds import build_odds_table
    from ..research.odds3 import prepare_tallies3

    build_odds_table(1024, seed=0, workers=1)  # the fewest deals crib tables odds takes
    prepare_tallies3()  # --variant three-player (its solve is numpy's)


def _keep_table() -> None:
    from ..research.tables import build_discard_table

    build_discard_table(workers=1)  # every hand: about a second once compiled


def _crib_tables() -> None:
    from ..research.tables import build_crib_table

    for variant in ("six-card", "five-card", "three-player"):
        build_crib_table(deals=10, seed=0, max_iterations=1, workers=1, variant=variant)


#: The tasks, in the order they run: the everyday commands', then ``--all``'s.
TASKS = (
    WarmupTask("keep (crib keep)", _keep, True),
    WarmupTask("the counts of a hand (crib replay, crib review)", _count, True),
    WarmupTask("the game engine (crib simulate)", _engine, True),
    WarmupTask("best's search (crib duel, crib peg, crib play)", _duel, True),
    WarmupTask("the play's advice (crib peg)", _peg, True),
    WarmupTask("the keep to win (crib keep --score, crib serve)", _keep_score, True),
    WarmupTask("the game at the table (crib play, crib serve)", _play, True),
    WarmupTask("the other forms of the game (--variant)", _forms, False),
    WarmupTask("the pegging discard's players (--players pegging+...)", _pegging_players, False),
    WarmupTask("the play's advice, lookahead continuation (crib peg --continuation)",
               _peg_lookahead, False),
    WarmupTask("the show census (crib plot census)", _census, False),
    WarmupTask("the benchmarks' own calls (crib bench)", _bench, False),
    WarmupTask("the pegging table (crib tables pegging)", _pegging_table, False),
    WarmupTask("the win-odds table (crib tables odds)", _odds, False),
    WarmupTask("the crib tables (crib tables crib)", _crib_tables, False),
    WarmupTask("the best keep of every hand (crib tables keep)", _keep_table, False),
)


def warmup_tasks(everything: bool = False) -> list[WarmupTask]:
    """The tasks of ``crib warmup`` (``everything``: ``--all``)."""
    return [t for t in TASKS if everything or t.everyday]


def run_warmup(everything: bool = False, progress: bool = True, clock=None) -> float:
    """Run the warmup tasks; return the seconds taken. ``progress``: a progress bar on stderr,
    or where stderr is no terminal (a log, ``make run``'s output in CI) a line a task."""
    import sys
    import time

    tasks = warmup_tasks(everything)
    start = time.perf_counter()
    if not progress:
        for task in tasks:
            task.run()
        return time.perf_counter() - start
    if not sys.stderr.isatty():
        for k, task in enumerate(tasks, 1):
            print(f"crib warmup: {k}/{len(tasks)} {task.name}", file=sys.stderr, flush=True)
            task.run()
        return time.perf_counter() - start
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("crib warmup"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
               TextColumn("{task.description}"))
    with Progress(*columns, console=Console(stderr=True)) as bar:
        job = bar.add_task("", total=len(tasks))
        for task in tasks:
            bar.update(job, description=task.name)
            task.run()
            bar.advance(job)
        bar.update(job, description="done")
    return time.perf_counter() - start
