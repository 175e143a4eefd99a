"""The OAuth pages (issue 26), Polish first: the consent page, the apps a user registered (with
who authorised them) and the apps he authorised (revocable). The protocol endpoints are
django-oauth-toolkit's, routed by ``api/oauth_urls.py``."""

from __future__ import annotations

from urllib.parse import urlsplit

from csp.decorators import csp_update
from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods
from oauth2_provider import views as oauth_views

from games.domain.exceptions import NotFound

from . import oauth
from .oauth_scopes import SCOPE_TEXTS


class ConsentView(oauth_views.AuthorizationView):
    """``/o/authorize/``: django-oauth-toolkit's, on our page: each scope asked for in plain words."""

    template_name = "web/oauth/authorize.html"

    def get(self, request, *args, **kwargs):
        """The page, its Content-Security-Policy letting the form go on to the app: a browser checks
        ``form-action`` on the redirect that follows "Zezwól" too, and the site's is ``'self'``. The
        redirect URI is one django-oauth-toolkit checked against the app's registered ones."""
        response = super().get(request, *args, **kwargs)
        redirect_uri = self.oauth2_data.get("redirect_uri")
        if response.status_code != 200 or not redirect_uri:
            return response
        parts = urlsplit(redirect_uri)
        allowed = {"form-action": [f"{parts.scheme}://{parts.netloc}"]}
        return csp_update(allowed)(lambda request: response)(request)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["scope_texts"] = [(scope, SCOPE_TEXTS.get(scope, scope)) for scope in context.get("scopes") or ()]
        return context


class AppForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=255)
    redirect_uris = forms.CharField(
        label=_("Redirect URIs"),
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "One or more, separated by spaces or lines; https, or http://127.0.0.1 for a program on a computer."
        ),
    )
    confidential = forms.TypedChoiceField(
        label=_("Kind"),
        choices=[
            ("0", _("Public: a table app, a phone app, a bot (no secret; PKCE protects it)")),
            ("1", _("Confidential: a website with a server that keeps a secret")),
        ],
        coerce=lambda value: value == "1",
        widget=forms.RadioSelect,
        initial="0",
    )


@login_required
@require_http_methods(["GET", "POST"])
def my_apps(request):
    """``/o/apps/`` ("Moje aplikacje"): register an app; the apps you registered with the people
    who authorised them. A confidential app's secret is shown once, on the answer to registering."""
    form, registered = AppForm(request.POST or None), None
    if request.method == "POST" and form.is_valid():
        try:
            registered = oauth.app_register(user=request.user, **form.cleaned_data)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                form.add_error(field if field in form.fields else None, errors)
        else:
            form = AppForm()
    context = {"form": form, "registered": registered, "apps": oauth.apps_registered_by(user=request.user)}
    return render(request, "web/oauth/apps.html", context, status=400 if form.errors else 200)


@login_required
@require_http_methods(["GET", "POST"])
def authorised_apps(request):
    """``/o/authorised/`` ("Aplikacje z dostępem"): the apps you let act for you; revoke one."""
    if request.method == "POST":
        try:
            oauth.app_authorisation_revoke(user=request.user, app_id=int(request.POST.get("revoke", "0")))
        except (NotFound, ValueError):
            messages.error(request, gettext("No such app among those you authorised."))
        else:
            messages.success(request, gettext("The app no longer has access: its tokens stopped working."))
        return redirect("oauth2_provider:authorised-apps")
    return render(request, "web/oauth/authorised.html", {"apps": oauth.apps_authorised_by(user=request.user)})


class PersonalTokenForm(forms.Form):
    """A personal access token for a script: a name, the scopes, an expiry (``/accounts/tokens/``)."""

    name = forms.CharField(label=_("Name"), max_length=100, help_text=_("What it is for, e.g. “club results script”."))
    scopes = forms.MultipleChoiceField(
        label=_("Scopes"),
        choices=[(scope, f"{scope} — {text}") for scope, text in SCOPE_TEXTS.items()],
        widget=forms.CheckboxSelectMultiple,
    )
    days = forms.TypedChoiceField(
        label=_("Expires in"),
        choices=[(days, _("%(days)s days") % {"days": days}) for days in oauth.PERSONAL_EXPIRY_DAYS],
        coerce=int,
        initial=30,
    )


def personal_token_post(request) -> tuple[PersonalTokenForm, str | None, str | None]:
    """The "Moje tokeny" page's personal-token actions (``web.views.my_tokens`` calls it on a POST
    with ``create_personal`` or ``revoke_personal``): (the form, the new token's value, an error)."""
    form = PersonalTokenForm(request.POST if "create_personal" in request.POST else None)
    if "revoke_personal" in request.POST:
        try:
            oauth.personal_token_revoke(user=request.user, token_id=int(request.POST["revoke_personal"]))
        except (NotFound, ValueError):
            return form, None, gettext("No such token.")
        messages.success(request, gettext("The token was revoked: it no longer works."))
        return form, None, None
    if form.is_valid():
        issued = oauth.personal_token_issue(user=request.user, **form.cleaned_data)
        return PersonalTokenForm(), issued.value, None
    return form, None, None
