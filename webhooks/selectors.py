"""Reads: who may manage a club's webhooks, its endpoints, their delivery log, and the
endpoints that listen to a club's events.

A club's webhooks are for its admins and staff. Clubs are public, so another user asking for
a club's webhooks is told no (403); a webhook's own URLs answer 404 to him, revealing nothing.
"""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext

from games.domain.exceptions import NotAllowed, NotFound
from games.domain.ids import int_id
from scoring import selectors as scoring
from scoring.models import Club

from .models import Delivery, Endpoint


def may_manage(user, club_id) -> bool:
    return user.is_authenticated and (user.is_staff or scoring.is_club_admin(user, club_id))


def club_for_admin(*, actor, club_id) -> Club:
    club = Club.objects.filter(pk=int_id(club_id)).first() if int_id(club_id) is not None else None
    if club is None:
        raise NotFound(gettext("no club %(id)s") % {"id": club_id})
    if not may_manage(actor, club.pk):
        raise NotAllowed(
            gettext("only the admins of %(club_name)s (and staff) manage its webhooks") % {"club_name": club.name}
        )
    return club


def endpoint_for_admin(*, actor, endpoint_id) -> Endpoint:
    endpoint = Endpoint.objects.filter(pk=int_id(endpoint_id)).first() if int_id(endpoint_id) is not None else None
    if endpoint is None or not may_manage(actor, endpoint.club_id):
        raise NotFound(gettext("no webhook %(id)s") % {"id": endpoint_id})
    return endpoint


def endpoints_of_club(*, actor, club_id) -> QuerySet[Endpoint]:
    club = club_for_admin(actor=actor, club_id=club_id)
    return Endpoint.objects.filter(club=club).select_related("created_by").order_by("id")


def deliveries_of(*, actor, endpoint_id, status: str | None = None) -> QuerySet[Delivery]:
    """The endpoint's delivery log, newest first."""
    endpoint = endpoint_for_admin(actor=actor, endpoint_id=endpoint_id)
    deliveries = Delivery.objects.filter(endpoint=endpoint)
    return deliveries.filter(status=status) if status else deliveries


def listening(club_ids) -> list[Endpoint]:
    """The active endpoints of these clubs (each says which event types it wants)."""
    return list(Endpoint.objects.filter(club_id__in=list(club_ids), active=True).order_by("id"))
