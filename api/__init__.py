"""The chessdom JSON service (Flask). Build it with :func:`create_app`; serve it with
``chessdom serve`` (or ``python -m chessdom.api``).

Its rooms, from the network in (each imports only those after it; ``tests/test_layout.py``):

- :mod:`.serving` — the gunicorn plumbing: the server command, its data directory's lock
  and start-up recovery, the worker that reads each request whole, the bounded answer
  socket, and the error answers the server writes itself;
- :mod:`.http` — the Flask application: the app factory, routes, errors, the OpenAPI
  docs, the Board lab, certificate downloads (the only place ids become URLs), and
  ``http/answers.py``, the one place a runtime answer becomes a client's JSON;
- the declarations: :mod:`.kinds` declares each problem kind once (request, job, task,
  cache, history) and turns a request into the runtime's call; :mod:`.requests` (by kind)
  and :mod:`.responses` are the request and response models of the OpenAPI document;
- :mod:`.runtime` — runs calls and returns typed answers: worker processes, solver slots,
  the job runner, the SQLite store and the certificate store.

The service stands on the library and the models below it, beside ``chessdom.scripts``,
which never imports it (a script that needs a server starts one as a process)."""

if __name__ != "chessdom.api":  # pragma: no cover - the folder is mapped into the chessdom namespace
    raise ImportError("import this package as chessdom.api")

from chessdom.api.http.app import create_app

__all__ = ["create_app"]
