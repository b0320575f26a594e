"""A gunicorn worker that reads each request whole before a thread takes it, and bounds
what any one client can hold.

gunicorn's threaded worker hands a connection to a request thread as soon as its first
byte arrives; the thread then blocks reading the rest. Sixteen clients sending a byte a
second held all sixteen threads of the default two processes, and ``/health`` stalled
behind them (measured with ``scripts/bench_slow_clients.py``). Here the worker's event
loop reads what each connection sends without blocking, chunked bodies and bodies behind
``Expect: 100-continue`` alike (:class:`~chessdom.api.serving.wire.RequestScan`), and
queues the request for a thread only once its head and body are all in, so a slow client
costs a buffer, not a thread. Its limits:

- a body announced or grown past ``max_body_bytes`` is answered 413 at once (one client
  once sent 1,000 MB that the server buffered whole);
- a request not all in after ``request_read_seconds`` is answered 408;
- what all requests being read hold together is bounded (beyond it, 503);
- an answer is written through
  :class:`~chessdom.api.serving.response_socket.ResponseSocket`, so a client that reads
  nothing is disconnected after ``write_stall_seconds``;
- closing lingers on the event loop, never blocking it (gunicorn drains a closing
  connection for up to 2 s on its loop thread);
- gunicorn's own error answers (400, 414, 431) are problem+json with the security headers.

The bytes read go back to gunicorn's own parser, which does all parsing."""

from __future__ import annotations

import errno
import selectors
import socket
import struct
import time
from dataclasses import dataclass, field
from functools import partial

from gunicorn import util
from gunicorn.workers.gthread import TConn, ThreadWorker

from chessdom.api.serving.response_socket import ResponseSocket, StalledWriters
from chessdom.api.serving.wire import CONTINUE, INCOMPLETE, TOO_LARGE, RequestScan, raw_problem

READ_CHUNK = 64 * 1024
MIN_BUFFER_BUDGET = 64 * 1024 * 1024
"""What the requests a process is reading may hold together, at least (or four bodies)."""
LINGER_SECONDS = 2.0
LINGER_BYTES = 1024 * 1024


@dataclass
class _Reading:
    scan: RequestScan
    deadline: float
    buffer: bytearray = field(default_factory=bytearray)
    registered: bool = False
    continued: bool = False


class _Connection(TConn):
    """gunicorn's connection, whose graceful close lingers on the worker's event loop."""

    def __init__(self, worker: BufferingThreadWorker, *args):
        super().__init__(*args)
        self.worker = worker

    def close(self, graceful: bool = False) -> None:
        if graceful:
            self.worker.linger(self)
        else:
            super().close()


