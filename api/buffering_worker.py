"""A gunicorn worker that reads each request whole before a thread takes it.

gunicorn's threaded worker hands a connection to a request thread as soon as its first
byte arrives; the thread then blocks reading the rest. Sixteen clients sending a byte a
second held all sixteen threads of the default two processes, and ``/health`` stalled
behind them (measured with ``scripts/bench_slow_clients.py``). Here the worker's event
loop reads what each connection sends without blocking and queues the request for a
thread only once its head and body are all in, so a slow client costs a buffer, not a
thread; one that takes longer than :data:`REQUEST_READ_SECONDS` for a request is
disconnected. The bytes read go back to gunicorn's own parser, which does all parsing.
"""

from __future__ import annotations

import re
import selectors
import time
from functools import partial

from gunicorn.workers.gthread import ThreadWorker

REQUEST_READ_SECONDS = 30.0
HEAD_LIMIT = 64 * 1024
"""Larger heads go to gunicorn's parser at once, which rejects them."""
READ_CHUNK = 64 * 1024
_CONTENT_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d+)", re.I)
_HANDED_OVER_AT_HEAD = re.compile(rb"\r\n(?:transfer-encoding|expect):", re.I)
"""Chunked bodies have no length to wait for, and a client that expects ``100 Continue``
sends its body only after gunicorn's parser has answered it."""


class BufferingThreadWorker(ThreadWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.reading: dict = {}
        """Connections whose request is still coming in: buffer and deadline."""

    def enqueue_req(self, conn):
        """Called on the event loop whenever a connection has bytes for a new request."""
        if self.cfg.is_ssl:  # the bytes on the wire are TLS records, not a request
            return super().enqueue_req(conn)
        held = conn.parser.unreader.take_buffered() if conn.parser is not None else b""
        self.reading[conn] = (bytearray(held), time.monotonic() + REQUEST_READ_SECONDS)
        conn.sock.setblocking(False)
        if not self._read_some(conn):
            self.poller.register(conn.sock, selectors.EVENT_READ, partial(self._on_readable, conn))

    def _on_readable(self, conn, _client):
        if self._read_some(conn):
            self.poller.unregister(conn.sock)

    def _read_some(self, conn) -> bool:
        """Read what has arrived; True once the connection left the reading state."""
        buffer, _ = self.reading[conn]
        try:
            chunk = conn.sock.recv(READ_CHUNK)
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            chunk = b""
        if not chunk:  # the client left before its request was complete
            self._drop(conn)
            return True
        buffer += chunk
        if not _complete(buffer):
            return False
        del self.reading[conn]
        conn.init()
        conn.parser.unreader.unread(bytes(buffer))
        conn.data_ready = True
        super().enqueue_req(conn)
        return True

    def _drop(self, conn) -> None:
        del self.reading[conn]
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self):
        super().murder_pending()
        now = time.monotonic()
        # A stopping worker serves no request still coming in.
        for conn in [conn for conn, (_, deadline) in self.reading.items() if deadline < now or not self.alive]:
            try:
                self.poller.unregister(conn.sock)
            except (KeyError, ValueError, OSError):
                pass
            self._drop(conn)


def _complete(buffer: bytearray) -> bool:
    """Whether ``buffer`` holds a whole request head and the body it announces."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return len(buffer) > HEAD_LIMIT
    head = bytes(buffer[:end + 2])
    if _HANDED_OVER_AT_HEAD.search(head):
        return True
    length = _CONTENT_LENGTH.search(head)
    return length is None or len(buffer) >= end + 4 + int(length.group(1))
