"""SSRF: receivers on private addresses are refused, at registration and at every attempt,
and an attempt connects to the address that was checked."""

import socket

import pytest
from hooks_helpers import deliveries, fresh_world, hooks_world
from rest_framework.test import APIClient
from support.once import once_per_module

from webhooks import addresses, services
from webhooks.models import Endpoint

pytestmark = pytest.mark.django_db


built = once_per_module(hooks_world)  # every test starts from the world: built once (support.once)


@pytest.fixture
def world(built):
    return fresh_world(built)


def register(world, url: str):
    api = APIClient()
    api.force_authenticate(world.users["ada"])
    return api.post(
        f"/api/v1/clubs/{world.club.pk}/webhooks/", {"url": url, "event_types": ["match.finished"]}, format="json"
    )


@pytest.mark.parametrize(
    "url, kind",
    [
        ("http://127.0.0.1:8080/hook", "loopback"),
        ("http://10.1.2.3/hook", "private"),
        ("http://192.168.0.10/hook", "private"),
        ("http://[::1]:8080/hook", "loopback"),
        ("http://169.254.169.254/latest/meta-data/", "link-local"),  # cloud metadata
        ("http://0.0.0.0/hook", "unspecified"),
        ("http://[::ffff:127.0.0.1]/hook", "loopback"),  # IPv4-mapped IPv6
        ("http://224.0.0.1/hook", "multicast"),
        ("http://100.64.0.1/hook", "non-global"),  # carrier-grade NAT
        # IPv6 forms that wrap an IPv4 address are judged by the address they wrap.
        ("http://[2002:7f00:1::]/", "loopback"),  # 6to4 around 127.0.0.1
        ("http://[2002:a9fe:a9fe::1]/hook", "link-local"),  # 6to4 around 169.254.169.254
        ("http://[64:ff9b::7f00:1]/hook", "loopback"),  # NAT64 well-known prefix around 127.0.0.1
        ("http://[64:ff9b:1::a00:5]/hook", "private"),  # NAT64 local-use prefix (RFC 8215) around 10.0.0.5
        ("http://[2001:0:5db8:d70e::80ff:fffe]/hook", "loopback"),  # Teredo: client 127.0.0.1 (bits inverted)
        ("http://[2001:0:a00:1:8000:63bf:a247:28f1]/hook", "private"),  # Teredo: server 10.0.0.1
        ("http://[::127.0.0.1]/hook", "loopback"),  # IPv4-compatible IPv6
    ],
)
def test_a_receiver_on_a_private_address_is_refused(world, url, kind):
    response = register(world, url)

    assert response.status_code == 400, response.content
    assert response.json()["field"] == "url"
    assert f"a {kind} address" in response.json()["detail"]
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize(
    "url, says",
    [
        ("ftp://93.184.215.14/hook", "only http:// and https://"),
        ("file:///etc/passwd", "only http:// and https://"),
        ("hook", "only http:// and https://"),
        ("http:///hook", "no host"),
        ("http://user:pw@93.184.215.14/hook", "credentials"),
        ("http://93.184.215.14:99999/hook", "not a URL"),
        ("http://93.184.215.14/a b", "spaces"),
        ("http://no-such-host.invalid/hook", "does not resolve"),
    ],
)
def test_a_malformed_url_is_refused_saying_why(world, url, says):
    response = register(world, url)

    assert response.status_code == 400 and response.json()["field"] == "url"
    assert says in response.json()["detail"]


def test_a_public_address_is_accepted(world):
    assert register(world, "https://93.184.215.14/hook").status_code == 201  # nothing is sent to it


@pytest.mark.parametrize(
    "address",
    [
        "2002:5db8:d70e::",  # 6to4 around 93.184.215.14
        "64:ff9b::5db8:d70e",  # NAT64 around 93.184.215.14
        "2001:0:5db8:d70e:8000:63bf:a247:28f1",  # Teredo: server and client 93.184.215.14
        "2606:4700:4700::1111",  # a plain global IPv6 address
    ],
)
def test_an_ipv6_form_around_a_public_ipv4_address_is_public(address):
    assert addresses.not_public(address) is None


def test_the_setting_lets_private_receivers_in(world, allow_private):
    assert register(world, "http://127.0.0.1:8080/hook").status_code == 201


