"""The role matrix (tests/api/test_api_permissions.py) again, every signed-in role holding an OAuth
access token with just the scope the endpoint needs (issue 26): a scope never widens a role, and
the right scope keeps every answer the matrix expects."""

import pytest
from oauth_helpers import bearer, scoped_token
from support import api_client
from test_api_permissions import TestThePermissionMatrix, built, matrix, users  # noqa: F401 - the fixtures

pytestmark = pytest.mark.django_db

SCOPE = {
    "list": "matches:read",
    "retrieve": "matches:read",
    "state": "matches:read",
    "events": "matches:read",
    "record": "matches:read",
    "create": "matches:play",
    "deals": "matches:play",
    "plays": "matches:play",
    "lead-offers": "matches:play",
    "lead-decision": "matches:play",
    "import": "sheets:file",
}


class TestThePermissionMatrixWithScopedTokens(TestThePermissionMatrix):
    @pytest.fixture
    def client_for(self, request):
        scope = SCOPE[request.node.callspec.params["endpoint"]]
        return lambda user: bearer(scoped_token(user, scope)) if user is not None else api_client(None)

    @pytest.fixture
    def clients(self, users):  # noqa: F811 - the imported fixture
        """The set-up's clients (reading the state to pick a card), signed in as before."""
        return {name: api_client(user) for name, user in users.items()}


del TestThePermissionMatrix  # collected in its own module
