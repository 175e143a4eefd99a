"""The receiver's side of the signature: the ``verify`` snippet of docs/webhooks.md, run as published,
against deliveries the server really sent."""

import re
import time
from pathlib import Path

import pytest

from webhooks import services, signing

WEBHOOKS_DOC = Path(__file__).resolve().parents[2] / "docs" / "webhooks.md"


def readme_verify():
    """The ``verify`` function of docs/webhooks.md, exactly as printed there."""
    section = WEBHOOKS_DOC.read_text()
    [code] = [block for block in re.findall(r"```python\n(.*?)```", section, re.S) if "def verify(" in block]
    namespace: dict = {}
    exec(compile(code, "docs/webhooks.md", "exec"), namespace)
    return namespace["verify"]


@pytest.fixture
def ping(world, hook, receiver, django_capture_on_commit_callbacks):
    """A ping the receiver got, and the webhook's secret."""
    endpoint = hook()
    with django_capture_on_commit_callbacks(execute=True):
        services.endpoint_ping(actor=world.users["ada"], endpoint_id=endpoint.pk)
    [received] = receiver.received
    return received, endpoint.secret


@pytest.mark.django_db
def test_the_readme_snippet_accepts_a_real_delivery(ping):
    received, secret = ping
    assert readme_verify()(secret, received.headers["X-Kierki-Signature"], received.body)


@pytest.mark.django_db
def test_the_readme_snippet_refuses_another_body_another_secret_or_a_mangled_header(ping):
    received, secret = ping
    verify, header = readme_verify(), received.headers["X-Kierki-Signature"]

    assert not verify(secret, header, received.body.replace(b'"ping"', b'"pong"'))
    assert not verify(secret + "x", header, received.body)
    assert not verify(secret, header.split(",")[0], received.body)  # no v1
    assert not verify(secret, "v1=" + header.split("v1=")[1], received.body)  # no t
    assert not verify(secret, "", received.body)


def test_the_readme_snippet_refuses_a_replay_after_five_minutes():
    verify, body, secret = readme_verify(), b'{"id":"x"}', "whsec_test-secret-0123456789"
    now = int(time.time())

    assert verify(secret, signing.signature(secret, body, now - 290), body)
    assert not verify(secret, signing.signature(secret, body, now - 310), body)
    assert not verify(secret, signing.signature(secret, body, now + 310), body)