def resolving_to(monkeypatch, *found: str) -> None:
    monkeypatch.setattr(
        addresses.socket,
        "getaddrinfo",
        lambda host, port, *args, **kw: [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in found],
    )


def test_a_name_holding_a_private_address_beside_a_public_one_is_refused(monkeypatch, caplog):
    resolving_to(monkeypatch, "93.184.215.14", "10.0.0.5")

    with pytest.raises(addresses.UnsafeURL, match="mixed.example.org does not resolve to public addresses only"):
        addresses.resolve("https://mixed.example.org/hook", allow_private=False)
    assert "10.0.0.5, a private address" in caplog.text  # for the operators, in the server's log


@pytest.mark.parametrize("url", ["http://localhost:8080/hook", "http://intranet.example.org/hook"])
def test_a_refused_name_is_answered_without_what_our_dns_said(world, url, monkeypatch, caplog):
    """Issue 30, finding 8: a club admin learns nothing of the internal network from the refusal."""
    resolving_to(monkeypatch, "10.20.30.40")

    response = register(world, url)

    detail = response.json()["detail"]
    assert response.status_code == 400 and response.json()["field"] == "url"
    assert "10.20.30.40" not in detail and "private" not in detail
    assert "does not resolve to public addresses only" in detail
    assert "10.20.30.40" in caplog.text
    assert not Endpoint.objects.exists()


def test_a_name_that_became_private_is_refused_at_delivery_without_the_address(
    world, hook, receiver, monkeypatch, settings, django_capture_on_commit_callbacks
):
    endpoint = hook()
    Endpoint.objects.filter(pk=endpoint.pk).update(url="http://hooks.example.org/hook")
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    resolving_to(monkeypatch, "10.20.30.40")

    with django_capture_on_commit_callbacks(execute=True):
        services.endpoint_ping(actor=world.users["ada"], endpoint_id=endpoint.pk)

    [delivery] = deliveries()
    assert delivery.last_error.startswith("refused: the host hooks.example.org does not resolve to public")
    assert "10.20.30.40" not in delivery.last_error
    listed = APIClient()
    listed.force_authenticate(world.users["ada"])
    assert "10.20.30.40" not in listed.get(f"/api/v1/webhooks/{endpoint.pk}/deliveries/").content.decode()


def test_an_address_that_became_private_is_refused_at_delivery(
    world, hook, receiver, settings, django_capture_on_commit_callbacks
):
    endpoint = hook()
    settings.WEBHOOKS_ALLOW_PRIVATE = False  # as if the name now resolved to a private address

    with django_capture_on_commit_callbacks(execute=True):
        services.endpoint_ping(actor=world.users["ada"], endpoint_id=endpoint.pk)

    [delivery] = deliveries()
    assert receiver.received == []
    assert delivery.status == "pending" and delivery.attempts == 1
    assert delivery.last_error.startswith("refused: the host 127.0.0.1 is a loopback address")


def test_the_attempt_connects_to_the_checked_address_and_names_the_host(
    world, receiver, allow_private, monkeypatch, django_capture_on_commit_callbacks
):
    port = receiver.server.server_address[1]
    resolved = []

    real = socket.getaddrinfo

    def fake_dns(host, port, *args, **kwargs):  # the name exists only here (socket is one module for all)
        if host != "hooks.example.test":
            return real(host, port, *args, **kwargs)
        resolved.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    monkeypatch.setattr(addresses.socket, "getaddrinfo", fake_dns)
    endpoint = services.endpoint_create(
        actor=world.users["ada"],
        club_id=world.club.pk,
        url=f"http://hooks.example.test:{port}/in?club=kk",
        event_types=["match.finished"],
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.endpoint_ping(actor=world.users["ada"], endpoint_id=endpoint.pk)

    [ping] = receiver.received
    assert ping.headers["Host"] == f"hooks.example.test:{port}" and ping.path == "/in?club=kk"
    assert resolved == ["hooks.example.test"] * 2  # at registration and at the attempt; httpx never asked


def test_a_redirect_is_not_followed(world, hook, receiver, django_capture_on_commit_callbacks):
    endpoint = hook()
    receiver.fail(1, status=302)

    with django_capture_on_commit_callbacks(execute=True):
        services.endpoint_ping(actor=world.users["ada"], endpoint_id=endpoint.pk)

    [delivery] = deliveries()
    assert len(receiver.received) == 1
    assert (delivery.status, delivery.last_status_code) == ("pending", 302)
