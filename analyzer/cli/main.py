"""The ``crib`` command: argument parsing and printing only.

Numba-heavy modules are imported inside the subcommands, so ``crib --help`` is instant. Every
expected failure (bad cards, bad options) is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import time

from ..core.choices import (
    ADVISE_SAMPLES,
    CRIB_MODES,
    CRIB_TABLE_DEALS,
    CRIB_TABLE_MAX_ITERATIONS,
    CRIB_TABLE_TOL,
    DEFAULT_PLAYER,
    DEFAULT_RECORD_GAMES,
    DEFAULT_SAMPLES,
    DEFAULT_VARIANT,
    DISCARD_POLICY_NAMES,
    FORM_POSITIONS,
    MAX_DEALS,
    MAX_GAMES,
    MAX_ITERATIONS,
    MAX_RECORD_GAMES,
    MAX_RECORD_GAMES_TABLE,
    MAX_SEED,
    MAX_WORKERS,
    ODDS_TABLE_DEALS,
    PEGGING_POLICY_NAMES,
    PEGGING_TABLE_DEALS,
    SWITCH_Z,
    TABLE_MODES,
    VARIANT_NAMES,
    PlayerError,
    check_number,
    crib_mode_for,
    parse_player,
)
from ..core.errors import CardError
from ..core.game import VARIANTS
from .common import (
    PILLOW_FORMATS,
    UsageError,
    check_output,
    check_provenance,
    check_run_folder,
    figure_format,
    read_rank_table,
    save_figure,
)

EXAMPLES = """examples:
  crib keep 5H 5S 6D JC QS KH --dealer      which four to keep, as dealer
  crib count 5H 5C 5S JD --starter 5D       count a hand the way it is said at the table
  crib keep 5H 5S 6D JC KH --pone --variant five-card   the same in five-card cribbage
  crib keep 5H 5S 6D JC QS KH --dealer --score 110 115   the keep most likely to win from 110-115
  crib peg --hand 4C 5H 9S KD --played 4C 6D --starter 2S --pone   which card to lay now
  crib simulate --games 100000 --seed 7     AI against AI, full rules
  crib duel best ev+lookahead --games 100000 --seed 7   win rate and match points
  crib play --hints                         play a game against the AI in the terminal
  crib play --level casual                  the same at another level (crib play --help)
  crib stats                                your games so far: win rates, points, trend
  crib replay games.jsonl --game 3          a recorded game, counted out
  crib review games.jsonl --game 3          what each discard and card laid lost
  crib odds 96 110 --dealer                 the chance to win from a score, as dealer
  crib plot census --out census.png         draw a figure (census, keep, crib, games, odds)
  crib bench                                measure the scorer, keep and the engine
  crib warmup                               compile ahead what the commands use (first run)
  crib serve --open                         the analyzer in the browser, on this machine only
"""


CRIB_MODE_NOTES = {
    "table": "self-play crib-value table",
    "uniform": "exact, opponent's throw uniform",
    "weighted": "exact, opponent's throw weighted by self-play",
}


#: The notes of the crib modes of the forms dealt five.
FORM_CRIB_NOTES = {"table": "the form's self-play crib-value table",
                   "uniform": "exact, the unseen crib cards uniform"}


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __call__(self, parser, namespace, values, option_string=None):
        from ..core.version import package_version

        print(f"{parser.prog} {package_version()}")
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage dump) and exit status 2."""

    def error(self, message):
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")

    def _get_values(self, action, arg_strings):
        # Python 3.11's argparse drops a '--' given as an option's value (``--games=--``) and
        # hands the type an empty list: refuse it as the missing value it is.
        if action.option_strings and arg_strings == ["--"]:
            self.error(f"argument {'/'.join(action.option_strings)}: expected a value, got '--'")
        return super()._get_values(action, arg_strings)


def _cards_text(tokens: list[str]) -> str:
    return " ".join(tokens)


# --------------------------------------------------------------------------- checked options


def _number(low=None, high=None, integer: bool = False, low_open: bool = False):
    """An argparse type: a finite number in range (see :func:`analyzer.core.choices.check_number`),
    so that ``nan``, ``inf``, negative or huge values are one line before any work starts."""

    def parse(text: str):
        try:
            value = int(text) if integer else float(text)
        except ValueError:
            kind = "a whole number" if integer else "a number"
            raise argparse.ArgumentTypeError(f"{text!r} is not {kind}") from None
        try:
            return check_number("it", value, low=low, high=high, integer=integer,
                                low_open=low_open)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc).removeprefix("it ")) from None

    return parse


_count = _number(low=1, integer=True)
_games = _number(low=1, high=MAX_GAMES, integer=True)
_workers = _number(low=1, high=MAX_WORKERS, integer=True)
_seed = _number(low=0, high=MAX_SEED, integer=True)
_seconds = _number(low=0, low_open=True)
_score = _number(low=0, high=120, integer=True)


def _check_players(names, command: str) -> None:
    for name in names:
        try:
            parse_player(name)
        except PlayerError as exc:
            raise UsageError(f"{command}: {exc}") from None


# --------------------------------------------------------------------------- count


def _cmd_count(args) -> int:
    from ..core.cards import format_cards, parse_cards
    from ..core.counting import count_hand, say_count

    try:
        starter = format_cards(parse_cards(args.starter, n=1))
    except CardError as exc:
        raise UsageError(f"crib count: --starter {args.starter}: {exc}") from None
    items = count_hand(_cards_text(args.cards), args.starter, crib=args.crib,
                       variant=args.variant)
    hand = format_cards(parse_cards(_cards_text(args.cards)))
    total = sum(item.points for item in items)
    said = say_count(items)
    if args.json:
        print(json.dumps({
            "hand": hand,
            "starter": starter,
            "crib": args.crib,
            "variant": args.variant,
            "items": [
                {"kind": i.kind, "cards": format_cards(i.cards), "points": i.points} for i in items
            ],
            "total": total,
            "said": said,
        }))
        return 0
    form = "" if args.variant == DEFAULT_VARIANT else f" ({args.variant})"
    print(f"{'crib' if args.crib else 'hand'} {hand}, starter {starter}{form}")
    for item in items:
        print(f"  {item.kind:<8} {format_cards(item.cards):<15} {item.points:>2}")
    print(f"  {'total':<24} {total:>2}")
    print(said)
    return 0


# --------------------------------------------------------------------------- keep


def _cmd_keep(args) -> int:
    from ..keeping.tablekeep import COLUMNS

    try:
        crib = crib_mode_for(args.crib, args.variant)
    except ValueError as exc:
        raise UsageError(f"crib keep: --crib {args.crib}: {exc}") from None
    six_card = args.variant == DEFAULT_VARIANT
    if args.pegging and not six_card:
        raise UsageError(f"crib keep: --pegging: {args.variant} has no pegging table (the "
                         "six-card game's only); leave it out or give --no-pegging")
    pegging = six_card and args.pegging is not False
    if args.score is not None:
        return _keep_to_win(args, crib, pegging)
    for option, value in (("--samples", args.samples), ("--seed", args.seed),
                          ("--position", args.position)):
        if value is not None:
            raise UsageError(f"crib keep: {option} goes with --score (the keeps ranked by the "
                             "chance to win); without it the keeps are exact and ranked by "
                             "points")
    # numpy alone: no compiled code to import or load (analyzer.keeping.tablekeep)
    if crib == "table":
        from ..keeping.tablekeep import table_discards

        result = table_discards(_cards_text(args.cards), dealer=args.dealer,
                                variant=args.variant, pegging=pegging)
    else:
        from ..keeping.discard import evaluate_discards

        result = evaluate_discards(_cards_text(args.cards), dealer=args.dealer, crib=crib,
                                   variant=args.variant, pegging=pegging)
    shown = len(result["keep"]) if args.top is None else args.top
    rows = [
        {c: _plain(result[c][i]) for c in COLUMNS} for i in range(min(shown, len(result["keep"])))
    ]
    if args.json:
        print(json.dumps({
            "hand": result["hand"],
            "role": result["role"],
            "crib_mode": result["crib_mode"],
            "variant": result["variant"],
            "pegging": result["pegging"],
            "rows": rows,
        }))
        return 0
    sign = "+" if args.dealer else "-"
    form = "" if six_card else f", {args.variant}"
    note = (CRIB_MODE_NOTES if six_card else FORM_CRIB_NOTES)[result["crib_mode"]]
    net = f"net = hand {sign} crib" + (" + peg" if pegging else "")
    if six_card and not pegging:
        net += ", peg not counted"
    print(f"hand {result['hand']} as {result['role']}{form} (crib: {result['crib_mode']}, "
          f"{note}; {net})")
    peg_head = f" {'peg':>6}" if six_card else ""
    print(f"    {'keep':<12} {'discard':<7} {'hand':>6} {'min':>4} {'max':>4} {'std':>5}"
          f" {'crib':>6}{peg_head} {'net':>7}")
    for i, row in enumerate(rows):
        mark = "*" if i == 0 else " "
        peg = f" {row['peg_mean']:+6.3f}" if six_card else ""
        print(f"  {mark} {row['keep']:<12} {row['discard']:<7} {row['hand_mean']:6.3f}"
              f" {row['hand_min']:4d} {row['hand_max']:4d} {row['hand_std']:5.2f}"
              f" {row['crib_mean']:6.3f}{peg} {row['net']:7.3f}")
    best = rows[0]
    print(f"best: keep {best['keep']}, throw {best['discard']} (net {best['net']:.3f})")
    return 0


