"""What the ``crib`` command's modules share: the usage error and the checks and writers of
output files (:mod:`analyzer.cli.main` builds the parser, :mod:`analyzer.cli.tables` runs
``crib tables``)."""

from __future__ import annotations

import os

from ..core.files import OutputError, check_writable, provenance_file


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


def check_provenance(outputs, command: str, taken=()) -> None:
    """Refuse, on one line and before any work, an output whose provenance file
    (:func:`analyzer.core.files.provenance_file`) cannot be written, or would be written over
    one of the ``outputs`` (``(path, option)`` pairs), another one's provenance, a path in
    ``taken`` (the other files the command writes) or a file that is not that output's
    provenance (a file of yours, or another output's provenance: ``x.csv`` and ``x.png`` both
    put theirs in ``x.json``); and an output already there (not empty) without its provenance
    beside it naming it: a file of yours, not an earlier output of a command, is not written
    over."""
    from pathlib import Path

    others = {Path(p).resolve() for p, _ in outputs} | {Path(p).resolve() for p in taken}
    for path, option in outputs:
        owner = _provenance_owner(path)
        if owner is not None:
            raise UsageError(f"{command}: {option} {path}: is the provenance of {owner}: "
                             "choose another name")
        side = provenance_file(path)
        if side.resolve() in others:
            raise UsageError(f"{command}: {option} {path}: its provenance goes to {side}, "
                             "which the command also writes: choose another name")
        others.add(side.resolve())
        try:
            if side.parent.is_dir():  # else in a run folder the command makes
                check_writable(side)
        except OutputError as exc:
            raise UsageError(f"{command}: {option} {path}: its provenance file {side}: {exc}"
                             ) from None
        if side.is_file():
            owner = _provenance_owner(side)
            if owner != Path(os.path.realpath(path)).name:  # a link's: its target's
                what = "something else" if owner is None else f"the provenance of {owner}"
                raise UsageError(f"{command}: {option} {path}: its provenance goes to {side}, "
                                 f"which holds {what}: move it or choose another name")
        elif Path(path).is_file() and Path(path).stat().st_size > 0:
            raise UsageError(f"{command}: {option} {path}: is there already, and is no "
                             f"command's output (no provenance {side} beside it): move it or "
                             "choose another name")


def check_run_folder(out, option: str, command: str, files, provenance_name: str) -> None:
    """Refuse, on one line and before any work, a run folder that is there already with a file
    of yours where the command writes one of ``files``: the folder's own provenance file
    (``provenance_name``, naming the files a run wrote in its ``"files"``) says which files are
    an earlier run's, which are written over; any other file of those names (not empty) is
    not, nor a provenance file of anything else."""
    from pathlib import Path

    folder = Path(out)
    if not folder.is_dir():
        return
    side = folder / provenance_name
    meta = _provenance_meta(side)
    ours = meta is not None and isinstance(meta.get("files"), list)
    if side.is_file() and side.stat().st_size > 0 and not ours:
        raise UsageError(f"{command}: {option} {out}: {side} is there already, and is no "
                         "run's provenance: move it or choose another folder")
    for name in files:
        path = folder / name
        if name != provenance_name and path.is_file() and path.stat().st_size > 0 \
                and not (ours and name in meta["files"]):
            raise UsageError(f"{command}: {option} {out}: {path} is there already, and is no "
                             f"run's output (no provenance {side} naming it): move it or "
                             "choose another folder")


def _provenance_owner(path) -> str | None:
    """The name of the file whose provenance a command wrote in ``path``, or None when
    ``path`` is not such a file (or not there)."""
    meta = _provenance_meta(path)
    return meta["file"] if meta is not None and isinstance(meta.get("file"), str) else None


def _provenance_meta(path) -> dict | None:
    """The JSON object a command wrote as a provenance in ``path`` (one with its package's
    version), or None when ``path`` holds no such thing (or is not there)."""
    import json

    try:
        with open(path, encoding="utf-8") as f:
            meta = json.loads(f.read(1 << 20))
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) and "package_version" in meta else None


def provenance_items(paths, command: str, **fields) -> list:
    """``(path, write)`` items for :func:`analyzer.core.files.atomic_write_all`: beside each of
    ``paths``, its JSON provenance (:func:`analyzer.core.version.provenance`, with ``fields``
    and the file's name), so that a file and its provenance are written together or not at
    all."""
    from ..core.files import provenance_item
    from ..core.version import provenance

    return [provenance_item(path, provenance(command, **fields)) for path in paths]


def save_figure(fig, path: str, fmt: str, dpi: int, option: str, command: str,
                line: str | None = None, **fields) -> None:
    """Write ``fig`` to ``path`` and, beside it, its provenance (``line``: the command line,
    default ``command``; ``fields``: what the figure was drawn from), both or neither."""
    from ..core.files import atomic_write_all

    items = [(path, lambda tmp: _reproducible_savefig(fig, tmp, fmt, dpi))]
    items += provenance_items([path], line or command, **fields, dpi=dpi)
    try:
        atomic_write_all(items)
    except OSError as exc:
        raise UsageError(f"{command}: {option} {path}: cannot write there "
                         f"({exc.strerror or exc})") from None


def _reproducible_savefig(fig, path, fmt: str, dpi: int) -> None:
    """``fig.savefig``, the same bytes for the same figure: no date in the file (SVG's and PDF's
    metadata, PostScript's with ``SOURCE_DATE_EPOCH``, SVGZ's gzip header), no file name in it
    (PostScript's title was the temporary file's, written first), and SVG's element ids made
    from a fixed salt, not a random one."""
    import gzip
    import io

    import matplotlib

    metadata = {"svg": {"Date": None}, "svgz": {"Date": None},
                "pdf": {"CreationDate": None}}.get(fmt)
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    try:
        os.environ["SOURCE_DATE_EPOCH"] = "0"  # read by the PostScript backend
        with matplotlib.rc_context({"svg.hashsalt": "analyzer"}), open(path, "wb") as out:
            if fmt == "svgz":
                svg = io.BytesIO()
                fig.savefig(svg, format="svg", dpi=dpi, metadata=metadata)
                out.write(gzip.compress(svg.getvalue(), mtime=0))
            else:  # a file, not its name: PostScript then writes no title
                fig.savefig(out, format=fmt, dpi=dpi, metadata=metadata)
    finally:
        if epoch is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = epoch


def read_rank_table(path, option: str, command: str, complete: bool):
    from ..research.tables import load_rank_table

    try:
        return load_rank_table(path, complete=complete)
    except ValueError as exc:
        raise UsageError(f"{command}: {option} {exc}") from None
