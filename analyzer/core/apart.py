"""Kernels compiled apart: compiled once, called by address, never copied into their callers.

Numba compiles each kernel into an LLVM module of its own and, when a kernel calls another, links
a copy of the callee's optimized module into the caller's and runs LLVM's optimizer and code
generator over the whole again (``numba.core.codegen.CPUCodeLibrary.finalize``). A big callee
is so optimized and compiled once more in every kernel above it: the engine's levels (the play,
the discards, ``best``'s search and score-aware discard) were most of a first run's compile
time, each level optimizing everything below it again, in each of the engine's versions.

:func:`compiled_apart` marks a kernel whose callers call its compiled code instead: a caller's
module declares the callee's symbol and LLVM's JIT resolves it to the code the callee's own
compile made. Nothing else changes: the callee is compiled (or loaded from the cache) when a
caller is typed, as before, one version per signature. A caller loaded from numba's cache first
loads the kernels compiled apart that it calls (a ``reload_init`` step in its cache entry, the
hook numba itself uses for its parallel backend), so that their symbols are there when its
object code is linked. LLVM would not inline a big callee anyway; leave a small one unmarked,
so that it may.

The hooks are two numba internals: ``BaseContext.insert_user_function``, where a compiled
kernel is registered for its callers, and ``CompileResult._rebuild``, where a cached one is
loaded. With a numba that lacks them, kernels are linked as numba does by default (the same
results, a slower first run); :func:`active` says which.
"""

from __future__ import annotations

import importlib

__all__ = ["active", "compiled_apart"]

#: ``(module, qualified name)`` of the Python function of each kernel compiled apart.
_APART: set[tuple[str, str]] = set()
_installed: list[bool] = []


def compiled_apart(dispatcher):
    """Mark ``dispatcher`` (an ``@njit`` kernel) as compiled apart: its callers call its
    compiled code rather than link a copy of it (module docstring). A decorator above ``@njit``.

    >>> from numba import njit
    >>> @compiled_apart
    ... @njit
    ... def _twice(x):
    ...     return 2 * x
    >>> _twice(21)
    42
    """
    fn = dispatcher.py_func
    _APART.add((fn.__module__, fn.__qualname__))
    return dispatcher


def active() -> bool:
    """Whether kernels compiled apart are called by address with this numba (else they are
    linked as numba does by default)."""
    return bool(_installed) and _installed[0]


class _Load:
    """A cache entry's ``reload_init`` step: compile, or load from the cache, one version of a
    kernel compiled apart, before the entry's object code (which calls it) is linked.

    ``symbol`` is the callee's name in the caller's code. Numba puts a counter of the process in
    a kernel's name, so the callee compiled again in another process (its cache entry replaced)
    has another name: the JIT is then told that ``symbol`` is the callee's new code (the same
    kernel and argument types, so the same calling convention)."""

    __slots__ = ("module", "qualname", "argtypes", "symbol")

    def __init__(self, module: str, qualname: str, argtypes: tuple, symbol: str):
        self.module, self.qualname, self.argtypes, self.symbol = module, qualname, argtypes, symbol

    def _key(self):
        return (self.module, self.qualname, self.argtypes, self.symbol)

    def __eq__(self, other):
        return isinstance(other, _Load) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __reduce__(self):
        return (_Load, self._key())

    def __call__(self):
        obj = importlib.import_module(self.module)
        for part in self.qualname.split("."):
            obj = getattr(obj, part)
        obj.compile(self.argtypes)
        engine = obj.targetctx.codegen()._engine
        if not engine.is_symbol_defined(self.symbol):
            _alias(engine, self.symbol, obj.overloads[self.argtypes].fndesc.llvm_func_name)

    def __repr__(self):
        return f"_Load({self.module}.{self.qualname})"


#: The modules that hold the aliases' declarations (the JIT maps them by name; kept alive).
_ALIASES: list = []


def _alias(engine, symbol: str, target: str) -> None:
    """Resolve ``symbol`` in the JIT to the address of the defined function ``target``."""
    from llvmlite import binding as ll

    address = engine.get_function_address(target)
    if not address:
        raise RuntimeError(f"kernel compiled apart {target} is not in the JIT")
    module = ll.parse_assembly(f'declare void @"{symbol}"()')
    engine.add_global_mapping(module.get_function(symbol), address)
    _ALIASES.append(module)


def _install() -> None:
    if _installed:
        return
    try:
        from numba.core import base, compiler, imputils

        insert = base.BaseContext.insert_user_function
        rebuild = compiler.CompileResult._rebuild.__func__
        user_function = imputils.user_function
    except (ImportError, AttributeError):  # another numba: link as numba does
        _installed.append(False)
        return

    def insert_user_function(self, func, fndesc, libs=()):
        if (fndesc.modname, fndesc.qualname) not in _APART:
            return insert(self, func, fndesc, libs)
        for library in libs:  # compiled and in the JIT: its symbols resolve
            library._ensure_finalized()
        load = _Load(fndesc.modname, fndesc.qualname, tuple(fndesc.argtypes),
                     fndesc.llvm_func_name)
        call = user_function(fndesc, ())

        def imp(context, builder, sig, args):
            # the caller (and its cache entry, and every kernel that links the caller) loads
            # the callee first
            context.active_code_library._reload_init.add(load)
            return call(context, builder, sig, args)

        imp.signature = call.signature
        imp.libs = ()
        self._defns[func].append(imp, imp.signature)

    def _rebuild(cls, target_context, libdata, fndesc, env, signature, objectmode, lifted,
                 typeann, reload_init, referenced_envs):
        cres = rebuild(cls, target_context, libdata, fndesc, env, signature, objectmode, lifted,
                       typeann, reload_init, referenced_envs)
        # numba keeps the steps on the compile result only: a kernel compiled later that links
        # this one's code needs them too
        if reload_init:
            cres.library._reload_init.update(reload_init)
        return cres

    base.BaseContext.insert_user_function = insert_user_function
    compiler.CompileResult._rebuild = classmethod(_rebuild)
    _installed.append(True)


_install()
