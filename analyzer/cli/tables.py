"""The ``crib tables`` commands (``crib``, ``pegging``, ``keep``, ``compare``, ``odds``):
parsing done, printing only.

:mod:`analyzer.cli.main` builds the parser and dispatches here; the checks both share (output
paths, figure formats, rank tables) are in :mod:`analyzer.cli.common`.
"""

from __future__ import annotations

import json
import math
import sys

from .common import (
    UsageError,
    check_output,
    check_provenance,
    figure_format,
    provenance_items,
    read_rank_table,
    save_figure,
)

__all__ = ["run"]


def run(args) -> int:
    """Run ``crib tables TABLE`` with the parsed ``args``; the exit status."""
    if args.table_command is None:
        raise UsageError("crib tables: choose crib, pegging, keep, compare or odds (see crib "
                         "tables --help)")
    return {"crib": _tables_crib, "pegging": _tables_pegging, "keep": _tables_keep,
            "compare": _tables_compare, "odds": _tables_odds}[args.table_command](args)


def _tables_crib(args) -> int:
    import shlex

    from ..keeping.crib import is_shipped_folder

    out = args.out
    if is_shipped_folder(out) and not args.force:
        raise UsageError(f"crib tables crib: --out {out}: is the package's own data folder; "
                         "add --force to overwrite the shipped tables")
    from pathlib import Path

    from ..core.game import VARIANTS
    from ..keeping.crib import table_file

    # the files save writes: a table (and its rank table where two cards are thrown), each
    # with its provenance
    names = [table_file(args.variant)] + ([table_file(args.variant, rank=True)]
                                          if VARIANTS[args.variant].thrown == 2 else [])
    check_output(out, "--out", "crib tables crib", folder=True,
                 files=[n for name in names for n in (name, Path(name).with_suffix(".json").name)])
    # a table of yours there (no provenance naming it) is not written over
    check_provenance([(Path(out) / name, "--out") for name in names], "crib tables crib")
    from ..research.tables import build_crib_table

    def report(iteration, delta):
        if not args.quiet:
            print(f"iteration {iteration}: largest change {delta:.4f}", file=sys.stderr)

    result = build_crib_table(deals=args.deals, seed=args.seed, tol=args.tol,
                              max_iterations=args.max_iterations, workers=args.workers,
                              progress=report, variant=args.variant)
    paths = result.save(out, command=shlex.join(["crib", *args.argv]),
                        overwrite_shipped=args.force)
    state = "converged" if result.converged else "NOT converged"
    well = ("no entry rests on 1,000+ cribs yet" if math.isnan(result.gaps[1])
            else f"{result.gaps[1]:.4f} over entries with 1,000+ cribs")
    print(f"{state} after {result.iterations} iterations of {args.deals:,} deals "
          f"(largest change {result.deltas[-1]:.4f}, tolerance {args.tol}); self-consistency gap "
          f"{well}, {result.gaps[0]:.4f} over all; {result.elapsed_seconds:.1f} s")
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def _tables_pegging(args) -> int:
    import shlex
    import time
    from pathlib import Path

    from ..keeping.crib import is_shipped_folder

    command = "crib tables pegging"
    out = Path(args.out)
    if out.suffix.lower() != ".csv":
        raise UsageError(f"{command}: --out {out}: the table is a .csv file (its provenance is "
                         "written beside it as .json)")
    if is_shipped_folder(out.parent) and not args.force:
        raise UsageError(f"{command}: --out {out}: is in the package's own data folder; add "
                         "--force to overwrite the shipped table")
    check_output(out, "--out", command)
    check_provenance([(out, "--out")], command)
    from ..research.pegging import build_pegging_table

    start = time.perf_counter()

    def report(done, total):
        if not args.quiet:
            rate = done / max(time.perf_counter() - start, 1e-9)
            print(f"{done:,} of {total:,} deals ({rate:,.0f} deals/s)", file=sys.stderr)

    result = build_pegging_table(deals=args.deals, seed=args.seed, workers=args.workers,
                                 progress=report)
    paths = result.save(out, command=shlex.join(["crib", *args.argv]),
                        overwrite_shipped=args.force)
    df = result.table
    means = {role: float((df.loc[df.role == role, "peg_net_raw"].fillna(0)
                          * df.loc[df.role == role, "n"]).sum() / args.deals)
             for role in ("dealer", "pone")}
    print(f"{args.deals:,} deals in {result.elapsed_seconds:.1f} s "
          f"({args.deals / result.elapsed_seconds:,.0f} deals/s); mean pegging net: dealer "
          f"{means['dealer']:+.3f}, pone {means['pone']:+.3f}; patterns never kept: dealer "
          f"{int((df.loc[df.role == 'dealer', 'n'] == 0).sum()):,}, pone "
          f"{int((df.loc[df.role == 'pone', 'n'] == 0).sum()):,} (valued at the role's mean)")
    raw = [role for role, k in zip(("dealer", "pone"), result.k, strict=True) if k == 0]
    if raw:
        print(f"not shrunk ({' and '.join(raw)}): too few deals to estimate the shrinkage, "
              f"fewer than two patterns kept in 1,000 deals or more; the values are raw means")
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0


