"""The body limit holds while the body is read (issue 11, finding 4), under uvicorn (ASGI) and
gunicorn (WSGI): a 50 MB upload to an anonymous endpoint, chunked or with its Content-Length, is
413 ``payload_too_large`` having read at most the limit plus a buffer, and none of it on disk.

What the server read is measured: the bytes the application pulled from the server — under
uvicorn (in this process) from ``receive``, under gunicorn from ``wsgi.input`` (counting_wsgi.py,
in the worker). The servers themselves read ahead by at most a buffer (uvicorn pauses reading
past 64 KiB unread, gunicorn reads 8 KiB at a time)."""

from __future__ import annotations

import json
import socket
import tempfile
import threading
import time
from pathlib import Path

import pytest
from ops_helpers import Service, compose, free_port, local_command, production_env, run, wait_for
from support.servers import AsgiServer

LIMIT = 1024 * 1024  # API_MAX_BODY_BYTES's default
UPLOAD = 50 * 1024 * 1024
CHUNK = 64 * 1024
BUFFER = 512 * 1024  # what a server may read past the limit: its socket reads, one message of uvicorn's
ANONYMOUS = "/api/v1/auth/token/"
SLOW_LIMIT = 2  # API_BODY_READ_SECONDS of these servers


class Upload:
    """A POST of ``total`` bytes over a raw socket, chunked or with Content-Length, sent while a
    thread reads the answer: ``sent`` is what the client got into the connection before the
    server answered or closed it."""

    def __init__(
        self, port: int, *, chunked: bool, total: int = UPLOAD, host: str = "127.0.0.1", headers: dict | None = None
    ):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.answer = b""
        self.sent = 0
        reader = threading.Thread(target=self._read, daemon=True)
        framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {total}"
        extra = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
        self.sock.sendall(
            f"POST {ANONYMOUS} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"{framing}\r\n{extra}\r\n".encode()
        )
        reader.start()
        block = b"[" + b" " * (CHUNK - 1)
        try:
            while self.sent < total and not self.answer:
                self.sock.sendall(f"{len(block):x}\r\n".encode() + block + b"\r\n" if chunked else block)
                self.sent += len(block)
            if chunked and not self.answer:
                self.sock.sendall(b"0\r\n\r\n")  # the last chunk
        except OSError:  # the server closed the connection: it will read no more
            pass
        reader.join(20)
        self.sock.close()

    def _read(self):
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    return
                self.answer += data
        except OSError:
            return

    @property
    def status(self) -> int:
        assert self.answer, "no answer"
        return int(self.answer.split(b" ", 2)[1])

    @property
    def problem(self) -> dict:
        return json.loads(self.answer.split(b"\r\n\r\n", 1)[1])


# --- uvicorn (the live service: config.asgi) ------------------------------------------------------


@pytest.fixture
def uvicorn_counting(monkeypatch):
    """config.asgi's application under uvicorn, with the bytes it pulled from ``receive`` counted,
    and every temporary file that rolled over to disk recorded."""
    import config.asgi

    pulled = {"bytes": 0, "rolled_to_disk": 0}
    application = config.asgi.application

    async def counting(scope, receive, send):
        async def counted():
            message = await receive()
            pulled["bytes"] += len(message.get("body", b""))
            return message

        await application(scope, counted, send)

    rollover = tempfile.SpooledTemporaryFile.rollover

    def recorded_rollover(self):
        pulled["rolled_to_disk"] += 1
        return rollover(self)

    monkeypatch.setattr(config.asgi, "application", counting)
    monkeypatch.setattr(tempfile.SpooledTemporaryFile, "rollover", recorded_rollover)
    server = AsgiServer()
    yield server, pulled
    server.stop()


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "content-length"])
def test_a_50_mb_upload_under_uvicorn_is_413_having_read_at_most_the_limit_and_a_buffer(uvicorn_counting, chunked):
    server, pulled = uvicorn_counting

    upload = Upload(server.port, chunked=chunked)

    assert upload.status == 413 and upload.problem["code"] == "payload_too_large"
    assert upload.problem["limit"] == LIMIT
    assert pulled["bytes"] <= LIMIT + BUFFER  # chunked: refused on the message that passed the limit
    if not chunked:
        assert pulled["bytes"] == 0  # Content-Length said so: nothing read
    assert pulled["rolled_to_disk"] == 0
    assert upload.sent < UPLOAD  # refused long before the client was done
    print(
        f"\nuvicorn, {'chunked' if chunked else 'Content-Length'}: the application read {pulled['bytes']} "
        f"bytes, the client got {upload.sent} bytes into the connection of {UPLOAD}"
    )


def test_a_chunked_body_within_the_limit_still_reaches_the_view_under_uvicorn(uvicorn_counting):
    """DRF reads no body without a Content-Length: the limit adds it once the chunked body is read."""
    server, _ = uvicorn_counting

    upload = Upload(server.port, chunked=True, total=CHUNK)  # "[" and spaces: not JSON

    assert upload.status == 400 and upload.problem["code"] == "parse_error"


# --- gunicorn (the web service: config.wsgi) -------------------------------------------------------


