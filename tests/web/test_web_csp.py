"""A Content-Security-Policy on every page (issue 30, finding 8): each kind of page answers with
the header — scripts and styles from this origin only, nothing inline — and the pages that run
scripts (the API docs, the admin, the deal viewer: test_web_browser.py) still work under it in a
real browser, with no violation reported."""

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

CSP = "Content-Security-Policy"


def directives(response) -> dict[str, list[str]]:
    policy = response.headers[CSP]
    return {part.split()[0]: part.split()[1:] for part in policy.split(";") if part.strip()}


@pytest.mark.parametrize(
    "path, status",
    [
        ("/", 200),  # the home page
        ("/accounts/login/", 200),  # a form
        ("/matches/", 302),  # a page for members: the redirect to the login carries it too
        ("/records/view/", 302),
        ("/no-such-page/", 404),  # the 404 page
        ("/admin/login/", 200),  # the admin
        ("/api/v1/docs/", 200),  # Swagger UI
        ("/api/v1/docs/?script", 200),  # its start-up script, no longer inline
        ("/api/v1/", 200),  # the API's JSON
    ],
)
def test_each_kind_of_page_answers_with_a_strict_policy(path, status):
    response = Client().get(path)

    assert response.status_code == status
    policy = directives(response)
    assert policy["default-src"] == ["'self'"] and policy["script-src"] == ["'self'"]
    assert policy["style-src"] == ["'self'"] and policy["object-src"] == ["'none'"]
    assert policy["frame-ancestors"] == ["'none'"] and policy["base-uri"] == ["'none'"]


def test_redoc_alone_may_style_inline_and_runs_no_inline_script():
    response = Client().get("/api/v1/redoc/")

    policy = directives(response)
    assert policy["script-src"] == ["'self'"] and "'unsafe-inline'" in policy["style-src"]
    page = response.content.decode()
    assert "<script>" not in page and "<style" not in page


def test_swagger_ui_has_no_inline_script_or_style():
    page = Client().get("/api/v1/docs/").content.decode()

    assert "<script>" not in page and "<style" not in page
    assert 'src="/api/v1/docs/?script' in page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "path, shown",
    [
        ("/api/v1/docs/", ".swagger-ui .opblock"),  # Swagger UI rendered the operations
        ("/api/v1/redoc/", ".api-content h1"),  # ReDoc rendered the schema
        ("/admin/login/", "#login-form"),
        ("/accounts/login/", "form button[type=submit]"),
    ],
)
def test_the_pages_work_under_the_policy_in_a_browser(browser, live_server, path, shown):
    page = browser.new_page()
    refused = []
    page.on(
        "console", lambda message: refused.append(message.text) if "Content Security Policy" in message.text else None
    )

    page.goto(live_server.url + path)
    page.wait_for_selector(shown, timeout=20_000)

    # ReDoc's "powered by" logo from its CDN is refused, as every fetch elsewhere: the docs run offline.
    assert [text for text in refused if "cdn.redoc.ly" not in text] == []
