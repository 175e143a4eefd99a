"""League commands (clubs, memberships, leagues, seasons, season matches) and the standings
recompute. Keyword-only functions; each one transaction; errors are games.exceptions types.

The recompute (``standings_recompute``) rebuilds a season's standings from the per-deal read
model of games (``DealScore``) in one transaction, under a lock on the league row (ratings are
league-wide, so two seasons of one league never rate at once) and on the season row:

1. *score*: every season match of the league that ended since it was scored — its
   ``scored_version`` is empty: never scored, or marked again by ``season_match_ended`` when
   a ruling changed it — gets its ``MatchLine`` rows rewritten: one per player for a finished
   match, none for an abandoned one or one a ruling re-opened;
2. *rate*: the league's rating log (``RatedMatch``/``RatingChange``) keeps its longest prefix
   that is still right (the matches in finish order, none of them scored anew) and replays
   the rest with openskill (``rating.rate``) — usually it only appends the new matches;
3. *rank*: the season's tallies are summed in SQL, ranked by ``standings.rank`` and written
   (delete + insert).

Only the players whose lines or ratings changed are summed again; the others' sums are taken
from the season's current rows (a full recompute sums everyone). Other seasons of the league
whose lines or ratings changed on the way (a ruling, a match scored out of turn) get their rows
rewritten in the same transaction. Running it twice, or twice at once, gives the same rows: it
is a function of the event store alone.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count, F, Max, Min, OuterRef, Q, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext

from games import services as games
from games.engine import Ruleset
from games.engine import record as records
from games.engine.errors import RecordFormatError, RulesetError
from games.exceptions import InvalidInput, NotAllowed, NotFound
from games.ids import int_id
from games.messages import engine_message
from games.models import DealScore, Match, MatchEvent
from games.projections import SIGN_OFF_TYPES

from . import outbox, selectors
from . import rating as ratings
from .exceptions import LastAdmin, SeasonClosed
from .members import club_player_names
from .models import (
    Club,
    League,
    MatchLine,
    Membership,
    RatedMatch,
    Rating,
    RatingChange,
    Season,
    SeasonMatch,
    SeasonStatusChange,
    StandingRow,
)
from .signals import standings_changed
from .standings import counts, rank

User = get_user_model()
Role = Membership.Role
CHUNK = 2000  # ids per IN (...) list
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


def season_close(*, actor, season_id, reason: Any = "") -> Season:
    """Close the season (club admins): from now on it is read-only — no match joins it, its
    matches take no command or ruling (``Match.read_only``), its settings stay. Logged."""
    season = _season(season_id)
    club_for_admin(actor, season.league.club_id)
    reason = _reason(reason, required=False)
    with transaction.atomic():
        return _season_close_locked(season.pk, actor, reason)


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
    """``games.services.match_create`` for a season match: the season is open, the four seated
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
    if role not in selectors.FILING_ROLES and actor.get_username() not in seats.values():
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


def season_match_join(*, season: Season, match: Match) -> SeasonMatch:
    """``match`` joins ``season`` (inside the caller's transaction); whether it was filed by the
    club's officials is assessed again now that their club roles count (``games.confirmation``)."""
    season_match = SeasonMatch.objects.create(season=season, match=match)
    games.match_filing_assess(match=match)
    return season_match


def season_record_import(*, actor, season_id, record: Any, allow_duplicate: bool = False) -> Match:
    """``games.services.record_import`` into a season: the season is open, the record's four
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


def season_match_ended(*, match_id) -> int | None:
    """A match ended (or a ruling changed its result): mark its season match to be scored again
    if it was scored already, and return its season (None: not a season match). Called inside
    the command's transaction (``scoring.receivers``), so the mark commits with the change."""
    SeasonMatch.objects.filter(match_id=match_id, scored_version__isnull=False).update(scored_version=None)
    return SeasonMatch.objects.filter(match_id=match_id).values_list("season_id", flat=True).first()


# --- the recompute -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Recompute:
    season_id: int
    rows: int  # standing rows written
    scored: int  # season matches (re)scored
    rated: int  # matches (re)rated
    others: frozenset[int]  # other seasons whose lines or ratings changed (their rows rewritten too)


