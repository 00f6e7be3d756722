"""The compiling seen and done ahead (issue 22): the per-kernel clock, the line said before a
first compile, ``crib warmup``, ``crib bench --cold``'s runs, and the user cache folder when the
package's folders cannot be written."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import numpy as np
import pytest
from numba import njit

from analyzer.cli import main
from analyzer.cli import warmup as warmup_module
from analyzer.cli.coldbench import ColdCase, format_cold, run_cold
from analyzer.cli.compiletime import REPORT_ENV, CompileClock, format_kernel_table, notice_line
from analyzer.core import numbacache
from analyzer.core.choices import CRIB_MODES, DEFAULT_VARIANT, VARIANT_NAMES, crib_mode_for

CRIB = Path(sys.executable).parent / "crib"
#: A hang guard only: a cold compile on a loaded machine may take many minutes.
HANG_GUARD = 1800
HAND = ["5H", "5S", "6D", "JC", "QS", "KH"]


def _env(**extra) -> dict:
    env = dict(os.environ, PYTHONWARNINGS="ignore", **extra)
    env.pop(REPORT_ENV, None)
    return env


# ------------------------------------------------------------------ the clock


def test_the_clock_counts_each_kernels_versions_and_its_own_time_without_inner_ones():
    @njit
    def inner(x):
        return x + 1

    @njit
    def outer(x):
        return inner(x) * 2

    with CompileClock.recording() as clock:
        assert outer(1) == 4
        assert outer(1.5) == 5.0  # a second signature: a second version of both
        outer(2)  # compiled already: nothing
    rows = {r["kernel"].rsplit(".", 1)[-1]: r for r in clock.rows()}
    assert rows["outer"]["versions"] == 2 and rows["inner"]["versions"] == 2
    assert rows["outer"]["top"] == 2 and rows["inner"]["top"] == 0
    own = rows["outer"]["self_cpu"] + rows["inner"]["self_cpu"]
    assert rows["outer"]["total_cpu"] >= own - 1e-6
    assert clock.total_cpu() <= sum(r["total_cpu"] for r in clock.rows() if r["top"]) + 1e-6
    table = format_kernel_table(clock.rows())
    assert table[0].startswith("| kernel |") and table[-1].startswith("| all | ")

    @njit
    def later(x):
        return x

    later(np.zeros(2))  # after the block: not counted
    assert "later" not in {r["kernel"].rsplit(".", 1)[-1] for r in clock.rows()}


# ------------------------------------------------------------------ compiled only when used


def _kernels_compiled_by_step(tmp_path, steps: list[str]) -> list[dict[str, int]]:
    """The kernels each of ``steps`` (Python code, run in turn by one new process from an
    empty numba cache) compiles new versions of, with how many: one process, so the versions
    all steps share are compiled once."""
    report = tmp_path / "report.json"
    code = ["import json\nfrom analyzer.cli.compiletime import CompileClock\n"
            "clock = CompileClock().install()\nafter = []\n"]
    for step in steps:
        code.append(f"{step}\nafter.append({{r['kernel']: r['versions'] for r in clock.rows()}})\n")
    code.append(f"open({str(report)!r}, 'w').write(json.dumps(after))\n")
    # NUMBA_OPT=0: LLVM does not optimize what numba compiles. Which kernels and versions numba
    # compiles is decided before LLVM is reached, and this process's code only runs a few games,
    # so the kernels counted are the same and the test takes about a fifth less CPU.
    done = subprocess.run([sys.executable, "-c", "".join(code)], capture_output=True, text=True,
                          timeout=HANG_GUARD,
                          env=_env(NUMBA_CACHE_DIR=str(tmp_path / "c"), NUMBA_OPT="0"))
    assert done.returncode == 0, done.stderr
    after = json.loads(report.read_text())
    before = [{}, *after[:-1]]
    return [{name: n - old.get(name, 0) for name, n in now.items() if n > old.get(name, 0)}
            for old, now in zip(before, after, strict=True)]


@pytest.mark.slow
def test_each_player_and_form_compiles_only_its_own_kernels(tmp_path):
    """Rarely used paths are compiled only when used (issue 22), one new process from an empty
    cache taking the steps in turn."""
    (games, discard6, lay5, lay6, lookahead, best_games, pegging, keep4, keep5,
     keep3) = _kernels_compiled_by_step(tmp_path, [
        # games without best or the pegging discard
        "from analyzer import simulate\n"
        "simulate(4, seed=1, players=('ev+lookahead', 'ev+greedy'), workers=1)",
        # best's six-card discard near the end of a game
        "from analyzer.play.seat import discard, lay\n"
        "discard('best', '5H 5S 6D JC QS KH', own_crib=True, scores=(110, 115))",
        # best's card in five-card, then in six-card
        "lay('best', '5H 6D JC', seat=1, dealer=0, starter='2C', thrown='KH KD', "
        "variant='five-card')",
        "lay('best', '5H 6D JC QS', seat=1, dealer=0, starter='2C', thrown='KH KD')",
        # the play's advice with the lookahead continuation (crib peg --continuation)
        "from analyzer import advise_play\n"
        "advise_play('5H 6D JC QS', dealer=False, starter='2C', samples=4, "
        "continuation='lookahead')",
        # six-card games of best, then of the pegging discard
        "simulate(4, seed=1, players=('best', 'ev+lookahead'), workers=1)",
        "simulate(4, seed=1, players=('pegging+greedy', 'ev+greedy'), workers=1)",
        # the score-aware keep in four-player, five-card, then three-player
        "from analyzer import keep_to_win\n"
        "keep_to_win('5H 5S 6D JC KH', True, (100, 95), samples=64, variant='four-player')",
        "keep_to_win('5H 5S 6D JC KH', True, (50, 55), samples=64, variant='five-card')",
        "keep_to_win('5H 5S 6D JC KH', True, (100, 95, 90), samples=64, variant='three-player')",
    ])
    # The tables only best and the pegging discard read are None for other players
    # (analyzer.play.reads): numba removes the branches that read them before typing, so their
    # kernels are never compiled; nor the other forms' score-aware discard
    # (analyzer.play.winkeepforms).
    assert "play.engine._run_chunk" in games
    assert {k for k in games if k.startswith(("play.search.", "play.searchforms.",
                                              "play.winkeepforms."))} == set()
    assert {k for k in games if k.split(".")[-1] in ("_sample_keeps", "_rest_of_deal",
                                                     "_points_values")} == set()
    # The pegging discard runs the version of the engine six-card's best compiles (given a
    # win-odds table it never reads): no version of any kernel of its own.
    assert "play.engine._run_chunk" in best_games
    assert pegging == {}
    # best's discard in five-card and four-player is reached through an overload that
    # six-card's tables (a pegging table given) compile as a constant: no sample of their deals
    assert {k.split(".")[-1] for k in discard6} >= {"_sample_keeps", "_rest_of_deal"}
    assert {k for k in discard6 if k.startswith("play.winkeepforms.")} == set()
    # The other forms' best is given no pegging table (analyzer.play.reads): a five-card
    # decision compiles the other forms' search only, and a six-card one six-card's only.
    assert "play.searchforms._search_forms" in lay5
    assert {k for k in lay5 if k.startswith("play.search.")} == set()
    assert "play.search._search" in lay6
    assert {k for k in lay6 if k.startswith("play.searchforms.")} == set()
    # The seat asks the search itself, as advise_play does: no compiled caller (the engine's
    # _best_play, a seat's kernel) compiles the search again inside it (about a second each).
    assert "play.search._best_play" not in lay6
    assert "play.searchforms._best_play_forms" not in lay5
    assert {k for k in lay5 | lay6 if k.startswith("play.seat.")} == set()
    # The continuation: greedy's search (None, the engine's and the advice's default) is
    # compiled without the policies' rollout; another continuation compiles a second version of
    # the search only, the lookahead rollout being there already (the late discard's samples
    # compiled it).
    assert lookahead == {"play.search._search": 1}
    # The other forms' score-aware keep: four-player compiles the forms' samples, five-card then
    # the same versions (nothing new), three-player its own kernel and nothing else (the
    # engine's steps it calls are the versions four-player compiled).
    assert "play.winkeepforms._forms_win_samples" in keep4
    assert keep5 == {}
    assert keep3 == {"play.winkeep3._win_samples3": 1}  # one version, nothing else


# ------------------------------------------------------------------ said before the wait


@pytest.mark.slow
def test_a_first_compile_is_said_on_one_stderr_line_and_a_second_run_says_nothing(tmp_path):
    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    args = [str(CRIB), "keep", *HAND, "--dealer", "--crib", "uniform"]
    report = tmp_path / "report.json"
    first = subprocess.run(args, capture_output=True, text=True, timeout=HANG_GUARD,
                           env=dict(env, **{REPORT_ENV: str(report)}))
    assert first.returncode == 0, first.stderr
    assert first.stderr.splitlines() == [notice_line("keep")]
    assert "first run only" in first.stderr and "up to " in first.stderr
    kernels = json.loads(report.read_text())["kernels"]
    assert any(k["kernel"].startswith("keeping.") for k in kernels)
    second = subprocess.run(args, capture_output=True, text=True, timeout=HANG_GUARD, env=env)
    assert second.returncode == 0 and second.stderr == ""
    assert second.stdout == first.stdout


def test_a_first_replay_says_it_compiles_the_scoring_not_the_analyzer(tmp_path):
    """``crib replay`` checks a record's counts with the scoring kernels, a second or two from
    an empty cache: its line says so, not the three minutes of the whole analyzer."""
    from analyzer import simulate
    from analyzer.sim.records import write_records

    write_records(tmp_path / "g.jsonl", simulate(2, seed=1, record_games=2).records)
    report = tmp_path / "report.json"
    env = dict(_env(NUMBA_CACHE_DIR=str(tmp_path / "cache")), **{REPORT_ENV: str(report)})
    done = subprocess.run([str(CRIB), "replay", str(tmp_path / "g.jsonl"), "--game", "1"],
                          capture_output=True, text=True, timeout=HANG_GUARD, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [notice_line("replay")]
    assert "compiling the scoring" in done.stderr and "up to 5 s" in done.stderr
    kernels = json.loads(report.read_text())["kernels"]
    assert kernels and all(not k["kernel"].startswith(("play.", "sim.")) for k in kernels)


def test_commands_without_kernels_still_do_not_import_numba():
    code = ("import sys, io, contextlib\nfrom analyzer.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['count', '5H', '5C', '5S', 'JD', '--starter', '5D'])\n"
            "    main(['keep', '5H', '5S', '6D', 'JC', 'QS', 'KH', '--dealer'])\n"
            "print('numba' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=HANG_GUARD, env=_env())
    assert done.stdout.strip() == "False", done.stderr


@pytest.mark.slow
def test_kernels_loaded_from_the_cache_skip_what_numba_needs_only_to_compile(tmp_path):
    """analyzer.core.cacheload: a process that loads every kernel from the cache does not import
    numba's compile-time implementations (typed dicts, linear algebra), and answers as the
    process that compiled them did."""
    code = ("import sys, io, contextlib\nfrom analyzer.cli import main\n"
            "from analyzer.core import cacheload, inlining\nout = io.StringIO()\n"
            "with contextlib.redirect_stdout(out):\n"
            f"    main(['keep', *{HAND!r}, '--dealer', '--crib', 'uniform'])\n"
            "print(cacheload.active(), 'numba.typed.typeddict' in sys.modules,"
            " 'numba.np.linalg' in sys.modules, inlining.active(),"
            " 'numba.core.inline_closurecall' in sys.modules)\nprint(out.getvalue())")
    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=HANG_GUARD, env=env) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
    (first, *answer), (second, *again) = (run.stdout.splitlines() for run in runs)
    # compiled: numba prepared to compile, and inlined functions were read once (inlining)
    assert first == "True True True True True"
    assert second == "True False False False False"  # loaded: nothing of it, nor numba's inliner
    assert again == answer and any(line.startswith("best: keep") for line in answer)


INLINED_TWICE = """
import sys
import numba.core.inline_closurecall as icc
from numba import njit
derived = []
derive = icc.InlineWorker.run_untyped_passes
def counted(self, func, enable_ssa=False):
    derived.append(func.__name__)
    return derive(self, func, enable_ssa)
