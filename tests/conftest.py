"""Shared test settings: hypothesis profiles sized for a 2-core CI machine, a history of games
that is never the user's own, and the tests marked slow started first."""

import os

import pytest
from hypothesis import HealthCheck, settings

from analyzer.table.history import HISTORY_ENV

settings.register_profile(
    "ci", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True, scope="session")
def history_in_a_temporary_folder(tmp_path_factory):
    """Every ``crib play`` of the suite (in this process, and in the subprocesses and
    pseudo-terminals it starts, which inherit ``os.environ``) adds its games to a temporary
    history, never to the user's data folder. A test that counts rows gives its own path."""
    path = tmp_path_factory.mktemp("history") / "history.sqlite3"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(HISTORY_ENV, str(path))
        yield path


def pytest_collection_modifyitems(items):
    """The tests marked slow first, in their order, then the others: pytest-xdist deals the
    first quarter of the tests to its workers in turn and the rest as they finish, so the long
    tests run side by side at the start and short ones fill in at the end, instead of one long
    test keeping a worker busy after the other has finished."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
