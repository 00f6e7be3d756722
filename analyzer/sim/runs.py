"""Run plans, chunk tasks, backends, checkpoints and resume for :func:`analyzer.simulate`.

A run is a :class:`RunPlan`: the games split by index into chunks of ``chunk_size``, chunk ``i``
seeded by the ``i``-th child of ``numpy.random.SeedSequence(seed).spawn``. Whatever runs the
chunks (threads here, a Dask cluster, or several sessions of an interrupted run), the result is the
sum of the same per-chunk counters, so it is identical.

Backends yield :class:`ChunkResult` parts as chunks finish:

* ``local``: blocks of chunks on this machine's cores (numba threads), a block sized to take a
  second or two, so progress, checkpoints and time limits act often without slowing the run;
* ``dask``: a few chunks per task on a Dask distributed cluster (``scheduler`` an address such as
  ``tcp://host:8786``, or ``"local"`` for a ``LocalCluster`` on this machine). Dask is imported
  only here, only for this backend.

A :class:`Checkpoint` folder holds ``run.json`` (the plan) and ``chunks/part-*.npz``, one file per
finished part, each written to a temporary name and renamed, so a run killed at any moment loses
only the parts in flight; resuming recomputes just the missing chunks and refuses a different plan.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import time
import uuid
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numba
import numpy as np

from ..core.choices import (
    numba_threads,
    on_threads,
    policy_arrays,
)
from ..core.files import OutputError, atomic_write, atomic_write_text, check_writable
from ..core.game import VARIANTS
from ..core.rng import chunk_states
from ..core.scoring import hand3_table, hand_table
from ..core.signals import handled
from ..core.version import package_version
from ..keeping.crib import card_values as card_values_for
from ..play.engine import (
    ACC,
    CRIB_ACC_SHAPE,
    DEAL,
    FIRST_DEALER_MODES,
    GAME_RECORD,
    MAX_RECORDED_DEALS,
    _run_chunk,
)
from ..play.reads import NO_CARD_VALUES, crib_pairs, score_tables
from .recordtable import deal_numbers, recorded_deals

__all__ = ["BACKENDS", "Checkpoint", "ChunkResult", "RunError", "RunPlan", "run_plan"]

BACKENDS = ("local", "dask")
MANIFEST = "run.json"
PARTS = "chunks"
#: The layout of a checkpoint's parts; 2 since the records are laid out by
#: analyzer.core.game.layout,
#: 3 since the accumulators count first deals and wins by the loser's skunk tier (duels),
#: 4 since the recorded deals are saved one after another,
#: 5 since a game's winner scores the target (its margins and records counted points past it
#: before: a run of format 4 or older resumed now would mix the two, so it is refused).
CHECKPOINT_FORMAT = 5
_READABLE_FORMATS = (CHECKPOINT_FORMAT,)
#: What must match for a run to be resumed.
PLAN_KEYS = ("games", "seed", "players", "chunk_size", "crib", "record_games", "variant",
             "first_dealer")
#: What a plan written before a key existed meant by it.
_PLAN_DEFAULTS = {"variant": "six-card", "first_dealer": "cut"}


class RunError(ValueError):
    """A run that cannot start or continue: a mismatched resume, an unreachable cluster..."""


@dataclass(frozen=True)
class RunPlan:
    """What defines a run's results: the games, the seed, the players and how games are chunked."""

    games: int
    seed: int
    players: tuple[str, ...]
    chunk_size: int
    crib: str
    record_games: int
    variant: str = "six-card"
    # or "alternate" (a duel): see analyzer.play.engine.FIRST_DEALER_MODES
    first_dealer: str = "cut"

    @property
    def n_chunks(self) -> int:
        return -(-self.games // self.chunk_size)

    def chunk_sizes(self, chunks) -> np.ndarray:
        """The games in each of ``chunks`` (indices), without an array of every chunk's (a run
        of 10^12 games has half a billion chunks)."""
        return np.minimum(self.chunk_size, self.games - self.chunk_firsts(chunks))

    def chunk_firsts(self, chunks) -> np.ndarray:
        """The index of the first game of each of ``chunks``."""
        return np.asarray(chunks, np.int64) * self.chunk_size

    def as_dict(self) -> dict:
        d = asdict(self)
        d["players"] = list(self.players)
        return d


class ChunksToDo:
    """The chunks of a run still to play, in order, without an array of every chunk (10^12
    games are half a billion chunks): those below the last one done that are not done (a
    resumed run's few holes), then every chunk after it. ``len``, an index and a slice (an
    int64 array) are all the backends ask of it.

    >>> todo = ChunksToDo(10, np.array([0, 1, 3]))
    >>> len(todo), todo[0], todo[1:4].tolist(), todo[:2].tolist()
    (7, 2, [4, 5, 6], [2, 4])
    """

    def __init__(self, n_chunks: int, done) -> None:
        done = np.unique(np.asarray(done, np.int64))
        top = int(done[-1]) + 1 if len(done) else 0
        self._holes = np.setdiff1d(np.arange(min(top, n_chunks), dtype=np.int64), done)
        self._rest = range(min(top, n_chunks), n_chunks)

    def __len__(self) -> int:
        return len(self._holes) + len(self._rest)

    def __getitem__(self, key):
        if isinstance(key, slice):
            lo, hi, step = key.indices(len(self))
            if step != 1:
                raise ValueError("chunks to do: a slice of step 1")
            k = len(self._holes)
            rest = self._rest[max(lo - k, 0):max(hi - k, 0)]
            return np.concatenate([self._holes[lo:hi], np.arange(rest.start, rest.stop,
                                                                 dtype=np.int64)])
        i = range(len(self))[key]
        k = len(self._holes)
        return int(self._holes[i]) if i < k else self._rest[i - k]


@dataclass
class ChunkResult:
    """The counters of some finished chunks, summed, and the records of their recorded games.

    The records are compact: ``rec_games`` int64 (games, GAME_RECORD.size) the games' headers,
    one row for each index of ``rec_index``, and ``rec_deals`` int16 (deals, DEAL.size) their
    recorded deals one after another, ``min(deals, MAX_RECORDED_DEALS)`` rows a game in the same
    order (not the engine's fixed room for 128 deals a game: a tenth of the memory or less).
    """

    chunks: np.ndarray
    acc: np.ndarray
    crib_acc: np.ndarray
    rec_index: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    rec_games: np.ndarray = field(
        default_factory=lambda: np.zeros((0, GAME_RECORD.size), np.int64))
    rec_deals: np.ndarray = field(default_factory=lambda: np.zeros((0, DEAL.size), np.int16))
    #: Records of parts added, not yet joined to the arrays (joined once, when they are read).
    _added: list = field(default_factory=list, repr=False)

    @classmethod
    def empty(cls) -> ChunkResult:
        return cls(np.zeros(0, np.int64), np.zeros(ACC.size, np.int64),
                   np.zeros(CRIB_ACC_SHAPE, np.int64))

    def add(self, other: ChunkResult) -> None:
        self.chunks = np.concatenate([self.chunks, other.chunks])
        self.acc = self.acc + other.acc
        self.crib_acc = self.crib_acc + other.crib_acc
        if len(other.rec_index):  # not copied a part: joined once, when they are read
            other._join()
            self._added.append((other.rec_index, other.rec_games, other.rec_deals))

    def _join(self) -> None:
        if self._added:
            index, games, deals = zip(*self._added, strict=True)
            self._added = []
            self.rec_index = np.concatenate([self.rec_index, *index])
            self.rec_games = np.concatenate([self.rec_games, *games])
            self.rec_deals = np.concatenate([self.rec_deals, *deals])

    def sorted_records(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The recorded games in the order of their index: their indices in the run, headers
        and deals."""
        self._join()
        order = np.argsort(self.rec_index, kind="stable")
        if np.all(order[1:] > order[:-1]):  # in order already (a run's parts mostly are)
            return self.rec_index, self.rec_games, self.rec_deals
        counts = recorded_deals(self.rec_games)
        starts = np.cumsum(counts) - counts
        n = counts[order]
        # row k of the result: the k-th deal of the games in order, taken from where it lies
        rows = np.repeat(starts[order] - (np.cumsum(n) - n), n) + np.arange(int(n.sum()))
        return self.rec_index[order], self.rec_games[order], self.rec_deals[rows]

    def save(self, path: Path) -> None:
        self._join()

        def write(tmp: Path) -> None:
            _save_npz(tmp, chunks=self.chunks, acc=self.acc, crib_acc=self.crib_acc,
                      rec_index=self.rec_index, rec_games=self.rec_games,
                      rec_deals=self.rec_deals)

        atomic_write(path, write)

    @classmethod
    def load(cls, path: Path) -> ChunkResult:
        with np.load(path) as z:
            part = cls(z["chunks"], z["acc"], z["crib_acc"], z["rec_index"], z["rec_games"],
                       z["rec_deals"])
        return part


def _save_npz(path: Path, **arrays: np.ndarray) -> None:
    """``arrays`` as ``np.savez_compressed`` writes them (``np.load`` reads them), compressed at
    zlib's level 1, not its default 6: 200,000 games with 100,000 recorded, checkpointed, spent
    8.4 s of CPU compressing their 18 parts at level 6, beside the engine's threads; level 1
    takes about a seventh of that, for parts 15% larger."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for name, array in arrays.items():
            with zf.open(f"{name}.npy", "w", force_zip64=True) as out:
                np.lib.format.write_array(out, np.asanyarray(array), allow_pickle=False)


def _compact_deals(rec_games: np.ndarray, rec_deals: np.ndarray, rows=None) -> np.ndarray:
    """The engine's room for each game's deals, (slots, MAX_RECORDED_DEALS, DEAL.size), as the
    recorded deals one after another (deals, DEAL.size): game ``k`` (row ``k`` of ``rec_games``)
    in slot ``rows[k]`` (``k`` without ``rows``). Only the deals played are read, so the pages
    of the room the engine never wrote are never touched."""
    counts = recorded_deals(rec_games)
    rows = np.arange(len(rec_games)) if rows is None else rows
    return rec_deals[np.repeat(rows, counts), deal_numbers(counts)]


def run_plan(plan: RunPlan, chunks: np.ndarray, policies: tuple[np.ndarray, np.ndarray],
             values: np.ndarray, table: np.ndarray) -> ChunkResult:
    """Run the given chunks of ``plan`` here (numba threads) and sum them into one result."""
    chunks = np.asarray(chunks, np.int64)
    states = chunk_states(plan.seed, chunks)
    sizes = plan.chunk_sizes(chunks)
    firsts = plan.chunk_firsts(chunks)
    n_record = min(plan.record_games, plan.games)
    rec_index = np.array([i for lo, n in zip(firsts, sizes, strict=True)
                          for i in range(lo, min(lo + n, n_record))], np.int64)
    # the kernel records games [rec_lo, rec_hi) into slot index - rec_lo
    rec_lo = int(rec_index.min()) if len(rec_index) else 0
    rec_hi = int(rec_index.max()) + 1 if len(rec_index) else 0
    rec_games = np.zeros((max(rec_hi - rec_lo, 1), GAME_RECORD.size), np.int64)
    rec_deals = np.zeros((max(rec_hi - rec_lo, 1), MAX_RECORDED_DEALS, DEAL.size), np.int16)
    acc = np.zeros((len(chunks), ACC.size), np.int64)
    crib_acc = np.zeros((len(chunks), *CRIB_ACC_SHAPE), np.int64)
    game = VARIANTS[plan.variant]
    card_values = card_values_for(plan.crib, plan.variant) if game.thrown == 1 else NO_CARD_VALUES
    hands = hand3_table() if game.kept == 3 else hand_table()  # kept hands of three or four
    peg_values, odds = score_tables(plan.variant, plan.players)
    tables = (game.as_array(), policies[0], policies[1], values, card_values, table, hands,
              peg_values, odds)

    def run(b: int) -> None:
        _run_chunk(states[b], sizes[b], firsts[b], *tables, acc[b], crib_acc[b], rec_games,
                   rec_deals, rec_lo, rec_hi, FIRST_DEALER_MODES[plan.first_dealer])

    on_threads(run, len(chunks), numba.get_num_threads())
    keep = rec_index - rec_lo
    return ChunkResult(chunks, acc.sum(axis=0), crib_acc.sum(axis=0), rec_index,
                       rec_games[keep], _compact_deals(rec_games[keep], rec_deals, keep))


def chunk_task(plan: dict, chunks: list[int]) -> ChunkResult:
    """Some chunks, as one Dask task: everything it needs comes in ``plan`` (a plain dict)."""
    from ..core.scoring import rank_table

    numba.set_num_threads(1)  # one chunk per worker thread; Dask does the spreading
    run = RunPlan(**{**plan, "players": tuple(plan["players"])})
    return run_plan(run, np.asarray(chunks, np.int64),
                    policy_arrays(run.players, VARIANTS[run.variant].players),
                    crib_pairs(run.crib, run.variant), rank_table())


# --------------------------------------------------------------------------- backends


#: The most recorded games a local block plays (the engine's room for their deals, 128 a game:
#: about 200 MB).
RECORD_BLOCK_GAMES = 8192


def local_backend(plan: RunPlan, todo: ChunksToDo | np.ndarray, workers: int, policies, values,
                  table, target_seconds: float = 1.5,
                  time_left: Callable[[], float | None] | None = None) -> Iterator[ChunkResult]:
    """Blocks of chunks on this machine's threads, each block about ``target_seconds`` long,
    or as long as ``time_left()`` says a time limit leaves (None: no limit), so that a run
    stops near its limit: after one chunk a thread at least.

    The threads take a block's chunks one at a time as they finish
    (:func:`analyzer.core.choices.on_threads`), not an equal share each fixed in advance, so a
    thread slowed by other work on the machine does not hold the block up. A block is a multiple
    of ``workers`` chunks, and a remainder too small to keep every thread busy joins the block
    before it.
    """
    block = workers
    with numba_threads(workers):
        i = 0
        while i < len(todo):
            if len(todo) - (i + block) < max(block // 2, workers):
                block = len(todo) - i  # the rest in one block: no lone chunk at the end
            chunks = todo[i:i + block]
            start = time.perf_counter()
            yield run_plan(plan, chunks, policies, values, table)
            i += len(chunks)
            took = time.perf_counter() - start
            per_chunk = took / len(chunks) * workers
            left = None if time_left is None else time_left()
            target = target_seconds if left is None else min(target_seconds, max(left, 0.0))
            block = int(np.clip(target * workers / max(per_chunk, 1e-6), workers, 256))
            if plan.chunk_firsts(todo[min(i, len(todo) - 1)]) < plan.record_games:
                # a block of recorded games: the engine's room for their deals is 24 KB a game
                block = min(block, max(RECORD_BLOCK_GAMES // plan.chunk_size, workers))
            block -= block % workers


#: The tasks a Dask run keeps on its cluster for each of the cluster's threads: enough that no
#: thread waits for its next task, few enough that a run of any size is a short list.
WINDOW_TASKS = 4

SCHEDULER_PATTERN = r"(local|(tcp|tls|inproc|ucx|ws|wss)://[^\s/:]+(:\d{1,5})?)"


def check_scheduler(address: str) -> str:
    """``address`` if it reads as a Dask scheduler address (or ``local``); else RunError."""
    import re

    if not re.fullmatch(SCHEDULER_PATTERN, str(address)):
        raise RunError(f"{address!r} is not a Dask scheduler address: use tcp://host:8786 or "
                       "'local'")
    return address


def dask_backend(plan: RunPlan, todo: ChunksToDo | np.ndarray, scheduler: str, workers: int,
                 stop: Callable[[], bool]) -> Iterator[ChunkResult]:
    """Tasks of a few chunks on a Dask cluster; finished chunks come back as they complete."""
    check_scheduler(scheduler)
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError:
        raise RunError("the dask backend needs Dask: pip install 'analyzer[dask]'") from None
    cluster = None
    try:
        if scheduler == "local":
            # the workers are started with Ctrl-C ignored (a process keeps an ignored signal):
            # a Ctrl-C at the terminal reaches the whole process group, and this process alone
            # should act on it, closing the cluster, not each worker with its own tracebacks
            with handled(("SIGINT",), signal.SIG_IGN):
                # nor a warning from each worker for each task the stop cancels; the
                # scheduler's web server on a free port of this machine only (on Dask's own,
                # 8787, a second run at once warned that it was in use; ":0" is every interface)
                cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address="127.0.0.1:0",
                                       silence_logs=logging.ERROR)
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        if cluster is not None:
            cluster.close()
        raise RunError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    try:
        spec = plan.as_dict()
        # a few chunks per task: enough tasks to balance the workers, few enough to keep the
        # per-task cost small
        threads = max(sum(client.nthreads().values()), 1)
        group = int(np.clip(len(todo) // (8 * threads), 1, 8))
        starts = iter(range(0, len(todo), group))

        def submit():
            """The next task, or None when every chunk is asked for: submitted as the cluster
            takes them, a few tasks a thread, not all at once (10^12 games are half a billion
            chunks)."""
            i = next(starts, None)
            if i is None:
                return None
            chunks = np.asarray(todo[i:i + group], np.int64).tolist()
            return client.submit(chunk_task, spec, chunks, pure=False,
                                 key=f"chunks-{plan.seed}-{chunks[0]}-{uuid.uuid4().hex[:6]}")

        def top_up() -> None:
            """Tasks up to the window of the cluster's threads now (a remote cluster's
            workers may join after the run starts)."""
            window = WINDOW_TASKS * max(sum(client.nthreads().values()), 1)
            while len(running) < window and (task := submit()) is not None:
                running.append(task)
                pending.add(task)

        running: list = []
        pending = as_completed()
        top_up()
        for future in pending:
            running.remove(future)
            yield future.result()
            if stop():
                for f in running:
                    f.cancel()
                break
            top_up()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# --------------------------------------------------------------------------- checkpoints


class Checkpoint:
    """The checkpoint folder of a run: ``run.json`` and ``chunks/part-*.npz``."""

    def __init__(self, folder: str | os.PathLike):
        self.folder = Path(folder)
        self.manifest = self.folder / MANIFEST
        self.parts = self.folder / PARTS

    def saved_seed(self) -> int | None:
        """The seed the run in this folder was started with, or None (no run there, or a plan
        that cannot be read: :meth:`start` says what is wrong)."""
        try:
            seed = json.loads(self.manifest.read_text())["seed"]
        except (OSError, UnicodeDecodeError, ValueError, KeyError, TypeError):
            return None
        return seed if type(seed) is int else None

    def start(self, plan: RunPlan, resume: bool) -> ChunkResult:
        """Check or write the plan; return what earlier sessions of the run finished."""
        if self.folder.exists() and not self.folder.is_dir():
            raise RunError(f"{self.folder} is a file: a checkpoint is a folder (the run's "
                           "plan and its finished chunks)")
        if self.manifest.exists():
            try:
                saved = json.loads(self.manifest.read_text())
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise RunError(f"{self.manifest}: cannot read the run's plan ({exc})") from None
            if not isinstance(saved, dict):
                raise RunError(f"{self.manifest}: not a run's plan")
            if not resume:
                raise RunError(f"{self.folder} already holds a run: add --resume (resume=True "
                               "in Python) to continue it, or choose another folder")
            if saved.get("format") not in _READABLE_FORMATS:
                raise RunError(f"cannot resume {self.folder}: its checkpoint format "
                               f"{saved.get('format')!r} is not this version's "
                               f"({CHECKPOINT_FORMAT}); start the run again in a new folder")
            mine = plan.as_dict()
            saved = {**_PLAN_DEFAULTS, **saved}
            differ = [k for k in PLAN_KEYS if saved.get(k) != mine[k]]
            if differ:
                what = ", ".join(f"{k} {saved.get(k)!r} there, {mine[k]!r} now" for k in differ)
                raise RunError(f"cannot resume {self.folder}: a different run ({what}); "
                               "resume with the options the run was started with")
        elif resume:
            raise RunError(f"nothing to resume in {self.folder} (no {MANIFEST})")
        else:  # made in a folder that exists, as the command line's --out: no chain of folders
            try:
                check_writable(self.folder, folder=True)
            except OutputError as exc:
                raise RunError(f"checkpoint {self.folder}: {exc}") from None
            self.folder.mkdir(exist_ok=True)
            manifest = {**plan.as_dict(), "package_version": package_version(),
                        "format": CHECKPOINT_FORMAT}
            atomic_write_text(self.manifest, json.dumps(manifest, indent=2) + "\n")
        self.parts.mkdir(parents=True, exist_ok=True)
        for stale in self.parts.glob(".part-*.tmp"):  # a part being written when killed
            stale.unlink(missing_ok=True)
        done = ChunkResult.empty()
        for path in sorted(self.parts.glob("part-*.npz")):
            try:
                done.add(ChunkResult.load(path))
            except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
                raise RunError(f"{path}: a damaged part of the checkpoint (delete it, and "
                               "--resume plays its games again)") from None
        if len(np.unique(done.chunks)) != len(done.chunks):
            raise RunError(f"{self.parts}: a chunk is checkpointed twice")
        return done

    def save(self, part: ChunkResult) -> None:
        first = int(part.chunks.min()) if len(part.chunks) else 0
        part.save(self.parts / f"part-{first:09d}-{uuid.uuid4().hex[:8]}.npz")
