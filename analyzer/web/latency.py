"""How long the web API takes to answer: ``crib bench``'s figures for ``crib serve``.

:func:`api_latency` serves the application on a free loopback port (uvicorn in a thread, as
``crib serve`` runs it), warms it, then times whole HTTP requests from a client on one kept-alive
connection, one request at a time: the request sent, the answer read and its JSON parsed. Each
call asks for a different seeded random hand; the game's figures replay one six-card game (a
seeded game played to its end by the first card that fits) from its first move to two moves
before its end, the position a request near the end of a game replays. The figures are the
median and the 90th percentile of the calls, in milliseconds; the issue's target is a median
under 50 ms for keep and count.
"""

from __future__ import annotations

import http.client
import json
import statistics
import time
from urllib.parse import urlencode, urlsplit

__all__ = ["api_latency"]


def _hands(n: int, size: int, seed: int) -> list[list[str]]:
    import numpy as np

    from ..core.cards import format_card

    rng = np.random.default_rng(seed)
    return [[format_card(c) for c in rng.permutation(52)[:size]] for _ in range(n)]


def _requests(calls: int, seed: int) -> dict[str, list[str]]:
    """The request paths of each figure: ``calls`` of each kind (5 for the score-aware view)."""
    sixes = _hands(calls, 6, seed)
    fives = _hands(calls, 5, seed + 1)
    roles = ["dealer", "pone"]
    score = {"me": 100, "opp": 105}
    return {
        "count": [f"/api/count?{urlencode({'hand': ' '.join(h[:4]), 'starter': h[4]})}"
                  for h in fives],
        "keep": [f"/api/keep?{urlencode({'hand': ' '.join(h), 'role': roles[i % 2]})}"
                 for i, h in enumerate(sixes)],
        "keep, exact uniform crib": [
            f"/api/keep?{urlencode({'hand': ' '.join(h), 'role': roles[i % 2], 'crib': 'uniform'})}"
            for i, h in enumerate(sixes)],
        "keep/win, 4,000 samples": [
            f"/api/keep/win?{urlencode({'hand': ' '.join(h), 'role': roles[i % 2], **score})}"
            for i, h in enumerate(sixes[:5])],
        **{f"game, late position, against {ai}": [_late_game(ai, seed)] * min(calls, 30)
           for ai in ("best", "ev+lookahead")},
    }


def _late_game(opponent: str, seed: int) -> str:
    """The request of a six-card game against ``opponent`` two moves before its end: the game
    played by throwing the first two cards and laying the first card that fits."""
    from .game import game_answer

    moves: list[str] = []
    while True:
        answer = game_answer("six-card", opponent, seed, "cut", False, " ".join(moves))
        state, ask = answer["state"], answer["ask"]
        if ask == "over":
            break
        moves.append("-".join(state["hand"][:2]) if ask == "throw" else
                     state["legal"][0])
    query = {"opponent": opponent, "seed": seed, "moves": " ".join(moves[:-2])}
    return f"/api/game?{urlencode(query)}"


def api_latency(calls: int = 200, seed: int = 0) -> dict[str, dict]:
    """Time the API's answers over HTTP on this machine.

    Returns
    -------
    dict
        By figure (``count``, ``keep``, ``keep, exact uniform crib``, ``keep/win, 4,000
        samples``, ``game, late position, against best`` and ``... against ev+lookahead``):
        ``{"median_ms", "p90_ms", "max_ms", "calls"}``.
    """
    from .app import create_app
    from .serve import BackgroundServer

    app = create_app(warm=True)
    out = {}
    with BackgroundServer(app) as url:
        where = urlsplit(url)
        connection = http.client.HTTPConnection(where.hostname, where.port, timeout=60)
        try:
            for name, paths in _requests(calls, seed).items():
                _get(connection, paths[0])  # warm: load this kind's kernels
                times = []
                for path in paths:
                    start = time.perf_counter()
                    _get(connection, path)
                    times.append((time.perf_counter() - start) * 1e3)
                times.sort()
                out[name] = {"median_ms": statistics.median(times),
                             "p90_ms": times[int(0.9 * (len(times) - 1))],
                             "max_ms": times[-1], "calls": len(times)}
        finally:
            connection.close()
    return out


def _get(connection: http.client.HTTPConnection, path: str):
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    if response.status != 200:
        raise RuntimeError(f"{path}: {response.status} {body[:200]!r}")
    return json.loads(body)
