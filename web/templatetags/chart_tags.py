"""The pages' charts (``web.charts`` draws them): each tag takes what ONE selector returned, words
it in the reader's language and renders ``web/_chart.html`` — the SVG, and the same numbers as
a table for whoever does not see the picture.

- ``balance_chart``: ``scoring.selectors.season_balance_series``;
- ``rating_chart``: one league of ``scoring.selectors.player_rating_series``;
- ``kinds_chart``: ``scoring.selectors.player_kind_results``;
- ``running_chart``: ``games.read.selectors.match_running_totals``.
"""

from __future__ import annotations

from django import template
from django.utils.formats import date_format
from django.utils.translation import gettext

from printing import formats
from web import charts
from web.charts import Bar, Series, number

register = template.Library()
CHART = "web/_chart.html"


def _chart(svg, caption: str, head: list[str], rows: list[list[str]]) -> dict:
    return {"svg": svg, "caption": caption, "head": head, "rows": rows}


def _empty(text: str) -> dict:
    return {"svg": None, "empty": text}


@register.inclusion_tag(CHART)
def balance_chart(data: dict) -> dict:
    """Each player's balance after each evening (the first ``charts.MAX_SERIES`` of the standings
    drawn, everyone in the table)."""
    days, players = data["days"], data["players"]
    if not days or not players:
        return _empty(gettext("No balance to draw yet: no match of this season counts."))
    leader = players[0]
    desc = gettext(
        "Each player's balance (Σ points) after each evening: evenings %(count)s, from %(first)s to %(last)s. "
        "At the end %(leader)s leads with %(balance)s."
    ) % {
        "count": len(days),
        "first": date_format(days[0], "DATE_FORMAT"),
        "last": date_format(days[-1], "DATE_FORMAT"),
        "leader": leader["name"],
        "balance": number(leader["balances"][-1], signed=True),
    }
    if len(players) > charts.MAX_SERIES:
        desc += " " + gettext("The chart draws the first %(shown)s of the standings; the table lists everyone.") % {
            "shown": charts.MAX_SERIES
        }
    svg = charts.line_chart(
        key="balance-chart",
        title=gettext("Balance after each evening"),
        desc=desc,
        # Translators: the date format of a chart's axis (Django's date format letters): 1 Oct
        x_labels=[date_format(day, gettext("j M")) for day in days],
        series=[Series(one["name"], one["balances"]) for one in players],
        y_title=gettext("balance"),
        signed=True,
    )
    return _chart(
        svg,
        gettext("Balance after each evening"),
        [gettext("Player"), *(date_format(day, "DATE_FORMAT") for day in days)],
        [[one["name"], *(number(value, signed=True) for value in one["balances"])] for one in players],
    )


@register.inclusion_tag(CHART)
def rating_chart(league: dict) -> dict:
    """The rating of one league after each rated match: μ, the displayed μ − 3σ, and the band μ ± 3σ."""
    points = league["points"]
    if not points:
        return _empty(gettext("No rated match yet."))
    last = points[-1]
    title = gettext("Rating in %(league)s") % {"league": league["name"]}
    desc = gettext(
        "The rating after each rated match: matches %(count)s. Now μ %(mu)s, σ %(sigma)s, rating μ − 3σ "
        "%(ordinal)s. The shaded band spans μ ± 3σ: it narrows as the rating grows surer."
    ) % {
        "count": len(points),
        "mu": number(last["mu"], 2),
        "sigma": number(last["sigma"], 2),
        "ordinal": number(last["ordinal"], 2),
    }
    svg = charts.line_chart(
        key=f"rating-chart-{league['league']}",
        title=title,
        desc=desc,
        x_labels=[str(index) for index in range(1, len(points) + 1)],
        series=[
            Series(gettext("skill μ"), [p["mu"] for p in points]),
            Series(gettext("rating μ − 3σ"), [p["ordinal"] for p in points]),
        ],
        band=[(p["mu"] - 3 * p["sigma"], p["mu"] + 3 * p["sigma"]) for p in points],
        band_name=gettext("uncertainty μ ± 3σ"),
        x_title=gettext("rated match"),
        y_title=gettext("rating"),
    )
    return _chart(
        svg,
        title,
        [gettext("Match"), gettext("Finished on"), "μ", "σ", "μ − 3σ"],
        [
            [
                str(index),
                date_format(p["finished_at"], "DATE_FORMAT") if p["finished_at"] else "",
                number(p["mu"], 2),
                number(p["sigma"], 2),
                number(p["ordinal"], 2),
            ]
            for index, p in enumerate(points, 1)
        ],
    )


