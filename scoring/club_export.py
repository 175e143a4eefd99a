"""The club's own export (issue 28 item 4): one ZIP, ``kierki-club/1``, with what the club needs to
take its league elsewhere (docs/club-admin.md, "Taking the club's data elsewhere"):

- ``manifest.json``: the format, the club's name and slug, the counts, the matches left out;
- ``members.json``: members by username with their role and player name, and the club's player
  profiles by display name (what the club may share: no e-mails, no passwords, no tokens);
- ``leagues.json``: leagues (their rulesets) and seasons, each with its matches' ids;
- ``evenings.json``: the evenings, who came, and each round's tables (by match id);
- ``standings.json``: each season's standings as computed now;
- ``rulings.json``: the disputes raised on the club's matches (the rulings are events in the logs);
- ``matches/<id>.record.json``: each match as a ``kierki-match/1`` record;
- ``matches/<id>.log.json``: its event log exactly as hashed (the audit export's shape, which
  ``kierki verify-checkpoint --audit`` reads), with the match's filing;
- ``checkpoint.json`` and ``heads.json``: a checkpoint signed at export time, vouching for every log.

A match still in play is left out, and so is an abandoned server-dealt one whose last deal's hands
were never revealed (its log would not replay without them, and they stay hidden); the manifest
names both.
``scoring.club_import`` reads the archive back into an empty instance.
"""

from __future__ import annotations

import json
import zipfile
from typing import IO, Any

from django.core.exceptions import ImproperlyConfigured
from django.db.models import Prefetch

from games.domain.chain import timestamp
from games.domain.roles import Role
from games.models import DealSecret, Dispute, Match, MatchEvent
from games.read.record import match_record
from games.write.checkpointing import checkpoint_take
from scoring.models import Club, ClubPlayer, Evening, League, Membership, Season, SeasonMatch, StandingRow

FORMAT = "kierki-club/1"
RECORD_VIEWER = Role(Role.NOBODY)  # the finished deals: a deal cut short keeps its hands hidden
MATCH_FIELDS = (
    "first_dealer",
    "ruleset_name",
    "ruleset_version",
    "ruleset_options",
    "dealing",
    "read_only",
    "fingerprint",
    "filed_by_official",
    "played_on",
)
STANDING_FIELDS = [f.name for f in StandingRow._meta.concrete_fields if f.name not in ("id", "season", "player")]


def club_export(*, club: Club, out: IO[bytes]) -> dict[str, Any]:
    """Write the club's archive to ``out``; returns its manifest."""
    season_matches = SeasonMatch.objects.filter(season__league__club=club).select_related("match", "season")
    hidden = hands_still_hidden([sm.match_id for sm in season_matches])
    exported = [sm.match for sm in season_matches if is_exportable(sm.match, hidden)]
    left_out = sorted(str(sm.match_id) for sm in season_matches if not is_exportable(sm.match, hidden))
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for match in exported:
            write_json(archive, f"matches/{match.pk}.record.json", match_record(match=match, viewer=RECORD_VIEWER))
            write_json(archive, f"matches/{match.pk}.log.json", match_log(match))
        write_json(archive, "members.json", members_of(club))
        write_json(archive, "leagues.json", leagues_of(club, {m.pk for m in exported}))
        write_json(archive, "evenings.json", evenings_of(club, {m.pk for m in exported}))
        write_json(archive, "standings.json", standings_of(club))
        write_json(archive, "rulings.json", disputes_of(exported))
        signed = signed_checkpoint()
        if signed is not None:
            write_json(archive, "checkpoint.json", signed.checkpoint)
            write_json(archive, "heads.json", signed.heads)
        manifest = {
            "format": FORMAT,
            "club": {"name": club.name, "slug": club.slug},
            "matches": len(exported),
            "left_out": left_out,
            "checkpoint": signed is not None,
        }
        write_json(archive, "manifest.json", manifest)
    return manifest


def hands_still_hidden(match_ids: list) -> set:
    """The matches with a server-dealt deal whose hands were never revealed (cut short by abandoning)."""
    dealt = set(DealSecret.objects.filter(match_id__in=match_ids).values_list("match_id", "number"))
    revealed = MatchEvent.objects.filter(match_id__in=match_ids, type=MatchEvent.Type.HANDS_REVEALED)
    shown = {(match_id, payload["number"]) for match_id, payload in revealed.values_list("match_id", "payload")}
    return {match_id for match_id, _ in dealt - shown}


def is_exportable(match: Match, hidden: set) -> bool:
    """Ended, with every hand known: a log that replays anywhere and shows nobody a hidden hand."""
    return match.status != Match.Status.IN_PROGRESS and match.pk not in hidden


def write_json(archive: zipfile.ZipFile, name: str, value: Any) -> None:
    archive.writestr(name, json.dumps(value, ensure_ascii=False, indent=1, default=str))


def signed_checkpoint():
    try:
        return checkpoint_take()
    except ImproperlyConfigured:  # no signing key (production without one): the archive goes without
        return None