def _keep_to_win(args, crib: str, pegging: bool) -> int:
    """``crib keep --score ME OPP`` (three-player: ``ME LEFT RIGHT``): the keeps ranked by the
    probability of winning."""
    from ..play.winkeep import keep_to_win

    four = args.variant == "four-player"
    three = args.variant == "three-player"
    if args.position is not None and not (four or three):
        raise UsageError(f"crib keep: --position is for three-player and four-player, not "
                         f"{args.variant}")
    if three and len(args.score) != 3:
        raise UsageError(f"crib keep: --score: three-player takes three scores, yours, the "
                         f"player's on your left and the player's on your right (got "
                         f"{len(args.score)})")
    if not three and len(args.score) != 2:
        whose = "your side's and the other side's" if four else "yours and the opponent's"
        raise UsageError(f"crib keep: --score: {args.variant} takes two scores, {whose} (got "
                         f"{len(args.score)})")
    try:
        df = keep_to_win(_cards_text(args.cards), dealer=args.dealer, score=tuple(args.score),
                         samples=DEFAULT_SAMPLES if args.samples is None else args.samples,
                         seed=0 if args.seed is None else args.seed, crib=crib, pegging=pegging,
                         variant=args.variant, position=args.position)
    except ValueError as exc:
        raise UsageError(f"crib keep: --score: {exc}") from None
    a = df.attrs
    shown = list(range(len(df) if args.top is None else min(args.top, len(df))))
    # the keep chosen (starred) is shown whatever --top
    shown += [i for i, keep in enumerate(df["keep"].tolist())
              if keep == a["win_keep"] and i not in shown]
    columns = ["keep", "discard", "hand_mean", "crib_mean", "net", "p_win", "p_win_se"]
    columns = [c for c in df.columns if c in columns or c == "peg_mean"]
    rows = [{c: _plain(df[c].iloc[i]) for c in columns} for i in shown]
    p_of = dict(zip(df["keep"], df["p_win"], strict=True))
    if args.json:
        print(json.dumps({
            "hand": a["hand"], "role": a["role"], "score": list(a["score"]),
            "crib_mode": a["crib_mode"], "samples": a["samples"], "seed": a["seed"],
            "points_keep": a["points_keep"], "win_keep": a["win_keep"],
            "rival_keep": a["rival_keep"],
            "gain": a["gain"], "gain_se": a["gain_se"], "rows": rows,
            "variant": a["variant"], **({"position": a["position"]} if four or three else {}),
        }))
        return 0
    me, opp = a["score"][:2]
    if three:
        where = {"dealer": "dealer", "first": "first (on the dealer's left)",
                 "second": "second (on the dealer's right)"}[a["position"]]
        who = (f"{where}, three-player, you {me}, on your left {opp}, on your right "
               f"{a['score'][2]}")
    elif four:
        who = (f"{a['position']} (your side {'deals' if args.dealer else 'is pone'}), "
               f"four-player, your side {me}, the other side {opp}")
    else:
        form = "" if args.variant == DEFAULT_VARIANT else f", {args.variant}"
        who = f"{a['role']}{form}, you {me}, opponent {opp}"
    print(f"hand {a['hand']} as {who}: P(win) from {a['samples']:,} "
          f"sample{'s' if a['samples'] != 1 else ''} of the rest of the deal (seed {a['seed']})")
    print(f"    {'keep':<12} {'discard':<7} {'net':>7} {'P(win)':>7} {'±se':>7}")
    for row in rows:
        mark = "*" if row["keep"] == a["win_keep"] else " "
        print(f"  {mark} {row['keep']:<12} {row['discard']:<7} {row['net']:7.3f}"
              f" {row['p_win']:7.4f} {row['p_win_se']:7.4f}")
    points, chosen = a["points_keep"], a["win_keep"]
    print(f"points keep: {points} (P(win) {p_of[points]:.4f})")
    if chosen != points:
        print(f"score-aware keep: {chosen}, differs from the points keep: P(win) "
              f"{a['gain']:+.4f} ± {a['gain_se']:.4f}")
    elif a["gain"] == 0 and a["gain_se"] == 0:  # another suit of the same ranks, say
        print(f"score-aware keep: the points keep (the next best, {a['rival_keep']}, won in "
              f"the same samples: no better)")
    else:
        print(f"score-aware keep: the points keep (the next best, {a['rival_keep']}, has "
              f"P(win) {a['gain']:+.4f} ± {a['gain_se']:.4f}: not {SWITCH_Z:g} standard errors "
              f"better)")
    return 0


def _plain(value):
    """A numpy scalar as the plain Python number (or str) JSON and f-strings expect."""
    return value.item() if hasattr(value, "item") else value


# --------------------------------------------------------------------------- simulate


def _cmd_simulate(args) -> int:
    import shlex
    from pathlib import Path

    from ..core.files import provenance_file

    _check_players(args.players, "crib simulate")
    if args.record_games is not None and args.record is None:
        raise UsageError("crib simulate: --record-games needs --record FILE")
    from ..sim.harness import SAVED_FILES
    from ..sim.runs import MANIFEST

    run_files = (MANIFEST, *SAVED_FILES)
    if args.out is not None:
        check_output(args.out, "--out", "crib simulate", folder=True, files=run_files)
        check_run_folder(args.out, "--out", "crib simulate", SAVED_FILES, SAVED_FILES[-1])
    if args.record is not None:
        record = Path(args.record)
        out = None if args.out is None else Path(args.out).resolve()
        if out is not None:  # the run folder is made before the records are written
            if record.resolve() == out:
                raise UsageError(f"crib simulate: --record {record}: is the run folder --out "
                                 f"{args.out}: name them apart")
            if provenance_file(record).resolve() == out:
                raise UsageError(f"crib simulate: --record {record}: its provenance "
                                 f"{provenance_file(record)} would be the run folder --out "
                                 f"{args.out}: name them apart")
        if record.parent.resolve() == out:
            if record.name in run_files:
                raise UsageError(f"crib simulate: --record {record}: is one of the run's own "
                                 f"files ({', '.join(run_files)}): record under another name")
            if record.is_dir():  # in the run folder, made by the run if it is new
                raise UsageError(f"crib simulate: --record {record}: is a folder, not a file")
        else:
            check_output(record, "--record", "crib simulate")
        taken = () if args.out is None else [Path(args.out) / name for name in run_files]
        check_provenance([(record, "--record")], "crib simulate", taken=taken)
    n_record = 0 if args.record is None else (DEFAULT_RECORD_GAMES if args.record_games is None
                                               else args.record_games)
    as_table = args.record is not None and Path(args.record).suffix.lower() == ".parquet"
    if n_record > MAX_RECORD_GAMES and not as_table:
        raise UsageError(f"crib simulate: --record-games {n_record:,}: at most "
                         f"{MAX_RECORD_GAMES:,} as JSON Lines; record more as Parquet "
                         f"(--record FILE.parquet, at most {MAX_RECORD_GAMES_TABLE:,})")
    if args.resume and args.out is None:
        raise UsageError("crib simulate: --resume needs --out DIR, the folder of the run")
    seed = args.seed  # None with --resume: simulate takes the run's own
    from ..sim.harness import simulate
    from ..sim.runs import RunError

    show_progress = not args.quiet and sys.stderr.isatty()
    backend = "local" if args.scheduler is None else "dask"
    try:
        result = simulate(args.games, seed=seed, players=tuple(args.players),
                          workers=args.workers, record_games=n_record, progress=show_progress,
                          crib=args.crib, backend=backend, scheduler=args.scheduler,
                          checkpoint=args.out, resume=args.resume, time_limit=args.time_limit,
                          variant=args.variant)
    except KeyboardInterrupt:
        if args.out is None:
            raise
        # the chunks played are in the checkpoint (kept as each ends): say how to go on
        print(f"crib: interrupted; continue with --resume --out {args.out}", file=sys.stderr)
        return 130
    except (RunError, PlayerError) as exc:  # the API's words for resume=True are not said here
        raise UsageError(f"crib simulate: {str(exc).replace(' (resume=True in Python)', '')}"
                         ) from None
    except ValueError as exc:  # a form the engine does not play yet
        raise UsageError(f"crib simulate: {exc}") from None
    if args.out is not None:
        result.save(args.out, command=shlex.join(["crib", *args.argv]))
    if args.record is not None:
        from ..core.version import provenance
        from ..sim.records import write_records

        recorded = result.record_table() if as_table else result.records
        n_recorded = len(result.record_arrays[0]) if result.record_arrays else 0  # games
        write_records(args.record, recorded, provenance(
            shlex.join(["crib", *args.argv]), variant=result.variant, seed=result.seed,
            games=result.games, games_recorded=n_recorded,
            players=list(result.players), complete=result.complete,
            **({"format": "parquet", "rows": "one a deal"} if as_table else {})))
    if not result.complete:
        print(f"crib simulate: stopped at the time limit after {result.games:,} of "
              f"{result.games_requested:,} games"
              + (f"; continue with --resume --out {args.out}" if args.out else ""),
              file=sys.stderr)
    if args.json:
        print(json.dumps(result.to_dict()))
        return 0
    _print_simulation(result.to_dict(), _compiling(args))
    if args.out is not None:
        print(f"wrote {args.out}/summary.csv, margins.csv, crib_outcomes.csv, provenance.json")
    if args.record is not None:
        print(f"recorded {n_recorded:,} games in {args.record} (its provenance in "
              f"{provenance_file(args.record)})")
    return 0


def _run_time(d: dict, compiling: float = 0.0) -> str:
    """``2 workers: 1.24 s (8,065 games/s)``; a resumed run that was complete has nothing to
    time. ``compiling``: CPU seconds this process spent compiling kernels (the first run), said
    when a second or more, since the time and the rate include it.

    >>> _run_time({"workers": 1, "elapsed_seconds": 0.5, "games_per_second": 2000.0})
    '1 worker: 0.50 s (2,000 games/s)'
    >>> _run_time({"workers": 2, "elapsed_seconds": 0.01, "games_per_second": 0.0})
    '2 workers: no game left to play (the run was complete)'
    >>> _run_time({"workers": 2, "elapsed_seconds": 12.5, "games_per_second": 80.0}, 11.7)
    '2 workers: 12.50 s (80 games/s; about 12 s of it compiling, on the first run only)'
    """
    workers = f"{d['workers']} worker{'s' if d['workers'] != 1 else ''}"
    if not d["games_per_second"]:
        return f"{workers}: no game left to play (the run was complete)"
    note = (f"; about {compiling:.0f} s of it compiling, on the first run only"
            if compiling >= 1 else "")
    return (f"{workers}: {d['elapsed_seconds']:.2f} s ({d['games_per_second']:,.0f} "
            f"games/s{note})")


def _compiling(args) -> float:
    """CPU seconds the command has spent compiling so far (0 without a clock)."""
    clock = getattr(args, "compile_clock", None)
    return 0.0 if clock is None else clock.total_cpu()


def _print_simulation(d: dict, compiling: float = 0.0) -> None:
    """The readable summary of ``crib simulate``, for any form of the game."""
    game = VARIANTS[d["variant"]]
    low, high = d["first_dealer_win_ci"]
    players = d["players"]
    who = (f"{players[0]} in every seat" if len(set(players)) == 1 else
           " vs ".join(f"{name} (seat {i})" for i, name in enumerate(players)))
    form = "" if game.name == "six-card" else f" of {game.name}"
    stopped = "" if d["complete"] else f" (of {d['games_requested']:,}: stopped at the time limit)"
    print(f"{d['games']:,} games{stopped}{form}, seed {d['seed']}, {who}, "
          f"{_run_time(d, compiling)}")
    side = "his side with his partner; " if game.partnerships else ""
    print(f"first dealer wins  {d['first_dealer_win_rate']:7.2%}  ({side}95% CI {low:.2%} to "
          f"{high:.2%})")
    if game.partnerships:
        rates = d["side_win_rates"]
        print(f"side 0-2 wins      {rates[0]:7.2%}   side 1-3 wins {rates[1]:.2%}")
    elif game.players == 2:
        print(f"seat 0 wins        {d['seat0_win_rate']:7.2%}")
    else:
        print("seat wins          " + "   ".join(f"{i}: {rate:.2%}"
                                               for i, rate in enumerate(d["side_win_rates"])))
    lines = game.skunk_lines
    deeper = [f"double (<{lines[1]}) {d['double_skunk_rate']:.3%}",
              f"triple (<{lines[2]}) {d['triple_skunk_rate']:.3%}"][:game.skunk_tiers - 1]
    print("   ".join([f"skunked (<{lines[0]})      {d['skunk_rate']:7.2%}", *deeper])
          + ("   (a game with two losers can skunk both)" if game.teams > 2 else ""))
    print(f"deals per game     {d['mean_deals']:7.2f}")
    print("points per deal    pegging   hand   crib  heels  total")
    for role, points in d["points_per_deal"].items():
        crib = f"{points['crib']:6.3f}" if "crib" in points else f"{'':6}"
        heels = f"{points['heels']:6.3f}" if "heels" in points else f"{'':6}"
        print(f"  {role:<15} {points['pegging']:8.3f} {points['hand']:6.3f} {crib} {heels}"
              f" {sum(points.values()):6.3f}")


