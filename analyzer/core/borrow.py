"""Borrowed arrays: views of an array that numba does not reference-count.

Numba keeps a reference count in each array's memory block and changes it with an atomic
instruction every time a compiled function takes an array as an argument, makes a view of it
(``a[p]``, ``a[i:j]``) or lets one go. In the game loop these counts were two thirds of the time
(measured with ``perf``: ``NRT_incref`` and ``NRT_decref``, about 80 of each a deal).

:func:`_borrowed` returns the same array without its memory block, as numba represents a
global constant array: views of it and calls with it count nothing. The caller must keep the
owner alive while the borrowed array is used: an argument of the calling function (its caller
owns it), or an array the function made and uses again after the last use of the borrowed one
(:func:`_keep_alive`).
"""

from __future__ import annotations

from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

__all__: list[str] = []  # kernels only


@intrinsic
def _borrowed(typingctx, arr):
    """``arr`` (any numba array) without its memory block: the same data, shape and strides,
    with no reference counting. Valid while the owner of ``arr`` lives. ``None`` (a table
    nobody reads, :mod:`analyzer.play.reads`) is returned as it is."""
    if isinstance(arr, types.NoneType):
        return arr(arr), lambda context, builder, signature, args: args[0]
    if not isinstance(arr, types.Array):
        return None

    def codegen(context, builder, signature, args):
        src = context.make_array(arr)(context, builder, value=args[0])
        out = context.make_array(arr)(context, builder)
        out.meminfo = cgutils.get_null_value(out.meminfo.type)
        out.parent = cgutils.get_null_value(out.parent.type)
        out.nitems = src.nitems
        out.itemsize = src.itemsize
        out.data = src.data
        out.shape = src.shape
        out.strides = src.strides
        return out._getvalue()

    return arr(arr), codegen


@intrinsic
def _keep_alive(typingctx, arr):
    """Does nothing with ``arr``; a use of it that keeps the owner of a borrowed array alive up
    to this point (numba releases an array after its last use)."""
    if not isinstance(arr, (types.Array, types.NoneType)):
        return None

    def codegen(context, builder, signature, args):
        return context.get_dummy_value()

    return types.none(arr), codegen
