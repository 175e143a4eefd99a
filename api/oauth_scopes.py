"""OAuth scopes (issue 26): what each scope lets an app do, and which scope each endpoint needs —
decided here, in one table, and checked by one permission (``api.permissions.TokenHasScope``, in the
settings' defaults) for every request made with a Bearer token (an OAuth access token or a personal access
token). Sessions and the old full-scope tokens (``Authorization: Token``) are not affected.

A token acts for its user and never beyond his role: the scope only narrows what the user could
do anyway (the services still decide who may act in a match, a club, a dispute).

The table is keyed by the view's class name and the operation (the viewset's action, else the HTTP
method); ``"read"`` and ``"write"`` stand for the safe and the unsafe methods. An endpoint missing
from it is refused to every Bearer token (403 ``insufficient_scope``): a new view is closed until
someone decides its scope here (tests/api/test_api_oauth_scopes.py checks every endpoint is listed).
"""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from oauth2_provider.models import AbstractAccessToken
from oauth2_provider.scopes import BaseScopes
from rest_framework.exceptions import PermissionDenied
from rest_framework.permissions import SAFE_METHODS

READ = "matches:read"
PLAY = "matches:play"
SHEETS = "sheets:file"
CLUB = "club:admin"
ARBITER = "arbiter"
WEBHOOKS = "webhooks"

# The consent page's words: what the app may do, in plain words (the user's role still bounds it).
SCOPE_TEXTS = {
    READ: gettext_lazy(
        "See the matches, clubs, seasons and standings you may see; of a match in play only the hands you may see."
    ),
    PLAY: gettext_lazy("Play for you at your seat: deal, offer and decide the lead, play your cards, raise a dispute."),
    SHEETS: gettext_lazy("File score sheets and tallies in your name and confirm the sheets of matches you played."),
    CLUB: gettext_lazy(
        "Run the clubs you are an admin of: members, invitations, leagues, seasons and evenings; "
        "and answer invitations to join a club."
    ),
    ARBITER: gettext_lazy("Act as an arbiter where you are one: see disputes, rule on them, withdraw matches."),
    WEBHOOKS: gettext_lazy("Manage the webhooks of the clubs you are an admin of."),
}
SCOPES = tuple(SCOPE_TEXTS)

# view class name -> {operation: scope}; operation is the action of a viewset, else "read"/"write".
ENDPOINT_SCOPES: dict[str, dict[str, str]] = {
    "MatchViewSet": {
        "read": READ,
        "create": PLAY,
        "deals": PLAY,
        "plays": PLAY,
        "lead_offers": PLAY,
        "lead_decision": PLAY,
        "import_record": SHEETS,
        "tallies": SHEETS,
        "corrections": SHEETS,  # the scorer's sheet, or an arbiter's correction of it (the role bounds it)
        "confirmations": SHEETS,
        "withdrawal": ARBITER,
        "reinstatement": ARBITER,
    },
    "MatchAuditView": {"read": READ},
    "MatchAnalysisView": {"read": READ},
    "DealAnnotationView": {"read": READ},  # as the analysis
    "MatchSheetView": {"read": READ},
    "MatchDisputesView": {"read": READ, "write": PLAY},
    "DisputeListView": {"read": ARBITER},
    "DisputeDetailView": {"read": ARBITER},
    "RulingView": {"write": ARBITER},
    "ClubViewSet": {"read": READ, "write": CLUB},
    "ClubExportView": {"read": CLUB},  # the club's whole archive: its admins' business
    "LeagueViewSet": {"read": READ, "write": CLUB},
    "SeasonViewSet": {"read": READ, "write": CLUB},
    "PlayerViewSet": {"read": READ},
    "EveningViewSet": {"read": READ, "write": CLUB},
    "SeasonStandingsPDFView": {"read": READ},
    "SeasonSummaryPDFView": {"read": READ},
    "EveningSeatingPDFView": {"read": READ},
    "JoinInvitationListView": {"read": CLUB},
    "JoinInvitationAcceptView": {"write": CLUB},
    "JoinInvitationDeclineView": {"write": CLUB},
    "SeatInvitationListView": {"read": PLAY},
    "SeatInvitationAcceptView": {"write": PLAY},
    "SeatInvitationDeclineView": {"write": PLAY},
    "ClubWebhooksView": {"read": WEBHOOKS, "write": WEBHOOKS},
    "WebhookView": {"read": WEBHOOKS, "write": WEBHOOKS},
    "WebhookPingView": {"write": WEBHOOKS},
    "WebhookDeliveriesView": {"read": WEBHOOKS},
    "RedeliverView": {"write": WEBHOOKS},
    # Token management (auth/tokens/) has no scope on purpose: no app manages its user's tokens.
    # Privacy requests (api/privacy.py: MyDataView, MyErasureView, PlayerDataView, PlayerErasureView,
    # PlayerNameView) have none either: an erasure cannot be undone, an export is everything about a
    # person, and a name correction reseals old logs, so a person or a club admin does them signed
    # in, never an app (docs/privacy.md).
}
# Answered to anyone (AllowAny) or not resources of the user: no scope asked.
OPEN_VIEWS = frozenset(
    {
        "PingView",
        "TokenView",  # the old token endpoint: signs in by password, whatever header comes with it
        "ProblemTypeListView",
        "ProblemTypeView",
        "InvitationClaimView",
        "PublicAPIRootView",
        "SchemaView",  # api/schema_view.py: SpectacularAPIView answering from its memo
        "SpectacularAPIView",
        "SpectacularRedocView",
        "SpectacularSwaggerView",
        "SpectacularSwaggerSplitView",  # /api/v1/docs/ since the Content-Security-Policy
    }
)
# The event streams (plain async views, api/streams.py) only read.
STREAM_SCOPE = READ