# --------------------------------------------------------------------------- duel


def _cmd_duel(args) -> int:
    _check_players([args.a, args.b], "crib duel")
    if args.games % 2:
        raise UsageError(f"crib duel: --games must be even (each player deals first in half), "
                         f"got {args.games}")
    from ..sim.duel import duel

    show_progress = not args.quiet and sys.stderr.isatty()
    backend = "local" if args.scheduler is None else "dask"
    try:
        result = duel(args.a, args.b, args.games, seed=args.seed, workers=args.workers,
                      progress=show_progress, backend=backend, scheduler=args.scheduler)
    except ValueError as exc:  # bad numbers, an unreachable scheduler (RunError)
        raise UsageError(f"crib duel: {exc}") from None
    d = result.to_dict()
    if args.json:
        print(json.dumps(d))
        return 0
    _print_duel(d, _compiling(args))
    return 0


def _print_duel(d: dict, compiling: float = 0.0) -> None:
    """The readable report of ``crib duel``."""
    a, b = d["players"]
    low, high = d["win_rate_ci"]
    mlow, mhigh = d["match_points_ci"]
    print(f"{a} (A) vs {b} (B): {d['games']:,} games, seed {d['seed']}, "
          f"{_run_time(d, compiling)}")
    print(f"first deals        A {d['first_deals'][0]:,}, B {d['first_deals'][1]:,}")
    print(f"A wins             {d['win_rate']:7.2%}  (95% CI {low:.2%} to {high:.2%})")
    print(f"A's match points   {d['match_points']:+7.4f} a game  (95% CI {mlow:+.4f} to "
          f"{mhigh:+.4f}; win 1, skunk 2, double skunk 3)")
    print(f"A skunks B         {d['a_skunk_rate']:7.2%}   double {d['a_double_skunk_rate']:.3%}")
    print(f"B skunks A         {d['b_skunk_rate']:7.2%}   double {d['b_double_skunk_rate']:.3%}")


# --------------------------------------------------------------------------- play

#: The forms ``crib play`` offers: every form, you against the AI in the other seats (in
#: four-player, an AI partner opposite you).
PLAY_VARIANTS = ("six-card", "five-card", "three-player", "four-player")
#: Who deals first in ``crib play``: you, the AI (the seat on your left when there are more
#: than two), or the cut (the rules' way, the default).
PLAY_FIRST = ("me", "ai", "cut")


#: The options of ``crib play`` that set up a game, and their defaults: a resumed game takes
#: them from its file.
PLAY_SETUP = {"variant": DEFAULT_VARIANT, "level": None, "opponent": None, "seed": None,
              "first": "cut", "muggins": False}


def _cmd_play(args) -> int:
    from ..table.levels import DEFAULT_LEVEL, LevelError, find_level

    history = None
    if not args.no_history:
        from ..table.history import HistoryError, check_history

        history, named = _history_path(args.history)
        if named is not None:
            check_output(history, named, "crib play")
        try:
            check_history(history)
        except HistoryError as exc:
            raise UsageError(f"crib play: cannot add the game to the history: {exc} "
                             "(--no-history plays without one)") from None
    if args.resume is not None:
        return _resume_play(args, history)
    for name, default in PLAY_SETUP.items():
        if getattr(args, name) is None:
            setattr(args, name, default)
    if args.variant not in PLAY_VARIANTS:
        raise UsageError(f"crib play: unknown variant {args.variant!r}: choose one of "
                         f"{', '.join(PLAY_VARIANTS)} (see crib play --help)")
    if args.muggins and VARIANTS[args.variant].teams != 2:
        raise UsageError(f"crib play: --muggins is played by two sides; in {args.variant} "
                         f"each of the {VARIANTS[args.variant].teams} players scores for "
                         "himself")
    level = None
    if args.opponent is None:
        try:
            level = find_level(DEFAULT_LEVEL if args.level is None else args.level)
        except LevelError as exc:
            raise UsageError(f"crib play: {exc} (see crib play --help)") from None
    else:
        _check_players([args.opponent], "crib play")
        args.opponent = args.opponent.strip().lower()  # as parse_player reads it: one name
    if args.save is not None:
        check_output(args.save, "--save", "crib play")
        _check_save_replaces_a_game(args.save)
    from .terminal import play_in_terminal

    return play_in_terminal(variant=args.variant,
                            opponent=args.opponent if level is None else level.player,
                            seed=args.seed, hints=args.hints, muggins=args.muggins,
                            first=args.first, save=args.save,
                            level=None if level is None else level.name, history=history,
                            auto_go=args.auto_go)


def _check_save_replaces_a_game(path: str) -> None:
    """Refuse ``--save FILE`` over a file that holds anything but games played with ``crib
    play``: the game's record replaces the file, which is right for an earlier game saved
    there, not for a file of anything else (notes, a run's records)."""
    from pathlib import Path

    from ..sim.records import RecordError, read_records

    file = Path(path)
    if not file.is_file() or file.stat().st_size == 0:
        return
    try:
        games = read_records(file)
    except (RecordError, OSError):
        games = []
    if not games or any("table" not in game for game in games):
        raise UsageError(f"crib play: --save {path}: the file is there and is not a game saved by "
                         "crib play: it is not replaced (give another name)")


def _history_path(given: str | None):
    """The history file, and what named it: ``--history PATH``, the environment variable
    :data:`analyzer.table.history.HISTORY_ENV`, or nothing (the user's data folder: None)."""
    import os
    from pathlib import Path

    from ..table.history import HISTORY_ENV, default_path

    if given is not None:
        return Path(given), "--history"
    return default_path(), HISTORY_ENV if os.environ.get(HISTORY_ENV) else None


# --------------------------------------------------------------------------- stats


def _cmd_stats(args) -> int:
    from ..table.history import HistoryError, history_stats
    from .stats import format_stats

    path, named = _history_path(args.history)
    if named is not None and not path.parent.is_dir():
        raise UsageError(f"crib stats: {named} {path}: no folder {path.parent}")
    try:
        stats = history_stats(path)
    except HistoryError as exc:
        raise UsageError(f"crib stats: {exc}") from None
    if args.json:
        print(json.dumps({"history": str(path), **stats.to_dict()}))
    elif stats.games == 0:
        print(f"crib stats: no games in the history yet ({path}); crib play adds each game")
    else:
        print(format_stats(stats, path))
    return 0


def _resume_play(args, history) -> int:
    """``crib play --resume FILE``: the game saved in FILE goes on where it stopped."""
    given = [f"--{name}" for name in PLAY_SETUP
             if getattr(args, name) is not None and getattr(args, name) is not False]
    if given:
        raise UsageError(f"crib play: --resume takes the game's setup from its file: "
                         f"{', '.join(given)} cannot be given with it")
    from .terminal import play_in_terminal, read_resumable

    record = read_resumable(args.resume)
    save = args.resume if args.save is None else args.save
    check_output(save, "--save" if args.save is not None else "--resume", "crib play")
    if args.save is not None:
        _check_save_replaces_a_game(args.save)
    return play_in_terminal(hints=args.hints, save=save, resume=record,
                            resume_path=args.resume, history=history, auto_go=args.auto_go)


# --------------------------------------------------------------------------- replay


def _read_game(command: str, path: str, game: int) -> dict:
    """Game ``game`` of the records file ``path``, or a UsageError naming ``command``."""
    from ..sim.records import RecordError, count_games, read_records
    from ..sim.recordtable import is_parquet

    table = is_parquet(path)  # a Parquet file reads only the game's rows
    try:
        records = read_records(path, games=[game] if table else None)
        games = {r.get("game"): r for r in records}
        if game in games:
            return games[game]
        n = count_games(path) if table else len(records)
    except RecordError as exc:
        raise UsageError(f"{command}: {exc}") from None
    raise UsageError(f"{command}: no game {game} in {path} ({n:,} game{'s' * (n != 1)} "
                     "recorded)")


def _cmd_replay(args) -> int:
    from ..sim.records import format_game

    record = _read_game("crib replay", args.file, args.game)
    try:
        print(format_game(record))
    except (KeyError, TypeError, IndexError, ValueError) as exc:
        raise UsageError(f"crib replay: game {args.game} in {args.file} is not a valid "
                         f"record ({exc!r})") from None
    return 0


# --------------------------------------------------------------------------- review


def _cmd_review(args) -> int:
    from ..table.review import format_review, review_game

    history, named = _history_path(args.history)
    if named is not None and not history.parent.is_dir():
        raise UsageError(f"crib review: {named} {history}: no folder {history.parent}")
    record = _read_game("crib review", args.file, args.game)
    try:
        review = review_game(record, seat=args.seat, samples=args.samples, seed=args.seed,
                             explain=args.explain)
    except ValueError as exc:  # RecordError included
        if str(exc).startswith("seat must be"):
            raise UsageError(f"crib review: --seat: {exc}") from None
        hint = ""
        if str(exc).endswith("say which seat to review"):
            from ..sim.records import record_form

            seats = record_form(record).players  # " (--seat 0 or 1)" with two
            hint = f" (--seat {', '.join(str(s) for s in range(seats - 1))} or {seats - 1})"
        raise UsageError(f"crib review: {args.file}: {exc}{hint}") from None
    if args.json:
        print(json.dumps(review.to_dict()))
    else:
        print(format_review(review))
    if (args.samples, args.seed, args.seat, args.explain) == (ADVISE_SAMPLES, 0, None, False):
        _fill_history_review(record, review, history)  # what crib play stores, had it finished
    return 0


def _fill_history_review(record: dict, review, history) -> None:
    """A finished game of the history whose review was stopped at its end gets this one's
    totals (crib play says so when it stops); a history that cannot be read is no matter here."""
    from ..table.history import HistoryError, fill_review

    try:
        filled = fill_review(record, review, history)
    except HistoryError:
        return
    if filled is not None:
        print(f"crib review: added to game {filled} of your history, whose review was stopped",
              file=sys.stderr)


# --------------------------------------------------------------------------- odds


def _places(se: float) -> int:
    """At least 4 decimals, and enough for two significant digits of the error (at most the 7
    the tables are written to; an error that 7 decimals show as 0 is shown with 4)."""
    return min(max(4, 1 - math.floor(math.log10(se))), 7) if se >= 5e-8 else 4


def _cmd_odds(args) -> int:
    if args.variant == "three-player":
        return _cmd_odds3(args)
    from ..keeping.winodds import win_probability, win_probability_se

    if args.third is not None or args.dealer_seat is not None:
        raise UsageError("crib odds: a third score and --dealer-seat are three-player's; "
                         f"{args.variant} takes ME OPP and --dealer or --pone")
    if not (args.dealer or args.pone):
        raise UsageError("crib odds: one of the arguments --dealer --pone is required (see "
                         "crib odds --help)")
    try:  # a score past its target, or a damaged installation
        p = win_probability(args.me, args.opp, args.dealer, args.variant)
        se = win_probability_se(args.me, args.opp, args.dealer, args.variant)
    except (OSError, ValueError) as exc:
        raise UsageError(f"crib odds: {exc}") from None
    role = "dealer" if args.dealer else "pone"
    low, high = max(p - 1.959964 * se, 0.0), min(p + 1.959964 * se, 1.0)
    if args.json:
        print(json.dumps({"me": args.me, "opponent": args.opp, "role": role, "p_win": p,
                          "se": se, "ci95": [low, high], "variant": args.variant}))
        return 0
    who = "you deal" if args.dealer else "the opponent deals"
    if args.variant == "four-player":
        who = "your side deals" if args.dealer else "the other side deals"
    form = "" if args.variant == "six-card" else f"{args.variant}: "
    places = _places(se)
    print(f"{form}P(win) = {p:.{places}f} ± {se:.{places}f} (you {args.me}, opponent "
          f"{args.opp}, {who}; ± is one standard error)")
    return 0


