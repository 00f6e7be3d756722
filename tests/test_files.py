"""Output files as a set: all of them or none, whatever stops the writing; and the paths an
output cannot take refused before any work (analyzer.core.files)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from analyzer.core import files
from analyzer.core.files import OutputError, atomic_write_all, check_writable

CRIB = Path(sys.executable).parent / "crib"


def _writer(text):
    return lambda tmp: tmp.write_text(text)


def test_a_set_is_written_whole_or_not_at_all(tmp_path):
    names = [tmp_path / n for n in ("a.csv", "b.csv", "c.json")]
    atomic_write_all([(p, _writer(p.name)) for p in names])
    assert [p.read_text() for p in names] == ["a.csv", "b.csv", "c.json"]

    def broken(tmp):
        raise OSError("disk full")

    again = [tmp_path / n for n in ("d.csv", "e.csv")]
    with pytest.raises(OSError, match="disk full"):
        atomic_write_all([(again[0], _writer("d")), (again[1], broken)])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.csv", "b.csv", "c.json"]


def test_ctrl_c_at_the_renames_comes_after_the_last(tmp_path, monkeypatch):
    replace = os.replace
    calls = []

    def replace_then_interrupt(src, dst):
        replace(src, dst)
        calls.append(dst)
        if len(calls) == 1:  # Ctrl-C just after the first file is in place
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(files.os, "replace", replace_then_interrupt)
    names = [tmp_path / n for n in ("summary.csv", "margins.csv", "provenance.json")]
    with pytest.raises(KeyboardInterrupt):
        atomic_write_all([(p, _writer(p.name)) for p in names])
    assert calls == names and all(p.read_text() == p.name for p in names)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in names)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # put back


@pytest.mark.parametrize(("path", "folder", "message"), [
    ("", False, "an empty path names no file"),
    ("", True, "an empty path names no folder"),
    ("/", False, "names a folder, not a file"),
    (".", False, "names a folder, not a file"),
])
def test_paths_that_name_nothing_to_write(path, folder, message):
    with pytest.raises(OutputError, match=f"^{message}$"):
        check_writable(path, folder=folder)


def test_a_device_a_named_pipe_or_a_socket_is_never_written_over(tmp_path):
    # Found in an audit, as root: crib play --save /dev/null said it saved the game there, and
    # /dev/null became a file (the rename of the written file put it in the device's place).
    import socket
    import stat

    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    with pytest.raises(OutputError, match=r"^is a device, not a file: nothing is written over "):
        check_writable("/dev/null")  # only checked, never written to here
    pipe, sock = tmp_path / "pipe.jsonl", tmp_path / "sock.csv"
    os.mkfifo(pipe)
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(sock))
        for path, kind in ((pipe, "a named pipe"), (sock, "a socket")):
            with pytest.raises(OutputError, match=f"^is {kind}, not a file"):
                check_writable(path)
            with pytest.raises(OSError) as caught:  # the writer's own guard, checked or not
                atomic_write_all([(tmp_path / "ok.txt", lambda t: t.write_text("x")),
                                  (path, lambda t: t.write_text("x"))])
            assert caught.value.filename == str(path) and kind in caught.value.strerror
        assert stat.S_ISSOCK(os.stat(sock).st_mode)
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.jsonl", "sock.csv"]  # none
    done = subprocess.run([str(CRIB), "play", "--seed", "3", "--no-history", "--save", str(pipe)],
                          input="quit\ny\n", capture_output=True, text=True, cwd=tmp_path,
                          timeout=1800)  # a hang guard only
    assert done.returncode == 2 and done.stderr == (
        f"crib play: --save {pipe}: is a named pipe, not a file: nothing is written over it "
        "(give a file's path)\n")
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)


def test_a_symbolic_link_is_followed_and_kept(tmp_path):
    (tmp_path / "out").mkdir()
    link = tmp_path / "link.csv"
    link.symlink_to(tmp_path / "out" / "target.csv")  # dangling: the target is made
    check_writable(link)
    files.atomic_write_text(link, "first\n")
    assert link.is_symlink() and (tmp_path / "out" / "target.csv").read_text() == "first\n"
    files.atomic_write_text(link, "second\n")
    assert link.is_symlink() and link.read_text() == "second\n"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["target.csv"]
    gone = tmp_path / "gone.csv"
    gone.symlink_to(tmp_path / "no" / "target.csv")
    with pytest.raises(OutputError, match=f"^no folder {tmp_path / 'no'}$"):
        check_writable(gone)
    # a loop of links is refused, not replaced by a file (a review's)
    (tmp_path / "la").symlink_to(tmp_path / "lb")
    (tmp_path / "lb").symlink_to(tmp_path / "la")
    for refuse in (lambda: check_writable(tmp_path / "la"),
                   lambda: files.atomic_write_text(tmp_path / "la", "x")):
        with pytest.raises((OutputError, OSError), match="is a loop of symbolic links"):
            refuse()
    assert (tmp_path / "la").is_symlink()
    # a link to what a link in /proc leads to (the pipe of this test's stdout): its kind, as
    # stat reads it through the links (a review's: realpath cannot follow 'pipe:[...]')
    (tmp_path / "out1").symlink_to("/proc/self/fd/1")
    done = subprocess.run([str(CRIB), "play", "--seed", "1", "--no-history", "--save",
                           str(tmp_path / "out1")], input="quit\ny\n", capture_output=True,
                          text=True, timeout=1800)  # a hang guard only
    assert done.returncode == 2 and "is a named pipe, not a file" in done.stderr, done.stderr
    assert (tmp_path / "out1").is_symlink()
    # the provenance goes beside the file written, the link's target, and names it
    (tmp_path / "games").mkdir()
    (tmp_path / "g.jsonl").symlink_to(tmp_path / "games" / "run.jsonl")
    for _ in range(2):  # again: the target is an output with its provenance, replaced
        done = subprocess.run([str(CRIB), "simulate", "--games", "3", "--seed", "1", "--quiet",
                               "--record", "g.jsonl"], capture_output=True, text=True,
                              cwd=tmp_path, timeout=1800)  # a hang guard only
        assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "games").iterdir()) == ["run.json", "run.jsonl"]
    assert json.loads((tmp_path / "games" / "run.json").read_text())["file"] == "run.jsonl"
    assert not (tmp_path / "g.json").exists() and (tmp_path / "g.jsonl").is_symlink()


def test_a_folder_where_a_run_writes_a_file_is_refused_before_the_run(tmp_path):
    def crib(*args):
        return subprocess.run([str(CRIB), *args], capture_output=True, text=True, cwd=tmp_path,
                              timeout=1800)  # a hang guard only

    (tmp_path / "run" / "margins.csv").mkdir(parents=True)
    done = crib("simulate", "--games", "10", "--seed", "1", "--out", "run", "--quiet")
    assert done.returncode == 2 and done.stderr == (
        "crib simulate: --out run: margins.csv in it is a folder, not a file: the command "
        "writes that file\n")
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["margins.csv"]
    done = crib("simulate", "--games", "10", "--seed", "1", "--out", "run2", "--record",
                "run2/run.json", "--quiet")
    assert done.returncode == 2 and "is one of the run's own files" in done.stderr
    assert not (tmp_path / "run2").exists()
    # the records, or their provenance, where the run folder goes: a traceback after the run,
    # the records left without their provenance
    for record, out, said in (("y.jsonl", "y.jsonl", "is the run folder --out y.jsonl"),
                              ("x.jsonl", "x.json", "its provenance x.json would be the run "
                                                    "folder --out x.json")):
        done = crib("simulate", "--games", "10", "--seed", "1", "--out", out, "--record",
                    record, "--quiet")
        assert done.returncode == 2 and done.stderr == (f"crib simulate: --record {record}: "
                                                        f"{said}: name them apart\n")
    (tmp_path / "t" / "crib_values_rank.json").mkdir(parents=True)
    done = crib("tables", "crib", "--out", "t", "--deals", "100", "--max-iterations", "1")
    assert done.returncode == 2
    assert "crib_values_rank.json in it is a folder" in done.stderr
    for args in (["simulate", "--games", "5", "--out", ""], ["tables", "keep", "--out", "/"]):
        done = crib(*args)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run", "t"]



def _head() -> str | None:
    done = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                          cwd=Path(__file__).parent, check=False)
    return done.stdout.strip() or None


def _crib_in(folder):
    def crib(*args):
        return subprocess.run([str(CRIB), *args], capture_output=True, text=True, cwd=folder,
                              env=dict(os.environ, MPLBACKEND="Agg"),
                              timeout=1800)  # a hang guard only
    return crib


@pytest.mark.slow
def test_every_file_a_command_writes_has_its_provenance_beside_it(tmp_path):
    # DESIGN's data products: every file written has a JSON sidecar with its provenance
    # (package version, command, seed, games, policies, date): the game records, the figures
    # and the discard tables too, not only the tables and the run folders.
    import json

    crib = _crib_in(tmp_path)
    done = crib("simulate", "--games", "12", "--seed", "3", "--variant", "three-player",
                "--record", "games.jsonl", "--record-games", "5", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "recorded 5 games in games.jsonl (its provenance in games.json)" in done.stdout
    done = crib("simulate", "--games", "4", "--seed", "3", "--record", "g.json", "--quiet")
    assert done.returncode == 0, done.stderr  # a JSON file's provenance is not written over it
    done = crib("plot", "games", "--games", "20", "--seed", "5", "--out", "figure.svg",
                "--quiet")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("wrote figure.svg (") and "and figure.json (its provenance)" \
        in done.stdout
    done = crib("tables", "compare", "--reference", str(Path(__file__).parent / "data"
                                                         / "schell_crib_values.csv"),
                "--plot", "compare.png", "--top", "1")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "compare.json", "compare.png", "figure.json", "figure.svg", "g.json",
        "g.provenance.json", "games.json", "games.jsonl"]
    meta = {name: json.loads((tmp_path / name).read_text())
            for name in ("games.json", "g.provenance.json", "figure.json", "compare.json")}
    for name, written in (("games.json", "games.jsonl"), ("g.provenance.json", "g.json"),
                        ("figure.json", "figure.svg"), ("compare.json", "compare.png")):
        assert meta[name]["file"] == written
        assert meta[name]["git_commit"] == _head()
        assert {"package_version", "command", "date"} <= set(meta[name])
    assert meta["games.json"]["command"] == ("crib simulate --games 12 --seed 3 --variant "
                                             "three-player --record games.jsonl --record-games "
                                             "5 --quiet")
    assert (meta["games.json"]["seed"], meta["games.json"]["games"],
            meta["games.json"]["games_recorded"], meta["games.json"]["variant"]) == (
        3, 12, 5, "three-player")
    assert meta["games.json"]["players"] == ["ev+lookahead"] * 3
    assert len((tmp_path / "games.jsonl").read_text().splitlines()) == 5
    assert (meta["figure.json"]["seed"], meta["figure.json"]["games"]) == (5, 20)
    assert meta["compare.json"]["reference"].endswith("schell_crib_values.csv")


@pytest.mark.slow
def test_a_provenance_file_that_is_not_the_outputs_own_is_refused(tmp_path):
    # x.svg's provenance goes to x.json: a file of yours there, or another output's provenance,
    # is refused before any work, on one line, and nothing is written. The output's own
    # provenance from an earlier run is written over, as the output is.
    crib = _crib_in(tmp_path)

    def refused(*cases) -> None:
        """Each ``(args, message)``: one line, status 2, no traceback."""
        for args, message in cases:
            done = crib(*args)
            assert done.returncode == 2 and done.stderr.splitlines()[-1] == message, done.stderr
            assert "Traceback" not in done.stderr

    (tmp_path / "mine.json").write_text('{"my": "notes"}\n')
    (tmp_path / "folder.json").mkdir()
    refused(
            (("plot", "census", "--out", "mine.png"),
             "crib plot census: --out mine.png: its provenance goes to mine.json, which holds "
             "something else: move it or choose another name"),
            (("plot", "census", "--out", "folder.png"),
             "crib plot census: --out folder.png: its provenance file folder.json: is a folder, "
             "not a file"),
            (("simulate", "--games", "5", "--record", "mine.jsonl", "--quiet"),
             "crib simulate: --record mine.jsonl: its provenance goes to mine.json, which holds "
             "something else: move it or choose another name"),
            (("simulate", "--games", "5", "--out", "run", "--record", "run/run.jsonl"),
             "crib simulate: --record run/run.jsonl: its provenance goes to run/run.json, which "
             "the command also writes: choose another name"),
            (("tables", "keep", "--out", "k.parquet", "--ranks", "k.csv"),
             "crib tables keep: --ranks k.csv: its provenance goes to k.json, which the command "
             "also writes: choose another name"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.json", "mine.json"]
    assert (tmp_path / "mine.json").read_text() == '{"my": "notes"}\n'
    for _ in range(2):  # the second time over its own provenance
        done = crib("plot", "census", "--out", "census.png", "--dpi", "20")
        assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "census.json", "census.png", "folder.json", "mine.json"]
    done = crib("plot", "odds", "--out", "census.svg")  # census.json is census.png's
    assert done.returncode == 2
    assert "census.json, which holds the provenance of census.png" in done.stderr
    # Found in an audit: the output itself, a file of yours with no provenance, was written
    # over without a word (the provenance beside it was refused). It is refused too; an empty
    # file (made ahead, mktemp's) is taken.
    (tmp_path / "notes.txt").write_text("my precious notes\n")
    (tmp_path / "data.csv").write_text("important,data\n")
    refused(
            (("simulate", "--games", "4", "--record", "notes.txt", "--quiet"),
             "crib simulate: --record notes.txt: is there already, and is no command's output "
             "(no provenance notes.json beside it): move it or choose another name"),
            (("tables", "odds", "--out", "data.csv", "--deals", "1024", "--quiet"),
             "crib tables odds: --out data.csv: is there already, and is no command's output "
             "(no provenance data.json beside it): move it or choose another name"))
    assert (tmp_path / "notes.txt").read_text() == "my precious notes\n"
    assert (tmp_path / "data.csv").read_text() == "important,data\n"
    # An audit's run folders: a folder of yours was written into, its summary.csv (or the
    # crib tables' crib_values.csv) replaced without a word. A file of yours there is refused.
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "summary.csv").write_text("my summary\n")
    (tmp_path / "tables").mkdir()
    (tmp_path / "tables" / "crib_values.csv").write_text("my values\n")
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "provenance.json").write_text('{"my": "notes"}\n')
    refused(
            (("simulate", "--games", "4", "--out", "mine", "--quiet"),
             "crib simulate: --out mine: mine/summary.csv is there already, and is no run's "
             "output (no provenance mine/provenance.json naming it): move it or choose another "
             "folder"),
            (("simulate", "--games", "4", "--out", "notes", "--quiet"),
             "crib simulate: --out notes: notes/provenance.json is there already, and is no "
             "run's provenance: move it or choose another folder"),
            (("tables", "crib", "--out", "tables", "--deals", "1000", "--quiet"),
             "crib tables crib: --out tables/crib_values.csv: is there already, and is no "
             "command's output (no provenance tables/crib_values.json beside it): move it or "
             "choose another name"))
    assert (tmp_path / "mine" / "summary.csv").read_text() == "my summary\n"
    assert (tmp_path / "tables" / "crib_values.csv").read_text() == "my values\n"
    assert sorted(p.name for p in (tmp_path / "mine").iterdir()) == ["summary.csv"]
    (tmp_path / "empty.jsonl").touch()
    for _ in range(2):  # into an empty file, then over its own earlier output
        done = crib("simulate", "--games", "4", "--record", "empty.jsonl", "--quiet")
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "empty.json").is_file()


def _no_file_over(limit: int):
    """For ``preexec_fn``: writes past ``limit`` bytes fail (EFBIG, as a full disk fails them
    with ENOSPC), the signal that would kill the process at the first such write ignored. (Run
    with ``PYTHONDONTWRITEBYTECODE``: Python writes its byte code unbuffered, and a write cut
    short there is no error, so it would leave a truncated .pyc for the next run.)"""
    import resource

    def limit_writes():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return limit_writes


_BYTECODE_OFF = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")


def test_a_write_that_fails_part_way_is_one_line_and_leaves_nothing(tmp_path):
    # Found in an audit on a full disk: the records, the tables and the checkpoint's parts
    # ended in a traceback after the work. Each is one line naming the file, status 2.
    record = tmp_path / "games.jsonl"
    done = subprocess.run(
        [str(CRIB), "simulate", "--games", "200", "--seed", "1", "--record", str(record),
         "--record-games", "200", "--quiet"], capture_output=True, text=True, cwd=tmp_path,
        preexec_fn=_no_file_over(20_000), env=_BYTECODE_OFF, timeout=1800)  # a hang guard only
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [f"crib simulate: {record}: File too large"]
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    run = tmp_path / "run"
    done = subprocess.run(
        [str(CRIB), "simulate", "--games", "3000", "--seed", "1", "--out", str(run), "--quiet"],
        capture_output=True, text=True, cwd=tmp_path, preexec_fn=_no_file_over(3_000),
        env=_BYTECODE_OFF, timeout=1800)  # the checkpoint's part, about 4 kB, fails
    assert done.returncode == 2, done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"crib simulate: {run}") and line.endswith(": File too large")
    assert not list(tmp_path.rglob("*.tmp"))


def test_standard_output_that_cannot_be_written_is_one_line(tmp_path):
    with open("/dev/full", "w") as full:
        done = subprocess.run([str(CRIB), "count", "5H", "5C", "5S", "JD", "--starter", "5D"],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=1800)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["crib count: No space left on device"]
