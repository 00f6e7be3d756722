"""The package's ``njit`` (:mod:`analyzer.core.jit`): numba's, without the C-callable wrapper."""

from __future__ import annotations

import importlib
import pkgutil

import numba
import numpy as np
import pytest
from numba.core.caching import NullCache
from numba.core.registry import CPUDispatcher

from analyzer.core.jit import njit
from analyzer.core.numbacache import KERNEL_WINGS


def _twice(x, a):
    return 2 * x + a[0]


def _compiled(kernel) -> tuple[set[str], object]:
    """The names of the functions in the code of ``kernel``'s one version, and its descriptor."""
    assert kernel(20, np.ones(1)) == 41.0  # Python calls it either way
    (cres,) = kernel.overloads.values()
    return {f.name for f in cres.library._final_module.functions}, cres.fndesc


@pytest.mark.parametrize("decorate", [njit, njit(boundscheck=False)], ids=["bare", "options"])
def test_a_kernel_has_the_python_wrapper_and_not_the_c_callable_one(decorate):
    names, fndesc = _compiled(decorate(_twice))
    assert fndesc.llvm_cpython_wrapper_name in names
    assert fndesc.llvm_cfunc_wrapper_name not in names
    # numba's own njit adds both
    names, fndesc = _compiled(numba.njit(_twice))
    assert {fndesc.llvm_cpython_wrapper_name, fndesc.llvm_cfunc_wrapper_name} <= names


@pytest.mark.parametrize("wing", KERNEL_WINGS)
def test_every_kernel_of_the_package_is_decorated_by_its_njit_and_cached(wing):
    package = importlib.import_module(f"analyzer.{wing}")
    kernels = 0
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"analyzer.{wing}.{info.name}")
        for name, value in vars(module).items():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__:
                kernels += 1
                where = f"{module.__name__}.{name}"
                assert value.targetoptions.get("no_cfunc_wrapper") is True, \
                    f"{where}: decorate it with analyzer.core.jit.njit"
                assert not isinstance(value._cache, NullCache), f"{where}: cache=True"
    assert kernels > 0
