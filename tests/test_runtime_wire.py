"""What a client can send and how it reads, from outside with plain sockets (issue 20,
items 1, 2, 9 and 10): a body over the limit is refused as soon as that is known, chunked
or not; slow chunked bodies and bodies behind `Expect: 100-continue` hold no thread; a
client that reads nothing of a large answer is let go; a half-closed client gets its
answer; and the errors the HTTP server writes itself are problem+json."""

import json
import socket
import threading
import time
import uuid

import pytest
import requests

from chessdom.scripts.live_server import ServerProcess

pytestmark = pytest.mark.e2e

MAX_BODY = 64 * 1024
HEAD = b"Host: 127.0.0.1\r\nContent-Type: application/json\r\n"
SMALL = json.dumps({"size": 5, "piece": "rook"}).encode()


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """One server process with two request threads: any thread held shows at once."""
    env = {"CHESSDOM_MAX_BODY_BYTES": str(MAX_BODY), "CHESSDOM_REQUEST_READ_SECONDS": "3",
           "CHESSDOM_WRITE_STALL_SECONDS": "1"}
    live = ServerProcess(tmp_path_factory.mktemp("wire") / "data", workers=1, threads=2, env=env).start()
    yield live
    live.stop()


def connect(server, timeout=10.0):
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=timeout)
    return connection


def read_answer(connection) -> bytes:
    """Everything until the server closes, or one whole answer with a Content-Length."""
    data = b""
    while True:
        try:
            chunk = connection.recv(65536)
        except ConnectionResetError:
            return data
        if not chunk:
            return data
        data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        for line in head.split(b"\r\n"):
            if line.lower().startswith(b"content-length:") and len(body) >= int(line.split(b":")[1]):
                if not head.startswith(b"HTTP/1.1 100"):
                    return data


def test_a_body_announced_over_the_limit_is_refused_before_it_is_sent(server):
    with connect(server) as connection:
        connection.sendall(b"POST /domination HTTP/1.1\r\n" + HEAD + b"Content-Length: 1000000000\r\n\r\n")
        answer = read_answer(connection)
        assert answer.startswith(b"HTTP/1.1 413") and b"application/problem+json" in answer
        assert b"Connection: close" in answer and connection.recv(10) == b""


