from django.apps import AppConfig


class ApiConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "api"

    def ready(self) -> None:
        from games import live
        from games.signals import events_appended

        # the live views of every process hear of a command through PostgreSQL (api/streams.py)
        events_appended.connect(live.match_moved_notify, dispatch_uid="live.match_moved_notify")
