"""``crib serve`` as a user runs it: the loopback default said, another host warned about, a
real server answering, Ctrl-C stopping it, and every refusal one line with exit status 2."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from analyzer.cli import main

CRIB = Path(sys.executable).parent / "crib"
WEB = pytest.mark.skipif(
    any(__import__("importlib").util.find_spec(m) is None for m in ("fastapi", "uvicorn")),
    reason="the web extra is not installed (pip install '.[web]')")


def refused(argv, capsys, words: str) -> str:
    capsys.readouterr()
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2 and out == "", (argv, status, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and words in lines[0], (argv, err)
    return lines[0]


def test_without_the_extra_serve_says_how_to_install_it(capsys, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("fastapi", "uvicorn") else real(name, *a))
    line = refused(["serve"], capsys, "pip install 'analyzer[web]'")
    assert line.startswith("crib serve: needs the web extra")


@pytest.mark.parametrize("argv", [["--help"], ["serve", "--help"], ["serve", "--port", "x"]])
def test_help_imports_no_web_framework(argv):
    code = ("import sys\nfrom analyzer.cli import main\ntry:\n    status = main(sys.argv[1:])\n"
            "except SystemExit as exc:\n    status = exc.code\n"
            "heavy = [m for m in ('fastapi', 'uvicorn', 'starlette', 'numpy')\n"
            "         if m in sys.modules]\n"
            "sys.exit(f'loaded {heavy}' if heavy else status)")
    result = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True)
    assert result.returncode in (0, 2), result.stderr
    assert "loaded" not in result.stderr


@WEB
@pytest.mark.parametrize(("argv", "words"), [
    (["serve", "--port", "70000"], "--port"),
    (["serve", "--port", "-1"], "--port"),
    (["serve", "--host", "203.0.113.7"], "cannot listen on 203.0.113.7:8000"),
    (["serve", "--screenshots", "shots", "--port", "9000"], "leave out --port"),
    (["serve", "--screenshots", "no/such/folder/shots"], "no folder no/such/folder"),
])
def test_refusals_are_one_line(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    refused(argv, capsys, words)
    assert list(tmp_path.iterdir()) == []


@WEB
def test_a_port_in_use_is_one_line(capsys):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        refused(["serve", "--port", str(port)], capsys, f"cannot listen on 127.0.0.1:{port}")


def _start(*args):
    env = dict(os.environ, PYTHONWARNINGS="ignore", PYTHONUNBUFFERED="1")
    return subprocess.Popen([str(CRIB), "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)


def _url(process, said: list[str]) -> str:
    """The address the server printed (it says where it serves once it is ready); the lines
    read are added to ``said``."""
    deadline = time.monotonic() + 1800  # a hang guard only
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        said.append(line)
        if line.startswith("serving "):
            return line.split()[1].removesuffix(",").removesuffix("/count")
    process.kill()
    raise AssertionError(f"no 'serving' line: {said} {process.communicate()}")


def _stop(process, said: list[str]) -> tuple[str, str]:
    """Ctrl-C: the server stops, exit status 0; its whole stdout (with ``said``) and stderr."""
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=1800)
    assert process.returncode == 0, (said, out, err)
    return "".join(said) + out, err


@WEB
def test_serve_binds_to_loopback_answers_and_stops_on_ctrl_c():
    process, said = _start(), []
    try:
        url = _url(process, said)
        assert url.startswith("http://127.0.0.1:")
        with urllib.request.urlopen(url + "/api/count?hand=5H+5C+5S+JD&starter=5D",
                                    timeout=1800) as r:
            assert json.load(r)["total"] == 29
        with urllib.request.urlopen(url + "/keep", timeout=1800) as r:
            assert b"Which four to keep" in r.read()
    finally:
        out, err = _stop(process, said)
    head = out.splitlines()[0]
    assert head == "crib serve: bound to 127.0.0.1 (loopback): only this machine can connect"
    assert out.rstrip().endswith("crib serve: stopped") and "warning" not in err


@WEB
def test_ctrl_c_with_p_wins_asked_stops_at_once_on_one_line():
    """An audit's Ctrl-C with ten P(win)s asked waited until each was computed, for nobody; a
    second Ctrl-C then printed ten tracebacks. The ones waiting, and the one computing, are
    dropped (499, or the connection closed) and the server says it stopped, exit status 0."""
    import threading
    import urllib.error

    process, said = _start(), []
    statuses = []

    def ask(seed):
        query = f"hand=5H+5S+6D+JC+QS+KH&role=dealer&me=110&opp=115&samples=20000&seed={seed}"
        try:
            with urllib.request.urlopen(f"{url}/api/keep/win?{query}", timeout=1800) as r:
                statuses.append(r.status)
        except urllib.error.HTTPError as exc:
            statuses.append(exc.code)
        except (urllib.error.URLError, ConnectionError, OSError):
            statuses.append("closed")

    try:
        url = _url(process, said)
        asked = [threading.Thread(target=ask, args=(k,)) for k in range(6)]
        for thread in asked:
            thread.start()
        time.sleep(1)  # not a measure: the requests reach the server (or not: then refused)
    finally:
        out, err = _stop(process, said)
    for thread in asked:
        thread.join(1800)
    assert out.rstrip().endswith("crib serve: stopped")
    assert "Traceback" not in err and "Exception" not in err, err
    assert len(statuses) == 6 and set(statuses) <= {200, 499, "closed"}, statuses


@WEB
def test_another_host_is_warned_about():
    process, said = _start("--host", "0.0.0.0"), []
    try:
        url = _url(process, said)
        assert url.startswith("http://0.0.0.0:")
        port = url.rsplit(":", 1)[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/count", timeout=1800) as r:
            assert r.status == 200  # serving; asked from this machine only
    finally:
        out, err = _stop(process, said)
    assert "crib serve: warning: bound to 0.0.0.0, reachable from other machines" in err


@WEB
@pytest.mark.slow
def test_latency_is_measured_over_http():
    from analyzer.web.latency import api_latency

    figures = api_latency(calls=5)
    assert set(figures) == {"count", "keep", "keep, exact uniform crib", "keep/win, 4,000 samples",
                            "game, late position, against best",
                            "game, late position, against ev+lookahead"}
    for t in figures.values():
        assert 0 < t["median_ms"] <= t["p90_ms"] <= t["max_ms"] and t["calls"] == 5
