"""OAuth apps and the grants people gave them (issue 26): registering an app, the apps a user
authorised, revoking them, and every OAuth token of a user revoked with his password
(``api.tokens.user_tokens_revoke`` calls ``user_oauth_revoke``). django-oauth-toolkit keeps the
models and runs the protocol; this module holds what the pages do with them. Personal access
tokens (``accounts.models.PersonalToken``) are made, listed and revoked here too."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import (
    get_access_token_model,
    get_application_model,
    get_grant_model,
    get_refresh_token_model,
    set_token_value,
)

from accounts.models import PersonalToken
from games.domain.exceptions import NotFound

Application = get_application_model()
AccessToken = get_access_token_model()
RefreshToken = get_refresh_token_model()
Grant = get_grant_model()


@dataclass(frozen=True)
class RegisteredApp:
    """An app just registered: its secret (confidential apps only) is shown this once."""

    app: Application
    client_secret: str | None


def check_redirect_uris(uris: list[str]) -> None:
    """https, or http to the loopback address for a program on a computer (RFC 8252); nothing else
    (RFC 9700 §2.1: a plaintext redirect leaks the code on the way)."""
    for uri in uris:
        parts = urlsplit(uri)
        if parts.scheme == "http" and f"{parts.hostname}" not in ("127.0.0.1", "::1"):
            raise ValidationError(
                {
                    "redirect_uris": gettext("%(uri)s: use https; http only to 127.0.0.1 (a program on a computer).")
                    % {"uri": uri}
                }
            )


def app_register(*, user, name: str, redirect_uris: str, confidential: bool) -> RegisteredApp:
    """Registers an app of ``user`` for the code flow (PKCE always required). Invalid redirect URIs
    raise Django's ``ValidationError`` (the form shows it); nothing is stored then."""
    check_redirect_uris(redirect_uris.split())
    secret = generate_client_secret() if confidential else ""
    app = Application(
        user=user,
        name=name,
        redirect_uris=" ".join(redirect_uris.split()),
        client_type=Application.CLIENT_CONFIDENTIAL if confidential else Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        client_secret=secret,
        algorithm=Application.NO_ALGORITHM,
    )
    app.full_clean()
    app.save()  # the secret is stored hashed
    return RegisteredApp(app=app, client_secret=secret or None)


def apps_registered_by(*, user) -> list[tuple[Application, list[str]]]:
    """The apps ``user`` registered, each with the usernames of the people who authorised it (who
    hold a live token or refresh token of it)."""
    apps = list(Application.objects.filter(user=user).order_by("name", "pk"))
    users: dict[int, set[str]] = {app.pk: set() for app in apps}
    holders = [
        *AccessToken.objects.filter(application__in=apps).values_list("application_id", "user__username"),
        *RefreshToken.objects.filter(application__in=apps, revoked__isnull=True).values_list(
            "application_id", "user__username"
        ),
    ]
    for app_id, username in holders:
        if username:
            users[app_id].add(username)
    return [(app, sorted(users[app.pk])) for app in apps]


def apps_authorised_by(*, user) -> list[Application]:
    """The apps holding a token of ``user`` (access or unrevoked refresh token), by name."""
    ids = set(AccessToken.objects.filter(user=user, application__isnull=False).values_list("application_id", flat=True))
    ids |= set(RefreshToken.objects.filter(user=user, revoked__isnull=True).values_list("application_id", flat=True))
    return list(Application.objects.filter(pk__in=ids).order_by("name", "pk"))


@transaction.atomic
def app_authorisation_revoke(*, user, app_id: int) -> None:
    """Takes back what ``user`` gave the app: its tokens, refresh tokens and pending codes."""
    if not any(app.pk == app_id for app in apps_authorised_by(user=user)):
        raise NotFound(gettext("No such app among those you authorised."))
    RefreshToken.objects.filter(user=user, application_id=app_id).delete()
    AccessToken.objects.filter(user=user, application_id=app_id).delete()
    Grant.objects.filter(user=user, application_id=app_id).delete()


def user_oauth_revoke(*, user_id: int) -> int:
    """Revokes every OAuth token of the user (a new password); the number of access tokens revoked."""
    RefreshToken.objects.filter(user_id=user_id).delete()
    Grant.objects.filter(user_id=user_id).delete()
    deleted, _ = AccessToken.objects.filter(user_id=user_id).delete()
    return deleted


# --- personal access tokens -----------------------------------------------------------------------

PERSONAL_PREFIX = "kpat_"  # tells a personal token from an OAuth one at a glance (and to secret scanners)
PERSONAL_EXPIRY_DAYS = (7, 30, 90, 365)


@dataclass(frozen=True)
class IssuedPersonalToken:
    """A personal token just made: its value is shown this once, never stored."""

    token: PersonalToken
    value: str


@transaction.atomic
def personal_token_issue(*, user, name: str, scopes: list[str], days: int) -> IssuedPersonalToken:
    """A personal access token of ``user`` with ``scopes``, expiring in ``days``; stored as a
    checksum (django-oauth-toolkit's access token with no app) plus its name and prefix."""
    value = PERSONAL_PREFIX + secrets.token_urlsafe(32)
    access = AccessToken(user=user, scope=" ".join(scopes), expires=timezone.now() + timedelta(days=days))
    set_token_value(access, value)
    access.save()
    token = PersonalToken.objects.create(access_token=access, user=user, name=name, prefix=value[:12])
    return IssuedPersonalToken(token=token, value=value)


def personal_token_list(*, user) -> list[PersonalToken]:
    """The user's personal tokens, newest first, with their scopes and expiry."""
    return list(PersonalToken.objects.filter(user=user).select_related("access_token"))


def personal_token_revoke(*, user, token_id: int) -> None:
    """Revokes one of the user's personal tokens; another's, or one gone, is ``NotFound``."""
    deleted, _ = AccessToken.objects.filter(personal__pk=token_id, personal__user=user).delete()
    if not deleted:
        raise NotFound(gettext("No such token."))


LAST_USED_PRECISION = timedelta(minutes=1)  # a script's every request need not rewrite the row


def token_used(*, access_token) -> None:
    """Notes the last use of a personal token, to the minute: one conditional UPDATE that writes
    nothing when the token was used in the last minute (an OAuth token's app keeps its own records)."""
    now = timezone.now()
    stale = Q(last_used__isnull=True) | Q(last_used__lt=now - LAST_USED_PRECISION)
    PersonalToken.objects.filter(stale, access_token_id=access_token.pk).update(last_used=now)
