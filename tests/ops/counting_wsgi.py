"""``config.wsgi``'s application with the bytes it read from ``wsgi.input`` written to stderr after
each request (a line ``{"wsgi_input_read": N}``): what the body-limit test measures under gunicorn."""

import json
import sys

from config.wsgi import application as project_application


class CountingInput:
    def __init__(self, stream):
        self.stream, self.count = stream, 0

    def read(self, size=-1):
        return self._counted(self.stream.read(size) if size is not None and size >= 0 else self.stream.read())

    def readline(self, size=-1):
        return self._counted(self.stream.readline(size))

    def _counted(self, data: bytes) -> bytes:
        self.count += len(data)
        return data


def application(environ, start_response):
    counting = CountingInput(environ["wsgi.input"])
    environ["wsgi.input"] = counting
    try:
        return project_application(environ, start_response)
    finally:
        print(json.dumps({"wsgi_input_read": counting.count}), file=sys.stderr, flush=True)
