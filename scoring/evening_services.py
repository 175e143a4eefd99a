"""Club evening commands: create an evening, sign players in (late arrivals too), withdraw
them between rounds, and seat the next round — which creates the round's season matches in the
same transaction. Keyword-only functions; errors are ``games.domain.exceptions`` types (problem+json).

The club's admins and staff run evenings; ``evening_selectors.club_member_players`` says who
may be seated. A round's results are filed against its matches by the match commands (a full
record, plays, or a tally); nothing here scores.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from games.domain.exceptions import InvalidInput, NotAllowed, NotFound, WithdrawalConflict
from games.domain.ids import int_id
from games.engine import Seat
from games.models import Match, Player
from games.write import services as games

from . import evening_selectors as selectors
from . import seating
from .exceptions import EveningComplete, RoundInProgress, RoundSeated, SeasonClosed, TooFewPlayers
from .invitations import club_player_add
from .models import Evening, EveningPlayer, EveningRound, EveningTable, Season
from .services import league_ruleset, season_match_join

MAX_ROUNDS = 20  # an evening's rounds: a few in practice; the bound keeps a typo from planning hundreds


def seating_budget() -> float:
    """Seconds the seating search may take per round: the ``EVENING_SEATING_SECONDS`` setting,
    default 2 (deterministic CP-SAT time: the wall clock may run longer on a loaded machine)."""
    return float(getattr(settings, "EVENING_SEATING_SECONDS", 2))


# --- evenings ---------------------------------------------------------------------------------


def evening_create(
    *,
    actor,
    season_id,
    date: datetime.date,
    rounds: int,
    dealing: str = Match.Dealing.RECORDED,
    swiss: bool = False,
    seed: int = 0,
    players: Sequence[str] = (),
    guests: Sequence[str] = (),
) -> Evening:
    """A new evening of an open season (club admins and staff), with the players signed in so far;
    ``guests`` (display names) join the club as profiles without an account first
    (``invitations.club_player_add``), and are signed in too."""
    season = _season(actor, season_id)
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidInput(_("an evening has 1 to %(most)d rounds") % {"most": MAX_ROUNDS}, field="rounds")
    if dealing not in Match.Dealing.values:
        raise InvalidInput(
            _("dealing must be one of %(choices)s") % {"choices": ", ".join(Match.Dealing.values)}, field="dealing"
        )
    with transaction.atomic():  # a profile _members creates for a user goes if the command fails
        added = [club_player_add(actor=actor, club_id=season.league.club_id, name=name).username for name in guests]
        found = _members(season, [*players, *added], field="players")
        evening = Evening.objects.create(
            season=season, date=date, rounds=rounds, dealing=dealing, swiss=swiss, seed=seed, created_by=actor
        )
        EveningPlayer.objects.bulk_create([EveningPlayer(evening=evening, player=p) for p in found])
    return evening


def evening_sign_in(*, actor, evening_id, players: Sequence[str]) -> list[EveningPlayer]:
    """Sign players in: present from the next round to seat (a late arrival joins there; a
    player who withdrew comes back). Signing in someone present already changes nothing."""
    evening = _evening_for_admin(actor, evening_id)
    with transaction.atomic():
        evening = _locked(evening)
        found = _members(evening.season, players, field="players")
        number = selectors.evening_next_round(evening)
        if number > evening.rounds:
            raise EveningComplete(_("every round of this evening is seated: nobody can join it now"))
        rows = []
        for player in found:
            row, created = EveningPlayer.objects.get_or_create(
                evening=evening, player=player, defaults={"arrived_round": number}
            )
            if not created and row.left_round is not None:
                row.arrived_round, row.left_round = number, None
                row.save(update_fields=["arrived_round", "left_round"])
            rows.append(row)
    return rows


def evening_withdraw(*, actor, evening_id, player: str) -> EveningPlayer:
    """A player leaves: he is not seated from the next round on (his seated matches stay)."""
    evening = _evening_for_admin(actor, evening_id)
    with transaction.atomic():
        evening = _locked(evening)
        row = EveningPlayer.objects.filter(evening=evening, player__username=player, left_round__isnull=True).first()
        if row is None:
            raise NotFound(_("%(player)r is not present at this evening") % {"player": player})
        row.left_round = selectors.evening_next_round(evening)
        row.save(update_fields=["left_round"])
    return row


# --- seating a round ----------------------------------------------------------------------------


def evening_round_seat(
    *, actor, evening_id, number: int | None = None, tables: Sequence[Sequence[str]] | None = None
) -> EveningRound:
    """Seat the evening's next round and create its matches (one per table, in the season, with
    the evening's dealing), all in one transaction. ``number``, when given, must be that next
    round (a round seated already is refused, so a retried request does not seat two);
    ``tables`` seats the round by hand (usernames in seat order N, E, S, W; the present
    players left out sit out), else the search seats it (``scoring.seating``)."""
    evening = _evening_for_admin(actor, evening_id)
    with transaction.atomic():
        evening = _locked(evening)
        next_number, present, played = _next_round(evening, number)
        seated, seated_by = _seated(evening, present, played, next_number, tables)
        return _create_round(actor, evening, next_number, seated, seated_by, played)


def evening_round_preview(
    *, actor, evening_id, number: int | None = None, tables: Sequence[Sequence[str]] | None = None
) -> dict:
    """The round ``evening_round_seat`` would seat, checked the same way but not saved: its
    tables (seats, first dealer, the pairs who met before), sit-outs, and the evening's repeats
    against their lower bound — what the organiser sees before seating by hand."""
    evening = _evening_for_admin(actor, evening_id)
    with transaction.atomic():
        evening = _locked(evening)
        next_number, present, played = _next_round(evening, number)
        seated, seated_by = _seated(evening, present, played, next_number, tables)
    names = {p.pk: p.username for p in present}
    meetings = selectors.round_meetings([*played, seated], selectors.season_past_pairs(evening), names=names)
    return {
        "number": next_number,
        "seated_by": seated_by,
        "repeats": meetings["repeats"],
        "lower_bound": meetings["lower_bound"],
        "tables": [
            {
                "number": t,
                "first_dealer": table.first_dealer,
                "seats": {seat: names[pk] for seat, pk in table.seats().items()},
                "met_before": meetings["met_before"][t - 1],
            }
            for t, table in enumerate(seated.tables, start=1)
        ],
        "sitting_out": sorted(names[pk] for pk in seated.sitting_out),
    }


def _next_round(evening: Evening, number: int | None) -> tuple[int, list[Player], list[seating.Round]]:
    """The round to seat (checked against ``number``), who is present for it, and the rounds played."""
    season = evening.season
    if season.status != Season.Status.OPEN:
        raise SeasonClosed(_("the season %(season)s is closed: no match can join it") % {"season": season.name})
    next_number = selectors.evening_next_round(evening)
    if number is not None and number < next_number:
        raise RoundSeated(_("round %(number)d of this evening is seated already") % {"number": number}, field="round")
    if number is not None and number > next_number:
        raise InvalidInput(_("the next round to seat is round %(number)d") % {"number": next_number}, field="round")
    if next_number > evening.rounds:
        raise EveningComplete(_("all %(rounds)d rounds of this evening are seated") % {"rounds": evening.rounds})
    present = selectors.evening_present(evening, next_number)
    if len(present) < seating.TABLE:
        raise TooFewPlayers(
            _("%(count)d players are present: a table needs four") % {"count": len(present)},
            present=[p.username for p in present],
        )
    return next_number, present, selectors.evening_played_rounds(evening)


def _seated(
    evening: Evening, present: list[Player], played: list[seating.Round], number: int, tables
) -> tuple[seating.Round, str]:
    if tables is not None:
        return _given_tables(tables, present, played), "manual"
    return _searched(evening, present, played, number)


def _searched(
    evening: Evening, present: list[Player], played: list[seating.Round], number: int
) -> tuple[seating.Round, str]:
    totals = None
    if evening.swiss and played:
        totals, ended = selectors.evening_totals(evening)
        if not ended:
            raise RoundInProgress(
                _("Swiss seating needs the results of the rounds before: a match of this evening is still being played")
            )
    plan = seating.seat_round(
        present=[p.pk for p in present],
        played=played,
        rounds_left=evening.rounds - number + 1,
        past_pairs=selectors.season_past_pairs(evening),
        totals=totals,
        seed=evening.seed,
        time_budget=seating_budget(),
        follow_plan=selectors.evening_seated_by_plan(evening),
    )
    return plan.rounds[0], plan.status


def _given_tables(tables: Any, present: list[Player], played: list[seating.Round]) -> seating.Round:
    """Check the hand-made tables: lists of four present players, nobody at two tables."""
    if not isinstance(tables, (list, tuple)) or not tables:
        raise InvalidInput(_("tables must be a list of tables, each a list of four usernames"), field="tables")
    by_name = {p.username: p for p in present}
    where: dict[str, int] = {}
    ids = []
    for t, table in enumerate(tables):
        if not isinstance(table, (list, tuple)) or len(table) != seating.TABLE:
            raise InvalidInput(_("a table seats four players (N, E, S, W)"), field=f"tables[{t}]")
        for k, name in enumerate(table):
            if not isinstance(name, str) or name not in by_name:
                raise InvalidInput(
                    _("%(player)r is not present at this evening") % {"player": name}, field=f"tables[{t}][{k}]"
                )
            if name in where:
                raise InvalidInput(
                    _("%(player)r is seated at table %(table)d already") % {"player": name, "table": where[name] + 1},
                    field=f"tables[{t}][{k}]",
                )
            where[name] = t
        ids.append(tuple(by_name[name].pk for name in table))
    out = [p.pk for p in present if p.username not in where]
    return seating.seat_given_tables(ids, played=played, sitting_out=out)


def _create_round(
    actor, evening: Evening, number: int, seated: seating.Round, seated_by: str, played: list[seating.Round]
) -> EveningRound:
    players = {p.pk: p for p in Player.objects.filter(pk__in=[*seated.seated(), *seated.sitting_out])}
    one = EveningRound.objects.create(
        evening=evening, number=number, seated_by=seated_by[:16], repeats=seating.repeat_meetings([*played, seated])
    )
    one.sitting_out.set([players[pk] for pk in seated.sitting_out])
    ruleset = league_ruleset(evening.season.league)
    for t, table in enumerate(seated.tables, start=1):
        seats = {seat: players[pk].username for seat, pk in table.seats().items()}
        match = games.match_create(
            actor=actor,
            seats=seats,
            first_dealer=table.first_dealer,
            dealing=evening.dealing,
            ruleset=ruleset,
            played_on=evening.date,  # played that evening, whenever its sheet is filed (issue 23)
        )
        EveningTable.objects.create(
            round=one, number=t, season_match=season_match_join(season=evening.season, match=match)
        )
    return one


# --- a withdrawn table filed again ------------------------------------------------------------------


def evening_table_refile(*, actor, evening_id, round_number, table_number) -> Match:
    """A withdrawn table of the evening is filed again in its place (issue 23): a new match with
    the same seats, first dealer, dealing, ruleset and date joins the season, and the table
    points to it; the withdrawn match stays in the season, withdrawn (it counts for nobody).
    A table whose match is not withdrawn is refused (``WithdrawalConflict``)."""
    evening = _evening_for_admin(actor, evening_id)
    with transaction.atomic():
        evening = _locked(evening)
        if evening.season.status != Season.Status.OPEN:
            raise SeasonClosed(
                _("the season %(season)s is closed: no match can join it") % {"season": evening.season.name}
            )
        table = (
            EveningTable.objects.select_related("season_match__match")
            .filter(round__evening=evening, round__number=int_id(round_number), number=int_id(table_number))
            .first()
        )
        if table is None:
            raise NotFound(
                _("no table %(table)s in round %(round)s of this evening")
                % {"table": table_number, "round": round_number}
            )
        old = table.season_match.match
        if not old.withdrawn:
            raise WithdrawalConflict(
                _("table %(table)d's match is not withdrawn: withdraw it before it is filed again")
                % {"table": table.number}
            )
        match = games.match_create(
            actor=actor,
            seats={seat.name: player.username for seat, player in zip(Seat, old.seat_players())},
            first_dealer=old.first_dealer,
            dealing=old.dealing,
            ruleset={"name": old.ruleset_name, "version": old.ruleset_version, "options": old.ruleset_options},
            played_on=evening.date,
        )
        table.season_match = season_match_join(season=evening.season, match=match)
        table.save(update_fields=["season_match"])
    return match


# --- helpers ------------------------------------------------------------------------------------


def _season(actor, season_id) -> Season:
    pk = int_id(season_id)
    season = Season.objects.select_related("league__club").filter(pk=pk).first() if pk is not None else None
    if season is None or not selectors.can_read_evenings(actor, season.league.club_id):
        raise NotFound(_("no season %(season)s") % {"season": season_id})
    if not selectors.can_manage_evenings(actor, season.league.club_id):
        raise NotAllowed(_("only the admins of %(club)s run its evenings") % {"club": season.league.club.name})
    if season.status != Season.Status.OPEN:
        raise SeasonClosed(_("the season %(season)s is closed: no evening can join it") % {"season": season.name})
    return season


def _evening_for_admin(actor, evening_id) -> Evening:
    evening = selectors.evening_visible(actor, evening_id)
    if evening is None:
        raise NotFound(_("no evening %(evening)s") % {"evening": evening_id})
    if not selectors.can_manage_evenings(actor, evening.season.league.club_id):
        raise NotAllowed(_("only the admins of the club run its evenings"))
    return evening


def _locked(evening: Evening) -> Evening:
    """The evening row locked: its rounds and sign-ins change one request at a time."""
    return Evening.objects.select_for_update().select_related("season__league__club").get(pk=evening.pk)


def _members(season: Season, names: Any, *, field: str) -> list[Player]:
    """The players named (usernames), each a member of the season's club; unknown names,
    non-members and names given twice are refused."""
    if not isinstance(names, (list, tuple)) or not all(isinstance(n, str) and n for n in names):
        raise InvalidInput(_("players must be a list of usernames"), field=field)
    found = []
    for k, name in enumerate(names):
        if name in names[:k]:
            raise InvalidInput(_("%(player)r is listed twice") % {"player": name}, field=f"{field}[{k}]")
        player = _player_named(name)
        if player is None:
            raise InvalidInput(_("no player named %(player)r") % {"player": name}, field=f"{field}[{k}]")
        found.append(player)
    members = selectors.club_member_players(season.league.club_id, found)
    for k, player in enumerate(found):
        if player.pk not in members:
            raise InvalidInput(
                _("%(player)r is not a member of %(club)s")
                % {"player": player.username, "club": season.league.club.name},
                field=f"{field}[{k}]",
            )
    return found


def _player_named(name: str) -> Player | None:
    """The player of that name, or the profile of the user of that name (created on first use)."""
    player = Player.objects.filter(username=name).first()
    if player is not None:
        return player
    user = get_user_model().objects.filter(username=name).first()
    return games.player_for_user(user) if user is not None else None
