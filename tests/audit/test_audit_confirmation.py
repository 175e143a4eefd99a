"""Results the table signs (issue 11, "What to build" 2): a season match counts in the standings
only once confirmed — filed by officials not seated in it, signed by two other seated players,
or played online by each seat's own user."""

import pytest
from audit_helpers import PLAYERS, PROBLEM, SEATS, filed, play_record, season_match, simulated, url

from games.domain.confirmation import result_digest
from games.models import Match, MatchEvent, MatchProjection, Player
from games.read import audit
from games.write import services as games
from scoring.models import StandingRow

pytestmark = pytest.mark.django_db

T = MatchEvent.Type


def standings(world) -> list[tuple]:
    return list(
        StandingRow.objects.filter(season=world.season)
        .order_by("order")
        .values_list("player__username", "matches", "balance")
    )


def confirm(client, match, **headers):
    return client.post(url(match.pk, "confirmations"), {}, format="json", headers=headers or None)


def filed_by_ala(world, capture, seed=2):
    """The finding: seated ``ala`` creates a recorded season match (she is its scorer) and enters
    every seat's cards herself."""
    return filed(world, capture, by="ala", seed=seed)


def test_a_seated_member_filing_alone_moves_no_standings_until_two_other_players_confirm(
    world, clients, django_capture_on_commit_callbacks
):
    match = filed_by_ala(world, django_capture_on_commit_callbacks)
    assert match.status == Match.Status.FINISHED and not match.confirmed
    assert standings(world) == []
    body = clients["bartek"].get(url(match.pk)).json()
    assert body["confirmation"]["status"] == "awaiting" and body["confirmation"]["filed_by"] == ["ala"]
    season_url = f"/api/v1/seasons/{world.season.pk}/standings/"
    assert clients["bartek"].get(season_url).json()["awaiting_confirmation"] == [str(match.pk)]

    refused = confirm(clients["ala"], match)  # the filer does not sign her own sheet
    assert refused.status_code == 403 and refused.json()["code"] == "filer_cannot_confirm"
    with django_capture_on_commit_callbacks(execute=True):
        assert confirm(clients["bartek"], match).status_code == 201
    assert standings(world) == [] and not Match.objects.get(pk=match.pk).confirmed
    again = confirm(clients["bartek"], match)
    assert again.status_code == 409 and again.json()["code"] == "already_confirmed"

    with django_capture_on_commit_callbacks(execute=True):
        response = confirm(clients["celina"], match)
    assert response.status_code == 201, response.content
    assert [e["type"] for e in response.json()["events"]] == [T.RESULT_CONFIRMED]
    signed = MatchProjection.objects.get(pk=match.pk).summary
    assert response.json()["events"][0]["payload"] == {
        "seat": "S",
        "by": Player.objects.get(username="celina").public_id,  # the log names people by id (issue 28)
        "result": result_digest(signed["deals"]),
        "v": 2,
    }
    totals = signed["totals"]
    assert sorted(standings(world)) == sorted((name, 1, totals[seat]) for seat, name in zip(SEATS, PLAYERS))
    assert clients["bartek"].get(season_url).json()["awaiting_confirmation"] == []
    detail = clients["darek"].get(url(match.pk)).json()["confirmation"]
    assert detail["status"] == "confirmed" and detail["rule"] == "players"
    assert [(c["seat"], c["player"]) for c in detail["by"]] == [("E", "bartek"), ("S", "celina")]
    assert audit.audit_failures(match) == []  # the signatures are in the chain, and the rules check accepts them


def test_a_match_filed_by_the_clubs_scorer_not_seated_counts_at_once(world, season_match):
    match = season_match(seed=1)  # filed and entered by sam, the club's scorer, who does not play
    assert match.filed_by_official and match.confirmed
    assert len(standings(world)) == 4


