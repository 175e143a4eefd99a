"""The score sheet of a match filed from paper sheets (issue 13): tallied and points-only deals
are shown and marked as such, with no table view to step through; the date of play is shown."""

import datetime
import json

import pytest
from django.utils.formats import date_format
from support import TALLY_EXAMPLES
from web_helpers import PLAYERS, SEATS, score_sheet

from games.write import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def mixed(users):
    """tally-legal-mixed (played, tallied and points-only deals, played on a given date) imported by
    ``scorer``, with our players seated."""
    record = json.loads((TALLY_EXAMPLES / "tally-legal-mixed-m800000.record.json").read_text())
    record["players"] = dict(zip(SEATS, PLAYERS))
    summary = json.loads((TALLY_EXAMPLES / "tally-legal-mixed-m800000.expected.json").read_text())
    return record, summary, services.record_import(actor=users["scorer"], record=record)


def test_the_score_sheet_marks_tallied_and_points_only_deals(client, users, mixed):
    record, summary, match = mixed
    client.force_login(users["ala"])
    response = client.get(f"/matches/{match.pk}/")

    html = response.content.decode()
    rows, totals = score_sheet(response)
    for deal in summary["deals"]:
        row = rows[deal["number"]]
        assert row.get((None, "entry"), "played") == deal["entry"]
        for seat in SEATS:
            shown = "" if deal["tricks"] is None else str(deal["tricks"][seat])
            assert row[(seat, "tricks")] == shown
            assert row[(seat, "points")] == str(deal["points"][seat])
    assert totals == {seat: str(summary["totals"][seat]) for seat in SEATS}
    assert html.count('data-field="paper"') == sum(d["entry"] != "played" for d in summary["deals"])
    played_on = date_format(datetime.date.fromisoformat(record["played_on"]), "DATE_FORMAT")  # as the page localises it
    assert f"played on {played_on}" in html


def test_a_filed_deal_has_no_table_view_but_a_played_one_does(client, users, mixed):
    _, summary, match = mixed
    client.force_login(users["ala"])
    filed = next(d["number"] for d in summary["deals"] if d["entry"] != "played")
    played = next(d["number"] for d in summary["deals"] if d["entry"] == "played")

    assert client.get(f"/matches/{match.pk}/deals/{filed}/").status_code == 404
    assert client.get(f"/matches/{match.pk}/deals/{played}/").status_code == 200
