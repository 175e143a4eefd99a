"""Correcting what the service holds about a person (GDPR/RODO Art. 16, docs/privacy.md): his
e-mail address — where a password reset goes — confirmed by his password, so that someone who
finds his session open cannot take the account over; and the display name his club's admin typed
for a member (``player_rename``)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from accounts.erasure import erasure_role, refuse_unfinished
from accounts.models import PrivacyRequest
from accounts.name_copies import name_copies_replace
from games.domain.exceptions import InvalidInput, NotAllowed
from games.models import Player
from games.write import redaction
from printing.formats import ERASED_NAME


def valid_email(email) -> str:
    """``email`` as an account keeps it ("" for none); anything else is ``InvalidInput`` naming ``email``."""
    if not email:
        return ""
    field = get_user_model()._meta.get_field("email")
    try:
        field.run_validators(email)
        field.to_python(email)
    except (ValidationError, TypeError):
        raise InvalidInput(gettext("not an e-mail address"), field="email") from None
    return email


def email_change(*, user, email: str, password: str) -> None:
    """His address becomes ``email`` (trimmed; empty: none) once ``password`` is his."""
    if not isinstance(password, str) or not user.check_password(password):
        raise InvalidInput(gettext("that is not your password"), field="password")
    user.email = valid_email(email.strip() if isinstance(email, str) else email)
    user.save(update_fields=["email"])


MAX_NAME = Player._meta.get_field("username").max_length


def display_name(name) -> str:
    """``name`` as a profile's display name: spaces collapsed; empty, too long or unprintable is
    ``InvalidInput`` naming ``name``."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidInput(gettext("a member needs a display name"), field="name")
    name = " ".join(name.split())
    if len(name) > MAX_NAME or any(not ch.isprintable() for ch in name):
        raise InvalidInput(
            gettext("a display name is at most %(max)d printable characters") % {"max": MAX_NAME}, field="name"
        )
    if ERASED_NAME.fullmatch(name):  # pages would show him as an erased person ("usunięty gracz nr N")
        raise InvalidInput(gettext("%(name)s is how an erased person is named") % {"name": name}, field="name")
    return name


def player_rename(*, actor, player: Player, name) -> Player:
    """A wrong display name corrected by his club's admin (of his one club) or staff
    (``erasure_role``): the name of a member without an account, or of one who claimed his
    profile under a username of his own. The log names him by his public id, so no hashed byte
    changes; an event stored before that named him by the old name is redacted and sealed as an
    erasure does (``games.write.redaction``), so replays show the new name too. Refused while he
    sits in a match in progress, whose log is not resealed under its players; recorded in the
    privacy log."""
    role, club = erasure_role(actor, player, player.user)
    if role == "self":
        raise NotAllowed(gettext("Your name in results is corrected by your club's admin."))
    if named_by_username(player):
        raise NotAllowed(gettext("This member is named by the username he signs in with; it is not changed here."))
    name = display_name(name)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if name == player.username:
            return player
        refuse_unfinished(player)
        _refuse_taken(name, player)
        old = player.username
        redaction.person_redact(player=player, names={old}, user=player.user)
        player.username = name
        player.save(update_fields=["username"])
        name_copies_replace({old}, name)
        PrivacyRequest.objects.create(
            kind=PrivacyRequest.Kind.RENAME, subject=player.public_id, by=actor, by_role=role, club_id=club
        )
    return player


def named_by_username(player: Player) -> bool:
    """Whether ``player`` is named by his account's username (he signed up himself): that name is
    his sign-in name, not a display name his club corrects."""
    return player.user is not None and player.username == player.user.get_username()


def _refuse_taken(name: str, player: Player) -> None:
    """Each person has one name: another profile's, or another account's username (an account of
    that name would claim the profile on first use: ``games.write.people.player_of``)."""
    accounts = get_user_model().objects.filter(username=name).exclude(pk=player.user_id)
    if Player.objects.filter(username=name).exists() or accounts.exists():
        raise InvalidInput(gettext("the name %(name)s is taken: add an initial, say") % {"name": name}, field="name")
