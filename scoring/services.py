"""League commands: clubs, memberships, leagues, seasons and season matches. Keyword-only
functions; each one transaction; errors are games.domain.exceptions types. The standings recompute
that follows a season match's end is ``scoring.recompute``.
"""

from __future__ import annotations

import datetime
import logging
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext

from games.domain.exceptions import InvalidInput, NotAllowed, NotFound
from games.domain.ids import int_id
from games.domain.messages import engine_message
from games.engine import Ruleset
from games.engine import record as records
from games.engine.errors import RecordFormatError, RulesetError
from games.models import Match
from games.write import services as games

from . import outbox, selectors
from .exceptions import LastAdmin, SeasonClosed
from .members import club_player_names
from .models import Club, League, Membership, Season, SeasonMatch, SeasonStatusChange

User = get_user_model()
Role = Membership.Role
log = logging.getLogger(__name__)


# --- clubs and memberships ---------------------------------------------------------------------


def club_create(*, actor, name: str, slug: str) -> Club:
    """A new club; its creator becomes its first admin."""
    if Club.objects.filter(slug=slug).exists():
        raise InvalidInput(gettext("a club with the slug %(slug)s exists") % {"slug": repr(slug)}, field="slug")
    with transaction.atomic():
        club = Club.objects.create(name=name, slug=slug)
        games.player_for_user(actor)  # a club player at once (scoring.members)
        Membership.objects.create(club=club, user=actor, role=Role.ADMIN)
    return club


def club_update(*, actor, club_id, **fields: Any) -> Club:
    club = club_for_admin(actor, club_id)
    if "slug" in fields and Club.objects.filter(slug=fields["slug"]).exclude(pk=club.pk).exists():
        raise InvalidInput(
            gettext("a club with the slug %(slug)s exists") % {"slug": repr(fields["slug"])}, field="slug"
        )
    for name, value in fields.items():
        setattr(club, name, value)
    club.save(update_fields=list(fields) or None)
    return club


def membership_set(*, actor, club_id, username: str, role: str = Role.MEMBER) -> Membership:
    """Add ``username`` to the club with ``role``, or change his role (club admins only)."""
    club = club_for_admin(actor, club_id)
    if role not in Role.values:
        raise InvalidInput(
            gettext("role must be one of %(choices)s") % {"choices": ", ".join(Role.values)}, field="role"
        )
    user = User.objects.filter(username=username).first()
    if user is None:
        raise InvalidInput(gettext("no user named %(username)s") % {"username": repr(username)}, field="user")
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(club=club, user=user).first()
        if membership is None:
            games.player_for_user(user)  # a club player at once: he can be seated and filed by name
            return Membership.objects.create(club=club, user=user, role=role)
        if membership.role == Role.ADMIN and role != Role.ADMIN:
            _keep_an_admin(club, user)
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def membership_remove(*, actor, club_id, username: str) -> None:
    club = club_for_admin(actor, club_id)
    with transaction.atomic():
        membership = Membership.objects.select_for_update().filter(club=club, user__username=username).first()
        if membership is None:
            raise NotFound(
                gettext("%(username)s is not a member of %(club_name)s")
                % {"username": repr(username), "club_name": club.name}
            )
        if membership.role == Role.ADMIN:
            _keep_an_admin(club, membership.user)
        membership.delete()


def _keep_an_admin(club: Club, leaving) -> None:
    admins = Membership.objects.select_for_update().filter(club=club, role=Role.ADMIN).exclude(user=leaving)
    if not admins.exists():
        raise LastAdmin(
            gettext("%(username)s is the last admin of %(club_name)s; name another admin first")
            % {"username": leaving.get_username(), "club_name": club.name}
        )


def _get(queryset, pk, missing: str):
    """The row with primary key ``pk`` (an id from a URL or a body), else NotFound with
    ``missing`` (a translated message naming ``%(id)s``)."""
    found = queryset.filter(pk=int_id(pk)).first() if int_id(pk) is not None else None
    if found is None:
        raise NotFound(missing % {"id": pk})
    return found


