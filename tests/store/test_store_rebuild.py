"""manage.py rebuild_projections: the read models recreated from events alone are the rows
the commands wrote live."""

import io

import pytest
from django.core.management import CommandError, call_command
from store_helpers import SEATED, fresh_users, legal_play, new_server_match, play_legal_cards, sample, store_people
from support.once import fresh, once_per_module

from games.models import DealScore, Match, MatchProjection
from games.read import audit
from games.write import services

pytestmark = pytest.mark.django_db

SAMPLES = ("m1-legal", "m2-partial", "m5-legal", "m9-partial", "m10-legal")


def _read_models(match) -> dict:
    """A match's read-model rows, as values (ids of DealScore rows aside)."""
    return {
        "match": Match.objects.filter(pk=match.pk).values("version", "status").get(),
        "projection": MatchProjection.objects.filter(pk=match.pk).values().get(),
        "deal_scores": list(
            DealScore.objects.filter(match=match)
            .order_by("number", "seat")
            .values(
                "match", "number", "seat", "player", "kind", "compensating", "multiplier", "tricks", "points", "kreski"
            )
        ),
    }


def _rebuild(*args) -> str:
    out = io.StringIO()
    call_command("rebuild_projections", *args, stdout=out)
    return out.getvalue()


def build_matches():
    """The conftest's users; imported samples (finished and in progress), a live server-dealt match
    in its second deal, and an abandoned one."""
    users = store_people()
    imported = [services.record_import(actor=users["scorer"], record=sample(name)) for name in SAMPLES]
    server_match = new_server_match(users)
    play_legal_cards(server_match, users["scorer"], 52)
    services.deal_start(match_id=server_match.pk, actor=users["east"])
    play_legal_cards(server_match, users["scorer"], 8)
    abandoned = services.match_create(actor=users["north"], seats=SEATED, first_dealer="W")
    services.deal_start(match_id=abandoned.pk, actor=users["west"])
    for _ in range(5):  # no scorer here: each player on turn plays
        seat, card = legal_play(abandoned)
        services.card_play(match_id=abandoned.pk, actor=users[SEATED[seat]], card=card)
    services.match_abandon(match_id=abandoned.pk, actor=users["south"], reason="rain")
    return users, imported + [server_match, abandoned]


# Built once (support.once): every test of the module starts from these users, and those of
# ``matches`` from these matches; the others rebuild their own along with them.
built = once_per_module(build_matches)


@pytest.fixture
def users(built):
    return fresh_users(built[0])


@pytest.fixture
def matches(built):
    return [fresh(match) for match in built[1]]


def test_the_fixture_covers_every_status_and_finished_deals(matches):
    statuses = {_read_models(m)["match"]["status"] for m in matches}
    assert statuses == {"finished", "in_progress", "abandoned"}
    assert DealScore.objects.filter(match=matches[-2]).count() == 4  # the live match's first deal


def test_rebuilding_from_events_alone_gives_the_rows_written_live(matches):
    live = [_read_models(m) for m in matches]
    MatchProjection.objects.all().delete()
    DealScore.objects.all().delete()

    out = _rebuild()

    assert [_read_models(m) for m in matches] == live
    assert f"rebuilt the read models of {len(matches)} match(es)" in out
    assert all(str(m.pk) in out for m in matches)


def test_rebuilding_over_damaged_read_models_repairs_them(matches):
    live = [_read_models(m) for m in matches]
    MatchProjection.objects.update(version=0, head_hash="", snapshot={}, summary={})
    DealScore.objects.update(points=0)
    Match.objects.update(version=0, status=Match.Status.IN_PROGRESS)

    _rebuild()
    _rebuild()  # and again: nothing changes

    assert [_read_models(m) for m in matches] == live


def test_rebuilding_one_match_leaves_the_others_alone(matches):
    one, other = matches[0], matches[1]
    live = _read_models(one)
    MatchProjection.objects.filter(pk__in=[one.pk, other.pk]).update(summary={})

    out = _rebuild("--match", str(one.pk))

    assert _read_models(one) == live
    assert MatchProjection.objects.get(pk=other.pk).summary == {}
    assert "rebuilt the read models of 1 match(es)" in out


def test_the_live_match_goes_on_after_a_rebuild(matches, users):
    live = matches[-2]
    MatchProjection.objects.filter(pk=live.pk).delete()
    _rebuild("--match", str(live.pk))

    play_legal_cards(live, users["scorer"], 1)

    assert audit.chain_check(live).ok and audit.rules_check(live).ok


def _play_live(record: dict, scorer) -> Match:
    """The record's deals entered through the live commands, by the scorer of a recorded match."""
    match = services.match_create(
        actor=scorer,
        seats=SEATED,
        first_dealer=record["first_dealer"],
        dealing=Match.Dealing.RECORDED,
        ruleset=record["ruleset"],
    )
    for deal in record["deals"]:
        services.deal_start(match_id=match.pk, actor=scorer, hands=deal["hands"])
        if deal.get("sale"):
            offer = services.lead_offer(
                match_id=match.pk, actor=scorer, seat=deal["sale"]["buyer"], price=deal["sale"]["price"]
            )
            services.lead_decide(match_id=match.pk, actor=scorer, offer=offer.events[0].seq)
        for card in deal["plays"]:
            services.card_play(match_id=match.pk, actor=scorer, card=card)
    return match


def _without_match_and_hash(models: dict) -> dict:
    projection = {k: v for k, v in models["projection"].items() if k not in ("match_id", "head_hash")}
    scores = [{k: v for k, v in row.items() if k != "match"} for row in models["deal_scores"]]
    return {"match": models["match"], "projection": projection, "deal_scores": scores}


def test_a_match_entered_live_with_a_lead_sale_rebuilds_identically_and_equals_its_import(users):
    record = dict(sample("m7-partial"), players=SEATED)  # its last deal: a sale, then 13 cards
    live = _play_live(record, users["scorer"])
    imported = services.record_import(actor=users["scorer"], record=record)
    written = _read_models(live)
    assert written["projection"]["snapshot"]["deal"]["accepted"] == 0
    assert _without_match_and_hash(written) == _without_match_and_hash(_read_models(imported))

    MatchProjection.objects.all().delete()
    DealScore.objects.all().delete()
    _rebuild()

    assert _read_models(live) == written


@pytest.mark.parametrize("value", ["not-a-uuid", "00000000-0000-0000-0000-000000000000"])
def test_an_unknown_match_is_a_command_error(db, value):
    with pytest.raises(CommandError):
        _rebuild("--match", value)