def test_outsiders_and_the_clubs_officials_do_not_sign_a_sheet(world, clients, django_capture_on_commit_callbacks):
    match = filed_by_ala(world, django_capture_on_commit_callbacks)
    assert confirm(clients["outsider"], match).status_code == 404
    for who in ("ari", "staff", "ada"):
        response = confirm(clients[who], match)
        assert response.status_code == 403 and response.json()["code"] == "not_allowed", who
    assert not MatchEvent.objects.filter(match=match, type=T.RESULT_CONFIRMED).exists()


def test_a_sheet_is_signed_only_once_the_match_is_finished(world, clients):
    match = season_match(world, by="ala")
    play_record(match, simulated(2), world.users["ala"], deals=1)
    response = confirm(clients["bartek"], match)
    assert response.status_code == 409 and response.json()["code"] == "match_not_finished"
    assert response.headers["Content-Type"] == PROBLEM


def test_a_server_dealt_match_each_seat_played_itself_counts_without_signatures(world, clients):
    from games.engine.match import restore

    match = season_match(world, by="ala", dealing="server")
    users = dict(zip(SEATS, (world.users[name] for name in PLAYERS)))
    while True:
        state = restore(MatchProjection.objects.get(pk=match.pk).snapshot)
        if state.complete:
            break
        if state.deal is None:
            games.deal_start(match_id=match.pk, actor=users["N"])
            continue
        seat = state.deal.to_play
        games.card_play(match_id=match.pk, actor=users[seat.name], card=str(state.deal.legal_cards(seat)[0]))
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.confirmed
    assert clients["ala"].get(url(match.pk)).json()["confirmation"]["rule"] == "online"


def test_profiles_show_confirmed_results_unless_asked_for_all(world, clients, django_capture_on_commit_callbacks):
    match = filed_by_ala(world, django_capture_on_commit_callbacks)
    player = match.north_id
    shown = clients["bartek"].get(f"/api/v1/players/{player}/").json()["matches"]
    assert shown == []
    every = clients["bartek"].get(f"/api/v1/players/{player}/", {"include_unconfirmed": "true"}).json()["matches"]
    assert [(m["match"], m["confirmed"]) for m in every] == [(str(match.pk), False)]


def test_the_score_sheet_page_has_the_i_confirm_this_sheet_button(world, django_capture_on_commit_callbacks):
    from django.test import Client

    match = filed_by_ala(world, django_capture_on_commit_callbacks)
    pages = {}
    for name in ("ala", "bartek", "celina"):
        pages[name] = Client()
        pages[name].force_login(world.users[name])
    sheet = f"/matches/{match.pk}/"
    assert 'data-status="awaiting"' in pages["bartek"].get(sheet).content.decode()
    assert 'id="confirm-sheet"' not in pages["ala"].get(sheet).content.decode()  # she filed it
    assert 'id="confirm-sheet"' in pages["bartek"].get(sheet).content.decode()
    for name in ("bartek", "celina"):
        with django_capture_on_commit_callbacks(execute=True):
            response = pages[name].post(f"{sheet}confirmation/")
        assert response.status_code == 302 and response.headers["Location"] == sheet
    page = pages["bartek"].get(sheet).content.decode()
    assert 'data-status="confirmed"' in page and 'id="confirm-sheet"' not in page
    assert len(standings(world)) == 4


def test_the_migration_confirms_the_earlier_matches_that_need_no_signature(
    world, season_match, django_capture_on_commit_callbacks
):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("scoring.migrations.0003_roles_confirmation")
    by_scorer = season_match(seed=1)
    by_ala = filed_by_ala(world, django_capture_on_commit_callbacks)
    Match.objects.update(confirmed=False, filed_by_official=False)  # as every match stood before the migration
    migration.decide(apps, None)
    assert Match.objects.filter(pk=by_scorer.pk, confirmed=True, filed_by_official=True).exists()
    assert Match.objects.filter(pk=by_ala.pk, confirmed=False, filed_by_official=False).exists()
