"""The throttles count in the shared cache and fail open: with the cache (Redis) unreachable a
request goes through with a warning, never a 500 (docs/limits.md)."""

import pytest
import redis
from django.core.cache import cache

pytestmark = pytest.mark.django_db


@pytest.fixture
def cache_down(monkeypatch):
    def down(*args, **kwargs):
        raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(cache, "add", down)
    monkeypatch.setattr(cache, "incr", down)


def test_the_token_endpoint_answers_with_the_cache_down_and_says_so_in_the_log(client_for, cache_down, caplog):
    response = client_for().post("/api/v1/auth/token/", {"username": "nobody", "password": "x"}, format="json")

    assert response.status_code == 400 and response.json()["code"] == "invalid"
    assert "throttle auth limit unchecked, the cache failed: ConnectionError" in caplog.text


def test_the_token_endpoint_is_throttled_in_the_cache(client_for, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "auth": "2/hour"},
    }
    answers = [
        client_for().post("/api/v1/auth/token/", {"username": "nobody", "password": "x"}, format="json").status_code
        for _ in range(3)
    ]

    assert answers == [400, 400, 429]