icc.InlineWorker.run_untyped_passes = counted
from numba.core import ir
copies = []
var_copy = ir.Var.__deepcopy__
def var_counted(self, memo):
    copies.append(1)
    return var_copy(self, memo)
ir.Var.__deepcopy__ = var_counted
if sys.argv[1] == "other":  # a numba whose inliner takes other arguments: left as it is
    numbas = icc.InlineWorker.inline_function
    def another(self, caller_ir, block, i, function, arg_typs=None, callee_kws=None):
        return numbas(self, caller_ir, block, i, function, arg_typs)
    icc.InlineWorker.inline_function = another
from analyzer.core import inlining
if sys.argv[1] != "numba":
    inlining.install()
assert inlining.active() == (sys.argv[1] == "once")
@njit(inline="always")
def inner(x):
    return 2 * x if x > 0 else -x
@njit(inline="always")
def middle(x):
    return inner(x) + inner(x - 3)
@njit
def first(x):
    return middle(x) * 10 + middle(-x)
@njit
def second(x):
    return middle(x + 1) - inner(x)
compiled = [[f(x) for x in range(-4, 6)] for f in (first, second)]
python = [[f.py_func(x) for x in range(-4, 6)] for f in (first, second)]
print(compiled == python, len(copies), sorted(derived))
"""


@pytest.mark.slow
def test_a_function_inlined_at_many_sites_is_read_once_and_compiles_the_same():
    """analyzer.core.inlining: numba reads an ``inline="always"`` function again for each call
    site, and copies its variables again for each block; with the IR kept and copied with one
    memo, each function is read once in a process, far fewer variables are copied, and the
    kernels answer the same. A numba whose inliner takes other arguments is left as it is."""
    runs = [subprocess.run([sys.executable, "-c", INLINED_TWICE, how], capture_output=True,
                           text=True, timeout=HANG_GUARD, env=_env())
            for how in ("numba", "once", "other")]
    for run in runs:
        assert run.returncode == 0, run.stderr
    (numba_right, numba_copies, numba_read), (right, copies, read), other = (
        run.stdout.split(" ", 2) for run in runs)
    assert other == [numba_right, numba_copies, numba_read]  # not hooked: numba's own way
    assert numba_right == right == "True"  # the compiled kernels answer as Python does
    # numba copies the scope's variables once for each block of each copy; here, once a copy
    assert 0 < 3 * int(copies) < int(numba_copies)
    # numba: middle at each of its 3 sites, inner at its own and within each reading of middle
    assert numba_read.count("'middle'") == 3 and numba_read.count("'inner'") >= 7
    assert read.strip() == "['inner', 'middle']"


def test_a_run_that_compiled_first_says_how_much_of_its_time_that_was(monkeypatch, capsys):
    # An audit's first run printed "10 games ... 32.20 s (0 games/s)": the time was the
    # compiling. The clock's CPU seconds are said beside the rate (here as if 7.4 s).
    monkeypatch.setattr(CompileClock, "total_cpu", lambda self: 7.4)
    assert main(["simulate", "--games", "10", "--seed", "1", "--workers", "1"]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith(" games/s; about 7 s of it compiling, on the first run only)"), first
    assert main(["duel", "ev+greedy", "random+random", "--games", "10", "--workers", "1"]) == 0
    assert "games/s; about 7 s of it compiling" in capsys.readouterr().out
    monkeypatch.setattr(CompileClock, "total_cpu", lambda self: 0.0)  # a warm cache: no word
    assert main(["simulate", "--games", "10", "--seed", "1", "--workers", "1"]) == 0
    assert "compiling" not in capsys.readouterr().out


# ------------------------------------------------------------------ crib warmup


def test_warmup_runs_its_tasks_a_line_each_where_stderr_is_no_terminal(monkeypatch, capsys):
    ran = []
    tasks = tuple(warmup_module.WarmupTask(f"task {k}", lambda k=k: ran.append(k), k < 2)
                  for k in range(3))
    monkeypatch.setattr(warmup_module, "TASKS", tasks)
    assert main(["warmup"]) == 0
    assert ran == [0, 1]
    # stderr is no terminal here: a line a task, not a bar's drawing (an audit found one in a
    # file); ready at the end
    lines = capsys.readouterr().err.splitlines()
    assert lines[:2] == ["crib warmup: 1/2 task 0", "crib warmup: 2/2 task 1"]
    assert len(lines) == 3 and lines[2].startswith("crib warmup: ready (")
    ran.clear()
    assert main(["warmup", "--all", "--quiet"]) == 0
    assert ran == [0, 1, 2] and capsys.readouterr().err == ""


def test_after_the_warmups_counts_a_first_replay_compiles_nothing(tmp_path):
    """``crib warmup`` compiles the counts ``crib replay`` checks a record with (four-card and
    five-card hands, the scorer called from Python): a replay of a five-card game after the
    warmup's task, from the same empty cache, says nothing and compiles nothing. Before the
    task, the first replay after a whole ``crib warmup --all`` still compiled the scorer."""
    from analyzer import simulate
    from analyzer.sim.records import write_records

    write_records(tmp_path / "g.jsonl",
                  simulate(1, seed=1, record_games=1, variant="five-card").records)
    env = _env(NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    task = next(t for t in warmup_module.warmup_tasks() if "crib replay" in t.name)
    warm = subprocess.run([sys.executable, "-c", "from analyzer.cli import warmup; "
                           f"warmup.{task.run.__name__}()"],
                          capture_output=True, text=True, timeout=HANG_GUARD, env=env)
    assert warm.returncode == 0, warm.stderr
    report = tmp_path / "report.json"
    done = subprocess.run([str(CRIB), "replay", str(tmp_path / "g.jsonl")],
                          capture_output=True, text=True, timeout=HANG_GUARD,
                          env=dict(env, **{REPORT_ENV: str(report)}))
    assert done.returncode == 0, done.stderr
    assert "five-card" in done.stdout and done.stderr == ""
    assert json.loads(report.read_text())["kernels"] == []


def test_warmup_tasks_are_named_once_and_all_adds_to_the_everyday_ones():
    everyday = warmup_module.warmup_tasks()
    every = warmup_module.warmup_tasks(everything=True)
    assert set(everyday) < set(every)
    assert len({t.name for t in every}) == len(every)


# ------------------------------------------------------------------ crib bench --cold


def test_warmup_keeps_with_every_crib_mode_of_every_form(monkeypatch):
    """``crib warmup --all`` makes ``crib keep``'s call for each crib mode each form offers:
    each mode has kernels of its own. (When the other forms kept with their table only, the
    first ``crib keep --variant five-card --crib uniform`` after the warmup compiled for 5 s.)
    The calls are recorded, not run."""
    from analyzer.keeping import discard
    from analyzer.play import search, winkeep
    from analyzer.sim import harness
    from analyzer.table import tabletop

    kept = set()
    monkeypatch.setattr(discard, "keep", lambda hand, dealer, crib=None, variant=DEFAULT_VARIANT:
                        kept.add((variant, crib_mode_for(crib, variant))))
    for module, name in ((discard, "crib_distribution"), (harness, "simulate"),
                         (winkeep, "keep_to_win"), (search, "advise_play"), (tabletop, "Table")):
        monkeypatch.setattr(module, name, lambda *args, **kwargs: mock.MagicMock())
    warmup_module._keep()
    warmup_module._forms()
    offered = set()
    for variant in VARIANT_NAMES:
        for crib in CRIB_MODES:
            try:
                offered.add((variant, crib_mode_for(crib, variant)))
            except ValueError:  # not a mode of this form
                pass
    assert ("five-card", "uniform") in offered and ("five-card", "weighted") not in offered
    assert kept == offered


@pytest.mark.slow
def test_a_cold_run_compiles_and_the_second_loads_from_the_same_cache():
    cases = (ColdCase("score a hand", ("-c", "from analyzer import score_hand; "
                                             "score_hand('5H 5C 5S JD', '5D')")),
             ColdCase("count", ("count", "5H", "5C", "5S", "JD", "--starter", "5D")))
    results = run_cold(cases)
    scored, counted = results
    assert scored["first"]["compile_cpu"] > 0
    assert any(k["kernel"].startswith("core.scoring.") for k in scored["first"]["kernels"])
    assert scored["second"]["kernels"] == []
    assert counted["first"]["compile_cpu"] == 0  # the counter is plain Python
    lines = format_cold(results)
    assert len(lines) == 4 and lines[2].startswith("| score a hand | ")


def test_bench_cold_and_against_are_refused_together(capsys):
    assert main(["bench", "--cold", "--against", "HEAD"]) == 2
    assert "--cold" in capsys.readouterr().err


@pytest.mark.parametrize("other", [["--cold"], ["--serve"], ["--against", "HEAD"]])
def test_bench_repeats_goes_with_the_plain_benchmark_only(capsys, other):
    assert main(["bench", "--repeats", "1", *other]) == 2
    err = capsys.readouterr().err
    assert "--repeats" in err and len(err.strip().splitlines()) == 1
    assert main(["bench", "--repeats", "0"]) == 2


# ------------------------------------------------------------------ the user cache folder


def test_the_user_cache_folder_only_when_the_package_cannot_be_written(monkeypatch, tmp_path):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert numbacache.cache_folder(writable=lambda folder: True) is None
    read_only = {numbacache._PACKAGE / "play"}
    assert numbacache.cache_folder(writable=lambda f: f not in read_only) == str(
        tmp_path / "analyzer" / "numba")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert numbacache.user_cache_folder() == str(Path.home() / ".cache" / "analyzer" / "numba")
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "mine"))
    assert numbacache.cache_folder(writable=lambda folder: False) is None


def test_a_read_only_package_caches_its_kernels_in_the_user_cache_folder(tmp_path):
    # The package's folders seen as read-only (as in a system site-packages; chmod would not
    # stop root): the kernels compile into $XDG_CACHE_HOME/analyzer/numba, and a second
    # process loads them from there.
    package = Path(numbacache.__file__).resolve().parent.parent
    code = ("import os\nreal = os.access\n"
            f"os.access = lambda p, m, **k: (False if m == os.W_OK and str(p).startswith("
            f"{str(package)!r}) else real(p, m, **k))\n"
            "from analyzer.core import scoring\n"
            "print(os.environ.get('NUMBA_CACHE_DIR'))\n"
            "print(scoring.score_hand('5H 5C 5S JD', '5D'))\n")
    env = _env(XDG_CACHE_HOME=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    first = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           timeout=HANG_GUARD, env=env)
    assert first.returncode == 0, first.stderr
    folder, points = first.stdout.split()[:2]
    assert folder == str(tmp_path / "analyzer" / "numba") and points == "29"
    cached = list(Path(folder).rglob("*.nbi"))
    assert any("scoring" in p.name for p in cached)
    # the second process compiles nothing: the clock hears no compile
    code2 = code.replace("from analyzer.core import scoring\n",
                         "from analyzer.cli.compiletime import CompileClock\n"
                         "clock = CompileClock().install()\n"
                         "from analyzer.core import scoring\n") + "print(len(clock.rows()))\n"
    second = subprocess.run([sys.executable, "-c", code2], capture_output=True, text=True,
                            timeout=HANG_GUARD, env=env)
    assert second.returncode == 0, second.stderr
    assert second.stdout.split()[-1] == "0"


# ------------------------------------------------------------------ stale kernels after an update

_CALLER = """from numba import njit
from .callee import g


