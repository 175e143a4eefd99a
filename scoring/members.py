"""Who plays for a club: the one public answer (``club_players``/``is_club_player``) every
other module asks — seating, filing, the member list.

A club's players are the players of its members' accounts (``Membership``) and its player
profiles (``ClubPlayer``): people added by display name, who have no account (yet). A profile
that has an account plays for the clubs of that account only (issue 30): its person consented
to them, and a profile claimed in any other way (a link another club made before it was
refused) seats no one in this club's matches.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q, QuerySet
from django.utils import timezone

from games.domain.roles import OFFICIAL_CLUB_ROLES
from games.models import Player

from .models import Club, ClubPlayer, Invitation, Membership, SeatInvitation


def _club_pk(club) -> int:
    return club.pk if isinstance(club, Club) else int(club)


def _of_club(club_pk: int) -> Q:
    return Q(club_links__club_id=club_pk, user__isnull=True) | Q(user__memberships__club_id=club_pk)


def club_players(club) -> QuerySet[Player]:
    """The club's players (``club``: a Club or its id), by name: they can be seated at its
    tables and filed in its seasons."""
    club_pk = _club_pk(club)
    return Player.objects.filter(pk__in=Player.objects.filter(_of_club(club_pk)).values("pk")).order_by("username")


def is_club_player(club, player) -> bool:
    """Whether ``player`` (a Player or its id) plays for ``club``."""
    player_pk = player.pk if isinstance(player, Player) else player
    return Player.objects.filter(_of_club(_club_pk(club)), pk=player_pk).exists()


def club_player_names(club, names: Iterable[str]) -> set[str]:
    """Those of ``names`` (as seats name players) that name the club's players — counting the
    usernames of members who have not played yet (their Player comes with the first match), and
    of members whose account owns a profile of another name (a claimed invitation)."""
    club_pk, names = _club_pk(club), list(names)
    found = set(Player.objects.filter(_of_club(club_pk), username__in=names).values_list("username", flat=True))
    accounts = Membership.objects.filter(club_id=club_pk, user__username__in=names, user__player__isnull=True)
    # a member who claimed a profile (issue 23): her account's username names her profile too
    claimed = Player.objects.filter(_of_club(club_pk), user__username__in=names).values_list(
        "user__username", flat=True
    )
    return found | set(accounts.values_list("user__username", flat=True)) | set(claimed)


def sees_profiles(user, club) -> bool:
    """Whether ``user`` sees the club's profiles without an account (issue 30: their names are
    what a profile is claimed by): the club's scorers, arbiters and admins, and staff."""
    if user is None or not user.is_authenticated:
        return False
    return (
        user.is_staff
        or Membership.objects.filter(club_id=_club_pk(club), user=user, role__in=OFFICIAL_CLUB_ROLES).exists()
    )


def member_rows(club, *, viewer) -> list[dict]:
    """The member list as ``viewer`` may see it: one row per club player or member account, by
    name — the profile's name, the account (if any), the role (members with an account) and the
    latest invitation. Profiles without an account only for the club's officials
    (``sees_profiles``)."""
    rows = _member_rows(_club_pk(club))
    if sees_profiles(viewer, club):
        return rows
    return [row for row in rows if row["account"] is not None]


def _member_rows(club_pk: int) -> list[dict]:
    rows: dict[tuple, dict] = {}
    for membership in Membership.objects.filter(club_id=club_pk).select_related("user__player"):
        player = getattr(membership.user, "player", None)
        rows[("p", player.pk) if player else ("u", membership.user_id)] = {
            "player": player.pk if player else None,
            "name": player.username if player else membership.user.username,
            "account": membership.user.username,
            "role": membership.role,
            "invitation": None,
        }
    for link in ClubPlayer.objects.filter(club_id=club_pk).select_related("player__user"):
        player = link.player
        rows.setdefault(
            ("p", player.pk),
            {
                "player": player.pk,
                "name": player.username,
                "account": player.user.username if player.user_id else None,
                "role": None,
                "invitation": None,
            },
        )
    invitations = Invitation.objects.filter(club_id=club_pk, user__isnull=True).order_by(
        "player_id", "-created_at", "-id"
    )
    now = timezone.now()
    for invitation in invitations:
        row = rows.get(("p", invitation.player_id))
        if row is not None and row["invitation"] is None:
            row["invitation"] = {
                "id": invitation.pk,
                "created_at": invitation.created_at,
                "expires_at": invitation.expires_at,
                "status": invitation_status(invitation, now),
            }
    return sorted(rows.values(), key=lambda row: (row["name"].casefold(), row["name"]))


INVITATION_STATUSES = ("pending", "expired", "claimed", "declined")  # invitation_status, as the API shows it
SEAT_INVITATION_STATUSES = ("pending", "accepted", "declined")  # seat_invitation_status


def seat_invitation_status(invitation: SeatInvitation) -> str:
    if invitation.accepted_at is not None:
        return "accepted"
    return "declined" if invitation.declined_at is not None else "pending"


def invitation_status(invitation: Invitation, now=None) -> str:
    """``claimed`` (a join invitation: accepted), ``declined``, ``expired`` or ``pending``."""
    if invitation.claimed_at is not None:
        return "claimed"
    if invitation.declined_at is not None:
        return "declined"
    return "expired" if invitation.expires_at <= (now or timezone.now()) else "pending"


def join_invitations_open(user) -> QuerySet[Invitation]:
    """The invitations to join a club that ``user`` has not answered yet and that still work."""
    if user is None or not user.is_authenticated:
        return Invitation.objects.none()
    return (
        Invitation.objects.filter(
            user=user, claimed_at__isnull=True, declined_at__isnull=True, expires_at__gt=timezone.now()
        )
        .select_related("club", "created_by")
        .order_by("-created_at", "-id")
    )


def players_visible(user) -> QuerySet[Player]:
    """The player profiles ``user`` may list and read: all of them but the clubs' profiles without
    an account, which only their club's officials and staff see (``sees_profiles``: their names
    are what a profile is claimed by). Guests of paper sheets, in no club, stay listed."""
    players = Player.objects.all()
    signed_in = user is not None and user.is_authenticated
    if signed_in and user.is_staff:
        return players
    official_of = Membership.objects.filter(user=user if signed_in else None, role__in=OFFICIAL_CLUB_ROLES).values(
        "club_id"
    )
    hidden = Player.objects.filter(user__isnull=True, club_links__isnull=False).exclude(
        club_links__club_id__in=official_of
    )
    return players.exclude(pk__in=hidden.values("pk"))


def seat_invitations_open(user) -> QuerySet[SeatInvitation]:
    """The seats in other people's matches that ``user`` has not answered yet."""
    if user is None or not user.is_authenticated:
        return SeatInvitation.objects.none()
    return (
        SeatInvitation.objects.filter(user=user, accepted_at__isnull=True, declined_at__isnull=True)
        .select_related("match", "created_by")
        .order_by("-created_at", "-id")
    )
