import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

django_application = get_wsgi_application()

from config.body_limit import WSGIBodyLimit  # noqa: E402 - once the settings are configured

application = WSGIBodyLimit(django_application)