def _tables_keep(args) -> int:
    import shlex
    import time
    from pathlib import Path

    from ..core.files import atomic_write_all, provenance_file
    from ..keeping.crib import is_shipped_folder

    command = "crib tables keep"
    check_output(args.out, "--out", command)  # a file's name: the ranks' is made from it
    out = Path(args.out)
    ranks = Path(args.ranks) if args.ranks else out.with_name(out.stem + "_ranks.csv")
    for path, option, suffix in ((out, "--out", ".parquet"), (ranks, "--ranks", ".csv")):
        if path.suffix.lower() != suffix:
            raise UsageError(f"{command}: {option} {path}: it is written as a {suffix} file")
        if is_shipped_folder(path.parent):
            raise UsageError(f"{command}: {option} {path}: is in the package's own data "
                             "folder; write the tables elsewhere")
        check_output(path, option, command)  # the suffixes differ: never the same file
    check_provenance([(out, "--out"), (ranks, "--ranks")], command)
    from ..research.tables import build_discard_table

    start = time.perf_counter()
    hands, rank_table = build_discard_table(crib=args.crib, workers=args.workers)
    built = time.perf_counter() - start
    provenance = provenance_items(
        [out, ranks], shlex.join(["crib", *args.argv]), seed=None, games=None,
        policies="the ev keep without the play's value (keep(..., pegging=False)): the "
                 "exact hand over the 46 starters and the crib's value, by role",
        crib=args.crib,
        hands=int(hands["n_hands"].sum()), distinct_hands=len(hands),
        rank_patterns=len(rank_table), elapsed_seconds=built)
    atomic_write_all([(out, lambda tmp: hands.to_parquet(tmp, index=False)),
                      (ranks, lambda tmp: rank_table.to_csv(tmp, index=False,
                                                             float_format="%.4f")),
                      *provenance])  # the tables and their provenance: all or none
    print(f"{len(hands):,} distinct hands (of {int(hands['n_hands'].sum()):,}) and "
          f"{len(rank_table):,} rank patterns in {time.perf_counter() - start:.1f} s "
          f"(tables built in {built:.1f} s, crib values: {args.crib})")
    print(f"wrote {out} and {ranks}, each with its provenance "
          f"({provenance_file(out).name}, {provenance_file(ranks).name})")
    return 0


