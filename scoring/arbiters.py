"""A club's arbiters: its members with the ``arbiter`` (or ``admin``) role rule on the disputes of
its season matches. ``games.domain.roles`` knows no clubs: ``role_in_match`` is registered with it at
start-up (``scoring.apps``); staff arbitrate every match."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext

from games.domain.exceptions import NotAllowed, NotFound
from games.domain.ids import int_id
from games.models import Dispute, Match

from .models import Club, Membership

ARBITER = Membership.Role.ARBITER
RULING_ROLES = (Membership.Role.ARBITER, Membership.Role.ADMIN)  # games.domain.roles.ARBITER_CLUB_ROLES


def is_club_arbiter(user, club_id) -> bool:
    """An arbiter or admin of the club: they rule on its season matches."""
    return bool(
        user.is_authenticated and Membership.objects.filter(club_id=club_id, user=user, role__in=RULING_ROLES).exists()
    )


def role_in_match(match: Match, user) -> str | None:
    """The user's role in the club whose season ``match`` belongs to (``games.domain.roles`` asks)."""
    if user is None or not user.is_authenticated:
        return None
    return (
        Membership.objects.filter(user=user, club__leagues__seasons__season_matches__match_id=match.pk)
        .values_list("role", flat=True)
        .first()
    )


def scored_club_matches(user) -> Q:
    """The season matches of the clubs where ``user`` is a scorer: he reads them (issue 23)."""
    clubs = Membership.objects.filter(user=user, role=Membership.Role.SCORER).values("club_id")
    return Q(season_match__season__league__club_id__in=clubs)


def arbitrated_matches(user) -> Q:
    """The season matches of the clubs where ``user`` is an arbiter or admin (``games.domain.roles`` asks)."""
    clubs = Membership.objects.filter(user=user, role__in=RULING_ROLES).values("club_id")
    return Q(season_match__season__league__club_id__in=clubs)


def disputes_for_arbiter(*, user, club_id: Any = None, status: str | None = None) -> QuerySet[Dispute]:
    """The disputes of ``club_id``'s season matches (an arbiter of that club, or staff), or without
    a club those of every club the user arbitrates (every dispute for staff)."""
    disputes = Dispute.objects.select_related("raised_by")
    if club_id is not None:
        if int_id(club_id) is None or not Club.objects.filter(pk=int_id(club_id)).exists():
            raise NotFound(gettext("no club %(id)s") % {"id": club_id})
        if not (user.is_staff or is_club_arbiter(user, club_id)):
            raise NotAllowed(gettext("Only the club's arbiters and admins (and staff) list its disputes."))
        disputes = disputes.filter(match__season_match__season__league__club_id=club_id)
    elif not user.is_staff:
        clubs = Membership.objects.filter(user=user, role__in=RULING_ROLES).values("club_id")
        disputes = disputes.filter(match__season_match__season__league__club_id__in=clubs)
    if status is not None:
        disputes = disputes.filter(status=status)
    return disputes
