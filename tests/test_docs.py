"""The pages' examples run and their links resolve: README.md and docs/*.md.

Every example in the docs is run here, and its output compared with the page where the page shows
it. How a page is read, so that a new example follows the same rules:

- **Shell examples.** A fenced block whose first line starts with ``$ `` is run. Each ``$ `` line
  is a command (a line ending in ``\\`` goes on on the next), run by bash in an empty temporary
  folder, one folder for the block (a later command may read what an earlier one wrote), with the
  folder of this Python (the ``crib`` installed beside it) first on ``PATH`` and ``COLUMNS=80``.
  The lines after a command, up to the next ``$ `` line, are its output as shown: they must equal
  what the command printed on stdout, line for line, trailing spaces and blank lines at either end
  aside. ``...`` stands for any text, as with doctest's ELLIPSIS: for lines the page leaves out,
  and for what changes from run to run inside a line (a timing, ``9.03 s``). A command shown with
  no output must print nothing. A command must exit 0, except an example of bad input: one that
  exits non-zero is compared on its stdout and stderr together, so it shows its error line.
- **Output that cannot be stable.** ``<!-- output varies: REASON -->`` on the line before a block
  runs its commands without comparing their output (timings: ``crib bench``). Use it only when
  ``...`` cannot do.
- **Slow examples.** ``<!-- slow -->`` on the line before a shell block marks its test slow
  (``make test`` leaves it out, ``make test-all`` runs it): a block of 6 s or more. The rest of
  this file keeps within about 90 s on two workers with a warm numba cache, so examples use
  small sizes; large runs' figures go in prose.
- **The web server.** ``crib serve`` in an example is started with ``--port 0`` (a free port),
  and the port it prints is read as 8000 in the output compared; once it says ``serving``, the
  block's later commands run, then it is stopped with Ctrl-C (SIGINT), and all it printed is
  compared. ``curl`` commands in other blocks go to a server this file starts the same way, their
  ``127.0.0.1:8000`` read as its address.
- **make.** ``make TARGET`` lines, in any block, are checked to be targets of the Makefile, not run.
- **Recipes.** A fenced ``sh`` block without ``$`` is a recipe for other machines (a Dask
  cluster): not run, but each ``crib`` command in it must be a real subcommand given only options
  its ``--help`` lists, and each other command a program installed beside this Python or on
  ``PATH``.
- **Python.** A fenced ``python`` block is a doctest (``>>>`` lines, outputs compared with
  ELLIPSIS and NORMALIZE_WHITESPACE), run in an empty temporary folder. A page's blocks run in
  one fresh interpreter, in page order, as a reader runs them in one session, each with names of
  its own (a block imports what it uses). A block with no ``>>>`` is an error here: every Python
  example runs.
- **Links.** Every relative link and image (``[text](docs/play.md#crib-review)``) names a file of
  the repository and, after ``#``, a heading of that page (GitHub's anchors: lower case,
  punctuation dropped, spaces as ``-``).
"""

from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BIN = Path(sys.executable).parent
CRIB = BIN / "crib"
# Hang guards only (a first run compiles kernels for minutes on a busy machine): never a test of
# speed.
COMMAND_TIMEOUT = 1800
SERVE_TIMEOUT = 1800

# --------------------------------------------------------------------------- reading the pages

FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[\w-]*)\s*$")
MARK = re.compile(r"^\s*<!--\s*(?P<what>output varies|slow)\b.*-->\s*$")


@dataclass
class Block:
    """One fenced block of a page: where it starts (the fence's line), its language and lines."""

    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    lines: list[str]
    varies: bool = False
    slow: bool = False

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"

    @property
    def is_example(self) -> bool:
        first = next((line for line in self.lines if line.strip()), "")
        return first.startswith("$ ")


