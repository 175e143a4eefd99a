"""Reads of club evenings: who may see them, who is present, what was played (as the values
``scoring.seating`` takes), and the seating as plain data (for the API, pages and printing)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from django.db.models import Q, Sum

from games.domain.ids import int_id
from games.models import DealScore, Match, Player

from . import members, seating
from .models import Evening, EveningPlayer, EveningRound, EveningTable, Membership

SEAT_FIELDS = dict(zip(seating.SEATS, Match.SEAT_FIELDS))


# --- who ---------------------------------------------------------------------------------------


def club_member_players(club_id, players: Iterable[Player]) -> set[int]:
    """The ids of those of ``players`` who play for the club (``members.club_players``: members
    with an account, and the profiles the club added without one)."""
    ids = [player.pk for player in players]
    return set(members.club_players(club_id).filter(pk__in=ids).values_list("pk", flat=True))


def can_read_evenings(user, club_id) -> bool:
    """The club's members (any role) and staff read its evenings."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or Membership.objects.filter(club_id=club_id, user=user).exists()


def can_manage_evenings(user, club_id) -> bool:
    """The club's admins and staff run its evenings."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_staff or Membership.objects.filter(club_id=club_id, user=user, role=Membership.Role.ADMIN).exists()


def evenings_visible(user):
    """The evenings ``user`` may read (404 for the others)."""
    evenings = Evening.objects.select_related("season__league")
    if user.is_staff:
        return evenings
    return evenings.filter(season__league__club__memberships__user=user).distinct()


def evening_visible(user, evening_id) -> Evening | None:
    pk = int_id(evening_id)
    return evenings_visible(user).filter(pk=pk).first() if pk is not None else None


# --- the evening so far -------------------------------------------------------------------------


def evening_next_round(evening: Evening) -> int:
    return EveningRound.objects.filter(evening=evening).count() + 1


def evening_present(evening: Evening, number: int) -> list[Player]:
    """The players present for round ``number``: arrived by then and not withdrawn."""
    rows = (
        EveningPlayer.objects.filter(evening=evening, arrived_round__lte=number, left_round__isnull=True)
        .select_related("player")
        .order_by("player__username")
    )
    return [row.player for row in rows]


def evening_played_rounds(evening: Evening) -> list[seating.Round]:
    """The seated rounds as ``seating.Round`` values over player ids (seats, first dealers, sit-outs)."""
    rounds = []
    for one in (
        EveningRound.objects.filter(evening=evening)
        .order_by("number")
        .prefetch_related("sitting_out", "tables__season_match__match")
    ):
        tables = tuple(
            seating.Table(tuple(table.season_match.match.seat_player_ids()), table.season_match.match.first_dealer)
            for table in sorted(one.tables.all(), key=lambda t: t.number)
        )
        rounds.append(seating.Round(tables, tuple(sorted(p.pk for p in one.sitting_out.all()))))
    return rounds


def evening_seated_by_plan(evening: Evening) -> bool:
    """Whether every round so far was seated by the search within its work budget (none by hand,
    by Swiss seating, or cut short by the wall-clock safety stop): only then may they be the
    evening's plan (``seating.seat_round``'s ``follow_plan``)."""
    seated_by = EveningRound.objects.filter(evening=evening).values_list("seated_by", flat=True)
    return all(how in seating.SEARCHED for how in seated_by)


def season_past_pairs(evening: Evening) -> Counter:
    """How often each pair (of player ids) sat at one table on the season's earlier evenings."""
    earlier = Evening.objects.filter(season=evening.season).filter(
        Q(date__lt=evening.date) | Q(date=evening.date, pk__lt=evening.pk)
    )
    counts: Counter = Counter()
    tables = EveningTable.objects.filter(round__evening__in=earlier).values_list(
        "season_match__match__north_id",
        "season_match__match__east_id",
        "season_match__match__south_id",
        "season_match__match__west_id",
    )
    for players in tables:
        counts.update(seating.pair_counts([seating.Round((seating.Table(tuple(players)),))]))
    return counts


def evening_totals(evening: Evening) -> tuple[dict[int, int], bool]:
    """Each player's running total (Σ points of his finished deals in the evening's matches),
    and whether every match seated so far has ended."""
    matches = Match.objects.filter(season_match__evening_table__round__evening=evening)
    totals = dict(
        DealScore.objects.filter(match__in=matches)
        .values("player")
        .annotate(total=Sum("points"))
        .values_list("player", "total")
        .order_by()
    )
    return totals, not matches.filter(status=Match.Status.IN_PROGRESS).exists()


# --- plain data ---------------------------------------------------------------------------------


def evening_attendance(evening: Evening) -> list[dict]:
    return [
        {
            "player": row.player.username,
            "arrived_round": row.arrived_round,
            "left_round": row.left_round,
            "present": row.present,
        }
        for row in EveningPlayer.objects.filter(evening=evening).select_related("player").order_by("player__username")
    ]


