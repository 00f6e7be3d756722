"""The web API fuzzed (hypothesis, FastAPI's TestClient): whatever the query, the answer is a 200
with JSON (or the chart's SVG) or a 4xx with a one-line JSON error, never a 500 (the client
re-raises any exception of the server, so a bug fails the test with its traceback)."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx2", reason="FastAPI's TestClient needs httpx2 (the test extra)")

from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from analyzer.core.cards import format_card  # noqa: E402
from analyzer.web.app import create_app  # noqa: E402

CLIENT = TestClient(create_app())

card_like = st.builds(lambda r, s: r + s, st.sampled_from(list("A23456789TJQKX1") + ["10", ""]),
                      st.sampled_from(list("CDHSchdsX♣♦♥♠") + [""]))


def cards(n: int):
    """Text of ``n`` distinct real cards, space or comma separated."""
    return st.tuples(st.permutations(range(52)), st.sampled_from([" ", ",", ", "])).map(
        lambda p: p[1].join(format_card(c) for c in p[0][:n]))


card_text = st.one_of(
    st.text(max_size=40),
    st.lists(card_like, max_size=8).map(" ".join),
    st.lists(card_like, max_size=8).map(",".join),
    *(cards(n) for n in (1, 2, 3, 4, 5, 6)),
)
anything = st.one_of(
    st.text(max_size=20),
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.sampled_from(["true", "false", "1", "0", "yes", "", "nan", "1e3", "dealer", "pone",
                     "any", "table", "uniform", "weighted", "six-card", "five-card"]),
)


def query(**choices):
    """A dict of some of the parameters (each drawn from its strategy) and maybe a stray one."""
    return st.fixed_dictionaries({}, optional={**choices, "stray": anything})


def check(path: str, params: dict):
    response = CLIENT.get(path, params=params)
    assert response.status_code in (200, 422), (path, params, response.status_code,
                                                response.text)
    if response.status_code == 200:
        if path.endswith(".svg"):
            assert response.content.lstrip().startswith(b"<?xml")
        else:
            assert isinstance(response.json(), dict)
        return
    body = response.json()
    assert isinstance(body.get("error"), str) and body["error"] and "\n" not in body["error"]
    assert set(body) <= {"error", "field"}, body


def fuzz(examples: int):
    return settings(max_examples=examples, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@fuzz(300)
@given(query(hand=card_text, starter=card_text, crib=anything,
             variant=st.one_of(anything, st.sampled_from(["six-card", "five-card"]))))
@pytest.mark.slow
def test_count(params):
    check("/api/count", params)


@fuzz(300)
@given(query(hand=card_text, role=st.one_of(anything, st.sampled_from(["dealer", "pone"])),
             crib=anything, pegging=anything, variant=anything))
@pytest.mark.slow
def test_keep(params):
    check("/api/keep", params)


@fuzz(40)
@given(query(hand=card_text, role=st.sampled_from(["dealer", "pone", "x"]),
             me=st.one_of(st.integers(-5, 130).map(str), anything),
             opp=st.one_of(st.integers(-5, 130).map(str), anything),
             samples=st.one_of(st.integers(-5, 100).map(str), anything.filter(
                 lambda v: not v.isdecimal() or int(v) <= 200)),
             seed=anything, crib=anything, pegging=anything,
             variant=st.one_of(anything, st.sampled_from(["six-card", "five-card", "three-player",
                                                          "four-player"])),
             position=st.one_of(anything, st.sampled_from(["dealer", "first", "second",
                                                           "third"]))))
def test_keep_win(params):
    params.setdefault("samples", "64")  # a tenth of a second saved on every valid hand
    check("/api/keep/win", params)


@fuzz(25)
@given(query(hand=card_text, role=st.sampled_from(["dealer", "pone", "x"]), crib=anything,
             pegging=anything, variant=anything))
def test_chart(params):
    check("/api/keep/chart.svg", params)


@fuzz(300)
@given(query(seed=st.one_of(st.integers(-3, 2**64).map(str), anything),
             k=st.one_of(st.integers(-3, 2**33).map(str), anything),
             role=st.one_of(anything, st.sampled_from(["any", "dealer", "pone"])),
             close=anything))
@pytest.mark.slow
def test_trainer_deal(params):
    check("/api/trainer/deal", params)


@fuzz(300)
@given(query(seed=st.one_of(st.integers(-3, 2**64).map(str), anything),
             k=st.one_of(st.integers(-3, 2**33).map(str), anything),
             throw=st.one_of(card_text, cards(2))))
@pytest.mark.slow
def test_trainer_answer(params):
    check("/api/trainer/answer", params)
