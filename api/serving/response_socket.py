"""The connection's socket as a request thread writes its answer, bounded so that a client
cannot hold the thread: one that reads nothing for ``stall_seconds`` is disconnected, and
while half the threads already wait on such clients, the next one is disconnected at once
(24 clients that never read an 18 MB ``proof.drat`` once held every thread, and
``/health`` stalled behind them).

It also tells a half-closed connection (a client that sent its request and shut its
sending side, as ``nc -N`` and some proxies do) from one whose client left: both read as
at end of file, but only a client that left answers bytes with a reset. So on end of file
the first bytes of the status line (``HTTP/1.1 ``) go out early, and the rest of the
answer follows them whenever it is ready (:meth:`ResponseSocket.probe_hang_up`)."""

from __future__ import annotations

import errno
import select
import socket
import threading

from chessdom.api.serving.wire import CONTINUE

SENDFILE_CHUNK = 256 * 1024
TCP_CLOSE = 7
"""``tcpi_state`` of a connection reset by its peer (Linux's ``TCP_CLOSE``)."""


class WriteStalled(BrokenPipeError):
    """The client read nothing of its answer in time (gunicorn closes quietly on EPIPE)."""

    def __init__(self, detail: str):
        super().__init__(errno.EPIPE, detail)


class StalledWriters:
    """How many request threads of a process wait on a client that reads nothing; at most
    ``limit`` may."""

    def __init__(self, limit: int):
        self.limit = max(1, limit)
        self.waiting = 0
        self._lock = threading.Lock()

    def wait_writable(self, sock: socket.socket, seconds: float) -> bool:
        """Wait up to ``seconds`` until ``sock`` takes more bytes; False at once when
        ``limit`` threads wait already, or when the time runs out."""
        with self._lock:
            if self.waiting >= self.limit:
                return False
            self.waiting += 1
        try:
            poller = select.poll()
            poller.register(sock.fileno(), select.POLLOUT)
            return bool(poller.poll(seconds * 1000))
        finally:
            with self._lock:
                self.waiting -= 1


class ResponseSocket:
    """Wraps a client socket for gunicorn; everything but writing passes through."""

    def __init__(self, sock: socket.socket, stall_seconds: float, stalled: StalledWriters):
        self._sock = sock
        self._stall_seconds = stall_seconds
        self._stalled = stalled
        self.continue_sent = False
        """The server answered ``100 Continue`` itself while it read the body."""
        self._status_prefix = b"HTTP/1.1 "
        self._prefix_sent = False

    def __getattr__(self, name):
        return getattr(self._sock, name)

    @property
    def raw(self) -> socket.socket:
        return self._sock

    def begin(self, version: tuple[int, int]) -> None:
        """A new request of HTTP ``version`` is about to be answered."""
        self._status_prefix = b"HTTP/%d.%d " % version
        self._prefix_sent = False

    def probe_hang_up(self) -> None:
        """Send the first bytes of the answer's status line now (once): a client that left
        answers them with a reset, which the next read reports; a half-closed one reads
        them as the start of its answer."""
        if not self._prefix_sent:
            self._write(memoryview(self._status_prefix))
            self._prefix_sent = True

    def client_left(self) -> bool:
        """Whether the client answered the probe with a reset. (Once its end of file is
        read, ``recv`` reports 0 bytes even after a reset, so the state is asked instead.)"""
        self.probe_hang_up()
        try:
            info = self._sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 1)
        except OSError:
            return True
        return info[0] == TCP_CLOSE

    def send(self, data, flags: int = 0) -> int:
        if self.continue_sent and bytes(data) == CONTINUE:  # gunicorn's own, after the server's
            self.continue_sent = False
            return len(data)
        self.sendall(data)
        return len(data)

    def sendall(self, data, flags: int = 0) -> None:
        view = memoryview(data).cast("B")
        if self._prefix_sent:
            prefix = self._status_prefix
            if bytes(view[:len(prefix)]) == prefix:
                view = view[len(prefix):]
            self._prefix_sent = False
        self._write(view)

    def sendfile(self, file, offset: int = 0, count: int | None = None) -> int:
        file.seek(offset)
        sent = 0
        while count is None or sent < count:
            chunk = file.read(SENDFILE_CHUNK if count is None else min(SENDFILE_CHUNK, count - sent))
            if not chunk:
                break
            self.sendall(chunk)
            sent += len(chunk)
        return sent

    def _write(self, view: memoryview) -> None:
        while view:
            try:
                sent = self._sock.send(view, socket.MSG_DONTWAIT)
            except (BlockingIOError, InterruptedError):
                sent = 0
            if sent:
                view = view[sent:]
            elif not self._stalled.wait_writable(self._sock, self._stall_seconds):
                raise WriteStalled(f"the client read nothing of its answer for {self._stall_seconds:g} s, "
                                   "or too many others did not either")
