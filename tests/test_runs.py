"""Backends, checkpoints and resume: the same seed gives the same result however the run goes."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

from analyzer import simulate
from analyzer.core.choices import MAX_GAMES
from analyzer.sim.runs import RunError

CRIB = Path(sys.executable).parent / "crib"
PLAYERS = ("ev+greedy", "ev+lookahead")
VOLATILE = {"elapsed_seconds", "games_per_second", "workers", "backend"}


def same_result(a, b) -> None:
    assert np.array_equal(a.acc, b.acc)
    assert np.array_equal(a.crib_acc, b.crib_acc)
    assert a.records == b.records
    assert a.games == b.games


def stable(d: dict) -> dict:
    return {k: v for k, v in d.items() if k not in VOLATILE}


@pytest.mark.slow
def test_ctrl_c_on_a_local_dask_cluster_is_one_line(tmp_path):
    """Ctrl-C reaches the terminal's whole process group: the cluster's workers ignore it and
    this process closes them, saying only that it was interrupted (not each worker's
    tracebacks), and the chunks finished stay checkpointed."""
    pytest.importorskip("distributed", reason="the dask extra is not installed")
    out = tmp_path / "run"
    proc = subprocess.Popen([str(CRIB), "simulate", "--games", "400000", "--seed", "11",
                             "--scheduler", "local", "--workers", "2", "--out", str(out),
                             "--quiet"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    deadline = time.monotonic() + 1800  # a hang guard: waits for the first chunk saved
    while time.monotonic() < deadline and not list((out / "chunks").glob("part-*.npz")):
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends it: to the group
    stdout, stderr = proc.communicate(timeout=1800)
    assert proc.returncode == 130, stderr
    assert stderr == f"crib: interrupted; continue with --resume --out {out}\n", stderr
    assert list((out / "chunks").glob("part-*.npz")) and not (out / "summary.csv").exists()


@pytest.mark.slow
def test_local_dask_cluster_equals_the_local_backend():
    pytest.importorskip("dask.distributed")
    # 60 chunks in 20 tasks of 3, of which the cluster is given 8 at a time (4 a thread): the
    # tasks are submitted as others finish
    local = simulate(6_000, seed=21, players=PLAYERS, chunk_size=100, record_games=30)
    # with Dask's own port (8787) taken, as by a run already going: the cluster's web server
    # goes on a free port, with no warning that it is in use
    with socket.socket() as busy, warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        with contextlib.suppress(OSError):  # taken already: as good
            busy.bind(("", 8787))
            busy.listen()
        dask = simulate(6_000, seed=21, players=PLAYERS, chunk_size=100, record_games=30,
                        backend="dask", scheduler="local", workers=2)
    assert not [w for w in said if "in use" in str(w.message)]
    same_result(local, dask)
    assert dask.backend == "dask" and stable(dask.to_dict()) == stable(local.to_dict())


@pytest.mark.slow
def test_a_dask_run_of_the_most_games_stops_at_its_time_limit(tmp_path):
    # 10**12 games are a billion chunks of 1,000: the cluster is given a few tasks at a time,
    # never a list of them all (a run was killed building it). As on this machine's threads,
    # the time is checked as each task comes back, so the counts do not depend on its speed.
    pytest.importorskip("dask.distributed")
    part = simulate(MAX_GAMES, seed=3, players=PLAYERS, chunk_size=1_000, checkpoint=tmp_path,
                    time_limit=0.5, backend="dask", scheduler="local", workers=2)
    assert not part.complete and 0 < part.games < MAX_GAMES and part.games % 1_000 == 0
    assert part.played == part.games and list((tmp_path / "chunks").glob("part-*.npz"))


def test_dask_backend_refuses_a_bad_address():
    with pytest.raises(RunError, match="not a Dask scheduler address"):
        simulate(10, seed=1, backend="dask", scheduler="not an address")


def _saved_files(result, folder: Path) -> dict[str, bytes]:
    """The tables a finished run writes, as bytes (the provenance, with its date, left out)."""
    result.save(folder)
    return {name: (folder / name).read_bytes()
            for name in ("summary.csv", "margins.csv", "crib_outcomes.csv")}


def test_a_stop_after_k_chunks_then_resume_equals_an_uninterrupted_run(tmp_path):
    # A deterministic stop: the harness takes max_chunks the way it takes a time limit.
    whole = simulate(9_000, seed=8, players=PLAYERS, chunk_size=1_000, record_games=20)
    part = simulate(9_000, seed=8, players=PLAYERS, chunk_size=1_000, record_games=20,
                    checkpoint=tmp_path / "run", max_chunks=4)
    assert not part.complete and part.games == 4_000 and part.played == 4_000
    assert len(part.records) == 20  # the recorded games are all in chunk 0
    rest = simulate(9_000, seed=8, players=PLAYERS, chunk_size=1_000, record_games=20,
                    checkpoint=tmp_path / "run", resume=True, max_chunks=2)
    assert not rest.complete and rest.games == 6_000 and rest.played == 2_000
    done = simulate(9_000, seed=8, players=PLAYERS, chunk_size=1_000, record_games=20,
                    checkpoint=tmp_path / "run", resume=True)
    assert done.complete and done.played == 3_000
    same_result(whole, done)
    assert _saved_files(done, tmp_path / "a") == _saved_files(whole, tmp_path / "b")
    assert write_text(done.records) == write_text(whole.records)


def write_text(records) -> str:
    return "".join(json.dumps(r, sort_keys=True) + "\n" for r in records)


@pytest.mark.slow
@pytest.mark.parametrize("games", [10**9, MAX_GAMES])
def test_a_time_limit_stops_a_run_too_large_to_finish_cleanly_and_resumably(tmp_path, games):
    # 10**9 games cannot finish in a second on any machine: the run must stop at a chunk
    # boundary, checkpointed, and a resume must accept the folder and go on from there. The
    # time is checked after each chunk is kept, so however slow the machine, each run keeps
    # at least one chunk: the counts below do not depend on its speed. The most games a run
    # takes, 10**12, are a billion chunks here: an audit's run made an array of every chunk
    # (and a resume another, and each block another), gigabytes before its first game.
    part = simulate(games, seed=3, players=PLAYERS, chunk_size=1_000, checkpoint=tmp_path,
                    time_limit=0.5)
    assert not part.complete and 0 < part.games < games and part.games % 1_000 == 0
    assert part.played == part.games
    parts = list((tmp_path / "chunks").glob("part-*.npz"))
    assert parts and not list(tmp_path.rglob("*.tmp"))
    more = simulate(games, seed=3, players=PLAYERS, chunk_size=1_000, checkpoint=tmp_path,
                    resume=True, time_limit=0.5)
    assert not more.complete and more.games > part.games and more.games % 1_000 == 0
    assert more.played == more.games - part.games


def test_the_chunks_to_do_are_every_chunk_not_done_in_order():
    from analyzer.sim.runs import ChunksToDo

    rng = np.random.default_rng(5)
    for n in (1, 7, 50):
        for _ in range(20):
            done = rng.choice(n, rng.integers(0, n + 1), replace=False)
            todo = ChunksToDo(n, done)
            want = np.setdiff1d(np.arange(n), done)
            assert len(todo) == len(want) and todo[:].tolist() == want.tolist()
            assert [todo[i] for i in range(len(todo))] == want.tolist()
            for lo, hi in ((0, 3), (2, 9), (len(want) - 1, len(want) + 5)):
                assert todo[lo:hi].tolist() == want[lo:hi].tolist()


def test_mismatched_or_missing_resume_is_refused(tmp_path):
    simulate(2_000, seed=4, players=PLAYERS, chunk_size=1_000, checkpoint=tmp_path)
    with pytest.raises(RunError, match="already holds a run"):
        simulate(2_000, seed=4, players=PLAYERS, chunk_size=1_000, checkpoint=tmp_path)
    with pytest.raises(RunError, match="seed 4 there, 5 now"):
        simulate(2_000, seed=5, players=PLAYERS, chunk_size=1_000, checkpoint=tmp_path,
                 resume=True)
    with pytest.raises(RunError, match="players"):
        simulate(2_000, seed=4, players=("ev+greedy", "ev+greedy"), chunk_size=1_000,
                 checkpoint=tmp_path, resume=True)
    with pytest.raises(RunError, match="games"):
        simulate(3_000, seed=4, players=PLAYERS, chunk_size=1_000, checkpoint=tmp_path,
                 resume=True)
    with pytest.raises(RunError, match="nothing to resume"):
        simulate(2_000, seed=4, checkpoint=tmp_path / "empty", resume=True)
    # a new checkpoint folder is made in a folder that exists, not at the end of a chain
    with pytest.raises(RunError, match=r"no folder .*missing"):
        simulate(2_000, seed=4, checkpoint=tmp_path / "missing" / "run")
    assert not (tmp_path / "missing").exists()
    # a checkpoint of another format (records laid out differently) is refused, not misread
    manifest = json.loads((tmp_path / "run.json").read_text())
    (tmp_path / "run.json").write_text(json.dumps({**manifest, "format": 1}))
    with pytest.raises(RunError, match="checkpoint format 1"):
        simulate(2_000, seed=4, players=PLAYERS, chunk_size=1_000, checkpoint=tmp_path,
                 resume=True)
    (tmp_path / "run.json").write_text(json.dumps(manifest))
    part = next((tmp_path / "chunks").glob("part-*.npz"))
    saved = part.read_bytes()
    part.write_bytes(saved[: len(saved) // 2])
    with pytest.raises(RunError, match="damaged part of the checkpoint .delete it"):
        simulate(2_000, seed=4, players=PLAYERS, chunk_size=1_000, checkpoint=tmp_path,
                 resume=True)
    part.write_bytes(saved)
    # resuming a finished run plays nothing and gives the same result
    again = simulate(2_000, seed=4, players=PLAYERS, chunk_size=1_000, checkpoint=tmp_path,
                     resume=True)
    assert again.played == 0 and again.games == 2_000
    # as the refusal says: a damaged part deleted, the resume plays its games again
    part.unlink()
    replayed = simulate(2_000, seed=4, players=PLAYERS, chunk_size=1_000,
                        checkpoint=tmp_path, resume=True)
    assert replayed.played > 0 and replayed.games == 2_000
    straight = simulate(2_000, seed=4, players=PLAYERS, chunk_size=1_000)
    assert replayed.summary.equals(straight.summary)


def run_cli(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(CRIB), *args], capture_output=True, text=True, timeout=1800,
                          **kwargs)


@pytest.mark.slow
def test_kill_9_part_way_and_resume_equals_an_uninterrupted_run(tmp_path):
    # A real process, killed with SIGKILL once some chunks are checkpointed, then resumed.
    args = ["simulate", "--games", "150000", "--seed", "77", "--players", *PLAYERS, "--quiet",
            "--json", "--record-games", "10"]
    killed, whole = tmp_path / "killed", tmp_path / "whole"
    proc = subprocess.Popen([str(CRIB), *args, "--out", str(killed), "--record",
                             str(tmp_path / "killed.jsonl")], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 1800  # a hang guard: the first chunk may wait on a compile
    while time.monotonic() < deadline and not list((killed / "chunks").glob("part-*.npz")):
        time.sleep(0.05)
    time.sleep(0.3)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL
    parts = list((killed / "chunks").glob("part-*.npz"))
    assert parts, "no chunk was checkpointed before the kill"
    assert not (killed / "summary.csv").exists()  # the run did not finish
    resumed = run_cli(*args, "--out", str(killed), "--record", str(tmp_path / "killed.jsonl"),
                      "--resume")
    assert resumed.returncode == 0, resumed.stderr
    straight = run_cli(*args, "--out", str(whole), "--record", str(tmp_path / "whole.jsonl"))
    assert straight.returncode == 0, straight.stderr
    a, b = json.loads(resumed.stdout), json.loads(straight.stdout)
    assert stable(a) == stable(b) and a["games"] == 150_000
    for name in ("summary.csv", "margins.csv", "crib_outcomes.csv"):
        assert (killed / name).read_text() == (whole / name).read_text(), name
    assert (tmp_path / "killed.jsonl").read_text() == (tmp_path / "whole.jsonl").read_text()
    assert not list(tmp_path.rglob("*.tmp"))


@pytest.mark.slow
def test_cli_resume_refusals_and_time_limit(tmp_path):
    out = tmp_path / "run"
    # 10**9 games: far too many to finish within the limit on any machine
    first = run_cli("simulate", "--games", str(10**9), "--seed", "3", "--out", str(out),
                    "--time-limit", "0.3", "--quiet", "--json")
    assert first.returncode == 0, first.stderr
    partial = json.loads(first.stdout)
    assert partial["complete"] is False and 0 < partial["games"] < 10**9
    assert "--resume" in first.stderr
    provenance = json.loads((out / "provenance.json").read_text())
    assert provenance["complete"] is False
    for args, message in (
        (["--seed", "4", "--resume"], "seed 3 there, 4 now"),
        (["--seed", "3"], "already holds a run"),
        (["--seed", "3", "--resume", "--players", "random+random", "ev+greedy"], "players"),
    ):
        bad = run_cli("simulate", "--games", str(10**9), "--out", str(out), "--quiet", *args)
        assert bad.returncode == 2 and "Traceback" not in bad.stderr
        assert len(bad.stderr.strip().splitlines()) == 1 and message in bad.stderr, bad.stderr
    more = run_cli("simulate", "--games", str(10**9), "--out", str(out), "--resume", "--quiet",
                   "--time-limit", "0.3", "--json")  # the seed comes from the run's folder
    assert more.returncode == 0, more.stderr
    resumed = json.loads(more.stdout)
    assert resumed["seed"] == 3 and resumed["complete"] is False
    assert resumed["games"] > partial["games"]
    for args, message in ((["--resume"], "--resume needs --out"),
                          (["--scheduler", "nowhere"], "not a Dask scheduler address"),
                          (["--time-limit", "0"], "--time-limit"),
                          (["--time-limit", "soon"], "--time-limit")):
        bad = run_cli("simulate", "--games", "10", "--quiet", *args)
        assert bad.returncode == 2 and message in bad.stderr, bad.stderr


def test_near_a_time_limit_each_block_is_one_chunk_a_thread(monkeypatch):
    # the blocks were about 1.5 s whatever the limit: a run of --time-limit 1 stopped at 2.4 s.
    # With no time left each block is one chunk a thread (the least), however fast the chunks
    # run; without a limit they grow (not asserted: that depends on the machine's speed)
    from analyzer.sim import runs

    plan = runs.RunPlan(64 * 16, 1, ("ev+greedy", "ev+greedy"), 16, "table", 0, "six-card",
                        "cut")
    monkeypatch.setattr(runs, "run_plan", lambda plan, chunks, *rest: list(chunks))
    todo = np.arange(plan.n_chunks)
    blocks = list(runs.local_backend(plan, todo, 2, None, None, None, time_left=lambda: 0.0))
    assert [len(b) for b in blocks] == [2] * 32
    assert np.array_equal(np.concatenate(blocks), todo)
