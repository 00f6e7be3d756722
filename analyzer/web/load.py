"""A load test of ``crib serve``: many clients at once on loopback, while P(win) requests run.

:func:`load_test` starts the server in a process of its own (``crib serve --port 0``, so that the
clients' threads do not share its GIL) or uses one already running, then runs ``clients`` threads
for ``seconds``, each on its own kept-alive connection, each request one of a mix drawn from a
seeded generator:

- ``count``: a random hand and starter counted (``/api/count``);
- ``keep``: a random six-card hand's keeps, as dealer or pone (``/api/keep``);
- ``trainer``: a trainer deal, then its first two cards thrown and graded (two requests);
- ``game``: one move of a game against ``best``, played through the API from its first deal to
  its end (throw the first two cards, lay the first card that fits), then a new game.

Beside them ``win_clients`` threads ask for P(win) (``/api/keep/win``, ``win_samples`` samples)
back to back, so that one is always running or waiting for the slot. Each request is timed from
its sending to its answer read; an error is an answer that is not 200 or a connection that fails.
Besides the percentiles, ``during_win`` counts, by kind, the answers that arrived while a P(win)
was being answered (sent after a P(win) was sent, answered before it was answered): with the
server's old single lock they were none.

Nothing here asserts a speed: ``crib bench --serve`` prints the figures.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from urllib.parse import urlencode, urlsplit

__all__ = ["KINDS", "format_load", "load_test", "served"]

#: How long a client waits before each request of the mix, on average (uniform from 0 to twice
#: this), in seconds: a person reads an answer before the next click. 0: back to back.
THINK = 0.25
#: The kinds of request of the mix, and their weights.
KINDS = {"count": 3, "keep": 3, "trainer": 1, "game": 2}
_RANKS = "A23456789TJQK"
_SUITS = "CDHS"


def _cards(rng: random.Random, n: int) -> list[str]:
    return [_RANKS[c // 4] + _SUITS[c % 4] for c in rng.sample(range(52), n)]


@contextmanager
def served(timeout: float = 600.0):
    """``crib serve --port 0`` in a new process, as a context manager giving its address; stopped
    (Ctrl-C, then killed) at the end."""
    import signal

    env = dict(os.environ, PYTHONUNBUFFERED="1")
    process = subprocess.Popen([sys.executable, "-m", "analyzer", "serve", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env=env)
    said: list[str] = []
    try:
        deadline = time.monotonic() + timeout
        url = None
        while url is None:
            line = process.stdout.readline()
            if not line:
                raise RuntimeError("crib serve stopped: " + " | ".join(said[-5:]))
            said.append(line.rstrip())
            if line.startswith("serving http"):
                url = line.split()[1].rsplit("/", 1)[0]
            if time.monotonic() > deadline:
                raise RuntimeError("crib serve did not start")
        threading.Thread(target=process.stdout.read, daemon=True).start()  # drain it
        yield url
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class _Client:
    """One connection to the server; :meth:`get` times a request and records it."""

    def __init__(self, url: str, out: list, stop_at: float):
        where = urlsplit(url)
        self.host, self.port = where.hostname, where.port
        self.out = out
        self.stop_at = stop_at
        self.connection = None

    def get(self, kind: str, path: str, params: dict) -> dict | None:
        """The answer's JSON, or None on an error (recorded)."""
        start = time.monotonic()
        try:
            if self.connection is None:
                self.connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
            self.connection.request("GET", path + "?" + urlencode(params))
            response = self.connection.getresponse()
            body = response.read()
            ok = response.status == 200
            data = json.loads(body) if ok else None
            error = None if ok else f"{response.status} {body[:120]!r}"
        except (OSError, http.client.HTTPException, ValueError) as exc:
            data, error = None, f"{type(exc).__name__}: {exc}"
            self.close()
        self.out.append((kind, start, time.monotonic(), error))
        return data

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None


def _mixed(client: _Client, rng: random.Random, think: float) -> None:
    kinds, weights = list(KINDS), list(KINDS.values())
    game = None  # (seed, moves) of the game under way
    while time.monotonic() < client.stop_at:
        if think:
            time.sleep(rng.uniform(0.0, 2.0 * think))
        kind = rng.choices(kinds, weights)[0]
        if kind == "count":
            five = _cards(rng, 5)
            client.get(kind, "/api/count", {"hand": " ".join(five[:4]), "starter": five[4]})
        elif kind == "keep":
            client.get(kind, "/api/keep", {"hand": " ".join(_cards(rng, 6)),
                                           "role": rng.choice(("dealer", "pone"))})
        elif kind == "trainer":
            seed = rng.randrange(2**31)
            deal = client.get(kind, "/api/trainer/deal", {"seed": seed})
            if deal is not None:
                client.get(kind, "/api/trainer/answer",
                           {"seed": seed, "k": deal["k"], "throw": " ".join(deal["hand"][:2])})
        else:
            if game is None:
                game = (rng.randrange(2**31), [])
            seed, moves = game
            answer = client.get(kind, "/api/game", {"seed": seed, "moves": " ".join(moves)})
            if answer is None or answer["ask"] == "over":
                game = None
                continue
            state, ask = answer["state"], answer["ask"]
            moves.append("-".join(state["hand"][:2]) if ask == "throw" else
                         state["legal"][0])


