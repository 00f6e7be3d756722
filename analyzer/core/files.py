"""Atomic file output: every table, CSV and provenance file is written to a temporary name in the
same folder and renamed, so an interrupted run never leaves a half-written file.

Before any work starts, :func:`check_writable` says whether an output can be written there. One
rule for every command: the folder an output goes into must exist (nothing creates a chain of
folders); a run folder (``crib simulate --out DIR``) is itself created, in a folder that exists.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

__all__ = ["OutputError", "atomic_write", "atomic_write_text", "check_writable"]


class OutputError(ValueError):
    """An output path that cannot be written; the message says why (``no folder a/b``)."""


def check_writable(path: str | os.PathLike, folder: bool = False) -> None:
    """Raise :class:`OutputError` unless ``path`` can be written, without writing anything.

    A file (``folder=False``): its folder exists and is writable, and the path is not a folder
    (nor a file without write permission). A folder (``folder=True``): it exists and is writable,
    or its parent does, so that it can be created there.

    Examples
    --------
    >>> try:
    ...     check_writable("no/such/folder/table.csv")
    ... except OutputError as exc:
    ...     print(exc)
    no folder no/such/folder
    """
    path = Path(path)
    if folder and path.is_dir():
        _check_folder(path)
        return
    if path.exists() and folder:
        raise OutputError("is a file, not a folder")
    if path.is_dir():
        raise OutputError("is a folder, not a file")
    parent = path.parent
    if not parent.exists():
        raise OutputError(f"no folder {parent}")
    if not parent.is_dir():
        raise OutputError(f"{parent} is not a folder")
    _check_folder(parent)
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError("cannot write there (permission denied)")


def _check_folder(folder: Path) -> None:
    import tempfile  # here, not at the top: crib --help imports this module

    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise OutputError(f"cannot write there ({exc.strerror or exc})") from None


def atomic_write(path: str | os.PathLike, write: Callable[[Path], None]) -> None:
    """Call ``write(tmp_path)`` to fill a temporary file beside ``path``, then rename it there."""
    import tempfile

    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    try:
        write(Path(tmp))
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    atomic_write(path, lambda tmp: tmp.write_text(text))
