"""For the privacy tests (issue 28: tests/privacy, tests/web): a club whose member ``zuzanna`` played ten season
matches, and a search of every text column of every model for what an erasure must remove."""

import random

from django.apps import apps
from django.db import models

from games.engine import Ruleset
from games.engine.simulate import simulate_match
from support.world import build_world

TABLEMATES = ("p2", "p3", "p4", "p5", "p6")
TRACES = ("zuzanna", "kowalska", "zuzanna@example.org")


def club_with_zuzanna(user_model, capture, matches: int = 10):
    """tests/support's world (admin ``ada``, scorer ``sam``, arbiter ``arb``, members ``zuzanna``
    and ``p2``–``p6``), ``zuzanna`` (e-mail, full name) seated in ``matches`` season matches filed
    by ``sam``, each with three of the others; the world and the season matches."""
    from scoring import services

    world = build_world(user_model, players=("zuzanna", *TABLEMATES), scorer="sam", arbiter="arb", options=None)
    zuzanna = world.users["zuzanna"]
    zuzanna.email, zuzanna.first_name, zuzanna.last_name = "zuzanna@example.org", "Zuzanna", "Kowalska"
    zuzanna.save()
    rng = random.Random(28)
    filed = []
    with capture(execute=True):
        for k in range(matches):
            names = ["zuzanna", *rng.sample(TABLEMATES, 3)]
            rng.shuffle(names)
            record = simulate_match(
                random.Random(k), players=dict(zip("NESW", names)), ruleset=Ruleset.from_options({})
            )
            filed.append(
                services.season_record_import(actor=world.users["sam"], season_id=world.season.pk, record=record)
            )
    return world, filed


GUEST = "Jan Kowalsky"  # a typo of "Jan Kowalski"


def club_with_guest(user_model, capture, matches: int = 2):
    """tests/support's world with members ``p2``–``p4``; the admin ``ada`` added ``GUEST`` by name
    (no account), who played ``matches`` season matches at North with them; the world and him."""
    from scoring import services
    from scoring.invitations import club_player_add

    world = build_world(user_model, players=("p2", "p3", "p4"), options=None)
    guest = club_player_add(actor=world.users["ada"], club_id=world.club.pk, name=GUEST)
    with capture(execute=True):
        for k in range(matches):
            seats = dict(zip("NESW", (GUEST, "p2", "p3", "p4")))
            record = simulate_match(random.Random(k), players=seats, ruleset=Ruleset.from_options({}))
            services.season_record_import(actor=world.users["sam"], season_id=world.season.pk, record=record)
    return world, guest


def text_columns():
    """(model, field name) of every character, text and JSON column of every installed model."""
    kinds = (models.CharField, models.TextField, models.JSONField)
    for model in apps.get_models():
        if model._meta.managed and not model._meta.proxy:
            for field in model._meta.concrete_fields:
                if isinstance(field, kinds):
                    yield model, field.attname


def traces_in_database(traces=TRACES) -> list[str]:
    """Where any of ``traces`` (case-insensitive) is still stored: ``app.Model.field #pk`` each."""
    found = []
    for model, name in text_columns():
        for pk, value in model._base_manager.values_list("pk", name).iterator():
            text = str(value).lower()
            if any(trace in text for trace in traces):
                found.append(f"{model._meta.label}.{name} #{pk}")
    return found


def store_legacy_log(logged: dict):
    """A match of tests/data/event_log_v1.json (written before the log named people by id) stored
    again row for row, as it was written then; the match."""
    import datetime as dt

    from games.management.commands.rebuild_projections import rebuild_match
    from games.models import DealSecret, Match, MatchEvent, Player

    created = logged["events"][0]["payload"]
    players = [Player.objects.get_or_create(username=created["seats"][s])[0] for s in "NESW"]
    match = Match.objects.create(
        id=logged["match"],
        **dict(zip(Match.SEAT_FIELDS, players)),
        first_dealer=created["first_dealer"],
        ruleset_name=created["ruleset"]["name"],
        ruleset_version=created["ruleset"]["version"],
        ruleset_options=created["ruleset"]["options"],
        dealing=created["dealing"],
        status=logged["status"],
        version=len(logged["events"]),
    )
    MatchEvent.objects.bulk_create(
        MatchEvent(
            match=match,
            seq=e["seq"],
            type=e["type"],
            payload=e["payload"],
            actor_name=e["actor"],
            created_at=dt.datetime.fromisoformat(e["created_at"]),
            hash=e["hash"],
        )
        for e in logged["events"]
    )
    DealSecret.objects.bulk_create(
        DealSecret(match=match, number=int(n), hands=s["hands"], salt=s["salt"]) for n, s in logged["secrets"].items()
    )
    rebuild_match(match.pk)
    return match
