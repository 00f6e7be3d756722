"""Shared test settings: hypothesis profiles sized for a 2-core CI machine, a history of games
that is never the user's own, the tests marked slow started first, and the exhaustive sweeps
run only when asked for (``--exhaustive``, ``make test-all``)."""

import os
import signal

import pytest
from hypothesis import HealthCheck, settings

from analyzer.table.history import HISTORY_ENV

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# A shell without job control starts a background job (`make test &`) with SIGINT ignored, and
# an ignored signal stays ignored in every process started from it: the games the suite stops
# with Ctrl-C would not stop, and their tests would wait for their hang guard. Ctrl-C is
# restored to Python's usual KeyboardInterrupt here, in the pytest process and in each worker,
# so every program the suite starts receives it as a user's terminal sends it.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True, scope="session")
def history_in_a_temporary_folder(tmp_path_factory):
    """Every ``crib play`` of the suite (in this process, and in the subprocesses and
    pseudo-terminals it starts, which inherit ``os.environ``) adds its games to a temporary
    history, never to the user's data folder. A test that counts rows gives its own path."""
    path = tmp_path_factory.mktemp("history") / "history.sqlite3"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(HISTORY_ENV, str(path))
        yield path


#: Tests that share a worker, one unit each for pytest-xdist's scheduler: both browser modules
#: (Chromium started once per module, on the worker that waits on it while the other's tests use
#: the other core), each docs page's Python examples (one interpreter runs a page's blocks), the
#: three-player odds tests (their module's small build, about 4 s, made once), and the two tests
#: that compare the repository's git worktrees before and after a `crib bench --against` (run at
#: once, one could see the other's worktree come or go).
WORK_UNITS = (
    ("browser", ("tests/test_web_browser.py::", "tests/test_web_table_browser.py::")),
    ("python examples of {page}", ("tests/test_docs.py::test_python_example[",)),
    ("three-player odds", ("tests/test_odds3.py::",)),
    ("git worktrees", ("tests/test_benchcompare.py::test_both_sides_run_in_turn",
                       "tests/test_benchcompare.py::test_a_bad_revision_is_one_line")),
)


def work_unit(nodeid: str) -> str:
    """The unit of work a test is dealt in: its group's name, else its own id.

    >>> work_unit("tests/test_web_browser.py::test_count[x]")
    'browser'
    >>> work_unit("tests/test_docs.py::test_python_example[docs/api.md:16]")
    'python examples of docs/api.md'
    >>> work_unit("tests/test_cards.py::test_parse")
    'tests/test_cards.py::test_parse'
    """
    for name, prefixes in WORK_UNITS:
        if nodeid.startswith(prefixes):
            return name.format(page=nodeid.partition("[")[2].rpartition(":")[0])
    return nodeid


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: no error where xdist is not loaded
def pytest_xdist_make_scheduler(config, log):
    """With ``--dist loadgroup`` (the Makefile's), the groups of :data:`WORK_UNITS`, by file:
    pytest-xdist's own ``xdist_group`` marks group nothing under pytest 9.2 (pytest-xdist issue
    #1386). The units are dealt largest first (xdist's ``--loadscope-reorder``), then the single
    tests in the order below, each worker taking the next as it runs low."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Units(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return work_unit(nodeid)

    return Units(config, log)


def pytest_addoption(parser):
    parser.addoption(
        "--exhaustive", action="store_true",
        help="also run the tests marked exhaustive: the oracles' sweeps over every rank pattern "
             "(minutes of CPU; make test-all)")


def pytest_collection_modifyitems(config, items):
    """The tests marked exhaustive are skipped, with the reason, unless ``--exhaustive`` is
    given: each sweeps every rank pattern in parts, of which the part the suite always runs is
    an even sample (every eighth pattern), so a plain run checks the same thing on fewer hands.

    The tests marked slow first, in their order, then the others: pytest-xdist (``--dist
    loadgroup``, the Makefile's) gives each worker the next test as it finishes one, so the
    long tests run side by side at the start and short ones fill in at the end, instead of one
    long test keeping a worker busy after the other has finished. A group of tests that share a
    worker (:data:`WORK_UNITS`) is one unit, dealt before the single tests, the largest first."""
    if not config.getoption("--exhaustive"):
        skip = pytest.mark.skip(reason="an exhaustive sweep: run with --exhaustive (make test-all)")
        for item in items:
            if item.get_closest_marker("exhaustive") is not None:
                item.add_marker(skip)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
