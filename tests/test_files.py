"""Output files as a set: all of them or none, whatever stops the writing; and the paths an
output cannot take refused before any work (analyzer.core.files)."""

from __future__ import annotations

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
    (tmp_path / "t" / "crib_values_rank.json").mkdir(parents=True)
    done = crib("tables", "crib", "--out", "t", "--deals", "100", "--max-iterations", "1")
    assert done.returncode == 2
    assert "crib_values_rank.json in it is a folder" in done.stderr
    for args in (["simulate", "--games", "5", "--out", ""], ["tables", "keep", "--out", "/"]):
        done = crib(*args)
        assert done.returncode == 2 and len(done.stderr.splitlines()) == 1, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run", "t"]