def evening_seating(evening: Evening, numbers: Iterable[int] | None = None) -> list[dict]:
    """The seated rounds (of ``numbers`` only, when given) as plain data: per table its match,
    the match's status, the players by seat, the first dealer and the pairs who met before
    (``met_before``); the sit-outs; the evening's repeats once the round was seated and their
    lower bound (``seating.repeat_lower_bound`` of the rounds' attendance so far)."""
    rounds = (
        EveningRound.objects.filter(evening=evening)
        .order_by("number")
        .prefetch_related(
            "sitting_out",
            "tables__season_match__match__north",
            "tables__season_match__match__east",
            "tables__season_match__match__south",
            "tables__season_match__match__west",
        )
    )
    played, past = evening_played_rounds(evening), season_past_pairs(evening)
    wanted = None if numbers is None else set(numbers)
    return [
        round_data(one, meetings=round_meetings(played[: one.number], past, names=_names(one)))
        for one in rounds
        if wanted is None or one.number in wanted
    ]


def round_meetings(rounds: list[seating.Round], past: Counter, *, names: dict) -> dict:
    """What the organiser sees of the last of ``rounds``: per table the pairs who met before
    (tonight's earlier rounds, the season's earlier evenings), the evening's repeats so far and
    their lower bound with no pair three times. ``names``: player id → username."""
    *before, last = rounds
    return {
        "repeats": seating.repeat_meetings(rounds),
        "lower_bound": seating.repeat_lower_bound([one.present() for one in rounds]),
        "met_before": [
            [
                {"players": [names[a], names[b]], "tonight": tonight, "earlier": earlier}
                for a, b, tonight, earlier in pairs
            ]
            for pairs in seating.met_before(last, before, past)
        ],
    }


def _names(one: EveningRound) -> dict:
    names = {p.pk: p.username for p in one.sitting_out.all()}
    for table in one.tables.all():
        match = table.season_match.match
        names.update({getattr(match, f"{name}_id"): getattr(match, name).username for name in SEAT_FIELDS.values()})
    return names


def round_data(one: EveningRound, *, meetings: dict | None = None) -> dict:
    """One seated round as plain data; ``meetings`` (``round_meetings``) adds what the
    organiser sees of its repeats."""
    tables = []
    for k, table in enumerate(sorted(one.tables.all(), key=lambda t: t.number)):
        match = table.season_match.match
        tables.append(
            {
                "number": table.number,
                "match": match.pk,
                "status": match.status,
                "withdrawn": match.withdrawn,  # a withdrawn table is not "finished" to whoever reads the page
                "confirmed": match.confirmed,
                "dealing": match.dealing,
                "first_dealer": match.first_dealer,
                "seats": {seat: getattr(match, name).username for seat, name in SEAT_FIELDS.items()},
                "met_before": meetings["met_before"][k] if meetings else [],
            }
        )
    return {
        "number": one.number,
        "seated_by": one.seated_by,
        "repeats": one.repeats,
        "lower_bound": meetings["lower_bound"] if meetings else None,
        "created_at": one.created_at,
        "tables": tables,
        "sitting_out": sorted(p.username for p in one.sitting_out.all()),
    }


# --- results ------------------------------------------------------------------------------------


def evening_results(evening: Evening) -> dict:
    """The evening's results as people read them: per round and table the four players (by
    name, in seat order) with their points so far, the match's state (withdrawn, finished,
    in progress) and whether its result is confirmed; then the evening's own ranking — each
    player's Σ points over the evening's matches that count (not withdrawn), most first."""
    tables = (
        EveningTable.objects.filter(round__evening=evening)
        .select_related(
            "round",
            "season_match__match__north",
            "season_match__match__east",
            "season_match__match__south",
            "season_match__match__west",
        )
        .order_by("round__number", "number")
    )
    points = _match_points([table.season_match.match_id for table in tables])
    rounds: dict[int, list[dict]] = {}
    ranking: Counter = Counter()
    played: Counter = Counter()
    for table in tables:
        match = table.season_match.match
        scored = points.get(match.pk, {})
        seats = [(seat, getattr(match, name)) for seat, name in SEAT_FIELDS.items()]
        rounds.setdefault(table.round.number, []).append(
            {
                "number": table.number,
                "match": match,
                "seats": [{"seat": seat, "name": p.username, "points": scored.get(p.pk, 0)} for seat, p in seats],
            }
        )
        if not match.withdrawn:  # a withdrawn table counts for nobody, as in the standings
            for _seat, player in seats:
                ranking[player.username] += scored.get(player.pk, 0)
                played[player.username] += 1
    order = sorted(ranking, key=lambda name: (-ranking[name], name.casefold()))
    return {
        "rounds": [{"number": n, "tables": rows} for n, rows in sorted(rounds.items())],
        "ranking": [{"name": name, "points": ranking[name], "tables": played[name]} for name in order],
    }


def _match_points(match_ids: list) -> dict:
    """match id → player id → Σ points of the match's finished deals."""
    found: dict = {}
    rows = (
        DealScore.objects.filter(match_id__in=match_ids)
        .values("match_id", "player")
        .annotate(total=Sum("points"))
        .values_list("match_id", "player", "total")
        .order_by()
    )
    for match_id, player, total in rows:
        found.setdefault(match_id, {})[player] = total
    return found