def _cmd_odds3(args) -> int:
    """``crib odds A B C --variant three-player [--dealer-seat D]``: each seat's chance."""
    from ..keeping.winodds import win_probability3, win_probability3_se

    if args.dealer or args.pone:
        raise UsageError("crib odds: three-player takes --dealer-seat (0, 1 or 2), not "
                         "--dealer or --pone")
    if args.third is None:
        raise UsageError("crib odds: three-player takes three scores, seat 0's, 1's and 2's")
    scores = (args.me, args.opp, args.third)
    dealer = 0 if args.dealer_seat is None else args.dealer_seat
    try:  # a damaged installation
        p = win_probability3(scores, dealer)
        se = win_probability3_se(scores, dealer)
    except (OSError, ValueError) as exc:
        raise UsageError(f"crib odds: {exc}") from None
    if args.json:
        print(json.dumps({"scores": list(scores), "dealer_seat": dealer, "p_win": list(p),
                          "se": list(se), "variant": args.variant}))
        return 0
    roles = {dealer: "deals", (dealer + 1) % 3: "leads, deals next", (dealer + 2) % 3: "third"}
    print(f"three-player, seat {dealer} deals (± is one standard error):")
    for seat in range(3):
        places = _places(se[seat])
        print(f"  seat {seat} ({roles[seat]}), {scores[seat]}: P(win) = {p[seat]:.{places}f} ± "
              f"{se[seat]:.{places}f}")
    return 0


# --------------------------------------------------------------------------- plot

PLOT_KINDS = ("census", "keep", "crib", "games", "odds")
#: The options each kind of plot reads (``--out`` and ``--dpi`` are everyone's); any other is
#: refused rather than silently ignored.
PLOT_OPTIONS = {
    "census": ("log", "variant"),
    "keep": ("hand", "dealer", "pone", "variant"),
    "crib": ("table", "reference"),
    "games": ("games", "seed", "players", "quiet", "variant"),
    "odds": (),
}
PLOT_GAMES = 10_000
PLOT_DPI = 120


def _cmd_plot(args) -> int:
    import shlex
    from pathlib import Path

    from ..core.files import provenance_file

    command = f"crib plot {args.kind}"
    for name in dict.fromkeys(n for options in PLOT_OPTIONS.values() for n in options):
        if getattr(args, name) not in (None, False) and name not in PLOT_OPTIONS[args.kind]:
            kinds = [k for k, options in PLOT_OPTIONS.items() if name in options]
            kinds = ", ".join(kinds[:-1]) + " and " * (len(kinds) > 1) + kinds[-1]
            raise UsageError(f"{command}: --{name} is for crib plot {kinds}, not {args.kind}")
    fmt = figure_format(args.out, "--out", command)
    check_output(args.out, "--out", command)
    check_provenance([(args.out, "--out")], command)
    dpi = PLOT_DPI if args.dpi is None else args.dpi
    variant = DEFAULT_VARIANT if args.variant is None else args.variant
    drawn = ""  # the seed drawn for the games, when none was given
    if args.kind == "keep":
        dealt = VARIANTS[variant].dealt
        if not args.hand:
            raise UsageError(f"{command}: --hand CARDS is needed ({dealt} cards)")
        if not (args.dealer or args.pone):
            raise UsageError(f"{command}: say whose crib it is: --dealer or --pone")
        from ..core.cards import parse_cards

        try:  # bad cards: one line before any work
            parse_cards(_cards_text(args.hand), n=dealt)
        except CardError as exc:
            raise UsageError(f"{command}: --hand: {exc}") from None
    elif args.kind == "crib":
        if args.table is None:
            raise UsageError(f"{command}: --table FILE is needed (a rank-only crib-value CSV: "
                             "card1, card2, dealer, pone)")
        table = read_rank_table(args.table, "--table", command, complete=True)
        reference = (None if args.reference is None
                     else read_rank_table(args.reference, "--reference", command,
                                           complete=False))
    elif args.kind == "games":
        players = [DEFAULT_PLAYER] if args.players is None else args.players
        _check_players(players, command)

    from ..research import plots

    drawn_from = {}  # what the figure was drawn from, for its provenance file
    if args.kind == "census":
        fig = plots.show_distribution(log=args.log, variant=variant)
        drawn_from = {"variant": variant, "log": args.log}
    elif args.kind == "keep":
        from ..keeping.discard import keep

        fig = plots.discard_chart(keep(_cards_text(args.hand), dealer=args.dealer,
                                       variant=variant))
        drawn_from = {"variant": variant, "hand": _cards_text(args.hand),
                      "crib": "yours" if args.dealer else "the opponent's"}
    elif args.kind == "crib":
        label = "reference" if args.reference is None else Path(args.reference).stem
        fig = plots.crib_heatmap(table, title=f"Crib values: {Path(args.table).name}",
                                 reference=reference, reference_label=label)
        drawn_from = {"table": args.table, "reference": args.reference}
    elif args.kind == "odds":
        from ..keeping.winodds import win_table

        fig = plots.win_odds_heatmap(win_table())
        drawn_from = {"table": "the shipped win-odds table (win_odds.csv)"}
    else:
        from ..sim.harness import simulate

        show_progress = not args.quiet and sys.stderr.isatty()
        try:
            result = simulate(PLOT_GAMES if args.games is None else args.games, seed=args.seed,
                              players=tuple(players), progress=show_progress, variant=variant)
        except ValueError as exc:  # players that do not fit the form's seats
            raise UsageError(f"{command}: {exc}") from None
        fig = plots.game_report(result)
        drawn_from = {"variant": variant, "seed": result.seed, "games": result.games,
                      "players": list(result.players)}
        if args.seed is None:  # drawn fresh: said, so that the figure can be drawn again
            drawn = f"; seed {result.seed} (--seed {result.seed} plays the same games)"

    save_figure(fig, args.out, fmt, dpi, "--out", command, shlex.join(["crib", *args.argv]),
                **drawn_from)
    width, height = fig.get_size_inches()
    size = (f"{round(width * dpi)} x {round(height * dpi)} pixels"
            if fmt in ("png", *PILLOW_FORMATS) else f"{width:g} x {height:g} inches")
    print(f"wrote {args.out} ({size}) and {provenance_file(args.out)} (its provenance)"
          f"{drawn}")
    return 0


# --------------------------------------------------------------------------- tables


def _cmd_tables(args) -> int:
    from .tables import run

    return run(args)


# --------------------------------------------------------------------------- bench


def _cmd_bench(args) -> int:
    if args.repeats is not None and (args.serve or args.cold or args.against is not None):
        raise UsageError("crib bench: --repeats goes with the plain benchmark, not with --serve, "
                         "--cold or --against (--rounds)")
    if args.rounds is not None and args.against is None:
        raise UsageError("crib bench: --rounds goes with --against (runs of each commit, in "
                         "turn)")
    if args.serve:
        return _bench_serve(args)
    if any(getattr(args, name) is not None for name in ("clients", "seconds", "think")):
        raise UsageError("crib bench: --clients, --seconds and --think go with --serve")
    if args.cold:
        if args.against is not None:
            raise UsageError("crib bench: --cold measures this checkout only: leave out --against")
        return _bench_cold(args)
    if args.against is not None:
        from .benchcompare import BenchCompareError, compare_with_commit, format_comparison

        try:
            result = compare_with_commit(args.against, 2 if args.rounds is None else args.rounds,
                                         progress=None if args.json else print)
        except BenchCompareError as exc:
            raise UsageError(f"crib bench: {exc}") from None
        if args.json:
            print(json.dumps(result))
        else:
            print()
            print("\n".join(format_comparison(result)))
        return 0
    from .bench import run_benchmarks

    repeats = 5 if args.repeats is None else args.repeats
    # each figure as it is measured on stderr (minutes of work); the table alone on stdout
    progress = None if args.json else (lambda line: print(line, file=sys.stderr, flush=True))
    results = run_benchmarks(progress=progress, repeats=repeats)
    if args.json:
        print(json.dumps(results))
        return 0
    width = max(len(r["name"]) for r in results["figures"])
    for r in results["figures"]:
        print(f"{r['name']:<{width}}  {r['value']:>12.4g} {r['unit']:<12} {r.get('note', '')}")
    return 0


