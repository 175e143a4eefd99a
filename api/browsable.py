"""DRF's browsable API in the reader's language (issue 25, item 1). DRF's own Polish catalogue
covers its messages but not the page around them: the view names ("Season List"), the raw-data
form's labels, the sign-in links and a few template strings. The view names and the form's labels
are translated here, the template strings in our catalogue (``DRF_TEXTS`` keeps them there), and
``web/browsable_api.html`` puts our brand and the site's sign-in and sign-out in DRF's page."""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _
from rest_framework import renderers

# DRF's template strings its Polish catalogue lacks (rest_framework/templates/rest_framework/base.html)
DRF_TEXTS = (
    gettext_noop("Extra Actions"),
    gettext_noop("No items to select."),
    gettext_noop("navbar"),
    gettext_noop("content"),
    gettext_noop("main content"),
    gettext_noop("request form"),
    gettext_noop("request info"),
    gettext_noop("response info"),
)

# DRF's name of each view (its class name, with "List" or "Instance" for a viewset) → ours
VIEW_NAMES = {
    "Public Api Root": _("Kierki API"),
    "Ping": _("Ping"),
    "Schema": _("The OpenAPI schema"),  # api/schema_view.py
    "Club List": _("Clubs"),
    "Club Instance": _("Club"),
    "Club Webhooks": _("The club's webhooks"),
    "Members": _("Members"),
    "Member": _("Member"),
    "Players": _("Players"),
    "Player": _("Player"),
    "Invitation": _("Invitation"),
    "Invitation Claim": _("Claiming an invitation"),
    "Join Invitation List": _("Invitations to join"),
    "Join Invitation Accept": _("Accepting an invitation to join"),
    "Join Invitation Decline": _("Declining an invitation to join"),
    "Seat Invitation List": _("Invitations to a seat"),
    "Seat Invitation Accept": _("Accepting a seat"),
    "Seat Invitation Decline": _("Declining a seat"),
    "League List": _("Leagues"),
    "League Instance": _("League"),
    "Season List": _("Seasons"),
    "Season Instance": _("Season"),
    "Standings": _("Standings"),
    "Standings csv": _("Standings (CSV)"),
    "Standings xlsx": _("Standings (XLSX)"),
    "Matches xlsx": _("The season's matches and deals (XLSX)"),
    "Results xlsx": _("The evening's results (XLSX)"),
    "Summary": _("Season summary"),
    "Season Standings Pdf": _("Standings (PDF)"),
    "Season Summary Pdf": _("Season summary (PDF)"),
    "Records": _("Season records"),
    "History": _("Season history"),
    "Close": _("Closing the season"),
    "Reopen": _("Reopening the season"),
    "Evening List": _("Evenings"),
    "Evening Instance": _("Evening"),
    "Evening Seating Pdf": _("Seating (PDF)"),
    "Rounds": _("Rounds"),
    "Player Instance": _("Player"),
    "Player List": _("Players"),
    "Club Export": _("The club's data (ZIP)"),
    "Deal Annotation": _("The annotated deal"),
    "My Data": _("My data"),
    "My Erasure": _("Erasing my data"),
    "Player Data": _("A player's data"),
    "Player Erasure": _("Erasing a player's data"),
    "Player Name": _("Correcting a player's name"),
    "Match List": _("Matches"),
    "Match Instance": _("Match"),
    "Match Sheet": _("Score sheet (PDF)"),
    "Match Analysis": _("Analysis"),
    "Match Audit": _("Audit"),
    "Match Disputes": _("Disputes"),
    "Import record": _("Importing a record"),
    "Record": _("Record"),
    "State": _("State of the match"),
    "Events": _("Events"),
    "Deals": _("Deals"),
    "Plays": _("Plays"),
    "Tallies": _("Tallies"),
    "Corrections": _("Corrections"),
    "Lead offers": _("Lead offers"),
    "Lead decision": _("Lead decision"),
    "Confirmations": _("Confirmations"),
    "Withdrawal": _("Withdrawal"),
    "Reinstatement": _("Reinstatement"),
    "Dispute List": _("Disputes"),
    "Dispute Detail": _("Dispute"),
    "Ruling": _("Ruling"),
    "Problem Type List": _("Problem types"),
    "Problem Type": _("Problem type"),
    "Token List": _("Tokens"),
    "Token Detail": _("Token"),
    "Token": _("Token"),
    "Webhook": _("Webhook"),
    "Webhook Deliveries": _("Webhook deliveries"),
    "Webhook Ping": _("Webhook ping"),
    "Redeliver": _("Delivering again"),
}


def view_name(view) -> str:
    """``VIEW_NAME_FUNCTION``: DRF's name of the view, in the reader's language when we have it."""
    from rest_framework.views import get_view_name  # its module reads the settings naming this one

    english = get_view_name(view)
    return str(VIEW_NAMES.get(english, english))


# DRF's buttons' tooltips (rest_framework/templates/rest_framework/base.html), written in English
# with no translation tag: rewritten in the rendered page (``tooltips_translated``).
TOOLTIP = re.compile(
    r'title="Make an? (?P<method>[A-Z]+) request on the (?P<name>[^"]*?) resource'
    r'(?: with the format set to `(?P<format>[^`"]*)`)?"'
)
FORMAT_TOOLTIP = 'title="Specify a format for the GET request"'


def tooltips_translated(html: str) -> str:
    def translated(found: re.Match) -> str:
        values = found.groupdict()
        if values["format"] is None:
            text = gettext("Send a %(method)s request to %(name)s") % values
        else:
            text = gettext("Send a %(method)s request to %(name)s, in the format %(format)s") % values
        return f'title="{text}"'

    choose = gettext("Choose the format of the GET request")
    html = html.replace(FORMAT_TOOLTIP, f'title="{choose}"')
    return TOOLTIP.sub(translated, html)


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's browsable API with our frame (``web/browsable_api.html``), its raw-data form's labels
    and its buttons' tooltips translated."""

    template = "web/browsable_api.html"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return tooltips_translated(super().render(data, accepted_media_type, renderer_context))

    def get_raw_data_form(self, data, view, method, request):
        form = super().get_raw_data_form(data, view, method, request)
        if form is not None:
            for field, label in (("_content_type", gettext("Media type")), ("_content", gettext("Content"))):
                if field in form.fields:
                    form.fields[field].label = label
        return form
