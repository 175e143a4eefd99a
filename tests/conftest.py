"""Shared test set-up: hypothesis profiles, the markers (slow, postgres, browser), the settings
every test runs with. Shared helpers and fixtures are tests/support's (docs/testing.md)."""

import gc
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from hypothesis import settings
from support import HYPOTHESIS_PROFILE, IN_CI, SUITE_SETTINGS
from support.servers import require_browser
from support.slow import SLOW, SLOW_FILES

pytest_plugins = ["support.fixtures"]

settings.register_profile("ci", deadline=None, max_examples=100)
settings.register_profile("dev", deadline=None, max_examples=50)
settings.register_profile("fast", deadline=None, max_examples=12)  # make test-fast (support.examples)
settings.load_profile(HYPOTHESIS_PROFILE or ("ci" if IN_CI else "dev"))


def _database_is_postgres() -> bool:
    return django_settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def require_postgres() -> None:
    """Skip the calling test on SQLite, except under CI=true, where that is a failure."""
    if _database_is_postgres():
        return
    reason = "needs PostgreSQL: set DATABASE_URL=postgres://postgres@127.0.0.1:5432/kierki"
    if IN_CI:
        pytest.fail(f"CI=true but the database is not PostgreSQL; {reason}", pytrace=False)
    pytest.skip(reason)


def pytest_configure(config):
    """On SQLite the test database is made from the models, not by running the migrations (pytest-django's
    ``--nomigrations``): there the three that run code do nothing (0002's trigger and 0010's partitions are
    PostgreSQL's, scoring 0003 rewrites the rows of a database that is empty), and each xdist worker saved
    seconds of ``migrate``. ``makemigrations --check`` keeps models and migrations one schema;
    test_audit_confirmation calls scoring 0003 itself. PostgreSQL keeps migrating: its schema is theirs."""
    if not _database_is_postgres():
        config.option.nomigrations = True


MIGRATION_MODULES = django_settings.MIGRATION_MODULES  # the project's (pytest-django's nomigrations replaces them)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker, request):
    """After pytest-django's set-up, without migrations (SQLite): the project's migrations back in the
    settings (``nomigrations`` left them switched off), and every one of them recorded as applied in the
    test database, as ``migrate`` leaves it: /readyz and ``makemigrations --check`` read them."""
    if not request.config.getvalue("nomigrations"):
        return
    from django.db import connections
    from django.db.migrations.loader import MigrationLoader
    from django.db.migrations.recorder import MigrationRecorder

    django_settings.MIGRATION_MODULES = MIGRATION_MODULES
    with django_db_blocker.unblock():
        for connection in connections.all():
            recorder = MigrationRecorder(connection)
            recorder.ensure_schema()
            for app, name in MigrationLoader(connection, ignore_no_migrations=True).graph.nodes:
                recorder.record_applied(app, name)


def pytest_runtest_setup(item):
    if item.get_closest_marker("postgres"):
        require_postgres()
    if item.get_closest_marker("browser"):
        require_browser()


def pytest_ignore_collect(collection_path, config):
    """Under ``-m "not slow"`` the SLOW files are not even imported (their tests would all be
    deselected): `make test-fast` spends no time loading schemathesis, the servers and the like."""
    if config.getoption("markexpr", "").replace(" ", "") != "notslow":
        return None
    where = Path(str(collection_path)).relative_to(Path(str(config.rootpath))).as_posix()
    if (where + "/").startswith(SLOW_FILES) or where.startswith(SLOW_FILES):
        return True
    return None


def pytest_collection_modifyitems(config, items):
    root = Path(str(config.rootpath))
    for item in items:
        where = Path(str(item.path)).relative_to(root).as_posix()
        node = where + item.nodeid[len(item.nodeid.split("::")[0]) :]
        if item.get_closest_marker("browser") or where.startswith(SLOW_FILES) or node.startswith(SLOW):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session", autouse=True)
def _no_counts_from_an_earlier_run():
    """With REDIS_URL set the throttles and the login limit count in Redis, which outlives a run:
    start from an empty cache (local memory is empty anyway)."""
    from django.core.cache import cache

    try:
        cache.clear()
    except Exception:  # noqa: BLE001 - Redis down: the tests that need it say so themselves
        pass


@pytest.fixture(scope="session", autouse=True)
def _static_files_looked_up_when_asked():
    """WhiteNoise, with finders on, lists every app's static files when its middleware is built:
    once per process in production, but once per test client here (each client builds its own
    handler), which was a third of the API tests' time. With autorefresh it finds a file when one
    is asked for instead. For tests only."""
    django_settings.WHITENOISE_AUTOREFRESH = True
    yield
    del django_settings.WHITENOISE_AUTOREFRESH


@pytest.fixture(scope="session", autouse=True)
def _fast_password_hashing():
    """MD5 first (new passwords hash at once; the default PBKDF2 takes a good part of a second
    each, and every sign-in, failed ones too, pays it again), the project's hashers after it so
    that a hash made otherwise still checks. For tests only."""
    from django.contrib.auth.hashers import get_hashers, get_hashers_by_algorithm

    hashers = django_settings.PASSWORD_HASHERS
    django_settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", *hashers]
    get_hashers.cache_clear()
    get_hashers_by_algorithm.cache_clear()
    yield
    django_settings.PASSWORD_HASHERS = hashers
    get_hashers.cache_clear()
    get_hashers_by_algorithm.cache_clear()


@pytest.fixture
def postgres_db(db):
    """Like pytest-django's `db`, for tests that only make sense on PostgreSQL."""
    require_postgres()


@pytest.fixture(autouse=True)
def _unhashed_static_files(settings):
    """collectstatic never runs for the tests: the manifest storage used with DEBUG off would find
    no manifest and fail in ``{% static %}``, so pages link the files by their plain names."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _short_analysis_budget(settings):
    """The arbiter's analysis searches up to its budget from an early position (a dispute with no
    play, a ruling on it): tests keep that short; late positions are exact long before it."""
    settings.ANALYSIS_BUDGET_NODES = SUITE_SETTINGS["ANALYSIS_BUDGET_NODES"]


@pytest.fixture(autouse=True)
def _no_annotation_jobs(settings):
    """No annotation job after every deal the suite plays (53 searches each): the annotation
    tests switch it on (``settings.ANNOTATE_DEALS = True``), with a short budget per position."""
    settings.ANNOTATE_DEALS = SUITE_SETTINGS["ANNOTATE_DEALS"]
    settings.ANNOTATION_BUDGET_NODES = SUITE_SETTINGS["ANNOTATION_BUDGET_NODES"]


@pytest.fixture(autouse=True)
def _english_unless_asked(settings):
    """The suite reads in English: requests that send no Accept-Language (the test clients send
    none) and code outside a request get English, the source language the tests assert on.
    The project's default is Polish (``LANGUAGE_CODE = "pl"``): tests/i18n asks for Polish with
    ``Accept-Language: pl`` and checks the default itself (test_i18n_settings.py, and
    test_i18n_pages.py's ``test_polish_is_the_default_when_the_browser_asks_for_neither``). A
    test written without knowing of Polish keeps reading English (docs/i18n.md)."""
    settings.LANGUAGE_CODE = SUITE_SETTINGS["LANGUAGE_CODE"]


def pytest_collection_finish(session):
    """What is loaded once collected (Django, the project, the test modules) lives to the end:
    frozen out of the cyclic collector's scans, and its first generation runs every 50,000
    allocations instead of 700. The ORM and the serializers allocate much and leave little in
    cycles; side by side, alternating, the fast suite took 84 against 76 s (147 against 130 CPU s)."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