def _bench_serve(args) -> int:
    import importlib.util

    if args.cold or args.against is not None:
        raise UsageError("crib bench: --serve measures the server alone: leave out --cold and "
                         "--against")
    missing = [name for name in WEB_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise UsageError(f"crib bench --serve: needs the web extra ({', '.join(missing)} not "
                         "installed): pip install 'analyzer[web]'")
    from ..web.load import THINK, format_load, load_test

    if not args.json:
        print("starting crib serve on a free loopback port...", flush=True)
    result = load_test(clients=20 if args.clients is None else args.clients,
                       seconds=30.0 if args.seconds is None else args.seconds,
                       think=THINK if args.think is None else args.think)
    if args.json:
        print(json.dumps(result))
    else:
        print("\n".join(format_load(result)))
    return 1 if result["errors"] else 0


def _bench_cold(args) -> int:
    from .coldbench import format_cold, run_cold
    from .compiletime import format_kernel_table

    results = run_cold(progress=None if args.json else print)
    if args.json:
        print(json.dumps(results))
        return 0
    print()
    print("\n".join(format_cold(results)))
    if "error" in results[-1]:
        return 1
    kernels = results[-1]["first"]["kernels"]  # crib warmup --all's: every kernel, once
    print()
    print(f"{results[-1]['name']}: the kernels compiled, most CPU first")
    print("\n".join(format_kernel_table(kernels, top=25)))
    return 0


# --------------------------------------------------------------------------- warmup


def _cmd_warmup(args) -> int:
    from .warmup import run_warmup

    seconds = run_warmup(everything=args.all, progress=not args.quiet)
    if not args.quiet:
        print(f"crib warmup: ready ({seconds:.1f} s)", file=sys.stderr)
    return 0


# --------------------------------------------------------------------------- serve

#: The packages of the ``web`` extra that ``crib serve`` needs.
WEB_MODULES = ("fastapi", "uvicorn")
SERVE_HOST = "127.0.0.1"
SERVE_PORT = 8000


def _cmd_serve(args) -> int:
    import importlib.util

    missing = [name for name in WEB_MODULES if importlib.util.find_spec(name) is None]
    if missing:
        raise UsageError(f"crib serve: needs the web extra ({', '.join(missing)} not "
                         "installed): pip install 'analyzer[web]' (or make serve)")
    if args.screenshots is not None:
        given = [f"--{name}" for name in ("host", "port", "open") if getattr(args, name)
                 not in (None, False)]
        if given:
            raise UsageError(f"crib serve: --screenshots serves on a free loopback port of its "
                             f"own: leave out {', '.join(given)}")
        return _serve_screenshots(args.screenshots)
    host = SERVE_HOST if args.host is None else args.host
    port = SERVE_PORT if args.port is None else args.port
    from ..web.serve import ServeError, is_loopback, listen, serve, url_of

    try:
        sock = listen(host, port)
    except ServeError as exc:
        raise UsageError(f"crib serve: {exc}") from None
    url = url_of(sock)
    if is_loopback(sock):
        print(f"crib serve: bound to {host} (loopback): only this machine can connect")
    else:
        print(f"crib serve: warning: bound to {host}, reachable from other machines on "
              "the network; the pages have no login and no encryption", file=sys.stderr)
    from ..web.app import create_app

    def on_start():
        # said once the server answers and handles Ctrl-C: a Ctrl-C between a line printed
        # before it started and the start was lost, and the server ran on
        print(f"serving {url}/count, {url}/keep, {url}/trainer, {url}/play, {url}/review, "
              f"{url}/history and the API {url}/api/ (Ctrl-C stops it)", flush=True)
        if args.open:
            import webbrowser

            webbrowser.open(url + "/count")
    app = None
    try:  # Ctrl-C at any moment from here on stops the server cleanly
        started = time.monotonic()
        app = create_app(warm=True)
        clock = getattr(args, "compile_clock", None)
        if clock is not None:
            app.state.warming.add_done_callback(
                lambda _: _say_compiled("crib serve", clock, time.monotonic() - started))
        serve(app, sock, on_start=on_start)
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    print("crib serve: stopped", flush=True)
    if app is not None and app.state.work.running:
        # a P(win), or the warm-up's compiling, still at work in its thread: nobody waits for
        # its answer, and Python would wait for the thread at exit (a minute, compiling); what
        # is registered to run at exit (crib bench --cold's compile report) runs first
        import atexit
        import os

        atexit._run_exitfuncs()
        sys.stderr.flush()
        os._exit(0)
    return 0


def _say_compiled(command: str, clock, seconds: float, file=None) -> None:
    """Close the line said before a first compile (:func:`.compiletime.notice_line`), once a
    long-running command's warm-up is done, on stderr (or ``file``): nothing when it compiled
    nothing (a warm cache).

    >>> class Clock:
    ...     def rows(self): return [{"kernel": "play.engine._run_chunk"}]
    >>> _say_compiled("crib serve", Clock(), 63.4, file=sys.stdout)
    crib serve: compiling done in 63 s; later starts load it in seconds
    """
    if clock.rows():
        print(f"{command}: compiling done in {seconds:.0f} s; later starts load it in seconds",
              file=sys.stderr if file is None else file, flush=True)


def _serve_screenshots(folder: str) -> int:
    from ..web.browser import missing, screenshots

    check_output(folder, "--screenshots", "crib serve", folder=True)
    reason = missing()
    if reason is not None:
        raise UsageError(f"crib serve: --screenshots needs a browser to drive: {reason}")
    from pathlib import Path

    Path(folder).mkdir(exist_ok=True)
    for path in screenshots(folder):
        print(f"wrote {path}")
    return 0


# --------------------------------------------------------------------------- peg


def _cmd_peg(args) -> int:
    from ..core.cards import format_cards, parse_cards
    from ..play.search import advise_play

    if args.variant != "six-card":
        return _peg_form(args)
    if args.seat is not None or args.dealer_seat is not None:
        raise UsageError("crib peg: --seat and --dealer-seat are for the other forms "
                         "(--variant); in six-card say --dealer or --pone")
    if not (args.dealer or args.pone):
        raise UsageError("crib peg: one of the arguments --dealer --pone is required (see "
                         "crib peg --help)")
    if args.score is not None and len(args.score) != 2:
        got = len(args.score)
        raise UsageError(f"crib peg: --score: yours and the opponent's, got {got} "
                         f"number{'s' if got != 1 else ''}")
    if args.thrown is not None and len(args.thrown) != 2:
        raise UsageError(f"crib peg: --thrown: your two cards in the crib, got "
                         f"{len(args.thrown)}")
    try:
        advice = advise_play(_cards_text(args.hand), _cards_text(args.played or []),
                             dealer=args.dealer, starter=args.starter,
                             thrown=None if args.thrown is None else _cards_text(args.thrown),
                             score=args.score, samples=args.samples, seed=args.seed,
                             continuation=args.continuation, infer=not args.uniform)
    except ValueError as exc:  # CardError included
        raise UsageError(f"crib peg: {exc}") from None
    role = "dealer" if args.dealer else "pone"
    hand = format_cards(parse_cards(_cards_text(args.hand)))
    played = " ".join("go" if t.lower() == "go" else format_cards(parse_cards(t))
                      for t in _cards_text(args.played or []).replace(",", " ").split())
    starter = format_cards(parse_cards(args.starter))
    rows = [{k: _plain(v) for k, v in row.items()} for row in advice.to_dict("records")]
    best, count = advice.attrs["best"], int(advice.attrs["count"])
    if args.json:
        print(json.dumps({"hand": hand, "role": role, "starter": starter, "played": played,
                          "count": count, "score": args.score, "samples": args.samples,
                          "seed": args.seed, "continuation": args.continuation,
                          "opponent": "uniform" if args.uniform else "ev discard",
                          "best": best, "rows": rows}))
        return 0
    said = f"; played {played}" if played else "; nothing laid yet"
    score = f"; score {args.score[0]}-{args.score[1]}" if args.score else ""
    print(f"hand {hand} as {role}, starter {starter}{said} (count {count}){score}; "
          f"{args.samples:,} sample{'s' if args.samples != 1 else ''}, seed {args.seed}")
    if best == "go":
        print(f"go: no card you hold can be laid on count {count}")
        return 0
    head = (f"    {'card':<4} {'now':>3} {'for':>6} {'against':>7} {'rest':>7} {'±se':>6}"
            f" {'total':>7}")
    if args.score:
        head += f" {'P(win)':>7} {'±se':>6}"
    print(head)
    for i, row in enumerate(rows):
        line = (f"  {'*' if i == 0 else ' '} {row['card']:<4} {row['now']:3d}"
                f" {row['rest_for']:6.3f} {row['rest_against']:7.3f} {row['rest']:+7.3f}"
                f" {row['rest_se']:6.3f} {row['total']:+7.3f}")
        if args.score:
            line += f" {row['p_win']:7.4f} {row['p_win_se']:6.4f}"
        print(line + ("  wins now" if row["wins_now"] else ""))
    top = rows[0]
    why = "it reaches the target" if top["wins_now"] else \
        f"P(win) {top['p_win']:.4f}" if args.score else f"total {top['total']:+.3f}"
    print(f"best: lay {best} ({why})")
    return 0


def _said_entry(entry: str) -> str:
    """One ``SEAT:CARD`` or ``SEAT:go`` entry of a history ``advise_play`` accepted, written as
    the project writes it (``1:5h`` as ``1:5H``, ``2:GO`` as ``2:go``)."""
    from ..core.cards import format_cards, parse_cards

    seat, _, said = entry.partition(":")
    said = "go" if said.strip().lower() == "go" else format_cards(parse_cards(said))
    return f"{seat.strip()}:{said}"


def _peg_form(args) -> int:
    """``crib peg --variant`` for five-card, three- and four-player (seats, and the history as
    ``SEAT:CARD`` / ``SEAT:go``)."""
    from ..core.cards import format_cards, parse_cards
    from ..play.search import advise_play

    where = f"crib peg --variant {args.variant}"
    if args.dealer or args.pone:
        raise UsageError(f"{where}: give --seat and --dealer-seat (seat numbers), not "
                         "--dealer/--pone")
    if args.seat is None or args.dealer_seat is None:
        raise UsageError(f"{where}: --seat (yours) and --dealer-seat are required")
    if args.continuation != "greedy":
        raise UsageError(f"{where}: --continuation is six-card's")
    played = " ".join(args.played or [])
    try:
        advice = advise_play(_cards_text(args.hand), played, dealer=args.dealer_seat,
                             seat=args.seat, starter=args.starter, variant=args.variant,
                             thrown=None if args.thrown is None else _cards_text(args.thrown),
                             score=args.score, samples=args.samples, seed=args.seed,
                             infer=not args.uniform, goes="table")  # goes as said at a table
    except ValueError as exc:  # CardError included
        raise UsageError(f"{where}: {exc}") from None
    hand = format_cards(parse_cards(_cards_text(args.hand)))
    starter = format_cards(parse_cards(args.starter))
    played = " ".join(_said_entry(entry) for entry in played.replace(",", " ").split())
    rows = [{k: _plain(v) for k, v in row.items()} for row in advice.to_dict("records")]
    best, count = advice.attrs["best"], int(advice.attrs["count"])
    if args.json:
        print(json.dumps({"variant": args.variant, "hand": hand, "seat": args.seat,
                          "dealer_seat": args.dealer_seat, "starter": starter,
                          "played": played, "count": count, "score": args.score,
                          "samples": args.samples, "seed": args.seed,
                          "opponent": "uniform" if args.uniform else "ev discard",
                          "best": best, "rows": rows}))
        return 0
    said = f"; played {played}" if played else "; nothing laid yet"
    score = f"; scores {'-'.join(str(x) for x in args.score)}" if args.score else ""
    print(f"{args.variant}: hand {hand} in seat {args.seat} (seat {args.dealer_seat} deals), "
          f"starter {starter}{said} (count {count}){score}; {args.samples:,} "
          f"sample{'s' if args.samples != 1 else ''}, seed {args.seed}")
    if best == "go":
        print(f"go: no card you hold can be laid on count {count}")
        return 0
    aware = advice.attrs["score_aware"]
    head = (f"    {'card':<4} {'now':>3} {'for':>6} {'against':>7} {'rest':>7} {'±se':>6}"
            f" {'total':>7}")
    print(head + (f" {'P(win)':>7} {'±se':>6}" if aware else ""))
    for i, row in enumerate(rows):
        line = (f"  {'*' if i == 0 else ' '} {row['card']:<4} {row['now']:3d}"
                f" {row['rest_for']:6.3f} {row['rest_against']:7.3f} {row['rest']:+7.3f}"
                f" {row['rest_se']:6.3f} {row['total']:+7.3f}")
        if aware:
            line += f" {row['p_win']:7.4f} {row['p_win_se']:6.4f}"
        print(line + ("  wins now" if row["wins_now"] else ""))
    top = rows[0]
    why = "it reaches the target" if top["wins_now"] else \
        f"P(win) {top['p_win']:.4f}" if aware else f"total {top['total']:+.3f}"
    print(f"best: lay {best} ({why})")
    return 0


# --------------------------------------------------------------------------- parser


def _add_history(p, what: str) -> None:
    from ..table.history import HISTORY_ENV

    p.add_argument("--history", metavar="PATH",
                   help=f"{what} (default: ${HISTORY_ENV} if set, else history.sqlite3 in "
                   "your user data folder)")


class _KeepLines(argparse.HelpFormatter):
    """Help as argparse wraps it, but a text of several lines (a list in an epilog) as
    written."""

    def _fill_text(self, text, width, indent):
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def _levels_help() -> str:
    """``crib play --help``'s list of the levels, one a line."""
    from ..table.levels import DEFAULT_LEVEL, LEVELS

    lines = [f"levels, weakest first (--level NAME; {DEFAULT_LEVEL} unless --level or "
             "--opponent):"]
    lines += [f"  {level.name:<8}  {level.player:<11}  {level.about}" for level in LEVELS]
    return "\n".join(lines)


def _add_json(p) -> None:
    p.add_argument("--json", action="store_true", help="print one JSON object")


def _add_quiet(p, what: str = "no progress bar") -> None:
    p.add_argument("--quiet", action="store_true", help=what)


def _add_players(p, default=(DEFAULT_PLAYER,), note: str = "",
                 seats: str = "the seats in order") -> None:
    p.add_argument("--players", nargs="+", metavar="PLAYER",
                   default=None if default is None else list(default),
                   help=f"{note}DISCARD+PEGGING, one for every seat or one for each of "
                   f"{seats}; discard: {', '.join(DISCARD_POLICY_NAMES)}; pegging: "
                   f"{', '.join(n for n in PEGGING_POLICY_NAMES if n != 'ordered')}; or "
                   f"baseline, or best, the strongest (default: {DEFAULT_PLAYER})")


def _add_seed(p, default=None, note: str = "") -> None:
    said = "fresh entropy, printed" if default is None else str(default)
    p.add_argument("--seed", type=_seed, default=default, metavar="S",
                   help=f"{note}seed, 0 to 2**63-1 (default: {said}); same seed, same result")


def _add_workers(p) -> None:
    p.add_argument("--workers", type=_workers, metavar="W",
                   help=f"threads, 1 to {MAX_WORKERS} (default: this machine's cores)")


def _add_role(p, required: bool, note: str = "") -> None:
    role = p.add_mutually_exclusive_group(required=required)
    role.add_argument("--dealer", action="store_true",
                      help=f"{note}the crib is yours: its value is added")
    role.add_argument("--pone", action="store_true",
                      help=f"{note}the crib is the opponent's: its value is taken off")


def _add_variant(p) -> None:
    p.add_argument("--variant", choices=VARIANT_NAMES, default=DEFAULT_VARIANT,
                   help=f"the form of the game: {', '.join(VARIANT_NAMES)} (default "
                   f"{DEFAULT_VARIANT}); see docs/rules.md")


def _add_table_crib(p, what: str) -> None:
    p.add_argument("--crib", choices=TABLE_MODES, default=TABLE_MODES[0],
                   help=f"crib values {what}: the form's self-play table (default) or the exact "
                   "uniform-opponent values")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="crib",
        description="Cribbage strategy analyzer: which cards to keep, hands counted as at the "
        "table, games against the AI in the terminal or the browser, AI-against-AI "
        "simulations, self-play tables and benchmarks.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version, nargs=0,
                        help="show the version and exit")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser(
        "count", help="count a hand (or crib) the way it is said at the table",
        description="Count four cards with the starter (three in five-card): each fifteen, "
        "pair, run, flush and nobs with its cards and points, the total, and the count as it "
        "is said at the table. --crib counts a crib, whose flush needs all five cards.")
    p.add_argument("cards", nargs="+", help="four cards, e.g. 5H 5C 5S JD (or 5h,5c,5s,jd); "
                   "three for a five-card hand")
    p.add_argument("--starter", required=True, help="the starter (cut) card, e.g. 5D")
    p.add_argument("--crib", action="store_true", help="count as a crib (flush needs all five)")
    _add_variant(p)
    _add_json(p)
    p.set_defaults(func=_cmd_count)

    p = sub.add_parser(
        "keep", help="rank the ways to keep four cards of six (or of five, or three of five, "
        "in the other forms)",
        description="Rank every way to keep four of your six cards (four of five with three or "
        "four players, three of five in five-card): the hand's exact mean over the unseen "
        "starters with its range, the crib's expected value (added with --dealer, taken off "
        "with --pone), the play's value (six-card), and the net. With --score, rank them by "
        "the probability of winning from the scores before the deal instead, simulating the "
        "rest of the deal.")
    p.add_argument("cards", nargs="+", help="six cards, e.g. 5H 5S 6D JC QS KH; five in the "
                   "other forms")
    _add_role(p, required=True)
    p.add_argument("--crib", choices=CRIB_MODES, default=None,
                   help="how the thrown cards are valued: the self-play table (the six-card "
                   "default), the exact uniform-opponent enumeration, or the exact enumeration "
                   "weighted by self-play throw frequencies (six-card only); every form's "
                   "default is its own self-play table")
    p.add_argument("--top", type=_count, metavar="N",
                   help="show only the N best discards (at least 1; there are 15, or 5 or 10 in "
                   "the other forms)")
    p.add_argument("--pegging", action=argparse.BooleanOptionalAction, default=None,
                   help="count the play in the net: each keep's expected pegging points for "
                   "minus against, from the self-play pegging table (six-card only; the "
                   "default there; refused in the other forms, which have no such table)")
    p.add_argument("--score", nargs="+", type=_score, metavar="N",
                   help="rank by the probability of winning from the scores before the deal, "
                   "simulating the rest of the deal: ME OPP, each 0 to 120 (0 to 60 in "
                   "five-card, the pone's three for last in it; four-player: your side's and "
                   "the other side's); three-player: ME LEFT RIGHT, yours, the player's on your "
                   "left (who plays after you) and the player's on your right")
    p.add_argument("--position", choices=FORM_POSITIONS, default=None,
                   help="with --score, where you sit from the dealer round to the left: "
                   "four-player: dealer, first (his left: you lead), second (his partner), "
                   "third (his right); three-player: dealer, first (his left: you lead and "
                   "show first), second (his right); default dealer with --dealer, first with "
                   "--pone")
    # None when not given, so that keep without --score refuses them (it reads neither)
    p.add_argument("--samples", type=_number(low=1, high=10**7, integer=True), metavar="N",
                   help=f"with --score: samples of the rest of the deal, 1 to 10,000,000 "
                   f"(default {DEFAULT_SAMPLES:,})")
    p.add_argument("--seed", type=_seed, metavar="S",
                   help="with --score: the samples' seed, 0 to 2**63-1 (default: 0); same seed, "
                   "same result")
    _add_variant(p)
    _add_json(p)
    p.set_defaults(func=_cmd_keep)

    p = sub.add_parser(
        "peg", help="which card to lay now in the play (every form)",
        description="Value each card you can lay now by rollouts over the opponent's unseen "
        "cards: the points it pegs now, the pegging for and against you in the rest of the play, "
        "and with --score the probability of winning the game. --hand is the four cards you "
        "kept (those you laid included); --played every card laid so far in the play, in order, "
        "both players' (yours are the ones in --hand); counts, goes and whose turn follow by the "
        "rules (if the last card is yours, the opponent said go). With --variant five-card, "
        "three-player or four-player: --seat and --dealer-seat instead of --dealer/--pone, "
        "--played as SEAT:CARD and SEAT:go in order, the goes as said at the table (once a "
        "count; asked after your go, you are advised on the next count's lead), --score one "
        "number a side, before this play (the points of --played are added).")
    p.add_argument("--hand", nargs="+", required=True, metavar="CARD",
                   help="the four cards you kept (three in five-card), e.g. 4C 5H 9S KD")
    p.add_argument("--played", nargs="*", metavar="CARD",
                   help="the cards laid so far in this play, in order (default: none)")
    p.add_argument("--starter", required=True, metavar="CARD", help="the starter card")
    role = p.add_mutually_exclusive_group()
    role.add_argument("--dealer", action="store_true", help="you dealt (the pone leads)")
    role.add_argument("--pone", action="store_true", help="you are the pone (you lead)")
    # the seats' range is the form's (0 to 2 in three-player): checked with the form
    p.add_argument("--seat", type=_number(low=0, integer=True), metavar="S",
                   help="other forms: your seat, 0 to players - 1")
    p.add_argument("--dealer-seat", type=_number(low=0, integer=True), metavar="D",
                   help="other forms: the dealer's seat, 0 to players - 1 (the seat on its "
                   "left leads)")
    p.add_argument("--thrown", nargs="+", metavar="CARD",
                   help="your cards in the crib (two; one with three or four players; default: "
                   "unknown, counted as unseen)")
    p.add_argument("--score", nargs="+", type=_number(low=0, high=120, integer=True),
                   metavar="SCORE",
                   help="the scores now, 0 to 120, yours then the opponent's: adds each card's "
                   "probability of winning and chooses by it (other forms: one a side, in "
                   "side order, before this play, 0 to 60 in five-card; a card that reaches "
                   "the target comes first)")
    p.add_argument("--samples", type=_number(low=1, high=1_000_000, integer=True),
                   default=ADVISE_SAMPLES, metavar="N",
                   help=f"samples of the opponent's cards, 1 to 1,000,000 (default "
                   f"{ADVISE_SAMPLES:,})")
    _add_seed(p, default=0)
    p.add_argument("--continuation", choices=("greedy", "lookahead"), default="greedy",
                   help="how both players lay in the rollouts (default greedy)")
    p.add_argument("--uniform", action="store_true",
                   help="draw the others' cards uniformly from those their goes allow (default: "
                   "as their discards suggest, if they keep what the ev policy keeps)")
    _add_variant(p)
    _add_json(p)
    p.set_defaults(func=_cmd_peg)

    p = sub.add_parser(
        "simulate", help="play AI against AI and report the statistics",
        description="Play whole games AI against AI, with the full rules of the form, and "
        "report the first dealer's edge, the win rates by seat, the skunk rates, the deals a "
        "game and the points a deal by phase and role. Same seed, same result, whatever the "
        "workers or the backend; long runs checkpoint to --out and resume.")
    p.add_argument("--games", type=_games, required=True, metavar="N",
                   help=f"how many games to play, 1 to {MAX_GAMES:,}")
    _add_seed(p)
    _add_players(p, seats="the seats in order")
    _add_variant(p)
    _add_workers(p)
    _add_table_crib(p, "the ev policy reads")
    p.add_argument("--out", metavar="DIR",
                   help="write summary.csv, margins.csv, crib_outcomes.csv, provenance.json; "
                   "finished chunks are checkpointed there as they complete (run.json, chunks/); "
                   "DIR is created if its parent folder exists")
    p.add_argument("--resume", action="store_true",
                   help="continue the run checkpointed in --out DIR: only missing chunks are "
                   "played; a different seed, players or games is refused")
    p.add_argument("--time-limit", type=_seconds, metavar="SECONDS",
                   help="stop at the first chunk boundary after this long (a finite number "
                   "above 0); the partial result is valid, and with --out it can be resumed")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the chunks on a Dask cluster: tcp://host:8786, or 'local' for a "
                   "LocalCluster on this machine (needs pip install 'analyzer[dask]')")
    p.add_argument("--record", metavar="FILE",
                   help="write game records: JSON Lines (format 1, or 2 for the other forms), "
                   "or a Parquet table of one row a deal when FILE ends in .parquet")
    p.add_argument("--record-games", type=_number(low=1, high=MAX_RECORD_GAMES_TABLE,
                                                  integer=True),
                   metavar="K", help=f"how many games --record keeps, 1 to {MAX_RECORD_GAMES:,} "
                   f"as JSON Lines, {MAX_RECORD_GAMES_TABLE:,} as Parquet "
                   f"(default {DEFAULT_RECORD_GAMES})")
    _add_json(p)
    _add_quiet(p)
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser(
        "duel", help="one player against another: win rate, match points, skunks",
        description="Play A against B, each dealing first in half the games (no cut), and "
        "report A's win rate and net match points per game (win 1, skunk 2, double skunk 3) "
        "with 95% intervals, and the skunk rates each way.")
    for name, seat in (("a", "A"), ("b", "B")):
        p.add_argument(name, metavar=seat,
                       help=f"player {seat}: DISCARD+PEGGING; discard: "
                       f"{', '.join(DISCARD_POLICY_NAMES)}; pegging: "
                       f"{', '.join(n for n in PEGGING_POLICY_NAMES if n != 'ordered')}; or "
                       "baseline, or best, the strongest")
    p.add_argument("--games", type=_number(low=2, high=MAX_GAMES, integer=True), required=True,
                   metavar="N", help=f"how many games, an even number from 2 to {MAX_GAMES:,}")
    _add_seed(p)
    _add_workers(p)
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run the chunks on a Dask cluster: tcp://host:8786, or 'local' for a "
                   "LocalCluster on this machine (needs pip install 'analyzer[dask]'); the same "
                   "games as on this machine's cores")
    _add_json(p)
    _add_quiet(p)
    p.set_defaults(func=_cmd_duel)

    p = sub.add_parser(
        "play", help="play a game against the AI in the terminal, with hints, muggins, undo "
        "and resume",
        description="Play one game of cribbage against an AI player in the terminal, at a "
        "level (below) or against any player: two-player (six-card, five-card), or "
        "three-player against two AIs, or four-player with an AI partner against two AIs. "
        "Type the cards (5H JC) or their "
        "positions (1 4) to discard and to lay (the go is said for you when no card fits), ? "
        "for the analyzer's advice, undo to take back your last decision (unless the AI or the "
        "deal has shown cards since), help for the commands, quit (or Ctrl-C) to stop. The game"
        " is saved as a record (crib replay prints it) to --save FILE, or to crib-game-DATE-"
        "TIME.jsonl here, and added to your history of games (crib stats); a game stopped keeps"
        " its deal in progress, and --resume FILE goes on with it. Exit status 0, or 130 after "
        "Ctrl-C.",
        epilog=_levels_help(), formatter_class=_KeepLines)
    p.add_argument("--variant", default=None, metavar="FORM",
                   help=f"the form of the game: {', '.join(PLAY_VARIANTS)} (default "
                   f"{DEFAULT_VARIANT})")
    against = p.add_mutually_exclusive_group()
    against.add_argument("--level", metavar="NAME",
                         help="how strong the AI plays: Beginner, Casual, Club or Expert (any "
                         "case; the default Expert), see the levels below")
    against.add_argument("--opponent", metavar="PLAYER",
                         help="instead of a level, any AI player: DISCARD+PEGGING as for "
                         "simulate, or baseline, or best (the strongest, Expert's)")
    _add_seed(p)
    p.add_argument("--hints", action="store_true",
                   help="show the analyzer's advice at every decision (? shows it once)")
    p.add_argument("--auto-go", action=argparse.BooleanOptionalAction, default=True,
                   help="say go for you when no card fits (the default); --no-auto-go asks "
                   "you to type it, once a count")
    p.add_argument("--muggins", action="store_true",
                   help="count your own hand and crib: points you miss go to the AI (two "
                   "sides: not in three-player)")
    p.add_argument("--first", choices=PLAY_FIRST, default=None,
                   help="who deals first: me, ai (with more than two players, West, on your "
                   "left), or cut (the default: the low card deals)")
    p.add_argument("--save", metavar="FILE",
                   help="where to save the game (JSON Lines; default "
                   "crib-game-DATE-TIME.jsonl in this folder, or the --resume FILE)")
    p.add_argument("--resume", metavar="FILE",
                   help="go on with the unfinished game saved in FILE, where it stopped (its "
                   "form, level or opponent, seed and muggins come from the file; it is saved "
                   "back to FILE unless --save says otherwise)")
    where = p.add_mutually_exclusive_group()
    _add_history(where, "the history file the game is added to")
    where.add_argument("--no-history", action="store_true",
                       help="do not add this game to the history")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser(
        "stats", help="your games so far: win rate by level, skunks, points by phase, trend",
        description="Sum up the history of the games played with crib play: the win rate at "
        "each level with its 95% interval (Wilson score), the games stopped unfinished, the "
        "skunks given and taken, your average points per deal by phase against the "
        "computer's, and the trend of the points the review says your decisions lost a game.")
    _add_history(p, "the history to read")
    _add_json(p)
    p.set_defaults(func=_cmd_stats)

    p = sub.add_parser(
        "replay", help="print a recorded game deal by deal, counted out",
        description="Print one recorded game deal by deal: each hand dealt and the cards "
        "thrown, the starter, the play card by card with the count and what each card pegged, "
        "each hand's and the crib's count as said at the table, and the scores after the "
        "deal.")
    p.add_argument("file", metavar="FILE",
                   help="records written by crib simulate --record (JSON Lines or Parquet), or "
                   "a game saved by crib play --save")
    p.add_argument("--game", type=_seed, default=0, metavar="N", help="which game (default 0)")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser(
        "review", help="review a recorded game: what each discard, card laid and muggins count "
        "lost",
        description="Compare each discard of a player in a recorded game with the best keep "
        "and each card they laid with the advised one, under one objective: expected points "
        "while the game is far from its end, the probability of winning once a player needs "
        "30 or fewer in the two-player six-card game (the same as crib play's hints); count "
        "each muggins count too low as points given away; and sum up what was lost and the "
        "worst decision. --explain: every seat's choices (the computer's too) with their top "
        "alternatives.")
    p.add_argument("file", metavar="FILE", help="records written by crib play --save (or crib "
                   "simulate --record, JSON Lines or Parquet)")
    p.add_argument("--game", type=_seed, default=0, metavar="N", help="which game (default 0)")
    p.add_argument("--seat", type=_number(low=0, high=3, integer=True), default=None,
                   metavar="S", help="the seat to review, 0 or 1 (0 to 2 in three-player, 0 to "
                   "3 in four-player; default: the seat named you)")
    p.add_argument("--samples", type=_number(low=1, high=1_000_000, integer=True),
                   default=ADVISE_SAMPLES, metavar="N",
                   help="samples of each simulation, 1 to 1,000,000 (default "
                   f"{ADVISE_SAMPLES:,})")
    _add_seed(p, default=0, note="the simulations' ")
    p.add_argument("--explain", action="store_true",
                   help="value the other seats' decisions too, and print every decision with "
                   "its top 3 alternatives and their values")
    _add_history(p, "the history whose game, if crib play's review of it was stopped, gets "
                 "this review")
    _add_json(p)
    p.set_defaults(func=_cmd_review)

    p = sub.add_parser(
        "plot", help="draw a figure to a file (PNG, PDF, SVG, ...): census, keep, crib, games "
        "or odds",
        description="Draw one figure to a file, in the format its extension names (.png, .pdf, "
        ".svg, .svgz, .eps, .ps, .jpg or .jpeg, .tif or .tiff, .webp). census: the exact "
        "show-score distribution; "
        "keep: the 15 discards of --hand as --dealer or --pone; crib: a rank-only crib-value "
        "table (--table FILE, optionally --reference FILE for the difference); games: simulate "
        "--games N and plot the first dealer's edge, skunks, points per deal and margins; odds: "
        "the shipped win-odds table as heatmaps for the dealer and the pone. An option another "
        "kind reads is refused.")
    p.add_argument("kind", choices=PLOT_KINDS, metavar="KIND",
                   help=f"one of {', '.join(PLOT_KINDS)}")
    p.add_argument("--out", required=True, metavar="FILE",
                   help="the figure file to write; its extension says the format")
    p.add_argument("--dpi", type=_number(low=10, high=1000, integer=True), default=PLOT_DPI,
                   help=f"resolution, 10 to 1000 dots per inch (default {PLOT_DPI})")
    p.add_argument("--log", action="store_true", help="census: a logarithmic share axis")
    p.add_argument("--hand", nargs="+", metavar="CARD",
                   help="keep: six cards, e.g. 5H 5S 6D JC QS KH")
    _add_role(p, required=False, note="keep: ")
    p.add_argument("--table", metavar="FILE",
                   help="crib: a CSV with columns card1, card2, dealer, pone "
                   "(ranks A, 2..10, J, Q, K), all 91 rank pairs")
    p.add_argument("--reference", metavar="FILE",
                   help="crib: a second table of that form; the difference is drawn too")
    p.add_argument("--games", type=_games, metavar="N",
                   help=f"games: how many games to simulate (default {PLOT_GAMES})")
    _add_seed(p, note="games: ")
    _add_players(p, default=None, note="games: ")
    p.add_argument("--variant", choices=VARIANT_NAMES, default=None, metavar="FORM",
                   help=f"census, keep, games: the form of the game, {', '.join(VARIANT_NAMES)} "
                   f"(default {DEFAULT_VARIANT})")
    _add_quiet(p, "games: no progress bar")
    p.set_defaults(func=_cmd_plot)

    p = sub.add_parser("odds", help="the chance to win from a score at the start of a deal",
                       description="The probability of winning the 121-point two-player game "
                       "from the scores at the start of a deal (before the cut), by whether you "
                       "deal it, from the shipped win-odds table (crib tables odds), with one "
                       "standard error. --variant five-card (to 61) and four-player (your side "
                       "against the other) have tables too; three-player takes three scores, "
                       "seat 0's, 1's and 2's, and --dealer-seat, and gives each seat's chance.")
    p.add_argument("me", type=_score, metavar="ME", help="your score, 0 to 120 (0 to 60 in "
                   "five-card; three-player: seat 0's)")
    p.add_argument("opp", type=_score, metavar="OPP", help="the opponent's score, 0 to 120 "
                   "(0 to 60 in five-card; three-player: seat 1's)")
    p.add_argument("third", type=_score, nargs="?", metavar="THIRD",
                   help="three-player: seat 2's score")
    role = p.add_mutually_exclusive_group()
    role.add_argument("--dealer", action="store_true", help="you deal this deal (your crib)")
    role.add_argument("--pone", action="store_true", help="the opponent deals this deal")
    p.add_argument("--dealer-seat", type=_number(low=0, high=2, integer=True), metavar="D",
                   help="three-player: the seat that deals, 0 to 2 (default 0); seat D + 1 "
                   "(mod 3) is on his left: leads, shows first and deals next")
    _add_variant(p)
    _add_json(p)
    p.set_defaults(func=_cmd_odds)

    p = sub.add_parser("tables", help="build crib-value (crib), pegging, best-keep (keep) and "
                       "win-odds (odds) tables; compare with Schell")
    tables = p.add_subparsers(dest="table_command", metavar="TABLE", parser_class=_Parser)
    p.set_defaults(func=_cmd_tables)
    t = tables.add_parser(
        "crib", help="rebuild the self-play crib-value table",
        description="Rebuild the self-play crib-value table of a form and write it to --out DIR, "
        "which is required: crib_values.csv and crib_values_rank.csv for six-card, "
        "crib_values_FORM.csv (and for five-card its _rank.csv) for the others, each with a "
        "JSON provenance file. The tables shipped with the package are never overwritten unless "
        "--force is given.")
    _add_variant(t)
    t.add_argument("--deals", type=_number(low=1, high=MAX_DEALS, integer=True),
                   default=CRIB_TABLE_DEALS, metavar="N",
                   help=f"deals per iteration, 1 to {MAX_DEALS:,} "
                   f"(default {CRIB_TABLE_DEALS:,})")
    _add_seed(t, default=0)
    t.add_argument("--tol", type=_number(low=0, low_open=True), default=CRIB_TABLE_TOL,
                   metavar="T", help="stop when no entry moves by more than this, a finite "
                   f"number above 0 (default {CRIB_TABLE_TOL})")
    t.add_argument("--max-iterations", type=_number(low=1, high=MAX_ITERATIONS, integer=True),
                   default=CRIB_TABLE_MAX_ITERATIONS, metavar="M",
                   help=f"give up after M iterations, 1 to {MAX_ITERATIONS:,} "
                   f"(default {CRIB_TABLE_MAX_ITERATIONS})")
    _add_workers(t)
    t.add_argument("--out", required=True, metavar="DIR",
                   help="the folder to write the tables to (required); DIR is created if its "
                   "parent folder exists")
    t.add_argument("--force", action="store_true",
                   help="allow --out to be the package's own data folder, replacing the "
                   "shipped tables")
    _add_quiet(t, "no per-iteration report")
    t = tables.add_parser(
        "pegging", help="rebuild the self-play pegging table (the play's value of a keep)",
        description="Play independent six-card deals, ev+lookahead in both seats, and write the "
        "pegging points for and against by role and kept rank pattern to --out FILE (.csv), "
        "with its JSON provenance beside it (.json). The table shipped with the package is "
        "never overwritten unless --force is given.")
    t.add_argument("--out", required=True, metavar="FILE",
                   help="the CSV file to write (required); FILE.json gets the provenance")
    t.add_argument("--deals", type=_number(low=1, high=MAX_DEALS, integer=True),
                   default=PEGGING_TABLE_DEALS, metavar="N",
                   help=f"deals to play, 1 to {MAX_DEALS:,} (default {PEGGING_TABLE_DEALS:,}, "
                   "as shipped)")
    _add_seed(t, default=0)
    _add_workers(t)
    t.add_argument("--force", action="store_true",
                   help="allow --out in the package's own data folder, replacing the shipped "
                   "table")
    _add_quiet(t, "no progress report")
    t = tables.add_parser(
        "keep", help="the best keep of every six-card hand, as Parquet",
        description="Write the best keep of every six-card hand (one row for each hand up to "
        "suit symmetry), as dealer and as pone, to a Parquet file, and by rank pattern the keep "
        "best for most of its hands to a CSV file.")
    t.add_argument("--out", required=True, metavar="FILE", help="the Parquet file to write")
    t.add_argument("--ranks", metavar="FILE",
                   help="the rank-only CSV (default: FILE's name with _ranks.csv)")
    _add_table_crib(t, "used")
    _add_workers(t)
    t = tables.add_parser(
        "compare", help="compare the crib table with a published one",
        description="Compare the rank-only crib-value table (the shipped one, or --table) with "
        "a published one, e.g. Schell's: the mean and largest differences for dealer and pone, "
        "and the rank pairs that differ most.")
    t.add_argument("--table", metavar="FILE",
                   help="rank-only table, all 91 rank pairs (default: the shipped "
                   "data/crib_values_rank.csv)")
    t.add_argument("--reference", required=True, metavar="FILE",
                   help="published rank-only table, e.g. Schell's (card1,card2,dealer,pone); "
                   "the comparison is over its rank pairs")
    t.add_argument("--top", type=_count, default=10, metavar="N",
                   help="how many of the biggest differences to list (default 10)")
    t.add_argument("--plot", metavar="FILE",
                   help="also draw both tables and their difference as heatmaps (.png, .pdf, "
                   ".svg, ...)")
    _add_json(t)
    t = tables.add_parser(
        "odds", help="rebuild the win-odds table",
        description="Rebuild the win-odds table of the six-card game (or --variant five-card, "
        "four-player or three-player) from self-play deals (ev+lookahead in every seat) made "
        "consistent by dynamic programming, and write it to --out FILE.csv (three-player: "
        "FILE.npz, three needs, quantized) with its JSON provenance beside it. The shipped "
        "table is never overwritten unless --force is given.")
    t.add_argument("--out", required=True, metavar="FILE",
                   help="the CSV to write (dealer_needs, pone_needs, p_dealer_wins, se), or "
                   "with --variant three-player the .npz; FILE.json beside it")
    t.add_argument("--deals", type=_number(low=1024, high=MAX_DEALS, integer=True),
                   default=ODDS_TABLE_DEALS, metavar="N",
                   help=f"self-play deals, 1,024 to {MAX_DEALS:,} (default "
                   f"{ODDS_TABLE_DEALS:,})")
    _add_seed(t, default=0)
    _add_workers(t)
    t.add_argument("--variant", choices=("six-card", "five-card", "four-player", "three-player"),
                   default="six-card", help="the form (default six-card)")
    t.add_argument("--force", action="store_true",
                   help="allow --out in the package's own data folder, replacing the shipped "
                   "table")
    _add_quiet(t, "no progress report")

    p = sub.add_parser(
        "serve", help="the analyzer in the browser: hand counter, which four to keep, discard "
        "trainer, JSON API (needs the web extra)",
        description="Serve the analyzer's pages and JSON API on this machine (FastAPI on "
        "uvicorn; pip install 'analyzer[web]'): /count counts a hand, /keep ranks the keeps "
        "with the chart, /trainer deals discard problems, /play is a game against the AI; "
        "/api/count, /api/keep, /api/keep/win, /api/keep/chart.svg, /api/trainer/deal, "
        "/api/trainer/answer, /api/game, /api/game/record answer scripts in JSON. Binds to "
        "127.0.0.1 (this machine only) unless --host says otherwise.")
    p.add_argument("--host",
                   help=f"the address to listen on (default {SERVE_HOST}, this machine only; "
                   "another address is reachable from the network, and warned about)")
    p.add_argument("--port", type=_number(low=0, high=65535, integer=True),
                   help=f"the port, 0 to 65535 (default {SERVE_PORT}; 0 picks a free one)")
    p.add_argument("--open", action="store_true",
                   help="open the pages in the default web browser once serving")
    p.add_argument("--screenshots", metavar="DIR",
                   help="instead of serving: write a PNG of each page, at desktop and phone "
                   "width, from headless Chromium (Debian's chromium and chromium-driver, "
                   "Selenium) into DIR, created if its parent folder exists")
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser(
        "bench", help="measure throughput (scorer, keep, games, start-up)",
        description="Measure the scorer, keep, the game engine, the tables and the start-up of "
        "a new process, each figure the median of repeats, with its range. With --against REV "
        "the commit REV is checked out into a temporary git worktree and both benchmark in "
        "turn, --rounds times each, and the figures are printed side by side with their ratio.")
    _add_json(p)
    p.add_argument("--against", metavar="REV",
                   help="also benchmark git commit REV (a hash, tag or branch) in turn with "
                   "this checkout and compare")
    p.add_argument("--rounds", type=_number(low=1, high=20, integer=True), metavar="K",
                   help="with --against: runs of each side, in turn (default 2)")
    p.add_argument("--repeats", type=_number(low=1, high=20, integer=True), metavar="K",
                   help="repeats of each figure, of which the median is given "
                   "(default 5; 1 for a quick look, noisier)")
    p.add_argument("--cold", action="store_true",
                   help="instead: each main command's first run with an empty numba cache (a "
                   "new process, a temporary NUMBA_CACHE_DIR) beside its second run, and the "
                   "compile time of each kernel")
    p.add_argument("--serve", action="store_true",
                   help="instead: a load test of crib serve on a free loopback port: clients "
                   "asking for counts, keeps, trainer deals and game moves while P(win) "
                   "requests run; prints each kind's median and 99th percentile and the errors "
                   "(exit status 1 on an error)")
    p.add_argument("--clients", type=_number(low=1, high=200, integer=True), metavar="N",
                   help="with --serve: clients at once (default 20)")
    p.add_argument("--seconds", type=_number(low=1, high=3600), metavar="S",
                   help="with --serve: how long (default 30)")
    p.add_argument("--think", type=_number(low=0, high=60), metavar="S",
                   help="with --serve: a client's mean wait before each request, as a person "
                   "reads the answer (default 0.25; 0: back to back)")
    p.set_defaults(func=_cmd_bench)

    p = sub.add_parser(
        "warmup", help="compile ahead what the commands use (numba's first-run compiling)",
        description="Compile into numba's cache, ahead, the kernels the everyday commands use "
        "(keep, replay, simulate, duel, peg, play, serve), so that their first run does not "
        "wait on the compiler. A kernel already compiled is loaded, not compiled again.")
    p.add_argument("--all", action="store_true",
                   help="also what the other commands and options use: the other forms "
                        "of the game, the pegging discard's players, crib peg "
                        "--continuation lookahead, the research tables (crib tables, "
                        "crib plot census) and crib bench: one to three minutes of CPU, "
                        "once")
    _add_quiet(p, "no progress bar")
    p.set_defaults(func=_cmd_warmup)
    return parser


