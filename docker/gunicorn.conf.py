"""Gunicorn settings for the web service: `gunicorn --config docker/gunicorn.conf.py config.wsgi`.

Everything from the environment: PORT (8000), WEB_CONCURRENCY (worker processes, 2),
GUNICORN_THREADS (threads per worker, 1), GUNICORN_TIMEOUT (seconds, 30), LOG_LEVEL (INFO).
Gunicorn's own lines (start-up, worker restarts, errors) are JSON like the application's; the
access line of each request comes from the application (with its request id).
"""

import os

bind = f"0.0.0.0:{int(os.environ.get('PORT', '8000'))}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
# Synchronous workers: nothing may hold one for long (issue 30). Long-polls are answered at once
# here (only uvicorn waits), the arbiter's analysis runs on Celery, and a body must arrive within
# API_BODY_READ_SECONDS (10 s, else 408): keep that under this timeout, past which the master kills
# a worker mid-request. In production nginx reads bodies whole first (docker/nginx.conf).
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = timeout
keepalive = 5
max_requests = 2000  # recycle workers now and then (bounded memory), staggered by the jitter
max_requests_jitter = 200
if os.path.isdir("/dev/shm"):
    worker_tmp_dir = "/dev/shm"  # heartbeat files off the container's overlay filesystem
control_socket_disable = True  # gunicorn ≥ 25 would put one in $HOME (not writable in the image)

# One access line per request comes from the application (logger kierki.request, with the
# request id, status and duration); gunicorn's own would repeat it.
accesslog = None
_level = os.environ.get("LOG_LEVEL", "INFO").upper()
loglevel = _level.lower()
logconfig_dict = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "config.logging.JsonFormatter"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}},
    "root": {"level": _level, "handlers": ["console"]},
    "loggers": {
        "gunicorn.error": {"level": _level, "handlers": ["console"], "propagate": False, "qualname": "gunicorn.error"},
        "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False, "qualname": "gunicorn.access"},
    },
}