def club_for_admin(actor, club_id) -> Club:
    """The club, when ``actor`` is one of its admins; NotFound or NotAllowed else."""
    club = _get(Club.objects, club_id, gettext("no club %(id)s"))
    if not selectors.is_club_admin(actor, club.pk):
        raise NotAllowed(gettext("only the admins of %(club_name)s manage it") % {"club_name": club.name})
    return club


# --- leagues and seasons -----------------------------------------------------------------------------


def league_create(*, actor, club_id, name: str, ruleset: dict | None = None) -> League:
    club = club_for_admin(actor, club_id)
    if League.objects.filter(club=club, name=name).exists():
        raise InvalidInput(
            gettext("%(club_name)s has a league named %(name)s") % {"club_name": club.name, "name": repr(name)},
            field="name",
        )
    return League.objects.create(club=club, name=name, ruleset_options=_ruleset_options(ruleset))


def league_update(*, actor, league_id, name: str | None = None, ruleset: dict | None = None) -> League:
    league = _league(league_id)
    club_for_admin(actor, league.club_id)
    if name is not None:
        if League.objects.filter(club_id=league.club_id, name=name).exclude(pk=league.pk).exists():
            raise InvalidInput(gettext("the club has a league named %(name)s") % {"name": repr(name)}, field="name")
        league.name = name
    if ruleset is not None:
        league.ruleset_options = _ruleset_options(ruleset)
    league.save()
    return league


def _ruleset_options(ruleset: dict | None) -> dict:
    """``{"options": {...}}`` (name and version, if given, must be the engine's) → the options
    that differ from the defaults, checked by the engine."""
    ruleset = ruleset or {}
    if not isinstance(ruleset, dict):
        raise InvalidInput(gettext('ruleset must be an object like {"options": {}}'), field="ruleset")
    try:
        pinned = Ruleset.from_options(
            ruleset.get("options") or {}, **{k: ruleset[k] for k in ("name", "version") if k in ruleset}
        )
    except RulesetError as exc:
        raise InvalidInput(engine_message(exc), field=f"ruleset.{exc.field}" if exc.field else "ruleset") from None
    return pinned.options()


def league_ruleset(league: League) -> dict:
    return Ruleset.from_options(league.ruleset_options).as_json()


def _league(league_id) -> League:
    return _get(League.objects, league_id, gettext("no league %(id)s"))


def season_create(
    *,
    actor,
    league_id,
    name: str,
    start_date: datetime.date | None = None,
    end_date: datetime.date | None = None,
    min_matches: int = 0,
    status: str = Season.Status.OPEN,
) -> Season:
    league = _league(league_id)
    club_for_admin(actor, league.club_id)
    if Season.objects.filter(league=league, name=name).exists():
        raise InvalidInput(gettext("the league has a season named %(name)s") % {"name": repr(name)}, field="name")
    season = Season(
        league=league, name=name, start_date=start_date, end_date=end_date, min_matches=min_matches, status=status
    )
    _check_season(season)
    season.save()
    return season


SEASON_FIELDS = ("name", "start_date", "end_date", "min_matches", "status")
MAX_REASON = 2000


def season_update(*, actor, season_id, **fields: Any) -> Season:
    """Change a season (club admins); a new ``min_matches`` reranks its standings. A closed
    season is read-only; ``status: closed`` closes it (``season_close``), and only staff reopen
    one (``season_reopen``, with a reason)."""
    season = _season(season_id)
    club_for_admin(actor, season.league.club_id)
    unknown = set(fields) - set(SEASON_FIELDS)
    if unknown:
        raise InvalidInput(
            gettext("a season has no field %(field)s") % {"field": repr(sorted(unknown)[0])}, field=sorted(unknown)[0]
        )
    status = fields.pop("status", season.status)
    if status not in Season.Status.values:
        raise InvalidInput(
            gettext("status must be one of %(choices)s") % {"choices": ", ".join(Season.Status.values)}, field="status"
        )
    if season.status == Season.Status.CLOSED:
        if status == Season.Status.OPEN:
            raise SeasonClosed(
                gettext("a closed season is reopened by staff only, with a reason: POST /api/v1/seasons/%(id)s/reopen/")
                % {"id": season.pk},
                field="status",
            )
        if any(getattr(season, name) != value for name, value in fields.items()):
            raise SeasonClosed(gettext("the season %(name)s is closed: it is read-only") % {"name": season.name})
        return season
    name = fields.get("name")
    if name is not None and Season.objects.filter(league=season.league, name=name).exclude(pk=season.pk).exists():
        raise InvalidInput(gettext("the league has a season named %(name)s") % {"name": repr(name)}, field="name")
    rerank = "min_matches" in fields and fields["min_matches"] != season.min_matches
    for name, value in fields.items():
        setattr(season, name, value)
    _check_season(season)
    with transaction.atomic():
        if fields:
            season.save(update_fields=list(fields))
        if rerank:
            outbox.enqueue(season.pk)
        if status == Season.Status.CLOSED:
            season = _season_close_locked(season.pk, actor, "")
    return season


