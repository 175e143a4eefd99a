"""The webhook endpoints: who may use them, what they answer, the write-only secret, the
delivery log and manual redelivery."""

import hashlib
import hmac

import pytest
from hooks_helpers import deliveries, fresh_world, hooks_world
from support import PROBLEM
from support import api_client as client
from support.once import once_per_module

from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db


built = once_per_module(hooks_world)  # every test starts from the world: built once (support.once)


@pytest.fixture
def world(built):
    return fresh_world(built)


# --- who may do what --------------------------------------------------------------------------------


def _operations(world, endpoint, delivery):
    """(name, method, path, body, status for the club's admins and staff, for everyone else)"""
    club, hook = f"/api/v1/clubs/{world.club.pk}/webhooks/", f"/api/v1/webhooks/{endpoint.pk}/"
    return {
        "list": ("get", club, None, 200, 403),
        "create": ("post", club, {"url": endpoint.url, "event_types": ["match.finished"]}, 201, 403),
        "read": ("get", hook, None, 200, 404),
        "change": ("patch", hook, {"active": False}, 200, 404),
        "remove": ("delete", hook, None, 204, 404),
        "log": ("get", f"{hook}deliveries/", None, 200, 404),
        "ping": ("post", f"{hook}ping/", None, 202, 404),
        "redeliver": ("post", f"{hook}deliveries/{delivery.pk}/redeliver/", None, 202, 404),
    }


OPERATIONS = ("list", "create", "read", "change", "remove", "log", "ping", "redeliver")


@pytest.mark.parametrize("operation", OPERATIONS)
@pytest.mark.parametrize(
    "who, allowed",
    [("ada", True), ("staff", True), ("p1", False), ("sam", False), ("olga", False), ("outsider", False), (None, None)],
)
def test_only_the_club_admins_and_staff_manage_its_webhooks(world, hook, operation, who, allowed):
    endpoint = hook()
    delivery = Delivery.objects.create(
        endpoint=endpoint,
        event_type="ping",
        payload={},
        status="failed",
        next_attempt_at=endpoint.created_at,
        retry_until=endpoint.created_at,
        created_at=endpoint.created_at,
    )
    method, path, body, ok, denied = _operations(world, endpoint, delivery)[operation]

    response = getattr(client(world.users.get(who)), method)(path, body, format="json")

    expected = 401 if allowed is None else ok if allowed else denied
    assert response.status_code == expected, response.content
    if not allowed:
        assert response["Content-Type"] == PROBLEM
        endpoint.refresh_from_db()  # still there, unchanged
        assert endpoint.active and Endpoint.objects.count() == 1 and Delivery.objects.count() == 1
        assert Delivery.objects.get().status == "failed"


def test_an_unknown_club_or_webhook_is_404(world):
    admin = client(world.users["ada"])
    assert admin.get("/api/v1/clubs/999/webhooks/").status_code == 404
    assert admin.get("/api/v1/webhooks/999/").status_code == 404
    assert admin.get("/api/v1/webhooks/x/deliveries/").status_code == 404


# --- registering ---------------------------------------------------------------------------------------


def test_registering_returns_the_generated_secret_once(world, receiver, allow_private):
    admin = client(world.users["ada"])

    created = admin.post(
        f"/api/v1/clubs/{world.club.pk}/webhooks/",
        {"url": receiver.url, "event_types": ["match.finished", "deal.finished"]},
        format="json",
    )

    assert created.status_code == 201, created.content
    body = created.json()
    assert body["secret"].startswith("whsec_") and len(body["secret"]) > 40
    assert {k: body[k] for k in ("club", "url", "event_types", "active", "created_by")} == {
        "club": world.club.pk,
        "url": receiver.url,
        "event_types": ["match.finished", "deal.finished"],
        "active": True,
        "created_by": "ada",
    }
    assert "secret" not in admin.get(f"/api/v1/webhooks/{body['id']}/").json()
    assert all("secret" not in hook for hook in admin.get(f"/api/v1/clubs/{world.club.pk}/webhooks/").json())
    assert Endpoint.objects.get().secret == body["secret"]


def test_a_given_secret_signs_the_deliveries(world, receiver, allow_private, django_capture_on_commit_callbacks):
    admin = client(world.users["ada"])
    secret = "a-secret-of-our-own-choosing"
    hook = admin.post(
        f"/api/v1/clubs/{world.club.pk}/webhooks/",
        {"url": receiver.url, "event_types": ["match.finished"], "secret": secret},
        format="json",
    ).json()

    with django_capture_on_commit_callbacks(execute=True):
        assert admin.post(f"/api/v1/webhooks/{hook['id']}/ping/").status_code == 202

    [ping] = receiver.received
    t, v1 = (part.split("=", 1)[1] for part in ping.headers["X-Kierki-Signature"].split(","))
    assert v1 == hmac.new(secret.encode(), f"{t}.".encode() + ping.body, hashlib.sha256).hexdigest()
    assert ping.json()["type"] == "ping" and ping.json()["data"]["webhook"] == hook["id"]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"url": "https://93.184.215.14/hook", "event_types": ["match.started"]}, "event_types.0"),
        ({"url": "https://93.184.215.14/hook", "event_types": []}, "event_types"),
        ({"url": "https://93.184.215.14/hook"}, "event_types"),
        ({"event_types": ["match.finished"]}, "url"),
        ({"url": "ftp://93.184.215.14/hook", "event_types": ["match.finished"]}, "url"),
        ({"url": "https://93.184.215.14/hook", "event_types": ["match.finished"], "secret": "short"}, "secret"),
    ],
)
def test_bad_input_is_a_problem_naming_the_field_and_stores_nothing(world, body, field):
    response = client(world.users["ada"]).post(f"/api/v1/clubs/{world.club.pk}/webhooks/", body, format="json")

    assert response.status_code == 400
    assert response["Content-Type"] == PROBLEM
    assert response.json()["code"] == "invalid" and response.json()["field"] == field
    assert not Endpoint.objects.exists()