@pytest.fixture(scope="module")
def gunicorn(tmp_path_factory):
    """The web command, one worker, serving config.wsgi through counting_wsgi.py."""
    tmp = tmp_path_factory.mktemp("body-limit")
    port = free_port()
    env = production_env(
        tmp,
        PORT=str(port),
        WEB_CONCURRENCY="1",
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_ALLOWED_HOSTS="127.0.0.1",
        API_BODY_READ_SECONDS=str(SLOW_LIMIT),
    )
    env["PYTHONPATH"] = f"{env['PYTHONPATH']}:{Path(__file__).parent}"
    migrate = run(local_command(compose()["services"]["migrate"]["command"], tmp), env)
    assert migrate.returncode == 0, migrate.stderr
    command = [
        ("counting_wsgi:application" if arg == "config.wsgi" else arg)
        for arg in local_command(compose()["services"]["web"]["command"], tmp)
    ]
    web = Service(command, env, tmp / "web.log")
    wait_for(
        lambda: Upload(port, chunked=False, total=2).answer if _listening(port) else None,
        60,
        "gunicorn to answer",
        web.log,
    )
    yield port, web
    web.stop()


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def _last_read(web: Service) -> int:
    counts = [
        json.loads(line)["wsgi_input_read"]
        for line in web.output().splitlines()
        if line.startswith('{"wsgi_input_read"')
    ]
    return counts[-1]


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "content-length"])
def test_a_50_mb_upload_under_gunicorn_is_413_having_read_at_most_the_limit_and_a_buffer(gunicorn, chunked):
    port, web = gunicorn

    upload = Upload(port, chunked=chunked)

    read = _last_read(web)
    assert upload.status == 413 and upload.problem["code"] == "payload_too_large", web.output()[-2000:]
    assert read <= LIMIT + 1  # chunked: one byte past the limit tells; with Content-Length, none read
    if not chunked:
        assert read == 0
    assert upload.sent < UPLOAD
    print(
        f"\ngunicorn, {'chunked' if chunked else 'Content-Length'}: the application read {read} bytes, the "
        f"client got {upload.sent} bytes into the connection of {UPLOAD}"
    )


def test_a_chunked_body_within_the_limit_is_read_whole_under_gunicorn(gunicorn):
    """Django reads CONTENT_LENGTH bytes, none of a chunked body: the limit hands it on measured."""
    port, web = gunicorn

    upload = Upload(port, chunked=True, total=CHUNK)

    assert upload.status == 400 and upload.problem["code"] == "parse_error"
    assert _last_read(web) == CHUNK


# --- a body that does not come (issue 30, finding 2: slowloris) -------------------------------------------


def trickle(port: int, *, chunked: bool, seconds: float) -> tuple[bytes, float]:
    """A POST announcing 1000 bytes (or chunked) whose body comes a byte every 0.2 s, then stops,
    for at most ``seconds``: the server's answer and how long after the headers it came."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=seconds + 5)
    framing = "Transfer-Encoding: chunked" if chunked else "Content-Length: 1000"
    sock.sendall(
        f"POST {ANONYMOUS} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n{framing}\r\n\r\n".encode()
    )
    started = time.monotonic()
    answer, took = b"", None
    sock.settimeout(0.2)
    try:
        for _ in range(int(seconds / 0.2)):
            if _ < 10 and not answer:  # ten bytes, then silence
                sock.sendall(b"1\r\n \r\n" if chunked else b" ")
            try:
                data = sock.recv(65536)
            except TimeoutError:
                continue
            if not data:
                break  # the whole answer: the server closes the connection after it
            if not answer:
                took = time.monotonic() - started
            answer += data
    except OSError:  # the server closed the connection
        pass
    finally:
        sock.close()
    return answer, took if took is not None else time.monotonic() - started


def _status_and_problem(answer: bytes) -> tuple[int, dict]:
    assert answer, "no answer"
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split(b" ", 2)[1]), json.loads(body) if body.strip().startswith(b"{") else {}


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "content-length"])
def test_a_trickled_body_under_gunicorn_is_408_at_the_read_limit_not_the_worker_timeout(gunicorn, chunked):
    port, web = gunicorn

    answer, took = trickle(port, chunked=chunked, seconds=15)

    status, problem = _status_and_problem(answer)
    assert status == 408, web.output()[-2000:]
    assert problem["code"] == "request_timeout" and problem["limit_seconds"] == SLOW_LIMIT
    assert SLOW_LIMIT - 0.5 < took < SLOW_LIMIT + 3  # gunicorn's worker timeout is 30 s
    assert b"Connection: close" in answer


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "content-length"])
def test_a_trickled_body_under_uvicorn_is_408_at_the_read_limit(uvicorn_counting, settings, chunked):
    settings.API_BODY_READ_SECONDS = SLOW_LIMIT
    server, _ = uvicorn_counting

    answer, took = trickle(server.port, chunked=chunked, seconds=15)

    status, problem = _status_and_problem(answer)
    assert status == 408 and problem["code"] == "request_timeout"
    assert SLOW_LIMIT - 0.5 < took < SLOW_LIMIT + 3


def test_a_body_sent_at_once_is_read_as_before_under_gunicorn(gunicorn):
    port, _ = gunicorn

    upload = Upload(port, chunked=False, total=CHUNK)

    assert upload.status == 400 and upload.problem["code"] == "parse_error"
