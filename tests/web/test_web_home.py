"""GET /: the landing page (links to the API, its docs and the club pages); the docs served from
the project (drf-spectacular-sidecar), nothing loaded from another host."""

import re

import pytest
from django.test import Client

from scoring import services

pytestmark = pytest.mark.django_db

EXTERNAL = re.compile(r'(?:src|href)="(?:https?:)?//')


def test_a_visitor_gets_the_landing_page_with_the_api_and_docs_and_a_sign_in_link():
    response = Client().get("/")

    page = response.content.decode()
    assert response.status_code == 200
    for link in (
        'href="/api/v1/"',
        'href="/api/v1/docs/"',
        'href="/api/v1/redoc/"',
        'href="/api/v1/schema/"',
        'href="/accounts/login/"',
    ):
        assert link in page, link


def test_a_member_finds_his_clubs_seasons_on_it(users):
    club = services.club_create(actor=users["ala"], name="Klub Kierkowy", slug="kk")
    league = services.league_create(actor=users["ala"], club_id=club.pk, name="Liga czwartkowa")
    season = services.season_create(actor=users["ala"], league_id=league.pk, name="Wiosna")
    member, outsider = Client(), Client()
    member.force_login(users["ala"])
    outsider.force_login(users["outsider"])

    mine, theirs = member.get("/").content.decode(), outsider.get("/").content.decode()

    assert "Klub Kierkowy" in mine and f'href="/seasons/{season.pk}/"' in mine
    assert "Klub Kierkowy" not in theirs and f"/seasons/{season.pk}/" not in theirs


@pytest.mark.parametrize("page", ["/api/v1/docs/", "/api/v1/redoc/"])
def test_the_api_docs_load_nothing_from_another_host_and_their_assets_are_served(page):
    client = Client()

    html = client.get(page).content.decode()

    assert not EXTERNAL.search(html), EXTERNAL.search(html)
    scripts = re.findall(r'<script src="([^"]+)"', html)
    # Swagger UI's start-up script is the page's own ?script (no inline script: the CSP, test_web_csp.py).
    assert scripts and all(src.startswith(("/static/drf_spectacular_sidecar/", f"{page}?script")) for src in scripts)
    for src in scripts:
        asset = client.get(src)
        assert asset.status_code == 200, src
        assert b"".join(asset.streaming_content) if asset.streaming else asset.content, src
