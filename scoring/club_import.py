"""A club's archive (``kierki-club/1``, ``scoring.club_export``) read back into an instance that has
neither the club nor any of its matches: the same members and roles, leagues, seasons, evenings
and disputes, every match's log inserted exactly as it was hashed (so every audit and the
archive's signed checkpoint still hold), the read models rebuilt from the logs, and the standings
recomputed from them (``Imported.standings_equal`` compares them with the archive's).

Members come back as accounts without a password (and without an e-mail: the archive has none):
each sets one through the usual password reset once the club's admin gives him an e-mail address.
"""

from __future__ import annotations

import datetime as dt
import json
import zipfile
from dataclasses import dataclass
from typing import IO, Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext

from games.domain.exceptions import InvalidInput
from games.management.commands.rebuild_projections import rebuild_match
from games.models import Dispute, Match, MatchEvent, Player
from scoring.club_export import FORMAT, MATCH_FIELDS, standings_of
from scoring.models import (
    Club,
    ClubPlayer,
    Evening,
    EveningPlayer,
    EveningRound,
    EveningTable,
    League,
    Membership,
    Season,
    SeasonMatch,
)
from scoring.recompute import standings_rebuild


@dataclass(frozen=True)
class Imported:
    club: Club
    matches: int
    seasons: int
    standings_equal: bool  # False: the archive's standings were stale (a recompute was still due when exported)


def club_import(*, archive: str | IO[bytes]) -> Imported:
    """Read the archive into this instance, all or nothing (``InvalidInput`` naming what is wrong)."""
    try:
        with zipfile.ZipFile(archive) as opened:
            parts = {name: json.loads(opened.read(name)) for name in opened.namelist()}
    except (zipfile.BadZipFile, KeyError, ValueError, UnicodeDecodeError) as exc:
        raise InvalidInput(gettext("not a club archive: %(reason)s") % {"reason": exc}) from None
    manifest = parts.get("manifest.json") or {}
    if manifest.get("format") != FORMAT:
        raise InvalidInput(gettext("not a club archive: the manifest is not %(format)s") % {"format": FORMAT})
    logs = {name: value for name, value in parts.items() if name.endswith(".log.json")}
    try:
        with transaction.atomic():
            return _import(manifest, parts, logs)
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(gettext("the club archive is malformed: %(reason)r") % {"reason": exc}) from None


def _import(manifest: dict, parts: dict[str, Any], logs: dict[str, dict]) -> Imported:
    slug = manifest["club"]["slug"]
    if Club.objects.filter(slug=slug).exists():
        raise InvalidInput(
            gettext("a club %(slug)s exists here: a club archive goes into an empty instance") % {"slug": slug}
        )
    ids = [log["match"] for log in logs.values()]
    if Match.objects.filter(pk__in=ids).exists():
        raise InvalidInput(gettext("matches of the archive exist here: a club archive goes into an empty instance"))
    people = People()
    club = Club.objects.create(name=manifest["club"]["name"], slug=slug)
    _members(club, parts["members.json"], people)
    for log in logs.values():
        _match(log, people)
    seasons = _leagues(club, parts["leagues.json"])
    _evenings(club, parts["evenings.json"], people)
    _disputes(parts["rulings.json"], people)
    standings_rebuild(season_ids=[season.pk for season in seasons])
    rebuilt = json.loads(json.dumps(standings_of(club), default=str))
    return Imported(club, len(logs), len(seasons), standings_equal=rebuilt == parts["standings.json"])


class People:
    """Users and players by name, made the first time they are named (users without a password)."""

    def __init__(self):
        self.users: dict[str, Any] = {}
        self.players: dict[str, Player] = {}

    def user(self, username: str | None):
        if username is None:
            return None
        if username not in self.users:
            model = get_user_model()
            user = model.objects.filter(username=username).first()
            if user is None:
                user = model(username=username)
                user.set_unusable_password()
                user.save()
            self.users[username] = user
        return self.users[username]

    def player(self, name: str, user=None) -> Player:
        if name not in self.players:
            player, _ = Player.objects.get_or_create(username=name)
            if user is not None and player.user_id is None:
                player.user = user
                player.save(update_fields=["user"])
            self.players[name] = player
        return self.players[name]


def _members(club: Club, members: dict, people: People) -> None:
    for member in members["members"]:
        user = people.user(member["username"])
        if member["player"] is not None:
            people.player(member["player"], user)
        Membership.objects.create(club=club, user=user, role=member["role"])
    for profile in members["profiles"]:
        ClubPlayer.objects.create(club=club, player=people.player(profile["player"]))


def _match(log: dict, people: People) -> None:
    seats = {}
    for field in Match.SEAT_FIELDS:
        seat = field[0].upper()
        seats[field] = people.player(log["seats"][seat], people.user(log["accounts"][seat]))
    match = Match.objects.create(
        id=log["match"],
        **seats,
        **{name: log[name] for name in MATCH_FIELDS},
        scorer=people.user(log["scorer"]),
        created_by=people.user(log["created_by"]),
    )
    Match.objects.filter(pk=match.pk).update(created_at=_moment(log["created_at"]))  # not now: when it was filed
    MatchEvent.objects.bulk_create(
        MatchEvent(
            match=match,
            seq=event["seq"],
            type=event["type"],
            payload=event["payload"],
            actor=people.user(event["actor"]),
            actor_name=event["actor"],
            created_at=_moment(event["created_at"]),
            hash=event["hash"],
        )
        for event in log["events"]
    )
    rebuild_match(match.pk)


def _leagues(club: Club, leagues: list) -> list[Season]:
    seasons = []
    for entry in leagues:
        league = League.objects.create(club=club, name=entry["name"], ruleset_options=entry["ruleset_options"])
        for fields in entry["seasons"]:
            matches = fields.pop("matches")
            season = Season.objects.create(league=league, **fields)
            SeasonMatch.objects.bulk_create(SeasonMatch(season=season, match_id=match_id) for match_id in matches)
            seasons.append(season)
    return seasons


def _evenings(club: Club, evenings: list, people: People) -> None:
    for entry in evenings:
        season = Season.objects.get(league__club=club, league__name=entry["league"], name=entry["season"])
        evening = Evening.objects.create(
            season=season, **{name: entry[name] for name in ("date", "rounds", "dealing", "swiss", "seed")}
        )
        for seen in entry["attendance"]:
            EveningPlayer.objects.create(
                evening=evening,
                player=people.player(seen["player"]),
                arrived_round=seen["arrived_round"],
                left_round=seen["left_round"],
            )
        for plan in entry["round_plans"]:
            made = EveningRound.objects.create(
                evening=evening, number=plan["number"], seated_by=plan["seated_by"], repeats=plan["repeats"]
            )
            made.sitting_out.set([people.player(name) for name in plan["sitting_out"]])
            for table in plan["tables"]:
                season_match = SeasonMatch.objects.get(match_id=table["match"])
                EveningTable.objects.create(round=made, number=table["number"], season_match=season_match)


def _disputes(disputes: list, people: People) -> None:
    for entry in disputes:
        dispute = Dispute.objects.create(
            match_id=entry["match"],
            deal=entry["deal"],
            play_index=entry["play_index"],
            statement=entry["statement"],
            raised_by=people.user(entry["raised_by"]),
            status=entry["status"],
            ruling_seq=entry["ruling_seq"],
        )
        Dispute.objects.filter(pk=dispute.pk).update(created_at=_moment(entry["created_at"]))


def _moment(text: str) -> dt.datetime:
    return dt.datetime.fromisoformat(text)
