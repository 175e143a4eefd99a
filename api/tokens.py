"""A user's API tokens (issue 30, finding 5): list them, revoke them, and every one of them
revoked when the password changes.

Today a user has at most one token, DRF's ``authtoken`` (its key is the primary key). A token is
named outside this module by ``id``, the first ``PREFIX_LENGTH`` characters of its key — never
the whole key again after it was issued — so that a later issue can add scoped personal access
tokens (several per user, an id of their own) behind the same list and revoke calls.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import get_hasher, identify_hasher
from django.db.models.signals import pre_save
from django.utils.translation import gettext
from rest_framework.authtoken.models import Token

from games.domain.exceptions import NotFound

from . import oauth

# The old token endpoint is deprecated since issue 26 (RFC 9745's structured date: 2026-12-03).
DEPRECATION = "@1796256000"
PREFIX_LENGTH = 8  # 32 of the key's 160 bits: enough to tell tokens apart, far too few to use one


@dataclass(frozen=True)
class TokenSummary:
    """What a token's owner sees of it once it was issued."""

    id: str
    prefix: str
    created: datetime


def _summary(token: Token) -> TokenSummary:
    prefix = token.key[:PREFIX_LENGTH]
    return TokenSummary(id=prefix, prefix=prefix, created=token.created)


def token_list(*, user) -> list[TokenSummary]:
    """The user's tokens, newest first."""
    return [_summary(token) for token in Token.objects.filter(user=user).order_by("-created")]


def token_issue(*, user) -> tuple[Token, bool]:
    """The user's token, made if he has none: (the token, whether it is new)."""
    return Token.objects.get_or_create(user=user)


def token_revoke(*, user, token_id: str) -> None:
    """Revokes one of the user's tokens; another's, or one that is gone, is ``NotFound``."""
    if len(token_id) != PREFIX_LENGTH:
        raise NotFound(gettext("No such token."))
    deleted, _ = Token.objects.filter(user=user, key__startswith=token_id).delete()
    if not deleted:
        raise NotFound(gettext("No such token."))


def user_tokens_revoke(*, user_id: int) -> int:
    """Revokes every token of the user, the old ones and his OAuth and personal access tokens
    (issue 26); the number revoked."""
    deleted, _ = Token.objects.filter(user_id=user_id).delete()
    return deleted + oauth.user_oauth_revoke(user_id=user_id)


def is_hash_upgrade(stored: str, update_fields) -> bool:
    """Whether a save rewrites the stored hash of the same password: Django's ``check_password``
    re-hashes one whose hasher is no longer the preferred one or too weak (a Django upgrade raises
    the work factor) and saves only ``password``. That is no password change."""
    if update_fields is None or set(update_fields) != {"password"}:
        return False
    try:
        hasher = identify_hasher(stored)
    except ValueError:  # an unusable password or an unknown hasher: nothing to upgrade
        return False
    preferred = get_hasher()
    return hasher.algorithm != preferred.algorithm or preferred.must_update(stored)


def revoke_tokens_on_password_change(sender, instance, update_fields=None, **kwargs) -> None:
    """A new password revokes every token of its user: the one place for the reset form, the
    change form, the admin, ``changepassword`` and any ``set_password`` then ``save``. It compares
    the stored hash (one query, only when the password may have changed). In the caller's
    transaction when there is one, so a save that fails keeps the tokens."""
    if instance.pk is None or (update_fields is not None and "password" not in update_fields):
        return
    stored = sender.objects.filter(pk=instance.pk).values_list("password", flat=True).first()
    if stored is None or stored == instance.password or is_hash_upgrade(stored, update_fields):
        return
    user_tokens_revoke(user_id=instance.pk)


def connect_receivers() -> None:
    pre_save.connect(
        revoke_tokens_on_password_change, sender=get_user_model(), dispatch_uid="api.tokens.password_change"
    )
