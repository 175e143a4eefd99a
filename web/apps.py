from django.apps import AppConfig


class WebConfig(AppConfig):
    """Server-rendered pages: the score sheet, the deal viewer, season standings."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "web"
