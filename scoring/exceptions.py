"""Errors of the league commands, in the family the API turns into problem+json."""

from django.utils.translation import gettext_lazy as _

from games.domain.exceptions import CommandError


class SeasonClosed(CommandError):
    """A closed season is read-only: no match joins it, none of its matches takes a command,
    and its settings stay as they were (staff may reopen it, with a reason)."""

    status, code, title = 409, "season_closed", _("The season is closed")


class LastAdmin(CommandError):
    """A club must keep at least one admin."""

    status, code, title = 409, "last_admin", _("A club needs an admin")


class InvitationInvalid(CommandError):
    """The invitation link is not one this server signed (mistyped, cut short, or forged)."""

    status, code, title = 400, "invitation_invalid", _("Invalid invitation")


class InvitationExpired(CommandError):
    """The invitation expired; a club admin can send a new one."""

    status, code, title = 410, "invitation_expired", _("Invitation expired")


class InvitationUsed(CommandError):
    """The invitation was used already (it works once), or the profile has an account now."""

    status, code, title = 409, "invitation_used", _("Invitation already used")


class RoundSeated(CommandError):
    """The round asked for is seated already (its matches exist)."""

    status, code, title = 409, "round_seated", _("The round is seated already")


class EveningComplete(CommandError):
    """Every round the evening planned is seated."""

    status, code, title = 409, "evening_complete", _("The evening's rounds are all seated")


class TooFewPlayers(CommandError):
    """A round needs at least four players present (a table is four, always)."""

    status, code, title = 409, "too_few_players", _("Too few players present")


class RoundInProgress(CommandError):
    """Swiss seating needs the results of the rounds before: one of their matches is still on."""

    status, code, title = 409, "round_in_progress", _("The previous round is still being played")


class AnnotationNotScheduled(CommandError):
    """A deal not annotated yet on a server where no job annotates deals (``ANNOTATE_DEALS``
    off): it stays so until an administrator runs ``manage.py annotate_deals``."""

    status, code, title = 409, "annotation_not_scheduled", _("Not annotated on this server")
