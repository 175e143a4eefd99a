"""The ASGI application: ``uvicorn config.asgi:application`` (docs/live-updates.md).
Event streams and long-polls wait here without holding a worker.

Django runs each request's synchronous code (the DRF views, sync middleware) in a thread of
its own under ASGI, so a persistent database connection would outlive its thread unused:
connect per request, as Django advises for ASGI (a pooler such as PgBouncer makes that cheap).
``DATABASE_CONN_MAX_AGE`` set in the environment still wins.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DATABASE_CONN_MAX_AGE", "0")

django_application = get_asgi_application()

from config.body_limit import ASGIBodyLimit  # noqa: E402 - once the settings are configured

# Outermost: a body over API_MAX_BODY_BYTES is refused while it is read (config/body_limit.py).
application = ASGIBodyLimit(django_application)
