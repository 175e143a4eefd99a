"""Correcting what the service holds about a person (GDPR/RODO Art. 16, docs/privacy.md): his
e-mail address — where a password reset goes — confirmed by his password, so that someone who
finds his session open cannot take the account over."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils.translation import gettext

from games.domain.exceptions import InvalidInput


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
