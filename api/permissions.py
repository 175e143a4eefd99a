"""Endpoint-level permissions. Who may act in a match is the services' business (they raise
``NotAllowed``); who may read one is ``games.domain.roles.role_of``'s."""

from __future__ import annotations

from django.utils.translation import gettext
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import BasePermission

from games.domain.exceptions import InvalidInput
from games.models import Match
from games.read.selectors import SCORERS_GROUP, user_may_import

from .oauth_scopes import check_scope, is_open, required_scope


class TokenHasScope(BasePermission):
    """The one scope check (issue 26), in the settings' defaults: a Bearer token acts only within
    its scopes, as ``api.oauth_scopes.ENDPOINT_SCOPES`` decides per operation (403
    ``insufficient_scope``). Sessions and the old full-scope tokens pass."""

    def has_permission(self, request, view) -> bool:
        if not is_open(view):
            check_scope(request.auth, required_scope(view, request.method))
        return True


class CanImportRecords(BasePermission):
    """Filing records: staff, or members of the Django auth group ``scorers``."""

    message = f"only staff and members of the {SCORERS_GROUP!r} group may import match records"

    def has_permission(self, request, view) -> bool:
        return user_may_import(request.user)


def check_scorer_appointment(user, *, scorer: str | None, dealing: str, seats: dict[str, str]) -> None:
    """Who may be named scorer at creation: oneself (anyone) or anybody (staff only). The scorer
    sees every hand, so the scorer of a server-dealt match may not sit at it."""
    if scorer is None:
        return
    if scorer != user.get_username() and not user.is_staff:
        raise PermissionDenied(gettext("only staff may appoint another user as scorer; name yourself or nobody"))
    if dealing == Match.Dealing.SERVER and scorer in seats.values():
        raise InvalidInput(
            gettext("the scorer of a server-dealt match may not sit at it: he sees every hand"), field="scorer"
        )
