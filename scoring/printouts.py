"""What the PDFs print, gathered from the read models as plain data (``printing`` renders it):
a match's score sheet (blank before its first deal ends, filled after), a season's standings,
its end-of-season summary and an evening's seating. Reads only; who may read what is the
caller's to check."""

from __future__ import annotations

from typing import Any

from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games.engine import Ruleset
from games.models import Match
from printing import formats, render_score_sheet, render_seating, render_standings, render_summary, render_table_sheets
from printing.reminder import point_reminder

from .evening_models import EveningRound, EveningTable
from .evening_selectors import evening_seating
from .models import Evening, Season, SeasonMatch
from .selectors import season_balance_series, standing_rows
from .summary import season_summary

SEATS = ("N", "E", "S", "W")


def match_sheet_pdf(*, match: Match, page_url: str = "") -> bytes:
    """The match's score sheet: blank (the table's sheet of ``table_sheet``, with the QR code to
    ``page_url`` when given) while no deal has finished, else filled from the replay summary (with
    the winners once it is over)."""
    summary = match.projection.summary
    if not summary["deals"]:
        return render_table_sheets(title=_("Score sheet"), sheets=[table_sheet(match=match, page_url=page_url)])
    ruleset = Ruleset.from_options(match.ruleset_options)
    players = {seat: player.username for seat, player in zip(SEATS, match.seat_players())}
    season_match = SeasonMatch.objects.filter(match=match).select_related("season__league__club").first()
    subtitle = ""
    if season_match is not None:
        season = season_match.season
        subtitle = f"{season.league.club.name} · {season.league.name} · {season.name}"
    filled = bool(summary["deals"])
    return render_score_sheet(
        title=_("Score sheet") + f" · {formats.long_date(match.played_on or match.created_at)}",
        subtitle=" · ".join(part for part in (subtitle, _("match %(id)s") % {"id": match.pk}) if part),
        players=players,
        first_dealer=match.first_dealer,
        regular_deals=[kind.letter for kind in ruleset.regular_deals],
        reminder=point_reminder(ruleset),
        deals=summary["deals"] if filled else (),
        totals=summary["totals"] if filled else None,
        winners=summary.get("winners") or [],
    )


def polish_date(day) -> str:
    """A date as people write it in the page's language ("3 grudnia 2026" in Polish)."""
    return formats.long_date(day)


def table_sheet(*, match: Match, page_url: str = "") -> dict[str, Any]:
    """What a table's blank sheet prints (``printing.render_table_sheets``): its round and table
    when an evening seated it, the players by seat, the first dealer, the regular deals, the
    club and season with the date, the page's address, and the withdrawal when there is one."""
    table = EveningTable.objects.filter(season_match__match=match).select_related("round__evening").first()
    season_match = SeasonMatch.objects.filter(match=match).select_related("season__league__club").first()
    day = table.round.evening.date if table else match.played_on or match.created_at.date()
    parts = [] if season_match is None else [season_match.season.league.club.name, season_match.season.name]
    withdrawal = match.projection.summary.get("withdrawal")
    return {
        "round": table.round.number if table else "–",
        "table": table.number if table else "–",
        "players": {seat: player.username for seat, player in zip(SEATS, match.seat_players())},
        "first_dealer": match.first_dealer,
        "regular_deals": [kind.letter for kind in Ruleset.from_options(match.ruleset_options).regular_deals],
        "subtitle": " · ".join([*parts, polish_date(day)]),
        "url": page_url,
        "withdrawn": (
            _("WITHDRAWN: this match counts for nothing (%(reason)s)") % {"reason": withdrawal.get("reason") or "–"}
            if withdrawal
            else ""
        ),
    }


