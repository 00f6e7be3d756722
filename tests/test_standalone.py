"""The repository stands alone: no tracked file refers to a path outside it.

Three kinds of reference are looked for in every file ``git ls-files`` lists (text files; binary
files are skipped):

* a relative path with a parent step (``../x``, ``a/../../x``) that leaves the repository both when
  read from the file's own folder (how a Markdown link or a notebook's working folder reads it)
  and when read from the repository root (how a command run from the root reads it); URLs are
  ignored;
* ``Path(__file__)`` climbing above the repository (``.parents[k]`` or ``.parent.parent...``);
* the project's development-only folders beside the repository: the folder ``shared`` followed
  by ``/reference`` or ``/RULES``, also when spelt as joined parts of a path (quoted words joined
  by ``/`` or ``,``). The word "shared" in prose is not a path.
"""

from __future__ import annotations

import posixpath
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>)\]]*")
_UP = re.escape("..") + "/"
_PARENT_PATH = re.compile(r"[\w.~-]*(?:/[\w.~-]*)*?" + _UP + r"[\w.~/-]*")
_HERE = r"Path\(\s*__file__\s*\)(?:\.resolve\(\)|\.absolute\(\))?"
_PARENTS = re.compile(_HERE + r"\.parents\[(\d+)\]")
_PARENT_CHAIN = re.compile(_HERE + r"((?:\.parent\b)+)")
_SHARED = re.compile(r"\bshared\b[\\\"'\s]*[/,][\\\"'\s]*(?:reference|RULES)\b")


def _leaves(folder: str, path: str) -> bool:
    """Whether ``path`` read from ``folder`` (both relative to the root) is outside the root."""
    joined = posixpath.normpath(posixpath.join(folder, path))
    return joined == ".." or joined.startswith("../") or joined.startswith("/")


def outside_references(relpath: str, text: str) -> list[str]:
    """The references in ``text`` (the file ``relpath``, relative to the root) to paths outside
    the repository, each as ``"line N: what"``."""
    found = []
    folder = posixpath.dirname(relpath)
    depth = relpath.count("/")  # Path(__file__).parents[depth] is the root
    for number, line in enumerate(text.splitlines(), 1):
        bare = _URL.sub(" ", line)
        for match in _PARENT_PATH.finditer(bare):
            path = match.group(0)
            if _leaves(folder, path) and _leaves("", path):
                found.append(f"line {number}: {path}")
        if relpath.endswith(".py"):
            for match in _PARENTS.finditer(line):
                if int(match.group(1)) > depth:
                    found.append(f"line {number}: {match.group(0)}")
            for match in _PARENT_CHAIN.finditer(line):
                if match.group(1).count(".parent") > depth + 1:
                    found.append(f"line {number}: {match.group(0)}")
        found += [f"line {number}: {m.group(0)}" for m in _SHARED.finditer(line)]
    return found


def _tracked_files() -> list[str]:
    try:
        listing = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                                 check=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"not a git checkout (git ls-files failed: {exc}); nothing to list")
    return [name for name in listing.stdout.decode().split("\0") if name]


def test_no_tracked_file_refers_outside_the_repository():
    files = _tracked_files()
    assert files, "git ls-files listed nothing"
    problems = []
    for name in files:
        path = ROOT / name
        if not path.is_file():
            continue  # deleted in the working tree
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file
        problems += [f"{name}: {where}" for where in outside_references(name, text)]
    assert not problems, "references outside the repository:\n" + "\n".join(problems)


# --------------------------------------------------------------------------- the checker itself
# The strings are built in pieces so that this file does not hold what it looks for.
UP = ".." + "/"
S = "sha" + "red"
SHARED = S + "/"
HERE = "Path(" + "__file__)"


@pytest.mark.parametrize(("relpath", "line"), [
    # What the repository held before it stood alone:
    ("README.md", f"implements are in [`{UP}{SHARED}RULES.md`]({UP}{SHARED}RULES.md)."),
    ("README.md", f"**Against Schell's published table** (`{UP}{SHARED}reference/schell.csv`, 91"),
    ("tests/reference.py", f"REFERENCE_DIR = {HERE}.resolve().parents[2]"),
    ("tests/reference.py", f'REFERENCE_DIR = ROOT.parent / "{S}" / "reference"'),
    ("notebooks/03_crib_values.ipynb",
     '    "    \\"ANALYZER_REFERENCE_DIR\\", Path(analyzer.__file__).resolve().parents[2] / '
     f'\\"{S}\\" / \\"reference\\"\\n",'),
    # and other ways out:
    ("docs/rules.md", f"see [the rules]({UP}{UP}RULES.md)"),
    ("analyzer/keeping/crib.py", f'DATA = Path("{UP}{UP}{UP}data")'),
    ("analyzer/keeping/crib.py", f"DATA_DIR = {HERE}.parent.parent.parent.parent / 'data'"),
    ("tests/x.py", f"open('data/{UP}{UP}{UP}secret')"),
    ("tests/x.py", f'os.path.join(HOME, "{S}", "RULES.md")'),
])
def test_checker_finds_references_outside(relpath, line):
    assert outside_references(relpath, line), line


@pytest.mark.parametrize(("relpath", "line"), [
    ("docs/rules.md", f"the project [README]({UP}README.md) and [data]({UP}data/crib_values.csv)"),
    ("notebooks/02.ipynb", f'pd.read_csv("{UP}data/crib_values.csv")'),
    ("README.md", "The machine is shared, so compare ratios; a shared reference point."),
    ("analyzer/core/rng.py", "never shared between threads"),
    ("README.md", f"see https://example.org/a/{UP}{UP}b and http://x.y/{UP}"),
    ("analyzer/keeping/crib.py", 'DATA_DIR = Path(__file__).resolve().parents[1] / "data"'),
    ("analyzer/keeping/crib.py", "HERE = Path(__file__).parent.parent"),
    ("tests/data/README.md", "A 2 .. 10 J Q K, and so on..."),
    (".ci/run", 'cd "$(dirname "$0")/.."'),
])
def test_checker_leaves_references_inside_alone(relpath, line):
    assert not outside_references(relpath, line), line
