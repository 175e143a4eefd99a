"""Errors of the league commands, in the family the API turns into problem+json."""

from django.utils.translation import gettext_lazy as _

from games.exceptions import CommandError


class SeasonClosed(CommandError):
    """A match cannot join a closed season."""

    status, code, title = 409, "season_closed", _("The season is closed")


class LastAdmin(CommandError):
    """A club must keep at least one admin."""

    status, code, title = 409, "last_admin", _("A club needs an admin")
