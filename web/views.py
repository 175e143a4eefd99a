"""Server-rendered pages: thin views over ``web.selectors`` (which asks ``games.read.selectors`` who
may read a match). Signed-out visitors are sent to the login page; a match, deal or season the
user may not read is a 404 that does not say whether it exists."""

from __future__ import annotations

import functools

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from api import oauth, oauth_views, tokens
from config import limits, signin_counts
from games.domain.exceptions import CommandError, InvalidInput, NotFound
from games.domain.ids import bounded_int
from games.read import selectors as games_selectors
from games.write import signoffs
from printing import formats
from scoring import evening_selectors, invitations, members, printouts
from scoring import selectors as scoring_selectors
from scoring import summary as summaries
from scoring.annotations import annotation_job_queue
from scoring.models import Invitation

from . import selectors


def home(request):
    """``GET /``: what this is, and links to the club pages, the API and its docs (open to anyone)."""
    return render(request, "web/home.html", {"clubs": selectors.club_seasons(user=request.user)})


def _refused(request, exc: CommandError):
    """The error page: what was refused, with its status (a ``NotFound``: 404, which does not say whether the
    thing exists)."""
    return render(request, "web/not_found.html", {"detail": exc.detail}, status=exc.status)


def not_found_page(view):
    """A ``NotFound`` the view raises (a match, deal, season, club or evening the user may not read) answers
    the 404 page."""

    @functools.wraps(view)
    def page(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotFound as exc:
            return _refused(request, exc)

    return page


MATCHES_PER_PAGE = 50


@login_required
def match_list(request):
    """The matches the user may read, newest first, a page at a time (``?page=``: a number out of
    range gives the nearest page, as Django's ``Paginator.get_page`` does)."""
    page = Paginator(games_selectors.match_list(user=request.user), MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    rows = [{"match": m, "players": m.seat_players(), "summary": m.projection.summary} for m in page]
    return render(request, "web/match_list.html", {"matches": rows, "page": page})


@login_required
@not_found_page
def match_detail(request, match_id):
    return match_page(request, match_id)


def match_page(request, match_id, withdrawal: dict | None = None, status: int = 200):
    """The score sheet page; ``withdrawal``: the withdrawal form as typed, with its refusal."""
    match, viewer, role = selectors.match_for_page(match_id=match_id, user=request.user)
    sheet = selectors.score_sheet(match=match, viewer=viewer, user=request.user)
    season = selectors.season_of_match(match=match)
    context = {"match": match, "role": role, "sheet": sheet, "season": season}
    # an arbiter (the evening's organiser who sits at no table, say) may withdraw it (issue 23)
    context["may_withdraw"] = viewer.may_rule and not match.withdrawn and not match.read_only
    context["withdrawal"] = withdrawal or {}
    context["annotations"] = selectors.match_annotations(match=match)
    return render(request, "web/match_detail.html", context, status=status)


@login_required
@require_http_methods(["POST"])
@not_found_page
def match_withdraw(request, match_id):
    """The match page's "Withdraw this match" form (``games.write.signoffs.match_withdraw``): refused,
    the page again with the reason as typed and the refusal beside it."""
    reason = request.POST.get("reason", "")
    try:
        signoffs.match_withdraw(match_id=match_id, actor=request.user, reason=reason)
    except NotFound:
        raise
    except CommandError as exc:
        return match_page(request, match_id, withdrawal={"reason": reason, "error": exc.detail}, status=exc.status)
    messages.success(request, gettext("The match is withdrawn: it counts for nothing."))
    return redirect("web:match", match_id=match_id)


@login_required
@require_http_methods(["POST"])
def match_confirm(request, match_id):
    """The score sheet's "I confirm this sheet" button (``games.write.signoffs.result_confirm``)."""
    try:
        signoffs.result_confirm(match_id=match_id, actor=request.user)
    except NotFound as exc:
        return _refused(request, exc)
    except CommandError as exc:
        messages.error(request, exc.detail)
    else:
        messages.success(request, gettext("You confirmed this sheet."))
    return redirect("web:match", match_id=match_id)


@login_required
@not_found_page
def deal_detail(request, match_id, number: int):
    match, viewer, role = selectors.match_for_page(match_id=match_id, user=request.user)
    view = selectors.deal_view(match=match, viewer=viewer, number=number, user=request.user)
    if view["annotation"] is not None and not view["annotation"]["done"] and view["annotation"]["automatic"]:
        annotation_job_queue(match_id=str(match.pk))  # stale (a new engine) or its job lost: once more
    return render(request, "web/deal_detail.html", {"match": match, "role": role, "view": view})


@login_required
@not_found_page
def season_detail(request, season_id: int):
    season = selectors.season_get(season_id=season_id, user=request.user)
    context = selectors.season_standings(season=season, user=request.user)
    context["is_admin"] = scoring_selectors.is_club_admin(request.user, season.league.club_id)
    # the profiles of members without an account are linked for the officials who may read them
    context["sees_profiles"] = members.sees_profiles(request.user, season.league.club_id)
    return render(request, "web/season_detail.html", context)


@login_required
@not_found_page
def player_detail(request, player_id: int):
    """A player: his seasons, his rating with its uncertainty over time, his results by deal kind."""
    return render(request, "web/player_detail.html", selectors.player_page(player_id=player_id, user=request.user))


@login_required
@not_found_page
def season_player(request, season_id: int, player_id: int):
    """A player's season profile: his accuracy match by match, with a small plot (issue 27)."""
    season = selectors.season_get(season_id=season_id, user=request.user)
    context = selectors.season_player_accuracy(season=season, player_id=player_id)
    return render(request, "web/season_player.html", {"season": season, **context})


MAX_DEALS = 1000  # a deal number past this is no deal of any record


@login_required
@not_found_page
def evening_detail(request, evening_id: int):
    """A club evening: who is there, and each round's tables (with their matches) and sit-outs."""
    evening = evening_selectors.evening_visible(request.user, evening_id)
    if evening is None:
        raise NotFound(gettext("no evening %(evening)s") % {"evening": evening_id})
    return render(
        request,
        "web/evening_detail.html",
        {
            "evening": evening,
            "attendance": evening_selectors.evening_attendance(evening),
            "seating": evening_selectors.evening_seating(evening),
            "manages": evening_selectors.can_manage_evenings(request.user, evening.season.league.club_id),
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def record_viewer(request):
    """Paste a ``kierki-match/1`` record and step through one of its deals — an illegal one
    included (nothing is stored)."""
    context = {"text": "", "deal": "", "view": None, "error": None}
    if request.method == "POST":
        context["text"] = request.POST.get("record", "")
        context["deal"] = request.POST.get("deal", "").strip()
        context["view"], context["error"] = _record_deal(context["text"], context["deal"])
    return render(request, "web/record_viewer.html", context, status=400 if context["error"] else 200)


# --- clubs, members, invitations ---------------------------------------------------------------------


@login_required
def club_list(request):
    return render(request, "web/club_list.html", {"clubs": list(selectors.club_list(user=request.user))})


@login_required
@not_found_page
def club_detail(request, club_id: int):
    club = selectors.club_get(club_id=club_id, user=request.user)
    return render(request, "web/club_detail.html", selectors.club_overview(club=club, user=request.user))


@login_required
@require_http_methods(["GET", "POST"])
@not_found_page
def club_members(request, club_id: int):
    """The member list; a club admin adds a member by display name, or a user by username, and
    makes invitation links for the profiles without an account."""
    club = selectors.club_get(club_id=club_id, user=request.user)
    context = {
        "club": club,
        "is_admin": scoring_selectors.is_club_admin(request.user, club.pk),
        "error": None,
        "invitation_url": None,
        "done": None,
    }
    if request.method == "POST":
        try:
            context.update(_member_action(request, club))
        except CommandError as exc:
            context["error"] = exc.detail
    context["rows"] = members.member_rows(club, viewer=request.user)
    return render(request, "web/club_members.html", context, status=400 if context["error"] else 200)


def _member_action(request, club) -> dict:
    action = request.POST.get("action")
    if action == "add_profile":
        player = invitations.club_player_add(actor=request.user, club_id=club.pk, name=request.POST.get("name", ""))
        return {"done": gettext("%(name)s was added.") % {"name": player.username}}
    if action == "add_user":
        proposed = invitations.membership_propose(
            actor=request.user, club_id=club.pk, username=request.POST.get("username", "")
        )
        if isinstance(proposed, Invitation):  # he joins when he accepts (issue 30)
            return {
                "done": gettext("%(name)s was invited; he joins when he accepts.")
                % {"name": formats.person(proposed.user)}
            }
        return {"done": gettext("%(name)s is a member.") % {"name": formats.person(proposed.user)}}
    if action == "invite":
        invitation, token = invitations.invitation_create(
            actor=request.user, club_id=club.pk, player_id=request.POST.get("player", "")
        )
        return {
            "invitation_url": request.build_absolute_uri(reverse("web:invitation", kwargs={"token": token})),
            "invited": invitation.player.username,
        }
    raise InvalidInput(gettext("unknown action"))


@require_http_methods(["GET", "POST"])
def invitation_claim(request, token: str):
    """The invited person chooses a username and a password; then he is signed in. An invalid,
    expired or used link is an error page that changes nothing."""
    try:
        invitation = invitations.invitation_check(token=token)
    except CommandError as exc:
        return render(request, "web/invitation_error.html", {"error": exc.detail, "code": exc.code}, status=exc.status)
    context = {"invitation": invitation, "error": None, "username": "", "email": ""}
    if request.method == "POST":
        context.update(username=request.POST.get("username", ""), email=request.POST.get("email", ""))
        try:
            claimed = invitations.invitation_claim(
                token=token,
                username=context["username"],
                password=request.POST.get("password", ""),
                email=context["email"],
            )
        except CommandError as exc:
            context["error"] = exc.detail
        else:
            login(request, claimed.claimed_by, backend="django.contrib.auth.backends.ModelBackend")
            return redirect("web:club", club_id=claimed.club_id)
    return render(request, "web/invitation_claim.html", context, status=400 if context["error"] else 200)


@login_required
@require_http_methods(["GET", "POST"])
def join_invitations(request):
    """The signed-in user's open invitations to join a club, and his seats in other people's
    matches not yet accepted; he accepts or declines each (issue 30)."""
    context = {"error": None, "done": None}
    if request.method == "POST":
        try:
            context["done"] = _answer_invitation(request)
        except CommandError as exc:
            context["error"] = exc.detail
    context["invitations"] = list(members.join_invitations_open(request.user))
    context["seats"] = list(members.seat_invitations_open(request.user))
    return render(request, "web/join_invitations.html", context, status=400 if context["error"] else 200)


def _answer_invitation(request) -> str:
    invitation_id, answer = request.POST.get("invitation", ""), request.POST.get("answer")
    if request.POST.get("kind") == "seat":
        return _answer_seat(request.user, invitation_id, answer)
    if answer == "accept":
        membership = invitations.membership_accept(actor=request.user, invitation_id=invitation_id)
        return gettext("You are a member of %(club)s.") % {"club": membership.club.name}
    if answer == "decline":
        invitation = invitations.membership_decline(actor=request.user, invitation_id=invitation_id)
        return gettext("You declined to join %(club)s.") % {"club": invitation.club.name}
    raise InvalidInput(gettext("unknown action"))


def _answer_seat(user, invitation_id, answer) -> str:
    if answer == "accept":
        invitations.seat_accept(actor=user, invitation_id=invitation_id)
        return gettext("You accepted your seat; the match's scorer may now record it for you.")
    if answer == "decline":
        invitations.seat_decline(actor=user, invitation_id=invitation_id)
        return gettext("You declined your seat; nobody records it for you.")
    raise InvalidInput(gettext("unknown action"))


# --- a season's summary and closing ------------------------------------------------------------------


@login_required
@not_found_page
def season_summary(request, season_id: int):
    season = selectors.season_get(season_id=season_id, user=request.user)
    summary = summaries.season_summary(season=season)
    return render(
        request,
        "web/season_summary.html",
        {"season": season, "summary": summary, "facts": printouts.summary_facts(summary)},
    )


def _record_deal(text: str, deal: str):
    """The viewer's step-through of ``deal`` (blank: the first) of the pasted record, and None;
    or None and what is wrong with the input (the JSON, the deal number, the record)."""
    try:
        data = limits.loads(text)
    except limits.JSONRefused as exc:
        return None, gettext("not valid JSON: %(reason)s") % {"reason": exc}
    number = bounded_int(deal, maximum=MAX_DEALS) if deal else None
    if deal and number is None:
        return None, gettext("the deal number must be a whole number")
    try:
        return selectors.record_deal_view(data=data, number=number), None
    except InvalidInput as exc:
        return None, exc.detail


# --- sign-in: API tokens and password-reset mails (issue 30, finding 5) ---------------------------


@never_cache
@login_required
@require_http_methods(["GET", "POST"])
def my_tokens(request):
    """``/accounts/tokens/`` ("Moje tokeny"): the user's API tokens, each by the first characters of
    its key and its date; revoke one, or make one (its key shown on this answer only)."""
    new_key, error = None, None
    personal_form, new_personal = oauth_views.PersonalTokenForm(), None
    if request.method == "POST" and {"create_personal", "revoke_personal"} & set(request.POST):
        # Personal access tokens with scopes (issue 26): api.oauth_views.
        personal_form, new_personal, error = oauth_views.personal_token_post(request)
        if new_personal is None and error is None and "revoke_personal" in request.POST:
            return redirect("web:tokens")
    elif request.method == "POST" and "revoke" in request.POST:
        try:
            tokens.token_revoke(user=request.user, token_id=request.POST["revoke"])
        except NotFound as exc:
            error = exc.detail
        else:
            messages.success(request, gettext("The token was revoked: it no longer works."))
            return redirect("web:tokens")
    elif request.method == "POST" and "create" in request.POST:
        token, created = tokens.token_issue(user=request.user)
        if created:
            new_key = token.key
        else:
            error = gettext("You already have a token; revoke it first to get a new one.")
    context = {"tokens": tokens.token_list(user=request.user), "new_key": new_key, "error": error}
    context |= {
        "personal_tokens": oauth.personal_token_list(user=request.user),
        "personal_form": personal_form,
        "new_personal": new_personal,
    }
    return render(request, "web/tokens.html", context, status=400 if personal_form.errors else 200)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, its mails limited per client address and per e-mail address
    (``config.signin_counts``). Past the address's limit the page says so (429), which tells
    nothing of any account; past the e-mail address's, the answer is the usual "sent" page and
    no mail goes out, whether or not an account has that address."""

    def form_valid(self, form):
        address, account = signin_counts.reset_mail_attempt(request=self.request, email=form.cleaned_data["email"])
        if not address.allowed:
            context = {"retry_after": address.retry_after}
            refusal = render(self.request, "web/too_many_reset_requests.html", context, status=429)
            refusal["Retry-After"] = str(address.retry_after)
            return refusal
        if not account.allowed:
            return redirect(self.get_success_url())
        return super().form_valid(form)
