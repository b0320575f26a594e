"""Slow clients hold no request thread: a server process with two threads answers
/health while four clients trickle their requests in, and a request that arrives a byte
at a time is still served whole."""

import socket
import threading
import time

import pytest
import requests

from chessdom.scripts.bench_slow_clients import SLOW_REQUEST, trickle
from chessdom.scripts.live_server import ServerProcess

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(tmp_path):
    live = ServerProcess(tmp_path / "data", workers=1, threads=2).start()
    yield live
    live.stop()


def test_health_answers_while_more_slow_clients_than_threads_trickle_in(server):
    stop = threading.Event()
    clients = [threading.Thread(target=trickle, args=(server.port, 0.5, stop)) for _ in range(4)]
    for client in clients:
        client.start()
    try:
        time.sleep(1.0)  # every slow client has sent its first bytes
        for _ in range(10):
            # Each on a fresh connection: with the threads held, it would wait out the timeout.
            assert requests.get(server.url + "/health", timeout=5).json()["status"] == "ok"
    finally:
        stop.set()
        for client in clients:
            client.join()


def test_a_request_sent_a_byte_at_a_time_is_answered_whole(server):
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
        for byte in SLOW_REQUEST:
            connection.sendall(bytes([byte]))
            time.sleep(0.002)
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            answer += connection.recv(65536)
    assert answer.startswith(b"HTTP/1.1 200") and b'"pieces":1' in answer.replace(b" ", b"")
