"""Signals handled for the length of a block: what the package does with Ctrl-C, SIGTERM or a
closed terminal while it must not be cut short (a set of files renamed into place, a game to
save, a cluster's workers started).

Python runs a signal's handler in the main thread only, so :func:`handled` sets handlers there
and does nothing in another thread.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["handled"]


@contextmanager
def handled(names, handler) -> Iterator[bool]:
    """``handler`` (a function of the signal number and frame, or ``signal.SIG_IGN``) for the
    signals ``names`` (``"SIGINT"``, ...; those this platform lacks are left out) inside the
    block, and the handlers before put back at its end. Yields whether they were set: in the
    main thread only.

    >>> caught, before = [], signal.getsignal(signal.SIGINT)
    >>> with handled(("SIGINT", "SIGNOSUCH"), lambda n, _f: caught.append(n)) as held:
    ...     signal.raise_signal(signal.SIGINT)
    >>> held, caught == [signal.SIGINT], signal.getsignal(signal.SIGINT) is before
    (True, True, True)
    """
    saved = {}
    if threading.current_thread() is threading.main_thread():
        for name in names:
            number = getattr(signal, name, None)
            if number is not None:
                saved[number] = signal.signal(number, handler)
    try:
        yield bool(saved)
    finally:
        for number, before in saved.items():
            signal.signal(number, before)