def season_close(*, actor, season_id, reason: Any = "", end_date: datetime.date | None = None) -> Season:
    """Close the season (club admins): from now on it is read-only — no match joins it, its
    matches take no command or ruling (``Match.read_only``), its settings stay. Logged.
    ``end_date``, when given, is the season's end from now on (the closing page asks for it)."""
    season = _season(season_id)
    club_for_admin(actor, season.league.club_id)
    reason = _reason(reason, required=False)
    with transaction.atomic():
        season = _season_close_locked(season.pk, actor, reason)
        if end_date is not None:
            season.end_date = end_date
            _check_season(season)  # an end before the start: refused, the season stays open
            season.save(update_fields=["end_date"])
        return season


def _season_close_locked(season_id: int, actor, reason: str) -> Season:
    season = Season.objects.select_for_update().select_related("league__club").get(pk=season_id)
    if season.status == Season.Status.CLOSED:
        raise SeasonClosed(gettext("the season %(name)s is closed already") % {"name": season.name})
    _season_status_set(season, Season.Status.CLOSED, actor, reason)
    return season


def season_reopen(*, actor, season_id, reason: Any) -> Season:
    """Reopen a closed season: staff only, with a reason, which is logged (a
    ``SeasonStatusChange`` row, shown by the API, and a log line)."""
    season = _season(season_id)
    if not (actor.is_authenticated and actor.is_staff):
        raise NotAllowed(gettext("only staff reopen a closed season"))
    reason = _reason(reason, required=True)
    with transaction.atomic():
        season = Season.objects.select_for_update().select_related("league__club").get(pk=season.pk)
        if season.status != Season.Status.CLOSED:
            raise InvalidInput(gettext("the season %(name)s is open") % {"name": season.name}, field="status")
        _season_status_set(season, Season.Status.OPEN, actor, reason)
    log.warning("season %s (%s) reopened by %s: %s", season.pk, season.name, actor.get_username(), reason)
    return season


def _reason(reason: Any, *, required: bool) -> str:
    if reason is None:
        reason = ""
    if not isinstance(reason, str) or len(reason) > MAX_REASON or "\x00" in reason:
        raise InvalidInput(
            gettext("the reason is text of at most %(max)d characters") % {"max": MAX_REASON}, field="reason"
        )
    if required and not reason.strip():
        raise InvalidInput(gettext("say why the season is reopened"), field="reason")
    return reason.strip()


def _season_status_set(season: Season, status: str, actor, reason: str) -> None:
    season.status = status
    season.save(update_fields=["status"])
    Match.objects.filter(season_match__season=season).update(read_only=status == Season.Status.CLOSED)
    SeasonStatusChange.objects.create(
        season=season, status=status, actor=actor, actor_name=actor.get_username(), reason=reason
    )


def _check_season(season: Season) -> None:
    if season.status not in Season.Status.values:
        raise InvalidInput(
            gettext("status must be one of %(choices)s") % {"choices": ", ".join(Season.Status.values)}, field="status"
        )
    if season.start_date and season.end_date and season.end_date < season.start_date:
        raise InvalidInput(gettext("the season cannot end before it starts"), field="end_date")


