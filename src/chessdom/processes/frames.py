"""Length-prefixed pickles over pipes: how parents and children of :mod:`chessdom.processes`
talk. Reading never blocks past a deadline, so a caller can stop a child at its limit."""

from __future__ import annotations

import os
import pickle
import select
import struct

_FRAME = struct.Struct("!I")


def write_frame(fd: int, message) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_FRAME.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view):]


class FrameReader:
    """Messages read from a pipe, each whole."""

    def __init__(self, fd: int):
        self.fd = fd
        self._buffer = bytearray()
        self.closed = False

    def read(self, timeout: float | None) -> list:
        """The messages that arrive within ``timeout`` seconds (at least one unless the
        time runs out or the writer closes the pipe)."""
        messages = self._complete()
        while not messages and not self.closed:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            if not ready:
                break
            chunk = os.read(self.fd, 1 << 16)
            if chunk:
                self._buffer += chunk
            else:
                self.closed = True
            messages = self._complete()
            if timeout is not None:
                break  # one wait per call: the caller re-reads with what is left of its time
        return messages

    def _complete(self) -> list:
        messages = []
        while len(self._buffer) >= _FRAME.size:
            (length,) = _FRAME.unpack_from(self._buffer)
            if len(self._buffer) < _FRAME.size + length:
                break
            messages.append(pickle.loads(bytes(self._buffer[_FRAME.size:_FRAME.size + length])))
            del self._buffer[:_FRAME.size + length]
        return messages