# --- the parts ----------------------------------------------------------------------------------------


def match_log(match: Match) -> dict[str, Any]:
    """The match's filing and its events as hashed (``GET /matches/{id}/audit/``'s ``events``)."""
    rows = MatchEvent.objects.filter(match=match).order_by("seq")
    return {
        "match": str(match.pk),
        "seats": {seat[0].upper(): player.username for seat, player in zip(Match.SEAT_FIELDS, match.seat_players())},
        "accounts": {  # the seat's player's account, when he has one (who may act for the seat)
            seat[0].upper(): player.user.username if player.user else None
            for seat, player in zip(Match.SEAT_FIELDS, match.seat_players())
        },
        "scorer": match.scorer.username if match.scorer else None,
        "created_by": match.created_by.username if match.created_by else None,
        "created_at": timestamp(match.created_at),
        **{name: getattr(match, name) for name in MATCH_FIELDS},
        "events": [
            {
                "seq": row.seq,
                "type": row.type,
                "actor": row.actor_name,
                "created_at": timestamp(row.created_at),
                "payload": row.payload,
                "hash": row.hash,
            }
            for row in rows
        ],
    }


def members_of(club: Club) -> dict[str, Any]:
    memberships = Membership.objects.filter(club=club).select_related("user__player").order_by("user__username")
    profiles = ClubPlayer.objects.filter(club=club).select_related("player").order_by("player__username")
    return {
        "members": [{"username": m.user.username, "player": _player_name(m.user), "role": m.role} for m in memberships],
        "profiles": [{"player": link.player.username, "claimed": link.player.user_id is not None} for link in profiles],
    }


def _player_name(user) -> str | None:
    player = getattr(user, "player", None)
    return player.username if player is not None else None


def leagues_of(club: Club, exported: set) -> list[dict[str, Any]]:
    in_order = Prefetch("season_matches", queryset=SeasonMatch.objects.order_by("pk"))  # the rating log's tie-break
    leagues = League.objects.filter(club=club).prefetch_related(
        Prefetch("seasons", queryset=Season.objects.prefetch_related(in_order))
    )
    leagues = leagues.order_by("name")
    return [
        {
            "name": league.name,
            "ruleset_options": league.ruleset_options,
            "seasons": [
                {
                    "name": season.name,
                    "start_date": season.start_date,
                    "end_date": season.end_date,
                    "status": season.status,
                    "min_matches": season.min_matches,
                    "matches": [str(sm.match_id) for sm in season.season_matches.all() if sm.match_id in exported],
                }
                for season in sorted(league.seasons.all(), key=lambda season: season.name)
            ],
        }
        for league in leagues
    ]


def evenings_of(club: Club, exported: set) -> list[dict[str, Any]]:
    evenings = Evening.objects.filter(season__league__club=club).select_related("season__league").order_by("date", "id")
    return [
        {
            "league": evening.season.league.name,
            "season": evening.season.name,
            "date": evening.date,
            "rounds": evening.rounds,
            "dealing": evening.dealing,
            "swiss": evening.swiss,
            "seed": evening.seed,
            "attendance": [
                {"player": seen.player.username, "arrived_round": seen.arrived_round, "left_round": seen.left_round}
                for seen in evening.attendance.select_related("player")
            ],
            "round_plans": [
                {
                    "number": plan.number,
                    "seated_by": plan.seated_by,
                    "repeats": plan.repeats,
                    "sitting_out": sorted(p.username for p in plan.sitting_out.all()),
                    "tables": [
                        {"number": table.number, "match": str(table.season_match.match_id)}
                        for table in plan.tables.select_related("season_match")
                        if table.season_match.match_id in exported
                    ],
                }
                for plan in evening.round_set.all()
            ],
        }
        for evening in evenings
    ]


def standings_of(club: Club) -> list[dict[str, Any]]:
    rows = StandingRow.objects.filter(season__league__club=club).select_related("season__league", "player")
    by_season: dict[tuple[str, str], list] = {}
    for row in rows.order_by("season__league__name", "season__name", "order"):
        line = {"player": row.player.username, **{name: getattr(row, name) for name in STANDING_FIELDS}}
        by_season.setdefault((row.season.league.name, row.season.name), []).append(line)
    return [{"league": league, "season": season, "rows": lines} for (league, season), lines in by_season.items()]


def disputes_of(matches: list[Match]) -> list[dict[str, Any]]:
    disputes = Dispute.objects.filter(match__in=matches).select_related("raised_by").order_by("created_at", "id")
    return [
        {
            "match": str(dispute.match_id),
            "deal": dispute.deal,
            "play_index": dispute.play_index,
            "statement": dispute.statement,
            "raised_by": dispute.raised_by.username,
            "created_at": timestamp(dispute.created_at),
            "status": dispute.status,
            "ruling_seq": dispute.ruling_seq,
        }
        for dispute in disputes
    ]
