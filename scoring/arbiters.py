"""A club's arbiters: its members with the ``arbiter`` role rule on the disputes of its season
matches. ``games.disputes`` knows no clubs: ``arbitrates`` is registered with it at start-up
(``scoring.apps``), beside staff, who arbitrate every match."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils.translation import gettext

from games.exceptions import NotAllowed, NotFound
from games.ids import int_id
from games.models import Dispute, Match

from .models import Club, Membership, SeasonMatch

ARBITER = Membership.Role.ARBITER


def club_of_match(match_id) -> int | None:
    """The club whose season the match was played in, if any."""
    return (SeasonMatch.objects.filter(match_id=match_id).values_list("season__league__club_id", flat=True)
            .first())


def is_club_arbiter(user, club_id) -> bool:
    return bool(user.is_authenticated and Membership.objects.filter(club_id=club_id, user=user, role=ARBITER)
                .exists())


def arbitrates(match: Match, user) -> bool:
    """An arbiter of the match's club (the check ``games.disputes.is_arbiter`` consults)."""
    club = club_of_match(match.pk)
    return club is not None and is_club_arbiter(user, club)


def disputes_for_arbiter(*, user, club_id: Any = None, status: str | None = None) -> QuerySet[Dispute]:
    """The disputes of ``club_id``'s season matches (an arbiter of that club, or staff), or without
    a club those of every club the user arbitrates (every dispute for staff)."""
    disputes = Dispute.objects.select_related("raised_by")
    if club_id is not None:
        if int_id(club_id) is None or not Club.objects.filter(pk=int_id(club_id)).exists():
            raise NotFound(gettext("no club %(id)s") % {"id": club_id})
        if not (user.is_staff or is_club_arbiter(user, club_id)):
            raise NotAllowed(gettext("only the club's arbiters (and staff) list its disputes"))
        disputes = disputes.filter(match__season_match__season__league__club_id=club_id)
    elif not user.is_staff:
        clubs = Membership.objects.filter(user=user, role=ARBITER).values("club_id")
        disputes = disputes.filter(match__season_match__season__league__club_id__in=clubs)
    if status is not None:
        disputes = disputes.filter(status=status)
    return disputes
