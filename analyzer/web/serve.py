"""Listening and serving: the socket ``crib serve`` binds, and the server that runs the app on it.

:func:`listen` binds a host and port before anything else starts, so that a port in use or a
host that does not resolve is one line of the command (:class:`ServeError`), not a server's
traceback. :func:`serve` runs the application on that socket with uvicorn until interrupted;
:class:`BackgroundServer` runs it in a thread on a free loopback port, for the browser tests,
the screenshots and the latency benchmark.
"""

from __future__ import annotations

import ipaddress
import socket
import threading
import time

__all__ = ["BackgroundServer", "ServeError", "is_loopback", "listen", "serve", "url_of"]


class ServeError(ValueError):
    """A host or port that cannot be listened on; the message says why, in one line."""


def listen(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` and listening (``port`` 0: any free port).

    Raises
    ------
    ServeError
        If the host does not resolve or the address cannot be bound (in use, not this machine's,
        a privileged port).
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError, OverflowError) as exc:
        raise ServeError(f"cannot resolve host {host!r} ({exc})") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise ServeError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    return sock


def is_loopback(sock: socket.socket) -> bool:
    """Whether ``sock`` is bound to a loopback address (reachable from this machine only)."""
    return ipaddress.ip_address(sock.getsockname()[0]).is_loopback


def url_of(sock: socket.socket) -> str:
    """The address of the pages served on ``sock``: ``http://127.0.0.1:8000``."""
    host, port = sock.getsockname()[:2]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def _server(app):
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame):
            # Ctrl-C: the long answers waiting or computing say at once that nobody waits for
            # them (analyzer.web.work), so that the requests end and the server stops now
            work = getattr(getattr(app, "state", None), "work", None)
            if work is not None:
                work.closing = True
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    return Server(config)


def serve(app, sock: socket.socket, on_start=None) -> None:
    """Run ``app`` on ``sock`` until interrupted (Ctrl-C); ``on_start()`` once it accepts."""
    server = _server(app)
    if on_start is not None:
        def wait():
            while not server.started and not server.should_exit:
                time.sleep(0.02)
            if server.started:
                on_start()

        threading.Thread(target=wait, daemon=True).start()
    server.run(sockets=[sock])


class BackgroundServer:
    """``app`` served in a thread on a free port of 127.0.0.1, as a context manager.

    >>> import json
    >>> from urllib.request import urlopen
    >>> from analyzer.web.app import create_app
    >>> with BackgroundServer(create_app()) as url:
    ...     print(json.load(urlopen(url + "/api/count?hand=5H+5C+5S+JD&starter=5D"))["total"])
    29
    """

    def __init__(self, app, timeout: float = 30.0):
        self.app = app
        self.timeout = timeout
        self.url = ""

    def __enter__(self) -> str:
        self._sock = listen("127.0.0.1", 0)
        self.url = url_of(self._sock)
        self._server = _server(self.app)
        self._thread = threading.Thread(target=self._server.run,
                                        kwargs={"sockets": [self._sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + self.timeout
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                self.__exit__(None, None, None)
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self.url

    def __exit__(self, *exc) -> None:
        self._server.should_exit = True
        self._thread.join(self.timeout)
        self._sock.close()