class BufferingThreadWorker(ThreadWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.reading: dict[TConn, _Reading] = {}
        self.lingering: dict[TConn, list] = {}
        """Connections being closed: their deadline and the bytes discarded so far."""
        self.buffered = 0

    def init_process(self):
        settings = self.app.settings  # read once, by the server that forked this worker
        self.max_body = settings.max_body_bytes
        self.read_seconds = settings.request_read_seconds
        self.stall_seconds = settings.write_stall_seconds
        self.buffer_budget = max(MIN_BUFFER_BUDGET, 4 * self.max_body)
        self.stalled = StalledWriters(self.cfg.threads // 2)
        util.write_error = _write_problem  # gunicorn writes its own error answers through this
        super().init_process()

    # ---- connections ----------------------------------------------------------------

    def accept(self, listener):
        try:
            client, address = listener.accept()
        except OSError as error:
            if error.errno not in (errno.EAGAIN, errno.ECONNABORTED, errno.EWOULDBLOCK):
                raise
            return
        self.nr_conns += 1
        if not self.cfg.is_ssl:  # TLS records are not requests: left to gunicorn as they are
            # A request thread never waits longer than this for bytes this worker did not
            # vouch for (a head handed over as it is).
            client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVTIMEO, struct.pack("ll", int(self.read_seconds), 0))
            client = ResponseSocket(client, self.stall_seconds, self.stalled)
        self.enqueue_req(_Connection(self, self.cfg, client, address, listener.getsockname()))

    def enqueue_req(self, conn):
        """Called on the event loop whenever a connection has bytes for a new request."""
        if self.cfg.is_ssl:
            return super().enqueue_req(conn)
        held = conn.parser.unreader.take_buffered() if conn.parser is not None else b""
        self.reading[conn] = _Reading(RequestScan(self.max_body), time.monotonic() + self.read_seconds)
        conn.sock.setblocking(False)
        if self._receive(conn, held) or self._read_some(conn):
            return None
        self.reading[conn].registered = True
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_readable, conn))
        return None

    def handle_request(self, req, conn):
        if isinstance(conn.sock, ResponseSocket):
            conn.sock.begin(req.version)
        return super().handle_request(req, conn)

    # ---- reading ----------------------------------------------------------------------

    def _on_readable(self, conn, _client):
        self._read_some(conn)

    def _read_some(self, conn) -> bool:
        """Read what has arrived; True once the connection left the reading state."""
        try:
            chunk = conn.sock.recv(READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            chunk = b""
        if not chunk:  # the client left before its request was complete
            self._stop_reading(conn)
            self.nr_conns -= 1
            conn.close()
            return True
        return self._receive(conn, chunk)

    def _receive(self, conn, chunk: bytes) -> bool:
        reading = self.reading[conn]
        if self.buffered + len(chunk) > self.buffer_budget:
            self._refuse(conn, 503, "the server is reading too many requests at once; retry shortly",
                         {"Retry-After": "1"})
            return True
        reading.buffer += chunk
        self.buffered += len(chunk)
        verdict = reading.scan.feed(reading.buffer)
        if verdict == INCOMPLETE:
            self._continue_if_expected(conn, reading)
            return False
        if verdict == TOO_LARGE:
            self._refuse(conn, 413, f"the request body is larger than the limit of {self.max_body} bytes")
            return True
        buffer = self._stop_reading(conn).buffer  # complete, or HAND_OVER: gunicorn decides
        conn.init()
        conn.parser.unreader.unread(bytes(buffer))
        conn.data_ready = True
        super().enqueue_req(conn)
        return True

    def _continue_if_expected(self, conn, reading: _Reading) -> None:
        """Answer ``Expect: 100-continue`` once the head is in and the body may come."""
        scan = reading.scan
        if scan.expects_continue and not reading.continued and scan.head_end is not None:
            reading.continued = True
            conn.sock.continue_sent = _send_now(conn, CONTINUE)

    def _stop_reading(self, conn) -> _Reading:
        reading = self.reading.pop(conn)
        self.buffered -= len(reading.buffer)
        if reading.registered:
            self.poller.unregister(conn.sock)
        return reading

    def _refuse(self, conn, status: int, detail: str, headers: dict | None = None) -> None:
        """Answer ``status`` at once, unread body and all, and close the connection."""
        self._stop_reading(conn)
        _send_now(conn, raw_problem(status, detail, headers=headers))
        self.nr_conns -= 1
        self.linger(conn)

    # ---- closing ----------------------------------------------------------------------

    def linger(self, conn) -> None:
        """Close ``conn`` once its client has had a moment to read what was sent: shut our
        side, discard what it still sends, and close at its end of file, after
        LINGER_SECONDS or past LINGER_BYTES (closing at once could reset the connection
        before the client read its answer)."""
        try:
            conn.sock.shutdown(socket.SHUT_WR)
            conn.sock.setblocking(False)
        except OSError:
            util.close(conn.sock)
            return
        self.lingering[conn] = [time.monotonic() + LINGER_SECONDS, 0]
        self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_lingering, conn))

    def _on_lingering(self, conn, _client) -> None:
        try:
            data = conn.sock.recv(READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        self.lingering[conn][1] += len(data)
        if not data or self.lingering[conn][1] > LINGER_BYTES:
            self._closed(conn)

    def _closed(self, conn) -> None:
        del self.lingering[conn]
        self.poller.unregister(conn.sock)
        util.close(conn.sock)

    def murder_pending(self):
        super().murder_pending()
        now = time.monotonic()
        for conn in [conn for conn, (deadline, _) in self.lingering.items() if deadline < now]:
            self._closed(conn)
        for conn in [conn for conn, reading in self.reading.items() if reading.deadline < now or not self.alive]:
            if self.alive:  # a stopping worker serves no request still coming in
                self._refuse(conn, 408, f"the request did not arrive whole within {self.read_seconds:g} s")
            else:
                self._stop_reading(conn)
                self.nr_conns -= 1
                conn.close()


def _send_now(conn, data: bytes) -> bool:
    """Write a short answer from the event loop without waiting; False if it did not fit
    (a client that reads nothing)."""
    raw = conn.sock.raw if isinstance(conn.sock, ResponseSocket) else conn.sock
    try:
        return raw.send(data, socket.MSG_DONTWAIT) == len(data)
    except OSError:
        return False


def _write_problem(sock, status_int: int, reason: str, mesg: str) -> None:
    """gunicorn's own error answers (a malformed head 400, 414, 431, 501), in
    problem+json with the security headers, like the application's."""
    util.write_nonblock(sock, raw_problem(status_int, mesg or reason))
