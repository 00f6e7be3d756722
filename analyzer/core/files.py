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

__all__ = ["OutputError", "atomic_write", "atomic_write_all", "atomic_write_text",
           "check_writable", "provenance_file", "provenance_item", "special_kind"]


class OutputError(ValueError):
    """An output path that cannot be written; the message says why (``no folder a/b``)."""


def provenance_file(path: str | os.PathLike) -> Path:
    """Where the JSON provenance of the file ``path`` goes: beside it, under its name with
    ``.json`` for its extension, or ``.provenance.json`` when it is a JSON file itself; beside
    a symbolic link's target, which is the file written.

    >>> provenance_file("out/keep.parquet").as_posix(), provenance_file("games.json").as_posix()
    ('out/keep.json', 'games.provenance.json')
    """
    path = _target(Path(path))
    if path.suffix.lower() == ".json":
        return path.with_name(path.stem + ".provenance.json")
    return path.with_suffix(".json")


def provenance_item(path: str | os.PathLike, meta: dict) -> tuple[Path, Callable[[Path], None]]:
    """The ``(path, write)`` item of :func:`atomic_write_all` that writes ``meta`` (a
    provenance, :func:`analyzer.core.version.provenance`) as JSON beside the file ``path``,
    naming it, so that a file and its provenance are written together or not at all."""
    import json

    text = json.dumps({**meta, "file": _target(Path(path)).name}, indent=2) + "\n"
    return provenance_file(path), lambda tmp: tmp.write_text(text)


def check_writable(path: str | os.PathLike, folder: bool = False, files=()) -> None:
    """Raise :class:`OutputError` unless ``path`` can be written, without writing anything.

    A file (``folder=False``): its folder exists and is writable, and the path is not a folder
    (nor a file without write permission, nor a device, a named pipe or a socket: the file
    written replaces what is there). A symbolic link is followed: its target is written. A
    folder (``folder=True``): it exists and is writable,
    or its parent does, so that it can be created there; none of ``files`` (the names the
    command writes in it) is a folder there. An empty path names nothing, and a file's path
    needs a name (not ``/`` or ``.``).

    Examples
    --------
    >>> try:
    ...     check_writable("no/such/folder/table.csv")
    ... except OutputError as exc:
    ...     print(exc)
    no folder no/such/folder
    """
    if not str(path).strip():
        raise OutputError("an empty path names no " + ("folder" if folder else "file"))
    path = Path(path)
    if not folder and path.name in ("", ".", ".."):
        raise OutputError("names a folder, not a file")
    if folder and path.is_dir():
        _check_folder(path)
        for name in files:
            if (path / name).is_dir():
                raise OutputError(f"{name} in it is a folder, not a file: the command writes "
                                  "that file")
        return
    if path.exists() and folder:
        raise OutputError("is a file, not a folder")
    if path.is_dir():
        raise OutputError("is a folder, not a file")
    if (reason := _not_a_file(path)) is not None:
        raise OutputError(reason)
    target = _target(path)
    parent = target.parent
    if not parent.exists():
        raise OutputError(f"no folder {parent}")
    if not parent.is_dir():
        raise OutputError(f"{parent} is not a folder")
    _check_folder(parent)
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError("cannot write there (permission denied)")


def _target(path: Path) -> Path:
    """Where a file written to ``path`` goes: a symbolic link's target (followed to the end),
    else ``path`` itself."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _not_a_file(path: Path) -> str | None:
    """Why nothing may be written over ``path`` (a device, a named pipe, a socket, what its
    links lead to included, even ``/dev/stdout``'s pipe: renaming a file there would put a file
    in its place; a loop of links), or None."""
    import errno
    import stat

    try:
        mode = path.stat().st_mode  # through every link
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "is a loop of symbolic links: nothing is written over it"
        return None  # not there: it is made
    if stat.S_ISDIR(mode) or (kind := special_kind(mode)) is None:
        return None  # a folder: refused (or written in) by its own rule
    return f"is {kind}, not a file: nothing is written over it (give a file's path)"


def special_kind(mode: int) -> str | None:
    """What a file of ``mode`` (``os.stat``'s) is when it is neither a regular file nor a
    folder, in words (``"a named pipe"``), else None: no file is read from it or written over
    it.

    >>> import stat
    >>> special_kind(stat.S_IFIFO), special_kind(stat.S_IFREG), special_kind(stat.S_IFDIR)
    ('a named pipe', None, None)
    """
    import stat

    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return ("a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
            else "a named pipe" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
            else "an unusual kind of file")


def _check_folder(folder: Path) -> None:
    import tempfile  # here, not at the top: crib --help imports this module

    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise OutputError(f"cannot write there ({exc.strerror or exc})") from None


def atomic_write(path: str | os.PathLike, write: Callable[[Path], None]) -> None:
    """Call ``write(tmp_path)`` to fill a temporary file beside ``path``, then rename it there."""
    atomic_write_all([(path, write)])


def atomic_write_all(items) -> None:
    """Write a set of files (``items``: ``(path, write)`` pairs, as :func:`atomic_write`) so
    that all of them are there or none: each is filled under a temporary name first, then all
    are renamed into place with Ctrl-C (and SIGTERM) held until the last rename. A symbolic link
    is followed (its target is replaced, the link kept). A file that cannot be written (a disk
    full, say; a device, a named pipe or a socket at its path, which are never replaced) is an
    :class:`OSError` whose ``filename`` is that file's path (not its temporary name), and none
    is left, whole or in part."""
    import errno
    import signal
    import tempfile

    from .signals import handled

    temps: list[tuple[str, Path, Path]] = []  # (temporary name, where it goes, path given)
    caught: list[int] = []
    shown: Path | None = None
    try:
        for given, write in items:
            shown = Path(given)
            if (reason := _not_a_file(shown)) is not None:
                raise OSError(errno.EEXIST, reason)
            path = _target(shown)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
            os.close(fd)
            temps.append((tmp, path, shown))
            write(Path(tmp))
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        with handled(("SIGINT", "SIGTERM"), lambda number, _frame: caught.append(number)):
            for _, _, named in temps:  # one put there since: all kept as they are
                if (reason := _not_a_file(named)) is not None:
                    shown = named
                    raise OSError(errno.EEXIST, reason)
            for tmp, path, named in temps:
                shown = named
                os.replace(tmp, path)
    except BaseException as exc:
        for tmp, _, _ in temps:
            Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError) and shown is not None and exc.errno is not None:
            raise OSError(exc.errno, exc.strerror, str(shown)) from None
        raise
    if caught:  # as it would have been, now that the files are whole
        signal.raise_signal(caught[0])


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    atomic_write(path, lambda tmp: tmp.write_text(text))
