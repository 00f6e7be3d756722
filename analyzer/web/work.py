"""The computing behind the answers, off the event loop: quick answers in threads side by side,
long ones (P(win)) one at a time, and a long answer nobody waits for any more dropped.

The server answers on one event loop. An answer that computes must not run on it, or every other
request waits: each runs in a worker thread (starlette's thread pool) on kernels that release
the GIL (``nogil=True``), so that a count or a keep is answered in milliseconds while a P(win)
simulates for seconds.

:class:`Work` holds what the threads share:

- the *slot* of the long answers: one at a time, in a thread of their own at a lower priority
  (:data:`LONG_NICE`), on all of numba's threads but one when the machine has more than one core
  (the rest of the server keeps a core). A request waiting for the
  slot whose client has gone (the page asked again, and aborted the old request) is dropped
  before it computes; one computing runs to its end and its answer is dropped
  (:attr:`Work.dropped`, :attr:`Work.done`);
- the *slow* answers (a game's review, the AI's choices explained, a finished game added to the
  history with its review, the chart): seconds of Python each, :data:`SLOW_AT_ONCE` at a time
  in threads of their own (:meth:`Work.slow`), so that however many are asked for at once, the
  counts, the keeps and the game's moves keep starlette's thread pool (the pages are answered
  on the event loop);
- a lock for matplotlib (the chart of ``crib plot keep``), which is not thread-safe;
- ``closing``, set when the server is asked to stop: the long answers waiting, and those
  computing, answer at once that their client has gone (the thread computing runs on, and the
  command does not wait for it).
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor

__all__ = ["LONG_NICE", "POLL_SECONDS", "SLOW_AT_ONCE", "Work"]

#: How often a request waiting for the slot, or for its answer, looks whether its client is gone.
POLL_SECONDS = 0.05
#: The niceness of the long answers' thread: on a busy machine the quick answers go first.
LONG_NICE = 10
#: How many slow answers (:meth:`Work.slow`) compute at once; the others wait their turn.
SLOW_AT_ONCE = 2


def _lower_priority() -> None:
    """Lower the calling thread's priority to :data:`LONG_NICE` (Linux: a thread's own niceness;
    elsewhere nothing)."""
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), LONG_NICE)
    except (AttributeError, OSError):
        pass


class Work:
    """What the threads computing the answers share (see the module)."""

    def __init__(self):
        import numba

        self.threads = max(1, numba.get_num_threads() - 1)
        self._slot = threading.Lock()
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="crib-long",
                                            initializer=_lower_priority)
        self._queue: deque = deque()  # the requests waiting for the slot, in turn
        self.chart_lock = threading.Lock()
        self._slow_limiter = None  # made in the event loop, at the first slow answer
        self.closing = False  # the server is stopping
        self.running = 0  # long answers computing now (the warm-up's included)
        self.done = 0     # long answers computed and sent
        self.dropped = 0  # long answers dropped: the client had gone

    @property
    def waiting(self) -> int:
        """The long answers waiting for the slot."""
        return len(self._queue)

    def _long(self, fn: Callable, args, kwargs):
        from ..core.choices import numba_threads

        self.running += 1
        try:
            with numba_threads(self.threads):
                return fn(*args, **kwargs)
        finally:
            self.running -= 1

    async def long(self, request, fn: Callable, *args, **kwargs):
        """``fn(*args, **kwargs)`` computed in a worker thread once the slot is free, or None if
        the client of ``request`` went away first (the answer is then dropped)."""
        turn = object()
        self._queue.append(turn)
        try:  # first come, first served
            while not (self._queue[0] is turn and self._slot.acquire(blocking=False)):
                if self.closing or await request.is_disconnected():
                    self.dropped += 1
                    return None
                await asyncio.sleep(POLL_SECONDS)
        finally:
            self._queue.remove(turn)
        try:
            task = asyncio.get_running_loop().run_in_executor(self._executor, self._long, fn,
                                                              args, kwargs)
        except BaseException:
            self._slot.release()
            raise
        task.add_done_callback(self._finished)
        while True:
            done, _ = await asyncio.wait({task}, timeout=POLL_SECONDS)
            if done:
                self.done += 1
                return task.result()
            if self.closing or await request.is_disconnected():
                self.dropped += 1  # the thread runs to its end; nobody reads its answer
                return None

    async def slow(self, fn: Callable, *args, **kwargs):
        """``fn(*args, **kwargs)`` in a thread, :data:`SLOW_AT_ONCE` at a time (not in the
        thread pool of the quick answers)."""
        import functools

        import anyio

        if self._slow_limiter is None:
            self._slow_limiter = anyio.CapacityLimiter(SLOW_AT_ONCE)
        return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs),
                                              limiter=self._slow_limiter)

    def start(self, fn: Callable, *args, **kwargs) -> Future:
        """``fn(*args, **kwargs)`` in the slot, started now in the long answers' thread (the
        warm-up of their kernels, while the server starts)."""
        def run():
            with self._slot:
                return self._long(fn, args, kwargs)

        return self._executor.submit(run)

    def _finished(self, task) -> None:
        self._slot.release()
        if not task.cancelled():
            task.exception()  # retrieved, so that a dropped answer's error is not logged
