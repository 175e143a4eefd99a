"""The organiser's pages of a club evening (issue 23), through Django's test client: each form
calls one command, a refusal keeps what was typed and names the field, and the fixes of the
issue's item 5 in the organiser's half (the evening's date on its matches, the organiser who
seated a round may withdraw its matches, a withdrawn table is not shown "finished")."""

import datetime
import re

import pytest
from django.test import Client
from support.world import SHORT, build_world

from games.models import Match
from games.write import signoffs
from scoring import evening_services
from scoring.models import Evening, EveningPlayer, EveningRound, Membership, Season, SeasonStatusChange

pytestmark = pytest.mark.django_db

DATE = datetime.date(2026, 12, 3)


@pytest.fixture(autouse=True)
def quick_seating(settings):
    settings.EVENING_SEATING_SECONDS = 0.5


@pytest.fixture
def world(django_user_model):
    """Club ``kk``: admin ``ada`` (never seated), members m01–m13, outsider ``olek``; season ``Zima``."""
    return evening_world(django_user_model)


def evening_world(user_model):
    return build_world(
        user_model, players=tuple(names(13)), scorer=None, arbiter=None, others=("olek",), staff=None, options=SHORT
    )


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def names(count: int) -> list[str]:
    return [f"m{k:02d}" for k in range(1, count + 1)]


def an_evening(world, count=8, rounds=2) -> Evening:
    return evening_services.evening_create(
        actor=world.users["ada"], season_id=world.season.pk, date=DATE, rounds=rounds, players=names(count)
    )


def field_error(html: str, field: str) -> str | None:
    found = re.search(rf'id="error-{field}">([^<]*)<', html)
    return found.group(1) if found else None


# --- a new evening -----------------------------------------------------------------------------------


def test_a_new_evening_signs_in_the_ticked_members_and_the_guests_by_name(world):
    response = signed_in(world.users["ada"]).post(
        f"/seasons/{world.season.pk}/evenings/new/",
        {"date": "2026-12-03", "rounds": "4", "dealing": "recorded", "present": names(12), "guests": "Gość Zenon\n"},
    )
    evening = Evening.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/evenings/{evening.pk}/seat/"
    assert evening.date == DATE and evening.rounds == 4
    present = sorted(EveningPlayer.objects.filter(evening=evening).values_list("player__username", flat=True))
    assert present == sorted([*names(12), "Gość Zenon"])


def test_a_refused_evening_keeps_what_was_typed_and_names_the_field(world):
    response = signed_in(world.users["ada"]).post(
        f"/seasons/{world.season.pk}/evenings/new/",
        {"date": "2026-12-03", "rounds": "0", "present": ["m01", "m02"], "guests": "Gość Zenon"},
    )
    html = response.content.decode()
    assert response.status_code == 400 and field_error(html, "rounds")
    assert 'name="rounds" min="1" max="20" value="0"' in html and "Gość Zenon</textarea>" in html
    assert 'value="m01" checked' in html and 'value="m03" checked' not in html
    assert not Evening.objects.exists()


def test_only_the_clubs_admins_open_the_organisers_forms(world):
    evening = an_evening(world)
    member = signed_in(world.users["m01"])
    assert member.get(f"/evenings/{evening.pk}/seat/").status_code == 404
    response = member.post(f"/seasons/{world.season.pk}/evenings/new/", {"date": "2026-12-04", "rounds": "2"})
    assert response.status_code == 403 and Evening.objects.count() == 1


# --- arrivals, withdrawals, seating --------------------------------------------------------------------


def test_a_late_arrival_and_a_withdrawal_count_from_the_next_round(world):
    evening = an_evening(world)
    ada = signed_in(world.users["ada"])
    assert ada.post(f"/evenings/{evening.pk}/players/", {"action": "sign_in", "arrive": ["m09"]}).status_code == 200
    assert ada.post(f"/evenings/{evening.pk}/players/", {"action": "withdraw", "leave": "m02"}).status_code == 200
    rows = {row.player.username: row for row in EveningPlayer.objects.filter(evening=evening)}
    assert rows["m09"].arrived_round == 1 and rows["m02"].left_round == 1


