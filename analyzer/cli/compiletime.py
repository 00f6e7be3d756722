"""Where numba's compile time goes: per kernel, from numba's event API (``numba.core.event``).

Numba broadcasts a ``"numba:compile"`` event around each compile of a dispatcher that its cache
did not have (a kernel loaded from the cache broadcasts nothing). :class:`CompileClock` listens to
it and keeps, for each kernel, the versions compiled (one per type signature) and the CPU seconds
of this process spent compiling it, its own (``self``: without the kernels compiled inside it,
which a caller compiles when it first types a call) and with them (``total``). CPU seconds, not
wall seconds, so that another process on the machine moves the figures less.

:func:`report_to_file` is what ``crib bench --cold`` asks of each ``crib`` process it runs: with
``ANALYZER_COMPILE_REPORT`` set to a path, :func:`analyzer.cli.main.main` writes the clock's rows
there as JSON when it ends.

Examples
--------
>>> with CompileClock.recording() as clock:
...     pass  # call kernels here
>>> clock.rows()
[]
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time

__all__ = ["PREPARES", "REPORT_ENV", "CompileClock", "format_kernel_table", "kernel_name",
           "notice_line", "report_to_file", "watch_compiles"]

#: The environment variable naming the JSON file a ``crib`` process writes its compiles to.
REPORT_ENV = "ANALYZER_COMPILE_REPORT"


def kernel_name(dispatcher) -> str:
    """``play.engine._play_game``: the kernel's module (less ``analyzer.``) and name."""
    fn = getattr(dispatcher, "py_func", None)
    if fn is None:
        return repr(dispatcher)
    module = (fn.__module__ or "?").removeprefix("analyzer.")
    return f"{module}.{fn.__qualname__}"


def _listener_base():
    from numba.core import event

    return event.Listener


class CompileClock:
    """Listens to ``"numba:compile"`` and adds up each kernel's versions and CPU seconds.

    Install with :meth:`install` (until :meth:`uninstall`) or :meth:`recording` (a ``with``
    block). ``on_top`` (optional) is called with the kernel's name when a compile starts that is
    not inside another one: what :mod:`analyzer.cli.notice` uses to say so before the wait.
    """

    def __init__(self, on_top=None):
        self._on_top = on_top
        self._local = threading.local()
        self._lock = threading.Lock()
        self._kernels: dict[str, dict] = {}
        self._listener = None

    # -------------------------------------------------------------- the listener's two calls

    def _stack(self) -> list:
        stack = getattr(self._local, "stack", None)
        if stack is None:
            stack = self._local.stack = []
        return stack

    def _start(self, event) -> None:
        name = kernel_name(event.data["dispatcher"])
        stack = self._stack()
        if not stack and self._on_top is not None:
            self._on_top(name)
        # [name, CPU at start, wall at start, CPU of the compiles inside]
        stack.append([name, time.process_time(), time.perf_counter(), 0.0])

    def _end(self, event) -> None:
        stack = self._stack()
        if not stack:
            return
        name, cpu0, wall0, inner = stack.pop()
        cpu = time.process_time() - cpu0
        wall = time.perf_counter() - wall0
        if stack:
            stack[-1][3] += cpu
        with self._lock:
            row = self._kernels.setdefault(
                name, {"kernel": name, "versions": 0, "self_cpu": 0.0, "total_cpu": 0.0,
                       "wall": 0.0, "top": 0})
            row["versions"] += 1
            row["self_cpu"] += max(0.0, cpu - inner)
            row["total_cpu"] += cpu
            row["wall"] += wall
            row["top"] += not stack

    # -------------------------------------------------------------- install, read

    def install(self) -> CompileClock:
        from numba.core import event

        clock = self

        class _Listener(_listener_base()):
            def on_start(self, ev):
                clock._start(ev)

            def on_end(self, ev):
                clock._end(ev)

        self._listener = _Listener()
        event.register("numba:compile", self._listener)
        return self

    def uninstall(self) -> None:
        from numba.core import event

        if self._listener is not None:
            event.unregister("numba:compile", self._listener)
            self._listener = None

    @classmethod
    @contextlib.contextmanager
    def recording(cls, on_top=None):
        """``with CompileClock.recording() as clock:``: the compiles of the block."""
        clock = cls(on_top).install()
        try:
            yield clock
        finally:
            clock.uninstall()

    def rows(self) -> list[dict]:
        """One dict a kernel compiled (``kernel``, ``versions``, ``self_cpu``, ``total_cpu``,
        ``wall``, ``top``: versions compiled not inside another compile), most ``self_cpu``
        first."""
        with self._lock:
            rows = [dict(r) for r in self._kernels.values()]
        return sorted(rows, key=lambda r: (-r["self_cpu"], r["kernel"]))

    def total_cpu(self) -> float:
        """CPU seconds of all compiling (each compile counted once, at its top)."""
        return sum(r["self_cpu"] for r in self.rows())


