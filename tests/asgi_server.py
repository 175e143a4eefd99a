"""``config.asgi:application`` under uvicorn, in a thread of the test process (so it sees the test
database, SQLite in memory included): the live-update tests and the stream fuzzing use it."""

from __future__ import annotations

import socket
import threading
import time

import uvicorn


class AsgiServer:
    """``config.asgi:application`` under uvicorn, in a thread of the test process."""

    def __init__(self):
        from config.asgi import application

        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(
            application, lifespan="off", log_level="warning", access_log=False, timeout_graceful_shutdown=1
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [sock]}, daemon=True, name="uvicorn")
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.01)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)
