"""The settings of the faults survived: read from the environment into Celery's configuration,
and a value that would defeat them stops start-up. Each case runs in a fresh process."""

import json
import os
import subprocess
import sys

import pytest
from support import ROOT

CONFIG = """
import json, django
django.setup()
from config.celery import app
print(json.dumps({"transport": app.conf.broker_transport_options, "retry": app.conf.task_publish_retry_policy,
                  "connect": app.conf.broker_connection_timeout}))
"""


def start(**variables: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCORING_", "REDIS_", "CELERY_"))}
    env.update(DJANGO_SETTINGS_MODULE="config.settings", **variables)
    return subprocess.run([sys.executable, "-c", CONFIG], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def test_the_timeouts_and_the_visibility_timeout_reach_the_broker_connection():
    result = start(REDIS_CONNECT_TIMEOUT="3", REDIS_SOCKET_TIMEOUT="4", CELERY_VISIBILITY_TIMEOUT="600")

    assert result.returncode == 0, result.stderr
    config = json.loads(result.stdout)
    assert config["transport"] == {"visibility_timeout": 600, "socket_connect_timeout": 3, "socket_timeout": 4}
    assert config["connect"] == 3 and config["retry"]["max_retries"] == 1


@pytest.mark.parametrize(
    "variables, message",
    [
        (
            {"SCORING_DEBOUNCE_SECONDS": "30", "SCORING_OUTBOX_GRACE_SECONDS": "30"},
            "SCORING_OUTBOX_GRACE_SECONDS=30 must exceed SCORING_DEBOUNCE_SECONDS=30",
        ),
        ({"SCORING_OUTBOX_SWEEP_SECONDS": "0"}, "SCORING_OUTBOX_SWEEP_SECONDS must be at least 1"),
        ({"REDIS_CONNECT_TIMEOUT": "0"}, "REDIS_CONNECT_TIMEOUT must be at least 1"),
        ({"REDIS_SOCKET_TIMEOUT": "1"}, "REDIS_SOCKET_TIMEOUT must be at least 2"),
        ({"CELERY_VISIBILITY_TIMEOUT": "an hour"}, "CELERY_VISIBILITY_TIMEOUT='an hour' is not an integer"),
    ],
)
def test_a_value_that_would_defeat_them_stops_start_up(variables, message):
    result = start(**variables)

    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr and message in result.stderr