def report_to_file(clock: CompileClock, path: str | os.PathLike) -> None:
    """Write ``clock``'s rows to ``path`` as JSON (``{"kernels": [...], "cpu": ...}``)."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"kernels": clock.rows(), "cpu": time.process_time()}, f)


def format_kernel_table(rows: list[dict], top: int | None = None) -> list[str]:
    """Markdown lines: kernel, versions, its own CPU seconds, with the kernels inside.

    >>> print("\\n".join(format_kernel_table([{"kernel": "core.scoring.f", "versions": 2,
    ...     "self_cpu": 1.25, "total_cpu": 2.5}])))
    | kernel | versions | CPU s, own | CPU s, with inner kernels |
    |---|---:|---:|---:|
    | core.scoring.f | 2 | 1.2 | 2.5 |
    | all | 2 | 1.2 | |
    """
    shown = rows if top is None else rows[:top]
    lines = ["| kernel | versions | CPU s, own | CPU s, with inner kernels |",
             "|---|---:|---:|---:|"]
    lines += [f"| {r['kernel']} | {r['versions']} | {r['self_cpu']:.1f} | {r['total_cpu']:.1f} |"
              for r in shown]
    if top is not None and len(rows) > top:
        rest = rows[top:]
        lines.append(f"| {len(rest)} others | {sum(r['versions'] for r in rest)} | "
                     f"{sum(r['self_cpu'] for r in rest):.1f} | |")
    lines.append(f"| all | {sum(r['versions'] for r in rows)} | "
                 f"{sum(r['self_cpu'] for r in rows):.1f} | |")
    return lines


# ------------------------------------------------------------------ saying it before the wait

#: What each command compiles on its first run, and roughly how long that takes: CPU seconds
#: measured by ``crib bench --cold`` on the 2-core machine (docs/benchmarks.md), rounded up; the
#: most a command's options make it compile (``crib keep --score``: ``--crib uniform`` alone takes
#: 5 s).
PREPARES = {
    "simulate": ("the game engine", 60),  # best among the players: its search too
    "duel": ("the game engine and best's search", 75),
    "peg": ("best's search", 20),
    "keep": ("the keep analysis", 70),
    "play": ("the game engine and best's search", 80),
    "review": ("best's search", 60),
    "replay": ("the scoring", 5),  # the records' counts checked: 1.4 to 1.8 s from an empty cache
    "serve": ("the analyzer's kernels", 70),
    "plot": ("the analyzer's kernels", 150),
    "tables": ("the self-play engine", 150),
    "bench": ("the analyzer's kernels", 200),
}


def _roughly(seconds: int) -> str:
    """``about 20 s``, ``up to 3 min``: how long, said roughly.

    >>> _roughly(20), _roughly(150)
    ('up to 20 s', 'up to 3 min')
    """
    if seconds < 90:
        return f"up to {seconds} s"
    return f"up to {-(-seconds // 60)} min"


def notice_line(command: str) -> str:
    """The one line said on stderr before ``crib COMMAND`` first compiles.

    >>> notice_line("peg")  # doctest: +NORMALIZE_WHITESPACE
    "crib peg: compiling best's search for this machine: first run only, up to 20 s on 2 cores
     (crib warmup --all does it ahead) ..."
    """
    what, seconds = PREPARES.get(command, ("the analyzer's kernels", 150))
    return (f"crib {command}: compiling {what} for this machine: first run only, "
            f"{_roughly(seconds)} on 2 cores (crib warmup --all does it ahead) ...")


class _AfterImport:
    """A ``sys.meta_path`` finder that calls ``then()`` once ``name`` has been imported, so
    that a process that never imports numba (``crib --help``, the table keep) does not pay for
    it."""

    def __init__(self, name: str, then):
        self.name, self.then = name, then

    def find_spec(self, name, path=None, target=None):
        if name != self.name:  # before any import here: each would come back through this
            return None
        import sys

        sys.meta_path.remove(self)
        import importlib.util

        spec = importlib.util.find_spec(name)
        if spec is None or spec.loader is None:
            return spec
        run, then = spec.loader.exec_module, self.then

        def exec_module(module):
            run(module)
            then()

        spec.loader.exec_module = exec_module
        return spec


def watch_compiles(command: str, say: bool = True) -> CompileClock:
    """Listen to numba's compiles in this ``crib COMMAND`` process: say :func:`notice_line` on
    stderr at the first (``say``), and write the report ``crib bench --cold`` asks for (see
    :data:`REPORT_ENV`) when the process ends. Numba is not imported for it."""
    import atexit
    import sys

    said = []

    def on_top(_kernel: str) -> None:
        if say and not said:
            said.append(True)
            print(notice_line(command), file=sys.stderr, flush=True)

    clock = CompileClock(on_top)
    if "numba" in sys.modules:
        clock.install()
    else:
        sys.meta_path.insert(0, _AfterImport("numba", clock.install))
    path = os.environ.get(REPORT_ENV)
    if path:
        atexit.register(report_to_file, clock, path)
    return clock