def read_blocks(page: Path) -> list[Block]:
    """The fenced blocks of ``page``, each with the marks on the line before it."""
    blocks, current, marks = [], None, set()
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        fence = FENCE.match(line)
        if current is None:
            if fence:
                current = Block(page, number, fence["lang"], [], "output varies" in marks,
                                "slow" in marks)
                indent = len(fence["indent"])
            elif (mark := MARK.match(line)):
                marks.add(mark["what"])
            elif line.strip():
                marks = set()
        elif fence and not fence["lang"]:
            blocks.append(current)
            current, marks = None, set()
        else:
            # a block inside a list item is indented like its fence: take that indent off
            current.lines.append(line[indent:] if not line[:indent].strip() else line.lstrip())
    assert current is None, f"{page}: a block opened at line {current.line} is never closed"
    return blocks


def prose(page: Path) -> list[tuple[int, str]]:
    """The lines of ``page`` outside fenced blocks, with their numbers, inline code blanked."""
    out, inside = [], False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        if FENCE.match(line):
            inside = not inside
            continue
        if not inside:
            out.append((number, re.sub(r"`[^`]*`", "``", line)))
    return out


BLOCKS = [block for page in PAGES for block in read_blocks(page)]


def _params(blocks):
    return [pytest.param(b, id=b.name, marks=[pytest.mark.slow] if b.slow else [])
            for b in blocks]


# --------------------------------------------------------------------------- shell examples

@dataclass
class Command:
    line: int
    text: str
    shown: list[str] = field(default_factory=list)


def commands(block: Block) -> list[Command]:
    """The ``$`` commands of an example, each with the output shown after it."""
    out: list[Command] = []
    pending = None
    for offset, line in enumerate(block.lines, start=1):
        if pending is not None:  # a command continued with a backslash
            pending.text = pending.text[:-1].rstrip() + " " + line.strip()
            if not pending.text.endswith("\\"):
                pending = None
            continue
        if line.startswith("$ "):
            out.append(Command(block.line + offset, line[2:].strip()))
            if out[-1].text.endswith("\\"):
                pending = out[-1]
        else:
            out[-1].shown.append(line)
    return out


def _tidy(text: str) -> str:
    lines = [line.rstrip() for line in text.splitlines()]
    return "\n".join(lines).strip("\n")


def matches(shown: str, actual: str) -> bool:
    """Whether ``actual`` is what ``shown`` shows, ``...`` standing for any text.

    The parts between the ``...`` are looked for in order, each at its leftmost place (which
    leaves the most room for the rest), the first at the start and the last at the end: linear
    time, where a regular expression of ``.*?`` backtracked for minutes on a long output that
    did not match.

    >>> matches("a ... c", "a b c"), matches("a ... c", "a b"), matches("x...x", "x")
    (True, False, False)
    """
    parts = _tidy(shown).split("...")
    text = _tidy(actual)
    if len(parts) == 1:
        return text == parts[0]
    first, last = parts[0], parts[-1]
    if not text.startswith(first) or not text.endswith(last):
        return False
    pos, end = len(first), len(text) - len(last)
    if end < pos:
        return False
    for part in parts[1:-1]:
        at = text.find(part, pos, end)
        if at < 0:
            return False
        pos = at + len(part)
    return True


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "80"
    env["PYTHONUNBUFFERED"] = "1"
    for name in ("FORCE_COLOR", "LINES"):
        env.pop(name, None)
    return env


def _make_targets() -> set[str]:
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    return set(re.findall(r"^([A-Za-z][\w.-]*)\s*:(?!=)", text, flags=re.MULTILINE))


def _check_make(line: str, where: str) -> None:
    words = shlex.split(line, comments=True)
    targets = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
    assert targets, f"{where}: `{line}` names no target"
    missing = sorted(set(targets) - _make_targets())
    assert not missing, f"{where}: `{line}`: no such Makefile target: {', '.join(missing)}"


def _run(command: str, cwd: Path, server: str | None = None) -> subprocess.CompletedProcess:
    if server is not None:
        command = command.replace("http://127.0.0.1:8000", server)
    return subprocess.run(["bash", "-c", command], cwd=cwd, env=_environment(), text=True,
                          capture_output=True, timeout=COMMAND_TIMEOUT)


