"""DRF's browsable API in Polish (issue 25, item 1): the view names, the raw-data form's labels,
DRF's template strings and the frame come in the reader's language; DRF's own Polish catalogue
answers what it has. The JSON stays as it is in every language."""

import pytest

from api.browsable import VIEW_NAMES

pytestmark = pytest.mark.django_db


def browse(client, user, url, language):
    client.force_login(user)
    return client.get(url, HTTP_ACCEPT="text/html", HTTP_ACCEPT_LANGUAGE=language)


def test_the_browsable_api_speaks_polish(client, django_user_model):
    user = django_user_model.objects.create_user("wanda")
    html = browse(client, user, "/api/v1/seasons/", "pl").content.decode()
    assert "<title>Sezony – Kierki API</title>" in html
    assert "Season List" not in html and "Django REST framework" not in html
    assert "Typ treści" in html and "Media type" not in html  # the raw-data form of the POST
    assert "Wyloguj" in html and "Log out" not in html
    assert 'title="Wyślij żądanie GET do: Sezony"' in html  # DRF's buttons' tooltips
    assert 'title="Wybierz format żądania GET"' in html
    assert "Make a" not in html and "Specify a format" not in html


def test_it_speaks_english_on_request(client, django_user_model):
    user = django_user_model.objects.create_user("wanda")
    html = browse(client, user, "/api/v1/seasons/", "en").content.decode()
    assert "<title>Seasons – Kierki API</title>" in html and "Media type" in html
    assert 'title="Send a GET request to Seasons"' in html


def test_the_json_is_the_same_in_every_language(client, django_user_model):
    user = django_user_model.objects.create_user("wanda")
    client.force_login(user)
    polish = client.get("/api/v1/seasons/", HTTP_ACCEPT_LANGUAGE="pl").json()
    assert polish == client.get("/api/v1/seasons/", HTTP_ACCEPT_LANGUAGE="en").json()


def test_every_api_view_has_a_name_of_ours():
    from django.urls import get_resolver
    from rest_framework.views import APIView, get_view_name

    unnamed = set()

    def walk(patterns):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns)
                continue
            view = getattr(pattern.callback, "cls", None)
            if view is None or not issubclass(view, APIView) or view.__module__.startswith("drf_spectacular"):
                continue
            name = get_view_name(view(**(getattr(pattern.callback, "initkwargs", None) or {})))
            if name not in VIEW_NAMES:
                unnamed.add(name)

    walk(get_resolver().url_patterns)
    assert not unnamed, f"API views with no name of ours (api/browsable.py VIEW_NAMES): {sorted(unnamed)}"
