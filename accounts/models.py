"""Personal access tokens (issue 26): what a person says of a token he made for a script — its
name — and when it was last used. The token itself is a django-oauth-toolkit access token with no
app (its scopes, its expiry, stored as a checksum only), so one authentication and one scope check
serve OAuth and personal tokens alike."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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


class PrivacyRequest(models.Model):
    """The privacy log (issue 28): append-only, one row per erasure, personal export or name
    correction done — who asked, of whom, when. It holds no personal data of an erased person: the
    subject is his player's public id (random) and his erasure number (the N of "erased player #N")."""

    class Kind(models.TextChoices):
        ERASURE = "erasure", _("Erasure")
        EXPORT = "export", _("Personal data export")
        RENAME = "rename", _("Name corrected")

    kind = models.CharField(max_length=8, choices=Kind.choices)
    subject = models.CharField(max_length=17)  # the person's Player.public_id (or "" for an account without one)
    erased_number = models.PositiveIntegerField(null=True, blank=True)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    by_role = models.CharField(max_length=8)  # "self", "admin" (a club admin, for his club: ``club``) or "staff"
    club = models.ForeignKey("scoring.Club", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise TypeError("the privacy log is append-only")
        super().save(*args, **kwargs)