def standings_recompute(*, season_id: int, full: bool = False) -> Recompute | None:
    """Bring the season's standings (and its league's lines and ratings) up to date with the
    event store; ``full`` rescores and rerates the whole league from scratch. None when the
    season does not exist."""
    with transaction.atomic():
        league_id = Season.objects.filter(pk=season_id).values_list("league_id", flat=True).first()
        if league_id is None:
            return None
        League.objects.select_for_update().filter(pk=league_id).values_list("pk").get()  # ratings: one at a time
        season = Season.objects.select_for_update().get(pk=season_id)
        outbox.take(season_id)  # the requests this run answers: deleted with its commit, kept if it dies
        scored = _score(league_id, full)
        rated, rerated = _rate(league_id, scored, full)
        touched = _merge(scored.players, rerated)  # season -> players whose lines or ratings changed
        rows = _write_standings(season, None if full else touched.get(season.pk, set()))
        others = frozenset(touched) - {season.pk}
        for other in Season.objects.select_for_update().filter(pk__in=others).order_by("pk"):
            _write_standings(other, touched[other.pk])
        Season.objects.filter(pk__in=others).update(computed_at=timezone.now())
        Season.objects.filter(pk=season.pk).update(computed_at=timezone.now(), recomputes=F("recomputes") + 1)
        # webhooks announce it: the season asked for (after a full rebuild only if it changed) and the others
        rewritten = others | ({season.pk} if not full or season.pk in touched else set())
        standings_changed.send(sender=Season, season_ids=sorted(rewritten))
    return Recompute(season_id, rows, scored.count, rated, others)


def _merge(*maps: dict[int, set]) -> dict[int, set]:
    merged: dict[int, set] = {}
    for one in maps:
        for key, values in one.items():
            merged.setdefault(key, set()).update(values)
    return merged


def standings_rebuild(*, season_ids: Iterable[int], progress: Callable[[int], None] | None = None) -> int:
    """A full recompute of each season (its league's lines and ratings rebuilt from scratch the
    first time a league comes up); ``progress`` is called after each. Returns the count."""
    seasons = list(
        Season.objects.filter(pk__in=list(season_ids)).order_by("league_id", "pk").values_list("pk", "league_id")
    )
    leagues_done: set[int] = set()
    for season_id, league_id in seasons:
        standings_recompute(season_id=season_id, full=league_id not in leagues_done)
        leagues_done.add(league_id)
        if progress is not None:
            progress(season_id)
    return len(seasons)


