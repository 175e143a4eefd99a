"""Member commands beyond memberships: adding a player profile by display name, inviting its
person to claim it, and the claim (which creates his account); inviting a user who has an
account to join the club, and his answer (issue 30: nobody with an account joins a club without
accepting); and a user's consent to a seat in someone else's match outside a season.
Keyword-only, one transaction each; errors are ``games.domain.exceptions``/
``scoring.exceptions`` types.

The invitation link carries ``invitation_token``: the row's id signed with Django's
``TimestampSigner`` (so a link cannot be forged or pointed at another profile). The row says
when it expires and whether it was used: a link works once, before ``expires_at``.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.core import signing
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.rectification import display_name, valid_email
from games.domain.exceptions import InvalidInput, NotFound
from games.domain.ids import int_id
from games.engine import Seat
from games.models import Match, Player
from games.write import services as games

from .exceptions import InvitationExpired, InvitationInvalid, InvitationUsed
from .members import is_club_player
from .models import ClubPlayer, Invitation, Membership, SeatInvitation
from .services import club_for_admin, membership_set

User = get_user_model()
SIGNER_SALT = "scoring.invitation"


def club_player_add(*, actor, club_id, name: str) -> Player:
    """A player profile named ``name`` (no account) joins the club (club admins): seated and
    filed by that name at once. A guest of that name from an earlier paper sheet (no club, no
    account) becomes the club's profile. A profile belongs to one club (issue 30): a name held
    by another club's profile or by an account is refused with one message that tells nothing
    more (add a user as a member by username; he accepts)."""
    club = club_for_admin(actor, club_id)
    name = display_name(name)
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(username=name).first()
        if player is not None and is_club_player(club, player):
            raise InvalidInput(
                _("%(name)s already plays for %(club)s") % {"name": name, "club": club.name}, field="name"
            )
        if player is None and not User.objects.filter(username=name).exists():
            player = Player.objects.create(username=name)
        elif player is None or player.user_id is not None or ClubPlayer.objects.filter(player=player).exists():
            raise InvalidInput(
                _(
                    "the name %(name)s is taken: give the member another display name (add an initial, "
                    "say), or add an existing user as a member by username"
                )
                % {"name": name},
                field="name",
            )
        ClubPlayer.objects.create(club=club, player=player, added_by=actor)
    return player


def invitation_create(*, actor, club_id, player_id) -> tuple[Invitation, str]:
    """An invitation for the club's profile ``player_id`` (club admins); returns the row and the
    token of its link. The profile must have no account yet."""
    club = club_for_admin(actor, club_id)
    pk = int_id(player_id)
    player = Player.objects.filter(pk=pk, club_links__club=club).first() if pk is not None else None
    if player is None:
        raise NotFound(_("no player profile %(id)s in %(club)s") % {"id": player_id, "club": club.name})
    if player.user_id is not None:
        raise InvitationUsed(_("%(name)s has an account already") % {"name": player.username})
    expires_at = timezone.now() + datetime.timedelta(hours=settings.INVITATION_TTL_HOURS)
    invitation = Invitation.objects.create(club=club, player=player, created_by=actor, expires_at=expires_at)
    return invitation, invitation_token(invitation)


def invitation_token(invitation: Invitation) -> str:
    return signing.TimestampSigner(salt=SIGNER_SALT).sign(str(invitation.pk))


def invitation_check(*, token) -> Invitation:
    """The invitation ``token`` names, still open: raises InvitationInvalid (not signed here),
    InvitationExpired or InvitationUsed. Changes nothing."""
    return _open_invitation(token, Invitation.objects.select_related("club", "player"))


def _open_invitation(token, queryset) -> Invitation:
    try:
        pk = int_id(signing.TimestampSigner(salt=SIGNER_SALT).unsign(str(token)))
    except signing.BadSignature:
        pk = None
    invitation = queryset.filter(pk=pk).first() if pk is not None else None
    if invitation is None or not _names_own_profile(invitation):
        raise InvitationInvalid(_("this invitation link is not valid; check that it was copied whole"), field="token")
    if invitation.claimed_at is not None or invitation.player.user_id is not None:
        raise InvitationUsed(_("this invitation was used already; sign in, or reset your password"), field="token")
    if invitation.expires_at <= timezone.now():
        raise InvitationExpired(
            _("this invitation expired on %(when)s; ask a club admin for a new one")
            % {"when": invitation.expires_at.strftime("%Y-%m-%d %H:%M UTC")},
            field="token",
        )
    return invitation


def _names_own_profile(invitation: Invitation) -> bool:
    """A claim link hands over only a profile of the club that sent it (issue 30): never a join
    invitation (its person answers it signed in), never another club's profile — such a link
    may have been made before a profile belonged to one club."""
    return (
        invitation.user_id is None
        and ClubPlayer.objects.filter(club_id=invitation.club_id, player_id=invitation.player_id).exists()
    )


def invitation_claim(*, token, username, password, email: str = "") -> Invitation:
    """Claim the invitation's profile: a new account ``username`` with ``password`` (Django's
    password validators) owns the player from now on and is a member of the club. Returns the
    invitation, claimed (``claimed_by``: the new user). Nothing changes when the invitation is
    invalid, expired or used, or the input bad."""
    with transaction.atomic():
        invitation = _open_invitation(token, Invitation.objects.select_for_update().select_related("club", "player"))
        player = Player.objects.select_for_update().get(pk=invitation.player_id)
        if player.user_id is not None:
            raise InvitationUsed(_("this invitation was used already; sign in, or reset your password"), field="token")
        user = User(username=_username(username), email=valid_email(email))
        _password(password, user)
        user.save()
        player.user = user
        player.save(update_fields=["user"])
        Membership.objects.get_or_create(club=invitation.club, user=user)
        invitation.claimed_at, invitation.claimed_by = timezone.now(), user
        invitation.save(update_fields=["claimed_at", "claimed_by"])
    return invitation


def _username(username) -> str:
    if not isinstance(username, str) or not username:
        raise InvalidInput(_("choose a username"), field="username")
    field = User._meta.get_field(User.USERNAME_FIELD)
    try:
        field.run_validators(username)
        if len(username) > field.max_length:
            raise ValidationError(_("a username is at most %(max)d characters") % {"max": field.max_length})
    except ValidationError as exc:
        raise InvalidInput(" ".join(exc.messages), field="username") from None
    if User.objects.filter(username=username).exists():
        raise InvalidInput(_("the username %(name)s is taken") % {"name": username}, field="username")
    return username


def _password(password, user) -> None:
    if not isinstance(password, str) or not password:
        raise InvalidInput(_("choose a password"), field="password")
    try:
        password_validation.validate_password(password, user)
    except ValidationError as exc:
        raise InvalidInput(" ".join(exc.messages), field="password") from None
    user.set_password(password)


# --- joining a club: the invited user accepts ----------------------------------------------------------


def membership_propose(*, actor, club_id, username, role: str = Membership.Role.MEMBER) -> Membership | Invitation:
    """Club admins: a member of the club gets ``role`` (``services.membership_set``); anyone
    else with an account is invited to join as ``role`` — a pending ``Invitation`` that only he
    answers (``membership_accept``/``membership_decline``); an open one is renewed, not doubled."""
    club = club_for_admin(actor, club_id)
    user = User.objects.filter(username=username).first() if isinstance(username, str) else None
    if user is not None and Membership.objects.filter(club=club, user=user).exists():
        return membership_set(actor=actor, club_id=club.pk, username=username, role=role)
    if role not in Membership.Role.values:
        raise InvalidInput(
            _("role must be one of %(choices)s") % {"choices": ", ".join(Membership.Role.values)}, field="role"
        )
    if user is None:
        raise InvalidInput(_("no user named %(username)s") % {"username": repr(username)}, field="user")
    expires_at = timezone.now() + datetime.timedelta(hours=settings.INVITATION_TTL_HOURS)
    with transaction.atomic():
        invitation = _open_join_invitations(Invitation.objects.select_for_update()).filter(club=club, user=user).first()
        if invitation is None:
            invitation = Invitation(club=club, user=user, player=_account_player(user), created_by=actor)
        invitation.role, invitation.expires_at = role, expires_at
        invitation.save()
    return invitation


def _account_player(user) -> Player:
    """The account's player (``games.write.services.player_for_user``), except that an account without
    one never takes a club's profile of the same name that way: a profile is claimed only through
    its club's invitation (issue 30)."""
    if getattr(user, "player", None) is None and ClubPlayer.objects.filter(player__username=user.username).exists():
        raise InvalidInput(
            _("the username %(name)s is a club's player profile: the account cannot play under it")
            % {"name": user.username},
            field="user",
        )
    return games.player_for_user(user)