def _wins(client: _Client, rng: random.Random, samples: int) -> None:
    while time.monotonic() < client.stop_at:
        client.get("win", "/api/keep/win", {"hand": " ".join(_cards(rng, 6)),
                                            "role": rng.choice(("dealer", "pone")),
                                            "me": rng.randrange(90, 121),
                                            "opp": rng.randrange(90, 121), "samples": samples})


def _percentile(times: list[float], q: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def load_test(url: str | None = None, clients: int = 20, seconds: float = 30.0,
              win_clients: int = 2, win_samples: int = 4000, think: float = THINK,
              seed: int = 0) -> dict:
    """Load ``crib serve`` (at ``url``, or a new one: :func:`served`) from ``clients`` threads
    for ``seconds`` while ``win_clients`` threads ask for P(win) (see the module).

    Returns
    -------
    dict
        ``clients``, ``win_clients``, ``seconds`` (as run), ``requests``, ``errors`` (their
        number) and ``error_examples`` (up to 5), ``load_average`` (the machine's, over the
        last minute, at the end: other programs' work shows in the figures), and ``kinds``: by
        kind (``count``, ``keep``, ``trainer``, ``game``, ``win``) ``{"requests", "errors",
        "p50_ms", "p99_ms", "max_ms", "during_win"}``.
    """
    if url is None:
        with served() as started:
            return load_test(started, clients, seconds, win_clients, win_samples, think, seed)
    records: list = []
    stop_at = time.monotonic() + seconds
    seeds = random.Random(seed)
    threads = []
    for i in range(clients + win_clients):
        client = _Client(url, records, stop_at)
        rng = random.Random(seeds.randrange(2**63))
        fn, args = ((_mixed, (client, rng, think)) if i < clients else
                    (_wins, (client, rng, win_samples)))
        threads.append((threading.Thread(target=fn, args=args, daemon=True), client))
    started = time.monotonic()
    for thread, _ in threads:
        thread.start()
    for thread, client in threads:
        thread.join()
        client.close()
    elapsed = time.monotonic() - started
    return _summary(records, clients, win_clients, elapsed)


def _summary(records: list, clients: int, win_clients: int, elapsed: float) -> dict:
    wins = [(s, e) for kind, s, e, error in records if kind == "win" and error is None]
    kinds = {}
    for kind in (*KINDS, "win"):
        mine = [r for r in records if r[0] == kind]
        times = [(e - s) * 1e3 for _, s, e, error in mine if error is None]
        during = sum(1 for _, s, e, error in mine if error is None and kind != "win"
                     and any(ws <= s and e <= we for ws, we in wins))
        kinds[kind] = {"requests": len(mine), "errors": sum(1 for r in mine if r[3]),
                       "p50_ms": statistics.median(times) if times else float("nan"),
                       "p99_ms": _percentile(times, 0.99) if times else float("nan"),
                       "max_ms": max(times) if times else float("nan"), "during_win": during}
    errors = [r[3] for r in records if r[3]]
    return {"clients": clients, "win_clients": win_clients, "seconds": elapsed,
            "requests": len(records), "errors": len(errors), "error_examples": errors[:5],
            "load_average": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
            "kinds": kinds}


def format_load(result: dict) -> list[str]:
    """The lines ``crib bench --serve`` prints for :func:`load_test`'s result."""
    lines = [f"crib serve under load: {result['clients']} clients and {result['win_clients']} "
             f"asking P(win), {result['seconds']:.1f} s on loopback, {result['requests']:,} "
             f"requests, {result['errors']} errors"
             + (f" (the machine's load average {result['load_average']:.1f})"
                if result.get("load_average") is not None else ""),
             f"{'kind':<8} {'requests':>9} {'errors':>6} {'p50 ms':>8} {'p99 ms':>8} "
             f"{'max ms':>8}  answered during a P(win)"]
    for kind, k in result["kinds"].items():
        during = "" if kind == "win" else f"{k['during_win']:,}"
        lines.append(f"{kind:<8} {k['requests']:>9,} {k['errors']:>6} {k['p50_ms']:>8.1f} "
                     f"{k['p99_ms']:>8.1f} {k['max_ms']:>8.1f}  {during}")
    for example in result["error_examples"]:
        lines.append(f"error: {example}")
    return lines
