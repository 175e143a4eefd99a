"""The fixtures every area may use, registered by tests/conftest.py (``pytest_plugins``): the
club ``world``, uvicorn serving the project, headless chromium. An area that needs a variation
overrides ``world`` in its conftest, asking for this one or calling ``build_world`` itself."""

import hashlib
import json
import os
from pathlib import Path

import pytest
import yaml
from django.db import DEFAULT_DB_ALIAS, connections

from support.servers import AsgiServer, chromium
from support.world import build_world


@pytest.fixture
def world(django_user_model):
    """Club ``kk``: admin ``ada``, scorer ``sam``, arbiter ``ari``, members ``ala``, ``bartek``,
    ``celina``, ``darek`` (seats N, E, S, W); ``outsider`` and ``staff``, no part of it. League
    ``Liga`` (two regular deals), season ``2025`` (support.world.build_world)."""
    return build_world(django_user_model)


@pytest.fixture
def asgi_server(transactional_db, settings, monkeypatch):
    """uvicorn in a thread, configured as config/asgi.py configures it (no persistent connections;
    a transactional database: the server thread sees what the test commits)."""
    settings.LIVE_POLL_INTERVAL_MS = 20
    monkeypatch.setitem(connections.settings[DEFAULT_DB_ALIAS], "CONN_MAX_AGE", 0)
    server = AsgiServer()
    yield server
    server.stop()


@pytest.fixture
def browser(monkeypatch):
    """Debian's chromium, headless, driven by Playwright (skipped without it, a failure under CI=true)."""
    with chromium(monkeypatch) as launched:
        yield launched


YAML_CACHE = Path(__file__).resolve().parents[2] / ".pytest_cache" / "kierki-yaml"


def load_yaml(text: str):
    """``text`` parsed by PyYAML's C loader (when built with libyaml), kept as JSON under
    ``.pytest_cache`` by the text's digest: a contract of 700 kB takes 0.2 s to parse and 0.01 s to
    read back, and the same texts (the committed contracts, the live ones) are parsed in every
    process of every run. Kept only when JSON gives back exactly what YAML gave."""
    path = YAML_CACHE / f"{hashlib.sha256(text.encode()).hexdigest()}.json"
    if path.exists():
        return json.loads(path.read_text())
    parsed = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    try:
        kept = json.dumps(parsed)
    except TypeError:  # a date or another value JSON has not
        return parsed
    if json.loads(kept) == parsed:
        YAML_CACHE.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(f".{os.getpid()}.tmp")  # two workers may write it at once
        temporary.write_text(kept)
        temporary.replace(path)
    return parsed


def live_schema(api_version: str | None = None) -> dict:
    """The live OpenAPI schema of ``api_version`` (None: v1) as ``manage.py spectacular`` writes it
    (in English), read back from its YAML."""
    from django.utils import translation
    from drf_spectacular.renderers import OpenApiYamlRenderer
    from drf_spectacular.settings import spectacular_settings

    with translation.override("en"):
        generator = spectacular_settings.DEFAULT_GENERATOR_CLASS(api_version=api_version)
        schema = generator.get_schema(request=None, public=True)
        return load_yaml(OpenApiYamlRenderer().render(schema, renderer_context={}).decode())


@pytest.fixture(scope="session")
def openapi_schema():
    """The live v1 schema (``live_schema``): generated once per session (seconds each time), shared by
    the tests that read it. Read, never change it. A test of the schema's view itself asks
    /api/v1/schema/ (test_skeleton, tests/i18n)."""
    return live_schema()


@pytest.fixture(scope="session")
def openapi_schema_v2():
    """The live /api/v2/ schema, as ``manage.py spectacular --api-version v2`` writes it."""
    return live_schema("v2")


@pytest.fixture(scope="session")
def committed_openapi():
    """openapi.yaml at the repository's root, read once per session."""
    return load_yaml((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())


@pytest.fixture(scope="session")
def committed_openapi_v2():
    """openapi-v2.yaml at the repository's root (the /api/v2/ contract), read once per session."""
    return load_yaml((Path(__file__).resolve().parents[2] / "openapi-v2.yaml").read_text())