@register.inclusion_tag(CHART)
def kinds_chart(results: list[dict]) -> dict:
    """Mean points per deal by deal kind (R4)."""
    played = [one for one in results if one["deals"]]
    if not played:
        return _empty(gettext("No deal of a match that counts yet."))
    label = {one["kind"]: formats.kind_label(one["kind"]) for one in results}
    desc = gettext("Mean points per deal of each kind, in the matches that count: %(kinds)s.") % {
        "kinds": "; ".join(_kind_phrase(label[one["kind"]], one) for one in played)
    }
    svg = charts.bar_chart(
        key="kinds-chart",
        title=gettext("Points per deal by kind"),
        desc=desc,
        bars=[
            Bar(label[one["kind"]], float(one["mean"]), gettext("deals: %(count)s") % {"count": one["deals"]})
            for one in played
        ],
        places=1,
    )
    return _chart(
        svg,
        gettext("Points per deal by kind"),
        [gettext("Kind"), gettext("Deals"), gettext("Points"), gettext("Per deal")],
        [
            [
                label[one["kind"]],
                str(one["deals"]),
                number(one["points"], signed=True),
                number(one["mean"], 1, signed=True),
            ]
            for one in played
        ],
    )


def _kind_phrase(label: str, one: dict) -> str:
    return gettext("%(kind)s %(mean)s per deal (deals %(count)s, points %(points)s)") % {
        "kind": label,
        "mean": number(one["mean"], 1, signed=True),
        "count": one["deals"],
        "points": number(one["points"], signed=True),
    }


@register.inclusion_tag(CHART)
def running_chart(data: dict) -> dict:
    """Each seat's running total after each finished deal."""
    deals, seats = data["deals"], data["seats"]
    if not deals:
        return _empty(gettext("No deal finished yet."))
    names = [f"{one['seat']} · {one['name']}" for one in seats]
    desc = gettext(
        "Each seat's running total after each finished deal: deals %(count)s. After deal %(last)s: %(totals)s."
    ) % {
        "count": len(deals),
        "last": deals[-1],
        "totals": ", ".join(f"{name} {number(one['totals'][-1], signed=True)}" for name, one in zip(names, seats)),
    }
    svg = charts.line_chart(
        key="running-chart",
        title=gettext("Running totals deal by deal"),
        desc=desc,
        x_labels=[str(deal) for deal in deals],
        series=[Series(name, one["totals"]) for name, one in zip(names, seats)],
        x_title=gettext("deal"),
        y_title=gettext("points"),
        signed=True,
    )
    return _chart(
        svg,
        gettext("Running totals deal by deal"),
        [gettext("Deal"), *names],
        [[str(deal), *(number(one["totals"][i], signed=True) for one in seats)] for i, deal in enumerate(deals)],
    )


@register.inclusion_tag(CHART)
def accuracy_chart(series: list[dict], name: str, season_id: int | None = None) -> dict:
    """A player's season accuracy after each of his annotated matches
    (``scoring.annotation_selectors.season_accuracy_series``): the share of his graded cards that
    cost nothing, in per cent, the season so far. ``season_id`` where a page shows several
    seasons' charts (the ids of each chart's title and description must be unique)."""
    shares = [point["season"].share for point in series]
    if not any(share is not None for share in shares):
        return _empty(gettext("No annotated deal of his yet."))
    days = [point["match"].played_on or point["match"].created_at for point in series]
    last = next(share for share in reversed(shares) if share is not None)
    desc = gettext("%(name)s's season accuracy after each of his %(count)s matches; at the end %(share)s %%.") % {
        "name": name,
        "count": len(series),
        "share": number(last, 1),
    }
    svg = charts.line_chart(
        key="accuracy-plot" if season_id is None else f"accuracy-plot-{season_id}",
        title=gettext("His season accuracy after each match (per cent)"),
        desc=desc,
        x_labels=[date_format(day, gettext("j M")) for day in days],
        series=[Series(name, shares)],
        y_title="%",
    )
    return _chart(
        svg,
        gettext("His season accuracy after each match (per cent)"),
        [gettext("Match"), gettext("Season so far")],
        [
            [date_format(day, "DATE_FORMAT"), "–" if share is None else number(share, 1) + " %"]
            for day, share in zip(days, shares)
        ],
    )
