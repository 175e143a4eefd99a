"""The annotated deal (issue 27): the job a deal's end queues (eager Celery here), the stored rows,
their rebuild when the engine's version changes, and ``GET /matches/{id}/deals/{n}/annotations/``
(200 once computed, 202 with progress while its job has not run, 409 where no job annotates deals,
404 for a deal in play to everyone, 422 for a paper-sheet deal)."""

import json

import pytest
from audit_helpers import PROBLEM, url
from django.core.cache import cache
from django.core.management import call_command
from support import TALLY_EXAMPLES
from support.world import simulated

from games.engine.annotation import ENGINE_VERSION, GRADES
from games.models import MatchEvent
from games.write import services as games
from scoring.annotation_selectors import match_accuracy, season_accuracy
from scoring.annotations import queued_mark
from scoring.models import DealAnnotation

pytestmark = pytest.mark.django_db

T = MatchEvent.Type


@pytest.fixture
def annotating(settings):
    settings.ANNOTATE_DEALS = True
    settings.ANNOTATION_BUDGET_NODES = 2_000


def annotations(client, match, number):
    return client.get(url(match.pk, f"deals/{number}/annotations"))


def test_each_deal_is_annotated_by_the_job_queued_when_it_ends(annotating, world, clients, season_match):
    match = season_match(deals=2)

    rows = DealAnnotation.objects.filter(match=match).order_by("number")
    assert [(r.number, r.version) for r in rows] == [(1, ENGINE_VERSION), (2, ENGINE_VERSION)]
    body = annotations(clients["ala"], match, 2).json()  # a seated player, the deal over
    assert (body["status"], body["deal"], body["progress"]) == ("done", 2, {"done": 2, "to_do": 2})
    notes = body["annotation"]["cards"]
    played = [e.payload["card"] for e in MatchEvent.objects.filter(match=match, type=T.CARD_PLAYED).order_by("seq")]
    assert [n["card"] for n in notes] == played[52:104]
    assert len(body["annotation"]["positions"]) == 53
    for note in notes:
        low, high = note["cost"]
        assert 0 <= low <= high
        assert note["grade"] in GRADES or note["grade"] is None
    assert notes[-1]["cost"] == [0, 0] and notes[-1]["grade"] == "best"  # the last card is forced
    final = match.projection.summary["deals"][1]["points"]
    assert {s: p["guaranteed"] for s, p in body["annotation"]["positions"][-1].items()} == final


def test_nobody_sees_an_annotation_while_its_deal_is_in_play(annotating, world, clients, season_match):
    match = season_match(deals=1)
    record = simulated(1)
    games.deal_start(match_id=match.pk, actor=world.users["sam"], hands=record["deals"][1]["hands"])
    for card in record["deals"][1]["plays"][:20]:
        games.card_play(match_id=match.pk, actor=world.users["sam"], card=card)

    assert not DealAnnotation.objects.filter(match=match, number=2).exists()
    for who in ("staff", "ari", "sam", "ala", "darek", "rival", "outsider"):
        response = annotations(clients[who], match, 2)
        assert response.status_code == 404 and response["Content-Type"] == PROBLEM, who
        assert "cards" not in response.content.decode()
    for who, status in (("ala", 200), ("ari", 200), ("rival", 404), ("outsider", 404)):
        assert annotations(clients[who], match, 1).status_code == status, who


def test_while_the_job_has_not_run_it_answers_202_with_the_matchs_progress(world, clients, season_match, settings):
    match = season_match(deals=2)  # filed with ANNOTATE_DEALS off: no job ran
    settings.ANNOTATE_DEALS = True
    cache.add(queued_mark(match.pk), 1)  # its job is queued and has not started

    response = annotations(clients["ala"], match, 1)
    assert response.status_code == 202 and response["Retry-After"]
    assert response.json()["status"] == "pending" and response.json()["annotation"] is None
    assert response.json()["progress"] == {"done": 0, "to_do": 2}

    cache.delete(queued_mark(match.pk))  # the job was lost
    response = annotations(clients["ala"], match, 1)  # queues it again: eager, it runs in the request
    assert response.status_code == 200 and response.json()["progress"] == {"done": 2, "to_do": 2}