def test_tables_arranged_by_hand_are_checked_before_they_are_saved(world):
    evening = an_evening(world)
    ada = signed_in(world.users["ada"])
    typed = dict(zip([f"t1-{s}" for s in "NESW"], names(4))) | dict(
        zip([f"t2-{s}" for s in "NESW"], ["m05", "m06", "m07", "m01"])
    )
    refused = ada.post(f"/evenings/{evening.pk}/seat/", {"action": "preview", **typed})
    html = refused.content.decode()
    assert refused.status_code == 400 and "errors" in html and 'value="m01" list=' in html
    assert not EveningRound.objects.exists()

    typed["t2-W"] = "m08"
    preview = ada.post(f"/evenings/{evening.pk}/seat/", {"action": "preview", **typed})
    assert preview.status_code == 200 and 'id="preview"' in preview.content.decode()
    assert not EveningRound.objects.exists()  # a preview saves nothing

    saved = ada.post(f"/evenings/{evening.pk}/seat/", {"action": "manual", **typed})
    assert saved.status_code == 302 and saved["Location"] == f"/evenings/{evening.pk}/#round-1"
    assert EveningRound.objects.get().seated_by == "manual"


def test_the_servers_seating_is_one_button(world):
    evening = an_evening(world)
    response = signed_in(world.users["ada"]).post(f"/evenings/{evening.pk}/seat/", {"action": "auto"})
    assert response.status_code == 302 and EveningRound.objects.get().tables.count() == 2


# --- item 5: the fixes -----------------------------------------------------------------------------------


def test_an_evenings_matches_are_played_on_the_evenings_date(world):
    evening = an_evening(world)
    evening_services.evening_round_seat(actor=world.users["ada"], evening_id=evening.pk)
    assert set(Match.objects.values_list("played_on", flat=True)) == {DATE}


def test_the_organiser_who_seated_a_round_withdraws_one_of_its_matches(world):
    ada = world.users["ada"]
    evening = an_evening(world)
    evening_services.evening_round_seat(actor=ada, evening_id=evening.pk)
    match = Match.objects.first()
    assert match.scorer_id == ada.pk  # he files the sheets …
    signoffs.match_withdraw(match_id=match.pk, actor=ada, reason="wrong table")  # … and is not involved (seated)
    match.refresh_from_db()
    assert match.withdrawn


def test_a_withdrawn_table_is_not_shown_finished_and_names_replace_status_codes(world):
    ada = world.users["ada"]
    evening = an_evening(world)
    evening_services.evening_round_seat(actor=ada, evening_id=evening.pk)
    match = Match.objects.first()
    signoffs.match_withdraw(match_id=match.pk, actor=ada, reason="wrong table")
    html = signed_in(ada).get(f"/evenings/{evening.pk}/").content.decode()
    assert "in_progress" not in html and ">finished<" not in html
    assert html.count('class="withdrawn"') == 1


def test_the_evenings_results_rank_its_players(world):
    evening = an_evening(world)
    evening_services.evening_round_seat(actor=world.users["ada"], evening_id=evening.pk)
    response = signed_in(world.users["m01"]).get(f"/evenings/{evening.pk}/results/")
    html = response.content.decode()
    assert response.status_code == 200 and html.count("<tr><td>") == 8  # eight players ranked, 0 points each


# --- the season ---------------------------------------------------------------------------------------


def test_closing_a_season_asks_for_a_reason_and_a_confirmation(world):
    ada = signed_in(world.users["ada"])
    url = f"/seasons/{world.season.pk}/close/"
    unconfirmed = ada.post(url, {"reason": "koniec zimy"})
    assert unconfirmed.status_code == 400 and field_error(unconfirmed.content.decode(), "confirm")
    assert "koniec zimy</textarea>" in unconfirmed.content.decode()
    assert Season.objects.get().status == "open"
    closed = ada.post(url, {"reason": "koniec zimy", "confirm": "yes"})
    assert closed.status_code == 302 and Season.objects.get().status == "closed"
    assert SeasonStatusChange.objects.get().reason == "koniec zimy"


def test_a_new_season_and_its_settings(world):
    ada = signed_in(world.users["ada"])
    created = ada.post(
        f"/clubs/{world.club.pk}/seasons/new/", {"league": world.league.pk, "name": "Wiosna", "min_matches": "2"}
    )
    season = Season.objects.get(name="Wiosna")
    assert created.status_code == 302 and season.min_matches == 2
    refused = ada.post(
        f"/seasons/{season.pk}/edit/", {"name": "Wiosna 2027", "start_date": "2027-03-01", "end_date": "2027-02-01"}
    )
    assert refused.status_code == 400 and field_error(refused.content.decode(), "end_date")
    assert 'value="Wiosna 2027"' in refused.content.decode()
    assert Season.objects.get(pk=season.pk).name == "Wiosna"


def test_an_admin_names_an_arbiter(world):
    response = signed_in(world.users["ada"]).post(f"/clubs/{world.club.pk}/roles/", {"user": "m03", "role": "arbiter"})
    assert response.status_code == 200
    assert Membership.objects.get(user__username="m03").role == "arbiter"