def _tables_compare(args) -> int:
    import shlex
    from pathlib import Path

    from ..core.files import provenance_file
    from ..keeping.crib import RANK_FILE, shipped_file

    command = "crib tables compare"
    table = Path(args.table) if args.table else shipped_file(RANK_FILE)
    reference = Path(args.reference)
    if args.plot is not None:
        fmt = figure_format(args.plot, "--plot", command)
        check_output(args.plot, "--plot", command)
        check_provenance([(args.plot, "--plot")], command)
    ours = read_rank_table(table, "--table", command, complete=True)
    ref = read_rank_table(reference, "--reference", command, complete=False)
    from ..research.tables import compare_crib_tables

    try:
        result = compare_crib_tables(ours, ref, top=args.top)
    except ValueError as exc:
        raise UsageError(f"{command}: {exc}") from None
    biggest = result.pop("biggest")
    if args.plot is not None:
        from ..research import plots

        fig = plots.crib_comparison(ours, ref, table_label=Path(table.name).stem,
                                    reference_label=reference.stem)
        save_figure(fig, args.plot, fmt, 110, "--plot", command,
                    shlex.join(["crib", *args.argv]), table=str(table),
                    reference=str(reference))
    if args.json:
        result["biggest"] = json.loads(biggest.to_json(orient="records", double_precision=4))
        print(json.dumps(result))
        return 0
    print(f"{table} against {reference}: compared on the reference's {result['pairs']} rank "
          "pairs")
    for role in ("dealer", "pone"):
        print(f"  {role:<6} mean |difference| {result['mean_abs_diff'][role]:.3f}, "
              f"largest {result['max_abs_diff'][role]:.3f}")
    if args.plot is not None:
        print(f"drew {args.plot} (its provenance in {provenance_file(args.plot)})")
    print("biggest differences (ours - reference):")
    for row in biggest.itertuples(index=False):
        print(f"  {row.card1:>2} {row.card2:>2}   dealer {row.dealer:5.2f} vs {row.dealer_ref:5.2f}"
              f" ({row.dealer_diff:+.2f})   pone {row.pone:5.2f} vs {row.pone_ref:5.2f}"
              f" ({row.pone_diff:+.2f})")
    return 0


def _tables_odds(args) -> int:
    import shlex
    from pathlib import Path

    from ..keeping.crib import is_shipped_folder

    command = "crib tables odds"
    out = Path(args.out)
    three = args.variant == "three-player"
    suffix = ".npz" if three else ".csv"
    if out.suffix.lower() != suffix:
        what = "the three-player table is a .npz file" if three else "the table is a .csv file"
        raise UsageError(f"{command}: --out {out}: {what} (its provenance goes beside it as "
                         ".json)")
    if is_shipped_folder(out.parent) and not args.force:
        raise UsageError(f"{command}: --out {out}: is in the package's own data folder; add "
                         "--force to overwrite the shipped tables")
    check_output(out, "--out", command)
    check_provenance([(out, "--out")], command)

    def report(done, total):
        if not args.quiet:
            print(f"{done:,} of {total:,} deals", file=sys.stderr)

    if three:
        from ..research.odds3 import build_odds_table3

        def solved(done, total):  # the solves take minutes after the deals: said as they go
            if not args.quiet:
                print(f"{done} of {total} solves of the table" if done else
                      f"solving the table from the deals: {total} solve{'s' * (total > 1)}, "
                      "seconds each",
                      file=sys.stderr)

        table = build_odds_table3(deals=args.deals, seed=args.seed, workers=args.workers,
                                  progress=report, solve_progress=solved)
    else:
        from ..research.odds import build_odds_table

        table = build_odds_table(deals=args.deals, seed=args.seed, workers=args.workers,
                                 progress=report, variant=args.variant)
    paths = table.save(out, command=shlex.join(["crib", *args.argv]),
                       overwrite_shipped=args.force)
    if three:
        top = table.p.shape[1] - 1
        at0 = ", ".join(f"{table.p[i, top, top, top]:.4f} ± {table.se[i, top, top, top]:.2g}"
                        for i in range(3))
        print(f"{table.deals:,} deals in {table.elapsed_seconds:.1f} s ({table.solve_seconds:.1f}"
              f" s a solve, {table.rounds} rounds): at 0-0-0 the dealer, his left and the third "
              f"win {at0}; largest standard error {table.max_se:.2g}; largest |sum - 1| "
              f"{table.sum_gap:.1e}")
    else:
        top = table.p.shape[0] - 1
        print(f"{table.deals:,} deals in {table.elapsed_seconds:.1f} s "
              f"({table.deals / table.elapsed_seconds:,.0f} deals/s with the solves): dealer "
              f"wins {table.p[top, top]:.4f} ± {table.se[top, top]:.4f} at 0-0; largest "
              f"standard error {table.max_se:.4f}; largest |P(dealer) + P(pone) - 1| "
              f"{table.sum_gap:.1e}")
    print("wrote " + ", ".join(str(p) for p in paths))
    return 0