def _compare(block: Block, command: Command, stdout: str, stderr: str, status: int,
             port: str | None = None) -> None:
    where = f"{block.page.relative_to(ROOT)}:{command.line}: $ {command.text}"
    if status != 0:
        stdout = stdout + stderr
    if port is not None:
        stdout = stdout.replace(f"127.0.0.1:{port}", "127.0.0.1:8000")
    if block.varies:
        assert status == 0, f"{where}\nexit status {status}\n{stdout}"
        return
    shown = "\n".join(command.shown)
    assert matches(shown, stdout), (
        f"{where}\nexit status {status}\n--- shown on the page\n{_tidy(shown)}\n"
        f"--- printed\n{_tidy(stdout)}\n--- stderr\n{stderr}")
    assert status == 0 or _tidy(shown), f"{where}: exit status {status} with no output shown"


class Server:
    """``crib serve --port 0`` started, its address read from what it prints."""

    def __init__(self, args: list[str], cwd: Path):
        self.process = subprocess.Popen([str(CRIB), "serve", *args, "--port", "0"], cwd=cwd,
                                        env=_environment(), text=True, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self.printed: list[str] = []
        # a server that never says it serves is killed, which ends the reading below
        watchdog = threading.Timer(SERVE_TIMEOUT, self.process.kill)
        watchdog.start()
        try:
            for line in self.process.stdout:
                self.printed.append(line)
                found = re.search(r"serving http://127\.0\.0\.1:(\d+)/", line)
                if found:
                    self.port = found[1]
                    self.url = f"http://127.0.0.1:{self.port}"
                    return
        finally:
            watchdog.cancel()
        self.process.kill()
        raise AssertionError(f"crib serve stopped before serving:\n{''.join(self.printed)}"
                             f"{self.process.stderr.read()}")

    def stop(self) -> tuple[str, str, int]:
        """Ctrl-C, and what it printed in all."""
        self.process.send_signal(signal.SIGINT)
        try:
            rest, err = self.process.communicate(timeout=SERVE_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
            rest, err = self.process.communicate()
        return "".join(self.printed) + rest, err, self.process.returncode


@pytest.fixture(scope="module")
def web_server(tmp_path_factory):
    """One ``crib serve`` for the ``curl`` examples of this worker."""
    server = Server([], tmp_path_factory.mktemp("serve"))
    yield server
    server.stop()


EXAMPLES = [b for b in BLOCKS if b.is_example]


@pytest.mark.parametrize("block", _params(EXAMPLES))
def test_shell_example(block: Block, tmp_path: Path, request) -> None:
    cmds = commands(block)
    assert cmds, f"{block.name}: an example with no command"
    server = None
    if any("curl" in c.text for c in cmds) and not any(
            c.text.startswith("crib serve") for c in cmds):
        server = request.getfixturevalue("web_server")
    for i, command in enumerate(cmds):
        if command.text.startswith("make "):
            _check_make(command.text, f"{block.name} (line {command.line})")
            continue
        if command.text.startswith("crib serve") and "--screenshots" not in command.text:
            own = Server(shlex.split(command.text)[2:], tmp_path)
            try:
                for later in cmds[i + 1:]:
                    result = _run(later.text, tmp_path, own.url)
                    _compare(block, later, result.stdout, result.stderr, result.returncode,
                             own.port)
            finally:
                out, err, status = own.stop()
            # Ctrl-C is how it stops: its exit status then is 0, as after any clean stop
            _compare(block, command, out, err, status, own.port)
            return
        result = _run(command.text, tmp_path, server.url if server else None)
        _compare(block, command, result.stdout, result.stderr, result.returncode,
                 server.port if server else None)


# --------------------------------------------------------------------------- recipes and make

RECIPES = [b for b in BLOCKS if not b.is_example and b.lang in ("sh", "shell", "bash", "console")]


def _help(subcommand: str) -> str:
    result = subprocess.run([str(CRIB), subcommand, "--help"], capture_output=True, text=True,
                            env=_environment(), timeout=COMMAND_TIMEOUT)
    assert result.returncode == 0, f"crib {subcommand} --help: {result.stderr}"
    return result.stdout


@pytest.mark.parametrize("block", _params(RECIPES))
def test_recipe(block: Block) -> None:
    for offset, line in enumerate(block.lines, start=1):
        where = f"{block.page.relative_to(ROOT)}:{block.line + offset}"
        words = shlex.split(line, comments=True)
        if not words:
            continue
        if words[0] == "make":
            _check_make(line, where)
        elif words[0] == "crib":
            text = _help(words[1])
            for word in words[2:]:
                option = word.split("=")[0]
                if option.startswith("--"):
                    assert re.search(rf"{re.escape(option)}\b", text), (
                        f"{where}: crib {words[1]} has no option {option}")
        else:
            assert (BIN / words[0]).exists() or any(
                (Path(p) / words[0]).exists() for p in os.environ.get("PATH", "").split(os.pathsep)
            ), f"{where}: no program {words[0]}"


# --------------------------------------------------------------------------- Python examples

PYTHON = [b for b in BLOCKS if b.lang in ("python", "py", "pycon")]

#: What each page's Python examples gave: block name -> (passed, what the doctest printed).
_PAGE_RESULTS: dict[Path, dict[str, tuple[bool, str]]] = {}


def _doctest_task(block: Block, folder: Path) -> dict:
    test = doctest.DocTestParser().get_doctest(block.text, {}, block.name, str(block.page),
                                               block.line)
    return {"name": block.name, "file": str(block.page), "line": block.line,
            "folder": str(folder),
            "examples": [[e.source, e.want, e.lineno] for e in test.examples]}


def _run_page(page: Path, folder: Path) -> dict[str, tuple[bool, str]]:
    """Every Python example of ``page`` run by one fresh interpreter, in page order, as a reader
    runs them in one session: each block with names of its own, in an empty folder of its own.
    A fresh interpreter, not this one: this process's imports (other tests') would change what
    ``from analyzer import ...`` finds."""
    blocks = [b for b in PYTHON if b.page == page and ">>> " in b.text]  # the rest fail alone
    tasks = []
    for k, block in enumerate(blocks):
        (folder / str(k)).mkdir()
        tasks.append(_doctest_task(block, folder / str(k)))
    report = folder / "report.json"
    result = subprocess.run([sys.executable, "-c", _DOCTEST_DRIVER, str(report)],
                            input=json.dumps(tasks), text=True, capture_output=True, cwd=folder,
                            env=_environment(), timeout=COMMAND_TIMEOUT)
    assert result.returncode == 0 and report.exists(), result.stdout + result.stderr
    return {name: (passed, out) for name, passed, out in json.loads(report.read_text())}


# A page's examples are one unit of work for the test workers (conftest.py's WORK_UNITS), so
# that its interpreter is started once.
@pytest.mark.parametrize("block", _params(PYTHON))
def test_python_example(block: Block, tmp_path_factory) -> None:
    assert ">>> " in block.text, (
        f"{block.name}: a Python example is a doctest (>>> lines), so that it runs here")
    if block.page not in _PAGE_RESULTS:
        _PAGE_RESULTS[block.page] = _run_page(block.page, tmp_path_factory.mktemp("python"))
    passed, out = _PAGE_RESULTS[block.page][block.name]
    assert passed, out


# Each task's examples run in its own folder with its own globals; written to the file named by
# the first argument, as JSON: each task's name, whether it passed, and what the doctest runner
# printed (its failures).
_DOCTEST_DRIVER = """
import doctest, io, json, os, sys
results = []
for task in json.load(sys.stdin):
    os.chdir(task["folder"])
    examples = [doctest.Example(s, w, lineno=n) for s, w, n in task["examples"]]
    test = doctest.DocTest(examples, {}, task["name"], task["file"], task["line"], None)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    out = io.StringIO()
    runner.run(test, out=out.write)
    results.append([task["name"], not runner.failures, out.getvalue()])
with open(sys.argv[1], "w") as f:
    json.dump(results, f)
"""


# --------------------------------------------------------------------------- links

LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link: its text
    text = text.replace("`", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for _, line in _heading_lines(page):
        base = slug(line)
        n = seen.get(base, 0)
        seen[base] = n + 1
        out.add(base if n == 0 else f"{base}-{n}")
    return out


def _heading_lines(page: Path):
    inside = False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
        if FENCE.match(line):
            inside = not inside
        elif not inside and (found := re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)):
            yield number, found[1]


def links(page: Path) -> list[tuple[int, str]]:
    """The relative links and images of ``page`` (outside code), with their line numbers."""
    lines = dict(prose(page))
    text = "\n".join(lines.get(n, "") for n in range(1, max(lines, default=0) + 1))
    out = []
    for found in LINK.finditer(text):  # a link's text may go on over a line's end
        target = found["target"]
        if not re.match(r"^[a-z][a-z+.-]*:", target):  # http:, https:, mailto: ...
            out.append((text.count("\n", 0, found.start("target")) + 1, target))
    return out


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve(page: Path) -> None:
    broken = []
    for number, target in links(page):
        path, _, anchor = target.partition("#")
        goal = (page.parent / path).resolve() if path else page
        if not goal.exists() or ROOT not in goal.parents:
            broken.append(f"{page.relative_to(ROOT)}:{number}: {target}: no file {path}")
        elif anchor and anchor not in anchors(goal):
            broken.append(f"{page.relative_to(ROOT)}:{number}: {target}: no heading #{anchor} "
                          f"in {goal.relative_to(ROOT)}")
    assert not broken, "\n".join(broken)


def test_every_page_is_linked_from_the_readme() -> None:
    """Each docs page is reachable from the README, and starts by linking back to it."""
    linked = {(ROOT / t.partition("#")[0]).resolve() for _, t in links(ROOT / "README.md")}
    for page in PAGES[1:]:
        assert page.resolve() in linked, f"README.md does not link {page.relative_to(ROOT)}"
        head = page.read_text(encoding="utf-8").split("\n## ")[0]
        assert "../README.md" in head, (
            f"{page.relative_to(ROOT)}: its first paragraph should link back to ../README.md")


def test_readme_is_short() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 250, f"README.md has {len(lines)} lines; the rest belongs in docs/"


# --------------------------------------------------------------------------- the reader itself

def test_the_reader_reads_examples(tmp_path: Path) -> None:
    """The conventions above, on a page made up here (a reader that saw nothing would pass)."""
    assert matches("a\n...\nz", "a\nb\nc\nz") and not matches("a\nz", "a\nb\nz")
    assert matches("took ... s (9 games/s)", "took 1.5 s (9 games/s)")
    assert matches("", "\n") and not matches("", "x")
    assert slug("`crib keep`: which four to keep") == "crib-keep-which-four-to-keep"
    assert slug("Keeping to win (`--score`)") == "keeping-to-win---score"
    assert len(EXAMPLES) >= 20 and PYTHON and RECIPES
    block = Block(ROOT / "README.md", 10, "", ["$ crib a \\", "  --b", "one", "", "$ crib c"])
    assert [(c.line, c.text, c.shown) for c in commands(block)] == [
        (11, "crib a --b", ["one", ""]), (15, "crib c", [])]
    assert "output varies" in MARK.match("<!-- output varies: timings -->")["what"]
    tasks = json.dumps([{"name": f"page.md:{line}", "file": "page.md", "line": line,
                         "folder": str(tmp_path), "examples": [[source, "3\n", 1]]}
                        for line, source in ((3, "1 + 1\n"), (9, "print(3)\n"))])
    report = tmp_path / "report.json"
    result = subprocess.run([sys.executable, "-c", _DOCTEST_DRIVER, str(report)], input=tasks,
                            text=True, capture_output=True, timeout=COMMAND_TIMEOUT)
    assert result.returncode == 0, result.stderr
    (first, failed, out), (second, passed, _) = json.loads(report.read_text())
    assert (first, failed, second, passed) == ("page.md:3", False, "page.md:9", True)
    assert 'File "page.md", line 5' in out, out
    readme = [target for _, target in links(ROOT / "README.md")]
    assert "docs/architecture.md#the-suites-time" in readme  # its text runs over two lines
