"""``/api/v1/auth/tokens/``: the signed-in user's API tokens, listed and revoked (issue 30,
finding 5; ``api.tokens``). A token is shown by its ``id`` (the key's first characters) and when
it was made; its whole key only once, when it is issued (``POST /api/v1/auth/token/``)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from . import tokens
from .pagination import listed
from .problems import problem_responses

errors = problem_responses(
    {
        401: "Not authenticated.",
        403: "A Bearer token (OAuth or personal access token): no app manages its user's tokens "
        "(`insufficient_scope`); use a session or an old key.",
        404: "No such token of yours (`not_found`).",
    }
)


class TokenSummarySerializer(serializers.Serializer):
    id = serializers.CharField(help_text="Names the token to revoke it; the first characters of its key.")
    prefix = serializers.CharField(help_text="The key's first characters, to tell the token from others.")
    created = serializers.DateTimeField()


class TokenListView(APIView):
    @extend_schema(
        operation_id="auth_tokens_list",
        summary="List your API tokens",
        tags=["auth"],
        description="Each token's id, the first characters of its key and when it was made; never the key.",
        responses={200: TokenSummarySerializer(many=True), **errors(401, 403)},
    )
    def get(self, request):
        return listed(request, TokenSummarySerializer(tokens.token_list(user=request.user), many=True).data)


class TokenDetailView(APIView):
    @extend_schema(
        operation_id="auth_tokens_destroy",
        summary="Revoke one of your API tokens",
        tags=["auth"],
        description="The token stops working at once (a request with it is then 401). Another user's "
        "token, or one already revoked, is 404.",
        responses={204: None, **errors(401, 403, 404)},
    )
    def delete(self, request, token_id: str):
        tokens.token_revoke(user=request.user, token_id=token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
