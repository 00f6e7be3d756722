"""The ``crib`` command: argument parsing and printing only.

Numba-heavy modules are imported inside the subcommands, so ``crib --help`` is instant. Every
expected failure (bad cards, bad options) is one line on stderr and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import sys

from . import __version__
from .cards import CardError

EXAMPLES = """examples:
  crib keep 5H 5S 6D JC QS KH --dealer      which four to keep, as dealer
  crib count 5H 5C 5S JD --starter 5D       count a hand the way it is said at the table
  crib bench                                measure the scorer and keep
"""


class UsageError(Exception):
    """A problem with the command line, reported as one line and exit status 2."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line (no usage dump) and exit status 2."""

    def error(self, message):
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def _cards_text(tokens: list[str]) -> str:
    return " ".join(tokens)


# --------------------------------------------------------------------------- count


def _cmd_count(args) -> int:
    from .scoring import count_hand, say_count

    items = count_hand(_cards_text(args.cards), args.starter, crib=args.crib)
    from .cards import format_cards, parse_cards

    hand = format_cards(parse_cards(_cards_text(args.cards)))
    starter = format_cards(parse_cards(args.starter))
    total = sum(item.points for item in items)
    said = say_count(items)
    if args.json:
        print(json.dumps({
            "hand": hand,
            "starter": starter,
            "crib": args.crib,
            "items": [
                {"kind": i.kind, "cards": format_cards(i.cards), "points": i.points} for i in items
            ],
            "total": total,
            "said": said,
        }))
        return 0
    print(f"{'crib' if args.crib else 'hand'} {hand}, starter {starter}")
    for item in items:
        print(f"  {item.kind:<8} {format_cards(item.cards):<15} {item.points:>2}")
    print(f"  {'total':<24} {total:>2}")
    print(said)
    return 0


# --------------------------------------------------------------------------- keep


def _cmd_keep(args) -> int:
    from .discard import COLUMNS, evaluate_discards

    if args.top is not None and args.top < 1:
        raise UsageError("crib keep: --top must be at least 1")
    result = evaluate_discards(_cards_text(args.cards), dealer=args.dealer)
    shown = len(result["keep"]) if args.top is None else args.top
    rows = [
        {c: _plain(result[c][i]) for c in COLUMNS} for i in range(min(shown, len(result["keep"])))
    ]
    if args.json:
        print(json.dumps({
            "hand": result["hand"],
            "role": result["role"],
            "crib_mode": result["crib_mode"],
            "rows": rows,
        }))
        return 0
    sign = "+" if args.dealer else "-"
    print(f"hand {result['hand']} as {result['role']} (crib: {result['crib_mode']}, "
          f"net = hand {sign} crib)")
    print(f"    {'keep':<12} {'discard':<7} {'hand':>6} {'min':>4} {'max':>4} {'std':>5}"
          f" {'crib':>6} {'net':>7}")
    for i, row in enumerate(rows):
        mark = "*" if i == 0 else " "
        print(f"  {mark} {row['keep']:<12} {row['discard']:<7} {row['hand_mean']:6.3f}"
              f" {row['hand_min']:4d} {row['hand_max']:4d} {row['hand_std']:5.2f}"
              f" {row['crib_mean']:6.3f} {row['net']:7.3f}")
    best = rows[0]
    print(f"best: keep {best['keep']}, throw {best['discard']} (net {best['net']:.3f})")
    return 0


def _plain(value):
    """A numpy scalar as the plain Python number (or str) JSON and f-strings expect."""
    return value.item() if hasattr(value, "item") else value


# --------------------------------------------------------------------------- bench


def _cmd_bench(args) -> int:
    from .bench import run_benchmarks

    results = run_benchmarks(progress=None if args.json else print)
    if args.json:
        print(json.dumps(results))
        return 0
    print()
    width = max(len(r["name"]) for r in results["figures"])
    for r in results["figures"]:
        print(f"{r['name']:<{width}}  {r['value']:>12.4g} {r['unit']:<12} {r.get('note', '')}")
    return 0


# --------------------------------------------------------------------------- parser


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="crib",
        description="Cribbage strategy analyzer: count hands, choose which four to keep, "
        "measure the scorer.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("count", help="count a hand (or crib) the way it is said at the table")
    p.add_argument("cards", nargs="+", help="four cards, e.g. 5H 5C 5S JD (or 5h,5c,5s,jd)")
    p.add_argument("--starter", required=True, help="the starter (cut) card, e.g. 5D")
    p.add_argument("--crib", action="store_true", help="count as a crib (flush needs all five)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_count)

    p = sub.add_parser("keep", help="rank the 15 ways to keep four cards of six")
    p.add_argument("cards", nargs="+", help="six cards, e.g. 5H 5S 6D JC QS KH")
    role = p.add_mutually_exclusive_group(required=True)
    role.add_argument("--dealer", dest="dealer", action="store_true",
                      help="the crib is yours: its value is added")
    role.add_argument("--pone", dest="pone", action="store_true",
                      help="the crib is the opponent's: its value is taken off")
    p.add_argument("--top", type=int, metavar="N", help="show only the N best discards")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_keep)

    p = sub.add_parser("bench", help="measure throughput (scorer, keep, start-up)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=_cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``crib`` and ``python -m analyzer``; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            parser.print_help()
            return 2
        return args.func(args)
    except (UsageError, CardError) as exc:
        message = str(exc) if isinstance(exc, UsageError) else f"crib: {exc}"
        print(message, file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("crib: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
