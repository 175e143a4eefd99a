"""Throttled answers say where the client stands (issue 29, item 4): the IETF draft's
``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` (seconds), on every answer
of a throttled endpoint, the 429 included; none where nothing throttles."""

import pytest
from rest_framework.test import APIClient

from api import throttles
from api.urls import PublicAPIRootView

pytestmark = pytest.mark.django_db


def sign_in(client):
    return client.post("/api/v1/auth/token/", {"username": "nobody", "password": "x"}, format="json")


def limits(response) -> tuple[int, int, int]:
    return tuple(int(response.headers[f"RateLimit-{name}"]) for name in ("Limit", "Remaining", "Reset"))


def test_the_token_endpoint_counts_down_to_its_429(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "auth": "2/hour"},
    }
    answers = [sign_in(APIClient()) for _ in range(3)]

    assert [a.status_code for a in answers] == [400, 400, 429]
    assert [limits(a)[:2] for a in answers] == [(2, 1), (2, 0), (2, 0)]
    assert all(0 < limits(a)[2] <= 3600 for a in answers)
    assert limits(answers[2])[2] == int(answers[2].headers["Retry-After"])


@pytest.fixture
def user_throttled(monkeypatch):
    """The API root throttled per user (3/minute) and anonymous client (2/minute), as production is."""
    monkeypatch.setattr(PublicAPIRootView, "throttle_classes", [throttles.UserThrottle, throttles.AnonThrottle])
    for throttle in (throttles.UserThrottle, throttles.AnonThrottle):  # DRF reads the rates at import
        monkeypatch.setattr(throttle, "THROTTLE_RATES", {"user": "3/minute", "anon": "2/minute"})


def test_the_tightest_of_the_throttles_is_shown_and_reset_within_the_window(user_throttled):
    client = APIClient()
    answers = [client.get("/api/v1/") for _ in range(3)]

    assert [a.status_code for a in answers] == [200, 200, 429]
    assert [limits(a)[:2] for a in answers] == [(2, 1), (2, 0), (2, 0)]  # anonymous: the anon limit is tighter
    assert all(1 <= limits(a)[2] <= 60 for a in answers)


def test_a_signed_in_user_sees_his_own_limit(user_throttled, django_user_model):
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user("ula"))

    answer = client.get("/api/v1/")

    assert answer.status_code == 200 and limits(answer)[:2] == (3, 2)


def test_an_endpoint_nothing_throttles_sends_no_such_headers():
    answer = APIClient().get("/api/v1/")

    assert answer.status_code == 200 and "RateLimit-Limit" not in answer.headers