def required_scope(view, method: str) -> str | None:
    """The scope a Bearer token needs for this operation; ``None`` when no scope grants it. The
    viewset's action when the table names it, else the view's read or write scope."""
    scopes = ENDPOINT_SCOPES.get(type(view).__name__, {})
    action = getattr(view, "action", None)
    if action in scopes:
        return scopes[action]
    return scopes.get("read" if method.upper() in SAFE_METHODS else "write")


def token_scopes(auth) -> frozenset[str] | None:
    """The scopes of a Bearer token; ``None`` when ``auth`` is a session or an old full-scope token."""
    if isinstance(auth, AbstractAccessToken):
        return frozenset(auth.scope.split())
    return None


class InsufficientScope(PermissionDenied):
    default_code = "insufficient_scope"


def is_open(view) -> bool:
    return type(view).__name__ in OPEN_VIEWS


def check_scope(auth, scope: str | None) -> None:
    """Refuses a Bearer token that lacks ``scope`` (``None``: no scope grants the operation)."""
    granted = token_scopes(auth)
    if granted is None or (scope is not None and scope in granted):
        return
    if scope is None:
        raise InsufficientScope(gettext("No token scope grants this request; use a session."))
    raise InsufficientScope(gettext("This token's scopes do not include %(scope)s.") % {"scope": scope})


class RoleScopes(BaseScopes):
    """django-oauth-toolkit's scopes: ours, with the consent page's texts."""

    def get_all_scopes(self):
        return {scope: str(text) for scope, text in SCOPE_TEXTS.items()}

    def get_available_scopes(self, application=None, request=None, *args, **kwargs):
        return list(SCOPES)

    def get_default_scopes(self, application=None, request=None, *args, **kwargs):
        return [READ]


class BearerScheme(OpenApiAuthenticationExtension):
    """The schema's ``oauth2`` scheme: the code flow, and on each operation the scope it needs."""

    target_class = "api.authentication.BearerTokenAuthentication"
    name = "oauth2"
    priority = 1  # over drf-spectacular's own extension for django-oauth-toolkit

    def get_security_requirement(self, auto_schema):
        if is_open(auto_schema.view):
            return None
        scope = required_scope(auto_schema.view, auto_schema.method)
        return {self.name: [scope]} if scope else None

    def get_security_definition(self, auto_schema):
        return {
            "type": "oauth2",
            "description": "OAuth 2.0 access tokens and personal access tokens: `Authorization: Bearer <token>`.",
            "flows": {
                "authorizationCode": {
                    "authorizationUrl": "/o/authorize/",
                    "tokenUrl": "/o/token/",
                    "refreshUrl": "/o/token/",
                    "scopes": {scope: str(text) for scope, text in SCOPE_TEXTS.items()},
                }
            },
        }


INSUFFICIENT_SCOPE_TEXT = "`insufficient_scope`: the Bearer token lacks this operation's scope (see `security`)."


def document_insufficient_scope(result: dict, generator, request, public) -> dict:
    """Postprocessing hook: every operation that asks an OAuth scope may answer 403
    ``insufficient_scope``; said on its 403 (added when the view declares none)."""
    for item in result["paths"].values():
        for operation in item.values():
            if not isinstance(operation, dict):
                continue
            if not any("oauth2" in requirement for requirement in operation.get("security", [])):
                continue
            responses = operation.setdefault("responses", {})
            forbidden = responses.get("403")
            if forbidden is None:
                responses["403"] = {
                    "description": INSUFFICIENT_SCOPE_TEXT,
                    "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}},
                }
                operation["responses"] = dict(sorted(responses.items()))
            elif "`insufficient_scope`" not in forbidden.get("description", ""):
                forbidden["description"] = (
                    f"{forbidden.get('description', '').rstrip()} {INSUFFICIENT_SCOPE_TEXT}".strip()
                )
    return result