def _season(season_id) -> Season:
    return _get(Season.objects.select_related("league__club"), season_id, gettext("no season %(id)s"))


# --- season matches --------------------------------------------------------------------------------------


def season_match_create(*, actor, season_id, seats: Any, **match_create: Any) -> Match:
    """``games.write.services.match_create`` for a season match: the season is open, the four seated
    players are club members, and the actor is a scorer, arbiter or admin of the club, or a
    member seated at the table. The league's ruleset is the default."""
    season = _open_season(season_id)
    club = season.league.club
    role = selectors.club_role(actor, club.pk)
    if role is None:
        raise NotAllowed(
            gettext("only members of %(club_name)s start matches in its seasons") % {"club_name": club.name}
        )
    _member_seats(season, seats)
    if role not in selectors.FILING_ROLES and not _seated(actor, seats):
        raise NotAllowed(
            gettext(
                "only the scorers, arbiters and admins of %(club_name)s, or a member seated at "
                "the table, start a match in its season"
            )
            % {"club_name": club.name}
        )
    if match_create.get("ruleset") is None:
        match_create["ruleset"] = league_ruleset(season.league)
    with transaction.atomic():
        match = games.match_create(actor=actor, seats=seats, **match_create)
        season_match_join(season=season, match=match)
    return match


def _seated(actor, seats: dict[str, str]) -> bool:
    """Whether ``seats`` seat ``actor``: by his username, or by his profile's display name (a
    member who claimed an invitation plays under the profile's name, issue 23)."""
    player = getattr(actor, "player", None)
    return actor.get_username() in seats.values() or (player is not None and player.username in seats.values())


def season_match_join(*, season: Season, match: Match) -> SeasonMatch:
    """``match`` joins ``season`` (inside the caller's transaction); whether it was filed by the
    club's officials is assessed again now that their club roles count (``games.domain.confirmation``)."""
    season_match = SeasonMatch.objects.create(season=season, match=match)
    games.match_filing_assess(match=match)
    return season_match


def season_record_import(*, actor, season_id, record: Any, allow_duplicate: bool = False) -> Match:
    """``games.write.services.record_import`` into a season: the season is open, the record's four
    players are club members (no guests), and the actor a scorer, arbiter or admin of the club."""
    season = _open_season(season_id)
    if selectors.club_role(actor, season.league.club_id) not in selectors.FILING_ROLES:
        raise NotAllowed(
            gettext("only the scorers, arbiters and admins of %(club_name)s file its matches")
            % {"club_name": season.league.club.name}
        )
    try:
        players = records.decode(record).players
    except RecordFormatError as exc:
        raise InvalidInput(engine_message(exc), field=exc.field or None) from None
    _member_seats(season, {seat: str(name) for seat, name in players.items()}, field="players")
    with transaction.atomic():
        match = games.record_import(actor=actor, record=record, allow_duplicate=allow_duplicate)
        season_match_join(season=season, match=match)
        if match.status != Match.Status.IN_PROGRESS:  # it ended before it joined: no receiver saw it
            outbox.request(season.pk)
    return match


def _open_season(season_id) -> Season:
    season = _season(season_id)
    if season.status != Season.Status.OPEN:
        raise SeasonClosed(
            gettext("the season %(season_name)s is closed: no match can join it") % {"season_name": season.name}
        )
    return season


def _member_seats(season: Season, seats: Any, *, field: str = "seats") -> dict[str, str]:
    if (
        not isinstance(seats, dict)
        or sorted(seats) != ["E", "N", "S", "W"]
        or not all(isinstance(name, str) for name in seats.values())
    ):
        raise InvalidInput(gettext("seats must name a player for each of N, E, S, W"), field=field)
    members = club_player_names(season.league.club_id, seats.values())
    for seat in ("N", "E", "S", "W"):
        if seats[seat] not in members:
            raise InvalidInput(
                gettext("%(username)s is not a member of %(club_name)s: only members play its season matches")
                % {"username": repr(seats[seat]), "club_name": season.league.club.name},
                field=f"{field}.{seat}",
            )
    return seats
