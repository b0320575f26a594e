"""How the service meets the network: the gunicorn plumbing under the Flask application,
and nothing of what the service answers.

- :mod:`.server`: ``chessdom serve`` (and ``python -m chessdom.api``) — its options, the
  data directory's lock, the start-up recovery (requeued jobs, swept partial
  certificates), the gunicorn application, and the stop that kills every solver first;
- :mod:`.buffering_worker`: the gunicorn worker that reads each request whole on its
  event loop before a request thread takes it, and bounds what one client can hold;
- :mod:`.response_socket`: the socket a request thread writes its answer through, which
  lets go of a client that reads nothing and tells a half-closed client from one that left;
- :mod:`.wire`: the bytes the server reads and writes itself — where a request still
  arriving ends, and the problem+json answers it writes without the application.

This room sits above the rest of the service: it builds the application from
:mod:`chessdom.api.http` and opens the data directory through :mod:`chessdom.api.runtime`,
and only ``python -m chessdom.api`` and ``chessdom serve`` start it: nothing else of
chessdom imports it (``tests/test_layout.py``). Importing this package loads no gunicorn:
its modules are imported on their own."""