def _stdout_gone() -> None:
    """After an error writing standard output (a disk full), send what is left of it
    nowhere, so that Python's own flush at exit does not fail again, with a traceback."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no stdout at all, or not a file
        pass


def _bytes_shown(message: str) -> str:
    r"""An argument's bytes that are not UTF-8 shown as ``\xff``: Python reads them as lone
    surrogates, which a message would show as ``\udcff`` (in a repr) or print so.

    >>> print(_bytes_shown(r"unknown rank in '\udcffH'"))
    unknown rank in '\xffH'
    >>> print(_bytes_shown("unrecognized: " + b"\xfe".decode("utf-8", "surrogateescape")))
    unrecognized: \xfe
    """
    message = message.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return re.sub(r"\\udc([89a-f][0-9a-f])", r"\\x\1", message)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``crib`` and ``python -m analyzer``; returns the exit status."""
    parser = build_parser()
    command = "crib"
    try:
        args, extra = parser.parse_known_args(argv)
        if args.command is not None:
            command = f"crib {args.command}"
        if extra:  # named with the command, whose --help lists what it takes
            raise UsageError(f"{command}: unrecognized arguments: {' '.join(extra)} (see "
                             f"{command} --help)")
        args.argv = list(sys.argv[1:] if argv is None else argv)  # for provenance files
        if args.command is None:
            parser.print_help()
            raise UsageError("crib: no command given (see crib --help)")
        from .compiletime import watch_compiles

        # warmup says its progress bar instead; serve says when its warm-up's compiling ends
        args.compile_clock = watch_compiles(args.command, say=args.command != "warmup")
        return args.func(args)
    except (UsageError, CardError) as exc:
        message = str(exc) if isinstance(exc, UsageError) else f"{command}: {exc}"
        print(_bytes_shown(message), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("crib: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # a disk full, an output that cannot be written (stdout too)
        where = f"{exc.filename}: " if exc.filename else ""
        print(_bytes_shown(f"{command}: {where}{exc.strerror or exc}"), file=sys.stderr)
        _stdout_gone()
        return 2
