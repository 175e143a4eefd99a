"""Personal access tokens (issue 26): what a person says of a token he made for a script — its
name — and when it was last used. The token itself is a django-oauth-toolkit access token with no
app (its scopes, its expiry, stored as a checksum only), so one authentication and one scope check
serve OAuth and personal tokens alike."""

from django.conf import settings
from django.db import models


class PersonalToken(models.Model):
    access_token = models.OneToOneField(
        "oauth2_provider.AccessToken", on_delete=models.CASCADE, related_name="personal"
    )
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="personal_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=12)  # the first characters, to tell tokens apart; never usable
    created = models.DateTimeField(auto_now_add=True)
    last_used = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created", "-pk"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
