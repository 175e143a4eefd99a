"""The project's own defaults: Polish, shown in Warsaw time; both from the environment, checked
at start-up (the suite itself runs with LANGUAGE_CODE = "en", tests/conftest.py)."""

import os
import subprocess
import sys

from i18n_helpers import ROOT

SHOW = (
    "import django; django.setup(); from django.conf import settings; "
    "print(settings.LANGUAGE_CODE, settings.TIME_ZONE, settings.USE_TZ, [code for code, _ in settings.LANGUAGES])"
)


def settings_with(**env):
    clean = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE_CODE", "TIME_ZONE")}
    return subprocess.run(
        [sys.executable, "-c", SHOW],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", "PYTHONPATH": str(ROOT), **env},
    )


def test_polish_in_warsaw_time_by_default():
    result = settings_with()
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[0] == "pl Europe/Warsaw True ['pl', 'en']"


def test_the_language_and_time_zone_come_from_the_environment():
    result = settings_with(LANGUAGE_CODE="en", TIME_ZONE="America/New_York")
    assert result.stdout.startswith("en America/New_York True"), result.stderr


def test_a_bad_language_or_time_zone_stops_start_up():
    for env, named in (
        ({"TIME_ZONE": "Mars/Olympus"}, "TIME_ZONE='Mars/Olympus'"),
        ({"LANGUAGE_CODE": "de"}, "LANGUAGE_CODE='de'"),
    ):
        result = settings_with(**env)
        assert result.returncode != 0 and "ImproperlyConfigured" in result.stderr and named in result.stderr