def test_changing_a_webhook_checks_what_changes(world, hook):
    endpoint = hook(["match.finished"])
    admin = client(world.users["ada"])

    changed = admin.patch(
        f"/api/v1/webhooks/{endpoint.pk}/", {"event_types": ["standings.updated"], "active": False}, format="json"
    )
    refused = admin.patch(f"/api/v1/webhooks/{endpoint.pk}/", {"event_types": ["nope"]}, format="json")

    assert changed.status_code == 200
    assert (changed.json()["event_types"], changed.json()["active"]) == (["standings.updated"], False)
    assert refused.status_code == 400 and refused.json()["field"] == "event_types.0"
    endpoint.refresh_from_db()
    assert endpoint.event_types == ["standings.updated"] and not endpoint.active


def test_removing_a_webhook_removes_its_log(world, hook):
    endpoint = hook()
    client(world.users["ada"]).post(f"/api/v1/webhooks/{endpoint.pk}/ping/")

    assert client(world.users["ada"]).delete(f"/api/v1/webhooks/{endpoint.pk}/").status_code == 204
    assert not Endpoint.objects.exists() and not Delivery.objects.exists()


# --- the log and redelivery ---------------------------------------------------------------------------------


def pinged(world, hook, receiver, capture, times: int):
    """An endpoint of club ``kk`` pinged ``times`` times by its admin (returned with the endpoint),
    the receiver failing the first send with HTTP 500."""
    endpoint = hook()
    admin = client(world.users["ada"])
    receiver.fail(1)
    with capture(execute=True):
        for _ in range(times):
            admin.post(f"/api/v1/webhooks/{endpoint.pk}/ping/")
    return endpoint, admin


def test_the_log_shows_each_attempt_outcome_newest_first(world, hook, receiver, django_capture_on_commit_callbacks):
    endpoint, admin = pinged(world, hook, receiver, django_capture_on_commit_callbacks, 2)

    log = admin.get(f"/api/v1/webhooks/{endpoint.pk}/deliveries/").json()

    assert log["count"] == 2
    newest, oldest = log["results"]
    assert (newest["status"], newest["attempts"], newest["last_status_code"], newest["last_error"]) == (
        "succeeded",
        1,
        204,
        "",
    )
    assert newest["next_attempt_at"] is None and newest["delivered_at"] is not None
    assert (oldest["status"], oldest["attempts"], oldest["last_status_code"]) == ("pending", 1, 500)
    assert oldest["last_error"] == "HTTP 500: receiver err" and oldest["next_attempt_at"] is not None
    assert oldest["event_type"] == "ping" and oldest["data"]["webhook"] == endpoint.pk
    pending = admin.get(f"/api/v1/webhooks/{endpoint.pk}/deliveries/?status=pending").json()
    assert [d["id"] for d in pending["results"]] == [oldest["id"]]
    bad = admin.get(f"/api/v1/webhooks/{endpoint.pk}/deliveries/?status=lost")
    assert bad.status_code == 400 and bad.json()["field"] == "status"


def test_a_failed_delivery_is_sent_again_on_request(world, hook, receiver, django_capture_on_commit_callbacks):
    endpoint, admin = pinged(world, hook, receiver, django_capture_on_commit_callbacks, 1)
    [delivery] = deliveries()
    Delivery.objects.filter(pk=delivery.pk).update(status="failed")

    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(f"/api/v1/webhooks/{endpoint.pk}/deliveries/{delivery.pk}/redeliver/")

    assert response.status_code == 202
    assert response.json()["status"] == "pending"  # as it was answered; the send ran after the commit
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("succeeded", 2, 204)
    assert [r.headers["X-Kierki-Delivery"] for r in receiver.received] == [str(delivery.event_id)] * 2


def test_a_delivery_of_another_webhook_cannot_be_redelivered_through_this_one(world, hook):
    first, second = hook(), hook()
    client(world.users["ada"]).post(f"/api/v1/webhooks/{first.pk}/ping/")
    [delivery] = deliveries()

    response = client(world.users["ada"]).post(f"/api/v1/webhooks/{second.pk}/deliveries/{delivery.pk}/redeliver/")

    assert response.status_code == 404 and response["Content-Type"] == PROBLEM


def test_a_ping_reaches_even_a_disabled_webhook_but_events_do_not(
    world, hook, receiver, django_capture_on_commit_callbacks
):
    endpoint = hook(active=False)

    with django_capture_on_commit_callbacks(execute=True):
        response = client(world.users["ada"]).post(f"/api/v1/webhooks/{endpoint.pk}/ping/")

    assert response.status_code == 202 and response.json()["event_type"] == "ping"
    assert [r.headers["X-Kierki-Event"] for r in receiver.received] == ["ping"]
