"""``GET /api/v1/clubs/{id}/export/``: the club's archive for its admins; problem+json for anyone else."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from support import PROBLEM, api_client
from support.world import simulated

from scoring import services

pytestmark = pytest.mark.django_db


def url(club_id) -> str:
    return f"/api/v1/clubs/{club_id}/export/"


def test_the_clubs_admin_downloads_its_archive(world):
    match = services.season_record_import(actor=world.users["sam"], season_id=world.season.pk, record=simulated(1))

    response = api_client(world.users["ada"]).get(url(world.club.pk))

    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == 'attachment; filename="kk-kierki.zip"'
    archive = zipfile.ZipFile(io.BytesIO(b"".join(response.streaming_content)))
    assert json.loads(archive.read("manifest.json"))["club"] == {"name": "Klub Kierkowy", "slug": "kk"}
    assert f"matches/{match.pk}.record.json" in archive.namelist()


@pytest.mark.parametrize("who, status", [("sam", 403), ("ala", 403), ("outsider", 403), (None, 401)])
def test_anyone_but_an_admin_gets_a_problem_and_no_archive(world, who, status):
    response = api_client(world.users[who] if who else None).get(url(world.club.pk), HTTP_ACCEPT="application/zip")

    assert response.status_code == status
    assert response["Content-Type"] == PROBLEM
    assert response.json()["status"] == status


def test_no_such_club_is_a_404_problem(world):
    response = api_client(world.users["ada"]).get(url(999999))

    assert response.status_code == 404 and response["Content-Type"] == PROBLEM


def test_the_club_page_links_the_download_in_polish_for_its_admins_only(world, client):
    client.force_login(world.users["ada"])
    page = client.get(f"/clubs/{world.club.pk}/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert f'<a href="{url(world.club.pk)}" download>Pobierz dane klubu (ZIP)</a>' in page

    client.force_login(world.users["ala"])
    assert url(world.club.pk) not in client.get(f"/clubs/{world.club.pk}/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