def test_a_chunked_body_over_the_limit_is_413_while_it_is_still_coming(server):
    with connect(server) as connection:
        connection.sendall(b"POST /domination HTTP/1.1\r\n" + HEAD + b"Transfer-Encoding: chunked\r\n\r\n")
        for _ in range(MAX_BODY // 4096 + 1):
            connection.sendall(b"1000\r\n" + b" " * 4096 + b"\r\n")
        answer = read_answer(connection)
    assert answer.startswith(b"HTTP/1.1 413") and b'"body_too_large"' in answer


def test_a_chunked_body_trickled_in_is_answered_whole(server):
    with connect(server) as connection:
        connection.sendall(b"POST /domination HTTP/1.1\r\n" + HEAD + b"Transfer-Encoding: chunked\r\n\r\n")
        for byte in SMALL:
            connection.sendall(b"1\r\n" + bytes([byte]) + b"\r\n")
            time.sleep(0.005)
        connection.sendall(b"0\r\n\r\n")
        answer = read_answer(connection)
    assert answer.startswith(b"HTTP/1.1 200") and b'"value":5' in answer


def test_expect_100_continue_is_answered_once_and_refused_at_once_when_too_large(server):
    with connect(server) as connection:
        connection.sendall(b"POST /domination HTTP/1.1\r\n" + HEAD + b"Expect: 100-continue\r\n"
                           b"Content-Length: %d\r\n\r\n" % len(SMALL))
        assert connection.recv(1024) == b"HTTP/1.1 100 Continue\r\n\r\n"
        connection.sendall(SMALL)
        answer = read_answer(connection)
        assert answer.startswith(b"HTTP/1.1 200") and b"100 Continue" not in answer
    with connect(server) as connection:
        connection.sendall(b"POST /domination HTTP/1.1\r\n" + HEAD + b"Expect: 100-continue\r\n"
                           b"Content-Length: %d\r\n\r\n" % (MAX_BODY + 1))
        assert read_answer(connection).startswith(b"HTTP/1.1 413")


def test_slow_chunked_and_expecting_clients_hold_no_thread(server):
    stop = threading.Event()

    def chunked_trickle():
        with connect(server, timeout=30) as connection:
            connection.sendall(b"POST /verify HTTP/1.1\r\n" + HEAD + b"Transfer-Encoding: chunked\r\n\r\n")
            while not stop.wait(0.5):
                connection.sendall(b"1\r\n \r\n")

    def expecting_silence():
        with connect(server, timeout=30) as connection:
            connection.sendall(b"POST /verify HTTP/1.1\r\n" + HEAD + b"Expect: 100-continue\r\n"
                               b"Content-Length: 100\r\n\r\n")
            stop.wait(30)

    clients = [threading.Thread(target=target) for target in (chunked_trickle, expecting_silence) * 3]
    for client in clients:
        client.start()
    try:
        time.sleep(1.0)
        for _ in range(10):
            assert requests.get(server.url + "/health", timeout=5).status_code == 200
    finally:
        stop.set()
        for client in clients:
            client.join()


def test_a_request_not_in_whole_within_the_read_time_is_answered_408(server):
    with connect(server) as connection:
        connection.sendall(b"POST /domination HTTP/1.1\r\n" + HEAD + b"Content-Length: 100\r\n\r\n{")
        started = time.monotonic()
        answer = read_answer(connection)
    assert answer.startswith(b"HTTP/1.1 408") and time.monotonic() - started < 8


@pytest.mark.parametrize("request_bytes, status", [
    (b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header: x\r\n\r\n", b"400"),
    (b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", b"414"),
    (b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(200)) + b"\r\n",
     b"431"),
])
def test_the_errors_the_http_server_writes_itself_are_problem_json(server, request_bytes, status):
    with connect(server) as connection:
        connection.sendall(request_bytes)
        answer = read_answer(connection)
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 " + status)
    assert b"Content-Type: application/problem+json" in head and b"X-Content-Type-Options: nosniff" in head
    assert b"Content-Security-Policy: default-src 'none'" in head
    assert json.loads(body)["status"] == int(status)


def test_a_half_closed_client_gets_its_answer(server):
    body = json.dumps({"size": 7, "piece": "queen", "cache": False}).encode()
    with connect(server, timeout=60) as connection:
        connection.sendall(b"POST /domination HTTP/1.1\r\n" + HEAD + b"Content-Length: %d\r\n\r\n" % len(body) + body)
        connection.shutdown(socket.SHUT_WR)  # as `nc -N` and some proxies do
        answer = read_answer(connection)
    assert answer.startswith(b"HTTP/1.1 200") and json.loads(answer.partition(b"\r\n\r\n")[2])["value"] == 4


def test_clients_that_never_read_a_large_answer_are_let_go(server):
    certificate = server.data_dir / "certificates" / uuid.uuid4().hex
    certificate.mkdir(parents=True)
    (certificate / "manifest.json").write_text("{}")
    (certificate / "proof.drat").write_bytes(b"1 2 -3 0\n" * 4_000_000)  # 36 MB
    readers = []
    for _ in range(4):
        connection = socket.socket()
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        connection.connect(("127.0.0.1", server.port))
        connection.sendall(f"GET /certificates/{certificate.name}/proof.drat HTTP/1.1\r\n"
                           "Host: 127.0.0.1\r\n\r\n".encode())
        readers.append(connection)
    try:
        time.sleep(0.5)
        for _ in range(10):
            assert requests.get(server.url + "/health", timeout=5).status_code == 200
        time.sleep(2.0)  # past the stall limit: the server has let every one of them go
        for connection in readers:
            connection.settimeout(10)
            received = 0
            try:
                while chunk := connection.recv(1 << 20):
                    received += len(chunk)
            except ConnectionResetError:
                pass
            assert received < 36_000_000
    finally:
        for connection in readers:
            connection.close()
