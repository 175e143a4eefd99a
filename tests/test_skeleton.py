import os

import pytest
from django.db import connection
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_the_api_root_answers_anyone_with_links_to_the_schema_and_docs():
    response = APIClient().get("/api/v1/")

    assert response.status_code == 200
    assert response.data["schema"].endswith("/api/v1/schema/")
    assert response.data["docs"].endswith("/api/v1/docs/")


def test_the_schema_is_openapi_3():
    response = APIClient().get("/api/v1/schema/", {"format": "json"})

    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert schema["info"]["title"] == "Kierki match records API"


@pytest.mark.postgres
def test_ci_runs_against_postgresql():
    assert os.environ.get("DATABASE_URL"), "DATABASE_URL must be set to a PostgreSQL URL"
    assert connection.vendor == "postgresql"


def test_the_migrations_make_the_schema_of_the_models():
    """On SQLite the tests build their database from the models (tests/conftest.py, ``nomigrations``):
    this keeps the migrations' schema the same one."""
    from django.core.management import call_command

    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
