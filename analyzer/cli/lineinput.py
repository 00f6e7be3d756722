"""One line typed at the terminal, read so that a Ctrl-C is never lost.

``input()`` checks for a signal, then blocks in ``read()``. A Ctrl-C that comes in between is
noted and waits for the next key: the game sits at its prompt. A person is seldom that quick,
but a program driving a game through a pseudo-terminal sends its Ctrl-C the moment the prompt
shows, and on a busy 2-core machine 1 to 7 in 100 such Ctrl-Cs were lost. :func:`read_line`
closes that gap with ``signal.set_wakeup_fd``: a signal that comes before the wait also wakes it.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading

__all__ = ["read_line"]


def read_line(prompt: str = "") -> str:
    """The line typed after ``prompt``, without its newline, as ``input(prompt)`` gives it;
    EOFError at the end of input (Ctrl-D). A Ctrl-C raises KeyboardInterrupt whenever it comes
    after the call begins, and so does any signal whose handler raises.

    With both ends a terminal, in the main thread, on POSIX, it waits on the terminal and on a
    pipe each signal writes to; elsewhere (piped input, Windows) it is ``input``, whose gap does
    not matter there.
    """
    try:
        terminal = sys.stdin.isatty() and sys.stdout.isatty()
        fd = sys.stdin.fileno()
    except (AttributeError, ValueError, OSError):  # replaced or closed streams
        terminal = False
    if not (terminal and os.name == "posix"
            and threading.current_thread() is threading.main_thread()):
        return input(prompt)
    wake_read, wake_write = os.pipe()
    os.set_blocking(wake_read, False)
    os.set_blocking(wake_write, False)
    before = signal.set_wakeup_fd(wake_write, warn_on_full_buffer=False)
    try:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        return _wait_for_line(fd, wake_read)
    finally:
        signal.set_wakeup_fd(before)
        os.close(wake_read)
        os.close(wake_write)


def _wait_for_line(fd: int, wake: int) -> str:
    """The line read from the terminal ``fd``; a signal wakes the wait through ``wake`` and its
    handler runs (a Ctrl-C raises) before the wait begins again. A terminal that cannot be read
    any more (closed) is the end of input."""
    chunks: list[bytes] = []
    while True:
        ready, _, _ = select.select([fd, wake], [], [])
        if wake in ready:  # a signal came: its handler has run by the next line
            try:
                os.read(wake, 512)
            except BlockingIOError:
                pass
            continue
        try:
            chunk = os.read(fd, 4096)  # a terminal gives at most one line a read
        except OSError:  # the terminal gone (EIO after a hang-up, SIGHUP ignored): no more input
            chunk = b""
        if not chunk:  # Ctrl-D: the end of input, or of a line not ended
            if not chunks:
                raise EOFError
            break
        chunks.append(chunk)
        if chunk.endswith(b"\n"):
            break
    line = b"".join(chunks).decode(sys.stdin.encoding or "utf-8", errors="replace")
    return line[:-1] if line.endswith("\n") else line
