from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"

    def ready(self) -> None:
        from games.domain.roles import register_club_matches, register_club_role, register_seat_consent
        from games.domain.signals import events_appended, match_result_changed, match_result_changing

        from .annotations import on_events_appended
        from .arbiters import arbitrated_matches, role_in_match, scored_club_matches
        from .invitations import seats_awaiting_consent
        from .receivers import on_match_result_changed, on_match_result_changing

        register_club_role(role_in_match)  # club arbiters and admins read and rule on their season matches
        register_club_matches(arbitrated_matches)  # ... and find them in the match lists
        register_club_matches(scored_club_matches)  # the club's scorers read its season matches (issue 23)
        register_seat_consent(seats_awaiting_consent)  # nobody files for a seat its user has not accepted
        match_result_changing.connect(on_match_result_changing, dispatch_uid="scoring.match_result_changing")
        match_result_changed.connect(on_match_result_changed, dispatch_uid="scoring.match_result_changed")
        events_appended.connect(on_events_appended, dispatch_uid="scoring.annotations")  # a deal ended: annotate it
