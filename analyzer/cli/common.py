"""What the ``crib`` command's modules share: the usage error and the checks and writers of
output files (:mod:`analyzer.cli.main` builds the parser, :mod:`analyzer.cli.tables` runs
``crib tables``)."""

from __future__ import annotations

from ..core.files import OutputError, check_writable


class UsageError(Exception):
    """A problem with the command line, reported as one line and exit status 2."""


def check_output(path, option: str, command: str, folder: bool = False, files=()) -> None:
    """Refuse an output that cannot be written: one rule for every command (see
    :func:`analyzer.core.files.check_writable`; ``files``: the names written in a folder)."""
    try:
        check_writable(path, folder=folder, files=files)
    except OutputError as exc:
        raise UsageError(f"{command}: {option} {path}: {exc}") from None


#: Figure formats ``crib plot`` and ``crib tables compare --plot`` write, by file extension
#: (the raster formats but PNG go through Pillow, which matplotlib installs).
FIGURE_FORMATS = {"png": "png", "pdf": "pdf", "svg": "svg", "svgz": "svgz", "eps": "eps",
                  "ps": "ps", "jpg": "jpeg", "jpeg": "jpeg", "tif": "tiff", "tiff": "tiff",
                  "webp": "webp"}
PILLOW_FORMATS = {"jpeg", "tiff", "webp"}


def figure_format(path: str, option: str, command: str) -> str:
    """The format a figure file's extension names, or one line if it names none we write."""
    import importlib.util
    from pathlib import Path

    ext = Path(path).suffix.lower().lstrip(".")
    if ext not in FIGURE_FORMATS:
        raise UsageError(f"{command}: {option} {path}: the extension names no figure format "
                         f"we write ({', '.join('.' + e for e in FIGURE_FORMATS)})")
    fmt = FIGURE_FORMATS[ext]
    if fmt in PILLOW_FORMATS and importlib.util.find_spec("PIL") is None:
        raise UsageError(f"{command}: {option} {path}: .{ext} needs Pillow, which is not "
                         "installed (write .png, .pdf or .svg)")
    return fmt


def save_figure(fig, path: str, fmt: str, dpi: int, option: str, command: str) -> None:
    from ..core.files import atomic_write

    try:
        atomic_write(path, lambda tmp: fig.savefig(tmp, format=fmt, dpi=dpi))
    except OSError as exc:
        raise UsageError(f"{command}: {option} {path}: cannot write there "
                         f"({exc.strerror or exc})") from None


def read_rank_table(path, option: str, command: str, complete: bool):
    from ..research.tables import load_rank_table

    try:
        return load_rank_table(path, complete=complete)
    except ValueError as exc:
        raise UsageError(f"{command}: {option} {exc}") from None
