"""Where numba keeps the compiled kernels: beside the sources, or a user cache folder.

Numba caches a kernel (``cache=True``) in ``__pycache__`` beside its source file. An install
into a ``site-packages`` the user cannot write (a system Python, a shared environment) would
then compile every kernel again in every new process. :func:`use_user_cache_if_needed` points
numba at ``$XDG_CACHE_HOME/analyzer/numba`` (``~/.cache/analyzer/numba``) in that case. It runs
from :mod:`analyzer.core`'s ``__init__``: every module with a kernel imports from
:mod:`analyzer.core` before its kernels are decorated, which is when numba picks the cache
folder. A ``NUMBA_CACHE_DIR`` the user set is left alone.

Numba checks a cached kernel against its own source file only. A kernel that calls kernels of
other files links their code into its own, so after an update that changed only a callee's file
(``git pull``, a new version installed in the same place) numba would load the caller with the
old callee in it. :func:`drop_stale_kernels`, run at the same moment, keeps a fingerprint of the
kernel wings' sources beside the cache and, when the sources differ from it, deletes the
package's cached kernels so that they are compiled again from the sources as they are now.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path

__all__ = ["FINGERPRINT_FILE", "KERNEL_WINGS", "cache_folder", "drop_stale_kernels",
           "kernel_cache_folders", "use_user_cache_if_needed", "user_cache_folder"]

#: The wings with numba kernels (cached beside their sources).
KERNEL_WINGS = ("core", "keeping", "play", "research")
#: The fingerprint of the kernel wings' sources, kept in the first wing's cache folder.
FINGERPRINT_FILE = "analyzer-sources.json"

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
    if folder is not None:
        os.environ["NUMBA_CACHE_DIR"] = folder
        config = sys.modules.get("numba.core.config")
        if config is not None:
            config.CACHE_DIR = folder
    drop_stale_kernels()
    return folder


def kernel_cache_folders(package: Path = _PACKAGE, wings=KERNEL_WINGS) -> list[Path]:
    """Where numba caches the kernels of each of ``wings``: ``__pycache__`` beside the sources,
    or, with ``NUMBA_CACHE_DIR``, the folder numba names after the sources' folder in it (its
    ``_CacheLocator.get_suitable_cache_subpath``, written out here so that importing the core
    does not import numba; a test checks the two agree)."""
    root = os.environ.get("NUMBA_CACHE_DIR")
    folders = []
    for wing in wings:
        source = os.path.abspath(package / wing)
        if root:
            hashed = hashlib.sha1(source.encode()).hexdigest()
            folders.append(Path(root) / f"{os.path.basename(source)}_{hashed}")
        else:
            folders.append(Path(source) / "__pycache__")
    return folders


def _sources(package: Path, wings) -> list[Path]:
    return sorted(path for wing in wings for path in (package / wing).glob("*.py"))


def _stat_stamp(package: Path, files: list[Path]) -> list[list]:
    stamp = []
    for path in files:
        st = path.stat()
        stamp.append([path.relative_to(package).as_posix(), st.st_size, st.st_mtime_ns])
    return stamp


def _digest(package: Path, files: list[Path]) -> str:
    sha = hashlib.sha256()
    for path in files:
        sha.update(path.relative_to(package).as_posix().encode() + b"\0")
        sha.update(path.read_bytes() + b"\0")
    return sha.hexdigest()


@contextmanager
def _locked(path: Path):
    try:
        import fcntl
    except ImportError:  # no advisory locks here (Windows): the check is then unserialized
        yield
        return
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def drop_stale_kernels(package: Path = _PACKAGE, wings=KERNEL_WINGS) -> bool:
    """Delete the cached kernels (``*.nbi``, ``*.nbc``) of ``wings`` if their sources changed
    since the fingerprint kept beside the cache was written; return whether any were deleted.

    The fingerprint is each source file's size and modification time, checked by ``stat`` alone
    on every import; only when that differs are the files read, and the kernels are dropped only
    when their contents differ (a ``touch`` or a fresh checkout of the same sources keeps
    them). Processes starting together take turns on a lock file, so that one that starts
    after the check has renewed the fingerprint does not drop the kernels compiled since. A
    cache folder that cannot be written is left alone.
    """
    folders = kernel_cache_folders(package, wings)
    home = folders[0]
    try:
        home.mkdir(parents=True, exist_ok=True)
        with _locked(home / "analyzer-sources.lock"):
            files = _sources(package, wings)
            stamp = _stat_stamp(package, files)
            path = home / FINGERPRINT_FILE
            try:
                saved = json.loads(path.read_text())
            except (OSError, ValueError):
                saved = {}
            if saved.get("stat") == stamp:
                return False
            digest = _digest(package, files)
            stale = saved.get("digest") != digest
            dropped = False
            if stale:
                for folder in folders:
                    for kind in ("*.nbi", "*.nbc"):
                        for cached in folder.glob(kind):
                            cached.unlink(missing_ok=True)
                            dropped = True
            temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
            temporary.write_text(json.dumps({"digest": digest, "stat": stamp}))
            os.replace(temporary, path)
            return dropped
    except OSError:
        return False
