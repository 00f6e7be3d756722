"""``crib serve`` stays responsive: count and keep answer while a P(win) computes, a P(win) whose
client has gone is not computed, and a short load test of every kind has no error. Served on a
free loopback port (uvicorn in a thread); nothing here asserts a speed."""

from __future__ import annotations

import http.client
import json
import threading
import time
from urllib.parse import urlencode, urlsplit

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")

from analyzer.web.answers import MAX_WEB_SAMPLES  # noqa: E402
from analyzer.web.app import create_app  # noqa: E402
from analyzer.web.browser import wait_for  # noqa: E402
from analyzer.web.serve import BackgroundServer  # noqa: E402

HAND = "5H 5S 6D JC QS KH"
WIN = {"hand": HAND, "role": "dealer", "me": 110, "opp": 115, "samples": MAX_WEB_SAMPLES}
HANG_GUARD = 1800  # seconds: a first P(win) may wait on a cold compile on a slow machine


@pytest.fixture(scope="module")
def served():
    app = create_app()
    with BackgroundServer(app) as url:
        yield app, url


def get(url, path, params, timeout=HANG_GUARD):
    where = urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=timeout)
    try:
        connection.request("GET", path + "?" + urlencode(params))
        response = connection.getresponse()
        return response.status, json.loads(response.read())
    finally:
        connection.close()


def status_of(url, path, params) -> int:
    """The status of a GET, its body (empty for an answer dropped) left unread."""
    where = urlsplit(url)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=HANG_GUARD)
    try:
        connection.request("GET", path + "?" + urlencode(params))
        return connection.getresponse().status
    finally:
        connection.close()


def in_thread(fn, *args):
    """Run ``fn(*args)`` in a thread; the thread and a list that gets (result, time answered)."""
    out = []
    thread = threading.Thread(target=lambda: out.append((fn(*args), time.monotonic())))
    thread.start()
    return thread, out


def test_count_and_keep_answer_while_a_p_win_computes(served):
    app, url = served
    work = app.state.work
    thread, win = in_thread(get, url, "/api/keep/win", WIN)
    wait_for(lambda: work.running, timeout=HANG_GUARD)
    status, count = get(url, "/api/count", {"hand": "5H 5C 5S JD", "starter": "5D"})
    counted = time.monotonic()
    assert status == 200 and count["total"] == 29
    status, keep = get(url, "/api/keep", {"hand": HAND, "role": "pone"})
    kept = time.monotonic()
    assert status == 200 and len(keep["rows"]) == 15
    thread.join(HANG_GUARD)
    (status, answer), won = win[0]
    assert status == 200 and answer["samples"] >= MAX_WEB_SAMPLES  # rounded up to 64s
    # both answered before the P(win) they were sent during (with one lock they waited for it)
    assert counted < won and kept < won


def test_a_p_win_whose_client_has_gone_is_not_computed(served):
    app, url = served
    work = app.state.work
    thread, first = in_thread(get, url, "/api/keep/win", WIN)
    wait_for(lambda: work.running, timeout=HANG_GUARD)
    done, dropped = work.done, work.dropped
    # a second P(win) waits for the slot; its client gives up (a page that asked again)
    where = urlsplit(url)
    gone = http.client.HTTPConnection(where.hostname, where.port)
    gone.request("GET", "/api/keep/win?" + urlencode({**WIN, "seed": 1}))
    wait_for(lambda: work.waiting)
    gone.close()
    wait_for(lambda: work.dropped == dropped + 1, timeout=HANG_GUARD)
    thread.join(HANG_GUARD)
    assert first[0][0][0] == 200
    assert work.done == done + 1  # the first only: the second was never computed
    assert not work.waiting and not work.running


@pytest.mark.slow
def test_a_short_load_test_has_no_errors(served):
    from analyzer.web.load import KINDS, format_load, load_test

    app, url = served
    result = load_test(url, clients=3, seconds=3, win_clients=1, win_samples=MAX_WEB_SAMPLES,
                       think=0.05)
    assert result["errors"] == 0, result["error_examples"]
    kinds = result["kinds"]
    assert all(kinds[k]["requests"] for k in (*KINDS, "win")), kinds
    # counts and keeps were answered while a P(win) was being answered
    assert kinds["count"]["during_win"] and kinds["keep"]["during_win"], kinds
    lines = format_load(result)
    assert lines[0].startswith("crib serve under load: 3 clients") and len(lines) == 7


def test_a_flood_of_slow_answers_leaves_the_pages_and_the_counts_alone(monkeypatch):
    """An audit's flood: 45 reviews at once (seconds of Python each) held every thread of
    starlette's pool, and a page, its script and a count waited 36 s for them. The slow answers
    now compute two at a time in threads of their own; the pages are answered on the event
    loop. The reviews here wait on an event set only once the page and the count are back:
    before, this test waited for its hang guard."""
    from analyzer.web import game

    release = threading.Event()
    started = []

    def held_review(*args):
        started.append(1)
        release.wait(HANG_GUARD)
        return {"held": True}

    monkeypatch.setattr(game, "game_review", held_review)
    app = create_app()
    with BackgroundServer(app) as url:
        reviews = [in_thread(get, url, "/api/game/review", {"seed": k}) for k in range(45)]
        wait_for(lambda: len(started) == 2, timeout=HANG_GUARD)  # two at work, the rest queued
        where = urlsplit(url)
        for path in ("/play", "/static/play.js", "/favicon.ico"):
            page = http.client.HTTPConnection(where.hostname, where.port, timeout=HANG_GUARD)
            page.request("GET", path)
            assert page.getresponse().status == 200, path
            page.close()
        status, count = get(url, "/api/count", {"hand": "5H 5C 5S JD", "starter": "5D"})
        assert status == 200 and count["total"] == 29
        assert len(started) == 2  # no more than two at once
        release.set()
        for thread, _ in reviews:
            thread.join(HANG_GUARD)
        assert all(out[0][0] == (200, {"held": True}) for _, out in reviews)


def test_stopping_the_server_drops_the_p_wins_waiting_and_computing():
    """An audit's Ctrl-C waited 15 s while ten queued P(win)s were computed for nobody. Asked
    to stop, the server answers each of them at once that its client is gone (499)."""
    import signal

    app = create_app()
    work = app.state.work
    server = BackgroundServer(app)
    url = server.__enter__()
    try:
        wins = [in_thread(status_of, url, "/api/keep/win", {**WIN, "seed": k})
                for k in range(4)]
        wait_for(lambda: work.running and work.waiting == 3, timeout=HANG_GUARD)
        server._server.handle_exit(signal.SIGINT, None)  # what uvicorn does on Ctrl-C
        for thread, _ in wins:
            thread.join(HANG_GUARD)
        statuses = [out[0][0] for _, out in wins]
    finally:
        server.__exit__(None, None, None)
    assert statuses == [499] * 4
    assert work.done == 0 and work.dropped == 4
