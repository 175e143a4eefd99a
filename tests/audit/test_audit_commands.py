"""`manage.py audit_matches` and its nightly beat job: every match verified, failures reported."""

from io import StringIO

import pytest
from audit_helpers import world_once
from django.core.management import CommandError, call_command
from support.event_table import json_param, tamperable
from support.once import fresh, fresh_world

from games import tasks
from games.domain.chain import canonical_json
from games.models import MatchEvent

pytestmark = pytest.mark.django_db


built = world_once((1, None), (2, 1))  # the world and two matches, built once (support.once)


@pytest.fixture
def world(built):
    return fresh_world(built[0])


@pytest.fixture
def matches(built):
    return tuple(fresh(match) for match in built[1])


def _edit_a_card(match, seq: int = 10) -> None:
    row = MatchEvent.objects.get(match=match, seq=seq)
    with tamperable() as cursor:
        cursor.execute(
            f"UPDATE games_matchevent SET payload = {json_param()} WHERE id = %s",
            [canonical_json({**row.payload, "seat": "X"}).decode(), row.pk],
        )


def test_every_clean_match_passes_and_the_command_exits_0(matches):
    out, err = StringIO(), StringIO()
    call_command("audit_matches", stdout=out, stderr=err)

    assert "audited 2 match(es): all pass" in out.getvalue()
    assert "audit_matches" in err.getvalue()  # the progress bar


def test_a_tampered_match_is_named_and_the_command_exits_1(matches):
    _edit_a_card(matches[1])
    out = StringIO()

    with pytest.raises(CommandError) as failed:
        call_command("audit_matches", "--no-progress", stdout=out)

    assert failed.value.returncode == 1 and "1 of 2" in str(failed.value)
    report = out.getvalue()
    assert f"match {matches[1].pk}: chain broken at seq 10" in report
    assert f"match {matches[1].pk}: illegal event at seq 10" in report
    assert str(matches[0].pk) not in report


def test_one_match_can_be_audited_alone(matches):
    _edit_a_card(matches[1])

    call_command("audit_matches", "--match", str(matches[0].pk), "--no-progress", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("audit_matches", "--match", str(matches[1].pk), "--no-progress", stdout=StringIO())
    with pytest.raises(CommandError, match="no match"):
        call_command("audit_matches", "--match", "00000000-0000-4000-8000-000000000000", stdout=StringIO())


def test_the_beat_job_logs_each_failure_at_error(matches, caplog):
    _edit_a_card(matches[0])
    caplog.set_level("INFO", logger="games.tasks")

    result = tasks.audit_matches.delay().get()

    assert result == {"failing": [str(matches[0].pk)]}
    errors = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert any(str(matches[0].pk) in message and "seq 10" in message for message in errors)


def test_the_beat_job_says_so_when_all_pass(matches, caplog):
    caplog.set_level("INFO", logger="games.tasks")

    assert tasks.audit_matches.delay().get() == {"failing": []}
    assert any("every match passes" in r.getMessage() for r in caplog.records)
