"""JSON logs: one object per line, each carrying the id of the request (or task) it belongs to.

- ``request_id``: a context variable, set by ``config.middleware.RequestIDMiddleware`` for the
  length of a request (up to ``request_finished``, so Django's own ``django.request`` lines
  carry it too), and in a Celery task to the id of the request that queued it.
- ``JsonFormatter``: ``time`` (UTC, ISO 8601, ms), ``level``, ``logger``, ``message``,
  ``request_id``, then ``task_id``/``task_name`` inside a Celery task, ``exc`` (the traceback)
  when there is one, and any ``extra={...}`` fields.
- ``logging_config(...)``: the ``LOGGING`` dict of the settings (console only).
- Celery: the worker and beat take the same ``LOGGING`` instead of their own format
  (``setup_logging``); the request id rides in a task header (``before_task_publish``) and is
  restored around the task (``task_prerun``/``task_postrun``).

Imports no settings: gunicorn's master (docker/gunicorn.conf.py) uses the formatter too.
"""

from __future__ import annotations

import json
import logging
import logging.config
from contextvars import ContextVar, Token
from datetime import UTC, datetime
from typing import Any

from celery import signals

request_id_var: ContextVar[str | None] = ContextVar("request_id", default=None)

REQUEST_ID_HEADER = "request_id"  # the Celery message header

# Attributes every LogRecord has; anything else on a record came from ``extra=``.
_STANDARD = frozenset(vars(logging.LogRecord("", 0, "", 0, "", (), None))) | {
    "message",
    "asctime",
    "taskName",
    "color_message",
}  # uvicorn's ANSI-coloured copy of the message


class JsonFormatter(logging.Formatter):
    """One JSON object per line (see the module docstring for the keys)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or request_id_var.get(),
        }
        task = _current_task()
        if task is not None:
            entry["task_id"] = task.request.id
            entry["task_name"] = task.name
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in entry and not key.startswith("_"):
                if key == "data" and isinstance(value, dict) and "traceback" in value:
                    value = {k: v for k, v in value.items() if k != "traceback"}  # Celery's: it is in "exc"
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["exc"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str, ensure_ascii=False)


def _current_task():
    from celery import current_task  # the task being run in this thread, if any

    task = current_task._get_current_object() if current_task else None
    if task is None or getattr(task.request, "id", None) is None:
        return None
    return task


def logging_config(*, level: str = "INFO", fmt: str = "json") -> dict[str, Any]:
    """The settings' ``LOGGING``: everything to stderr through one handler on the root logger
    (Django's loggers propagate to it), as JSON, or as plain text with ``fmt="text"``."""
    if fmt not in {"json", "text"}:
        raise ValueError(f"log format {fmt!r}: use json or text")
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {
            "json": {"()": "config.logging.JsonFormatter"},
            "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
        },
        "filters": {"request_id": {"()": "config.logging.RequestIDFilter"}},
        "handlers": {
            "console": {"class": "logging.StreamHandler", "formatter": fmt, "filters": ["request_id"]},
        },
        "root": {"handlers": ["console"], "level": level},
        "loggers": {
            # Django's defaults send these to their own handlers; here they go to the root's.
            "django": {"handlers": [], "level": level, "propagate": True},
            "django.server": {"handlers": [], "level": level, "propagate": True},
            "celery": {"handlers": [], "level": level, "propagate": True},
            "celery.task": {"handlers": [], "propagate": True},
            "gunicorn.error": {"handlers": [], "level": level, "propagate": True},
            # Under uvicorn (config.asgi): its lines as JSON too; the access line is ours.
            "uvicorn": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.error": {"handlers": [], "level": level, "propagate": True},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": True},
        },
    }


class RequestIDFilter(logging.Filter):
    """Stamps ``record.request_id`` (for the text format; the JSON formatter looks it up itself)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "request_id", None) is None:
            record.request_id = request_id_var.get()
        return True


# --- Celery ------------------------------------------------------------------------------------


@signals.setup_logging.connect(weak=False, dispatch_uid="kierki.setup_logging")
def _celery_setup_logging(loglevel=None, **kwargs) -> None:
    """Worker and beat log through the settings' LOGGING, not Celery's own format."""
    from django.conf import settings

    logging.config.dictConfig(settings.LOGGING)
    if loglevel:
        logging.getLogger().setLevel(loglevel)
        logging.getLogger("celery").setLevel(loglevel)


@signals.before_task_publish.connect(weak=False, dispatch_uid="kierki.request_id_header")
def _stamp_request_id(headers=None, **kwargs) -> None:
    request_id = request_id_var.get()
    if request_id and headers is not None:
        headers.setdefault(REQUEST_ID_HEADER, request_id)


_task_tokens: dict[str, Token] = {}


@signals.task_prerun.connect(weak=False, dispatch_uid="kierki.request_id_prerun")
def _restore_request_id(task_id=None, task=None, **kwargs) -> None:
    if task is None or task.request.is_eager:
        return  # an eager task runs inside the request: its id is already set
    _task_tokens[task_id] = request_id_var.set(getattr(task.request, REQUEST_ID_HEADER, None))


@signals.task_postrun.connect(weak=False, dispatch_uid="kierki.request_id_postrun")
def _forget_request_id(task_id=None, **kwargs) -> None:
    token = _task_tokens.pop(task_id, None)
    if token is not None:
        try:
            request_id_var.reset(token)
        except ValueError:  # set in another context: just clear it
            request_id_var.set(None)
