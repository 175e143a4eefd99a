"""Everything the service holds about a person, in one JSON document (GDPR/RODO Art. 15 and 20,
issue 28; docs/privacy.md): his account, his player profile, his clubs, his tokens (names and
scopes, never a secret), his matches as ``kierki-match/1`` records, his standings and ratings,
the disputes he raised, and the privacy log about him."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from oauth2_provider.models import get_access_token_model
from rest_framework.authtoken.models import Token

from accounts.models import PersonalToken, PrivacyRequest
from games.domain.roles import Role
from games.engine import Seat
from games.models import Dispute, Match, Player
from games.read.record import match_record
from scoring.models import ClubPlayer, Membership, Rating, StandingRow

FORMAT = "kierki-personal-data/1"


def person_export(*, actor, player: Player | None, user=None, by_role: str = "self", club_id=None) -> dict[str, Any]:
    """The document; the export is recorded in the privacy log (who asked, of whom)."""
    user = user if user is not None else (player.user if player is not None else None)
    document = {
        "format": FORMAT,
        "account": _account(user),
        "player": None if player is None else {"public_id": player.public_id, "name": player.username},
        "clubs": _clubs(player, user),
        "tokens": _tokens(user),
        "matches": _matches(player),
        "standings": _standings(player),
        "ratings": _ratings(player),
        "disputes_raised": _disputes(user),
    }
    with transaction.atomic():
        PrivacyRequest.objects.create(
            kind=PrivacyRequest.Kind.EXPORT,
            subject=player.public_id if player is not None else "",
            by=actor,
            by_role=by_role,
            club_id=club_id,
        )
    subject = player.public_id if player is not None else None
    document["privacy_log"] = (
        [
            {"kind": r.kind, "by_role": r.by_role, "at": r.at.isoformat()}
            for r in PrivacyRequest.objects.filter(subject=subject).order_by("at", "pk")
        ]
        if subject
        else []
    )
    return document


def _account(user) -> dict[str, Any] | None:
    if user is None:
        return None
    return {
        "username": user.get_username(),
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "date_joined": user.date_joined.isoformat(),
        "last_login": None if user.last_login is None else user.last_login.isoformat(),
    }


def _clubs(player: Player | None, user) -> list[dict[str, Any]]:
    clubs = []
    if user is not None:
        for m in Membership.objects.filter(user=user).select_related("club"):
            clubs.append({"club": m.club.name, "role": m.role, "since": m.created_at.isoformat()})
    if player is not None:
        for link in ClubPlayer.objects.filter(player=player).select_related("club"):
            clubs.append({"club": link.club.name, "role": "profile", "since": link.created_at.isoformat()})
    return clubs


def _tokens(user) -> dict[str, Any]:
    if user is None:
        return {"api_tokens": 0, "personal": [], "oauth": []}
    return {
        "api_tokens": Token.objects.filter(user=user).count(),
        "personal": [
            {"name": t.name, "prefix": t.prefix, "created": t.created.isoformat(), "scope": t.access_token.scope}
            for t in PersonalToken.objects.filter(user=user).select_related("access_token")
        ],
        "oauth": [
            {"application": t.application.name, "scope": t.scope, "expires": t.expires.isoformat()}
            for t in get_access_token_model()
            .objects.filter(user=user, application__isnull=False)
            .select_related("application")
        ],
    }


def _matches(player: Player | None) -> list[dict[str, Any]]:
    if player is None:
        return []
    seated = Q(north=player) | Q(east=player) | Q(south=player) | Q(west=player)
    found = []
    for match in Match.objects.filter(seated).select_related("north", "east", "south", "west").order_by("created_at"):
        seat = next(s for s, p in zip(Seat, match.seat_player_ids()) if p == player.pk)
        found.append(
            {
                "id": str(match.pk),
                "seat": seat.name,
                "status": match.status,
                "record": match_record(match=match, viewer=Role(Role.PLAYER, seat)),
            }
        )
    return found


def _standings(player: Player | None) -> list[dict[str, Any]]:
    if player is None:
        return []
    return [
        {"season": row.season.name, "league": row.season.league.name, **_row_fields(row)}
        for row in StandingRow.objects.filter(player=player).select_related("season__league")
    ]


def _row_fields(row: StandingRow) -> dict[str, Any]:
    skip = {"id", "season", "player"}
    return {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields if f.name not in skip}


def _ratings(player: Player | None) -> list[dict[str, Any]]:
    if player is None:
        return []
    return [
        {
            "league": r.league.name,
            **{
                f.attname: getattr(r, f.attname)
                for f in r._meta.concrete_fields
                if f.name not in {"id", "league", "player"}
            },
        }
        for r in Rating.objects.filter(player=player).select_related("league")
    ]


def _disputes(user) -> list[dict[str, Any]]:
    if user is None:
        return []
    return [
        {
            "match": str(d.match_id),
            "deal": d.deal,
            "statement": d.statement,
            "created_at": d.created_at.isoformat(),
            "status": d.status,
        }
        for d in Dispute.objects.filter(raised_by=user)
    ]