def test_where_no_job_annotates_deals_it_says_so_instead_of_asking_the_client_to_wait(
    world, clients, season_match, settings
):
    match = season_match(deals=2)
    settings.ANNOTATE_DEALS = False  # the embedded default: no task queue

    response = annotations(clients["ala"], match, 1)
    assert response.status_code == 409 and response["Content-Type"] == PROBLEM
    assert "Retry-After" not in response
    body = response.json()
    assert body["code"] == "annotation_not_scheduled" and "manage.py annotate_deals" in body["detail"]
    assert not DealAnnotation.objects.filter(match=match).exists()

    call_command("annotate_deals", "--match", str(match.pk), stdout=open("/dev/null", "w"))
    response = annotations(clients["ala"], match, 1)
    assert response.status_code == 200 and response.json()["progress"] == {"done": 2, "to_do": 2}


def test_a_row_of_another_engine_version_is_never_served_and_is_rebuilt(annotating, world, clients, season_match):
    match = season_match(deals=1)
    DealAnnotation.objects.filter(match=match).update(version="0" * 16, cards=[])
    from django.core.cache import cache

    cache.clear()  # the job's queued mark

    response = annotations(clients["ala"], match, 1)  # stale: queued again (eager: done in the request)
    assert response.status_code == 200 and response.json()["annotation"]["version"] == ENGINE_VERSION
    row = DealAnnotation.objects.get(match=match, number=1)
    assert row.version == ENGINE_VERSION and len(row.cards) == 52


def test_the_management_command_rebuilds_the_stale_rows_from_the_log(world, season_match, settings):
    match = season_match(deals=2)
    settings.ANNOTATE_DEALS = False
    call_command("annotate_deals", stdout=open("/dev/null", "w"))
    first = {r.number: r.cards for r in DealAnnotation.objects.filter(match=match)}
    assert sorted(first) == [1, 2]
    DealAnnotation.objects.filter(match=match, number=2).update(version="old")
    call_command("annotate_deals", "--match", str(match.pk), stdout=open("/dev/null", "w"))
    assert set(DealAnnotation.objects.filter(match=match).values_list("version", flat=True)) == {ENGINE_VERSION}


def test_a_paper_sheet_deal_has_no_annotation_and_is_not_counted(annotating, world, clients):
    data = json.loads((TALLY_EXAMPLES / "tally-legal-mixed-m800000.record.json").read_text())
    match = games.record_import(actor=world.users["sam"], record=data)
    call_command("annotate_deals", "--match", str(match.pk), stdout=open("/dev/null", "w"))
    played = [n for n, d in enumerate(data["deals"], 1) if "plays" in d]
    paper = [n for n, d in enumerate(data["deals"], 1) if "plays" not in d]

    assert sorted(DealAnnotation.objects.filter(match=match).values_list("number", flat=True)) == played
    response = annotations(clients["sam"], match, paper[0])
    assert response.status_code == 422 and response.json()["code"] == "analysis_unavailable"
    body = annotations(clients["sam"], match, played[0]).json()
    assert body["progress"] == {"done": len(played), "to_do": len(played)}


def test_accuracy_sums_each_players_seats_over_his_annotated_deals(annotating, world, season_match):
    match = season_match(deals=2)
    rows = list(DealAnnotation.objects.filter(match=match))
    figures = match_accuracy(match=match)
    players = match.seat_player_ids()
    for index, seat in enumerate("NESW"):
        mine = figures[players[index]]
        assert mine.deals == 2 and mine.cards == 26
        assert mine.graded == sum(r.seats[seat]["graded"] for r in rows)
        clean = sum(r.seats[seat]["clean"] for r in rows)
        assert mine.share == (round(100 * clean / mine.graded, 1) if mine.graded else None)
        assert mine.lost_per_deal == round(sum(r.seats[seat]["lost"] for r in rows) / 2, 1)
    assert season_accuracy(season_id=match.season_match.season_id) == figures


def test_a_deal_that_ends_soon_after_another_is_annotated_too(
    annotating, world, season_match, django_capture_on_commit_callbacks
):
    match = season_match(deals=1)
    assert list(DealAnnotation.objects.filter(match=match).values_list("number", flat=True)) == [1]
    record = simulated(1)
    with django_capture_on_commit_callbacks(execute=True):  # well within the first job's queued mark
        games.deal_start(match_id=match.pk, actor=world.users["sam"], hands=record["deals"][1]["hands"])
        for card in record["deals"][1]["plays"]:
            games.card_play(match_id=match.pk, actor=world.users["sam"], card=card)
    assert sorted(DealAnnotation.objects.filter(match=match).values_list("number", flat=True)) == [1, 2]
