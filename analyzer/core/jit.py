"""The package's ``njit``: numba's, less the C-callable wrapper it adds to every kernel.

Numba compiles two wrappers around every kernel besides the kernel itself: one that Python
calls (the arguments unboxed from Python objects), and one with a plain C calling convention,
used only when a kernel is passed to another as a first-class function value. The package never
does that; its kernels call each other directly, and Python calls them through the first
wrapper. Without the second, each kernel's LLVM module is smaller: ``crib warmup --all``
compiled in 0.97 of the CPU time (about 2 s less, its kernels and their code otherwise the
same).

Every module with kernels decorates them with this ``njit`` (``@njit(cache=True)``); the
options are numba's, with ``no_cfunc_wrapper=True`` unless given. Numba's own ``njit`` is left
as it is for any other code in the process.
"""

from __future__ import annotations

import numba

__all__ = ["njit"]


def njit(*args, **options):
    """:func:`numba.njit` with ``no_cfunc_wrapper=True`` by default (module docstring): as a
    decorator, with or without options."""
    options.setdefault("no_cfunc_wrapper", True)
    return numba.njit(*args, **options)
