"""The package's version and the source commit, for provenance sidecars and ``crib --version``.

Read on first use: reading the installed metadata costs more than the rest of ``crib --help``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path


@lru_cache(maxsize=1)
def package_version() -> str:
    """The version in the installed metadata (pyproject.toml); ``"0+unknown"`` when the package
    is imported from a source tree that was never installed.

    >>> package_version() != ""
    True
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("analyzer")
    except PackageNotFoundError:
        return "0+unknown"


def git_commit() -> str | None:
    """The commit of the source tree the package runs from, when it is a git checkout."""
    import subprocess

    try:
        out = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                             cwd=Path(__file__).parent, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None if out.returncode == 0 else None
