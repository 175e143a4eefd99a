"""Erasing a person on request (GDPR/RODO Art. 17, issue 28; docs/privacy.md).

``person_erase`` takes his name, e-mail, account and tokens out of every table while his results
stay, under ``erased player #N``, so standings and audits still add up: the log names him by his
public id (``games.write.people``), and the events stored before that named him by name are
redacted and sealed (``games.write.redaction``). Who may ask is ``erasure_role``'s."""

from __future__ import annotations

from django.db import connection, transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_grant_model,
    get_id_token_model,
    get_refresh_token_model,
)
from rest_framework.authtoken.models import Token

from accounts.models import PersonalToken, PrivacyRequest
from accounts.name_copies import name_copies_replace
from games.domain.exceptions import CommandError, NotAllowed, NotFound
from games.models import IdempotencyKey, Match, Player
from games.write import redaction
from scoring.models import ClubPlayer, Invitation, Membership, SeasonStatusChange, SeatInvitation

ERASED = "erased player #{number}"  # the stored name; pages say it in Polish ("usunięty gracz nr N")


class InUnfinishedMatch(CommandError):
    """He sits in a match still in progress: it is finished or abandoned first (docs/privacy.md)."""

    status, code = 409, "person_in_unfinished_match"


def clubs_of(player: Player | None, user) -> set[int]:
    clubs = set()
    if player is not None:
        clubs |= set(ClubPlayer.objects.filter(player=player).values_list("club_id", flat=True))
    if user is not None:
        clubs |= set(Membership.objects.filter(user=user).values_list("club_id", flat=True))
    return clubs


def erasure_role(actor, player: Player | None, user) -> tuple[str, int | None]:
    """Who ``actor`` is to the person: ``self``, ``staff``, or ``admin`` of the one club he
    belongs to (with its id). A club admin erases only a person of his club and of no other —
    another controller holds the rest — who is no club admin himself; anyone else: 404, as for
    a person he cannot see."""
    if user is not None and actor.pk == user.pk:
        return "self", None
    if actor.is_staff:
        return "staff", None
    clubs = clubs_of(player, user)
    admin_of = set(Membership.objects.filter(user=actor, role=Membership.Role.ADMIN).values_list("club_id", flat=True))
    if not clubs & admin_of:
        raise NotFound(_("No such person among your club's members."))
    if len(clubs) > 1:
        raise NotAllowed(_("This person belongs to another club too: he asks himself, or the service's staff erase."))
    if user is not None and (
        user.is_staff or Membership.objects.filter(user=user, role=Membership.Role.ADMIN).exists()
    ):
        raise NotAllowed(_("A club admin is not erased by another admin: he erases his own account."))
    return "admin", next(iter(clubs))


def person_erase(*, actor, player: Player | None, user=None) -> PrivacyRequest:
    """Erase the person of ``player`` (and his ``user``, if he has an account). Refused while he
    sits in an unfinished match; recorded in the privacy log."""
    user = user if user is not None else (player.user if player is not None else None)
    role, club = erasure_role(actor, player, user)
    with transaction.atomic():
        if player is not None:
            player = Player.objects.select_for_update().get(pk=player.pk)
            refuse_unfinished(player)
        number = _next_erased_number()
        label = ERASED.format(number=number)
        names = _names_of(player, user)
        if player is not None:
            redaction.person_redact(player=player, names=names, user=user)
            Invitation.objects.filter(player=player).delete()  # no one claims an erased profile
            player.username, player.erased_number, player.user = label, number, None
            player.save(update_fields=["username", "erased_number", "user"])
        if user is not None:
            _close_account(user, number, label)
        name_copies_replace(names, label)
        return PrivacyRequest.objects.create(
            kind=PrivacyRequest.Kind.ERASURE,
            subject=player.public_id if player is not None else "",
            erased_number=number,
            by=None if role == "self" else actor,  # the erased account stays no one's "who"
            by_role=role,
            club_id=club,
        )


# The PostgreSQL advisory lock under which an erasure takes its N: two erasures at once would
# otherwise read the same largest N, and the second would fail on the unique ``erased_number``.
ERASED_NUMBER_LOCK = 0x6B69_6572_6B69_2D6E  # "kierki-n"


def _next_erased_number() -> int:
    """The next free N, held until the transaction ends (SQLite serialises writers anyway)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [ERASED_NUMBER_LOCK])
    number = (Player.objects.aggregate(last=Max("erased_number"))["last"] or 0) + 1
    while Player.objects.filter(username=ERASED.format(number=number)).exists():  # a guest named so
        number += 1
    return number


def refuse_unfinished(player: Player) -> None:
    seated = Q(north=player) | Q(east=player) | Q(south=player) | Q(west=player)
    open_ = list(Match.objects.filter(seated, status=Match.Status.IN_PROGRESS).values_list("pk", flat=True))
    if open_:
        raise InUnfinishedMatch(
            _("This person sits in a match in progress: finish or abandon it first."),
            matches=[str(pk) for pk in open_],
        )


def _names_of(player: Player | None, user) -> set[str]:
    names = {player.username} if player is not None else set()
    if user is not None:
        names |= {n for n in (user.get_username(), user.email, user.get_full_name()) if n}
    return names


def _close_account(user, number: int, label: str) -> None:
    """The account stays as an empty row (events and disputes point at it) that cannot sign in."""
    Token.objects.filter(user=user).delete()
    PersonalToken.objects.filter(user=user).delete()
    for model in (get_access_token_model(), get_refresh_token_model(), get_grant_model(), get_id_token_model()):
        model.objects.filter(user=user).delete()
    get_application_model().objects.filter(user=user).delete()
    Membership.objects.filter(user=user).delete()
    SeatInvitation.objects.filter(user=user).delete()
    Invitation.objects.filter(user=user).delete()
    IdempotencyKey.objects.filter(user=user).delete()
    SeasonStatusChange.objects.filter(actor=user).update(actor_name=label)
    user.username = f"erased-{number}"
    user.email = user.first_name = user.last_name = ""
    user.is_active = user.is_staff = user.is_superuser = False
    user.set_unusable_password()  # and every session: its auth hash changes
    user.save()
    user.groups.clear()
    user.user_permissions.clear()
