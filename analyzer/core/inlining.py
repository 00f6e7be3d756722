"""numba's inlining without its repeated work: each function read once, its IR copied once.

A kernel compiled with a call to a function marked ``inline="always"`` has that function's
numba IR copied in at the call site. The deal's steps, the scorer's helpers and the players'
choices are inlined at hundreds of sites across the kernels a command compiles, and numba
repeats two pieces of work at each:

- **It reads the function again**: its bytecode, then the whole untyped pipeline (and so the
  functions it inlines in turn, again). Here the IR the first reading gives is kept, once for
  each function and the options it was read with, and each call site is handed the kept IR.
  numba's inliner copies the IR it is handed before changing it, so the kept one never changes.
  One side effect of reading is kept too: it sets the caller's ``enable_ssa`` flag to off,
  which decides whether the caller's own pipeline goes on in SSA form.
- **It copies the IR block by block, each with its own copy of the function's scope** (every
  local variable), so the copy grows with blocks times variables: for the players' choice, most
  of a second at each site. Here the blocks of one inlining are copied with one memo, as one
  object, so the scope they share is copied once and stays shared, as in the IR copied.

The kernels compiled are the same code (only the names of inlined variables differ): the games
are the same bit for bit, compiled either way from an empty cache.

The IR kept holds the values of the module globals the function read when it was first read,
as the kernel compiled first would have. A process that changes such a global and then
compiles a new kernel inlining that function gets the value read first; kernels compiled
already never see such a change anyway.

The hooks are two numba internals, ``InlineWorker.inline_function`` and the ``copy`` module
as :mod:`numba.core.inline_closurecall` sees it, installed by :mod:`.cacheload` the first time
a kernel is not found in the cache (a process that only loads kernels never imports numba's
inliner). With a numba that lacks them, or whose inliner takes other arguments, inlining is as
numba does it; :func:`active` says which.
"""

from __future__ import annotations

import copy
import threading

__all__ = ["active", "install"]

_state: list[bool] = []  # once installed: whether numba took the hooks
_current = threading.local()  # .memo: the deepcopy memo of the inlining under way, or None


def active() -> bool:
    """Whether numba's inlining reads and copies each function once in this process."""
    return _state == [True]


def install() -> None:
    """Inline that way from now on in this process (once; again does nothing)."""
    if not _state:
        _state.append(_hook())


def _hook() -> bool:
    """Put the hooks in numba's inliner; False, and nothing changed, when this numba has not
    the internals they replace."""
    try:
        from numba.core import inline_closurecall
        from numba.core.inline_closurecall import InlineWorker

        read = InlineWorker.run_untyped_passes
        InlineWorker.inline_ir  # noqa: B018 (called as it is)
    except (ImportError, AttributeError):
        return False
    if inline_closurecall.copy is not copy or _parameters(InlineWorker.inline_function) != \
            ["self", "caller_ir", "block", "i", "function", "arg_typs"] or \
            _parameters(read)[:3] != ["self", "func", "enable_ssa"]:  # another inliner
        return False
    kept: dict = {}

    def inline_function(self, caller_ir, block, i, function, arg_typs=None):
        key = _key(self, function)
        callee_ir = kept.get(key) if key is not None else None
        if callee_ir is None:
            callee_ir = read(self, function)
            if key is not None:
                kept[key] = callee_ir
        else:
            self.flags.enable_ssa = False  # as reading it does (run_untyped_passes's default)
        outer = getattr(_current, "memo", None)
        _current.memo = {}
        try:
            return self.inline_ir(caller_ir, block, i, callee_ir,
                                  function.__code__.co_freevars, arg_typs=arg_typs)
        finally:
            _current.memo = outer

    InlineWorker.inline_function = inline_function
    inline_closurecall.copy = _CopyOneMemo()
    return True


def _parameters(function) -> list[str]:
    import inspect  # only when compiling

    return list(inspect.signature(function).parameters)


class _CopyOneMemo:
    """The ``copy`` module as numba's inliner sees it: within :func:`install`'s
    ``inline_function``, ``deepcopy`` without a memo uses the inlining's one memo."""

    def __getattr__(self, name):
        return getattr(copy, name)

    @staticmethod
    def deepcopy(x, memo=None):
        if memo is None:
            memo = getattr(_current, "memo", None)
        return copy.deepcopy(x, memo)


# The options of the kernel being compiled that reading a function's IR does not read:
# ``enable_ssa`` (reading sets it) and whether that kernel is itself inlined where it is called.
_NOT_READ = ("enable_ssa", "inline")


def _key(worker, function):
    """What the IR read depends on: the function, the options of the kernel being compiled
    (but :data:`_NOT_READ`), its typed locals, the kinds of its targets and compiler; None when
    they cannot be compared (then the IR is read as numba reads it)."""
    try:
        flags = tuple(sorted((k, repr(v)) for k, v in worker.flags.values().items()
                             if k not in _NOT_READ))
        key = (function, flags, tuple(sorted(worker.locals.items())), type(worker.typingctx),
               type(worker.targetctx), type(worker.pipeline))
        hash(key)
    except TypeError:
        return None
    return key