def round_sheets_pdf(*, evening: Evening, number: int, page_url) -> bytes | None:
    """Every table's sheet of round ``number`` in one PDF (None: no such round);
    ``page_url(match)``: the address of the table's score-sheet page, for its QR code."""
    one = EveningRound.objects.filter(evening=evening, number=number).first()
    if one is None:
        return None
    tables = EveningTable.objects.filter(round=one).select_related("season_match__match").order_by("number")
    sheets = [
        table_sheet(match=table.season_match.match, page_url=page_url(table.season_match.match)) for table in tables
    ]
    title = _("Round %(round)s · %(date)s") % {"round": number, "date": polish_date(evening.date)}
    return render_table_sheets(title=title, sheets=sheets)


def standing_dicts(season: Season) -> list[dict[str, Any]]:
    return [
        {
            "position": row.position,
            "ranked": row.ranked,
            "player": row.player.username,
            "matches": row.matches,
            "wins": row.wins,
            "balance": row.balance,
            "balance_per_match": row.balance_per_match,
            "kreski": row.kreski,
            "max_deals": row.max_deals,
            "ordinal": row.ordinal,
        }
        for row in standing_rows(season.pk)
    ]


def _season_line(season: Season) -> str:
    return f"{season.league.club.name} · {season.league.name}"


def season_standings_pdf(*, season: Season) -> bytes:
    computed = (
        _("computed %(when)s") % {"when": formats.long_datetime(season.computed_at)}
        if season.computed_at
        else _("not computed yet")
    )
    return render_standings(
        title=_("%(season)s — standings") % {"season": season.name},
        subtitle=f"{_season_line(season)} · {computed}",
        rows=standing_dicts(season),
    )


def season_summary_pdf(*, season: Season) -> bytes:
    return render_summary(
        title=_("%(season)s — season summary") % {"season": season.name},
        subtitle=_season_line(season),
        facts=summary_facts(season_summary(season=season)),
        rows=standing_dicts(season),
        chart=balance_chart(season),
    )


def balance_chart(season: Season) -> dict[str, Any]:
    """The summary's chart: each player's balance after each evening (``season_balance_series``,
    as the season page draws it)."""
    data = season_balance_series(season.pk)
    return {
        "title": _("Balance after each evening"),
        "y_title": _("balance"),
        # Translators: the date format of a chart's axis (Django's date format letters): 1 Oct
        "x_labels": [date_format(day, _("j M")) for day in data["days"]],
        "series": [(one["name"], one["balances"]) for one in data["players"]],
    }


def summary_facts(summary: dict[str, Any]) -> list[tuple[str, str]]:
    """The summary's records as (label, text) lines, for the PDF and the page."""
    none = _("none")
    kreski, best, improved = summary["most_kreski"], summary["best_match"], summary["most_improved"]
    return [
        (_("Champion") if summary["final"] else _("Leader"), ", ".join(summary["champions"]) or none),
        (_("Most kreski"), f"{', '.join(kreski['players'])} ({kreski['count']})" if kreski else none),
        (_("Max deals"), ", ".join(f"{m['player']} ({m['count']})" for m in summary["max_deals"]) or none),
        (_("Best single match"), f"{best['player']} ({formats.signed(best['total'])})" if best else none),
        (
            _("Most improved rating"),
            f"{improved['player']} ({formats.signed(improved['gain'], 2)})" if improved else none,
        ),
    ]


def evening_seating_pdf(*, evening: Evening) -> bytes:
    """The evening's seated rounds (``evening_seating``): each round's tables, seats, first
    dealers and sit-outs, to pin up or hand to the tables."""
    rounds = evening_seating(evening)
    season = evening.season
    return render_seating(
        _("Evening of %(date)s — seating") % {"date": polish_date(evening.date)},
        [
            [
                {
                    "table": table["number"],
                    "seats": table["seats"],
                    "first_dealer": table["first_dealer"],
                    "met_before": table["met_before"],
                }
                for table in one["tables"]
            ]
            for one in rounds
        ],
        [one["sitting_out"] for one in rounds],
        subtitle=f"{_season_line(season)} · {season.name}",
        repeats=[(one["repeats"], one["lower_bound"]) for one in rounds],
    )
