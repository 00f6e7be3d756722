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


def provenance(command: str, **fields) -> dict:
    """The provenance of a file written (its JSON sidecar's content): the package's version, the
    source commit (None outside a git checkout), the command, then ``fields`` in order, then the
    date (UTC, ISO 8601).

    >>> p = provenance("crib plot census", seed=None)
    >>> list(p)
    ['package_version', 'git_commit', 'command', 'seed', 'date']
    """
    from datetime import UTC, datetime

    return {"package_version": package_version(), "git_commit": git_commit(),
            "command": command, **fields,
            "date": datetime.now(UTC).isoformat(timespec="seconds")}
