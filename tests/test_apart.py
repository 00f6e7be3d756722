"""Kernels compiled apart (analyzer.core.apart): called by address, not copied into callers,
and a caller loaded from numba's cache finds its callee even when the callee was compiled again
in another process (numba names a kernel's code with a counter of the process)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from analyzer.core import apart

ROOT = Path(__file__).resolve().parents[1]

CALLEE = """
from numba import njit
from analyzer.core.apart import compiled_apart

@compiled_apart
@njit(cache=True)
def big(a, k):
    s = 0
    for i in range(a.shape[0]):
        s += a[i] * k
    if s < 0:
        raise ValueError("negative")
    return s
"""
MIDDLE = """
from numba import njit
from toy_callee import big

@njit(cache=True)
def mid(a):
    return big(a, 3) + 1
"""
TOP = """
from numba import njit
from toy_middle import mid

@njit(cache=True)
def top(a):
    return mid(a) * 2
"""
RUN = """
import sys
import numpy as np
import toy_callee, toy_middle, toy_top

what = sys.argv[1]
if what == "middle":
    print(toy_middle.mid(np.arange(5)))
else:
    print(toy_top.top(np.arange(5)))
    try:
        toy_top.top(-np.arange(5))
    except ValueError as e:
        print(e)
    lib = toy_top.top.overloads[toy_top.top.signatures[0]].library
    print(sum("toy_callee" in f.name for f in lib._final_module.functions
              if not f.is_declaration))
print(len(toy_callee.big.signatures), len(toy_middle.mid.signatures))
"""


def test_the_hooks_are_installed_on_this_numba():
    assert apart.active()


@pytest.mark.slow
def test_callers_call_the_callee_and_find_it_from_the_cache_even_compiled_again(tmp_path):
    for name, text in (("toy_callee", CALLEE), ("toy_middle", MIDDLE), ("toy_top", TOP),
                       ("run", RUN)):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
    cache = tmp_path / "cache"
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache),
               PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))

    def run(what):
        out = subprocess.run([sys.executable, "run.py", what], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=1800)
        assert out.returncode == 0, out.stderr
        return out.stdout.split("\n")[:-1]

    assert run("middle") == ["31", "1 1"]  # the callee and the middle compiled and cached
    # the top compiled, the middle from the cache (the callee with it): no copy of the callee
    assert run("top") == ["62", "negative", "0", "1 1"]
    # the top from the cache: the middle is in its code, the callee loaded first
    assert run("top") == ["62", "negative", "0", "1 0"]
    # the callee's cache entry gone: compiled again (another name), the top still finds it
    for path in cache.rglob("toy_callee.*"):
        path.unlink()
    assert run("top") == ["62", "negative", "0", "1 0"]
