"""The package works installed from a wheel, not only as the editable checkout.

Builds the wheel from the repository, installs it with pip (``--no-deps``) into a new virtual
environment that borrows this environment's site-packages (numpy, numba, pandas...) through a
``.pth`` file, and runs its ``crib`` from a folder outside the repository. A ``.pth`` line only
adds a folder to ``sys.path``; the ``.pth`` files inside that folder (such as this environment's
editable install of analyzer) are not run, and the new environment's own site-packages comes
first, so the wheel is what is imported; the test checks ``analyzer.__file__`` to be sure.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HAND = ["5H", "5S", "6D", "JC", "QS", "KH"]
BEST_AS_DEALER = "best: keep 5S JC QS KH, throw 5H 6D (net 18.674)"


def _run(args, cwd, env=None, timeout=1800):  # a hang guard only
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                            text=True, timeout=timeout)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


def _files(folder: Path) -> dict[str, tuple[int, int]]:
    """Every file under ``folder`` but byte code: relative name -> (size, mtime)."""
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".nbi", ".nbc")}


@pytest.mark.slow
def test_wheel_installs_and_runs_outside_the_repository(tmp_path):
    wheels, venv, elsewhere = tmp_path / "wheels", tmp_path / "venv", tmp_path / "elsewhere"
    elsewhere.mkdir()
    _run([sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--quiet", "-w", wheels],
         cwd=ROOT)
    (wheel,) = wheels.glob("analyzer-*.whl")

    # The venv gets no pip of its own (ensurepip took most of a 3-second step): this
    # environment's pip installs into it (``pip --python``).
    _run([sys.executable, "-m", "venv", "--without-pip", venv], cwd=tmp_path)
    python = venv / "bin" / "python"
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     cwd=elsewhere).stdout.strip())
    (site / "_parent_env.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    _run([sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index",
          "--quiet", wheel], cwd=elsewhere, env=env)

    where = _run([python, "-c", "import analyzer, analyzer.keeping.crib, sys; "
                  "print(analyzer.__file__); print(analyzer.keeping.crib.shipped_folder()); "
                  "print(analyzer.__version__)"], cwd=elsewhere, env=env).stdout.split("\n")
    package = Path(where[0]).parent
    assert package == site / "analyzer", where  # the wheel, not the editable checkout
    assert Path(where[1]) == package / "data"
    assert ROOT not in package.parents and ROOT not in Path(where[1]).parents
    assert where[2] != "0+unknown"
    before = _files(package)
    assert {"data/crib_values.csv", "data/crib_values_rank.csv",
            "data/crib_values_uniform.csv", "data/crib_values.json",
            "data/pegging_values.csv", "data/pegging_values.json", "data/win_odds.csv",
            "data/win_odds.json", "data/win_odds_five-card.csv", "data/win_odds_four-player.csv",
            "data/win_odds_three-player.npz", "data/win_odds_three-player.json",
            "web/static/count.html", "web/static/keep.html",
            "web/static/trainer.html", "web/static/play.html", "web/static/style.css",
            "web/static/common.js", "web/static/count.js", "web/static/keep.js",
            "web/static/trainer.js"} <= set(before)

    # the pages of crib serve are read from the installed package (the web extra is borrowed)
    pages = _run([python, "-c", "from analyzer.web.app import _static_files; "
                  "print(' '.join(sorted(_static_files())))"], cwd=elsewhere, env=env).stdout
    assert {"count.html", "keep.html", "trainer.html", "common.js"} <= set(pages.split()), pages

    crib = venv / "bin" / "crib"
    out = _run([crib, "keep", *HAND, "--dealer"], cwd=elsewhere, env=env).stdout
    assert "crib: table" in out and BEST_AS_DEALER in out.splitlines(), out
    out = _run([crib, "keep", *HAND, "--pone", "--crib", "uniform", "--top", "1"],
               cwd=elsewhere, env=env).stdout
    assert "crib: uniform" in out and "best: keep" in out, out
    _run([python, "-c", "from analyzer import crib_values, load_rank_table; "
          "crib_values('table'); crib_values('uniform'); load_rank_table()"],
         cwd=elsewhere, env=env)
    out = _run([crib, "odds", "96", "110", "--dealer"], cwd=elsewhere, env=env).stdout
    assert out.startswith("P(win) = 0.18"), out
    out = _run([crib, "odds", "0", "0", "0", "--variant", "three-player"], cwd=elsewhere,
               env=env).stdout
    assert "seat 0 (deals), 0: P(win) = 0.40" in out, out
    refused = subprocess.run([crib, "tables", "odds", "--out", package / "data" / "win_odds.csv"],
                             cwd=elsewhere, env=env, capture_output=True, text=True, timeout=1800)
    assert refused.returncode == 2 and "--force" in refused.stderr, refused.stderr
    refused = subprocess.run([crib, "tables", "crib", "--deals", "100", "--out", package / "data"],
                             cwd=elsewhere, env=env, capture_output=True, text=True, timeout=1800)
    assert refused.returncode == 2 and "--force" in refused.stderr, refused.stderr
    assert _files(package) == before  # loading tables (and the refusal) wrote nothing there
    assert list(elsewhere.iterdir()) == []