def _chunks(items: list, size: int = CHUNK) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def _insert(model, fields: tuple[str, ...], rows: list[tuple]) -> None:
    """Write plain tuples — COPY on PostgreSQL, multi-row INSERTs elsewhere: a rebuild writes
    tens of thousands of derived rows, and model instances would cost more than the database."""
    if not rows:
        return
    ops = connection.ops
    columns = [model._meta.get_field(name) for name in fields]
    table, names = ops.quote_name(model._meta.db_table), ", ".join(ops.quote_name(c.column) for c in columns)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            with cursor.cursor.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
            return
        adapt = [
            ops.adapt_datetimefield_value if column.get_internal_type() == "DateTimeField" else None
            for column in columns
        ]
        rows = [tuple(value if fix is None else fix(value) for value, fix in zip(row, adapt)) for row in rows]
        per_batch = max(1, min(1000, (connection.features.max_query_params or 65535) // len(fields)))
        one = f"({', '.join(['%s'] * len(fields))})"
        for batch in _chunks(rows, per_batch):
            cursor.execute(
                f"INSERT INTO {table} ({names}) VALUES {', '.join([one] * len(batch))}",
                [value for row in batch for value in row],
            )


# --- 1. scoring: MatchLine rows from DealScore ----------------------------------------------------------------


@dataclass
class Scored:
    count: int = 0  # season matches scored
    players: dict = field(default_factory=dict)  # season -> players whose lines changed
    finished: list = field(default_factory=list)  # (finished_at, season match id) of those now finished
    placed: dict = field(default_factory=dict)  # season match id -> [(player, place)] per seat, as written
    unrated_from: int | None = None  # the first log position whose match was scored again


LINE_FIELDS = (
    "season_match",
    "season",
    "player",
    "seat",
    "total",
    "deals",
    "kreski",
    "max_deals",
    "zero_odgrywki",
    "place",
    "finished_at",
)


def _score(league_id: int, full: bool) -> Scored:
    """(Re)write the lines of the league's season matches that ended, or were re-opened by a
    ruling, since they were scored (all of them when ``full``): a finished match gets one line
    per player, an abandoned or re-opened one none. Each season match row is updated (so
    locked) *before* its match's status and deals are read: a ruling committed after that
    marks it again (``season_match_ended``) only once this transaction is over, so no change
    slips between the version recorded and the lines written."""
    due = ~Q(match__status=Match.Status.IN_PROGRESS) | Q(finished_at__isnull=False)  # or re-opened by a ruling
    todo = SeasonMatch.objects.filter(due, season__league_id=league_id)
    if not full:
        todo = todo.filter(scored_version__isnull=True)
    todo = list(todo.order_by("pk").values_list("pk", flat=True))
    scored = Scored(count=len(todo))
    for chunk in _chunks(todo):
        _score_chunk(chunk, scored)
    return scored


def _date_by_play(finished: dict[int, Any]) -> None:
    """A match filed with its date of play (``played_on``: a paper sheet filed later) is dated by it,
    at 00:00 UTC, in standings (``last_played``) and the rating order; others by their last event."""
    played = SeasonMatch.objects.filter(pk__in=list(finished), match__played_on__isnull=False).values_list(
        "pk", "match__played_on"
    )
    for sm_id, played_on in played:
        moment = datetime.datetime.combine(played_on, datetime.time(0, 0), tzinfo=datetime.UTC)
        SeasonMatch.objects.filter(pk=sm_id).update(finished_at=moment)


def _score_chunk(ids: list[int], scored: Scored) -> None:
    version = Subquery(Match.objects.filter(pk=OuterRef("match_id")).values("version")[:1])
    SeasonMatch.objects.filter(pk__in=ids).update(scored_version=version)  # locks them: see _score
    current = list(
        SeasonMatch.objects.filter(pk__in=ids).values_list(
            "pk", "season_id", "match_id", "match__status", "match__confirmed", "match__withdrawn"
        )
    )
    finished = {
        sm_id: match_id
        for sm_id, _, match_id, status, confirmed, withdrawn in current
        if counts(status=status, confirmed=confirmed, withdrawn=withdrawn)
    }  # those that count
    season_of = {sm_id: season_id for sm_id, season_id, *_ in current}
    # the last event of play or ruling: signing the sheet or withdrawing it does not move a match in the rating order
    last_event = Subquery(
        MatchEvent.objects.filter(match_id=OuterRef("match_id"))
        .exclude(type__in=SIGN_OFF_TYPES)
        .order_by("-seq")
        .values("created_at")[:1]
    )
    SeasonMatch.objects.filter(pk__in=list(finished)).update(finished_at=last_event)
    _date_by_play(finished)
    SeasonMatch.objects.filter(pk__in=[i for i in ids if i not in finished]).update(finished_at=None)
    ended = dict(SeasonMatch.objects.filter(pk__in=list(finished)).values_list("pk", "finished_at"))
    sm_of_match = {match_id: sm_id for sm_id, match_id in finished.items()}
    per_player = (
        DealScore.objects.filter(match_id__in=list(sm_of_match))
        .values("match_id", "player_id", "seat")
        .annotate(
            total=Sum("points"),
            deals=Count("id"),
            kreski=Sum("kreski"),
            max_deals=Count("id", filter=Q(kind="rozbojnik", tricks=13)),
            zero_odgrywki=Count("id", filter=Q(kind="odgrywka", tricks=0)),
        )
        .order_by("match_id", "seat")
        .values_list("match_id", "player_id", "seat", "total", "deals", "kreski", "max_deals", "zero_odgrywki")
    )
    by_match: dict[Any, list[tuple]] = {}
    for match_id, *values in per_player:
        by_match.setdefault(match_id, []).append(values)
    new: dict[int, tuple] = {}
    for match_id, players in by_match.items():
        sm_id = sm_of_match[match_id]
        places = ratings.placements([total for _, _, total, *_ in players])
        new[sm_id] = tuple(
            (sm_id, season_of[sm_id], *values, place, ended[sm_id]) for values, place in zip(players, places)
        )
        scored.placed[sm_id] = [(player, place) for (player, *_), place in zip(players, places)]
    old: dict[int, tuple] = {}
    for line in (
        MatchLine.objects.filter(season_match_id__in=ids)
        .order_by("season_match_id", "seat")
        .values_list(*[f"{name}_id" if name in ("season_match", "season", "player") else name for name in LINE_FIELDS])
    ):
        old[line[0]] = old.get(line[0], ()) + (line,)
    changed = [sm_id for sm_id in ids if old.get(sm_id) != new.get(sm_id)]
    for sm_id in changed:
        scored.players.setdefault(season_of[sm_id], set()).update(
            line[2] for line in old.get(sm_id, ()) + new.get(sm_id, ())
        )
    rated = set(RatedMatch.objects.filter(season_match_id__in=list(finished)).values_list("season_match_id", flat=True))
    scored.finished += [(ended[sm_id], sm_id) for sm_id in finished if sm_id not in rated]
    MatchLine.objects.filter(season_match_id__in=ids).delete()
    _insert(MatchLine, LINE_FIELDS, [line for lines in new.values() for line in lines])
    # a match scored anew is rated anew, from its place in the log on
    first = RatedMatch.objects.filter(season_match_id__in=changed).aggregate(first=Min("position"))["first"]
    if first is not None:
        scored.unrated_from = first if scored.unrated_from is None else min(first, scored.unrated_from)


# --- 2. rating: the league's log, replayed from its first stale place -----------------------------------------------


def _rate(league_id: int, scored: Scored, full: bool) -> tuple[int, dict[int, set]]:
    """Bring the league's rating log in line with its finished matches in finish order: keep the
    longest prefix still right, replay the rest (normally: append the new matches). Returns how
    many matches were rated, and per season the players whose rating changes differ from before."""
    log = RatedMatch.objects.filter(league_id=league_id)
    logged, top = log.aggregate(n=Count("pk"), top=Max("position")).values()
    start = 0 if full else _stale_from(league_id, scored, logged, top)
    if start == logged and not scored.finished:
        return 0, {}
    after = Q()
    if start:
        boundary = log.filter(position=start - 1).values_list("season_match__finished_at", "season_match_id").get()
        after = Q(finished_at__gt=boundary[0]) | Q(finished_at=boundary[0], pk__gt=boundary[1])
    segment = list(
        SeasonMatch.objects.filter(after, season__league_id=league_id, finished_at__isnull=False)
        .order_by("finished_at", "pk")
        .values_list("pk", "season_id")
    )
    replaced = RatingChange.objects.filter(league_id=league_id, position__gte=start)
    old = {
        (sm, player): (mu, sigma, season)
        for sm, player, mu, sigma, season in replaced.values_list(
            "season_match_id", "player_id", "mu", "sigma", "season_id"
        )
    }
    placed = {sm_id: scored.placed[sm_id] for sm_id, _ in segment if sm_id in scored.placed}
    for chunk in _chunks([sm_id for sm_id, _ in segment if sm_id not in placed]):  # lines scored before
        for sm_id, player, place in (
            MatchLine.objects.filter(season_match_id__in=chunk)
            .order_by("seat")
            .values_list("season_match_id", "player_id", "place")
        ):
            placed.setdefault(sm_id, []).append((player, place))
    touched = {player for _, player in old} | {player for seats in placed.values() for player, _ in seats}
    skills, counts = _skills_before(league_id, start, logged, touched)
    replaced.delete()
    log.filter(position__gte=start).delete()
    changes, changed = [], {}
    for position, (sm_id, season_id) in enumerate(segment, start=start):
        for player, skill in ratings.rate(skills, placed[sm_id]).items():
            skills[player] = skill
            counts[player] += 1
            changes.append((league_id, season_id, sm_id, position, player, skill.mu, skill.sigma))
            if old.pop((sm_id, player), None) != (skill.mu, skill.sigma, season_id):
                changed.setdefault(season_id, set()).add(player)
    for (_, player), (_, _, season_id) in old.items():  # changes that are gone
        changed.setdefault(season_id, set()).add(player)
    _insert(
        RatedMatch,
        ("league", "season_match", "position"),
        [(league_id, sm_id, position) for position, (sm_id, _) in enumerate(segment, start=start)],
    )
    _insert(RatingChange, ("league", "season", "season_match", "position", "player", "mu", "sigma"), changes)
    _write_ratings(league_id, skills, counts)
    return len(segment), changed


def _stale_from(league_id: int, scored: Scored, logged: int, top: int | None) -> int:
    """The first log position that no longer holds the right match: a gap (a match taken out),
    a match scored anew, or where the earliest newly finished match belongs (normally the end)."""
    start = logged if top is None or top + 1 == logged else _first_gap(league_id)
    if scored.unrated_from is not None:
        start = min(start, scored.unrated_from)
    if scored.finished and start:
        first_at, first_id = min(scored.finished)
        last_at, last_id = (
            RatedMatch.objects.filter(league_id=league_id, position=start - 1)
            .values_list("season_match__finished_at", "season_match_id")
            .get()
        )
        if (last_at, last_id) > (first_at, first_id):  # it finished before matches already rated: rare
            start = RatedMatch.objects.filter(
                Q(season_match__finished_at__lt=first_at)
                | Q(season_match__finished_at=first_at, season_match_id__lt=first_id),
                league_id=league_id,
                position__lt=start,
            ).count()
    return start


def _first_gap(league_id: int) -> int:
    positions = RatedMatch.objects.filter(league_id=league_id).order_by("position").values_list("position", flat=True)
    return next((i for i, position in enumerate(positions) if position != i), len(positions))


def _skills_before(league_id: int, start: int, logged: int, players: set[int]):
    """The skill and rated-match count of each of ``players`` before log position ``start``:
    from the current ratings when only new matches are appended, else from the log's earlier
    changes. A player with none has no skill (``rating.INITIAL`` applies) and a count of 0."""
    skills: dict[int, ratings.Skill] = {}
    counts = dict.fromkeys(players, 0)
    if start == logged:
        for player, mu, sigma, matches in Rating.objects.filter(
            league_id=league_id, player_id__in=list(players)
        ).values_list("player_id", "mu", "sigma", "matches"):
            skills[player], counts[player] = ratings.Skill(mu, sigma), matches
        return skills, counts
    earlier = RatingChange.objects.filter(league_id=league_id, position__lt=start, player_id__in=list(players))
    for player, mu, sigma in earlier.order_by("position").values_list("player_id", "mu", "sigma"):
        skills[player] = ratings.Skill(mu, sigma)
        counts[player] += 1
    return skills, counts


def _write_ratings(league_id: int, skills: dict, counts: dict) -> None:
    """Upsert the current rating of each player counted; drop those left with no match."""
    gone = [player for player, count in counts.items() if count == 0]
    Rating.objects.filter(league_id=league_id, player_id__in=gone).delete()
    Rating.objects.bulk_create(
        [
            Rating(
                league_id=league_id,
                player_id=player,
                mu=skills[player].mu,
                sigma=skills[player].sigma,
                ordinal=skills[player].ordinal,
                provisional=skills[player].provisional,
                matches=count,
            )
            for player, count in counts.items()
            if count
        ],
        update_conflicts=True,
        unique_fields=["league", "player"],
        update_fields=["mu", "sigma", "ordinal", "provisional", "matches"],
        batch_size=CHUNK,
    )


# --- 3. ranking: the season's standing rows -----------------------------------------------------------------------


def _write_standings(season: Season, changed: set | None) -> int:
    """Rank the season and rewrite its rows. Only the ``changed`` players are summed again (all
    of them when None, or when the season has no rows yet); the others' sums, names and ratings
    are those of their current rows."""
    kept = {} if changed is None else selectors.standing_tallies(season.pk)
    if changed is not None and not kept:
        changed = None
    kept = {player: line for player, line in kept.items() if player not in (changed or ())}
    tallies = kept | {
        tally.player: (tally, name, skill)
        for tally, name, skill in selectors.season_tallies(season.pk, players=changed)
    }
    names = {player: name for player, (_, name, _) in tallies.items()}
    skills = {player: skill for player, (_, _, skill) in tallies.items()}
    rows = rank(
        [tally for tally, _, _ in tallies.values()],
        partial(selectors.season_lines, season.pk),
        min_matches=season.min_matches,
        skills=skills,
        names=names,
    )
    StandingRow.objects.filter(season=season).delete()
    StandingRow.objects.bulk_create(
        [
            StandingRow(
                season=season,
                player_id=row.tally.player,
                order=order,
                position=row.position,
                ranked=row.ranked,
                matches=row.tally.matches,
                wins=row.tally.wins,
                first=row.tally.first,
                second=row.tally.second,
                third=row.tally.third,
                fourth=row.tally.fourth,
                deals=row.tally.deals,
                balance=row.tally.balance,
                balance_per_match=round(float(row.tally.per_match), 2),
                best_match=row.tally.best_match,
                worst_match=row.tally.worst_match,
                kreski=row.tally.kreski,
                max_deals=row.tally.max_deals,
                zero_odgrywki=row.tally.zero_odgrywki,
                mu=row.skill.mu,
                sigma=row.skill.sigma,
                ordinal=row.skill.ordinal,
                provisional=row.skill.provisional,
                last_played=row.tally.last_played,
            )
            for order, row in enumerate(rows, start=1)
        ]
    )
    return len(rows)