def _open_join_invitations(queryset):
    return queryset.filter(
        user__isnull=False, claimed_at__isnull=True, declined_at__isnull=True, expires_at__gt=timezone.now()
    )


def membership_accept(*, actor, invitation_id) -> Membership:
    """The invited user accepts: he is a member of the club with the invitation's role."""
    with transaction.atomic():
        invitation = _join_invitation_to_answer(actor, invitation_id)
        membership, created = Membership.objects.get_or_create(
            club=invitation.club, user=actor, defaults={"role": invitation.role}
        )
        invitation.claimed_at, invitation.claimed_by = timezone.now(), actor
        invitation.save(update_fields=["claimed_at", "claimed_by"])
    return membership


def membership_decline(*, actor, invitation_id) -> Invitation:
    """The invited user declines: the invitation is closed; nothing else changes."""
    with transaction.atomic():
        invitation = _join_invitation_to_answer(actor, invitation_id)
        invitation.declined_at = timezone.now()
        invitation.save(update_fields=["declined_at"])
    return invitation


def _join_invitation_to_answer(actor, invitation_id) -> Invitation:
    """The join invitation ``invitation_id`` addressed to ``actor``, locked and still open; an
    invitation to anyone else is not found (nobody learns whom a club invites)."""
    pk = int_id(invitation_id)
    invitation = (
        Invitation.objects.select_for_update()
        .select_related("club")
        .filter(pk=pk, user__isnull=False, user_id=getattr(actor, "pk", None))
        .first()
        if pk is not None and actor.is_authenticated
        else None
    )
    if invitation is None:
        raise NotFound(_("no invitation %(id)s for you") % {"id": invitation_id})
    if invitation.claimed_at is not None or invitation.declined_at is not None:
        raise InvitationUsed(_("you answered this invitation already"))
    if invitation.expires_at <= timezone.now():
        raise InvitationExpired(
            _("this invitation expired on %(when)s; ask a club admin for a new one")
            % {"when": invitation.expires_at.strftime("%Y-%m-%d %H:%M UTC")}
        )
    return invitation