@njit(cache=True)
def f():
    return g() * 10
"""
_CALLEE = """from numba import njit


@njit(cache=True)
def g():
    return {value}
"""


def _run_caller(tmp_path) -> list[str]:
    # A fresh process, as a user's next command: the fingerprint is checked, then the caller
    # (cached, its own file unchanged) is called.
    code = ("import sys\nfrom pathlib import Path\n"
            f"sys.path.insert(0, {str(tmp_path)!r})\n"
            "from analyzer.core import numbacache\n"
            f"print(numbacache.drop_stale_kernels(Path({str(tmp_path / 'pkg')!r}), ('w',)))\n"
            "from pkg.w.caller import f\nprint(f())\n")
    # No bytecode written: Python checks a .pyc against its source's size and mtime in whole
    # seconds, so callee.py rewritten within the second, at the same size, would be read from
    # a stale .pyc (numba's cache is what is tested here, not Python's).
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=HANG_GUARD, env=_env(NUMBA_CACHE_DIR=str(tmp_path / "cache"),
                                                       PYTHONDONTWRITEBYTECODE="1"))
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


@pytest.mark.slow
def test_a_changed_callee_file_recompiles_its_callers(tmp_path):
    # Numba checks a cached kernel against its own file only: without the fingerprint, the
    # caller below would keep g() == 1 linked in after callee.py changed to return 2.
    wing = tmp_path / "pkg" / "w"
    wing.mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (wing / "__init__.py").write_text("")
    (wing / "caller.py").write_text(_CALLER)
    (wing / "callee.py").write_text(_CALLEE.format(value=1))
    assert _run_caller(tmp_path) == ["False", "10"]
    (wing / "callee.py").write_text(_CALLEE.format(value=2))
    assert _run_caller(tmp_path) == ["True", "20"]
    assert _run_caller(tmp_path) == ["False", "20"]  # compiled again, and kept
    # a touch (or a fresh checkout of the same sources) keeps the compiled kernels
    os.utime(wing / "callee.py", ns=(1, 1))
    kept = sorted(p.name for p in (tmp_path / "cache").rglob("*.nb[ic]"))
    assert kept and _run_caller(tmp_path) == ["False", "20"]
    assert sorted(p.name for p in (tmp_path / "cache").rglob("*.nb[ic]")) == kept


def test_the_cache_folders_are_numbas_own_and_the_packages_fingerprint_is_kept(monkeypatch,
                                                                               tmp_path):
    from numba.core.caching import _CacheLocator

    real = os.environ.get("NUMBA_CACHE_DIR")  # as this process imported the package
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    for wing, folder in zip(numbacache.KERNEL_WINGS, numbacache.kernel_cache_folders(),
                            strict=True):
        source = str(numbacache._PACKAGE / wing / "scoring.py")
        assert folder == tmp_path / _CacheLocator.get_suitable_cache_subpath(source)
    monkeypatch.delenv("NUMBA_CACHE_DIR")
    assert numbacache.kernel_cache_folders()[1] == numbacache._PACKAGE / "keeping" / "__pycache__"
    if real:
        monkeypatch.setenv("NUMBA_CACHE_DIR", real)
    # this process imported the package: the fingerprint is there and matches the sources, so
    # the next import only stats the files and keeps the kernels
    home = numbacache.kernel_cache_folders()[0]
    saved = json.loads((home / numbacache.FINGERPRINT_FILE).read_text())
    files = numbacache._sources(numbacache._PACKAGE, numbacache.KERNEL_WINGS)
    assert {row[0] for row in saved["stat"]} >= {"core/scoring.py", "play/search.py"}
    assert saved["stat"] == numbacache._stat_stamp(numbacache._PACKAGE, files)
    assert numbacache.drop_stale_kernels() is False