def test_a_withdrawn_table_is_filed_again_in_its_place(world):
    ada = world.users["ada"]
    evening = an_evening(world)
    evening_services.evening_round_seat(actor=ada, evening_id=evening.pk)
    table = EveningRound.objects.get().tables.get(number=1)
    old = table.season_match.match
    url = f"/evenings/{evening.pk}/rounds/1/tables/1/refile/"
    refused = signed_in(ada).post(url)
    assert refused.status_code == 409 and Match.objects.count() == 2  # not withdrawn: nothing filed

    signoffs.match_withdraw(match_id=old.pk, actor=ada, reason="wrong sheet")
    response = signed_in(ada).post(url)
    table.refresh_from_db()
    new = table.season_match.match
    assert response.status_code == 302 and response["Location"] == f"/matches/{new.pk}/"
    assert new.pk != old.pk and new.seat_player_ids() == old.seat_player_ids() and new.played_on == DATE
    assert new.first_dealer == old.first_dealer and not new.withdrawn
    old.refresh_from_db()
    assert old.withdrawn and old.season_match.season_id == world.season.pk  # still in the season, withdrawn
    html = signed_in(ada).get(f"/evenings/{evening.pk}/").content.decode()
    assert 'class="withdrawn"' not in html


def test_the_clubs_scorer_sees_the_evenings_matches(world):
    from games.read import selectors as games_selectors
    from scoring import services as scoring_services

    scoring_services.membership_set(actor=world.users["ada"], club_id=world.club.pk, username="m13", role="scorer")
    evening = an_evening(world)  # m13 is not at the evening
    evening_services.evening_round_seat(actor=world.users["ada"], evening_id=evening.pk)
    scorer = world.users["m13"]
    listed = set(games_selectors.match_list(user=scorer).values_list("pk", flat=True))
    assert listed == set(Match.objects.values_list("pk", flat=True))
    assert signed_in(scorer).get(f"/matches/{Match.objects.first().pk}/").status_code == 200
    olek = signed_in(world.users["olek"])  # an outsider still learns nothing
    assert olek.get(f"/matches/{Match.objects.first().pk}/").status_code == 404


def test_tables_typed_by_hand_are_checked_as_they_are_typed(world):
    """htmx posts the grid on each change: a table not yet of four is not checked; a complete one
    is, and its refusal comes as a 200 answer (htmx swaps only those) with nothing saved."""
    evening = an_evening(world)
    ada = signed_in(world.users["ada"])
    url, htmx = f"/evenings/{evening.pk}/seat/", {"HTTP_HX_REQUEST": "true"}
    typing = ada.post(url, {"action": "preview", "t1-N": "m01", "t1-E": "m02"}, **htmx)
    assert typing.status_code == 200 and 'role="alert"' not in typing.content.decode()
    wrong = {"action": "preview", **dict(zip([f"t1-{s}" for s in "NESW"], ["m01", "m02", "m03", "olek"]))}
    refused = ada.post(url, wrong, **htmx)
    assert refused.status_code == 200 and "olek" in refused.content.decode().split('id="preview-slot"')[1]
    assert not EveningRound.objects.exists()


def test_the_season_page_links_its_evenings_and_its_standings_as_csv(world):
    member = signed_in(world.users["m01"])
    html = member.get(f"/seasons/{world.season.pk}/").content.decode()
    csv_url = f"/api/v1/seasons/{world.season.pk}/standings/csv/"
    assert f'href="/seasons/{world.season.pk}/evenings/"' in html and f'href="{csv_url}"' in html
    answer = member.get(csv_url)
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/csv")


def test_closing_a_season_records_its_end_date_its_last_evening_by_default(world):
    an_evening(world)
    ada = signed_in(world.users["ada"])
    url = f"/seasons/{world.season.pk}/close/"
    assert 'name="end_date" value="2026-12-03"' in ada.get(url).content.decode()
    Season.objects.filter(pk=world.season.pk).update(start_date=datetime.date(2026, 10, 1))
    refused = ada.post(url, {"reason": "koniec", "confirm": "yes", "end_date": "2026-09-30"})
    assert refused.status_code == 400 and field_error(refused.content.decode(), "end_date")
    assert Season.objects.get().status == "open" and Season.objects.get().end_date is None
    closed = ada.post(url, {"reason": "koniec", "confirm": "yes", "end_date": "2026-12-03"})
    season = Season.objects.get()
    assert closed.status_code == 302 and season.status == "closed" and season.end_date == DATE


def test_the_member_list_shows_names_not_links_to_raw_json(world):
    html = signed_in(world.users["ada"]).get(f"/clubs/{world.club.pk}/members/").content.decode()
    assert "m01" in html and "/api/v1/players/" not in html