# --- a seat in someone else's match outside a season: the seated user accepts -------------------------


def match_create_with_consent(*, actor, **match_create) -> Match:
    """``games.write.services.match_create`` outside a season, as users create matches (the API):
    every seated user with an account other than ``actor`` is invited to his seat
    (``SeatInvitation``), and until he accepts nobody acts or files for it in his place
    (``games.domain.roles.seats_awaiting_consent``). Seating himself is the creator's consent."""
    with transaction.atomic():
        match = games.match_create(actor=actor, **match_create)
        seated = zip(Seat, match.seat_player_ids())
        users = dict(
            Player.objects.filter(pk__in=match.seat_player_ids(), user__isnull=False).values_list("pk", "user")
        )
        SeatInvitation.objects.bulk_create(
            SeatInvitation(match=match, seat=seat.name, user_id=users[player_id], created_by=actor)
            for seat, player_id in seated
            if player_id in users and users[player_id] != actor.pk
        )
    return match


def seats_awaiting_consent(match: Match) -> frozenset[Seat]:
    """The seats of ``match`` whose users have not accepted them (``games.domain.roles`` asks)."""
    awaiting = SeatInvitation.objects.filter(match_id=match.pk, accepted_at__isnull=True).values_list("seat", flat=True)
    return frozenset(Seat[name] for name in awaiting)


def seat_accept(*, actor, invitation_id) -> SeatInvitation:
    """The seated user accepts his seat: from now on the match's scorer may act for it."""
    with transaction.atomic():
        invitation = _seat_invitation_to_answer(actor, invitation_id)
        invitation.accepted_at = timezone.now()
        invitation.save(update_fields=["accepted_at"])
    return invitation


def seat_decline(*, actor, invitation_id) -> SeatInvitation:
    """The seated user declines: his seat stays his alone (the match's creator may abandon it)."""
    with transaction.atomic():
        invitation = _seat_invitation_to_answer(actor, invitation_id)
        invitation.declined_at = timezone.now()
        invitation.save(update_fields=["declined_at"])
    return invitation


def _seat_invitation_to_answer(actor, invitation_id) -> SeatInvitation:
    pk = int_id(invitation_id)
    invitation = (
        SeatInvitation.objects.select_for_update().filter(pk=pk, user_id=actor.pk).first()
        if pk is not None and actor.is_authenticated
        else None
    )
    if invitation is None:
        raise NotFound(_("no seat invitation %(id)s for you") % {"id": invitation_id})
    if invitation.accepted_at is not None or invitation.declined_at is not None:
        raise InvitationUsed(_("you answered this invitation already"))
    return invitation
