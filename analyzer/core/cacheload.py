"""Kernels loaded from numba's cache without first getting ready to compile.

Before numba loads a kernel from its on-disk cache it refreshes its target context
(``numba.core.caching.Cache.load_overload``): it imports the implementations of everything a
kernel could be compiled from (numba's typed lists, dicts and sets, linear algebra, random
generators, polynomials, jitclasses: some sixty modules) and registers them for typing and
lowering. A kernel loaded from the cache needs none of that: its code is compiled already, and
what that code calls as it runs (numba's runtime for arrays, its C helpers) is set up by the
runtime's initialisation, which is done here as numba's refresh begins, and by the target
context itself. So a process that only loads kernels, such as a ``crib`` command on a warm
cache, starts about a tenth of a second sooner. A kernel that is not in the cache is compiled as
before: numba's compiler refreshes the context itself first, and from then on each function
it inlines is read and copied once (:mod:`.inlining`).

The hook is one numba internal, ``Cache.load_overload``. With a numba that lacks it, kernels
load as numba loads them; :func:`active` says which. :mod:`.scoring` and :mod:`.rng`, which
every module with a kernel imports, call :func:`install`.
"""

from __future__ import annotations

from . import inlining

__all__ = ["active", "install"]

_installed: list[bool] = []


def active() -> bool:
    """Whether cached kernels load without numba's refresh in this process."""
    return bool(_installed) and _installed[0]


def install() -> None:
    """Load cached kernels this way from now on in this process (once; again does nothing)."""
    if _installed:
        return
    try:
        from numba.core import caching
        from numba.core.cpu import CPUContext
        from numba.core.runtime import rtsys

        load = caching.Cache.load_overload
        caching.Cache._load_overload  # noqa: B018 (the step after the refresh, kept as it is)
        caching.Cache._guard_against_spurious_io_errors  # noqa: B018
    except (ImportError, AttributeError):  # another numba: load as it does
        _installed.append(False)
        return

    def load_overload(self, sig, target_context):
        if not isinstance(target_context, CPUContext):
            return load(self, sig, target_context)
        rtsys.initialize(target_context)  # the runtime the loaded code calls
        with self._guard_against_spurious_io_errors():
            cres = self._load_overload(sig, target_context)
        if cres is None:  # numba compiles it next
            inlining.install()
        return cres

    caching.Cache.load_overload = load_overload
    _installed.append(True)
