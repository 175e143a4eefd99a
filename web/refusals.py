"""What the organiser's forms share (``season_views``, ``evening_views``): a command's refusal as the
form shows it, and the dates typed into a form."""

from __future__ import annotations

import datetime

from django.utils.translation import gettext

from games.domain.exceptions import CommandError, InvalidInput


def refusal(exc: CommandError) -> dict:
    """The message and the field it belongs to (``players[3]`` → ``players``), for the form; the
    page shows it beside that field and keeps what was typed."""
    field = (getattr(exc, "field", None) or "").split("[")[0].split(".")[0]
    return {"error": exc.detail, "error_field": field or None}


def typed_date(value: str, field: str, *, optional: bool = False) -> datetime.date | None:
    """A date typed as YYYY-MM-DD (what a date input sends); empty: None where ``optional``. A bad
    one: ``InvalidInput`` naming ``field``."""
    if optional and not value.strip():
        return None
    try:
        return datetime.date.fromisoformat(value.strip())
    except ValueError:
        raise InvalidInput(gettext("give the date as YYYY-MM-DD"), field=field) from None
