"""Where numba keeps the compiled kernels: beside the sources, or a user cache folder.

Numba caches a kernel (``cache=True``) in ``__pycache__`` beside its source file. An install
into a ``site-packages`` the user cannot write (a system Python, a shared environment) would
then compile every kernel again in every new process. :func:`use_user_cache_if_needed` points
numba at ``$XDG_CACHE_HOME/analyzer/numba`` (``~/.cache/analyzer/numba``) in that case. It runs
from :mod:`analyzer.core`'s ``__init__``: every module with a kernel imports from
:mod:`analyzer.core` before its kernels are decorated, which is when numba picks the cache
folder. A ``NUMBA_CACHE_DIR`` the user set is left alone.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

__all__ = ["KERNEL_WINGS", "cache_folder", "use_user_cache_if_needed", "user_cache_folder"]

#: The wings with numba kernels (cached beside their sources).
KERNEL_WINGS = ("core", "keeping", "play", "research")

_PACKAGE = Path(__file__).resolve().parent.parent


def user_cache_folder() -> str:
    """``$XDG_CACHE_HOME/analyzer/numba``, or ``~/.cache/analyzer/numba``."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "analyzer", "numba")


def _writable(folder: Path) -> bool:
    cache = folder / "__pycache__"
    return os.access(cache if cache.is_dir() else folder, os.W_OK)


def cache_folder(package: Path = _PACKAGE, writable=_writable) -> str | None:
    """The folder numba should cache in, or None to leave numba as it is (``NUMBA_CACHE_DIR``
    set, or the package's folders writable).

    >>> cache_folder(writable=lambda folder: True) is None
    True
    >>> cache_folder(writable=lambda folder: False) == (
    ...     None if os.environ.get("NUMBA_CACHE_DIR") else user_cache_folder())
    True
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    if all(writable(package / wing) for wing in KERNEL_WINGS):
        return None
    return user_cache_folder()


def use_user_cache_if_needed() -> str | None:
    """Point numba at :func:`user_cache_folder` if the package cannot hold its cache; return
    the folder chosen, or None. Before numba is imported it is the environment numba reads;
    after, numba's config too (numba reads it again when it compiles)."""
    folder = cache_folder()
    if folder is None:
        return None
    os.environ["NUMBA_CACHE_DIR"] = folder
    config = sys.modules.get("numba.core.config")
    if config is not None:
        config.CACHE_DIR = folder
    return folder
