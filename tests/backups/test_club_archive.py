"""The club's own archive (``kierki-club/1``): exported, read into an instance without the club,
it gives the same standings, every match audits, and the archive's signed checkpoint vouches for
the imported logs (docs/club-admin.md, "Taking the club's data elsewhere")."""

from __future__ import annotations

import datetime as dt
import io
import json
import zipfile

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from support import PLAYERS
from support.world import season_match, simulated, standings_of

from games.domain import checkpoints
from games.models import Match, MatchEvent, Player
from games.read.audit import audit_matches
from games.write import disputes
from scoring import evening_services, services
from scoring.club_export import club_export
from scoring.club_import import club_import
from scoring.models import ClubPlayer, Evening, Membership, Season, StandingRow
from scoring.recompute import standings_rebuild

pytestmark = pytest.mark.django_db


@pytest.fixture
def club_with_history(world):
    """Three season matches filed by the scorer (one with an arbiter's adjusted deal), an evening
    with a guest profile whose round is still in play, and one more match in play."""
    users = world.users
    filed = [
        services.season_record_import(actor=users["sam"], season_id=world.season.pk, record=simulated(seed))
        for seed in (1, 2, 3)
    ]
    dispute = disputes.dispute_raise(match_id=filed[0].pk, actor=users["ala"], deal=1, statement="Zła lewa.")
    played = filed[0].projection.summary["deals"][0]["points"]
    disputes.ruling_record(
        dispute_id=dispute.pk,
        actor=users["ari"],
        ruling="score_adjusted",
        points=dict(played, N=played["N"] + 10, E=played["E"] - 10),
        reason="revoke",
        override="E revoked in trick 3.",
    )
    evening = evening_services.evening_create(
        actor=users["ada"],
        season_id=world.season.pk,
        date=dt.date(2025, 3, 7),
        rounds=2,
        players=PLAYERS,
        guests=["Łucja Ź."],
    )
    evening_services.evening_round_seat(actor=users["ada"], evening_id=evening.pk, tables=[list(PLAYERS)])
    season_match(world)  # in play: left out
    standings_rebuild(season_ids=[world.season.pk])  # what the worker does after each (no worker here)
    return world, filed


def exported(club) -> bytes:
    out = io.BytesIO()
    club_export(club=club, out=out)
    return out.getvalue()


def emptied() -> None:
    """The instance emptied as a new one is (the event log included: a test database, no trigger on SQLite)."""
    call_command("flush", interactive=False, verbosity=0)


def test_the_archive_holds_records_logs_members_and_a_signed_checkpoint(club_with_history):
    world, filed = club_with_history

    archive = zipfile.ZipFile(io.BytesIO(exported(world.club)))

    names = set(archive.namelist())
    manifest = json.loads(archive.read("manifest.json"))
    assert manifest["format"] == "kierki-club/1" and manifest["matches"] == 3
    assert len(manifest["left_out"]) == 2  # the evening's table and the match in play
    for match in filed:
        assert {f"matches/{match.pk}.record.json", f"matches/{match.pk}.log.json"} <= names
        assert json.loads(archive.read(f"matches/{match.pk}.record.json"))["format"] == "kierki-match/1"
    members = json.loads(archive.read("members.json"))
    assert {"username": "ada", "player": "ada", "role": "admin"} in members["members"]
    assert {"player": "Łucja Ź.", "claimed": False} in members["profiles"]
    assert "@" not in archive.read("members.json").decode()  # no e-mails
    rulings = json.loads(archive.read("rulings.json"))
    assert [(r["match"], r["raised_by"], r["status"]) for r in rulings] == [(str(filed[0].pk), "ala", "ruled")]
    checkpoint, heads = json.loads(archive.read("checkpoint.json")), json.loads(archive.read("heads.json"))
    assert checkpoints.verify_checkpoint(checkpoint, heads).ok
    log = json.loads(archive.read(f"matches/{filed[0].pk}.log.json"))
    assert checkpoints.verify_log(log["match"], log["events"], heads).ok


@pytest.mark.django_db(transaction=True)  # flush on PostgreSQL refuses inside the test's transaction
def test_an_archive_read_into_an_empty_instance_gives_the_same_standings_and_every_match_audits(club_with_history):
    world, filed = club_with_history
    standings = by_name(standings_of(world.season))
    archive = exported(world.club)
    heads = json.loads(zipfile.ZipFile(io.BytesIO(archive)).read("heads.json"))
    events = {match.pk: list(MatchEvent.objects.filter(match=match).values_list("seq", "hash")) for match in filed}
    emptied()
    assert not Match.objects.exists() and not get_user_model().objects.exists()

    imported = club_import(archive=io.BytesIO(archive))

    assert (imported.matches, imported.seasons, imported.standings_equal) == (3, 1, True)
    season = Season.objects.get(league__club=imported.club)
    assert len(standings) == 4 and by_name(standings_of(season)) == standings
    assert audit_matches() == {}
    for match in filed:
        assert list(MatchEvent.objects.filter(match=match.pk).values_list("seq", "hash")) == events[match.pk]
        log = [{"seq": s, "hash": h} for s, h in events[match.pk]]
        assert any(h["match"] == str(match.pk) and {"seq": h["seq"], "hash": h["hash"]} in log for h in heads["heads"])
    assert Match.objects.get(pk=filed[0].pk).projection.summary["rulings"]  # the ruling came with its log
    assert Membership.objects.get(club=imported.club, user__username="ari").role == "arbiter"
    assert ClubPlayer.objects.filter(club=imported.club, player__username="Łucja Ź.").exists()
    assert Evening.objects.get(season=season).attendance.count() == 5
    assert not get_user_model().objects.get(username="ada").has_usable_password()


def by_name(rows: list[dict]) -> list[dict]:
    """Standings rows naming the player, not his id (the import numbers players anew), without the season's id."""
    names = dict(Player.objects.values_list("pk", "username"))
    return [{**row, "player": names[row["player"]], "season": None} for row in rows]


def test_an_archive_is_refused_where_the_club_exists_and_nothing_is_stored(club_with_history):
    world, _ = club_with_history
    archive = exported(world.club)
    rows = StandingRow.objects.count()

    with pytest.raises(Exception, match="empty instance"):
        club_import(archive=io.BytesIO(archive))
    assert StandingRow.objects.count() == rows


def test_a_file_that_is_not_an_archive_is_refused_by_name(db):
    with pytest.raises(Exception, match="not a club archive"):
        club_import(archive=io.BytesIO(b"not a zip"))


def test_an_abandoned_server_dealt_match_with_hidden_hands_is_left_out(world):
    from games.write import services as games

    match = season_match(world, dealing="server")
    games.deal_start(match_id=match.pk, actor=world.users["ala"])
    games.match_abandon(match_id=match.pk, actor=world.users["ala"], reason="the hall closed")

    archive = zipfile.ZipFile(io.BytesIO(exported(world.club)))

    assert json.loads(archive.read("manifest.json"))["left_out"] == [str(match.pk)]
    assert not [name for name in archive.namelist() if name.startswith("matches/")]
