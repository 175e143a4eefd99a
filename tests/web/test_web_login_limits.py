"""The login forms (site and admin) are limited per client address and per username (issue 11,
finding 3); tests/ops/test_ops_shared_limits.py shows the limit holds across two gunicorn workers."""

import pytest
import redis
from django.core.cache import cache

from config import login_limits

pytestmark = pytest.mark.django_db

FORMS = ["/accounts/login/", "/admin/login/"]


@pytest.fixture(autouse=True)
def limit_of_three(settings):
    settings.LOGIN_FAILURE_LIMIT = "3/hour"
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def ewa(django_user_model):
    return django_user_model.objects.create_user("ewa", password="a-long-pass-phrase", is_staff=True)


def attempt(client, form: str, username: str, password: str = "wrong", address: str = "203.0.113.7"):
    return client.post(form, {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("form", FORMS)
def test_after_the_limit_of_failures_for_a_username_every_attempt_is_429_even_the_right_one(client, ewa, form):
    failures = [attempt(client, form, "ewa", address=f"198.51.100.{i}").status_code for i in range(3)]

    refused = attempt(client, form, "ewa", "a-long-pass-phrase", address="198.51.100.99")

    assert failures == [200, 200, 200]  # the form again, saying the credentials are wrong
    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 3600
    assert "Too many failed sign-ins" in refused.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("form", FORMS)
def test_after_the_limit_of_failures_from_an_address_every_username_is_refused_there(client, ewa, form):
    for name in ("a", "b", "c"):
        assert attempt(client, form, name).status_code == 200

    assert attempt(client, form, "ewa", "a-long-pass-phrase").status_code == 429
    assert attempt(client, form, "ewa", "a-long-pass-phrase", address="192.0.2.1").status_code == 302


def test_usernames_are_counted_whatever_their_case_and_spaces(client, ewa):
    for name in ("Ewa", " ewa", "EWA "):
        attempt(client, "/accounts/login/", name, address=f"198.51.100.{len(name)}{ord(name[0])}")

    assert attempt(client, "/accounts/login/", "ewa", address="192.0.2.9").status_code == 429


def test_a_successful_sign_in_is_not_counted(client, ewa):
    for _ in range(4):
        assert attempt(client, "/accounts/login/", "ewa", "a-long-pass-phrase").status_code == 302
        client.logout()


def test_the_limit_counts_per_window_and_forgets_the_last_one(client, ewa, monkeypatch):
    now = [1_000_000 * 3600.0]
    monkeypatch.setattr(login_limits.time, "time", lambda: now[0])
    for _ in range(3):
        attempt(client, "/accounts/login/", "ewa")
    assert attempt(client, "/accounts/login/", "ewa").status_code == 429

    now[0] += 3600  # the next window

    assert attempt(client, "/accounts/login/", "ewa", "a-long-pass-phrase").status_code == 302


def test_with_the_cache_down_an_attempt_goes_through_with_a_warning(client, ewa, monkeypatch, caplog):
    def down(*args, **kwargs):
        raise redis.ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    monkeypatch.setattr(login_limits.cache, "get_many", down)
    monkeypatch.setattr(login_limits.cache, "add", down)

    assert attempt(client, "/accounts/login/", "ewa", "a-long-pass-phrase").status_code == 302
    assert "login failure limit unchecked" in caplog.text


def test_an_empty_setting_turns_the_limit_off(client, ewa, settings):
    settings.LOGIN_FAILURE_LIMIT = None
    for _ in range(5):
        assert attempt(client, "/accounts/login/", "ewa").status_code == 200
