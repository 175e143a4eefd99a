from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"

    def ready(self) -> None:
        from games.disputes import register_arbiter_check
        from games.signals import match_result_changed, match_result_changing

        from .arbiters import arbitrates
        from .receivers import on_match_result_changed, on_match_result_changing

        register_arbiter_check(arbitrates)  # club arbiters rule on their season matches' disputes
        match_result_changing.connect(on_match_result_changing, dispatch_uid="scoring.match_result_changing")
        match_result_changed.connect(on_match_result_changed, dispatch_uid="scoring.match_result_changed")
